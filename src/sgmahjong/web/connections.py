"""What ``sgmahjong serve`` asks of uvicorn so that held connections cannot take the server
down: timeouts on each stage of a request and a cap on the connections open at once.

uvicorn times out an idle keep-alive connection (``timeout_keep_alive``), bounds the bytes
of unfinished headers (``h11_max_incomplete_event_size``) and answers 503 past
``limit_concurrency``, but it never times out headers that arrive a byte at a time, nor a
connection that sends nothing: a few hundred such connections (slowloris) held every file
descriptor, and the server could accept no one. :class:`GuardedH11` adds that header
timeout on the web clock and closes a connection past the cap as soon as it is made; the
app's guard (:mod:`sgmahjong.web.guard`) times out a body that trickles in.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .clock import Clock
from .guard import ASGIApp
from .limits import WebLimits

_LATE = b"the request headers did not arrive in time\n"
TIMED_OUT = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
             b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_LATE), _LATE))


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers (from the
    connection's start, or from the end of the previous response) and a connection cap.
    :func:`guarded_protocol` sets the class attributes."""

    clock: Clock
    header_timeout: float
    max_connections: int

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._headers_in: asyncio.Event | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            # at the cap: refused before a byte is read (a 503 needs the headers first), and
            # no longer counted: its close goes through later, and meanwhile uvicorn would
            # answer the connections it serves 503 (limit_concurrency)
            self.connections.discard(self)
            transport.abort()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.get_protocol() is not self:     # upgraded to a websocket
            self._disarm()
        elif self.cycle is not None and not self.cycle.response_complete:
            self._disarm()                                 # the headers are all in
        elif self._headers_in is None:
            # the next request on a kept-alive connection has begun (uvicorn's keep-alive
            # timeout covered the wait for its first byte)
            self._arm()

    def _arm(self) -> None:
        self._headers_in = event = asyncio.Event()
        until = self.clock.now() + self.header_timeout
        self.loop.create_task(self._expire(event, until))

    def _disarm(self) -> None:
        if self._headers_in is not None:
            self._headers_in.set()
            self._headers_in = None

    async def _expire(self, event: asyncio.Event, until: float) -> None:
        await self.clock.wait(event, until)
        if event.is_set() or self.transport.is_closing():
            return
        self._headers_in = None
        with contextlib.suppress(Exception):
            self.transport.write(TIMED_OUT)
        self.transport.close()


def guarded_protocol(limits: WebLimits, clock: Clock) -> type[GuardedH11]:
    """A :class:`GuardedH11` with ``limits``' header timeout and connection cap."""
    return type("GuardedH11", (GuardedH11,), {
        "clock": clock, "header_timeout": limits.header_timeout,
        "max_connections": limits.max_connections})


def server_config(app: ASGIApp, limits: WebLimits, clock: Clock) -> uvicorn.Config:
    """uvicorn's settings for ``serve``: every timeout and cap from ``limits``."""
    return uvicorn.Config(
        app, log_level="warning", ws_max_size=64 * 1024,
        http=guarded_protocol(limits, clock),
        timeout_keep_alive=limits.keep_alive_timeout,
        h11_max_incomplete_event_size=limits.max_header_bytes,
        # GuardedH11 closes a connection past the cap; uvicorn's 503 is for requests
        # under way past it (a connection holds at most one, a socket one for good)
        limit_concurrency=limits.max_connections + 1,
        ws_ping_interval=limits.ws_ping_interval, ws_ping_timeout=limits.ws_ping_timeout,
        timeout_graceful_shutdown=limits.shutdown_grace)


def raise_open_files_limit() -> int:
    """Raise this process's open-files limit to the most the system allows it (Linux
    starts a process at 1,024), so the connection cap is met before the descriptors run
    out; returns the limit now in force (0 where the system has no such limit)."""
    try:
        import resource
    except ImportError:         # Windows
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if want > soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            return want
    return soft


__all__ = ["GuardedH11", "guarded_protocol", "raise_open_files_limit", "server_config"]
