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
import logging
import random
import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar, TypeVarTuple

from ..game.codec import JSON
from ..store.db import StoredTable, TableStore
from ..store.leases import (
    LEASE_TTL,
    RENEW_EVERY,
    FencedStore,
    LeaseStore,
    postgres_dsn,
)
from .config import WebConfig
from .lobby import Lobby, TableOptions
from .peer_mail import PeerMail
from .relay import Relay, RemoteConn, RemoteTable
from .runtime import TableError, TableRuntime
from .tables import Table

log = logging.getLogger("sgmahjong.web.peers")
T = TypeVar("T")
Ts = TypeVarTuple("Ts")

class PeerLobby(PeerMail, Lobby):
    """The lobby of one of several servers sharing a PostgreSQL database."""

    def __init__(self, store: TableStore, config: WebConfig, *, ttl: float = LEASE_TTL,
                 renew_every: float = RENEW_EVERY) -> None:
        self.peer = secrets.token_hex(8)
        super().__init__(FencedStore(store, self.peer), config)
        self.base_store = store
        self.leases = LeaseStore(store.engine, ttl=ttl)
        self.renew_every = renew_every
        self.epochs: dict[str, int] = {}              # the tables this server plays
        self.remote_conns: dict[str, RemoteConn] = {}  # other servers' sockets at them
        self.relays: dict[str, Relay] = {}            # this server's sockets elsewhere
        self.calls: dict[str, asyncio.Future[JSON]] = {}
        self._out: list[tuple[str, str, JSON]] = []
        self._out_wake = asyncio.Event()
        self._draining: set[str] = set()
        self._again: set[str] = set()
        self._outbox_busy = False
        self._outbox_again = False
        self._tasks: list[asyncio.Task[None]] = []
        self._ticks = 0
        self._renew_failed = False
        # no table is taken before this (clock) time: after the database was away every
        # lease lapsed by its clock, though their servers live (they renew within a TTL)
        self._quiet_until = 0.0
        # the beat's own thread: queued behind a burst of relayed messages in the shared
        # pool, a renewal could come too late and the server's tables would be taken
        self._beat_pool = ThreadPoolExecutor(1, thread_name_prefix="sgmahjong-beat")
        self._io_pool = ThreadPoolExecutor(8, thread_name_prefix="sgmahjong-relay")

    async def io(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        """Run a relaying database call in the relays' threads (the AI has the default
        pool): the loop serves the other sockets meanwhile."""
        return await asyncio.get_running_loop().run_in_executor(self._io_pool, fn, *args)

    async def _beat(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
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
        epoch = await self.io(self.leases.claim, rt.id, self.peer)
        if epoch is None:         # cannot happen: nobody knew the table yet
            self.tables.pop(rt.id, None)
            raise TableError("busy", "the new table could not be set up: try again")
        self.epochs[rt.id] = epoch
        rt.next_rid = self._rid_base(epoch)
        rt.on_lost = self._lost_by(rt.id)
        return rt, token

    async def _load(self, row: StoredTable) -> Table:
        # a finished table is read here; a live one is played here when nobody alive holds
        # its lease, else relayed to its owner
        if row.status == "finished":
            events = await self.io(self.store.load_events, row.id)
            rt = TableRuntime(self.store, self.config, row, events, workers=self.workers)
            self.tables[row.id] = rt
            return rt
        lease = await self.io(self.leases.owner, row.id)
        if lease is None or not lease[2]:
            epoch = await self.io(self.leases.claim, row.id, self.peer)
            if epoch is not None:
                return self._own(row, epoch, await self.io(self.store.load_events, row.id))
        return RemoteTable(self, row)

    def _drop(self, table_id: str) -> None:
        # a table let go (finished and idle, or expired) is no longer played here: its
        # lease is not renewed and its inbox not read
        self.epochs.pop(table_id, None)
        super()._drop(table_id)

    @staticmethod
    def _rid_base(epoch: int) -> int:
        """Request ids of a new owner start far from its predecessor's, so an answer to an
        old request is never taken for one to a new request."""
        return (epoch % 20000) * 100_000

    def _own(self, row: StoredTable, epoch: int, events: Sequence[JSON]) -> TableRuntime:
        rt = TableRuntime(self.store, self.config, row, events, workers=self.workers)
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
        """Take tables nobody alive plays: a share of them per beat (spread over the live
        servers, in random order), so one server does not take every table at once."""
        got = 0
        orphans = await self._beat(self.leases.orphans)
        if not orphans:
            return 0
        live = max(1, len(await self._beat(self.leases.live_peers)))
        random.shuffle(orphans)
        for tid in orphans[:max(1, -(-len(orphans) // live))]:
            if tid in self.epochs:
                continue
            epoch = await self._beat(self.leases.claim, tid, self.peer)
            if epoch is None:
                continue
            row = await self.io(self.store.load_table, tid)
            if row is None:
                continue
            events = await self.io(self.store.load_events, tid)
            async with self._loading:
                if tid in self.epochs:      # a socket's arrival took it meanwhile
                    continue
                old = self.tables.pop(tid, None)
                if old is not None:
                    await old.close()
                self._own(row, epoch, events)
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

    def _check_relays(self) -> None:
        """Attach again, from the last event each has, the sockets whose table changed
        hands or whose owner may have dropped them."""
        if not self.relays:
            return
        epochs = self.leases.epochs({r.table_id for r in self.relays.values()})
        for relay in list(self.relays.values()):
            now = epochs.get(relay.table_id)
            if now is None or (now == relay.epoch and not relay.lost):
                continue
            relay.epoch = now
            self.leases.put_inbox(relay.table_id, self.peer, relay.key, "attach",
                                  {"player": relay.conn.player,
                                   "last_seen": relay.delivered})
            relay.lost = False

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
                    await self._catch_up()   # what was signalled while nobody listened
                    async for note in aconn.notifies():
                        self._on_signal(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("listening for other servers failed (%s); again in 1 s", exc)
                await asyncio.sleep(1.0)

    async def _catch_up(self) -> None:
        self._schedule_outbox()
        # in a relay thread: read on the loop, this query held every table up once a beat
        for row in await self.io(self.leases.take_inbox, list(self.epochs)):
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
        try:
            alive = await self._beat(self.leases.renew, self.peer)
        except Exception:
            self._renew_failed = True
            raise
        if self._renew_failed or not alive:
            # The database was away, or this server stalled past its lease: the others'
            # leases may have lapsed only by the database's clock, so take no table until
            # they have had a lease's time to renew; and the owners of the tables this
            # server relays may have dropped its sockets, so attach them all again.
            log.warning("server %s: %s; taking no table for %.1f s", self.peer,
                        "the database was away" if self._renew_failed else
                        "this server was taken for dead", self.leases.ttl)
            self._quiet_until = self.config.clock.now() + self.leases.ttl
            self._renew_failed = False
            for relay in self.relays.values():
                relay.lost = True
        # only the tables held before the question: one claimed while it was asked is
        # not in its answer, and was once taken for lost (a new table's start got 503)
        before = dict(self.epochs)
        held = await self._beat(self.leases.held, self.peer)
        for tid, epoch in before.items():
            if self.epochs.get(tid) == epoch and held.get(tid) != epoch:
                await self._lose(tid)
        if self.config.clock.now() >= self._quiet_until:
            await self._claim_orphans()
        live = await self._beat(self.leases.live_peers)
        for key, rc in list(self.remote_conns.items()):
            if rc.peer not in live:        # that server died: its sockets are gone
                del self.remote_conns[key]
                rt = self.tables.get(rc.table_id)
                if rt is not None:
                    await rt.detach(rc)
        self._check_relays()
        await self._catch_up()             # a lost signal costs a second, not a table
        self._ticks += 1
        if self._ticks % 60 == 0:
            await self._beat(self.leases.forget_dead)


__all__ = ["PeerLobby"]
