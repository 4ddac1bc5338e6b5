"""The ``sgmahjong score`` command's contract, run in-process through ``sgmahjong.cli.main``.

JSON mode (``--json``) reads one request object on stdin and prints one result object,
exit 0 whether or not the hand wins; malformed input exits 2 with exactly one non-empty
line on stderr and no traceback. The human-readable mode takes the concealed hand as a
positional argument (13 tiles here, the winning tile given by ``--win``), with ``--rules``
defaulting to standard, ``--round`` to E, and no ``--discarder`` meaning self-drawn.
Expected values are worked out by hand (see tests/data/scoring_cases.json for the rules).
"""

from __future__ import annotations

import io
import json
import re
import sys

import pytest

SEATS = ("E", "S", "W", "N")

# Concealed 123m 456p 789s 777z 1m + winning 1m: chows, a concealed Red pong, eye 11m.
# Standard, seat S, N discards: dragon-pong 1, base 2: N pays 4, E and W 2, S +8.
WIN_REQUEST = {
    "concealed": "123m456p789s777z1m", "melds": [], "bonus": "", "win_tile": "1m",
    "self_drawn": False, "seat": "S", "round": "E", "discarder": "N", "events": [],
}
WIN_PAYMENTS = {"E": -2, "S": 8, "W": -2, "N": -4}
# Claimed North pong, chows 234m 567p 678s, eye 55s: complete but 0 tai (chicken hand).
CHICKEN_REQUEST = {
    "concealed": "234m567p678s5s", "melds": ["pong 444z"], "win_tile": "5s",
    "self_drawn": False, "seat": "S", "round": "E", "discarder": "E",
}


def run(argv, stdin_text, monkeypatch, capsys):
    """Run the CLI in-process; return (exit code, stdout, stderr)."""
    from sgmahjong.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin_text))
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse errors exit through SystemExit
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(request, monkeypatch, capsys, rules="standard"):
    code, out, err = run(["score", "--rules", rules, "--json"], json.dumps(request),
                         monkeypatch, capsys)
    assert code == 0, err
    return json.loads(out)


def check_result_shape(result: dict) -> None:
    assert isinstance(result["winning"], bool)
    assert isinstance(result["raw_tai"], int)
    assert isinstance(result["tai"], int)
    assert isinstance(result["patterns"], list)
    for p in result["patterns"]:
        assert isinstance(p["id"], str) and p["id"]
        assert isinstance(p["name"], str) and p["name"]
        assert isinstance(p["tai"], int)
    assert set(result["payments"]) == set(SEATS)
    assert all(isinstance(v, int) for v in result["payments"].values())


# ------------------------------------------------------------------ JSON mode
def test_json_winning_hand(monkeypatch, capsys):
    code, out, err = run(["score", "--rules", "standard", "--json"], json.dumps(WIN_REQUEST),
                         monkeypatch, capsys)
    assert code == 0, err
    result = json.loads(out)  # the whole of stdout is one JSON object
    assert isinstance(result, dict)
    check_result_shape(result)
    assert result["winning"] is True
    assert (result["raw_tai"], result["tai"]) == (1, 1)
    assert {p["id"]: p["tai"] for p in result["patterns"]} == {"dragon-pong": 1}
    assert result["payments"] == WIN_PAYMENTS
    assert "Traceback" not in err


def test_json_non_winning_hand_exits_0(monkeypatch, capsys):
    code, out, err = run(["score", "--rules", "standard", "--json"],
                         json.dumps(CHICKEN_REQUEST), monkeypatch, capsys)
    assert code == 0, err
    result = json.loads(out)
    assert result["winning"] is False
    assert isinstance(result["reason"], str) and result["reason"].strip()
    assert result["payments"] == {s: 0 for s in SEATS}


def test_json_incomplete_hand_exits_0(monkeypatch, capsys):
    request = {**WIN_REQUEST, "win_tile": "9p"}  # 123m 456p 789s 777z 1m 9p: no shape
    code, out, err = run(["score", "--json"], json.dumps(request), monkeypatch, capsys)
    assert code == 0, err
    result = json.loads(out)
    assert result["winning"] is False
    assert result["reason"].strip()
    assert result["payments"] == {s: 0 for s in SEATS}


