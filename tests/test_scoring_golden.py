"""Golden scoring cases, worked out by hand from RULES.md and the seed texts.

Each case in ``tests/data/scoring_cases.json`` names the preset, the rule it checks, its
source and how the expected value was reached. ``expect`` holds:

- ``winning`` and ``payments`` (always);
- ``raw_tai``, ``tai`` and ``patterns`` (``{id: tai}``, compared exactly) for every
  complete-shape hand; they are left out for hands with no legal shape, where the contract
  does not fix them;
- instead of ``raw_tai``/``patterns``, a few cases (automatic wins in the ``automatic``
  preset, whose breakdown RULES.md leaves open) give only ``tai`` and ``patterns_include``,
  the pattern ids that must be present.

A non-winning result must also carry a non-empty ``reason``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

CASES_FILE = Path(__file__).parent / "data" / "scoring_cases.json"
CASES = json.loads(CASES_FILE.read_text(encoding="utf-8"))
SEATS = ("E", "S", "W", "N")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_golden_case(case: dict) -> None:
    from sgmahjong.scoring.request import score_request

    expect = case["expect"]
    result = score_request(json.loads(json.dumps(case["request"])), case["rules"])
    context = f"{case['id']}: {case['explain']}\nresult: {json.dumps(result)}"

    assert result["winning"] is expect["winning"], context
    payments = {seat: result["payments"][seat] for seat in SEATS}
    assert payments == expect["payments"], context
    assert set(result["payments"]) == set(SEATS), context

    patterns = result.get("patterns") or []
    ids = [p["id"] for p in patterns]
    assert len(ids) == len(set(ids)), f"one entry per pattern id expected\n{context}"
    got = {p["id"]: p["tai"] for p in patterns}

    if "raw_tai" in expect:
        assert result["raw_tai"] == expect["raw_tai"], context
    if "tai" in expect:
        assert result["tai"] == expect["tai"], context
    if "patterns" in expect:
        assert got == expect["patterns"], context
    for pid in expect.get("patterns_include", []):
        assert pid in got, context

    if result["winning"]:
        assert result["tai"] == min(result["raw_tai"], 5), context
        for p in patterns:
            assert isinstance(p.get("name"), str) and p["name"], context
    else:
        assert isinstance(result.get("reason"), str) and result["reason"].strip(), context


def test_cases_file_is_well_formed() -> None:
    presets = {"standard", "limit", "casual", "garden", "automatic", "menqing"}
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
    assert {c["rules"] for c in CASES} == presets
    for c in CASES:
        assert c["id"].startswith(c["rules"] + "-")
        assert set(c["expect"]["payments"]) == set(SEATS)


BAD_REQUESTS = {
    "bad-tile-text": {"concealed": "12x456p789s777z1m"},
    "five-copies": {"concealed": "1111m456p789s777z"},  # + win 1m = five 1m
    "too-few-tiles": {"concealed": "123m456p789s77z1m"},
    "tiles-do-not-fit-melds": {"melds": ["pong 222z"]},  # 13 + 1 + 3 = 17 tiles
    "unknown-seat": {"seat": "Q"},
    "bad-win-tile": {"win_tile": "0m"},
    "unknown-event": {"events": ["bogus"]},
    "bonus-twice": {"bonus": "1a1a"},
    "non-bonus-as-bonus": {"bonus": "1m"},
}
GOOD = {"concealed": "123m456p789s777z1m", "melds": [], "win_tile": "1m", "self_drawn": False,
        "seat": "S", "round": "E", "discarder": "N"}


@pytest.mark.parametrize("change", BAD_REQUESTS.values(), ids=list(BAD_REQUESTS))
def test_malformed_request_raises(change: dict) -> None:
    from sgmahjong.errors import SgmahjongError
    from sgmahjong.scoring.request import score_request

    request = {**GOOD, **change}
    with pytest.raises(SgmahjongError):
        score_request(request, "standard")


def test_missing_field_raises() -> None:
    from sgmahjong.errors import SgmahjongError
    from sgmahjong.scoring.request import score_request

    request = dict(GOOD)
    del request["win_tile"]
    with pytest.raises(SgmahjongError):
        score_request(request, "standard")


def test_good_request_sanity() -> None:
    """The base request of the error tests is itself valid: Red pong, 1 tai, N discards."""
    from sgmahjong.scoring.request import score_request

    result = score_request(dict(GOOD), "standard")
    assert result["winning"] is True
    assert (result["raw_tai"], result["tai"]) == (1, 1)
    assert result["payments"] == {"E": -2, "S": 8, "W": -2, "N": -4}
