"""The server's log (``serve`` installs sgmahjong.web.logs): an expected fault is one line,
a flood of like records one line per episode, a bug keeps its traceback."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Iterator

import pytest

from sgmahjong.store.db import StoreError
from sgmahjong.web import logs


@pytest.fixture
def log() -> Iterator[io.StringIO]:
    out = io.StringIO()
    handler = logs.install(stream=out)
    try:
        yield out
    finally:
        logging.getLogger().removeHandler(handler)


def _lines(out: io.StringIO) -> list[str]:
    return out.getvalue().splitlines()


def test_an_expected_fault_is_one_line_and_a_bug_keeps_its_traceback(log) -> None:  # type: ignore[no-untyped-def]
    peers = logging.getLogger("sgmahjong.web.peers")
    try:
        raise StoreError("the database is not answering")
    except StoreError:
        peers.exception("table %s: a message could not be relayed", "T1")
    (line,) = _lines(log)
    assert line.endswith(" ERROR sgmahjong.web.peers: table T1: a message could not be "
                         "relayed: StoreError: the database is not answering")
    try:
        {}["seat"]
    except KeyError:
        peers.exception("table %s: the driver failed", "T2")
    text = log.getvalue()
    assert "Traceback (most recent call last)" in text and "KeyError: 'seat'" in text


def test_a_flood_of_dropped_socket_warnings_is_one_line_per_episode(log) -> None:  # type: ignore[no-untyped-def]
    sockets = logging.getLogger("asyncio")

    def warn(at: float) -> None:
        record = sockets.makeRecord("asyncio", logging.WARNING, __file__, 0,
                                    "socket.send() raised exception.", (), None)
        record.created = at
        sockets.handle(record)
    for i in range(800):                    # 800 writes within ten seconds
        warn(1000.0 + i / 80)
    assert len(_lines(log)) == 1
    warn(1000.0 + 10 + 61)                  # after a quiet minute: a new episode
    first, second = _lines(log)
    assert first.endswith("WARNING asyncio: socket.send() raised exception.")
    assert second.endswith("WARNING asyncio: socket.send() raised exception. (799 more like "
                           "it in the 10 s before were not logged)")


def test_no_descriptor_left_to_accept_with_is_one_line_not_a_traceback_a_second(log) -> None:  # type: ignore[no-untyped-def]
    loop = asyncio.new_event_loop()
    try:
        for _ in range(5):                  # asyncio retries the accept each second
            loop.call_exception_handler({
                "message": "socket.accept() out of system resource",
                "exception": OSError(24, "Too many open files"),
                "socket": "<socket fd=6, laddr=('0.0.0.0', 8000)>"})
    finally:
        loop.close()
    (line,) = _lines(log)
    assert "ERROR asyncio: socket.accept() out of system resource; socket: " in line
    assert line.endswith(": OSError: [Errno 24] Too many open files")
