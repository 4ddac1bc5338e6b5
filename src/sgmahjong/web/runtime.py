"""One live table's shell: a mailbox feeding its :class:`~.core.TableCore` one command at
a time, and the hands that carry out what the core says.

The core decides everything (see :mod:`sgmahjong.web.core`); this shell only does the
waiting: it writes events in a database thread before any socket hears of them, puts
messages on sockets, asks the AI pool, and sends the core a tick when a timer it asked for
is due. The loop is never held by a database call or an AI's thought.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine, Sequence

from ..game.codec import JSON
from ..record import Record
from ..rules.model import Ruleset
from ..store.db import StoredSeat, StoredTable, TableStore
from ..store.leases import LostLease
from ..tiles import Seat
from .config import WebConfig
from .core import (
    Attach,
    Command,
    Decided,
    Detach,
    Effect,
    Expire,
    Hints,
    Join,
    NeedReload,
    Received,
    Reload,
    Reviewed,
    ReviewHand,
    SaveSeat,
    Send,
    SetStatus,
    Slot,
    Start,
    Store,
    TableCore,
    TableError,
    Think,
    Tick,
    WakeAt,
    ai_names,
    check_name,
    default_standin,
    level_names,
    make_ai,
    same_name,
)
from .core.client import ClientMessage
from .core.server import HintsReply
from .protocol import early_answer, error
from .tables import Conn
from .workers import Workers, hints, review, think

log = logging.getLogger("sgmahjong.web")


Pending = tuple["Command | None", "asyncio.Future[int | None] | None"]


class TableRuntime:
    """One table in memory, rebuilt from the store by replaying its events."""

    def __init__(self, store: TableStore, config: WebConfig, row: StoredTable,
                 events: Sequence[JSON] = (), *,
                 workers: Workers | None = None) -> None:
        self.store = store
        self.config = config
        self.clock = config.clock
        self.id = row.id
        self.core = TableCore(row, events, timing=config.timing(), now=self.clock.now())
        self.workers = workers or Workers(config.ai_processes, config.limits)
        self.conns: dict[int, Conn] = {}
        self._ids: dict[int, int] = {}          # id(conn) -> the core's number for it
        # the last event number handed to each socket (by the core's number): a pong
        # carries it, so a page whose last event is older knows it missed one
        self._handed: dict[int, int] = {}
        self._next_conn = 0
        self._mail: asyncio.Queue[Pending] | None = None
        self._task: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._wake_at: float | None = None
        self._rewake: asyncio.Event | None = None
        self._helpers: set[asyncio.Task[None]] = set()
        self.closed = False
        # called when a write finds that another server holds the table's lease
        self.on_lost: Callable[[], None] | None = None

    # ------------------------------------------------------------ what the app reads

    @property
    def status(self) -> str:
        return self.core.status

    @property
    def rules(self) -> Ruleset:
        return self.core.rules

    @property
    def names(self) -> list[str]:
        return self.core.names

    @property
    def slots(self) -> list[Slot]:
        return self.core.slots

    # what tests and benchmarks read of the match: the core's own
    game = property(lambda self: self.core.game)
    match = property(lambda self: self.core.match)
    n = property(lambda self: self.core.n)
    events = property(lambda self: self.core.events)
    bankers = property(lambda self: self.core.bankers)
    seed = property(lambda self: self.core.seed)
    stale = property(lambda self: self.core.stale)

    def seat_of(self, player: int, hand: int | None = None) -> Seat:
        return self.core.seat_of(player, hand)

    @property
    def next_rid(self) -> int:
        return self.core.next_rid

    @next_rid.setter
    def next_rid(self, value: int) -> None:
        self.core.next_rid = value

    def info(self) -> JSON:
        """The table as the lobby shows it (public)."""
        self.core.now = self.clock.now()
        return self.core.info()

    async def live_info(self) -> JSON:
        """:meth:`info` where the table is played (another server's table asks its owner)."""
        return self.info()

    def record(self) -> Record:
        return self.core.record()

    def player_for(self, token: str | None) -> int | None:
        return self.core.player_for(token)

    def watched(self) -> bool:
        """Whether any socket (player or spectator) is open on the table."""
        return bool(self.conns)

    def sockets(self) -> list[Conn]:
        return list(self.conns.values())

    # ------------------------------------------------------------ what the app asks

    async def attach(self, conn: Conn, last_seen: int | None) -> None:
        """A socket said hello: the table, what it missed, the view or its request."""
        self._next_conn += 1
        cid = self._next_conn
        self.conns[cid] = conn
        self._ids[id(conn)] = cid
        self._handed[cid] = last_seen or 0
        await self._ask(Attach(cid, conn.player, last_seen))

    async def detach(self, conn: Conn) -> None:
        cid = self._ids.pop(id(conn), None)
        if cid is None:
            return
        self.conns.pop(cid, None)
        self._handed.pop(cid, None)
        if not self.closed:
            with contextlib.suppress(TableError):     # closed meanwhile: nothing to tell
                await self._ask(Detach(cid))

    async def handle(self, conn: Conn, msg: ClientMessage, *,
                     inbox: tuple[str, int] | None = None) -> None:
        """A message from a socket after its hello (``inbox``: the relayed row it came in)."""
        cid = self._ids.get(id(conn))
        handed = 0 if cid is None else self._handed.get(cid, 0)
        reply = early_answer(msg, conn.player, handed)
        if reply is not None:
            conn.send(reply)
            return
        if cid is not None:
            await self._ask(Received(cid, msg, inbox))

    async def join(self, name: str, token_hash: str, player: int | None = None) -> int:
        """Seat a newcomer (see :class:`.core.Join`); returns the match player."""
        got = await self._ask(Join(name, token_hash, player))
        assert got is not None
        return got

    async def start(self, player: int) -> None:
        await self._ask(Start(player))

    def expire(self) -> None:
        """The lobby closed the table (never started): its sockets hear so. The lobby
        then lets the table go (:meth:`retire`), which stops it."""
        self._post(Expire())

    def retire(self) -> asyncio.Task[None] | None:
        """Stop once what is posted has been carried out (the lobby let the table go).
        Returns the task that stops then (None: the table was not running), which holds
        the table only until it has stopped."""
        if self._mail is not None and not self.closed:
            self._mail.put_nowait((None, None))
            if self._task is not None and not self._task.done():
                return self._task
        return None

    def ensure_running(self) -> None:
        """Start the mailbox (the table plays on by itself from here)."""
        if self._task is None or self._task.done():
            loop = asyncio.get_running_loop()
            self._mail = self._mail or asyncio.Queue()
            self._rewake = self._rewake or asyncio.Event()
            self._task = loop.create_task(self._run(), name=f"table-{self.id}")
            self._timer = loop.create_task(self._time(), name=f"table-{self.id}-timer")
            self._post(Tick())

    async def close(self) -> None:
        self.closed = True
        me = asyncio.current_task()
        tasks = [t for t in (self._task, self._timer, *self._helpers)
                 if t is not None and t is not me]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        # nobody will carry out what is still posted: its askers must not wait for ever
        while self._mail is not None and not self._mail.empty():
            _command, fut = self._mail.get_nowait()
            if fut is not None and not fut.done():
                fut.set_exception(TableError("closed", "this table is no longer played "
                                                       "here: reconnect"))

    # ------------------------------------------------------------ the mailbox

    def _post(self, command: Command) -> None:
        if self.closed:
            return
        self.ensure_running()
        assert self._mail is not None
        self._mail.put_nowait((command, None))

    async def _ask(self, command: Command) -> int | None:
        """Post ``command`` and wait until its effects are carried out; its result."""
        if self.closed:
            raise TableError("closed", "this table is no longer played here: reconnect")
        self.ensure_running()
        assert self._mail is not None
        fut: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._mail.put_nowait((command, fut))
        return await fut

    async def _run(self) -> None:
        assert self._mail is not None
        while True:
            command, fut = await self._mail.get()
            if command is None:
                await self.close()
                return
            try:
                out = self.core.handle(command, self.clock.now())
                await self._carry_out(out.effects)
            except TableError as exc:
                if fut is not None and not fut.done():
                    fut.set_exception(exc)
                continue
            except asyncio.CancelledError:
                if fut is not None and not fut.done():
                    fut.cancel()
                raise
            except Exception as exc:
                log.exception("table %s: %s failed", self.id, type(command).__name__)
                if fut is not None and not fut.done():
                    fut.set_exception(exc)
                continue
            if fut is not None and not fut.done():
                fut.set_result(out.result)

    async def _carry_out(self, effects: Sequence[Effect]) -> None:
        for effect in effects:
            match effect:
                case Store():
                    if not await self._store(effect):
                        return      # what follows told of events that were not stored
                case Send():
                    message = effect.message
                    n = message.get("n") if message.get("type") == "event" else None
                    for cid in effect.conns:
                        conn = self.conns.get(cid)
                        if conn is not None:
                            conn.send(message)
                            if n is not None:
                                self._handed[cid] = n
                case SaveSeat():
                    await self.workers.io(self.store.save_seat, self.id, StoredSeat(
                        effect.player, effect.name, effect.kind, effect.level,
                        effect.token_hash))
                case SetStatus():
                    await self.workers.io(self.store.set_status, self.id, effect.status)
                case Think():
                    self._spawn(self._think(effect))
                case ReviewHand():
                    self._spawn(self._review(effect))
                case Hints():
                    self._spawn(self._hints(effect))
                case NeedReload():
                    self._spawn(self._reload(effect.actor))
                case WakeAt():
                    self._wake_at = effect.at
                    if self._rewake is not None:
                        self._rewake.set()

    async def _store(self, effect: Store) -> bool:
        try:
            await self.workers.io(self.store.append_events, self.id, effect.first,
                                  effect.payloads, effect.inbox)
            return True
        except LostLease:
            log.warning("table %s: events %d+ refused: another server plays it now",
                        self.id, effect.first)
            self.core.failed_write(effect.actor)
            if self.on_lost is not None:
                self.on_lost()
            return False
        except Exception as exc:
            # The core has moved on in memory; the stored log is the truth, so go back to
            # it rather than play on with a state nobody could resume.
            log.warning("table %s: events %d+ could not be stored (%s)", self.id,
                        effect.first, exc)
            self.core.failed_write(effect.actor)
            await self._reload(effect.actor)
            return False

    async def _reload(self, actor: int | None) -> None:
        try:
            payloads: list[JSON] | None = await self.workers.io(
                self.store.load_events, self.id)
        except Exception as exc:
            log.warning("table %s: the log could not be read back (%s)", self.id, exc)
            payloads = None
        out = self.core.handle(Reload(payloads, actor), self.clock.now())
        await self._carry_out(out.effects)

    def _spawn(self, coro: Coroutine[object, object, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._helpers.add(task)
        task.add_done_callback(self._helpers.discard)

    async def _think(self, job: Think) -> None:
        try:
            action, agent, failure = await self.workers.cpu(think, job.agent, job.view,
                                                            job.legal)
        except Exception as exc:   # the pool itself failed: the core plays safe
            log.exception("table %s: the AI (%s) failed", self.id, job.level)
            action, agent, failure = None, None, f"{type(exc).__name__}: {exc}"
        if failure is not None and agent is not None:
            log.warning("table %s: the AI (%s) failed: %s", self.id, job.level, failure)
        self._post(Decided(job.job, action, agent, failure))

    async def _review(self, job: ReviewHand) -> None:
        try:
            r = await self.workers.cpu(review, job)
        except Exception:
            log.exception("table %s: the review of player %d failed", self.id, job.player)
            r = None
        self._post(Reviewed(job.hand, job.player, r))

    async def _hints(self, job: Hints) -> None:
        try:
            data = await self.workers.cpu(hints, job.view, job.legal, job.history)
        except Exception:
            log.exception("table %s: hints failed", self.id)
            data = None
        conn = self.conns.get(job.conn)
        if conn is None:
            return
        if data is None:
            conn.send(error("no-hints", "this server has no hints module"))
        else:
            conn.send(HintsReply(job.n, data))

    async def _time(self) -> None:
        """Send the core a tick when the time it asked for comes."""
        assert self._rewake is not None
        while not self.closed:      # (closed: stop even if a cancel went astray)
            self._rewake.clear()
            at = self._wake_at
            if at is not None and self.clock.now() >= at:
                self._wake_at = None
                self._post(Tick())
                await asyncio.sleep(0)
                continue
            await self.clock.wait(self._rewake, at)


__all__ = ["Conn", "Slot", "TableError", "TableRuntime", "ai_names", "check_name",
           "default_standin", "level_names", "make_ai", "same_name"]
