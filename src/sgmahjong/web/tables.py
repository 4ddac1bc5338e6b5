"""A table as the app sees it, played here or relayed to the server that plays it."""

from __future__ import annotations

from typing import Protocol

from ..game.codec import JSON
from ..record import Record
from ..rules.model import Ruleset
from .core.client import ClientMessage
from .core.server import ServerMessage


class Conn(Protocol):
    """A socket as a table sees it: whose it is, and a send that never blocks (a typed
    message, or the JSON of one as built elsewhere: by the owner of a relayed table)."""

    player: int | None

    def send(self, message: ServerMessage | JSON) -> None: ...


class Table(Protocol):
    """One interface for a local table (:class:`~.runtime.TableRuntime`) and a relayed
    one (:class:`~.relay.RemoteTable`)."""

    id: str

    @property
    def status(self) -> str: ...

    @property
    def rules(self) -> Ruleset: ...

    @property
    def names(self) -> list[str]: ...

    def info(self) -> JSON: ...

    async def live_info(self) -> JSON: ...

    def record(self) -> Record: ...

    def player_for(self, token: str | None) -> int | None: ...

    async def attach(self, conn: Conn, last_seen: int | None) -> None: ...

    async def detach(self, conn: Conn) -> None: ...

    async def handle(self, conn: Conn, msg: ClientMessage) -> None: ...

    async def join(self, name: str, token_hash: str, player: int | None = None) -> int: ...

    async def start(self, player: int) -> None: ...


__all__ = ["Conn", "Table"]
