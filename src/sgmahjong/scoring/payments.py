"""Settlement of a win: base points from tai and who pays what (RULES.md, "what a win pays").

>>> from sgmahjong.rules import load_rules
>>> s = settle_win(load_rules("standard"), Seat.SOUTH, tai=3, self_drawn=False,
...                discarder=Seat.NORTH)
>>> s.deltas
(-8, 32, -8, -16)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..english import count
from ..rules.model import Ruleset
from ..tiles import Seat


@dataclass(frozen=True, slots=True)
class PaymentLine:
    """One payment: ``payer`` gives ``amount`` to ``payee`` (payer None: points from nobody)."""

    payer: Seat | None
    payee: Seat
    amount: int
    why: str


@dataclass(frozen=True)
class Settlement:
    """Per-seat point changes (indexed by seat, East first) and the lines that explain them."""

    deltas: tuple[int, int, int, int]
    lines: tuple[PaymentLine, ...]

    def __add__(self, other: Settlement) -> Settlement:
        d = tuple(a + b for a, b in zip(self.deltas, other.deltas, strict=True))
        return Settlement(d, self.lines + other.lines)  # type: ignore[arg-type]

    @classmethod
    def zero(cls) -> Settlement:
        return cls((0, 0, 0, 0), ())

    def as_dict(self) -> dict[str, int]:
        return {seat.letter: self.deltas[seat] for seat in Seat}


def base_points(tai: int, rules: Ruleset) -> int:
    """Base points for a hand of ``tai`` (already capped): 2^(tai + base_offset), at least 1."""
    return 2 ** max(tai + rules.payments.base_offset, 0)


def settle_win(rules: Ruleset, winner: Seat, tai: int, self_drawn: bool,
               discarder: Seat | None, *, thirteen_wonders: bool = False,
               liable: Seat | None = None, exempt: Iterable[Seat] = ()) -> Settlement:
    """What one winner collects. ``tai`` is the capped value.

    ``liable`` is a seat under Bao: it pays every other payer's share too. ``exempt`` are
    seats that pay this winner nothing (co-winners on the same discard).
    """
    p = rules.payments
    tai = min(tai, rules.scoring.tai_cap)
    deltas = [0, 0, 0, 0]
    if p.scheme == "one-point":
        deltas[winner] = 1
        return Settlement(tuple(deltas), (PaymentLine(None, winner, 1, "one point for the win"),))  # type: ignore[arg-type]
    base = base_points(tai, rules)
    if p.scheme == "winner-only":
        points = base * (p.self_drawn_pays if self_drawn else 1)
        deltas[winner] = points
        why = f"{tai} tai: {count(base, 'point')}" + (", doubled for self-drawn" if self_drawn
                                                      else "")
        return Settlement(tuple(deltas), (PaymentLine(None, winner, points, why),))  # type: ignore[arg-type]
    self_rate = self_drawn or (thirteen_wonders and p.thirteen_wonders_self_drawn_rate)
    skip = set(exempt)
    shares: list[tuple[Seat, int, str]] = []
    for seat in Seat:
        if seat == winner or seat in skip:
            continue
        if self_rate:
            mult = p.self_drawn_pays
            why = "self-drawn" if self_drawn else "Thirteen Wonders, paid as self-drawn"
        elif seat == discarder:
            mult, why = p.discarder_pays, "discarder"
        else:
            mult, why = p.others_pay, "other player"
        shares.append((seat, mult * base, f"{why}: {mult} × base {base}"))
    lines: list[PaymentLine] = []
    if liable is not None and liable != winner:
        total = sum(a for _, a, _ in shares)
        shares = [(liable, total, f"Bao: pays the whole table's share ({total})")]
    for seat, amount, why in shares:
        deltas[seat] -= amount
        deltas[winner] += amount
        lines.append(PaymentLine(seat, winner, amount, why))
    return Settlement(tuple(deltas), tuple(lines))  # type: ignore[arg-type]
