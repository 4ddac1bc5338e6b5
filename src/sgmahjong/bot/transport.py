"""How bot messages travel: a subprocess over stdin/stdout, or an in-process mock for tests."""

from __future__ import annotations

import logging
import queue
import subprocess
import threading
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from .wire import dumps

log = logging.getLogger("sgmahjong.bot")


class Transport(Protocol):
    """A line channel to one bot."""

    @property
    def closed(self) -> bool: ...

    def send(self, message: dict[str, Any]) -> bool:
        """Send one message; False when the bot can no longer be reached."""
        ...

    def receive(self, timeout: float) -> str | None:
        """The next line, or None if none came within ``timeout`` seconds (or it closed)."""
        ...

    def close(self) -> None: ...


_EOF = object()


class ProcessTransport:
    """A bot run as a subprocess: JSON Lines on its stdin and stdout, stderr logged.

    Lines are read by a thread into a queue, so a silent bot never blocks the table;
    :meth:`close` ends the process (terminate, then kill).
    """

    def __init__(self, command: Sequence[str] | str) -> None:
        args = [command] if isinstance(command, str) else list(command)
        self.command = args
        self._proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, bufsize=1,
                                      encoding="utf-8", errors="replace")
        self._lines: queue.Queue[object] = queue.Queue()
        self._eof = False
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()

    def _read(self) -> None:
        assert self._proc.stdout is not None
        try:
            for line in self._proc.stdout:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(_EOF)

    def _drain(self) -> None:
        assert self._proc.stderr is not None
        try:
            for line in self._proc.stderr:
                log.debug("bot %s stderr: %s", self.command[0], line.rstrip())
        except (OSError, ValueError):
            pass

    @property
    def closed(self) -> bool:
        return self._eof

    def send(self, message: dict[str, Any]) -> bool:
        if self._eof or self._proc.poll() is not None or self._proc.stdin is None:
            return False
        try:
            self._proc.stdin.write(dumps(message) + "\n")
            self._proc.stdin.flush()
        except (OSError, ValueError):
            return False
        return True

    def receive(self, timeout: float) -> str | None:
        if self._eof:
            return None
        try:
            item = self._lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if item is _EOF:
            self._eof = True
            return None
        return str(item)

    def close(self) -> None:
        proc = self._proc
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self._eof = True


BotFunction = Callable[[dict[str, Any]], Iterable[str | dict[str, Any]] | None]


class MockTransport:
    """A bot as a Python function (message in, reply lines out): no subprocess, no waiting.

    The function may return lines (text or dicts), None for no reply, or raise to act
    as a bot that crashed. Every message sent is kept in ``sent``.
    """

    def __init__(self, bot: BotFunction) -> None:
        self.bot = bot
        self.sent: list[dict[str, Any]] = []
        self._replies: deque[str] = deque()
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed and not self._replies

    def send(self, message: dict[str, Any]) -> bool:
        if self._closed:
            return False
        self.sent.append(message)
        try:
            out = self.bot(message)
        except Exception:  # the mock bot "crashed"
            self._closed = True
            return False
        for line in out or ():
            self._replies.append(line if isinstance(line, str) else dumps(line))
        return True

    def receive(self, timeout: float) -> str | None:
        return self._replies.popleft() if self._replies else None

    def close(self) -> None:
        self._closed = True
