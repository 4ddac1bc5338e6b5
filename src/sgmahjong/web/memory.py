"""Giving freed memory back to the system after tables leave it, and bounding the AI's
memo tables on a long-running server.

The AI levels memoise hand evaluations (``agents.evaluation.useful_kinds``, up to 262,144
entries, about 1 KiB each): right for a simulation that wants speed, but on a server that
runs for weeks it is a quarter of a gigabyte filling slowly, which reads as a leak, in
each process the AI runs in. The server keeps it under ``WebLimits.ai_cache_entries`` by
emptying it when it grows past: each AI worker process after each job
(:mod:`sgmahjong.web.workers`), the server's own process at each sweep of the lobby.
The shanten lookup keeps every group pattern it has met (up to 405,350, about 100 bytes
each), bounded the same way by ``WebLimits.shanten_patterns``, and the suit readings the
waits are read from (``analysis.decompose``, up to 3 x 8,192) by ``WebLimits.suit_readings``.

CPython returns small objects to its own pools, and glibc keeps freed heap pages in its
arenas (one per thread that allocated: the AI moves run in worker threads), so a server's
resident size does not fall by itself when finished tables are dropped. ``malloc_trim``
asks glibc to hand the free pages back; elsewhere (macOS, musl, Windows) it is a no-op.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
from collections.abc import Callable
from functools import cache


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        name = ctypes.util.find_library("c")
        if name is None:
            return None
        fn = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_size_t]
    fn.restype = ctypes.c_int
    return fn   # type: ignore[no-any-return]


def bound_ai_caches(max_entries: int, max_patterns: int, max_readings: int) -> bool:
    """Empty the AI's memo of hand evaluations if it holds more than ``max_entries``, the
    shanten lookup's patterns met if more than ``max_patterns`` and the suit readings if
    more than ``max_readings`` (each is met again in microseconds); whether anything was
    emptied."""
    from ..agents.evaluation import useful_kinds
    from ..analysis import decompose, shanten

    emptied = False
    if useful_kinds.cache_info().currsize > max_entries:
        useful_kinds.cache_clear()
        emptied = True
    if shanten.patterns_met() > max_patterns:
        shanten.clear_caches()
        emptied = True
    if decompose.suit_readings_met() > max_readings:
        decompose.clear_suit_readings()
        emptied = True
    return emptied


def memo_sizes() -> dict[str, int]:
    """What this process's AI memos hold (the bounds above apply to each)."""
    from ..agents.evaluation import useful_kinds
    from ..analysis import decompose, shanten

    return {"useful_kinds": useful_kinds.cache_info().currsize,
            "shanten_patterns": shanten.patterns_met(),
            "suit_readings": decompose.suit_readings_met()}


def release_memory() -> bool:
    """Collect garbage cycles, then return free heap pages to the system where the C
    library can (glibc). Returns whether pages were trimmed."""
    gc.collect()
    trim = _malloc_trim()
    if trim is None:
        return False
    return bool(trim(0))


__all__ = ["bound_ai_caches", "memo_sizes", "release_memory"]
