"""Hedgehog: counts the tiles it can see and claims only when a set really helps."""

from __future__ import annotations

from collections.abc import Sequence

from ..game.actions import Action, Pass
from ..game.view import PlayerView
from ..tiles import Tile
from .evaluation import (
    LevelAgent,
    Situation,
    claim_live,
    claim_options,
    discard_options,
    situation,
)

#: Unseen copies of the tiles a claim's hand then needs, below which the set does not help.
MIN_LIVE = 3
#: A claim must leave the hand this close to ready (one away) for Hedgehog to open up.
NEAR = 1


class Hedgehog(LevelAgent):
    """Simple counting, no tai plan: discards by shanten, then by how many kinds of
    useful tile still have a copy it cannot see (it checks that a tile is not used up,
    but does not weigh one unseen copy against three). It keeps its hand closed early and
    claims a set only when it really helps: the set lowers shanten to one away or ready
    and at least ``MIN_LIVE`` copies of what the hand then needs are unseen. It never
    asks where the tai will come from, so now and then it completes a hand worth no tai,
    which cannot win."""

    name = "hedgehog"
    min_live = MIN_LIVE
    near = NEAR

    def discard(self, view: PlayerView, tiles: list[Tile], sit: Situation) -> Tile:
        options = discard_options(sit, tiles)
        return min(options, key=lambda o: (o.shanten, -sum(1 for k in o.useful if sit.unseen[k]),
                                           o.tile)).tile

    def claim(self, view: PlayerView, claims: Sequence[Action]) -> Action:
        sit = situation(view)
        for opt in sorted(claim_options(view, claims, sit), key=lambda o: o.after):
            if (opt.lowers and opt.after <= self.near
                    and claim_live(opt, sit) >= self.min_live):
                return opt.action
        return Pass()
