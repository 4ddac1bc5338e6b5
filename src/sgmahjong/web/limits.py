"""Every bound the web server puts on what one client or all of them can make it hold.

The defaults are many times what a table of friends needs and small enough that no
client can fill the server's memory or lock others out for good. ``docs/web.md``
("Limits") lists each one; a server sets them through ``WebConfig.limits``.

>>> window = CreateWindow(WebLimits(creates_per_client=2, create_window=60.0))
>>> window.wait("10.0.0.1", 0.0), window.wait("10.0.0.1", 1.0), window.wait("10.0.0.1", 2.0)
(0.0, 0.0, 58.0)
>>> window.wait("10.0.0.2", 2.0), window.wait("10.0.0.1", 61.0)
(0.0, 0.0)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from ..inputs import MAX_REQUEST_BYTES
from .memory import MemoBounds

MINUTE = 60.0
DAY = 24 * 60 * MINUTE


@dataclass(frozen=True)
class WebLimits:
    """The server's bounds. Times are in seconds of the table clock (``WebConfig.clock``),
    but for ``ledger_expiry``: seconds of the calendar, since a ledger outlives the
    server's process."""

    max_body: int = MAX_REQUEST_BYTES       # bytes of an HTTP request body, checked first
    creates_per_client: int = 20            # tables one client address may create ...
    create_window: float = 10 * MINUTE      # ... in this long
    ledgers_per_client: int = 20            # ledgers one client address may open in it
    ledger_expiry: float = 90 * DAY         # a ledger not changed for this long is deleted
    max_waiting: int = 200                  # tables created and not started, all clients
    max_tables: int = 1000                  # tables held in memory (waiting, playing, done)
    waiting_expiry: float = 30 * MINUTE     # a table never started is closed after this
    finished_idle: float = 2 * MINUTE       # a finished table nobody watches leaves memory
    sweep_every: float = MINUTE             # how often the lobby looks for both
    header_timeout: float = 10.0            # a request's headers must all arrive within
    body_timeout: float = 30.0              # ... and its body within this after them
    keep_alive_timeout: int = 5             # an idle kept-alive connection is closed after
    max_header_bytes: int = 16 * 1024       # unfinished request headers held at most
    max_connections: int = 800              # connections open at once (sockets included)
    shutdown_grace: int = 10                # on Ctrl-C, requests under way get this long
    # uvicorn pings each websocket this often and drops one whose pong is this late: a
    # client gone without a word (a phone losing its network) frees its socket
    ws_ping_interval: float = 10.0
    ws_ping_timeout: float = 10.0
    max_clients_tracked: int = 10_000       # addresses remembered for the create limit
    # The AI's memos, emptied when past these: small enough that each process reaches them
    # within minutes and its memory levels off there (at 50,000 a soak's workers were still
    # growing after half an hour); the AI is no slower at these sizes (docs/web.md, "Limits")
    # At 20,000 (14 MiB filled and emptied again and again) a worker's small-object arenas
    # crept by fragmentation: 58 to 65 MiB in half an hour
    ai_cache_entries: int = 5_000           # the AI's memo of hand evaluations (~0.7 KiB each)
    shanten_patterns: int = 20_000          # group patterns the shanten lookup keeps (~100 B)
    suit_readings: int = 2_000              # suits' counts read for waits (~0.2 KiB each)
    wait_readings: int = 5_000              # ready hands' waits with their tai (~0.8 KiB)

    def memo_bounds(self) -> MemoBounds:
        """The AI memo bounds, as :func:`~.memory.bound_ai_caches` takes them."""
        return MemoBounds(self.ai_cache_entries, self.shanten_patterns, self.suit_readings,
                          self.wait_readings)


class CreateWindow:
    """How many tables (or ledgers) each client address created lately (a sliding
    window)."""

    def __init__(self, limits: WebLimits, per_client: int | None = None) -> None:
        self.limits = limits
        self.per_client = limits.creates_per_client if per_client is None else per_client
        self.recent: dict[str, deque[float]] = {}

    def wait(self, client: str, now: float) -> float:
        """0 and the create counted if ``client`` may create a table now; else the seconds
        until it may (nothing counted)."""
        window = self.limits.create_window
        times = self.recent.get(client)
        if times is None:
            if len(self.recent) >= self.limits.max_clients_tracked:
                self.forget(now)
            times = self.recent.setdefault(client, deque())
        while times and times[0] <= now - window:
            times.popleft()
        if len(times) >= self.per_client:
            return max(0.0, times[0] + window - now)
        times.append(now)
        return 0.0

    def forget(self, now: float) -> None:
        """Drop the addresses with nothing in the window (so the map stays bounded)."""
        cutoff = now - self.limits.create_window
        for client in [c for c, t in self.recent.items() if not t or t[-1] <= cutoff]:
            del self.recent[client]
        if len(self.recent) >= self.limits.max_clients_tracked:
            # still full of active addresses: the oldest activity goes first
            oldest = sorted(self.recent, key=lambda c: self.recent[c][-1])
            for client in oldest[: len(oldest) // 2]:
                del self.recent[client]


__all__ = ["CreateWindow", "WebLimits"]
