"""Generated hostile input for every way into the command line, and the contract each
answer must keep. Shared by the property tests (a small example budget, in CI) and
``bench/fuzz_inputs.py`` (the long campaign).

The contract: exit 0 with a valid answer, or exit 2 with exactly one line on stderr
(``replay --check`` may also exit 1 for a record that does not replay); never a
traceback, never the last-resort "internal error", never a winner who pays.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from sgmahjong.cli import main

SEATS = ["E", "S", "W", "N"]
WIN = {"concealed": "123m456p789s777z1m", "win_tile": "1m", "seat": "S", "discarder": "N"}
TILE_TEXT = "123456789mpszafESWNRGWh, "
RULE_FIELDS = {
    "scoring": ["minimum_tai", "tai_cap", "limit_tai", "counts_tai", "automatic_wins"],
    "payments": ["scheme", "base_offset", "discarder_pays", "others_pay", "self_drawn_pays",
                 "multiple_winners"],
    "instant": ["enabled", "claimed_kong", "added_kong", "concealed_kong", "bonus_pair",
                "bonus_pair_initial", "bonus_set"],
    "bao": ["cases", "fresh_tile_max_remaining"],
    "wall": ["end_tiles", "replacement"],
    "match": ["rounds", "quick_game_hands", "max_hands_per_round", "round_wind"],
    "scoring.patterns": ["dragon-pong", "ping-hu", "all-pong", "thirteen-wonders"],
}


@dataclass
class Outcome:
    code: int
    out: str
    err: str


class ContractBroken(AssertionError):
    """An answer that breaks the contract (the message says how)."""


def run(argv: list[str], stdin: bytes = b"") -> Outcome:
    """``sgmahjong ARGV`` in-process with ``stdin`` as a byte-backed text stream."""
    old_in, old_out, old_err = sys.stdin, sys.stdout, sys.stderr
    out, err = io.StringIO(), io.StringIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    sys.stdout, sys.stderr = out, err
    try:
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin, sys.stdout, sys.stderr = old_in, old_out, old_err
    return Outcome(code, out.getvalue(), err.getvalue())


def check(o: Outcome, argv: list[str], may_mismatch: bool = False,
          per_line: bool = False) -> None:
    """Raise :class:`ContractBroken` when ``o`` breaks the contract. ``per_line``: a batch
    answers each bad line with its own error line, then a count."""
    where = f"sgmahjong {' '.join(argv)[:200]}"
    if "Traceback" in o.out + o.err or "internal error" in o.err:
        raise ContractBroken(f"{where}: {o.err.strip()[:500]}")
    if o.code == 2 and per_line:
        prefix = f"sgmahjong {argv[0]}: "
        if not o.err or any(not line.startswith(prefix) for line in o.err.splitlines()):
            raise ContractBroken(f"{where}: error lines without {prefix!r}: {o.err[:500]!r}")
    elif o.code == 2:
        if len(o.err.strip().splitlines()) != 1:
            raise ContractBroken(f"{where}: exit 2 without exactly one line: {o.err[:500]!r}")
    elif o.code == 1 and may_mismatch:
        return
    elif o.code != 0:
        raise ContractBroken(f"{where}: exit {o.code}: {o.err.strip()[:500]}")


def check_score_json(o: Outcome, argv: list[str], request: bytes = b"") -> None:
    """The contract, and for a win: the winner never pays and no loser is paid (under
    winner-only rules the losers pay nothing, so the sum need not be 0)."""
    check(o, argv)
    if o.code != 0:
        return
    answer = json.loads(o.out)
    if not answer.get("winning"):
        return
    pay = answer["payments"]
    try:
        winner = json.loads(request).get("seat", "E")
    except (ValueError, AttributeError):
        winner = max(pay, key=pay.__getitem__)
    if pay.get(winner, 0) < 0 or any(v > 0 for s, v in pay.items() if s != winner):
        raise ContractBroken(f"{argv}: the winner {winner} pays or a loser is paid: {pay}")


# --- strategies ----------------------------------------------------------------------------

def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**60), max_value=10**60),
    st.floats(allow_nan=True, allow_infinity=True), st.text(TILE_TEXT, max_size=30),
    st.text(max_size=20))
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                           max_leaves=12)
hostile_texts = st.one_of(
    st.text(max_size=200),
    st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
    st.integers(1, 3000).map(_nested),
    st.integers(1, 5000).map(lambda n: "9" * n),
    st.sampled_from(["", "{}", "[]", "null", "NaN", "1e999", '"\\ud800"', "{\"a\":1}" * 3]),
)


@st.composite
def score_requests(draw: st.DrawFn) -> bytes:
    """A score request: a real one with fields changed, dropped or added, or raw text."""
    if draw(st.integers(0, 4)) == 0:
        text = draw(hostile_texts)
        return text.encode("utf-8", "surrogatepass")
    request: dict[str, object] = dict(WIN)
    for _ in range(draw(st.integers(1, 4))):
        key = draw(st.sampled_from([*WIN, "melds", "bonus", "self_drawn", "round", "events",
                                    "liable", "fresh", "tiles_left", "extra"]))
        if draw(st.booleans()) and key in request:
            del request[key]
        else:
            request[key] = draw(st.one_of(json_values, st.text(TILE_TEXT, max_size=30),
                                          st.sampled_from(SEATS),
                                          st.lists(st.sampled_from(
                                              ["self-drawn", "last-tile", "replacement",
                                               "robbing-kong", "heavenly", "earthly"]),
                                              max_size=3)))
    return json.dumps(request).encode()


rules_presets = st.sampled_from(["standard", "limit", "casual", "garden", "automatic",
                                 "menqing"])


@st.composite
def rule_files(draw: st.DrawFn) -> bytes:
    """A house-rule file: a preset with a few fields set to anything, or raw text."""
    if draw(st.integers(0, 5)) == 0:
        return draw(hostile_texts).encode("utf-8", "surrogatepass")
    lines = [f'extends = "{draw(rules_presets)}"', 'name = "house"']
    for section in draw(st.lists(st.sampled_from(sorted(RULE_FIELDS)), min_size=1, max_size=3,
                                 unique=True)):
        lines.append(f"[{section}]")
        for name in draw(st.lists(st.sampled_from(RULE_FIELDS[section]), min_size=1,
                                  max_size=3, unique=True)):
            value = draw(st.one_of(
                st.integers(-(10**20), 10**20), st.integers(-3, 70), st.booleans(),
                st.text(TILE_TEXT, max_size=12).map(json.dumps),
                st.lists(st.integers(-5, 5), max_size=3).map(json.dumps),
                st.sampled_from(['"table"', '"winner-only"', '"one-point"', '"limit"',
                                 '{ tai = 4, replaces = ["all-chow"] }', "[[[[]]]]",
                                 "inf", "nan", "1.5"])))
            key = f'"{name}"' if "-" in name else name
            lines.append(f"{key} = {value}")
    return ("\n".join(lines) + "\n").encode()


def mutate_record(draw: st.DrawFn, record: str) -> bytes:
    """A real record with lines changed: a field set to anything, a line cut, dropped,
    repeated or replaced by raw text."""
    lines = record.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.integers(0, 4))
        if how == 0:
            try:
                obj = json.loads(lines[i])
            except ValueError:
                continue
            if isinstance(obj, dict) and obj:
                key = draw(st.sampled_from(sorted(obj)))
                obj[key] = draw(json_values)
                lines[i] = json.dumps(obj)
        elif how == 1:
            lines[i] = lines[i][:draw(st.integers(0, len(lines[i])))]
        elif how == 2:
            del lines[i]
            if not lines:
                lines = [""]
        elif how == 3:
            lines.insert(i, lines[i])
        else:
            lines[i] = draw(hostile_texts)
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


# --- one case per input kind -----------------------------------------------------------------

def case_score_json(draw: st.DrawFn, tmp: Path) -> None:
    argv = ["score", "--json", "--rules", draw(rules_presets)]
    request = draw(score_requests())
    check_score_json(run(argv, request), argv, request)


def case_score_args(draw: st.DrawFn, tmp: Path) -> None:
    argv = ["score", draw(st.text(TILE_TEXT, max_size=24) | st.text(max_size=24)),
            "--win", draw(st.text(TILE_TEXT, min_size=1, max_size=3) | st.text(max_size=3))]
    for option, values in [("--meld", st.text(TILE_TEXT + "ponkgcheal", max_size=16)),
                           ("--bonus", st.text(TILE_TEXT, max_size=8)),
                           ("--seat", st.sampled_from(SEATS) | st.text(max_size=3)),
                           ("--discarder", st.sampled_from(SEATS) | st.text(max_size=3)),
                           ("--event", st.text(max_size=14))]:
        if draw(st.booleans()):
            argv += [option, draw(values)]
    argv = [a.replace("\x00", "") for a in argv]
    if any(a.startswith("-") for a in argv[1:2]):
        argv[1] = "x" + argv[1]
    check(run(argv), argv)


def case_shanten_batch(draw: st.DrawFn, tmp: Path) -> None:
    lines = draw(st.lists(st.text(TILE_TEXT, max_size=30) | hostile_texts, max_size=6))
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        data += draw(st.binary(max_size=20))
    argv = ["shanten", "--batch"]
    o = run(argv, data)
    check(o, argv, per_line=True)
    if o.code == 0 and len(o.out.splitlines()) != len(data.splitlines()):
        raise ContractBroken(f"{argv}: {len(data.splitlines())} lines in, "
                             f"{len(o.out.splitlines())} answers out")


def case_rule_file(draw: st.DrawFn, tmp: Path) -> None:
    path = tmp / "house.toml"
    path.write_bytes(draw(rule_files()))
    argv = ["score", "--json", "--rules", str(path)]
    request = json.dumps(WIN).encode()
    check_score_json(run(argv, request), argv, request)


def case_record(draw: st.DrawFn, tmp: Path, record: str) -> None:
    path = tmp / "match.jsonl"
    path.write_bytes(mutate_record(draw, record))
    for argv in (["replay", str(path)], ["replay", "--check", str(path)]):
        check(run(argv), argv, may_mismatch=argv[1] == "--check")


CASES: dict[str, Callable[..., None]] = {
    "score-json": case_score_json,
    "score-args": case_score_args,
    "batch": case_shanten_batch,
    "rules": case_rule_file,
    "records": case_record,
}


def sample_record(tmp: Path, preset: str = "garden", seed: int = 5) -> str:
    """A real match record (a quick game of greedy players; the preset must have quick
    games) to mutate."""
    path = tmp / "sample.jsonl"
    made = run(["simulate", "--games", "1", "--rules", preset, "--seed", str(seed), "--quick",
                "--json", "--records", str(tmp / "recs")])
    if made.code != 0:
        raise RuntimeError(f"simulate failed to make a sample record: {made.err}")
    found = sorted((tmp / "recs").glob("*.jsonl"))
    path.write_text(found[0].read_text())
    return path.read_text()
