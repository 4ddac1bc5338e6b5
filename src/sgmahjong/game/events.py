"""What happened: one small frozen dataclass per kind of state change, with a stable JSON form.

Events carry tile *kinds* (notation text in JSON); the state decides which physical copy
(see :mod:`.state`), so a record reads like ``{"type": "discarded", "seat": 0,
"tile": "1z"}``. Every event that :func:`sgmahjong.game.state.apply` accepts is here.

>>> Event.from_json({"type": "drew", "seat": 1, "tile": "5p", "replacement": False})
Drew(seat=Seat.SOUTH, tile=Tile.P5, replacement=False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from ..tiles import Seat, Tile
from .codec import CODECS, Message, MessageError, register

_EVENTS: dict[str, type[Message]] = {}


class PatternScore(NamedTuple):
    """One scored pattern of a win: its id, how often it occurs and its tai."""

    id: str
    count: int
    tai: int


class Payment(NamedTuple):
    """One line of a settlement: ``payer`` (None: points from nobody) gives ``amount``."""

    payer: Seat | None
    payee: Seat
    amount: int
    why: str


def _patterns_in(v: Any) -> tuple[PatternScore, ...]:
    if not isinstance(v, list):
        raise MessageError(f"patterns are a list of objects, got {v!r}")
    try:
        return tuple(PatternScore(str(p["id"]), int(p["count"]), int(p["tai"])) for p in v)
    except (KeyError, TypeError, ValueError):
        raise MessageError(f"bad patterns {v!r}: each needs id, count and tai") from None


def _payments_in(v: Any) -> tuple[Payment, ...]:
    if not isinstance(v, list):
        raise MessageError(f"payments are a list of objects, got {v!r}")
    seat_in = CODECS["Seat"][1]
    opt_in = CODECS["Seat | None"][1]
    try:
        return tuple(Payment(opt_in(p["payer"]), seat_in(p["payee"]), int(p["amount"]),
                             str(p["why"])) for p in v)
    except (KeyError, TypeError):
        raise MessageError(f"bad payments {v!r}: each needs payer, payee, amount, why") from None


CODECS["tuple[PatternScore, ...]"] = (
    lambda v: [{"id": p.id, "count": p.count, "tai": p.tai} for p in v], _patterns_in)
CODECS["tuple[Payment, ...]"] = (
    lambda v: [{"payer": None if p.payer is None else int(p.payer), "payee": int(p.payee),
                "amount": p.amount, "why": p.why} for p in v], _payments_in)


class Event(Message):
    """Base class of the events."""

    __slots__ = ()
    REGISTRY: ClassVar[dict[str, type[Message]]] = _EVENTS


@register(_EVENTS, "hand-started")
@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A hand begins on this wall (148 tiles, front first). East is the banker."""

    round_wind: Seat
    hand_number: int
    seed: int | None
    wall: tuple[Tile, ...]


@register(_EVENTS, "dealt")
@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """A seat's 13 starting tiles, taken from the front of the wall."""

    seat: Seat
    tiles: tuple[Tile, ...]


@register(_EVENTS, "drew")
@dataclass(frozen=True, slots=True)
class Drew(Event):
    """A draw: from the front (live) or the back (a replacement for a bonus tile or kong)."""

    seat: Seat
    tile: Tile
    replacement: bool


@register(_EVENTS, "bonus-exposed")
@dataclass(frozen=True, slots=True)
class BonusExposed(Event):
    """A flower, season or animal set face up (a replacement draw is then due)."""

    seat: Seat
    tile: Tile


@register(_EVENTS, "discarded")
@dataclass(frozen=True, slots=True)
class Discarded(Event):
    seat: Seat
    tile: Tile


@register(_EVENTS, "claimed")
@dataclass(frozen=True, slots=True)
class Claimed(Event):
    """The latest discard (``tile``, from ``discarder``) claimed for a chow, pong or kong.

    ``low`` is the lowest tile of the set made (the tile itself for a pong or kong).
    """

    seat: Seat
    kind: str
    tile: Tile
    low: Tile
    discarder: Seat


@register(_EVENTS, "kong-declared")
@dataclass(frozen=True, slots=True)
class KongDeclared(Event):
    """A kong on one's own turn: ``concealed`` (four in hand) or ``added`` (onto a pong)."""

    seat: Seat
    tile: Tile
    kind: str


@register(_EVENTS, "claim-passed")
@dataclass(frozen=True, slots=True)
class ClaimPassed(Event):
    """The seat passed a Win or Pong on ``tile`` (passed-claim rule). Private to that seat."""

    seat: Seat
    tile: Tile


@register(_EVENTS, "instant-payout")
@dataclass(frozen=True, slots=True)
class InstantPayout(Event):
    """``seat`` collects ``amount`` from each opponent for ``reason`` (a kong or bonus tiles)."""

    seat: Seat
    reason: str
    amount: int
    deltas: tuple[int, ...]


@register(_EVENTS, "bao-incurred")
@dataclass(frozen=True, slots=True)
class BaoIncurred(Event):
    """``seat`` becomes liable (Bao) for ``winner``'s win in this hand, by ``case``."""

    seat: Seat
    winner: Seat
    case: str
    tile: Tile


@register(_EVENTS, "won")
@dataclass(frozen=True, slots=True)
class Won(Event):
    """A win. ``discarder`` is None for a self-drawn win; ``context`` lists WinContext events.

    For a win on another player's tile (discard, robbed kong, robbed eighth) the tile moves
    to the winner (to the nearest winner when several win on one tile).
    """

    seat: Seat
    tile: Tile
    discarder: Seat | None
    context: tuple[str, ...]
    tai: int
    raw_tai: int
    patterns: tuple[PatternScore, ...]
    shape: str


@register(_EVENTS, "settled")
@dataclass(frozen=True, slots=True)
class Settled(Event):
    """What one winner's hand pays: per-seat deltas (East first) and the payment lines."""

    seat: Seat
    deltas: tuple[int, ...]
    payments: tuple[Payment, ...]


@register(_EVENTS, "hand-drawn")
@dataclass(frozen=True, slots=True)
class HandDrawn(Event):
    """The hand ends with no winner: ``wall`` (no live draw left), ``replacement`` (no
    replacement draw left) or ``final-tile`` (nothing may follow the final playable tile)."""

    reason: str
