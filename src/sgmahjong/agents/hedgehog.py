"""Hedgehog: counts the tiles it can see and claims only when a set really helps."""

from __future__ import annotations

from collections.abc import Sequence

from ..game.actions import Action, Pass
from ..game.view import PlayerView
from ..tiles import Tile
from .evaluation import (
    LevelAgent,
    Situation,
    claim_options,
    discard_options,
    situation,
    view_plan,
)


class Hedgehog(LevelAgent):
    """Careful counting: discards by shanten and the *unseen* copies of the useful tiles;
    claims a set only when it lowers shanten and the hand keeps a tai source."""

    name = "hedgehog"

    def discard(self, view: PlayerView, tiles: list[Tile], sit: Situation) -> Tile:
        return discard_options(sit, tiles)[0].tile

    def claim(self, view: PlayerView, claims: Sequence[Action]) -> Action:
        for opt in sorted(claim_options(view, claims, situation(view)), key=lambda o: o.after):
            if opt.lowers and view_plan(view, opt.counts, opt.melds).reachable:
                return opt.action
        return Pass()
