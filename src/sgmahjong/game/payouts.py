"""Instant payouts (RULES.md, 'instant payouts'): kongs and bonus tiles, paid when first true."""

from __future__ import annotations

from collections.abc import Iterable

from ..rules.model import Ruleset
from ..tiles import BONUS_TILES, Seat, Tile
from .events import InstantPayout
from .wall import KIND

PAIRS = {"cat-mouse": (Tile.CAT, Tile.MOUSE), "rooster-centipede": (Tile.ROOSTER, Tile.CENTIPEDE)}
SETS = {"four-animals": BONUS_TILES[8:], "four-flowers": BONUS_TILES[:4],
        "four-seasons": BONUS_TILES[4:8]}


def payout(seat: Seat, reason: str, amount: int) -> InstantPayout:
    """``seat`` collects ``amount`` from each of the three opponents."""
    deltas = tuple(3 * amount if s == seat else -amount for s in Seat)
    return InstantPayout(seat, reason, amount, deltas)


def kong_payout(rules: Ruleset, seat: Seat, kind: str) -> list[InstantPayout]:
    """The payout for a kong: ``kind`` is ``claimed``, ``added`` or ``concealed``."""
    inst = rules.instant
    amount = {"claimed": inst.claimed_kong, "added": inst.added_kong,
              "concealed": inst.concealed_kong}[kind]
    if not inst.enabled or amount <= 0:
        return []
    return [payout(seat, f"{kind}-kong", amount)]


# Each seat's own flower and season (made once: a bonus tile is exposed every few turns).
_OWN_PAIR = tuple((Tile(34 + seat), Tile(38 + seat)) for seat in range(4))


def bonus_payouts(rules: Ruleset, seat: Seat, bonus: Iterable[int], paid: frozenset[str],
                  initial: frozenset[int]) -> list[InstantPayout]:
    """Bonus-tile payouts now owed to ``seat`` holding ``bonus`` (ids) and not yet ``paid``.

    A pair pays ``bonus_pair_initial`` when both its tiles were exposed during the deal
    (``initial``), else ``bonus_pair``; a complete set of four pays ``bonus_set`` in addition.
    """
    inst = rules.instant
    if not inst.enabled:
        return []
    held = {KIND[i]: i for i in bonus}
    pairs = dict(PAIRS)
    pairs["own-flower-season"] = _OWN_PAIR[seat]
    out = []
    for reason, (a, b) in pairs.items():
        if reason not in paid and a in held and b in held:
            both_initial = held[a] in initial and held[b] in initial
            amount = inst.bonus_pair_initial if both_initial else inst.bonus_pair
            if amount > 0:
                out.append(payout(seat, reason, amount))
    for reason, group in SETS.items():
        if reason not in paid and inst.bonus_set > 0 and all(t in held for t in group):
            out.append(payout(seat, reason, inst.bonus_set))
    return out