@pytest.mark.parametrize(
    ("rules", "payments"),
    [
        ("standard", WIN_PAYMENTS),
        ("automatic", WIN_PAYMENTS),
        ("menqing", WIN_PAYMENTS),  # off a discard: no Men Qing Zi Mo
        ("limit", {"E": -1, "S": 4, "W": -1, "N": -2}),  # base 2^(1-1) = 1
        ("garden", {"E": 0, "S": 2, "W": 0, "N": 0}),  # winner-only 2^1
        ("casual", {"E": 0, "S": 1, "W": 0, "N": 0}),  # 1 point, no tai
    ],
)
def test_json_every_preset(monkeypatch, capsys, rules, payments):
    result = run_json(WIN_REQUEST, monkeypatch, capsys, rules=rules)
    check_result_shape(result)
    assert result["winning"] is True
    assert result["payments"] == payments


def _one_error_line(code, out, err):
    assert code == 2, (code, out, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err and "Traceback" not in out


MALFORMED = {
    "bad-tile-text": {**WIN_REQUEST, "concealed": "12x456p789s777z1m"},
    "five-copies": {**WIN_REQUEST, "concealed": "1111m456p789s777z"},  # + win 1m = five 1m
    "wrong-tile-count-for-melds": {**WIN_REQUEST, "melds": ["pong 222z"]},
    "too-few-tiles": {**WIN_REQUEST, "concealed": "123m456p789s77z1m"},
    "unknown-seat": {**WIN_REQUEST, "seat": "Q"},
    "unknown-round": {**WIN_REQUEST, "round": "X"},
    "missing-win-tile": {k: v for k, v in WIN_REQUEST.items() if k != "win_tile"},
    "missing-concealed": {k: v for k, v in WIN_REQUEST.items() if k != "concealed"},
}


@pytest.mark.parametrize("request_obj", MALFORMED.values(), ids=list(MALFORMED))
def test_json_malformed_request_exits_2(monkeypatch, capsys, request_obj):
    code, out, err = run(["score", "--rules", "standard", "--json"], json.dumps(request_obj),
                         monkeypatch, capsys)
    _one_error_line(code, out, err)


@pytest.mark.parametrize("text", ["{not json", "", "[1, 2, 3]", '"123m"'],
                         ids=["invalid-json", "empty-input", "json-list", "json-string"])
def test_json_invalid_document_exits_2(monkeypatch, capsys, text):
    code, out, err = run(["score", "--json"], text, monkeypatch, capsys)
    _one_error_line(code, out, err)


def test_unknown_preset_exits_2(monkeypatch, capsys):
    code, out, err = run(["score", "--rules", "no-such-preset", "--json"],
                         json.dumps(WIN_REQUEST), monkeypatch, capsys)
    _one_error_line(code, out, err)


# ------------------------------------------------------------------ human-readable mode
def _names(request, monkeypatch, capsys, rules="standard"):
    result = run_json(request, monkeypatch, capsys, rules=rules)
    assert result["winning"] is True
    return result, [p["name"] for p in result["patterns"]]


def _has_number(text: str, n: int) -> bool:
    return re.search(rf"(?<![\d.]){n}(?![\d.])", text) is not None


def test_human_mode_discard_win(monkeypatch, capsys):
    _, names = _names(WIN_REQUEST, monkeypatch, capsys)
    code, out, err = run(["score", "123m456p789s777z1m", "--win", "1m", "--discarder", "N",
                          "--seat", "S"], "", monkeypatch, capsys)
    assert code == 0, err
    assert out.strip()
    for name in names:
        assert name.lower() in out.lower(), (name, out)
    # total 1 tai; standard (the default) payments: S +8, N 4, E and W 2
    for n in (1, 8, 4, 2):
        assert _has_number(out, n), (n, out)
    assert "Traceback" not in out + err


def test_human_mode_meld_bonus_self_drawn(monkeypatch, capsys):
    # 123m 456p 789s 1m + claimed pong 777z + Cat, self-drawn 1m (no --discarder):
    # dragon-pong 1 + animal 1 = 2 tai; base 4, each opponent pays 8, winner +24.
    request = {"concealed": "123m456p789s1m", "melds": ["pong 777z"], "bonus": "1a",
               "win_tile": "1m", "self_drawn": True, "seat": "S", "round": "E",
               "discarder": None}
    result, names = _names(request, monkeypatch, capsys)
    assert result["payments"] == {"E": -8, "S": 24, "W": -8, "N": -8}
    assert {p["id"] for p in result["patterns"]} == {"dragon-pong", "animal"}
    code, out, err = run(["score", "123m456p789s1m", "--win", "1m", "--meld", "pong 777z",
                          "--bonus", "1a", "--seat", "S"], "", monkeypatch, capsys)
    assert code == 0, err
    for name in names:
        assert name.lower() in out.lower(), (name, out)
    for n in (2, 24, 8):
        assert _has_number(out, n), (n, out)


def test_human_mode_round_defaults_to_east(monkeypatch, capsys):
    # Seat E with a claimed East pong: seat-wind 1 + round-wind 1 only if the round is East.
    # 2 tai, S discards: base 4, S pays 8, W and N 4, E +16.
    request = {"concealed": "123m456p789s1m", "melds": ["pong 111z"], "win_tile": "1m",
               "self_drawn": False, "seat": "E", "round": "E", "discarder": "S"}
    result, names = _names(request, monkeypatch, capsys)
    assert {p["id"] for p in result["patterns"]} == {"seat-wind", "round-wind"}
    code, out, err = run(["score", "123m456p789s1m", "--win", "1m", "--meld", "pong 111z",
                          "--seat", "E", "--discarder", "S"], "", monkeypatch, capsys)
    assert code == 0, err
    for name in names:
        assert name.lower() in out.lower(), (name, out)
    for n in (16, 8, 4):
        assert _has_number(out, n), (n, out)


def test_human_mode_rules_and_round_options(monkeypatch, capsys):
    # Seat W, South round, claimed South pong: round-wind 1. Limit: base 1,
    # discarder E pays 2, S and N 1, W +4.
    request = {"concealed": "123m456p789s1m", "melds": ["pong 222z"], "win_tile": "1m",
               "self_drawn": False, "seat": "W", "round": "S", "discarder": "E"}
    result, names = _names(request, monkeypatch, capsys, rules="limit")
    assert result["payments"] == {"E": -2, "S": -1, "W": 4, "N": -1}
    code, out, err = run(["score", "123m456p789s1m", "--win", "1m", "--meld", "pong 222z",
                          "--seat", "W", "--round", "S", "--discarder", "E", "--rules", "limit"],
                         "", monkeypatch, capsys)
    assert code == 0, err
    for name in names:
        assert name.lower() in out.lower(), (name, out)
    for n in (4, 2, 1):
        assert _has_number(out, n), (n, out)


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "12x456p789s777z1m", "--win", "1m", "--seat", "S"],
        ["score", "1111m456p789s777z", "--win", "1m", "--seat", "S"],
        ["score", "123m456p789s777z1m", "--win", "1m", "--meld", "pong 222z", "--seat", "S"],
    ],
    ids=["bad-tile", "five-copies", "wrong-count-for-melds"],
)
def test_human_mode_malformed_exits_2(monkeypatch, capsys, argv):
    code, out, err = run(argv, "", monkeypatch, capsys)
    _one_error_line(code, out, err)


