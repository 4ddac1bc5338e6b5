"""Fixtures for the table tests: a private data folder and a table started on a given wall."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sgmahjong.tiles import Tile
from sgmahjong.tui.app import PlayApp
from sgmahjong.tui.session import PlayConfig

from .walls import PASSIVE


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own data folder (progress file and records)."""
    folder = tmp_path / "data"
    monkeypatch.setenv("SGMAHJONG_DATA_DIR", str(folder))
    return folder


@pytest.fixture
def table_app() -> Callable[..., PlayApp]:
    """``table_app(wall, **config)``: the table on that wall against passive opponents."""

    def make(wall: list[Tile], **kw: object) -> PlayApp:
        options: dict[str, object] = {"rules": "standard", "quick": True, "seed": 1,
                                      "opponents": PASSIVE, "ai_delay": 0.0,
                                      "walls": [wall]}
        options.update(kw)
        return PlayApp(PlayConfig(**options), skip_setup=True)  # type: ignore[arg-type]

    return make
