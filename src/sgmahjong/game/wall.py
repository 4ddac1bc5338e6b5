"""The wall: 148 physical tiles with ids 0-147, the seeded shuffle, and where draws come from.

Ids are fixed: kinds 0-33 (``1m`` .. ``7z``) have four copies each, ids ``4*kind`` to
``4*kind + 3``; the twelve bonus tiles ``1f`` .. ``4a`` are ids 136-147. A wall's ids
are *canonical*: along the wall, the copies of a kind appear in increasing id order, so
a wall is fully described by its tile text (which is how events record it).

Live draws come from the front, replacement draws from the back. How the end of the wall
works is the rule set's ``wall.replacement`` (RULES.md, "replacement draws come from, and
the end of the wall"); see :class:`WallState` and ``docs/engine.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from ..errors import SgmahjongError
from ..rules.model import WallRules
from ..tiles import NUM_KINDS, Tile, copies_in_set, format_tiles, parse_tiles
from .prng import Xoshiro256, shuffle

NUM_TILES: Final = 148
KIND: Final[tuple[Tile, ...]] = tuple(Tile(i // 4) if i < 136 else Tile(i - 102)
                                      for i in range(NUM_TILES))
FIRST_ID: Final[tuple[int, ...]] = tuple(4 * k if k < 34 else k + 102 for k in range(NUM_KINDS))


class WallError(SgmahjongError):
    """A wall that is not exactly the 148 tiles of the set, or a draw that does not match it."""


def kind_of(tile_id: int) -> Tile:
    """The tile kind of a physical tile id."""
    return KIND[tile_id]


def canonical(order: Iterable[int]) -> tuple[int, ...]:
    """Renumber a wall so each kind's copies appear in increasing id order along it."""
    nxt = list(FIRST_ID)
    out = []
    for i in order:
        k = KIND[i]
        out.append(nxt[k])
        nxt[k] += 1
    return tuple(out)


def shuffled_wall(seed: int) -> tuple[int, ...]:
    """The wall for a seed: Fisher-Yates over ids 0-147 with xoshiro256** (see :mod:`.prng`)."""
    return canonical(shuffled_ids(seed))


def shuffled_ids(seed: int) -> list[int]:
    """The ids 0-147 as :func:`shuffled_wall` shuffles them, before they are made canonical
    (the same kind at each place)."""
    ids = list(range(NUM_TILES))
    shuffle(ids, Xoshiro256(seed))
    return ids


def wall_from_kinds(kinds: Sequence[Tile]) -> tuple[int, ...]:
    """A wall given as its 148 tile kinds in order (front first)."""
    if len(kinds) != NUM_TILES:
        raise WallError(f"a wall has {NUM_TILES} tiles, this one has {len(kinds)}")
    counts = [0] * NUM_KINDS
    for k in kinds:
        counts[k] += 1
    if counts != _SET_COUNTS:
        odd = next(i for i in range(NUM_KINDS) if counts[i] != _SET_COUNTS[i])
        raise WallError(f"a wall holds {_SET_COUNTS[odd]} of {Tile(odd).text}, "
                        f"this one holds {counts[odd]}")
    return canonical_kinds(kinds)


_SET_COUNTS: Final = [copies_in_set(Tile(k)) for k in range(NUM_KINDS)]


def canonical_kinds(kinds: Iterable[Tile]) -> tuple[int, ...]:
    """The canonical ids of a wall given as its kinds (each kind's copies in id order)."""
    nxt = list(FIRST_ID)
    out = []
    for k in kinds:
        out.append(nxt[k])
        nxt[k] += 1
    return tuple(out)


def wall_from_text(text: str) -> tuple[int, ...]:
    """A wall given in tile notation, front first (``"1m5p3z..."``, 148 tiles)."""
    return wall_from_kinds(parse_tiles(text))


def wall_from_ids(ids: Sequence[int]) -> tuple[int, ...]:
    """A wall given as ids: must be a permutation of 0-147 (returned canonical)."""
    if sorted(ids) != list(range(NUM_TILES)):
        raise WallError("a wall given as ids must hold each id 0-147 exactly once")
    return canonical(ids)


def wall_text(order: Sequence[int]) -> str:
    """The wall in tile notation, front first."""
    return format_tiles((KIND[i] for i in order), sort=False)


@dataclass(slots=True)
class WallState:
    """The wall during a hand: the order and two pointers. Tiles ``order[front:back]`` remain.

    ``same-wall``: live and replacement draws share the wall; a draw is possible while more
    than ``end_tiles`` remain, and the draw that leaves exactly ``end_tiles`` is the final
    playable tile. ``dead-wall``: the last ``end_tiles`` tiles are a dead wall; live draws
    stop at it, replacements come only from it.
    """

    order: tuple[int, ...]
    front: int
    back: int
    end_tiles: int
    dead_wall: bool

    @classmethod
    def new(cls, order: tuple[int, ...], rules: WallRules) -> WallState:
        return cls(order, 0, NUM_TILES, rules.end_tiles, rules.replacement == "dead-wall")

    @property
    def remaining(self) -> int:
        """Physical tiles left in the wall (dead wall included)."""
        return self.back - self.front

    @property
    def live_remaining(self) -> int:
        """Live draws left before the hand is a draw (the playable tiles left)."""
        if self.dead_wall:
            return max(NUM_TILES - self.end_tiles - self.front, 0)
        return max(self.remaining - self.end_tiles, 0)

    @property
    def replacements_remaining(self) -> int:
        """Replacement draws still possible."""
        if self.dead_wall:
            return max(self.back - (NUM_TILES - self.end_tiles), 0)
        return self.live_remaining

    def can_draw(self, replacement: bool) -> bool:
        # The properties' tests, written out: called for every draw, twice.
        if self.dead_wall:
            if replacement:
                return self.back > NUM_TILES - self.end_tiles
            return self.front < NUM_TILES - self.end_tiles
        return self.back - self.front > self.end_tiles

    def peek(self, replacement: bool) -> int:
        """The id the next draw of that kind would take (check :meth:`can_draw` first)."""
        return self.order[self.back - 1] if replacement else self.order[self.front]

    def take(self, replacement: bool) -> int:
        if not self.can_draw(replacement):
            raise WallError("no " + ("replacement" if replacement else "live")
                            + " draw is possible: the wall has reached its end")
        if replacement:
            self.back -= 1
            return self.order[self.back]
        self.front += 1
        return self.order[self.front - 1]

    def final_after_draw(self, replacement: bool) -> bool:
        """Whether the draw just taken was the final playable tile (RULES.md's 'last tile').

        same-wall: the draw (live or replacement) that left exactly ``end_tiles`` tiles.
        dead-wall: the live draw that emptied the live wall.
        """
        if self.dead_wall:
            return not replacement and self.live_remaining == 0
        return self.remaining == self.end_tiles
