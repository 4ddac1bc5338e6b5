"""Property tests over every way into the command line: whatever the input, the answer is
exit 0 with a valid answer or exit 2 with one line naming the problem; never a traceback,
never a winner who pays. A small example budget here; ``bench/fuzz_inputs.py`` runs the
same cases for as long as asked."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from input_fuzz import CASES, ContractBroken, Outcome, check, check_score_json, sample_record

BUDGET = settings(max_examples=40, deadline=None, derandomize=True,
                  suppress_health_check=[HealthCheck.function_scoped_fixture,
                                         HealthCheck.too_slow])


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> str:
    return sample_record(tmp_path_factory.mktemp("record"), "garden", seed=7)


@pytest.mark.parametrize("kind", ["score-json", "score-args", "batch", "rules"])
def test_every_input_keeps_the_contract(kind: str, tmp_path: Path) -> None:
    @BUDGET
    @given(st.data())
    def prop(data: st.DataObject) -> None:
        CASES[kind](data.draw, tmp_path)

    prop()


def test_every_record_keeps_the_contract(record: str, tmp_path: Path) -> None:
    @settings(BUDGET, max_examples=25)
    @given(st.data())
    def prop(data: st.DataObject) -> None:
        CASES["records"](data.draw, tmp_path, record)

    prop()


# The contract checker itself must catch what it is there to catch.

@pytest.mark.parametrize("outcome", [
    Outcome(1, "", "sgmahjong score: internal error (ValueError: x); this is a bug"),
    Outcome(2, "", "Traceback (most recent call last):\n  File x\nValueError\n"),
    Outcome(2, "", "first line\nsecond line\n"),
    Outcome(0, "", "Traceback (most recent call last):\n"),
])
def test_the_checker_refuses_a_broken_answer(outcome: Outcome) -> None:
    with pytest.raises(ContractBroken):
        check(outcome, ["score"])


def test_the_checker_refuses_a_winner_who_pays() -> None:
    request = b'{"seat": "S"}'
    paid = '{"winning": true, "payments": {"E": 2, "S": -8, "W": 2, "N": 4}}'
    with pytest.raises(ContractBroken):
        check_score_json(Outcome(0, paid, ""), ["score", "--json"], request)
    fair = '{"winning": true, "payments": {"E": -2, "S": 8, "W": -2, "N": -4}}'
    check_score_json(Outcome(0, fair, ""), ["score", "--json"], request)
    winner_only = '{"winning": true, "payments": {"E": 0, "S": 2, "W": 0, "N": 0}}'
    check_score_json(Outcome(0, winner_only, ""), ["score", "--json"], request)


def test_a_superscript_digit_in_tile_text_is_one_line(tmp_path: Path) -> None:
    from input_fuzz import run

    for text in ("²23m456p789s777z1m", "١23m456p789s777z1m"):
        argv = ["score", text, "--win", "1m"]
        o = run(argv)
        assert o.code == 2 and "unknown tile text" in o.err, o
        check(o, argv)
