"""Winning shapes: every split of concealed tiles into sets and an eye, Thirteen Wonders, waits.

Counts are 34-long sequences of the playing kinds (see :func:`sgmahjong.tiles.counts34`).
Seven Pairs is never a winning shape (RULES.md, "Common to every preset").
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

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


# Suit readings kept by each memo below, the least recently used dropped first. A
# long-running server meets new suit patterns for ever (a few hundred thousand exist):
# unbounded, the memos crept up on a soak. Over 100 simulated matches 8,192 keeps 95% of
# the hits of an unbounded memo (94.9% against 96.3%) at the same speed
# (docs/engine.md, "Suit memos").
SUIT_MEMO: Final = 8192

# What a suit's nine counts can be: no tiles or sets only, sets plus the eye, or neither.
_SETS_ONLY: Final = 0
_EYE: Final = 1
_BAD: Final = 2


@lru_cache(maxsize=SUIT_MEMO)
def _suit_state(part: tuple[int, ...]) -> int:
    r = sum(part) % 3
    if r == 0:
        return _SETS_ONLY if _suit_sets(part) else _BAD
    if r == 2 and any(part[i] >= 2 and _suit_sets((*part[:i], part[i] - 2, *part[i + 1:]))
                      for i in range(9)):
        return _EYE
    return _BAD


@lru_cache(maxsize=SUIT_MEMO)
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


def is_complete(counts: Sequence[int], melds: Sequence[object] = ()) -> bool:
    """True when concealed counts plus declared melds form a winning shape."""
    if is_regular_complete(counts):
        return True
    return not melds and is_thirteen_wonders(counts)


def winning_tiles(counts: Sequence[int], melds: Sequence[Meld] = ()) -> list[Tile]:
    """The tile kinds that complete a hand of 3k+1 concealed tiles (its waits).

    A kind whose four copies the hand already holds (concealed or in melds) cannot be
    drawn, so it is not a wait.

    >>> from sgmahjong.tiles import counts34, parse_tiles
    >>> [t.text for t in winning_tiles(counts34(parse_tiles("23m456p789s111z55s")))]
    ['1m', '4m']
    """
    # Each part of the hand (a suit, or one honour) is judged on its own: after the tile
    # comes in, every part must be sets or sets and the eye, with one eye in all. So only
    # the one part that is neither now (if any) can take the tile, and what a suit becomes
    # with one more tile at each position is a table (_suit_adds) read once per nine
    # counts: the game asks for each player's waits at every turn, and this reads a hand in
    # a few lookups where trying each kind with is_complete took a dozen.
    c = counts[:34]
    bad, eyes, parts, states = read_parts(c)
    found: list[int] = []
    if len(bad) >= 2:
        # Most hands: no regular wait. Thirteen Wonders is the only other shape, and its
        # waiting hands (12 or 13 of its kinds in 13 tiles) hold five single honours or more.
        if melds or not _may_be_wonders(c):
            return []
        found.extend(t for t in TERMINALS_AND_HONOURS
                     if is_thirteen_wonders([*c[:t], c[t] + 1, *c[t + 1:]]))
    else:
        for n in (bad if bad else (0, 1, 2, *range(27, 34))):
            if n < 27:
                others = eyes - (states[n] == _EYE)
                base = 9 * n
                found.extend(base + i for i, after in _suit_adds(parts[n])
                             if others + (after == _EYE) == 1)
            else:
                have = c[n]
                others = eyes - (have == 2)
                if (have == 1 and others == 0) or (have == 2 and others == 1):
                    found.append(n)    # a pair for the eye, or a pong of the pair
    held = list(c)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    return [_TILES[t] for t in sorted(found) if held[t] < 4]


_TILES: Final = tuple(Tile(i) for i in range(34))


Reading = tuple[list[int], int, tuple[tuple[int, ...], ...], list[int]]


def read_parts(counts: Sequence[int]) -> Reading:
    """A hand's parts judged once, for :func:`completes`: the parts that are neither sets
    nor sets and the eye (suits as 0-2, honours as their kind; reading stops at two), the
    eyes among the others, and the suits' counts and states (empty past two bad parts)."""
    bad = []
    eyes = 0
    for t in range(27, 34):
        n = counts[t]
        if n == 2:
            eyes += 1
        elif n == 1 or n == 4:
            bad.append(t)
    if len(bad) >= 2:
        return bad, eyes, (), []
    parts = (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]))
    states = [_suit_state(parts[0]), _suit_state(parts[1]), _suit_state(parts[2])]
    for n in range(3):
        if states[n] == _BAD:
            bad.append(n)
        elif states[n] == _EYE:
            eyes += 1
    return bad, eyes, parts, states


def completes(reading: Reading, counts: Sequence[int], tile: int,
              melds: Sequence[object] = ()) -> bool:
    """Whether one more ``tile`` (0-33) makes the 3k+1 ``counts`` (read by
    :func:`read_parts`) a winning shape with these declared sets: ``tile in
    winning_tiles(counts, melds)``, less the check that a copy of ``tile`` is left. The
    claim windows ask this of every other seat at each discard; the reading is shared."""
    bad, eyes, parts, states = reading
    if len(bad) >= 2:
        c = list(counts[:34])
        return not melds and _may_be_wonders(c) and is_thirteen_wonders(
            [*c[:tile], c[tile] + 1, *c[tile + 1:]])
    if tile < 27:
        n, pos = divmod(tile, 9)
        if bad and bad[0] != n:
            return False
        part = parts[n]
        after = _suit_state((*part[:pos], part[pos] + 1, *part[pos + 1:]))
        return after != _BAD and eyes - (states[n] == _EYE) + (after == _EYE) == 1
    if bad and bad[0] != tile:
        return False
    have = counts[tile]
    others = eyes - (have == 2)
    return (have == 1 and others == 0) or (have == 2 and others == 1)


def none_complete(reading: Reading, counts: Sequence[int], melds: Sequence[object] = ()) -> bool:
    """True when :func:`completes` is False for every tile, read once per hand: two broken
    parts leave only Thirteen Wonders, which a declared set or tiles that are not nearly
    all its kinds rule out (most hands early in a game)."""
    return len(reading[0]) >= 2 and (bool(melds) or not _may_be_wonders(list(counts[:34])))


@lru_cache(maxsize=SUIT_MEMO)
def _suit_adds(part: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """``(position, state)`` for each position of a suit's nine counts where one more tile
    leaves sets only (``_SETS_ONLY``) or sets and the eye (``_EYE``)."""
    out = []
    for i in range(9):
        after = _suit_state((*part[:i], part[i] + 1, *part[i + 1:]))
        if after != _BAD:
            out.append((i, after))
    return tuple(out)


def _may_be_wonders(c: Sequence[int]) -> bool:
    """13 tiles, all terminals or honours, at least 12 of the 13 kinds among them."""
    return (c[0] + c[8] + c[9] + c[17] + c[18] + c[26] + sum(c[27:34]) == 13 == sum(c)
            and sum(1 for t in TERMINALS_AND_HONOURS if c[t]) >= 12)


def suit_readings_met() -> int:
    """How many suit readings the memos hold (what :func:`clear_suit_readings` forgets):
    at most :data:`SUIT_MEMO` each."""
    return sum(f.cache_info().currsize for f in (_suit_state, _suit_sets, _suit_adds))


def clear_suit_readings() -> None:
    """Forget the suit readings met so far (results do not change), for a long-running
    server that bounds its memory."""
    for f in (_suit_state, _suit_sets, _suit_adds):
        f.cache_clear()
