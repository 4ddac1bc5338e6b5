"""The server's log: one line for each fault the server expects, one line per episode of a
fault that repeats.

A database that is briefly away, a lease lost to another server, a relay that failed,
a client that went without a close frame: each is expected on a server that runs for
weeks and is handled where it happens, so its traceback tells an operator nothing.
:class:`OneLine` writes such a record as its message and the fault's first line. Some
faults come in floods: asyncio warns "socket.send() raised exception." for every write
to a socket whose client has gone (800 dropped sockets gave 17,520 lines), and logs a
traceback each second while the process has no file descriptor left to accept with.
:class:`Episodes` lets the first of a run of like records through and counts the rest
until the run has been quiet for ``quiet`` seconds; the next one says how many were left
out.

>>> import logging
>>> f = Episodes(quiet=60.0)
>>> def rec(at):
...     r = logging.LogRecord("asyncio", logging.WARNING, "", 0,
...                           "socket.send() raised exception.", (), None)
...     r.created = at
...     return r
>>> [f.filter(rec(t)) for t in (0.0, 1.0, 30.0, 89.0)]
[True, False, False, False]
>>> r = rec(150.0); f.filter(r), r.getMessage()
(True, 'socket.send() raised exception. (3 more like it in the 89 s before were not logged)')
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from sqlalchemy.exc import DBAPIError

from ..store.db import StoreError

EXPECTED: tuple[type[BaseException], ...] = (StoreError, DBAPIError, ConnectionError,
                                             TimeoutError)
"""Faults the server meets in normal running and handles: logged without a traceback."""
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:300]}" if text else type(exc).__name__


class OneLine(logging.Filter):
    """A record of an :data:`EXPECTED` fault, or of an ``OSError`` from asyncio's socket
    handling (a full descriptor table, a reset connection), loses its traceback and
    carries the fault's first line instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None:
            return True
        if isinstance(exc, EXPECTED) or (record.name == "asyncio"
                                         and isinstance(exc, OSError)):
            # asyncio adds the context on lines of their own (the socket): one line
            message = record.getMessage().replace("\n", "; ")
            record.msg = f"{message}: {_first_line(exc)}"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True


class Episodes(logging.Filter):
    """The first record of a run of like ones (same logger, level and message template)
    passes; the others are counted until none has come for ``quiet`` seconds (by the
    records' own times)."""

    def __init__(self, quiet: float = 60.0) -> None:
        super().__init__()
        self.quiet = quiet
        # (logger, level, template) -> (first time, last time, records left out)
        self.runs: dict[tuple[str, int, str], tuple[float, float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg))
        run = self.runs.get(key)
        at = record.created
        if run is not None and at - run[1] < self.quiet:
            self.runs[key] = (run[0], at, run[2] + 1)
            return False
        self.runs[key] = (at, at, 0)
        if run is not None and run[2]:
            record.msg = (f"{record.getMessage()} ({run[2]} more like it in the "
                          f"{run[1] - run[0]:.0f} s before were not logged)")
            record.args = ()
        if len(self.runs) > 10_000:     # templates are few; keys with a text in them are not
            cutoff = at - self.quiet
            self.runs = {k: v for k, v in self.runs.items() if v[1] >= cutoff}
        return True


def install(level: int = logging.WARNING, quiet: float = 60.0,
            stream: TextIO | None = None) -> logging.Handler:
    """Log the server's warnings and errors to ``stream`` (stderr) through :class:`OneLine`
    and :class:`Episodes`; returns the handler (to remove it again)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(OneLine())
    handler.addFilter(Episodes(quiet))
    handler.setLevel(level)
    root = logging.getLogger()
    root.addHandler(handler)
    if root.level == logging.NOTSET or root.level > level:
        root.setLevel(level)
    # uvicorn's loggers do not propagate: their own handler gets the same filters
    for h in logging.getLogger("uvicorn").handlers:
        h.addFilter(OneLine())
        h.addFilter(Episodes(quiet))
    return handler


__all__ = ["EXPECTED", "Episodes", "OneLine", "install"]
