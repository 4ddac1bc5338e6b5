"""A stopping server closes its tables, and is not held for ever by one that will not close:
after a while it says which task was still running, and goes on stopping."""

from __future__ import annotations

import asyncio
from pathlib import Path

from conftest import fast_config

from sgmahjong.store.db import TableStore
from sgmahjong.web.clock import ManualClock
from sgmahjong.web.lobby import Lobby


class Stubborn:
    """A table whose close waits for something that never comes, as a fault would."""

    status = "playing"

    async def close(self) -> None:
        await asyncio.Event().wait()


class Tidy:
    status = "finished"
    closed = False

    async def close(self) -> None:
        self.closed = True


def _close(lobby: Lobby, clock: ManualClock, seconds: float) -> str | None:
    async def run() -> str | None:
        task = asyncio.create_task(lobby.close_within(seconds))
        while not clock.pending() and not task.done():
            await asyncio.sleep(0)
        clock.advance(seconds)
        return await task
    return asyncio.run(run())


def test_a_table_that_will_not_close_is_named_after_the_wait_and_the_rest_close(
        tmp_path: Path) -> None:
    clock = ManualClock()
    store = TableStore(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    lobby = Lobby(store, fast_config(clock=clock))
    tidy = Tidy()
    lobby.tables.update({"a": tidy, "b": Stubborn()})  # type: ignore[dict-item]
    stuck = _close(lobby, clock, 10.0)
    assert tidy.closed
    assert stuck is not None and "close" in stuck and "wait" in stuck, stuck
    store.close()


def test_tables_that_close_give_nothing_to_report(tmp_path: Path) -> None:
    clock = ManualClock()
    store = TableStore(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    lobby = Lobby(store, fast_config(clock=clock))
    tidy = Tidy()
    lobby.tables["a"] = tidy  # type: ignore[assignment]
    assert _close(lobby, clock, 10.0) is None
    assert tidy.closed
    store.close()
