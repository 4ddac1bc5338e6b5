"""The server's heavy lifting, off the event loop: AI decisions, hints and reviews in a
pool of processes (so one server's tables use every core), database calls in threads.

A worker gets everything as arguments (a fresh AI player seeded by the moment, the
view, the legal actions), so any worker answers alike and none keeps a table's state.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, TypeVar, TypeVarTuple

from ..game import Action, PlayerView
from ..game.codec import JSON
from ..session.decisions import decide
from ..session.reviews import review_of_hand
from .core.messages import ReviewHand
from .limits import WebLimits
from .memory import MemoBounds, bound_ai_caches, release_memory
from .protocol import hints_json

if TYPE_CHECKING:
    from ..agents import Agent
    from ..agents.danger import History
    from ..agents.review import Review

log = logging.getLogger("sgmahjong.web")
T = TypeVar("T")
Ts = TypeVarTuple("Ts")


def think(agent: Agent, view: PlayerView,
          legal: Sequence[Action]) -> tuple[Action, Agent, str | None]:
    """``agent``'s action, the agent after it (its generator moved on: sent back to the
    table, which keeps it for the seat's next decision), and why the action is the safe
    fallback (None: it is the AI's own; :func:`sgmahjong.session.decisions.decide`)."""
    decision = decide(agent, view, legal)
    return decision.action, agent, decision.failure


def review(job: ReviewHand) -> Review:
    return review_of_hand(job.events, job.seat, job.rules, job.notes, job.names)


def hints(view: PlayerView, legal: Sequence[Action], history: History) -> JSON | None:
    return hints_json(view, list(legal), history)


# the bounds of the server that made this worker's pool
_MEMO_BOUNDS: MemoBounds = WebLimits().memo_bounds()


def _start_worker(parent: int, bounds: MemoBounds) -> None:
    """Load the AI before the first decision is waited on, and leave with the server: a
    worker whose server died (``kill -9`` included) would otherwise wait for ever."""
    from .. import agents  # noqa: F401

    global _MEMO_BOUNDS
    _MEMO_BOUNDS = bounds

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="sgmahjong-parent-watch", daemon=True).start()


def _bounded(fn: Callable[[*Ts], T], *args: *Ts) -> T:
    """``fn(*args)`` in a worker process, then the AI's memos there held to the server's
    bounds: a worker keeps them from job to job, and the lobby's sweep bounds only the
    server's own process."""
    try:
        return fn(*args)
    finally:
        if bound_ai_caches(_MEMO_BOUNDS):
            release_memory()


_POOLS: dict[tuple[int, MemoBounds], Executor] = {}
_POOLS_LOCK = threading.Lock()


def _pool(processes: int, bounds: MemoBounds) -> Executor:
    """The process's one pool of ``processes`` workers (threads when 0) whose memos are
    held to ``bounds``, made on first use: every app of a process shares it, as they
    share the cores."""
    key = (processes, bounds)
    with _POOLS_LOCK:
        pool = _POOLS.get(key)
        if pool is None:
            if processes > 0:
                # spawned, not forked: a fork would copy the server's threads' locks
                ctx = multiprocessing.get_context("spawn")
                pool = ProcessPoolExecutor(processes, mp_context=ctx,
                                           initializer=_start_worker,
                                           initargs=(os.getpid(), bounds))
            else:
                pool = ThreadPoolExecutor(4, thread_name_prefix="sgmahjong-ai")
            _POOLS[key] = pool
        return pool


def _forget(key: tuple[int, MemoBounds], pool: Executor) -> None:
    with _POOLS_LOCK:
        if _POOLS.get(key) is pool:
            del _POOLS[key]


class Workers:
    """The pools of one server. ``processes``: worker processes for the AI, hints and
    reviews (None: one per core; 0: threads of this process); ``limits``' AI memo bounds
    hold in each worker process."""

    def __init__(self, processes: int | None = None, limits: WebLimits | None = None,
                 io_threads: int = 8) -> None:
        self.processes = (os.cpu_count() or 1) if processes is None else processes
        limits = limits or WebLimits()
        self.bounds = limits.memo_bounds()
        self._io = ThreadPoolExecutor(io_threads, thread_name_prefix="sgmahjong-store")

    async def cpu(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        """``fn(*args)`` in the AI pool (a pool that broke is made again next time)."""
        pool = _pool(self.processes, self.bounds)
        loop = asyncio.get_running_loop()
        try:
            if self.processes == 0:     # threads: the lobby's sweep bounds this process
                return await loop.run_in_executor(pool, fn, *args)
            return await loop.run_in_executor(pool, _bounded, fn, *args)
        except BrokenProcessPool:
            _forget((self.processes, self.bounds), pool)
            raise

    async def io(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        """A blocking database call, in a thread: the loop serves the other tables."""
        return await asyncio.get_running_loop().run_in_executor(self._io, fn, *args)

    def close(self) -> None:
        self._io.shutdown(wait=False)


__all__ = ["Workers", "hints", "review", "think"]
