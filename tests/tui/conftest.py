"""Fixtures for the table tests: a private data folder, a table started on a given wall, and
a clock the test moves itself (no test waits on real time)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sgmahjong.tiles import Tile
from sgmahjong.tui.app import PlayApp
from sgmahjong.tui.clock import ManualClock
from sgmahjong.tui.session import PlayConfig

from .walls import PASSIVE


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own data folder (progress file and records)."""
    folder = tmp_path / "data"
    monkeypatch.setenv("SGMAHJONG_DATA_DIR", str(folder))
    return folder


@pytest.fixture
def clock() -> ManualClock:
    """The app's clock in these tests: timers fire only when the test advances it."""
    return ManualClock()


@pytest.fixture
def table_app(clock: ManualClock) -> Callable[..., PlayApp]:
    """``table_app(wall, **config)``: the table on that wall against passive opponents, on
    the test's clock."""

    def make(wall: list[Tile], **kw: object) -> PlayApp:
        options: dict[str, object] = {"rules": "standard", "quick": True, "seed": 1,
                                      "opponents": PASSIVE, "ai_delay": 0.0,
                                      "walls": [wall]}
        options.update(kw)
        return PlayApp(PlayConfig(**options), skip_setup=True,  # type: ignore[arg-type]
                       clock=clock)

    return make


async def settle(app: PlayApp, pilot) -> None:  # type: ignore[no-untyped-def]
    """Wait for the app's background work (the tables) and the screen it leads to."""
    await app.workers.wait_for_complete()
    await pilot.pause()
