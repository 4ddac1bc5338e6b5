"""Whether a seat can win on a tile, and the score: built from the seat's own view.

Legality (:mod:`.legal`) and settlement (:mod:`.machine`) both call :func:`win_score`, so
what is offered and what is paid cannot differ. :func:`could_win` (a fast completeness test
and a check for the preset's automatic wins) is the cheap test before :func:`score_hand`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from ..analysis.decompose import is_complete
from ..hand import Hand
from ..melds import Meld, MeldKind
from ..rules.model import Ruleset
from ..scoring import ScoreResult, WinContext, score_hand
from ..tiles import BONUS_TILES, DRAGONS, WINDS, Seat, Tile, counts34
from .state import DeclaredSet
from .view import PlayerView

# Enum members read as module names: in Python 3.11 each ``Phase.TURN``-style lookup
# goes through the enum metaclass's ``__getattr__`` hook, several times slower than a
# global, and these are compared at every event.
_CHOW: Final = MeldKind.CHOW
_EAST: Final = Seat.EAST

EIGHT: Final = frozenset(BONUS_TILES[:8])
SOURCES: Final = ("self", "discard", "rob-kong", "rob-eighth", "eight-flowers")


def _auto_candidate(counts: Sequence[int], melds: Sequence[DeclaredSet] | Sequence[Meld],
                    rules: Ruleset) -> bool:
    """Could an automatic Big Three Dragons / Big Four Winds win apply (no regular shape)?"""
    autos = rules.scoring.automatic_wins
    for pid, group, need in (("big-three-dragons", DRAGONS, 3), ("big-four-winds", WINDS, 4)):
        if pid in autos:
            sets = sum(1 for m in melds if m.kind is not _CHOW and m.tile in group)
            sets += sum(1 for t in group if counts[t] >= 3)
            if sets >= need:
                return True
    return False


@cache
def shape_free_autos(autos: tuple[str, ...]) -> bool:
    """Whether these automatic wins include one without the regular shape (Big Three
    Dragons, Big Four Winds), for which :func:`_auto_candidate` must look (read once per
    rule set: asked at every turn)."""
    return "big-three-dragons" in autos or "big-four-winds" in autos


def could_win(concealed: Sequence[Tile], melds: Sequence[Meld], bonus: Sequence[Tile],
              tile: Tile, rules: Ruleset) -> bool:
    """The cheap test before scoring: the tiles (``tile`` already among ``concealed`` or
    ``bonus``) form a winning shape, or an automatic win of the preset is possible."""
    if tile >= 34:
        return set(bonus) >= EIGHT
    counts = counts34(concealed)
    return is_complete(counts, melds) or _auto_candidate(counts, melds, rules)


def could_win_counts(counts: list[int], melds: Sequence[DeclaredSet] | Sequence[Meld],
                     rules: Ruleset) -> bool:
    """:func:`could_win` on 34-kind counts (winning tile included) and the declared sets."""
    return is_complete(counts, melds) or (
        shape_free_autos(rules.scoring.automatic_wins) and _auto_candidate(counts, melds, rules))


def win_score(v: PlayerView, tile: Tile, source: str) -> ScoreResult | None:
    """The score of ``v.seat`` winning on ``tile``; None when the tiles cannot be complete.

    ``source``: ``self`` (self-drawn, ``tile`` is the drawn tile, already held), ``discard``,
    ``rob-kong`` (the tile another seat adds to a kong), ``rob-eighth`` (the eighth bonus
    tile another seat exposes), ``eight-flowers`` (one's own eighth, already exposed).
    """
    me = v.me
    melds = tuple(m.meld for m in me.melds)
    concealed = [t for t in v.concealed if not t.is_bonus]
    bonus = list(me.bonus)
    if source in ("discard", "rob-kong"):
        concealed.append(tile)
    elif source == "rob-eighth":
        bonus.append(tile)
    if not could_win(concealed, melds, bonus, tile, v.rules):
        return None
    self_drawn = source in ("self", "eight-flowers")
    first = v.sets_declared == 0
    ctx = WinContext(
        seat=v.seat, win_tile=tile, self_drawn=self_drawn, round_wind=v.round_wind,
        discarder=None if self_drawn else v.turn,
        replacement=source == "self" and v.draw_replacement,
        last_tile=source == "self" and v.draw_final,
        robbing_kong=source == "rob-kong", robbing_eighth=source == "rob-eighth",
        heavenly=source == "self" and v.seat == _EAST and v.discard_count == 0 and first,
        earthly=(source == "discard" and v.turn == _EAST and v.discard_count == 1
                 and first),
    )
    return score_hand(Hand(tuple(concealed), melds, tuple(bonus)), ctx, v.rules)

