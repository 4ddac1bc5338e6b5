"""The hints panel reads danger with the public order of the hand's discards: a tile a
seat let pass since its own discard is safe against it, which a view alone cannot tell."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sgmahjong.agents import hints as engine
from sgmahjong.tiles import Seat, Tile
from sgmahjong.tui.app import PlayApp

from .test_play import READY, SIZE, text_of, throw_drawn

pytestmark = pytest.mark.asyncio


async def test_the_panel_gets_the_discards_in_the_order_they_were_thrown(
        table_app: Callable[..., PlayApp], monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Any] = []
    real = engine.hints

    def spy(view: Any, legal: Any = None, history: Any = None) -> Any:
        asked.append(history)
        return real(view, legal, history)

    monkeypatch.setattr(engine, "hints", spy)
    app = table_app(READY)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert asked and list(asked[-1]) == []     # the first turn: nothing thrown yet
        await throw_drawn(pilot)                   # East throws the South Wind it drew
        await pilot.pause()
        # South, West and North throw the 1, 5 and 9 Bamboo they draw; East draws 5 Circles
        assert "Hints" in text_of(app, "#hints")
    assert list(asked[-1]) == [(Seat.EAST, Tile.SOUTH), (Seat.SOUTH, Tile.S1),
                               (Seat.WEST, Tile.S5), (Seat.NORTH, Tile.S9)]
