"""Bao (pay-all liability, RULES.md 'Bao cases'): when a discard makes its discarder liable.

Liability incurred by a Pong or Kong lasts for that player's eventual win in the hand; the
first liability incurred for a player is the one applied (see docs/engine.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..melds import Meld
from ..rules.model import Ruleset
from ..tiles import DRAGONS, WINDS, Seat, Tile
from .winning import exposed_tai, honour_set_tai

_GROUP_CASES = {"third-dragon": (DRAGONS, 2), "fourth-wind": (WINDS, 3)}


def _honour_sets(melds: Sequence[Meld], group: tuple[Tile, ...]) -> int:
    return sum(1 for m in melds if m.is_pong_or_kong and m.tile in group)


def claim_case(rules: Ruleset, seat: Seat, melds: Sequence[Meld], bonus: Sequence[Tile],
               round_wind: Seat, tile: Tile) -> str | None:
    """The Bao case a Pong or Kong of the discard ``tile`` incurs (melds: before the claim)."""
    return _case(rules, seat, melds, bonus, round_wind, tile, forms_set=True, win=None)


def win_case(rules: Ruleset, seat: Seat, melds: Sequence[Meld], bonus: Sequence[Tile],
             round_wind: Seat, tile: Tile, concealed_before: int, playable: Sequence[Tile],
             fresh: bool, remaining: int) -> str | None:
    """The Bao case a discard win on ``tile`` incurs.

    ``concealed_before``: copies of ``tile`` the winner held concealed (2 means the tile
    completes a pong); ``playable``: every playable tile of the winning hand; ``fresh``: no
    copy was discarded before; ``remaining``: playable tiles left when it was discarded.
    """
    forms_set = tile.is_honour and concealed_before == 2
    return _case(rules, seat, melds, bonus, round_wind, tile, forms_set,
                 win=(playable, fresh, remaining))


def _case(rules: Ruleset, seat: Seat, melds: Sequence[Meld], bonus: Sequence[Tile],
          round_wind: Seat, tile: Tile, forms_set: bool,
          win: tuple[Sequence[Tile], bool, int] | None) -> str | None:
    cap = rules.scoring.tai_cap
    for case in rules.bao.cases:
        if case in _GROUP_CASES:
            group, shown = _GROUP_CASES[case]
            if tile in group and forms_set and _honour_sets(melds, group) == shown:
                return case
        elif case in ("exposed-limit", "exposed-limit-pong"):
            value = honour_set_tai(tile, seat, round_wind, rules)
            if value <= 0:
                continue
            face_up = exposed_tai(seat, melds, bonus, round_wind, rules)
            if case == "exposed-limit" and face_up >= cap:
                return case  # already at the limit: any Win, Pong or Kong with it
            if forms_set and face_up + value >= cap:
                return case
        elif win is not None:
            playable, fresh, remaining = win
            if case == "fresh-tile":
                if fresh and remaining <= rules.bao.fresh_tile_max_remaining:
                    return case
            elif _colour_case(case, melds, playable):
                return case
    return None


def _colour_case(case: str, melds: Sequence[Meld], playable: Sequence[Tile]) -> bool:
    """Full Colour (and, for ``full-colour-or-honours-or-terminals``, All Honours and All
    Terminals) won by a player showing three or more sets of it."""
    tests = [lambda t, s: t.is_suited and t // 9 == s]
    if case == "full-colour-or-honours-or-terminals":
        tests += [lambda t, s: t.is_honour, lambda t, s: t.is_terminal]
    elif case != "full-colour":
        return False
    for test in tests:
        for suit in range(3):
            shown = sum(1 for m in melds if all(test(t, suit) for t in m.tiles))
            if shown >= 3 and all(test(t, suit) for t in playable):
                return True
    return False
