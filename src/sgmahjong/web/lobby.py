"""The lobby: creates tables, seats newcomers, and keeps the live tables (loaded on demand)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar, TypeVarTuple

from ..rules.loading import PRESETS
from ..session.match import table_rules
from ..session.players import default_opponents
from ..store.db import StoredSeat, StoredTable, TableStore
from ..store.ladder import TABLES
from .clock import until_done
from .config import WebConfig
from .ladder import bad_rung, find_rung
from .limits import CreateWindow
from .memory import bound_ai_caches, release_memory
from .runtime import (
    TableError,
    TableRuntime,
    ai_names,
    check_name,
    default_standin,
    make_ai,
)
from .security import clean_name, hash_token, new_table_id, new_token
from .tables import Table
from .workers import Workers

log = logging.getLogger("sgmahjong.web")
# How long a sweep waits for the tables it let go to stop before it collects and trims
# memory anyway (a table stops once what was posted to it is carried out: moments).
LET_GO_SECONDS = 10.0

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


@dataclass
class TableOptions:
    """What the creator picks: rules preset, quick game or full match, AI levels, hints."""

    name: str = "Host"
    rules: str = "casual"
    quick: bool = True
    ai: list[str] | None = None      # None: the rules' default (:func:`default_ai`)
    hints: bool = True
    seed: int | None = None
    ladder: str | None = None   # a practice-ladder rung id: fixes opponents and quick game


def default_ai(rules: str | None = None) -> tuple[str, str, str]:
    """The AI players a table of ``rules`` gets unless its creator picks others: for
    casual scoring, meant for newcomers, the practice ladder's gentlest rung; else the
    terminal game's default mix (:func:`sgmahjong.session.players.default_opponents`)."""
    return default_opponents(rules, newcomers=TABLES[0].opponents)


