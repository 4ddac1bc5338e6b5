"""The clocks the table timers run on: the manual one of the tests (time moves only when
told), and the real one, whose waits can always be cancelled."""

from __future__ import annotations

import asyncio
import threading

import pytest

from sgmahjong.web.clock import ManualClock, MonotonicClock, until_done


def test_a_wait_ends_when_the_clock_reaches_its_time_or_the_event_is_set() -> None:
    async def main() -> list[str]:
        clock = ManualClock(start=100.0)
        event = asyncio.Event()
        done: list[str] = []

        async def waiter(name: str, until: float | None) -> None:
            await clock.wait(event, until)
            done.append(name)

        tasks = [asyncio.create_task(waiter("at 105", 105.0)),
                 asyncio.create_task(waiter("on the event", None))]
        await asyncio.sleep(0.01)
        assert done == []                          # no time has passed on this clock
        # moved on from another thread, as a test's main thread does
        t = threading.Thread(target=clock.advance, args=(4.0,))
        t.start()
        t.join()
        await asyncio.sleep(0.01)
        assert done == [] and clock.now() == 104.0
        clock.advance(1.0)
        await asyncio.sleep(0.01)
        assert done == ["at 105"]
        event.set()
        await asyncio.gather(*tasks)
        return done

    assert asyncio.run(main()) == ["at 105", "on the event"]


def test_a_sleep_lasts_its_time_on_the_clock() -> None:
    async def main() -> None:
        clock = ManualClock()
        task = asyncio.create_task(clock.sleep(2.0))
        await asyncio.sleep(0.01)
        clock.advance(1.5)
        await asyncio.sleep(0.01)
        assert not task.done()
        clock.advance(0.5)
        await asyncio.wait_for(task, 1.0)
        await asyncio.wait_for(clock.sleep(0), 1.0)     # a zero sleep returns at once

    asyncio.run(main())


def test_waiting_for_tasks_ends_when_all_are_done_or_the_time_is_up() -> None:
    async def main() -> None:
        clock = ManualClock(start=0.0)
        first, second = asyncio.Event(), asyncio.Event()
        a = asyncio.create_task(first.wait())
        b = asyncio.create_task(second.wait())
        both = asyncio.create_task(until_done(clock, [a, None, b], 10.0))
        first.set()
        await asyncio.sleep(0.01)
        assert not both.done()                     # one of the two is still running
        second.set()
        assert await asyncio.wait_for(both, 1.0) is True

        never = asyncio.create_task(asyncio.Event().wait())
        bounded = asyncio.create_task(until_done(clock, [never], 10.0))
        while not clock.pending():                 # the bound is set on the clock
            await asyncio.sleep(0)
        clock.advance(9.0)
        await asyncio.sleep(0.01)
        assert not bounded.done()
        clock.advance(1.0)
        assert await asyncio.wait_for(bounded, 1.0) is False
        never.cancel()
        assert await until_done(clock, [None], 10.0) is True   # nothing to wait on

    asyncio.run(main())


@pytest.mark.parametrize("clock", [MonotonicClock(), ManualClock()],
                         ids=["monotonic", "manual"])
def test_a_wait_cancelled_as_its_event_is_set_is_cancelled(clock) -> None:
    """A table's timer is cancelled when its server stops. On Python 3.11 a wait through
    asyncio.wait_for swallowed the cancel when the event was set at the same moment, and
    the timer waited for ever (a server stopping in CI reported its table still running)."""
    async def main() -> bool:
        event = asyncio.Event()
        task = asyncio.create_task(clock.wait(event, clock.now() + 60))
        await asyncio.sleep(0)                  # the task is waiting
        event.set()
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            return True
        return False

    assert asyncio.run(main())
