"""The web table's final standings (the match-end message's ``standings``): players best
first, equal scores sharing a place (1st, 1st, 3rd) and keeping the seating order, as the
terminal and the ledger rank them. Checked against places worked out here from the scores
alone: a player's place is one more than the number of players with a higher score."""

from __future__ import annotations

from itertools import product

import pytest

from sgmahjong.web.protocol import standings

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def expected(scores: list[int]) -> list[dict[str, object]]:
    order = sorted(range(4), key=lambda p: (-scores[p], p))
    return [{"player": p, "name": NAMES[p], "score": scores[p],
             "place": 1 + sum(1 for q in scores if q > scores[p])} for p in order]


@pytest.mark.parametrize(("scores", "places"), [
    ([10, -2, 4, -12], [1, 3, 2, 4]),       # no tie: 1st to 4th
    ([8, 8, -8, -8], [1, 1, 3, 3]),          # two pairs: 1st, 1st, 3rd, 3rd
    ([-6, 2, 2, 2], [4, 1, 1, 1]),           # three share the lead, the fourth is 4th
    ([0, 0, 0, 0], [1, 1, 1, 1]),            # everybody level
    ([-4, 6, 6, -8], [3, 1, 1, 4]),          # a tie at the top, not in seat 0
])
def test_equal_scores_share_a_place_and_keep_the_seating_order(
        scores: list[int], places: list[int]) -> None:
    got = standings(NAMES, scores)
    assert {s["player"]: s["place"] for s in got} == dict(enumerate(places))
    assert got == expected(scores)


def test_every_ranking_of_small_scores_agrees_with_the_places_worked_out_here() -> None:
    for scores in product(range(-2, 3), repeat=4):
        assert standings(NAMES, list(scores)) == expected(list(scores)), scores
