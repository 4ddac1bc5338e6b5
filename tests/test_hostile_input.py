"""Hostile input at every way in (score --json, shanten --batch, records, rule files, the
ledger file): each is one line on stderr naming what is wrong and exit 2, never a traceback,
a hang, a runaway read or a wrong answer.

Run in-process through ``sgmahjong.cli.main``; a few checks that need a real pipe or a
FIFO run the command in a subprocess.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
import time

import pytest

from sgmahjong.agents import make_agent
from sgmahjong.cli import main
from sgmahjong.game import Match
from sgmahjong.record import record_from_match, write_record
from sgmahjong.rules import load_rules

WIN = {"concealed": "123m456p789s777z1m", "win_tile": "1m", "seat": "S", "discarder": "N"}
DEEP_JSON = "[" * 100_000 + "]" * 100_000
HUGE_INT = "7" * 4_400


def run(argv: list[str], stdin: str | bytes, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The command in-process, with ``stdin`` as a real byte-backed text stream."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out = capsys.readouterr()
    return code, out.out, out.err


def one_line(code: int, out: str, err: str, *words: str) -> None:
    """Exit 2, exactly one line on stderr holding each of ``words``, no traceback."""
    assert code == 2, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in out + err
    for word in words:
        assert word in err, (word, err)


@pytest.fixture(scope="module")
def record_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    m = Match("garden", seed=3, quick=True)
    m.play([make_agent("greedy").act] * 4)
    path = tmp_path_factory.mktemp("rec") / "m.jsonl"
    write_record(path, record_from_match(m, ["greedy"] * 4))
    return path.read_text()


def with_header(record_text: str, **changes: object) -> str:
    lines = record_text.splitlines()
    header = json.loads(lines[0])
    header.update(changes)
    return "\n".join([json.dumps(header), *lines[1:]]) + "\n"


def with_rules(record_text: str, section: str, field: str, value: int) -> str:
    """The record with one rule value changed and its digest recomputed to match (as
    :meth:`Ruleset.digest` does), so only the bound can refuse it."""
    rules = json.loads(record_text.splitlines()[0])["rules"]
    rules[section][field] = value
    body = {k: v for k, v in rules.items() if k not in ("name", "description")}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return with_header(record_text, rules=rules,
                       rules_digest=hashlib.sha256(text.encode()).hexdigest()[:16])


# --- nesting and giant numbers ---------------------------------------------------------------

@pytest.mark.parametrize("depth, word", [(100_000, "larger than"), (20_000, "nested"),
                                         (900, "nested")])
def test_deeply_nested_json_request(monkeypatch, capsys, depth, word):
    text = "[" * depth + "]" * depth
    one_line(*run(["score", "--json"], text, monkeypatch, capsys), "stdin", word)


def test_deeply_nested_record_line(tmp_path, capsys, record_text):
    path = tmp_path / "deep.jsonl"
    path.write_text(record_text.splitlines()[0] + "\n" + DEEP_JSON + "\n")
    for extra in ([], ["--check"]):
        code = main(["replay", *extra, str(path)])
        one_line(code, "", capsys.readouterr().err, "line 2", "nested")


def test_deeply_nested_rule_file(tmp_path, monkeypatch, capsys):
    path = tmp_path / "deep.toml"
    path.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    one_line(*run(["score", "--json", "--rules", str(path)], json.dumps(WIN), monkeypatch,
                  capsys), "deep.toml", "nested")


def test_huge_integer_in_a_request(monkeypatch, capsys):
    text = json.dumps(WIN)[:-1] + f', "tiles_left": {HUGE_INT}}}'
    one_line(*run(["score", "--json"], text, monkeypatch, capsys), "stdin", "digits")


def test_huge_integer_as_a_record_seed(tmp_path, capsys, record_text):
    lines = record_text.splitlines()
    lines[0] = lines[0].replace('"seed": 3', f'"seed": {HUGE_INT}')
    path = tmp_path / "seed.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code = main(["replay", "--check", str(path)])
    one_line(code, "", capsys.readouterr().err, "line 1", "digits")


def test_huge_integer_in_a_rule_file(tmp_path, monkeypatch, capsys):
    path = tmp_path / "big.toml"
    path.write_text(f"[scoring]\ntai_cap = {HUGE_INT}\n")
    one_line(*run(["score", "--json", "--rules", str(path)], json.dumps(WIN), monkeypatch,
                  capsys), "big.toml")


# --- rule bounds ------------------------------------------------------------------------------

ABSURD = [
    ("payments", "base_offset", 20_000),
    ("payments", "base_offset", 1_000_000_000),
    ("payments", "base_offset", 9_223_372_036_854_775_807),
    ("scoring", "tai_cap", 1_000_000_000),
    ("scoring", "limit_tai", 1_000_000_000),
    ("match", "rounds", 1_000_000_000),
    ("payments", "discarder_pays", -2),
    ("payments", "others_pay", -1),
    ("payments", "self_drawn_pays", -1),
    ("instant", "claimed_kong", -4),
    ("wall", "end_tiles", 10_000),
]


@pytest.mark.parametrize("section, field, value", ABSURD,
                         ids=[f"{s}.{f}={v}" for s, f, v in ABSURD])
def test_absurd_rule_values_are_refused_naming_the_field(tmp_path, monkeypatch, capsys,
                                                         section, field, value):
    path = tmp_path / "house.toml"
    path.write_text(f"[{section}]\n{field} = {value}\n")
    started = time.monotonic()
    one_line(*run(["score", "--json", "--rules", str(path)], json.dumps(WIN), monkeypatch,
                  capsys), f"{section}.{field}")
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("section, field, value", ABSURD[:6],
                         ids=[f"{s}.{f}={v}" for s, f, v in ABSURD[:6]])
def test_absurd_rule_values_in_a_record_header(tmp_path, capsys, record_text,
                                               section, field, value):
    path = tmp_path / "r.jsonl"
    path.write_text(with_rules(record_text, section, field, value))
    code = main(["replay", "--check", str(path)])
    one_line(code, "", capsys.readouterr().err, "line 1", f"{section}.{field}")


def test_negative_multipliers_never_make_a_winner_pay(tmp_path, monkeypatch, capsys):
    # Before the bounds this scored {"E": 2, "S": -8, "W": 2, "N": 4}: the winner S paid.
    path = tmp_path / "odd.toml"
    path.write_text("[payments]\ndiscarder_pays = -2\nothers_pay = -1\n")
    code, out, err = run(["score", "--json", "--rules", str(path)], json.dumps(WIN),
                         monkeypatch, capsys)
    one_line(code, out, err, "payments.discarder_pays")
    assert out == ""


def test_simulate_refuses_a_match_of_a_billion_rounds(tmp_path, monkeypatch, capsys):
    path = tmp_path / "long.toml"
    path.write_text("[match]\nrounds = 1000000000\n")
    one_line(*run(["simulate", "--games", "1", "--rules", str(path)], "", monkeypatch, capsys),
             "match.rounds")


def test_every_numeric_rule_field_has_bounds_and_the_presets_fit() -> None:
    from dataclasses import fields, is_dataclass

    from sgmahjong.rules.model import PatternRule, Ruleset

    def walk(tp: type, path: str) -> list[str]:
        missing = []
        for f in fields(tp):
            name = f"{path}{f.name}"
            sub = tp.__dataclass_fields__[f.name].default_factory  # type: ignore[attr-defined]
            if f.type in ("int", int):
                if "bounds" not in f.metadata:
                    missing.append(name)
                else:
                    low, high = f.metadata["bounds"]
                    assert low <= high
            elif is_dataclass(sub):
                missing += walk(sub, name + ".")
        return missing

    assert walk(Ruleset, "") == []
    assert walk(PatternRule, "scoring.patterns.*.") == []
    for name in ("standard", "limit", "casual", "garden", "automatic", "menqing"):
        load_rules(name)   # every preset sits inside the bounds


def test_generous_values_a_real_table_might_want_still_load(tmp_path) -> None:
    path = tmp_path / "big-table.toml"
    path.write_text("[scoring]\ntai_cap = 13\nlimit_tai = 13\nminimum_tai = 3\n"
                    "[payments]\nbase_offset = 2\ndiscarder_pays = 4\nothers_pay = 2\n"
                    "self_drawn_pays = 3\n[match]\nrounds = 8\nquick_game_hands = 16\n"
                    "[instant]\nclaimed_kong = 10\n")
    rules = load_rules(path)
    assert (rules.scoring.tai_cap, rules.match.rounds, rules.instant.claimed_kong) == (13, 8, 10)


# --- bytes and sizes --------------------------------------------------------------------------

def test_invalid_utf8_on_stdin_for_score(monkeypatch, capsys):
    one_line(*run(["score", "--json"], b"\xff{}", monkeypatch, capsys), "stdin", "UTF-8")


def test_invalid_utf8_on_stdin_for_batch(monkeypatch, capsys):
    code, out, err = run(["shanten", "--batch"], b"123m456p789s1122z\n\xff\n", monkeypatch,
                         capsys)
    assert code == 2 and out == "0\n\n"
    assert "line 2" in err and "UTF-8" in err and "Traceback" not in err


def test_a_ten_megabyte_request_is_refused_at_once(monkeypatch, capsys):
    text = '{"concealed": "' + "1m" * 5_000_000 + '"}'
    started = time.monotonic()
    one_line(*run(["score", "--json"], text, monkeypatch, capsys), "stdin", "larger than")
    assert time.monotonic() - started < 2


def test_a_twenty_megabyte_batch_line_is_refused_and_the_next_line_answered(monkeypatch,
                                                                            capsys):
    text = "1m" * 10_000_000 + "\n123m456p789s1122z\n"
    started = time.monotonic()
    code, out, err = run(["shanten", "--batch"], text, monkeypatch, capsys)
    assert time.monotonic() - started < 2
    assert code == 2 and out == "\n0\n"
    assert "line 1" in err and "longer than" in err


def test_a_twenty_megabyte_record_line_is_refused_at_once(tmp_path, capsys, record_text):
    path = tmp_path / "long.jsonl"
    path.write_text(record_text.splitlines()[0] + '\n{"type": "' + "x" * 20_000_000 + '"}\n')
    started = time.monotonic()
    code = main(["replay", str(path)])
    one_line(code, "", capsys.readouterr().err, "line 2", "longer than")
    assert time.monotonic() - started < 2


def test_replay_refuses_dev_zero(capsys):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    one_line(main(["replay", "/dev/zero"]), "", capsys.readouterr().err, "not a regular file")


def test_replay_refuses_a_fifo_with_no_writer_without_waiting(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "sgmahjong", "replay", str(fifo)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    one_line(done.returncode, done.stdout, done.stderr, "not a regular file")


def test_a_rule_file_that_is_not_utf8(tmp_path, monkeypatch, capsys):
    path = tmp_path / "latin.toml"
    path.write_bytes(b"name = 'caf\xe9'\n")
    one_line(*run(["score", "--json", "--rules", str(path)], json.dumps(WIN), monkeypatch,
                  capsys), "latin.toml", "UTF-8")


def test_a_deeply_nested_ledger_file(tmp_path, capsys):
    path = tmp_path / "night.json"
    path.write_text(DEEP_JSON)
    one_line(main(["ledger", "show", str(path)]), "", capsys.readouterr().err, "nested")


# --- loose record headers and contradictions ---------------------------------------------------

def test_record_version_true_is_not_version_1(tmp_path, capsys, record_text):
    path = tmp_path / "v.jsonl"
    path.write_text(with_header(record_text, version=True))
    one_line(main(["replay", str(path)]), "", capsys.readouterr().err, "line 1", "version")


@pytest.mark.parametrize("changes, word", [
    ({"events": ["heavenly"]}, "heavenly"),
    ({"seat": "E", "discarder": None, "events": ["earthly"]}, "earthly"),
    ({"seat": "E", "discarder": "S", "events": ["earthly"]}, "earthly"),
    ({"events": ["replacement"]}, "replacement"),
    ({"events": ["robbing-kong", "robbing-eighth"]}, "robbing"),
], ids=["heavenly-on-a-discard", "earthly-self-drawn", "earthly-not-east", "replacement-discard",
        "two-robberies"])
def test_contradictory_win_events_are_refused(monkeypatch, capsys, changes, word):
    request = {**WIN, **changes}
    one_line(*run(["score", "--json", "--rules", "limit"], json.dumps(request), monkeypatch,
                  capsys), word)


# --- the last resort ---------------------------------------------------------------------------

def test_an_unexpected_error_is_one_line_asking_for_a_report(monkeypatch, capsys):
    import sgmahjong.commands.shanten as shanten

    def broken(args: object) -> int:
        raise RuntimeError("something nobody foresaw\nsecond line")

    monkeypatch.setattr(shanten, "run", broken)
    code = main(["shanten", "123m456p789s1122z"])
    err = capsys.readouterr().err
    assert code == 1
    assert len(err.strip().splitlines()) == 1, err
    assert "sgmahjong shanten" in err and "report" in err and "Traceback" not in err
