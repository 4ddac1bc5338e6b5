"""The messages a page (or a bot) sends the web table, each a typed class.

They are read and written by the game's own codec (:mod:`sgmahjong.game.codec`): a field
is declared once, with its type, and ``to_json``/``from_json`` follow from it. A server
that relays a socket to the table's owner sends the message's ``to_json()`` and the owner
reads it back with :func:`parse_client`, so every field arrives, including one added
later. Adding a message: a class here, and a handler in
:class:`~sgmahjong.web.core.table.TableCore` (``HANDLERS``); docs/web.md shows one.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

from ...errors import SgmahjongError
from ...game import Action
from ...game.codec import Message, MessageError, register
from ...inputs import InputError, decode, parse_json

MAX_MESSAGE = 4096
"""Largest client message accepted, in bytes (UTF-8)."""

_CLIENT: dict[str, type[Message]] = {}


class ProtocolError(SgmahjongError):
    """A client message that cannot be used; ``code`` names the fault for the client."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class ClientMessage(Message):
    """A message from a socket (after :func:`parse_client` has checked it)."""

    __slots__ = ()
    REGISTRY: ClassVar[dict[str, type[Message]]] = _CLIENT

    @property
    def type(self) -> str:
        return self.TYPE


def _within(name: str, value: int | None, low: int, high: int) -> None:
    if value is not None and not low <= value <= high:
        raise MessageError(f"field {name!r} must be an integer {low}-{high}")


@register(_CLIENT, "hello")
@dataclass(frozen=True)
class Hello(ClientMessage):
    """The first message: a seat's token, or ``spectate``; ``last_seen`` the last event
    number the page has (it gets the ones after)."""

    token: str | None = None
    spectate: bool = False
    last_seen: int | None = None

    def check(self) -> None:
        if self.token is not None and len(self.token) > 200:
            raise MessageError("field 'token' must be text of at most 200 characters")
        _within("last_seen", self.last_seen, 0, 2**31)


@register(_CLIENT, "action")
@dataclass(frozen=True)
class ActionMessage(ClientMessage):
    """An answer to request ``id`` (optional) for seat ``seat`` (optional, checked)."""

    action: Action
    id: int | None = None
    seat: int | None = None

    def check(self) -> None:
        _within("id", self.id, 0, 2**31)
        _within("seat", self.seat, 0, 3)


@register(_CLIENT, "ready")
@dataclass(frozen=True)
class ReadyMessage(ClientMessage):
    """Ready for the next hand."""


@register(_CLIENT, "hints")
@dataclass(frozen=True)
class HintsMessage(ClientMessage):
    """Hints for the seat's decision now."""


@register(_CLIENT, "start")
@dataclass(frozen=True)
class StartMessage(ClientMessage):
    """The creator starts the match."""


@register(_CLIENT, "ping")
@dataclass(frozen=True)
class Ping(ClientMessage):
    """Are you there? (answered ``pong`` with the last event number the socket has)."""


def client_types() -> tuple[str, ...]:
    return tuple(_CLIENT)


def parse_client(text: str | bytes) -> ClientMessage:
    """Check one client message (size, JSON, type, fields); :class:`ProtocolError` if bad."""
    size = len(text.encode("utf-8", "replace") if isinstance(text, str) else text)
    if size > MAX_MESSAGE:
        raise ProtocolError("too-large", f"message of {size} bytes: the limit is "
                                         f"{MAX_MESSAGE}")
    try:
        body = decode(text, "the message") if isinstance(text, bytes) else text
        data = parse_json(body, "the message")
    except InputError as exc:
        raise ProtocolError("malformed", str(exc)) from None
    return client_from_json(data)


def client_from_json(data: object) -> ClientMessage:
    """A client message from its JSON object (as relayed between servers)."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError("malformed", "a message is a JSON object with a \"type\"")
    kind = data["type"]
    if kind not in _CLIENT:
        raise ProtocolError("unknown-type", f"unknown message type {kind[:40]!r}; expected "
                                            f"one of {', '.join(_CLIENT)}")
    if kind == "action" and not isinstance(data.get("action"), dict):
        raise ProtocolError("malformed", "an action message needs an \"action\" object")
    # fields this server does not know are left out alike on every server (a newer page
    # may send more): what is read is what is relayed
    known = {f.name for f in fields(_CLIENT[kind])}  # type: ignore[arg-type]
    data = {k: v for k, v in data.items() if k == "type" or k in known}
    try:
        return ClientMessage.from_json(data)
    except MessageError as exc:
        text = str(exc)
        if kind == "action" and "'action'" in text:
            raise ProtocolError("bad-action", f"bad action: {text}") from None
        raise ProtocolError("malformed", text) from None
    except SgmahjongError as exc:
        raise ProtocolError("bad-action", f"bad action: {exc}") from None


__all__ = ["MAX_MESSAGE", "ActionMessage", "ClientMessage", "Hello", "HintsMessage", "Ping",
           "ProtocolError", "ReadyMessage", "StartMessage", "client_from_json",
           "client_types", "parse_client"]