def test_human_mode_unknown_seat_exits_2(monkeypatch, capsys):
    # An option value may be rejected by argparse (usage line + error), so only the exit
    # code, a message and the absence of a traceback are required here.
    code, out, err = run(["score", "123m456p789s777z1m", "--win", "1m", "--seat", "Q"], "",
                         monkeypatch, capsys)
    assert code == 2
    assert err.strip()
    assert "Traceback" not in out + err


# --- words on the command line -------------------------------------------------------------

def test_misspelt_preset_suggests_the_preset(monkeypatch, capsys):
    code, out, err = run(["score", "123m456p789s777z1m", "--win", "1m", "--rules", "standrad"],
                         "", monkeypatch, capsys)
    _one_error_line(code, out, err)
    assert "unknown rules 'standrad'" in err and "did you mean standard?" in err


@pytest.mark.parametrize("extra, option", [
    (["--win", "1x"], "--win"),
    (["--win", "1m2m"], "--win"),
    (["--win", "1m", "--seat", "Q"], "--seat"),
    (["--win", "1m", "--round", "Q"], "--round"),
    (["--win", "1m", "--discarder", "Q"], "--discarder"),
    (["--win", "1m", "--bonus", "1m"], "--bonus"),
], ids=["bad-tile", "two-tiles", "seat", "round", "discarder", "bonus"])
def test_option_errors_name_the_option_not_a_json_field(monkeypatch, capsys, extra, option):
    code, out, err = run(["score", "123m456p789s777z1m", *extra], "", monkeypatch, capsys)
    _one_error_line(code, out, err)
    assert option in err
    assert "field" not in err and "win_tile" not in err and "discarder'" not in err


