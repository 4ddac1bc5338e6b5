"""The hints and the review speak with one voice: over 200 seeded hands, whenever a player
did what the hint suggested from the same view, the review finds nothing to say about it,
and wherever the review says "Owl would have", that is exactly what the hint suggested."""

from __future__ import annotations

import pytest

from sgmahjong.agents import make_agent
from sgmahjong.agents.hints import claim_hints, suggest_discard
from sgmahjong.agents.review import decision_points, review_hand
from sgmahjong.game import Game
from sgmahjong.game.actions import Discard, Kong, Pass, Win
from sgmahjong.game.prng import derive_seed
from sgmahjong.game.state import Phase
from sgmahjong.tiles import Seat

HANDS = 200
SEAT = Seat.SOUTH


def _hand(n: int) -> list:
    """One seeded hand: South is a Hedgehog (it often differs from the Owl, so both kinds
    of decision come up), the others Rabbits (quick)."""
    seed = derive_seed(4242, n)
    players = [make_agent("hedgehog" if s == SEAT else "rabbit", derive_seed(seed, s))
               for s in range(4)]
    g = Game.new("standard", seed=seed)
    while not g.ended:
        for s in sorted(g.waiting_for()):
            g.submit(s, players[s].act(g.view(s), g.legal_actions(s)))
    return list(g.events)


def _suggestion(point) -> object:   # type: ignore[no-untyped-def]
    """What the hints suggested at this decision (None: they suggest nothing of its kind)."""
    v = point.view
    if Win() in point.legal:
        return Win()
    if v.phase is Phase.TURN:
        hint = suggest_discard(v, point.history)
        return None if hint is None else Discard(hint.tile)
    claims = claim_hints(v, point.legal)
    taken = [c.action for c in claims if c.take]
    return taken[0] if taken else Pass()


@pytest.mark.parametrize("part", range(4))
def test_the_review_s_alternative_is_the_hint_and_a_followed_hint_costs_nothing(part: int
                                                                              ) -> None:
    followed = differed = 0
    for n in range(part * HANDS // 4, (part + 1) * HANDS // 4):
        events = _hand(n)
        review = review_hand(events, SEAT, "standard")
        items = {d.index: d for d in review.items}
        for p in decision_points(events, SEAT, "standard"):
            hint = _suggestion(p)
            d = items.get(p.index)
            if p.view.phase is Phase.TURN and any(isinstance(a, Kong) for a in p.legal):
                continue   # a kong on one's own turn: the hints suggest discards only
            if hint is None:
                continue
            if p.chosen == hint:
                followed += 1
                # followed the hint: nothing to review, no cost, no mistake
                assert d is None, (n, p.index, d)
            else:
                differed += 1
                # did otherwise: the review weighs it against exactly the hint
                assert d is not None and d.owl == hint, (n, p.index, d, hint)
                assert d.cost >= 0.0
    assert followed > 100 and differed > 10
