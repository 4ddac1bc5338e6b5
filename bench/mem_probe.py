"""What a process's resident memory is made of, for the web soak (``soak_web.py --probe``).

One dict per call: resident size (and its anonymous and file-backed parts), glibc's heap
(arena bytes taken from the system, bytes in use, bytes free in them, bytes in mmapped
chunks), CPython's small-object allocator
(arenas of 1 MiB held, blocks in use), SQLite's own allocations (its page caches and
statements) and the AI memos' sizes. Linux and glibc only; a figure that cannot be read
is left out.

No count of the garbage collector's objects: ``gc.get_objects()`` from this probe's thread
can catch a tuple that another thread is still building, and that thread then fails with
"SystemError: bad argument to internal function" (it did, in a soak's worker).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import sys
import tempfile
from typing import Any


class _MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                 "uordblks", "fordblks", "keepcost")]


def _status(pid: int, keys: tuple[str, ...]) -> dict[str, int]:
    """The numbers of ``keys`` in a process's /proc status (none if it has just ended)."""
    out = {}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                key, _, rest = line.partition(":")
                if key in keys:
                    out[key] = int(rest.split()[0])
    except OSError:
        pass
    return out


def rss_kib(pid: int) -> int:
    """Resident memory of a process (Linux /proc)."""
    return _status(pid, ("VmRSS",)).get("VmRSS", 0)


def _pymalloc_arenas() -> int | None:
    """Arenas CPython's allocator holds now (``sys._debugmallocstats`` writes them to the
    C stderr: read back through a temporary file)."""
    with tempfile.TemporaryFile() as tmp:
        saved = os.dup(2)
        try:
            sys.stderr.flush()
            os.dup2(tmp.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        tmp.seek(0)
        text = tmp.read().decode("ascii", "replace")
    m = re.search(r"# arenas allocated current\s*=\s*([\d,]+)", text)
    return int(m.group(1).replace(",", "")) if m else None


def rss_parts_kib(pid: int) -> dict[str, int]:
    """A process's resident memory by kind: anonymous (heaps, arenas, stacks), file-backed
    (code and libraries as their pages are first touched) and shared; and its threads
    (Linux /proc)."""
    found = _status(pid, ("RssAnon", "RssFile", "RssShmem", "Threads"))
    # each thread holds its stack and its own state
    return {("threads" if k == "Threads" else k[3:].lower() + "_kib"): v
            for k, v in found.items()}


def probe() -> dict[str, Any]:
    out: dict[str, Any] = {"pid": os.getpid(), "rss_kib": rss_kib(os.getpid()),
                           **rss_parts_kib(os.getpid()),
                           "py_blocks": sys.getallocatedblocks()}
    arenas = _pymalloc_arenas()
    if arenas is not None:
        out["pymalloc_arenas"] = arenas
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        libc.mallinfo2.restype = _MallInfo2
        m = libc.mallinfo2()
        out.update(heap_kib=m.arena // 1024, heap_used_kib=m.uordblks // 1024,
                   heap_free_kib=m.fordblks // 1024, mmap_kib=m.hblkhd // 1024)
    except (OSError, AttributeError, TypeError):
        pass
    if "_sqlite3" in sys.modules:
        try:
            lib = ctypes.CDLL(sys.modules["_sqlite3"].__file__)
            lib.sqlite3_memory_used.restype = ctypes.c_int64
            out["sqlite_kib"] = lib.sqlite3_memory_used() // 1024
        except (OSError, AttributeError):
            pass
    from sgmahjong.web.memory import memo_sizes
    out.update(memo_sizes())
    return out
