"""Giving freed memory back to the system after tables leave it.

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


def release_memory() -> bool:
    """Collect garbage cycles, then return free heap pages to the system where the C
    library can (glibc). Returns whether pages were trimmed."""
    gc.collect()
    trim = _malloc_trim()
    if trim is None:
        return False
    return bool(trim(0))


__all__ = ["release_memory"]
