"""``sgmahjong replay``: a record printed hand by hand, ``--check`` and its exit codes, and
bad files as one-line errors (exit 2)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sgmahjong.agents import make_agent
from sgmahjong.cli import main
from sgmahjong.game import Match
from sgmahjong.record import record_from_match, write_record


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    m = Match("garden", seed=3, quick=True)
    m.play([make_agent("greedy").act] * 4)
    assert any(h.wins for h in m.hands)
    return write_record(tmp_path_factory.mktemp("rec") / "m.jsonl",
                        record_from_match(m, ["greedy"] * 4))


def test_replay_prints_hands_winners_patterns_and_standings(
        record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record_file)]) == 0
    out = capsys.readouterr().out
    assert "Hand 1" in out and "deal E(p0)" in out
    assert "wins with" in out and "tai" in out and "patterns:" in out
    assert "Final standings after 4 hands" in out


def test_check_ok_exits_0(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--check", str(record_file)]) == 0
    assert capsys.readouterr().out.startswith("record OK: 4 hands, ")


def test_check_of_a_tampered_record_exits_1_with_the_line(
        record_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = record_file.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if '"type": "discarded"' in line)
    e = json.loads(lines[n])
    e["seat"] = (e["seat"] + 1) % 4
    lines[n] = json.dumps(e)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    assert main(["replay", "--check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"record mismatch at line {n + 1}:")


@pytest.mark.parametrize("content, message", [
    (None, "does not exist"),
    ("hello\n", "not valid JSON"),
    ('{"format": "sgmahjong-record", "version": 7}\n', "unsupported record version 7"),
], ids=["missing", "not-json", "version"])
def test_bad_files_exit_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        content: str | None, message: str) -> None:
    path = tmp_path / "r.jsonl"
    if content is not None:
        path.write_text(content)
    for extra in ([], ["--check"]):
        assert main(["replay", *extra, str(path)]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1


def test_piped_replay_keeps_each_line_whole(tmp_path: Path) -> None:
    """Through a pipe (no terminal, no COLUMNS) nothing wraps at 80 columns: the header keeps
    its whole seed and each hand's play line holds every discard of that hand."""
    import os
    import subprocess
    import sys

    seed = 2**63 - 25   # a long seed, as a random match seed is
    m = Match("garden", seed=seed, quick=True)
    m.play([make_agent("greedy").act] * 4)
    path = write_record(tmp_path / "long.jsonl", record_from_match(m, ["greedy"] * 4))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    done = subprocess.run([sys.executable, "-m", "sgmahjong", "replay", str(path)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env,
                          check=True, timeout=60)
    lines = done.stdout.splitlines()
    assert f"seed {seed}" in lines[0]
    plays = [line for line in lines if line.startswith("  play: ")]
    assert len(plays) == len(m.hands)
    for line, hand in zip(plays, m.hands, strict=True):
        discards = sum(1 for e in hand.events if type(e).__name__ == "Discarded")
        assert len(re.findall(r"(?<![\w\[])[ESWN]:\S+", line)) == discards, line
