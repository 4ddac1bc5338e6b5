"""Rabbit: takes every Pong and Chow that gets it closer, even into a hand worth no tai."""

from __future__ import annotations

from collections.abc import Sequence

from ..game.actions import Action, Pass
from ..game.view import PlayerView
from ..tiles import Tile
from .evaluation import LevelAgent, Situation, claim_options, discard_options, situation


class Rabbit(LevelAgent):
    """Fast and greedy: it only asks whether a discard keeps it as close to ready as it
    can be, and between such discards throws the first in its rack (it counts no tiles at
    all, neither its own nor the table's); it claims every set that lowers shanten and
    never asks where the tai will come from."""

    name = "rabbit"

    def discard(self, view: PlayerView, tiles: list[Tile], sit: Situation) -> Tile:
        options = discard_options(sit, tiles)
        return min(options, key=lambda o: (o.shanten, o.tile)).tile

    def claim(self, view: PlayerView, claims: Sequence[Action]) -> Action:
        options = [o for o in claim_options(view, claims, situation(view)) if o.lowers]
        if not options:
            return Pass()
        return min(options, key=lambda o: o.after).action
