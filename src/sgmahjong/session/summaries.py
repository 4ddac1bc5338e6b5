"""The end of a hand as every screen tells it: who won, who paid whom and why, what was paid
along the way, or why the hand was drawn.

Read once from the hand's events, with the sentences of :mod:`sgmahjong.render.words`; the
terminal lays these out as text, the web table sends them to the page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..game import BaoIncurred, Event, HandDrawn, InstantPayout, Settled, Won
from ..render.words import bao_text, drawn_text, payment_text, payout_text
from ..tiles import Seat, Tile

Namer = Callable[[Seat], str]
"""A player's name by their seat in the hand."""


@dataclass(frozen=True)
class PaymentLine:
    """One payment of a settlement: ``payer`` None for points from nobody."""

    payer: Seat | None
    payee: Seat
    amount: int
    why: str
    text: str


@dataclass(frozen=True)
class PayoutLine:
    """An instant payout collected by ``seat`` (a kong, a bonus set) during the hand."""

    seat: Seat
    amount: int
    reason: str
    text: str


@dataclass(frozen=True)
class BaoLine:
    """``seat`` became liable (Bao) for ``winner``'s hand by giving ``tile``."""

    seat: Seat
    winner: Seat
    case: str
    tile: Tile
    text: str


@dataclass(frozen=True)
class HandEnd:
    """A finished hand's results in event order: the wins (the engine's facts, worded by
    each screen), one settlement per win, the instant payouts and Bao along the way, and
    the drawn hand's reason and sentence (None when someone won)."""

    wins: tuple[Won, ...]
    settlements: tuple[tuple[PaymentLine, ...], ...]
    along: tuple[PayoutLine | BaoLine, ...]
    drawn: str | None
    drawn_text: str | None

    @property
    def payments(self) -> list[PaymentLine]:
        return [p for lines in self.settlements for p in lines]

    @property
    def payouts(self) -> list[PayoutLine]:
        return [x for x in self.along if isinstance(x, PayoutLine)]

    @property
    def bao(self) -> list[BaoLine]:
        return [x for x in self.along if isinstance(x, BaoLine)]


def hand_end(events: Sequence[Event], name: Namer) -> HandEnd:
    """The end of the hand ``events`` (from its start), players named by ``name``."""
    wins: list[Won] = []
    settlements: list[tuple[PaymentLine, ...]] = []
    along: list[PayoutLine | BaoLine] = []
    drawn: str | None = None
    for e in events:
        if isinstance(e, Won):
            wins.append(e)
        elif isinstance(e, Settled):
            settlements.append(tuple(
                PaymentLine(p.payer, p.payee, p.amount, p.why,
                            payment_text(None if p.payer is None else name(p.payer),
                                         name(p.payee), p.amount, p.why))
                for p in e.payments))
        elif isinstance(e, InstantPayout):
            along.append(PayoutLine(e.seat, e.amount, e.reason,
                                    payout_text(name(e.seat), e.amount, e.reason)))
        elif isinstance(e, BaoIncurred):
            along.append(BaoLine(e.seat, e.winner, e.case, e.tile,
                                 bao_text(name(e.seat), e.case, name(e.winner), e.tile)))
        elif isinstance(e, HandDrawn):
            drawn = e.reason
    return HandEnd(tuple(wins), tuple(settlements), tuple(along), drawn,
                   None if drawn is None else drawn_text(drawn))


__all__ = ["BaoLine", "HandEnd", "Namer", "PaymentLine", "PayoutLine", "hand_end"]
