"""Snail: keeps the tiles it is fond of and often throws the wrong one."""

from __future__ import annotations

from collections.abc import Sequence

from ..game.actions import Action, Chow, Kong, Pass, Pong
from ..game.view import PlayerView
from ..tiles import Tile
from .evaluation import LevelAgent, Situation, claim_options, discard_options, situation

#: The groups a Snail can be fond of: Characters, Circles, Bamboo, honours.
GROUPS = ("m", "p", "s", "z")


class Snail(LevelAgent):
    """Fond of one group of tiles (picked by its seed): it keeps them even at the cost of
    a step towards ready, claims only its favourites, and with ``slip`` chance throws a
    random tile other than the best one."""

    name = "snail"
    slip = 0.35
    fondness = 1.5   # shanten it will give up to keep a favourite tile

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.favourite = GROUPS[self.rng.below(len(GROUPS))]

    def likes(self, tile: Tile) -> bool:
        return tile.suit == self.favourite or (tile.is_dragon and self.favourite != "z")

    def discard(self, view: PlayerView, tiles: list[Tile], sit: Situation) -> Tile:
        options = discard_options(sit, tiles)
        ranked = sorted(options, key=lambda o: (o.shanten + self.fondness * self.likes(o.tile),
                                                -o.raw, o.tile))
        best = ranked[0].tile
        others = [o.tile for o in ranked[1:]]
        if others and self.chance(self.slip):
            return others[self.rng.below(len(others))]
        return best

    def claim(self, view: PlayerView, claims: Sequence[Action]) -> Action:
        tile = view.window_tile
        if tile is None or not self.likes(tile):
            return Pass()
        for opt in claim_options(view, claims, situation(view)):
            if opt.lowers and isinstance(opt.action, (Pong, Kong, Chow)):
                return opt.action
        return Pass()
