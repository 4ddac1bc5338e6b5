"""The relaying side: a socket here whose table another server plays.

Its hello, messages and leaving go into the table's inbox for the owner; what the owner
sends it comes back through this server's outbox (:mod:`sgmahjong.web.peers`). A
:class:`RemoteTable` is a :class:`~sgmahjong.web.tables.Table` like a local one, so the
app does not know which it has.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Protocol, TypeVar, TypeVarTuple

from ..game.codec import JSON
from ..record import Record
from ..rules.loading import rules_from_dict
from ..rules.model import Ruleset
from ..store.db import StoredTable, TableStore
from ..store.leases import LeaseStore
from .config import WebConfig
from .core.client import ClientMessage
from .core.server import ServerMessage, wire
from .protocol import early_answer, error
from .runtime import TableError, TableRuntime
from .security import token_matches
from .tables import Conn

log = logging.getLogger("sgmahjong.web.peers")
T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class Hub(Protocol):
    """What a relayed socket needs of its server (a :class:`~.peers.PeerLobby`)."""

    peer: str
    store: TableStore
    config: WebConfig
    leases: LeaseStore
    relays: dict[str, Relay]

    async def io(self, fn: Callable[[*Ts], T], *args: *Ts) -> T: ...

    async def call(self, tid: str, op: str, args: JSON, *,
                   timeout: float = ...) -> JSON: ...

    def send_to(self, peer: str, key: str, message: JSON) -> None: ...


CALL_TIMEOUT = 10.0       # seconds a relayed join or start waits for the owner's answer
INFO_TIMEOUT = 2.0        # seconds a relayed look at a table waits before the stored facts
STALE = ("the table moved to another server while your message was on its way: answer "
         "its next request")


class RemoteConn:
    """A socket on another server, as the owner's table sees it: what the table sends it
    is queued for that server."""

    def __init__(self, lobby: Hub, peer: str, key: str, player: int | None,
                 table_id: str) -> None:
        self.lobby = lobby
        self.peer = peer
        self.key = key
        self.player = player
        self.table_id = table_id

    def send(self, message: ServerMessage | JSON) -> None:
        self.lobby.send_to(self.peer, self.key, wire(message))


class Relay:
    """A socket here whose table another server plays."""

    def __init__(self, conn: Conn, table_id: str, key: str, last_seen: int | None,
                 epoch: int) -> None:
        self.conn = conn
        self.table_id = table_id
        self.key = key
        self.delivered = last_seen      # the last event number written to the socket
        self.epoch = epoch              # the lease it was attached under
        # the owner may have lost it (a message not passed on, this server taken for
        # dead): attach again at the next beat, from the last event delivered
        self.lost = False

    def deliver(self, message: JSON) -> None:
        """A message from the owner, written to the socket as the owner built it."""
        if message.get("type") == "event":
            n = message.get("n")
            if isinstance(n, int):
                # after a change of owner the socket is attached again from the last event
                # it has: anything older is a copy
                if self.delivered is not None and n <= self.delivered:
                    return
                self.delivered = n
        self.conn.send(message)


class RemoteTable:
    """A table another server plays, as this server's app sees it: sockets are relayed,
    joins and starts are asked of the owner, and the public facts are read from the
    database."""

    def __init__(self, lobby: Hub, row: StoredTable) -> None:
        self.lobby = lobby
        self.id = row.id
        self.row = row
        self.status = row.status
        self._keys: dict[Conn, str] = {}

    def _snapshot(self) -> TableRuntime:
        """The table rebuilt from the database (who is connected is the owner's to know:
        a snapshot shows nobody)."""
        store = self.lobby.store
        row = store.load_table(self.id) or self.row
        return TableRuntime(store, self.lobby.config, row, store.load_events(self.id),
                            workers=self.lobby.workers)

    def info(self) -> JSON:
        return self._snapshot().info()

    async def live_info(self) -> JSON:
        """The table as its owner sees it, who is connected included; the stored facts
        (nobody connected) when the owner does not answer in time."""
        try:
            reply = await self.lobby.call(self.id, "info", {}, timeout=INFO_TIMEOUT)
        except TableError:
            return self.info()
        table = reply.get("table")
        return table if isinstance(table, dict) else self.info()

    @property
    def rules(self) -> Ruleset:
        return rules_from_dict(self.row.rules, where=f"table {self.id} rules")

    @property
    def names(self) -> list[str]:
        return self._snapshot().names

    def record(self) -> Record:
        return self._snapshot().record()

    def player_for(self, token: str | None) -> int | None:
        row = self.lobby.store.load_table(self.id) or self.row
        for s in row.seats:
            if s.kind == "human" and token_matches(token, s.token_hash):
                return s.player
        return None

    async def attach(self, conn: Conn, last_seen: int | None) -> None:
        key = secrets.token_hex(12)
        leases = self.lobby.leases
        lease = await self.lobby.io(leases.owner, self.id)
        relay = Relay(conn, self.id, key, last_seen, 0 if lease is None else lease[1])
        self._keys[conn] = key
        self.lobby.relays[key] = relay
        await self.lobby.io(leases.put_inbox, self.id, self.lobby.peer, key, "attach",
                                {"player": conn.player, "last_seen": last_seen})

    async def detach(self, conn: Conn) -> None:
        key = self._keys.pop(conn, None)
        if key is None:
            return
        self.lobby.relays.pop(key, None)
        with contextlib.suppress(Exception):    # the owner notices a dead server anyway
            await self.lobby.io(self.lobby.leases.put_inbox, self.id, self.lobby.peer,
                                    key, "detach", {})

    async def handle(self, conn: Conn, msg: ClientMessage) -> None:
        key = self._keys.get(conn)
        relay = None if key is None else self.lobby.relays.get(key)
        if key is None or relay is None:
            return
        reply = early_answer(msg, conn.player, relay.delivered or 0)
        if reply is not None:
            conn.send(reply)
            return
        try:
            # in a thread: the loop serves the other sockets meanwhile, and this socket's
            # next message waits for this one, so they stay in order
            await self.lobby.io(self.lobby.leases.put_inbox, self.id, self.lobby.peer,
                                    key, "msg", msg.to_json())
        except Exception as exc:
            log.warning("table %s: a message could not be relayed (%s)", self.id, exc)
            conn.send(error("unsaved", "the message could not be passed on: try again"))
            # the fresh request docs/web.md promises after `unsaved` comes from the owner
            # when the socket is attached again (at the next beat the database answers)
            relay.lost = True

    async def join(self, name: str, token_hash: str, player: int | None = None) -> int:
        reply = await self.lobby.call(self.id, "join", {"name": name, "token_hash": token_hash,
                                                        "player": player})
        seated = reply.get("player")
        if not isinstance(seated, int):
            raise TableError("bad-reply", "the server playing this table gave no seat")
        return seated

    async def start(self, player: int) -> None:
        await self.lobby.call(self.id, "start", {"player": player})


__all__ = ["Hub", "Relay", "RemoteConn", "RemoteTable"]
