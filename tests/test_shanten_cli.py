"""The ``sgmahjong shanten`` command, run in-process through ``sgmahjong.cli.main``.

A hand in hand notation prints its shanten; ``--detail`` adds the useful tiles (per
discard for 14 tiles); ``--batch`` maps stdin lines to one integer each, a bad line
giving an empty output line, an error naming its line number on stderr and exit 2.
Malformed input exits 2 with one stderr line and no traceback. Expected values are
worked out by hand.
"""

from __future__ import annotations

import io
import sys

import pytest


def run(argv: list[str], stdin_text: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from sgmahjong.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin_text))
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse errors exit through SystemExit
        code = exc.code if isinstance(exc.code, int) else 1
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(("hand", "expected"), [
    ("123m456p789s11z234m", "shanten -1 (complete)"),
    ("123m456p789s1122z", "shanten 0 (ready)"),
    ("124m456p789s1122z", "shanten 1 (1 from ready)"),
    ("19m19p19s1234567z", "shanten 0 (ready)"),
    ("23m55p, pong 777z, chow 789s, concealed-kong 1111s", "shanten 0 (ready)"),
    ("123m456p789s1122z, bonus 1a2f", "shanten 0 (ready)"),
])
def test_prints_the_shanten_of_a_hand(hand: str, expected: str, monkeypatch, capsys) -> None:
    code, out, err = run(["shanten", hand], "", monkeypatch, capsys)
    assert code == 0, err
    assert out.strip().endswith(expected)
    assert err == ""


def test_detail_of_a_thirteen_tile_hand_lists_waits_with_unseen_copies(monkeypatch,
                                                                        capsys) -> None:
    code, out, _ = run(["shanten", "123m456p789s1122z", "--detail"], "", monkeypatch, capsys)
    assert code == 0
    assert "waits: 1z×2 2z×2" in out
    assert "(4 unseen)" in out


def test_detail_counts_declared_sets_and_seen_tiles_as_visible(monkeypatch, capsys) -> None:
    # Waits 1m/4m; the pong holds no m tiles, --seen shows one 4m: 4 + 3 unseen.
    code, out, _ = run(["shanten", "23m55p, pong 777z, chow 789s, concealed-kong 1111s",
                        "--detail", "--seen", "4m"], "", monkeypatch, capsys)
    assert code == 0
    assert "waits: 1m×4 4m×3" in out


def test_detail_of_a_fourteen_tile_hand_tables_each_discard(monkeypatch, capsys) -> None:
    # Only discarding 9m keeps 1239m 456p 789s 1122z ready (waits 1z, 2z: 2 + 2).
    code, out, _ = run(["shanten", "1239m456p789s1122z", "--detail"], "", monkeypatch, capsys)
    assert code == 0
    rows = [line for line in out.splitlines() if "│" in line]
    first = rows[1] if "discard" in rows[0] else rows[0]
    cells = [c.strip() for c in first.split("│") if c.strip()]
    assert cells == ["9m", "0", "1z×2 2z×2", "4"]
    assert len(rows) - (1 if "discard" in rows[0] else 0) == 12  # distinct tiles


def test_batch_writes_one_integer_per_line(monkeypatch, capsys) -> None:
    stdin = ("123m456p789s11z234m\n123m456p789s1122z\n19m19p19s1234567z\n"
             "1111m234p567s888s\n2m, pong 111z, pong 222z, chow 789s, kong 5555p\n")
    code, out, err = run(["shanten", "--batch"], stdin, monkeypatch, capsys)
    assert code == 0, err
    assert out.splitlines() == ["-1", "0", "0", "1", "0"]
    assert err == ""


def test_batch_reports_bad_lines_by_number_and_exits_2(monkeypatch, capsys) -> None:
    stdin = "123m456p789s1122z\nnot a hand\n\n123m\n11111m23456789p\n19m19p19s1234567z\n"
    code, out, err = run(["shanten", "--batch"], stdin, monkeypatch, capsys)
    assert code == 2
    # Output stays aligned with input: an empty line for each bad one.
    assert out.split("\n") == ["0", "", "", "", "", "0", ""]
    lines = err.splitlines()
    assert [line.split(":")[1].strip() for line in lines[:4]] == [
        "line 2", "line 3", "line 4", "line 5"]
    assert "13" in lines[2] and "14" in lines[2]        # wrong number of tiles
    assert "5 copies of 1m" in lines[3]
    assert lines[-1] == "sgmahjong shanten: 4 bad lines"
    assert "Traceback" not in err


def test_batch_of_nothing_writes_nothing(monkeypatch, capsys) -> None:
    code, out, err = run(["shanten", "--batch"], "", monkeypatch, capsys)
    assert (code, out, err) == (0, "", "")


@pytest.mark.parametrize(("argv", "needle"), [
    (["shanten", "123m"], "needs 13"),
    (["shanten", "123m456p789s1122x"], "unknown tile text"),
    (["shanten", "11111m456p789s112z"], "5 copies of 1m"),
    (["shanten"], "give a hand"),
    (["shanten", "123m456p789s1122z", "--batch"], "--batch"),
    (["shanten", "123m456p789s1122z", "--detail", "--seen", "111z"], "copies of 1z"),
])
def test_bad_input_exits_2_with_one_line_on_stderr(argv: list[str], needle: str,
                                                   monkeypatch, capsys) -> None:
    code, out, err = run(argv, "", monkeypatch, capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert needle in err
    assert err.startswith("sgmahjong shanten: error:")
