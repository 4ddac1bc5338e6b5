"""Giving freed memory back to the system after tables leave it, and bounding the AI's
memo tables on a long-running server.

The AI levels memoise hand evaluations (``agents.evaluation.useful_kinds``, up to 262,144
entries, about 1 KiB each): right for a simulation that wants speed, but on a server that
runs for weeks it is a quarter of a gigabyte filling slowly, which reads as a leak, in
each process the AI runs in. The server keeps it under ``WebLimits.ai_cache_entries`` by
emptying it when it grows past: each AI worker process after each job
(:mod:`sgmahjong.web.workers`), the server's own process at each sweep of the lobby.
The shanten lookup keeps every group pattern it has met (up to 405,350, about 100 bytes
each), bounded the same way by ``WebLimits.shanten_patterns``, the suit readings the
waits are read from (``analysis.decompose``, up to 3 x 8,192) by ``WebLimits.suit_readings``,
and the waits of ready hands with their tai (``agents.evaluation``, up to 65,536, about
0.8 KiB each, met by the Owl and Fox) by ``WebLimits.wait_readings``.

CPython returns small objects to its own pools, and glibc keeps freed heap pages in its
arenas, so a server's resident size does not fall by itself when finished tables are
dropped. ``malloc_trim`` asks glibc to hand the free pages back; elsewhere (macOS, musl,
Windows) it is a no-op.

glibc also gives each new thread that allocates an arena of its own, up to eight per core,
and each keeps its freed chunks for itself. The server's
database and file work runs in a pool of threads, so its freed memory was scattered over
many arenas, where little of it could be reused or trimmed: a 30-minute soak's server
grew 4.9% after its warm-up with 8-9 MiB free in its heap, none of it Python objects.
``serve`` therefore keeps the process to :data:`SERVER_ARENAS` arenas (``MALLOC_ARENA_MAX``
in the environment, which glibc reads itself, takes precedence).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
from collections.abc import Callable
from functools import cache
from typing import NamedTuple

SERVER_ARENAS = 2       # glibc malloc arenas in a serve process (see above)
_M_ARENA_MAX = -8       # mallopt's parameter number for it (glibc's malloc.h)


@cache
def _libc(function: str) -> Callable[..., int] | None:
    """A function of glibc's malloc by name, or None where the C library has none."""
    try:
        name = ctypes.util.find_library("c")
        if name is None:
            return None
        fn = getattr(ctypes.CDLL(name), function)
    except (OSError, AttributeError):
        return None
    fn.restype = ctypes.c_int
    return fn   # type: ignore[no-any-return]


def limit_malloc_arenas(n: int = SERVER_ARENAS) -> bool:
    """Let glibc keep at most ``n`` malloc arenas in this process, unless
    ``MALLOC_ARENA_MAX`` is set in the environment. Arenas already made stay: call it
    before threads start. Whether the limit was set."""
    if n < 1 or "MALLOC_ARENA_MAX" in os.environ:
        return False
    mallopt = _libc("mallopt")
    if mallopt is None:
        return False
    return bool(mallopt(ctypes.c_int(_M_ARENA_MAX), ctypes.c_int(n)))


class MemoBounds(NamedTuple):
    """The most each AI memo may hold before all of them are emptied (``WebLimits.memo_bounds``)."""

    hand_evaluations: int
    shanten_patterns: int
    suit_readings: int
    waits: int


def bound_ai_caches(bounds: MemoBounds) -> bool:
    """Empty the AI memos once any holds more than its bound (each entry is met again in
    microseconds): the memo of hand evaluations, the shanten lookup's patterns, the suit
    readings and the ready hands' waits with their tai. Whether they were emptied.

    All four go together, not each at its own bound: entries of one memo made between
    those of another share CPython's arenas with them, and an arena returns to the
    system only when every object in it is gone. Emptied one at a time, each memo's
    survivors pinned the arenas the others had freed, and a worker's arenas crept for
    minutes after its memos had reached their bounds."""
    from ..agents import evaluation
    from ..analysis import decompose, shanten

    if (evaluation.useful_kinds.cache_info().currsize <= bounds.hand_evaluations
            and shanten.patterns_met() <= bounds.shanten_patterns
            and decompose.suit_readings_met() <= bounds.suit_readings
            and evaluation.waits_met() <= bounds.waits):
        return False
    evaluation.useful_kinds.cache_clear()
    shanten.clear_caches()
    decompose.clear_suit_readings()
    evaluation.clear_waits()
    return True


def memo_sizes() -> dict[str, int]:
    """What this process's AI memos hold (the bounds above apply to each), and how many
    rule-set objects the memos keyed on the rules keep (one per table's rules is right)."""
    from ..agents import evaluation, expected
    from ..analysis import decompose, shanten

    held = {id(v[0]) for memo in (evaluation._BONUS_TAI, evaluation._WAITS, expected._PAY)
            for v in list(memo.values())}
    return {"useful_kinds": evaluation.useful_kinds.cache_info().currsize,
            "shanten_patterns": shanten.patterns_met(),
            "suit_readings": decompose.suit_readings_met(),
            "waits": evaluation.waits_met(),
            "rule_sets": len(held)}


def release_memory() -> bool:
    """Collect garbage cycles, then return free heap pages to the system where the C
    library can (glibc). Returns whether pages were trimmed."""
    gc.collect()
    trim = _libc("malloc_trim")
    if trim is None:
        return False
    return bool(trim(ctypes.c_size_t(0)))


__all__ = ["SERVER_ARENAS", "MemoBounds", "bound_ai_caches", "limit_malloc_arenas",
           "memo_sizes", "release_memory"]
