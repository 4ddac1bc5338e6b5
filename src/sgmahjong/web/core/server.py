"""The messages the web table sends a page (or a bot), each a typed class.

The other half of :mod:`~sgmahjong.web.core.client`, written and read by the same codec
(:mod:`sgmahjong.game.codec`): a field is declared once, with its type, and ``to_json``
gives the message as the page receives it. A field listed in ``OPTIONAL`` is left out of
the JSON while it is None (the page tests for its presence). What crosses between servers
and down a socket is that JSON: a relayed socket gets it as the owner built it.
Nested objects a message carries whole (a view, an event as a seat may see it, the table's
facts) are :data:`~sgmahjong.game.codec.JSON`, their shape declared where they are built.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypedDict

from ...bot.wire import hello
from ...game import Action
from ...game.codec import JSON, Message, register
from ...rules.model import Ruleset
from ...tiles import Seat

_SERVER: dict[str, type[Message]] = {}


class ServerMessage(Message):
    """A message from the table to a socket."""

    __slots__ = ()
    REGISTRY: ClassVar[dict[str, type[Message]]] = _SERVER
    OPTIONAL: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> JSON:
        out = super().to_json()
        for name in self.OPTIONAL:
            if out[name] is None:
                del out[name]
        return out


def wire(message: ServerMessage | JSON) -> JSON:
    """A message as it goes down a socket (a JSON object passes as it is: one relayed from
    another server, or of a type only a newer server knows)."""
    return message.to_json() if isinstance(message, ServerMessage) else message


class Board(TypedDict):
    """Who sits at each seat this hand (``players[seat]``, a match player) and their match
    total so far (``totals[seat]``): what a view or request carries beside the view."""

    players: list[int]
    totals: list[int]


@register(_SERVER, "welcome")
@dataclass(frozen=True)
class Welcome(ServerMessage):
    """The answer to a hello: whose socket this is (``player`` None: a spectator)."""

    protocol: int
    player: int | None
    role: str
    token_ok: bool
    table: JSON


@register(_SERVER, "hello")
@dataclass(frozen=True)
class SeatHello(ServerMessage):
    """The bot protocol's hello (:func:`sgmahjong.bot.wire.hello`): the seat this hand and
    the rules in full."""

    protocol: int
    seat: int
    rules: JSON

    @classmethod
    def of(cls, seat: Seat, rules: Ruleset) -> SeatHello:
        return cls.from_json(hello(seat, rules))


@register(_SERVER, "table")
@dataclass(frozen=True)
class TableChanged(ServerMessage):
    """The table's public facts, after a change (a seat taken, someone connected ...)."""

    table: JSON


@register(_SERVER, "event")
@dataclass(frozen=True)
class EventMessage(ServerMessage):
    """Engine event number ``n``, redacted for the socket's seat."""

    n: int
    event: JSON


@register(_SERVER, "view")
@dataclass(frozen=True)
class ViewMessage(ServerMessage):
    """The socket's view after event ``n``; ``players[seat]`` sits at each seat this hand
    and ``totals[seat]`` is their match total so far."""

    n: int
    view: JSON
    players: tuple[int, ...]
    totals: tuple[int, ...]


@register(_SERVER, "request")
@dataclass(frozen=True)
class RequestMessage(ServerMessage):
    """A decision due from ``seat``: answer with one of ``legal`` within ``deadline_ms``
    (0: no limit); the view and board as in :class:`ViewMessage`."""

    id: int
    n: int
    seat: int
    legal: tuple[Action, ...]
    deadline_ms: int
    view: JSON
    players: tuple[int, ...]
    totals: tuple[int, ...]


@register(_SERVER, "ack")
@dataclass(frozen=True)
class Ack(ServerMessage):
    """An action accepted (``id``: the request it answered, None if none was open)."""

    id: int | None
    action: Action


@register(_SERVER, "notice")
@dataclass(frozen=True)
class Notice(ServerMessage):
    """Something done for the player (``time-up``: the server answered at the deadline)."""

    code: str
    message: str


@register(_SERVER, "hints")
@dataclass(frozen=True)
class HintsReply(ServerMessage):
    """The hint panel for the decision after event ``n`` (None: no hints to give)."""

    n: int
    hints: JSON | None


@register(_SERVER, "hand-end")
@dataclass(frozen=True)
class HandEnd(ServerMessage):
    """The hand's summary; between hands ``next_in_ms``, at a ladder table ``ladder``,
    to a human player their ``review`` of the hand."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("next_in_ms", "ladder", "review")

    hand: JSON | None
    next_in_ms: int | None = None
    ladder: JSON | None = None
    review: JSON | None = None


@register(_SERVER, "match-end")
@dataclass(frozen=True)
class MatchEnd(ServerMessage):
    """The final scores and standings, where to download and replay the match; at a
    ladder table ``ladder``, to a human player the ``review`` of their match."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("ladder", "review")

    scores: tuple[int, ...]
    standings: tuple[JSON, ...]
    record: str
    replay: str
    ladder: JSON | None = None
    review: JSON | None = None


@register(_SERVER, "error")
@dataclass(frozen=True)
class ErrorMessage(ServerMessage):
    """A message refused (nothing changed): ``code`` names the fault."""

    code: str
    message: str


@register(_SERVER, "pong")
@dataclass(frozen=True)
class Pong(ServerMessage):
    """The answer to a ping: ``n`` the last event number the socket has."""

    n: int


__all__ = ["Ack", "Board", "ErrorMessage", "EventMessage", "HandEnd", "HintsReply", "MatchEnd",
           "Notice", "Pong", "RequestMessage", "SeatHello", "ServerMessage", "TableChanged",
           "ViewMessage", "Welcome", "wire"]
