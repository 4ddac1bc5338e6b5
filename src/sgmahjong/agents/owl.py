"""Owl: counts every tile, looks two draws ahead and plays safe near a ready-looking player."""

from __future__ import annotations

from ..game.view import PlayerView
from ..tiles import Tile
from .evaluation import (
    DiscardOption,
    Situation,
    bao_dangers,
    danger,
    discard_options,
    lookahead,
    ready_looking,
    view_plan,
)
from .fox import Fox, plan_value

LOOKAHEAD = 5        # candidate discards valued two draws ahead
BAO_PENALTY = 40.0   # a discard that could make the Owl pay for the whole table


class Owl(Fox):
    """Fox's tai planning without the slips, plus: every discard valued by the expected
    shanten two draws ahead (draws weighted by unseen copies); genbutsu and worn tiles
    preferred near a ready-looking player; Bao-dangerous tiles avoided."""

    name = "owl"
    slip = 0.0
    weights = (1.5, 4.0, 8.0)    # danger weight when ready, one away, further
    lookahead_count = LOOKAHEAD

    def discard(self, view: PlayerView, tiles: list[Tile], sit: Situation) -> Tile:
        options = discard_options(sit, tiles)
        threats = ready_looking(view)
        top = min(o.shanten for o in options)
        weight = 0.0
        if threats:
            weight = self.weights[min(max(top, 0), 2)]
        total = sit.total_unseen

        def score(o: DiscardOption, deep: bool) -> float:
            if deep:
                speed = lookahead(o.after, sit.n_melds, sit.unseen)
            else:
                speed = o.shanten - o.live / total + 0.3
            v = -10.0 * speed + plan_value(view_plan(view, o.after, sit.melds),
                                           self.unreachable, self.potential)
            if weight:
                v -= weight * danger(view, o.tile, threats, sit)
            if bao_dangers(view, o.tile):
                v -= BAO_PENALTY
            return v

        scored = [(score(o, i < self.lookahead_count), o.tile) for i, o in enumerate(options)]
        return max(scored, key=lambda s: (s[0], -s[1]))[1]
