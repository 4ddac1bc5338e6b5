"""Whether a seat can win on a tile, and the score: built from the seat's own view.

Legality (:mod:`.legal`) and settlement (:mod:`.machine`) both call :func:`win_score`, so
what is offered and what is paid cannot differ. :func:`could_win` (a fast completeness test
and a check for the preset's automatic wins) is the cheap test before :func:`score_hand`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..hand import Hand
from ..melds import Meld
from ..rules.model import Ruleset
from ..scoring import ScoreResult, WinContext, score_hand
from ..tiles import BONUS_TILES, DRAGONS, WINDS, Seat, Tile, counts34
from .quick import is_complete
from .view import PlayerView

EIGHT = frozenset(BONUS_TILES[:8])
SOURCES = ("self", "discard", "rob-kong", "rob-eighth", "eight-flowers")


def _auto_candidate(counts: list[int], melds: Sequence[Meld], rules: Ruleset) -> bool:
    """Could an automatic Big Three Dragons / Big Four Winds win apply (no regular shape)?"""
    autos = rules.scoring.automatic_wins
    for pid, group, need in (("big-three-dragons", DRAGONS, 3), ("big-four-winds", WINDS, 4)):
        if pid in autos:
            sets = sum(1 for m in melds if m.is_pong_or_kong and m.tile in group)
            sets += sum(1 for t in group if counts[t] >= 3)
            if sets >= need:
                return True
    return False


def could_win(concealed: Sequence[Tile], melds: Sequence[Meld], bonus: Sequence[Tile],
              tile: Tile, rules: Ruleset) -> bool:
    """The cheap test before scoring: the tiles (``tile`` already among ``concealed`` or
    ``bonus``) form a winning shape, or an automatic win of the preset is possible."""
    if tile >= 34:
        return set(bonus) >= EIGHT
    counts = counts34(concealed)
    return is_complete(counts, not melds) or _auto_candidate(counts, melds, rules)


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
        heavenly=source == "self" and v.seat == Seat.EAST and v.discard_count == 0 and first,
        earthly=(source == "discard" and v.turn == Seat.EAST and v.discard_count == 1
                 and first),
    )
    return score_hand(Hand(tuple(concealed), melds, tuple(bonus)), ctx, v.rules)


def exposed_tai(seat: Seat, melds: Iterable[Meld], bonus: Iterable[Tile], round_wind: Seat,
                rules: Ruleset) -> int:
    """The face-up tai of a seat (Bao case 3): valued honour sets among its declared sets and
    its bonus tiles, at the rule set's values."""
    total = sum(honour_set_tai(m.tile, seat, round_wind, rules)
                for m in melds if m.is_pong_or_kong)
    held = set(bonus)
    total += _tai(rules, "animal") * sum(1 for t in held if t.is_animal)
    total += _tai(rules, "own-flower") * sum(1 for t in held if t.is_flower and t.owner == seat)
    total += _tai(rules, "own-season") * sum(1 for t in held if t.is_season and t.owner == seat)
    for pid, group in (("four-animals", BONUS_TILES[8:]), ("four-flowers", BONUS_TILES[:4]),
                       ("four-seasons", BONUS_TILES[4:8])):
        if held >= set(group):
            total += _tai(rules, pid)
    return total


def honour_set_tai(tile: Tile, seat: Seat, round_wind: Seat, rules: Ruleset) -> int:
    """The tai a pong or kong of ``tile`` is worth by itself (dragon, seat and round wind)."""
    if tile.is_dragon:
        return _tai(rules, "dragon-pong")
    value = 0
    if tile == seat.wind:
        value += _tai(rules, "seat-wind")
    if tile == round_wind.wind:
        value += _tai(rules, "round-wind")
    return value


def _tai(rules: Ruleset, pid: str) -> int:
    p = rules.pattern(pid)
    return 0 if p is None or p.limit else p.tai
