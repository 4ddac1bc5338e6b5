"""Useful tiles, waits and discard choices, each tile with its unseen copies."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import HandError, TileCountError
from ..tiles import Tile
from .shanten import shanten

__all__ = ["DiscardOption", "discard_table", "unseen_counts", "useful_tiles", "waits"]


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One discard of a hand after its draw: the shanten left and the tiles that then help."""

    discard: Tile
    shanten: int
    useful: dict[Tile, int]

    @property
    def unseen(self) -> int:
        """Unseen copies of all the useful tiles together."""
        return sum(self.useful.values())


def unseen_counts(counts: Sequence[int], visible: Sequence[int] | None = None) -> list[int]:
    """Copies of each of the 34 kinds not in the hand and not in ``visible``.

    ``visible`` counts tiles the player can see elsewhere (discards, others' declared sets,
    the player's own declared sets); 34 or 46 entries, bonus kinds ignored.
    """
    if visible is None:
        return [4 - c for c in counts]
    try:
        seen = [operator.index(v) for v in visible]
    except TypeError:
        raise HandError("visible counts must be integers") from None
    if len(seen) not in (34, 46):
        raise HandError(f"visible counts must have 34 (or 46) entries, not {len(seen)}")
    out: list[int] = []
    for i in range(34):
        if seen[i] < 0:
            raise HandError(f"negative visible count for {Tile(i).text}")
        left = 4 - counts[i] - seen[i]
        if left < 0:
            raise TileCountError(f"the hand and the visible tiles hold {4 - left} copies of "
                                 f"{Tile(i).text}; the set has only 4")
        out.append(left)
    return out


def _concealed_size(counts: Sequence[int], melds: int) -> int:
    # shanten() has validated the counts and melds by the time this runs.
    return sum(counts) + 3 * melds


def useful_tiles(counts: Sequence[int], melds: int = 0,
                 visible: Sequence[int] | None = None) -> dict[Tile, int]:
    """Tiles whose draw lowers the shanten of a hand between turns, with unseen copies.

    The hand has 13 - 3*melds concealed tiles. A kind of which the hand holds all four is
    never listed (it cannot be drawn); a kind whose copies are all visible is listed with 0.

    >>> from sgmahjong import Hand
    >>> {t.text: n for t, n in useful_tiles(Hand.parse("123m456p789s1122z").counts).items()}
    {'1z': 2, '2z': 2}
    """
    base = shanten(counts, melds)
    if _concealed_size(counts, melds) != 13:
        raise HandError("useful tiles are for a hand between turns (13 - 3*melds concealed "
                        "tiles); for a hand after its draw use discard_table")
    unseen = unseen_counts(counts, visible)
    c = list(counts)
    out: dict[Tile, int] = {}
    for t in range(34):
        if c[t] >= 4:
            continue
        c[t] += 1
        if shanten(c, melds) < base:
            out[Tile(t)] = unseen[t]
        c[t] -= 1
    return out


def waits(counts: Sequence[int], melds: int = 0,
          visible: Sequence[int] | None = None) -> dict[Tile, int]:
    """The winning tiles of a ready hand (13 - 3*melds concealed tiles), with unseen copies.

    Empty when the hand is not ready. A wait on a fifth copy does not exist: a hand whose
    only wait is a tile it holds four of is not ready.

    >>> from sgmahjong import Hand
    >>> {t.text: n for t, n in waits(Hand.parse("123m456p789s1122z").counts).items()}
    {'1z': 2, '2z': 2}
    >>> waits(Hand.parse("1111m234p567s888s").counts)
    {}
    """
    ready = shanten(counts, melds) == 0
    if _concealed_size(counts, melds) != 13:
        raise HandError("waits are for a hand between turns (13 - 3*melds concealed tiles)")
    return useful_tiles(counts, melds, visible) if ready else {}


def discard_table(counts: Sequence[int], melds: int = 0,
                  visible: Sequence[int] | None = None) -> list[DiscardOption]:
    """Each distinct discard of a hand after its draw (14 - 3*melds concealed tiles).

    Gives the shanten left and the useful tiles with unseen copies, best first: lowest
    shanten, then most unseen useful tiles, then tile order. The discarded tile counts as
    seen (it lies in the discards).

    >>> from sgmahjong import Hand
    >>> best = discard_table(Hand.parse("123m456p789s11222z").counts)[0]
    >>> best.discard.text, best.shanten, {t.text: n for t, n in best.useful.items()}
    ('1m', 0, {'1m': 3, '4m': 4})
    """
    shanten(counts, melds)  # validates
    if _concealed_size(counts, melds) != 14:
        raise HandError("discard_table is for a hand after its draw (14 - 3*melds concealed "
                        "tiles); for a hand between turns use useful_tiles")
    seen = list(visible) if visible is not None else [0] * 34
    unseen_counts(counts, seen)  # validates visible against the hand
    c = list(counts)
    options: list[DiscardOption] = []
    for d in range(34):
        if not c[d]:
            continue
        c[d] -= 1
        seen[d] += 1
        after = shanten(c, melds)
        useful = useful_tiles(c, melds, seen)
        options.append(DiscardOption(Tile(d), after, useful))
        seen[d] -= 1
        c[d] += 1
    options.sort(key=lambda o: (o.shanten, -o.unseen, o.discard))
    return options
