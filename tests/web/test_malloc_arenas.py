"""The serve process keeps glibc to a few malloc arenas, so that memory freed by its
threads is pooled and reused rather than scattered over one arena per thread (the creep a
half-hour soak showed: docs/web.md, "Limits")."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(platform.libc_ver()[0] != "glibc",
                                reason="malloc arenas are glibc's")

# Eight threads each hold some blocks too big for CPython's own allocator (so glibc's
# malloc serves them), then glibc's malloc_info reports its arenas, one <heap> each.
PROGRAM = """
import ctypes, ctypes.util, os, re, sys, tempfile, threading
from sgmahjong.web.memory import limit_malloc_arenas
print(limit_malloc_arenas(int(sys.argv[1])))
held = []
start = threading.Barrier(8)
def work():
    start.wait()
    for _ in range(500):
        held.append(bytearray(4000))
threads = [threading.Thread(target=work) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
libc = ctypes.CDLL(ctypes.util.find_library("c"))
libc.fdopen.restype = ctypes.c_void_p
with tempfile.TemporaryFile() as tmp:
    stream = libc.fdopen(os.dup(tmp.fileno()), b"w")
    libc.malloc_info(0, ctypes.c_void_p(stream))
    libc.fclose(ctypes.c_void_p(stream))
    tmp.seek(0)
    print(len(re.findall(rb'<heap nr=', tmp.read())))
"""


def arenas(limit: int) -> tuple[str, int]:
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    out = subprocess.run([sys.executable, "-c", PROGRAM, str(limit)], env=env,
                         capture_output=True, text=True, check=True, timeout=60).stdout
    took, count = out.split()
    return took, int(count)


def test_a_server_process_keeps_two_arenas_however_many_threads_allocate() -> None:
    assert arenas(2) == ("True", 2)


def test_without_the_limit_each_thread_gets_an_arena_of_its_own() -> None:
    # what the limit prevents: glibc gives new threads arenas of their own (up to eight
    # per core), so eight threads make more than two
    took, count = arenas(0)
    assert took == "False"
    assert count > 2


def test_the_environment_setting_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    from sgmahjong.web.memory import limit_malloc_arenas

    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert limit_malloc_arenas(2) is False
