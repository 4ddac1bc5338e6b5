"""Winning shapes: every split of concealed tiles into sets and an eye, Thirteen Wonders, waits.

Counts are 34-long sequences of the playing kinds (see :func:`sgmahjong.tiles.counts34`).
Seven Pairs is never a winning shape (RULES.md, "Common to every preset").
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

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
    """True when the counts split into sets and one eye.

    Table-driven: each suit's nine counts are judged once (memoised by the counts tuple);
    honours must be 0 or 3 each, or 2 for the eye; exactly one part holds the eye.
    """
    eye = 0
    for n in counts[27:34]:
        if n == 2:
            eye += 1
        elif n and n != 3:
            return False
    for base in (0, 9, 18):
        part = tuple(counts[base:base + 9])
        state = _suit_state(part)
        if state == _BAD:
            return False
        eye += state == _EYE
    return eye == 1


# What a suit's nine counts can be: no tiles or sets only, sets plus the eye, or neither.
_SETS_ONLY, _EYE, _BAD = 0, 1, 2


@cache
def _suit_state(part: tuple[int, ...]) -> int:
    r = sum(part) % 3
    if r == 0:
        return _SETS_ONLY if _suit_sets(part) else _BAD
    if r == 2 and any(part[i] >= 2 and _suit_sets((*part[:i], part[i] - 2, *part[i + 1:]))
                      for i in range(9)):
        return _EYE
    return _BAD


@cache
def _suit_sets(c: tuple[int, ...]) -> bool:
    """Nine counts of one suit split into chows and pongs (the lowest tile starts one)."""
    i = 0
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        return True
    if c[i] >= 3 and _suit_sets((*c[:i], c[i] - 3, *c[i + 1:])):
        return True
    if i <= 6 and c[i + 1] and c[i + 2]:
        return _suit_sets((*c[:i], c[i] - 1, c[i + 1] - 1, c[i + 2] - 1, *c[i + 3:]))
    return False


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
    drawn, so it is not a wait. Only the part (a suit, or one honour) that is not already
    sets (or sets and the eye) can take the winning tile, so a hand with two such parts
    waits on nothing regular and is rejected after four table lookups.

    >>> from sgmahjong.tiles import counts34, parse_tiles
    >>> [t.text for t in winning_tiles(counts34(parse_tiles("23m456p789s111z55s")))]
    ['1m', '4m']
    """
    held = list(counts[:34])
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    c = list(counts[:34])
    out: list[Tile] = []
    for t in _candidates(c, not melds):
        if held[t] >= 4:
            continue
        c[t] += 1
        if is_complete(c, melds):
            out.append(_TILES[t])
        c[t] -= 1
    return out


_TILES = tuple(Tile(i) for i in range(34))


def _candidates(c: list[int], thirteen: bool) -> Sequence[int]:
    """The kinds worth trying as the winning tile of the 3k+1 counts ``c``, in kind order:
    every part but the one that takes the tile must already be sets (or sets and the eye)."""
    bad = [t for t in range(27, 34) if c[t] == 1 or c[t] == 4]
    if len(bad) < 2:
        for base in (0, 9, 18):
            if _suit_state(tuple(c[base:base + 9])) == _BAD:
                bad.append(base)
                if len(bad) == 2:
                    break
    if not bad:
        return range(34)
    if len(bad) == 1:
        base = bad[0]
        return (base,) if base >= 27 else range(base, base + 9)
    return TERMINALS_AND_HONOURS if thirteen and _may_be_wonders(c) else ()


def _may_be_wonders(c: list[int]) -> bool:
    """13 tiles, all terminals or honours, at least 12 of the 13 kinds among them."""
    return (c[0] + c[8] + c[9] + c[17] + c[18] + c[26] + sum(c[27:34]) == 13 == sum(c)
            and sum(1 for t in TERMINALS_AND_HONOURS if c[t]) >= 12)