class Lobby:
    """The live tables of one server, backed by a :class:`TableStore`."""

    def __init__(self, store: TableStore, config: WebConfig) -> None:
        self.store = store
        self.config = config
        self.limits = config.limits
        self.clock = config.clock
        self.tables: dict[str, TableRuntime] = {}
        self._loading = asyncio.Lock()
        self.creates = CreateWindow(self.limits)
        self.since: dict[str, float] = {}    # clock time each table was created or loaded
        self.idle: dict[str, float] = {}     # clock time a finished table was first unwatched
        self._sweeper: asyncio.Task[None] | None = None
        # the tasks stopping tables let go, until they have: a sweep that finds another
        # sweep letting a table go waits for it too, so "swept" means "out of memory"
        self._stopping: set[asyncio.Task[None]] = set()
        # one set of pools for every table here: a pool of its own for each table held
        # kept a thread or two per table alive (over a hundred threads in a soak, a
        # thousand at max_tables), and its memory with them
        self.workers = Workers(config.ai_processes, config.limits)

    async def io(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        """Run a database call (or other blocking work) in a thread: a table created or
        loaded must not hold every other table up while the database answers."""
        return await asyncio.to_thread(fn, *args)

    async def create(self, opts: TableOptions,
                     client: str = "local") -> tuple[TableRuntime, str]:
        """A new table with the creator in seat 0; returns it and the creator's token.
        ``client`` (the creator's address) is held to ``limits.creates_per_client``."""
        if opts.ladder is not None:
            rung = find_rung(opts.ladder)
            if rung is None:
                raise TableError("bad-ladder", bad_rung(opts.ladder))
            opts = dataclasses.replace(opts, ai=list(rung.opponents), quick=True)
        if opts.rules not in PRESETS:
            raise TableError("bad-rules", f"unknown rules {opts.rules!r}; choose from "
                                          f"{', '.join(PRESETS)}")
        if opts.ai is None:
            opts = dataclasses.replace(opts, ai=list(default_ai(opts.rules)))
        assert opts.ai is not None
        if len(opts.ai) != 3:
            raise TableError("bad-level", "pick three AI levels (for seats 2-4)")
        for name in opts.ai:
            make_ai(name, 0)   # refuses an unknown level
        check_name(clean_name(opts.name, "Host"), (), ai_names(opts.ai))
        if opts.seed is not None and not self.config.allow_seed:
            raise TableError("no-seed", "this server does not let tables choose their deal")
        if opts.seed is not None and not 0 <= opts.seed < 2**64:
            raise TableError("bad-seed", "a seed is an integer 0 to 2^64-1")
        await self._make_room()
        wait = self.creates.wait(client, self.clock.now())
        if wait > 0:
            exc = TableError("too-many-tables", f"you have created "
                             f"{self.limits.creates_per_client} tables in the last "
                             f"{_span(self.limits.create_window)}: try again in "
                             f"{_span(wait)}")
            exc.retry_after = math.ceil(wait)   # type: ignore[attr-defined]
            raise exc
        rules = table_rules(opts.rules, opts.quick)
        seed = opts.seed if opts.seed is not None else secrets.randbits(63)
        token = new_token()
        row = StoredTable(new_table_id(), "waiting", rules.to_dict(), opts.rules, opts.quick,
                          seed, opts.hints, {"ai": list(opts.ai), "standin": default_standin()})
        if opts.ladder is not None:
            row.options["ladder"] = opts.ladder
        seats = [StoredSeat(0, clean_name(opts.name, "Host"), "human", default_standin(),
                            hash_token(token))]
        await self.io(self.store.create_table, row, seats)
        row.seats = seats
        rt = TableRuntime(self.store, self.config, row, workers=self.workers)
        self._hold(rt)
        return rt, token

    def _hold(self, rt: TableRuntime) -> None:
        self.tables[rt.id] = rt
        self.since[rt.id] = self.clock.now()

    def _drop(self, table_id: str) -> None:
        """Let the table go; it stops once it has carried out what was posted to it (the
        task that stops it is held in ``_stopping`` until then)."""
        rt = self.tables.pop(table_id, None)
        self.since.pop(table_id, None)
        self.idle.pop(table_id, None)
        task = rt.retire() if rt is not None else None
        if task is not None:
            self._stopping.add(task)
            task.add_done_callback(self._stopping.discard)

    async def _until_stopped(self) -> None:
        """Until the tables let go, here or by a sweep still running, have carried out what
        was posted to them and stopped (at most ``LET_GO_SECONDS`` on the clock): only
        then is their memory free to collect and trim."""
        await until_done(self.clock, list(self._stopping), LET_GO_SECONDS)

    async def _make_room(self) -> None:
        await self.sweep()
        waiting = sum(1 for rt in self.tables.values() if rt.status == "waiting")
        if waiting >= self.limits.max_waiting:
            raise TableError("busy", "too many tables are waiting for players to start; "
                                     "try again in a few minutes")
        if len(self.tables) < self.limits.max_tables:
            return
        dropped = [tid for tid, rt in self.tables.items()
                   if rt.status == "finished" and not _watched(rt)]
        for tid in dropped:
            self._drop(tid)
        await self._until_stopped()
        if dropped:
            await self.io(release_memory)
        if len(self.tables) >= self.limits.max_tables:
            raise TableError("busy", "the server has too many tables open; try later")

    async def sweep(self) -> int:
        """Close the tables never started within ``limits.waiting_expiry`` (stored as
        ``expired``: their link then finds no table) and let go of finished tables nobody
        has watched for ``limits.finished_idle`` (they stay stored and load again when
        opened). Returns how many tables left memory."""
        # (no table is held in this frame across an await: a table let go must be free
        # to leave memory while the database or the trim below is waited on)
        now = self.clock.now()
        gone = [tid for tid in self._waited_too_long(now) if await self._expire(tid)]
        gone += self._finished_idle(now)
        for tid in gone:
            self._drop(tid)
        await self._until_stopped()
        if bound_ai_caches(self.limits.memo_bounds()) or gone:
            # in a thread: the C library's trim lets the loop go on (the collection before
            # it does not, but finds little beyond the tables just let go)
            await self.io(release_memory)
        return len(gone)

    def _waited_too_long(self, now: float) -> list[str]:
        return [tid for tid, rt in self.tables.items() if rt.status == "waiting"
                and now - self.since.setdefault(tid, now) >= self.limits.waiting_expiry]

    def _finished_idle(self, now: float) -> list[str]:
        idle = []
        for tid, rt in self.tables.items():
            if rt.status != "finished":
                continue
            if _watched(rt):
                self.idle.pop(tid, None)
            elif now - self.idle.setdefault(tid, now) >= self.limits.finished_idle:
                idle.append(tid)
        return idle

    def _expire_stored(self, table_id: str) -> bool:
        return self.store.set_status(table_id, "expired", was="waiting")

    async def _expire(self, table_id: str) -> bool:
        """Mark a waiting table expired, in the database (in a thread, and only if nobody
        started it meanwhile) and then here; whether it was."""
        try:
            expired = await self.io(self._expire_stored, table_id)
        except Exception:   # the database is away: try at the next sweep
            log.exception("table %s: could not be marked expired", table_id)
            return False
        rt = self.tables.get(table_id)
        if not expired or rt is None or rt.status != "waiting":
            return False       # started, or swept by another sweep, meanwhile
        rt.expire()
        return True

    def start_sweeping(self) -> None:
        """Sweep every ``limits.sweep_every`` seconds of the table clock."""
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever(),
                                                                   name="lobby-sweeper")

    async def _sweep_forever(self) -> None:
        while True:
            await self.clock.sleep(self.limits.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("the lobby sweep failed")

    async def join(self, rt: Table, name: str,
                   player: int | None = None) -> tuple[int, str]:
        """Seat a newcomer (see :meth:`TableRuntime.join`); returns the seat and its token."""
        token = new_token()
        seat = await rt.join(clean_name(name), hash_token(token), player)
        return seat, token

    async def get(self, table_id: str) -> Table | None:
        """The live table, loaded from the store (and resumed) if needed."""
        rt = self.tables.get(table_id)
        if rt is not None:
            return rt
        if len(table_id) > 40:
            return None
        async with self._loading:
            rt = self.tables.get(table_id)
            if rt is not None:
                return rt
            row = await self.io(self.store.load_table, table_id)
            if row is None or row.status not in ("waiting", "playing", "finished"):
                return None
            return await self._load(row)

    async def _load(self, row: StoredTable) -> Table:
        """A stored table (not expired) made live here: resumed from its event log."""
        events = await self.io(self.store.load_events, row.id)
        rt = TableRuntime(self.store, self.config, row, events, workers=self.workers)
        self._hold(rt)
        rt.ensure_running()
        return rt

    async def open(self) -> None:
        """Called when the app starts (a lobby shared with other servers joins them)."""

    async def resume_all(self) -> int:
        """Load every unfinished table (so AI seats and stand-ins play on)."""
        ids = await self.io(self.store.table_ids, ("playing",))
        for tid in ids:
            await self.get(tid)
        return len(ids)

    async def close_within(self, seconds: float) -> str | None:
        """:meth:`close`, given up after ``seconds``: then what was still running (each
        task's chain of awaits), else None. A table's moves are stored as they are made,
        so one left running at shutdown loses nothing; a server that never stops would
        hold its port and its tables' leases."""
        closing = asyncio.ensure_future(self.close())
        if await until_done(self.clock, [closing], seconds):
            closing.result()
            return None
        me = asyncio.current_task()
        return "; ".join(f"{task.get_name()}: {_awaiting(task.get_coro())}"
                         for task in asyncio.all_tasks() if task is not me)

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper
        for rt in list(self.tables.values()):
            await rt.close()


def _awaiting(coro: object) -> str:
    """Where a suspended coroutine waits: its chain of awaits, innermost last."""
    steps = []
    while coro is not None:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is None:
            steps.append(type(coro).__name__)
            break
        steps.append(f"{frame.f_code.co_name}:{frame.f_lineno}")
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return " > ".join(steps)


def _watched(rt: TableRuntime) -> bool:
    """Whether any socket (player or spectator) is open on the table."""
    return rt.watched()


def _span(seconds: float) -> str:
    """A wait in words: ``40 seconds``, ``1 minute``, ``10 minutes``."""
    if seconds < 90:
        n = max(1, math.ceil(seconds))
        return f"{n} second{'s' if n != 1 else ''}"
    n = round(seconds / 60)
    return f"{n} minute{'s' if n != 1 else ''}"


__all__ = ["Lobby", "TableOptions", "default_ai"]
