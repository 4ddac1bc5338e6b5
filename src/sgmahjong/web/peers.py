"""Several servers, one PostgreSQL database: every server serves every table.

One server at a time plays a table: the one its lease names (:mod:`sgmahjong.store.leases`).
A socket that arrives at another server is relayed: its hello, its messages and its
leaving go into the table's inbox (``table_inbox``), the owner feeds them to the table as
if the socket were its own (a :class:`RemoteConn`), and what the table sends that socket
goes into the outbox (``table_outbox``) of the socket's server, which writes it out. Both
are signalled with ``NOTIFY`` (the payload names only a table or a server; the messages
themselves are rows). So every player sees the one numbered event stream the owner
stores, wherever their socket is.

When the owner dies its lease expires (``LEASE_TTL`` seconds after it last renewed);
another server takes the lease, rebuilds the table from the stored event log and plays
on. The relaying servers attach their sockets again, saying the last event each has
seen, so nothing is sent twice or missed. A relayed action is removed from the inbox in
the transaction that stores its events: the new owner finds it either applied or still
waiting, and one still waiting names a request of the old owner's, so it is refused as
stale and the player answers the new owner's request instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ..rules.loading import rules_from_dict
from ..rules.model import Ruleset
from ..store.db import StoredTable, TableStore
from ..store.leases import (
    LEASE_TTL,
    RENEW_EVERY,
    FencedStore,
    InboxRow,
    LeaseStore,
    postgres_dsn,
)
from .config import WebConfig
from .lobby import Lobby, TableOptions
from .protocol import ClientMessage, ProtocolError, early_answer, error, parse_client
from .runtime import Conn, TableError, TableRuntime
from .security import token_matches

log = logging.getLogger("sgmahjong.web.peers")
T = TypeVar("T")

CALL_TIMEOUT = 10.0       # seconds a relayed join or start waits for the owner's answer
INFO_TIMEOUT = 2.0        # seconds a relayed look at a table waits before the stored facts
STALE = ("the table moved to another server while your message was on its way: answer "
         "its next request")


def client_json(msg: ClientMessage) -> dict[str, Any]:
    """A checked client message back in its wire form (to relay it)."""
    out: dict[str, Any] = {"type": msg.type}
    if msg.type == "action":
        assert msg.action is not None
        out["action"] = msg.action.to_json()
        if msg.id is not None:
            out["id"] = msg.id
        if msg.seat is not None:
            out["seat"] = msg.seat
    return out


class RemoteConn:
    """A socket on another server, as the owner's table sees it: what the table sends it
    is queued for that server."""

    def __init__(self, lobby: PeerLobby, peer: str, key: str, player: int | None,
                 table_id: str) -> None:
        self.lobby = lobby
        self.peer = peer
        self.key = key
        self.player = player
        self.table_id = table_id

    def send(self, message: dict[str, Any]) -> None:
        self.lobby.send_to(self.peer, self.key, message)


class Relay:
    """A socket here whose table another server plays."""

    def __init__(self, conn: Conn, table_id: str, key: str, last_seen: int | None,
                 epoch: int) -> None:
        self.conn = conn
        self.table_id = table_id
        self.key = key
        self.delivered = last_seen      # the last event number written to the socket
        self.epoch = epoch              # the lease it was attached under

    def deliver(self, message: dict[str, Any]) -> None:
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

    def __init__(self, lobby: PeerLobby, row: StoredTable) -> None:
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
        return TableRuntime(store, self.lobby.config, row, store.load_events(self.id))

    def info(self) -> dict[str, Any]:
        return self._snapshot().info()

    async def live_info(self) -> dict[str, Any]:
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

    def record(self) -> Any:
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
                                    key, "msg", client_json(msg))
        except Exception:
            log.exception("table %s: a message could not be relayed", self.id)
            conn.send(error("unsaved", "the message could not be passed on: try again"))

    async def join(self, name: str, token_hash: str, player: int | None = None) -> int:
        reply = await self.lobby.call(self.id, "join", {"name": name, "token_hash": token_hash,
                                                        "player": player})
        return int(reply["player"])

    async def start(self, player: int) -> None:
        await self.lobby.call(self.id, "start", {"player": player})


class PeerLobby(Lobby):
    """The lobby of one of several servers sharing a PostgreSQL database."""

    def __init__(self, store: TableStore, config: WebConfig, *, ttl: float = LEASE_TTL,
                 renew_every: float = RENEW_EVERY) -> None:
        self.peer = secrets.token_hex(8)
        super().__init__(FencedStore(store, self.peer), config)  # type: ignore[arg-type]
        self.base_store = store
        self.leases = LeaseStore(store.engine, ttl=ttl)
        self.renew_every = renew_every
        self.epochs: dict[str, int] = {}              # the tables this server plays
        self.remote_conns: dict[str, RemoteConn] = {}  # other servers' sockets at them
        self.relays: dict[str, Relay] = {}            # this server's sockets elsewhere
        self.calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._out: list[tuple[str, str, dict[str, Any]]] = []
        self._out_wake = asyncio.Event()
        self._draining: set[str] = set()
        self._again: set[str] = set()
        self._outbox_busy = False
        self._outbox_again = False
        self._tasks: list[asyncio.Task[None]] = []
        self._ticks = 0
        # the beat's own thread: queued behind a burst of relayed messages in the shared
        # pool, a renewal could come too late and the server's tables would be taken
        self._beat_pool = ThreadPoolExecutor(1, thread_name_prefix="sgmahjong-beat")
        self._io_pool = ThreadPoolExecutor(8, thread_name_prefix="sgmahjong-relay")

    async def io(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a relaying database call in the relays' threads (the AI has the default
        pool): the loop serves the other sockets meanwhile."""
        return await asyncio.get_running_loop().run_in_executor(self._io_pool, fn, *args)

    async def _beat(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._beat_pool, fn, *args)

    # ------------------------------------------------------------ life

    async def open(self) -> None:
        self.leases.renew(self.peer)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._ticker(), name="peers-tick"),
                       loop.create_task(self._flusher(), name="peers-flush")]
        if self.leases.engine.dialect.name == "postgresql":
            self._tasks.append(loop.create_task(self._listener(), name="peers-listen"))
        log.info("server %s joined", self.peer)

    async def resume_all(self) -> int:
        return await self._claim_orphans()

    async def close(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        self._tasks = []
        await super().close()
        with contextlib.suppress(Exception):
            self._flush_now()
        with contextlib.suppress(Exception):
            self.leases.leave(self.peer)      # the others take the tables at once
        self._beat_pool.shutdown(wait=False)
        self._io_pool.shutdown(wait=False)

    # ------------------------------------------------------------ tables

    async def create(self, opts: TableOptions,
                     client: str = "local") -> tuple[TableRuntime, str]:
        rt, token = await super().create(opts, client)
        epoch = self.leases.claim(rt.id, self.peer)
        if epoch is None:         # cannot happen: nobody knew the table yet
            self.tables.pop(rt.id, None)
            raise TableError("busy", "the new table could not be set up: try again")
        self.epochs[rt.id] = epoch
        rt.next_rid = self._rid_base(epoch)
        rt.on_lost = self._lost_by(rt.id)
        return rt, token

    def _load(self, row: StoredTable) -> TableRuntime:
        # a finished table is read here; a live one is played here when nobody alive holds
        # its lease, else relayed to its owner
        if row.status == "finished":
            rt = TableRuntime(self.store, self.config, row, self.store.load_events(row.id))
            self.tables[row.id] = rt
            return rt
        lease = self.leases.owner(row.id)
        if lease is None or not lease[2]:
            epoch = self.leases.claim(row.id, self.peer)
            if epoch is not None:
                return self._own(row, epoch)
        return RemoteTable(self, row)  # type: ignore[return-value]

    def _drop(self, table_id: str) -> None:
        # a table let go (finished and idle, or expired) is no longer played here: its
        # lease is not renewed and its inbox not read
        super()._drop(table_id)
        self.epochs.pop(table_id, None)

    @staticmethod
    def _rid_base(epoch: int) -> int:
        """Request ids of a new owner start far from its predecessor's, so an answer to an
        old request is never taken for one to a new request."""
        return (epoch % 20000) * 100_000

    def _own(self, row: StoredTable, epoch: int) -> TableRuntime:
        rt = TableRuntime(self.store, self.config, row, self.store.load_events(row.id))
        rt.next_rid = self._rid_base(epoch)
        rt.on_lost = self._lost_by(row.id)
        self.tables[row.id] = rt
        self.epochs[row.id] = epoch
        rt.ensure_running()
        with contextlib.suppress(Exception):
            self.leases.signal(f"l:{row.id}")
        self._schedule_inbox(row.id)
        log.info("server %s plays table %s (lease %d)", self.peer, row.id, epoch)
        return rt

    async def _claim_orphans(self) -> int:
        got = 0
        for tid in await self._beat(self.leases.orphans):
            if tid in self.epochs:
                continue
            epoch = await self._beat(self.leases.claim, tid, self.peer)
            if epoch is None:
                continue
            row = self.store.load_table(tid)
            if row is None:
                continue
            async with self._loading:
                if tid in self.epochs:      # a socket's arrival took it meanwhile
                    continue
                old = self.tables.pop(tid, None)
                if old is not None:
                    await old.close()
                self._own(row, epoch)
            got += 1
        return got

    def _lost_by(self, tid: str) -> Callable[[], None]:
        """What a table calls when a write finds its lease gone: stop serving it at once,
        not at the next beat (its players go to the new owner)."""
        def lost() -> None:
            if tid in self.epochs:
                asyncio.get_running_loop().create_task(self._lose(tid))
        return lost

    async def _lose(self, tid: str) -> None:
        """Another server plays the table now: stop, and send this server's sockets at it
        away to come back (to whichever server, which relays them)."""
        log.warning("server %s lost table %s", self.peer, tid)
        self.epochs.pop(tid, None)
        rt = self.tables.pop(tid, None)
        for key, rc in list(self.remote_conns.items()):
            if rc.table_id == tid:
                del self.remote_conns[key]
        if rt is None:
            return
        conns = rt.sockets()
        await rt.close()
        for c in conns:
            if not isinstance(c, RemoteConn) and hasattr(c, "close"):
                asyncio.get_running_loop().create_task(c.close(1012))

    # ------------------------------------------------------------ the owner's side

    def send_to(self, peer: str, key: str, message: dict[str, Any]) -> None:
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
                self.send_to(row.peer, row.conn, error("stale", STALE))
                return
            try:
                msg = parse_client(json.dumps(p))
            except ProtocolError as exc:
                rc.send(error(exc.code, str(exc)))
                return
            await rt.handle(rc, msg, inbox=(rt.id, row.seq))
        elif row.kind == "call":
            self.send_to(row.peer, row.conn, {"type": "reply", **await self._answer(rt, p)})

    @staticmethod
    async def _answer(rt: TableRuntime, p: dict[str, Any]) -> dict[str, Any]:
        try:
            if p.get("op") == "join":
                return {"player": await rt.join(str(p["name"]), str(p["token_hash"]),
                                                p.get("player"))}
            if p.get("op") == "start":
                await rt.start(int(p["player"]))
                return {}
            if p.get("op") == "info":
                return {"table": rt.info()}
        except TableError as exc:
            return {"error": exc.code, "message": str(exc)}
        return {"error": "bad-call", "message": f"unknown call {p.get('op')!r}"}

    # ------------------------------------------------------------ the relaying side

    def _deliver(self, key: str, message: dict[str, Any]) -> None:
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

    async def call(self, tid: str, op: str, args: dict[str, Any], *,
                   timeout: float = CALL_TIMEOUT) -> dict[str, Any]:
        """Ask the table's owner to do ``op``; its answer, or the :class:`TableError` it
        gave."""
        key = f"call:{secrets.token_hex(12)}"
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
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

    def _check_relays(self) -> None:
        """Attach again, from the last event each has, the sockets whose table changed
        hands."""
        if not self.relays:
            return
        epochs = self.leases.epochs({r.table_id for r in self.relays.values()})
        for relay in list(self.relays.values()):
            now = epochs.get(relay.table_id)
            if now is None or now == relay.epoch:
                continue
            relay.epoch = now
            self.leases.put_inbox(relay.table_id, self.peer, relay.key, "attach",
                                  {"player": relay.conn.player,
                                   "last_seen": relay.delivered})

    # ------------------------------------------------------------ signals and the beat

    def _on_signal(self, payload: str) -> None:
        kind, _, rest = payload.partition(":")
        if kind == "i":
            self._schedule_inbox(rest)
        elif kind == "o" and rest == self.peer:
            self._schedule_outbox()
        elif kind == "l" and any(r.table_id == rest for r in self.relays.values()):
            try:
                self._check_relays()
            except Exception:
                log.exception("the relayed sockets could not be attached again")

    async def _listener(self) -> None:
        import psycopg

        from ..store.leases import CHANNEL

        dsn = postgres_dsn(self.base_store.url)
        while True:
            try:
                aconn = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
                async with aconn:
                    await aconn.execute(f"LISTEN {CHANNEL}")
                    self._catch_up()       # what was signalled while nobody listened
                    async for note in aconn.notifies():
                        self._on_signal(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("listening for other servers failed (%s); again in 1 s", exc)
                await asyncio.sleep(1.0)

    def _catch_up(self) -> None:
        self._schedule_outbox()
        for row in self.leases.take_inbox(list(self.epochs)):
            self._schedule_inbox(row.table_id)

    async def _ticker(self) -> None:
        while True:
            await self.config.clock.sleep(self.renew_every)
            try:
                await self._tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the servers' beat failed")

    async def _tick(self) -> None:
        # the database calls in a thread: a slow answer must not hold up the tables
        await self._beat(self.leases.renew, self.peer)
        held = await self._beat(self.leases.held, self.peer)
        for tid, epoch in list(self.epochs.items()):
            if held.get(tid) != epoch:
                await self._lose(tid)
        await self._claim_orphans()
        live = await self._beat(self.leases.live_peers)
        for key, rc in list(self.remote_conns.items()):
            if rc.peer not in live:        # that server died: its sockets are gone
                del self.remote_conns[key]
                rt = self.tables.get(rc.table_id)
                if rt is not None:
                    await rt.detach(rc)
        self._check_relays()
        self._catch_up()                   # a lost signal costs a second, not a table
        self._ticks += 1
        if self._ticks % 60 == 0:
            self.leases.forget_dead()


__all__ = ["PeerLobby", "Relay", "RemoteConn", "RemoteTable", "client_json"]