def test_meld_and_hand_errors_name_the_option(monkeypatch, capsys):
    code, out, err = run(["score", "123m456p789s1m", "--win", "1m", "--meld", "pong 123m"], "",
                         monkeypatch, capsys)
    _one_error_line(code, out, err)
    assert "--meld" in err and "field" not in err
    code, out, err = run(["score", "123m456p789s77z1m", "--win", "1m"], "", monkeypatch, capsys)
    _one_error_line(code, out, err)
    assert "the hand" in err and "'concealed'" not in err


def test_json_errors_keep_the_field_names(monkeypatch, capsys):
    request = dict(WIN_REQUEST, win_tile="1x")
    code, out, err = run(["score", "--json"], json.dumps(request), monkeypatch, capsys)
    _one_error_line(code, out, err)
    assert "field 'win_tile'" in err


def test_not_a_win_says_so_once(monkeypatch, capsys):
    # 123m 456p 789s 567z 1m + 1m: three chows, three lone honours and a pair: no shape.
    code, out, err = run(["score", "123m456p789s567z1m", "--win", "1m"], "", monkeypatch, capsys)
    assert code == 0, err
    assert out.lower().count("not a win") == 1, out
    assert "Not a win: the tiles do not form four sets and an eye" in out


# --- the last tile (RULES.md, 'the end of the wall') ------------------------------------------
# Under 'same-wall' rules (standard and the presets that follow it) no discard follows the
# final playable tile: a win on it is self-drawn. Under 'dead-wall' (limit, casual) the last
# live tile is still discarded and may be won.
LAST_TILE_DISCARD = {**WIN_REQUEST, "events": ["last-tile"]}


@pytest.mark.parametrize("rules", ["standard", "garden", "automatic", "menqing"])
def test_json_last_tile_off_a_discard_is_refused_under_same_wall_rules(
        monkeypatch, capsys, rules):
    code, out, err = run(["score", "--rules", rules, "--json"], json.dumps(LAST_TILE_DISCARD),
                         monkeypatch, capsys)
    _one_error_line(code, out, err)
    assert "'last-tile'" in err and "no discard follows the final playable tile" in err


def test_json_last_tile_self_drawn_still_scores(monkeypatch, capsys):
    request = {**WIN_REQUEST, "discarder": None, "self_drawn": True, "events": ["last-tile"]}
    result = run_json(request, monkeypatch, capsys)
    # Red pong 1 + last tile 1 = 2 tai, base 4, self-drawn: 8 from each of three
    assert {p["id"]: p["tai"] for p in result["patterns"]} == {"dragon-pong": 1, "last-tile": 1}
    assert result["payments"] == {"E": -8, "S": 24, "W": -8, "N": -8}


def test_json_last_tile_off_a_discard_is_taken_under_dead_wall_rules(monkeypatch, capsys):
    # limit: the last live tile is discarded and may be won; no tai for it under limit:
    # the Red pong alone, 1 tai, base 1: North 2, East and West 1 each
    result = run_json(LAST_TILE_DISCARD, monkeypatch, capsys, rules="limit")
    assert result["winning"] is True
    assert result["payments"] == {"E": -1, "S": 4, "W": -1, "N": -2}


def test_a_house_rule_file_decides_by_its_wall(monkeypatch, capsys, tmp_path):
    dead = tmp_path / "dead.toml"
    dead.write_text('extends = "standard"\nname = "dead wall"\n[wall]\nreplacement = "dead-wall"\n')
    same = tmp_path / "same.toml"
    same.write_text('extends = "limit"\nname = "same wall"\n[wall]\nreplacement = "same-wall"\n')
    result = run_json(LAST_TILE_DISCARD, monkeypatch, capsys, rules=str(dead))
    # standard's tai with the last tile won off a discard: Red pong 1 + last tile 1 = 2,
    # base 4: North 8, East and West 4 each
    assert result["payments"] == {"E": -4, "S": 16, "W": -4, "N": -8}
    code, out, err = run(["score", "--rules", str(same), "--json"],
                         json.dumps(LAST_TILE_DISCARD), monkeypatch, capsys)
    _one_error_line(code, out, err)
    assert "no discard follows the final playable tile" in err


def test_human_mode_last_tile_off_a_discard_names_the_option(monkeypatch, capsys):
    code, out, err = run(["score", "123m456p789s777z1m", "--win", "1m", "--seat", "S",
                          "--discarder", "N", "--event", "last-tile"], "", monkeypatch, capsys)
    _one_error_line(code, out, err)
    assert "--event last-tile" in err and "field" not in err
