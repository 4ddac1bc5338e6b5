"""Winning shapes: every split of concealed tiles into sets and an eye, Thirteen Wonders, waits.

Counts are 34-long sequences of the playing kinds (see :func:`sgmahjong.tiles.counts34`).
Seven Pairs is never a winning shape (RULES.md, "Common to every preset").
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..melds import Meld
from ..tiles import TERMINALS_AND_HONOURS, Tile


@dataclass(frozen=True, slots=True)
class Group:
    """A set found among the concealed tiles: a chow (by its lowest tile) or a pong."""

    is_chow: bool
    tile: Tile

    @property
    def tiles(self) -> tuple[Tile, ...]:
        t = self.tile
        return (t, Tile(t + 1), Tile(t + 2)) if self.is_chow else (t, t, t)


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One way to read the concealed tiles as sets plus the eye."""

    groups: tuple[Group, ...]
    eye: Tile


def decompositions(counts: Sequence[int]) -> list[Decomposition]:
    """Every distinct split of the counts into sets (chows, pongs) and exactly one eye.

    The number of tiles must be 3k+2. An empty list means no regular shape.

    >>> from sgmahjong.tiles import counts34, parse_tiles
    >>> len(decompositions(counts34(parse_tiles("11122233344455m"))))
    4
    """
    total = sum(counts)
    if total % 3 != 2:
        return []
    c = list(counts)
    out: list[Decomposition] = []
    for eye in range(34):
        if c[eye] >= 2:
            c[eye] -= 2
            for groups in _sets(c, 0):
                out.append(Decomposition(tuple(groups), Tile(eye)))
            c[eye] += 2
    return out


def _sets(c: list[int], start: int) -> Iterator[list[Group]]:
    i = start
    while i < 34 and c[i] == 0:
        i += 1
    if i == 34:
        yield []
        return
    # The lowest remaining tile must start a pong or a chow; trying both covers every split.
    if c[i] >= 3:
        c[i] -= 3
        for rest in _sets(c, i):
            yield [Group(False, Tile(i)), *rest]
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        for rest in _sets(c, i):
            yield [Group(True, Tile(i)), *rest]
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


def is_regular_complete(counts: Sequence[int]) -> bool:
    """True when the counts split into sets and one eye."""
    total = sum(counts)
    if total % 3 != 2:
        return False
    c = list(counts)
    for eye in range(34):
        if c[eye] >= 2:
            c[eye] -= 2
            ok = _all_sets(c)
            c[eye] += 2
            if ok:
                return True
    return False


def _all_sets(counts: list[int]) -> bool:
    # Greedy is exact once the eye is fixed: the lowest tile's pong is never worse than
    # three chows starting there, so take pongs first, then chows.
    c = counts[:]
    for i in range(34):
        n = c[i]
        if n >= 3:
            n -= 3
            c[i] = n
        if n:
            if i >= 27 or i % 9 > 6 or c[i + 1] < n or c[i + 2] < n:
                return False
            c[i + 1] -= n
            c[i + 2] -= n
            c[i] = 0
    return True


def is_thirteen_wonders(counts: Sequence[int]) -> bool:
    """One of each suited 1 and 9, wind and dragon, plus a duplicate of one of them."""
    if sum(counts) != 14:
        return False
    pair = 0
    for t in TERMINALS_AND_HONOURS:
        n = counts[t]
        if n == 0 or n > 2:
            return False
        pair += n == 2
    return pair == 1


def is_complete(counts: Sequence[int], melds: Sequence[Meld] = ()) -> bool:
    """True when concealed counts plus declared melds form a winning shape."""
    if is_regular_complete(counts):
        return True
    return not melds and is_thirteen_wonders(counts)


def winning_tiles(counts: Sequence[int], melds: Sequence[Meld] = ()) -> list[Tile]:
    """The tile kinds that complete a hand of 3k+1 concealed tiles (its waits).

    A kind whose four copies the hand already holds (concealed or in melds) cannot be
    drawn, so it is not a wait.
    """
    held = list(counts)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    out: list[Tile] = []
    c = list(counts)
    for t in range(34):
        if held[t] >= 4:
            continue
        c[t] += 1
        if is_complete(c, melds):
            out.append(Tile(t))
        c[t] -= 1
    return out
