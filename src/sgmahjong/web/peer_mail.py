"""Messages between servers through the database: the owner's inbox (relayed hellos,
messages, leavings and calls, fed to its tables) and each server's outbox (what its
relayed sockets are sent)."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import TypeVar, TypeVarTuple

from ..game.codec import JSON
from ..store.leases import (
    InboxRow,
    LeaseStore,
)
from .core.client import ProtocolError, client_from_json
from .protocol import error
from .relay import CALL_TIMEOUT, STALE, Relay, RemoteConn
from .runtime import TableError, TableRuntime

log = logging.getLogger("sgmahjong.web.peers")
T = TypeVar("T")
Ts = TypeVarTuple("Ts")



class PeerMail:
    """The inbox and outbox half of :class:`~.peers.PeerLobby`."""

    peer: str
    leases: LeaseStore
    tables: dict[str, TableRuntime]
    epochs: dict[str, int]
    remote_conns: dict[str, RemoteConn]
    relays: dict[str, Relay]
    calls: dict[str, asyncio.Future[JSON]]
    _out: list[tuple[str, str, JSON]]
    _out_wake: asyncio.Event
    _draining: set[str]
    _again: set[str]
    _outbox_busy: bool
    _outbox_again: bool

    async def io(self, fn: Callable[[*Ts], T], *args: *Ts) -> T: ...

    # ------------------------------------------------------------ the owner's side

    def send_to(self, peer: str, key: str, message: JSON) -> None:
        if peer == self.peer:       # relayed to ourselves (we took the table over)
            self._deliver(key, message)
            return
        self._out.append((peer, key, message))
        self._out_wake.set()

    def _flush_now(self) -> None:
        rows, self._out = self._out, []
        try:
            self.leases.put_outbox(rows)
        except Exception:
            self._out[:0] = rows
            raise

    async def _flusher(self) -> None:
        while True:
            await self._out_wake.wait()
            self._out_wake.clear()
            rows, self._out = self._out, []
            try:
                await self.io(self.leases.put_outbox, rows)
            except Exception:
                self._out[:0] = rows
                log.exception("the outbox could not be written; trying again")
                await asyncio.sleep(0.5)
                self._out_wake.set()

    def _schedule_inbox(self, tid: str) -> None:
        if tid not in self.epochs:
            return
        if tid in self._draining:
            self._again.add(tid)
            return
        self._draining.add(tid)
        asyncio.get_running_loop().create_task(self._drain_inbox(tid))

    async def _drain_inbox(self, tid: str) -> None:
        try:
            while True:
                self._again.discard(tid)
                # every row still there, not those after the last seen: the numbers are
                # drawn when rows are written, and a row written earlier by a slower
                # server may be committed after a later one
                rows = await self.io(self.leases.take_inbox, [tid])
                done: list[int] = []
                try:
                    for row in rows:
                        rt = self.tables.get(tid)
                        if tid not in self.epochs or rt is None:
                            return
                        if row.kind == "call":
                            # gone before it is answered: after a crash the caller asks
                            # again rather than joining twice
                            self.leases.done([row.seq])
                        try:
                            await self._apply(rt, row)
                        except Exception:
                            log.exception("table %s: relayed message %d failed", tid, row.seq)
                        done.append(row.seq)
                finally:
                    # an action's row went with its events; the rest go now (one done
                    # twice after a crash is harmless: an attach, a leave, a stale answer)
                    if done:
                        await self.io(self.leases.done, done)
                if tid not in self._again:
                    return
        except Exception:
            log.exception("table %s: the inbox could not be read", tid)
        finally:
            self._draining.discard(tid)

    async def _apply(self, rt: TableRuntime, row: InboxRow) -> None:
        p = row.payload
        if row.kind == "attach":
            old = self.remote_conns.pop(row.conn, None)
            if old is not None:
                await rt.detach(old)
            player = p.get("player")
            if not (player is None or (isinstance(player, int) and 0 <= player <= 3)):
                return
            conn = RemoteConn(self, row.peer, row.conn, player, rt.id)
            self.remote_conns[row.conn] = conn
            last_seen = p.get("last_seen")
            await rt.attach(conn, last_seen if isinstance(last_seen, int) else None)
        elif row.kind == "detach":
            old = self.remote_conns.pop(row.conn, None)
            if old is not None:
                await rt.detach(old)
        elif row.kind == "msg":
            rc = self.remote_conns.get(row.conn)
            if rc is None:
                self.send_to(row.peer, row.conn, error("stale", STALE).to_json())
                return
            try:
                msg = client_from_json(p)
            except ProtocolError as exc:
                rc.send(error(exc.code, str(exc)))
                return
            await rt.handle(rc, msg, inbox=(rt.id, row.seq))
        elif row.kind == "call":
            self.send_to(row.peer, row.conn, {"type": "reply", **await self._answer(rt, p)})

    @staticmethod
    async def _answer(rt: TableRuntime, p: JSON) -> JSON:
        try:
            player = p.get("player")
            if not (player is None or isinstance(player, int)):
                return {"error": "bad-call", "message": "field 'player' must be a number"}
            if p.get("op") == "join":
                return {"player": await rt.join(str(p["name"]), str(p["token_hash"]), player)}
            if p.get("op") == "start":
                if player is None:
                    return {"error": "bad-call", "message": "start names the player"}
                await rt.start(player)
                return {}
            if p.get("op") == "info":
                return {"table": rt.info()}
        except TableError as exc:
            return {"error": exc.code, "message": str(exc)}
        return {"error": "bad-call", "message": f"unknown call {p.get('op')!r}"}

    # ------------------------------------------------------------ the relaying side

    def _deliver(self, key: str, message: JSON) -> None:
        if key.startswith("call:"):
            fut = self.calls.get(key)
            if fut is not None and not fut.done():
                fut.set_result(message)
            return
        relay = self.relays.get(key)
        if relay is not None:
            relay.deliver(message)

    def _schedule_outbox(self) -> None:
        if self._outbox_busy:
            self._outbox_again = True
            return
        self._outbox_busy = True
        asyncio.get_running_loop().create_task(self._drain_outbox())

    async def _drain_outbox(self) -> None:
        try:
            while True:
                self._outbox_again = False
                for key, message in await self.io(self.leases.take_outbox,
                                                             self.peer):
                    self._deliver(key, message)
                if not self._outbox_again:
                    return
        except Exception:
            log.exception("the outbox could not be read")
        finally:
            self._outbox_busy = False

    async def call(self, tid: str, op: str, args: JSON, *,
                   timeout: float = CALL_TIMEOUT) -> JSON:
        """Ask the table's owner to do ``op``; its answer, or the :class:`TableError` it
        gave."""
        key = f"call:{secrets.token_hex(12)}"
        fut: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self.calls[key] = fut
        try:
            self.leases.put_inbox(tid, self.peer, key, "call", {"op": op, **args})
            reply = await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            raise TableError("busy", "the server playing this table did not answer: "
                                     "try again") from None
        finally:
            self.calls.pop(key, None)
        if "error" in reply:
            raise TableError(str(reply["error"]), str(reply.get("message", "")))
        return reply


__all__ = ["PeerMail"]
