"""The baseline players: ``random`` (any legal action, seeded) and ``greedy`` (wins when it
can, discards the tile furthest from any set, pongs only valued honours)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..game.actions import Action, Discard, Kong, Pass, Pong, Win
from ..game.prng import Xoshiro256
from ..game.view import PlayerView


class RandomAgent:
    """Picks uniformly among the legal actions, from the project's own seeded PRNG."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = Xoshiro256(seed)

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return legal[self._rng.below(len(legal))]


def valued_honour(view: PlayerView, tile: int) -> bool:
    """A dragon, the seat's own wind or the round wind (a pong of it scores)."""
    return 31 <= tile <= 33 or tile in (27 + view.seat, 27 + view.round_wind)


def keep_value(view: PlayerView, counts: Sequence[int], tile: int) -> int:
    """How much ``tile`` (a playable kind, 0-33) helps a hand with these kind ``counts``;
    higher keeps.

    An isolated honour is worth least (an unvalued one, or one with copies already
    discarded, less still), then an isolated terminal, then a tile with no neighbour
    within two; a tile of a pair, a pong or a complete chow is worth most.
    """
    n = counts[tile]
    value = 10 * (n - 1)
    if tile >= 27:
        if n > 1:
            return 2 * value
        return value + (2 if valued_honour(view, tile) else 0) - min(view.seen[tile], 2)
    num = tile % 9
    m2 = num >= 2 and counts[tile - 2] > 0
    m1 = num >= 1 and counts[tile - 1] > 0
    p1 = num <= 7 and counts[tile + 1] > 0
    p2 = num <= 6 and counts[tile + 2] > 0
    value += 4 * (m1 + p1) + 2 * (m2 + p2)
    if (m2 and m1) or (m1 and p1) or (p1 and p2):
        value += 8                                   # part of a complete chow
    return value + (3 if 2 <= num <= 6 else 2 if num in (1, 7) else 1)


# keep_value's suited part as tables. A hand's suited kinds are bits of one integer, each
# suit nine bits with two empty bits either side, so the five bits from two below a tile
# to two above it (a ``pattern``) say which neighbours are held; ``_NEAR_VALUE[t][pattern]``
# is what those neighbours and the tile's rank add to its value.
_BIT: Final = tuple(1 << (t // 9 * 13 + t % 9 + 2) if t < 27 else 0 for t in range(47))
_SHIFT: Final = tuple(t // 9 * 13 + t % 9 for t in range(27))


def _near_value(num: int, pattern: int) -> int:
    m2, m1, p1, p2 = (pattern & 1, pattern >> 1 & 1, pattern >> 3 & 1, pattern >> 4 & 1)
    value = 4 * (m1 + p1) + 2 * (m2 + p2) + (3 if 2 <= num <= 6 else 2 if num in (1, 7) else 1)
    if (m2 and m1) or (m1 and p1) or (p1 and p2):
        value += 8                                   # part of a complete chow
    return value


_NEAR_VALUE: Final = tuple(tuple(_near_value(t % 9, p) for p in range(32)) for t in range(27))


def _counts_and_bits(concealed: Sequence[int]) -> tuple[list[int], int]:
    """The kind counts of a hand and its suited kinds as the bits ``_NEAR_VALUE`` reads."""
    counts = [0] * 47
    held = 0
    for t in concealed:
        counts[t] += 1
        held |= _BIT[t]
    return counts, held


class GreedyAgent:
    """Wins whenever it can; otherwise declares kongs, pongs valued honours, passes other
    claims and discards the tile with the lowest :func:`keep_value`."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        # One pass over the legal list: a win is taken at once; the first wanted kong or
        # pong is kept; each discard is valued as it comes (the discard of lowest
        # keep_value, ties to the highest tile, as ``min(..., key=lambda t:
        # (keep_value(view, counts, t), -t))`` would pick it).
        fallback: Action | None = None
        best: Action | None = None
        best_v = best_t = 0
        counts: list[int] = []
        held = own = rnd = 0
        seen: Sequence[int] = ()
        for a in legal:
            if isinstance(a, Discard):  # the usual action: tested first
                if not counts:
                    counts, held = _counts_and_bits(view.concealed)
                    seen = view.seen
                    own, rnd = 27 + view.seat, 27 + view.round_wind
                t = a.tile
                n = counts[t]
                v = 10 * (n - 1)
                if t >= 27:
                    if n > 1:
                        v *= 2
                    else:
                        k = seen[t]
                        v += (2 if t >= 31 or t in (own, rnd) else 0) - (k if k < 2 else 2)
                else:
                    v += _NEAR_VALUE[t][held >> _SHIFT[t] & 31]
                if best is None or v < best_v or (v == best_v and t > best_t):
                    best, best_v, best_t = a, v, t
            elif isinstance(a, Win):
                return a
            elif fallback is None and self._wants(view, a):
                fallback = a
        if fallback is not None:
            return fallback
        if best is not None:
            return best
        return next((a for a in legal if isinstance(a, Pass)), legal[0])

    @staticmethod
    def _wants(view: PlayerView, a: Action) -> bool:
        """Kongs on its own turn, and a pong or kong of a valued honour on a discard."""
        if isinstance(a, Kong):
            return a.kind != "claimed" or valued_honour(view, a.tile)
        return (isinstance(a, Pong) and view.window_tile is not None
                and valued_honour(view, view.window_tile))
