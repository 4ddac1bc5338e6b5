"""Rating players against the ladder: a duplicate-dealt round robin, clustered by wall.

The field is the players rated and the ladder's levels (:data:`LADDER`). Every table of
four of the field plays each wall four times, the players rotated through the seats, so
every player meets every wall from every seat, and any two players are compared on the
same deals. Wall ``i`` of a run seeded ``s`` is dealt from ``derive_seed(s, i)``; at
rotation ``r`` the player at seat ``k`` is seeded ``derive_seed(wall, 10 * r + k)`` (the
seeds ``bench/bench_strength.py`` has always used, so its numbers and these agree).

The deals of one wall are not independent (the same tiles, the same players), so every
interval is taken over the walls: a player's points per hand on each wall, then the mean
of those and ``1.96 * sd / sqrt(walls)``. The paired difference of two players is the
same over their per-wall differences. The defaults (:data:`DEFAULT_SEED`,
:data:`DEFAULT_WALLS`) are a fixed set of walls, so that figures quoted from two places
were measured on the same deals.

:mod:`.play` plays the walls (:func:`~.play.rate` is the whole run), :mod:`.stats` turns
them into the figures. This module holds only what the command line needs to describe
them, so that building its parser imports no engine.
"""

from __future__ import annotations

from ..errors import SgmahjongError

LADDER = ("snail", "greedy", "rabbit", "hedgehog", "fox", "owl")
"""The levels a player is rated against: the five animals and the ``greedy`` baseline,
weakest first as they come out under ``standard`` (docs/ai.md, "The ladder")."""
DEFAULT_SEED = 2024
DEFAULT_WALLS = 200


class RateError(SgmahjongError):
    """A rating that cannot run as asked (too few players, a bot that does not answer)."""


__all__ = ["DEFAULT_SEED", "DEFAULT_WALLS", "LADDER", "RateError"]
