"""The table's clock: every delay of the terminal game (the opponents' pace, the claim timer,
the pause before a hand's breakdown takes keys) is asked of one of these.

:class:`AppClock`, the default, runs on Textual's timers. Tests give the app a
:class:`ManualClock` and move it on themselves, so that no test waits on real time and a
timer fires exactly when the test says.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Protocol

from textual.message_pump import MessagePump
from textual.timer import Timer

Callback = Callable[[], object]


class Handle(Protocol):
    """A scheduled call; ``cancel()`` stops it if it has not run yet."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """Schedules a call ``delay`` seconds from now."""

    def call_later(self, delay: float, callback: Callback) -> Handle: ...


class _TimerHandle:
    def __init__(self, timer: Timer) -> None:
        self._timer = timer

    def cancel(self) -> None:
        self._timer.stop()


class AppClock:
    """Real time, through Textual timers on ``owner`` (the app): an error in a callback is
    shown as the app's error, as any Textual timer's would be."""

    def __init__(self, owner: MessagePump) -> None:
        self._owner = owner

    def call_later(self, delay: float, callback: Callback) -> Handle:
        return _TimerHandle(self._owner.set_timer(delay, callback))


class _ManualHandle:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told to: ``advance(seconds)`` runs, in time order, every
    call that falls due (including calls those calls schedule within the same span).

    >>> clock, ran = ManualClock(), []
    >>> _ = clock.call_later(3, lambda: ran.append("claim"))
    >>> clock.advance(2.9); ran
    []
    >>> clock.advance(0.1); ran
    ['claim']
    """

    def __init__(self) -> None:
        self.now = 0.0
        self._due: list[tuple[float, int, Callback, _ManualHandle]] = []
        self._seq = 0

    def call_later(self, delay: float, callback: Callback) -> Handle:
        handle = _ManualHandle()
        self._seq += 1
        heapq.heappush(self._due, (self.now + max(delay, 0.0), self._seq, callback, handle))
        return handle

    def advance(self, seconds: float) -> None:
        end = self.now + seconds
        while self._due and self._due[0][0] <= end + 1e-9:
            when, _, callback, handle = heapq.heappop(self._due)
            self.now = max(self.now, when)
            if not handle.cancelled:
                callback()
        self.now = end

    @property
    def pending(self) -> int:
        """Calls scheduled and neither run nor cancelled."""
        return sum(1 for *_, h in self._due if not h.cancelled)

    def next_delay(self) -> float | None:
        """Seconds until the next pending call (None when nothing is scheduled)."""
        live = [when for when, _, _, h in self._due if not h.cancelled]
        return min(live) - self.now if live else None
