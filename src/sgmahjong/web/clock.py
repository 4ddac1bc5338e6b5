"""The web table's clock: every timer of a table (claim window, turn limit, next-hand delay,
disconnect grace, AI pacing) reads and waits on one of these, so tests can move time on
by hand instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterable
from typing import Any, Protocol


class Clock(Protocol):
    """A source of time (seconds, any origin) that asyncio code can wait on."""

    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` of this clock's time."""

    async def wait(self, event: asyncio.Event, until: float | None) -> None:
        """Wait until ``event`` is set or the clock reaches ``until`` (None: no limit)."""


class MonotonicClock:
    """The real clock: ``time.monotonic`` and asyncio's own timers."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    async def wait(self, event: asyncio.Event, until: float | None) -> None:
        timeout = None if until is None else max(0.0, until - self.now())
        # not asyncio.wait_for: on Python 3.11 it swallows a cancel that comes as the event
        # is set, and a table's timer then waited for ever while its server stopped
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await event.wait()


class ManualClock:
    """A clock that moves only when told (:meth:`advance`), from any thread: for tests."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._lock = threading.Lock()
        self._ticks: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self._deadlines: dict[asyncio.Event, float] = {}

    def now(self) -> float:
        with self._lock:
            return self._now

    def pending(self) -> list[float]:
        """The times the waits on this clock wait for, soonest first: a test waits for a
        timer to be set before it moves time past it."""
        with self._lock:
            return sorted(self._deadlines.values())

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds`` and wake everything waiting on this clock."""
        with self._lock:
            self._now += seconds
            ticks = list(self._ticks)
        for loop, tick in ticks:
            with contextlib.suppress(RuntimeError):     # a loop that has closed
                loop.call_soon_threadsafe(tick.set)

    async def _until(self, until: float, event: asyncio.Event | None) -> None:
        tick = asyncio.Event()
        entry = (asyncio.get_running_loop(), tick)
        with self._lock:
            self._ticks.add(entry)
            self._deadlines[tick] = until
        try:
            while self.now() < until and not (event is not None and event.is_set()):
                waits = [asyncio.ensure_future(tick.wait())]
                if event is not None:
                    waits.append(asyncio.ensure_future(event.wait()))
                try:
                    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for w in waits:
                        w.cancel()
                tick.clear()
        finally:
            with self._lock:
                self._ticks.discard(entry)
                self._deadlines.pop(tick, None)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0)        # a sleep of 0 still lets others run, as asyncio's does
        if seconds > 0:
            await self._until(self.now() + seconds, None)

    async def wait(self, event: asyncio.Event, until: float | None) -> None:
        if until is None:
            await event.wait()
        else:
            await self._until(until, event)


async def until_done(clock: Clock, tasks: Iterable[asyncio.Future[Any] | None],
                     seconds: float) -> bool:
    """Wait until every one of ``tasks`` is done (None stands for nothing to wait on), at
    most ``seconds`` of ``clock``'s time. Returns whether they all are."""
    me = asyncio.current_task()
    pending = [t for t in tasks if t is not None and t is not me and not t.done()]
    if not pending:
        return True
    done = asyncio.Event()

    def one_done(_task: object) -> None:
        if all(t.done() for t in pending):
            done.set()

    for t in pending:
        t.add_done_callback(one_done)
    await clock.wait(done, clock.now() + seconds)
    return all(t.done() for t in pending)


__all__ = ["Clock", "ManualClock", "MonotonicClock", "until_done"]
