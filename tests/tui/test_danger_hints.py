"""The hints panel reads danger with the public order of the hand's discards: a tile a
seat let pass since its own discard is safe against it, which a view alone cannot tell."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sgmahjong.agents import hints as engine
from sgmahjong.agents.danger import discard_history
from sgmahjong.agents.dealin import dealin, dealin_label, in_words
from sgmahjong.agents.hints import suggest_discard
from sgmahjong.english import tile_name
from sgmahjong.game import Discard, Win
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


async def test_the_panel_says_the_deal_in_chance_the_engine_reads_from_the_view(
        table_app: Callable[..., PlayApp]) -> None:
    """Against three Foxes on seed 29, you throw what you draw and skip every claim; by your
    eighth throw a Fox looks ready, and the tile the Owl suggests (it keeps away from the
    dangerous ones while your hand is slow) carries some risk. The panel gives the chance
    that someone wins on it as the engine reads it from your view and the order of the
    discards."""
    app = table_app(READY, walls=[], seed=29, opponents=("fox", "fox", "fox"))
    shown = None
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(200):
            await pilot.pause()
            session = app.session
            legal = session.human_legal()
            if session.game.ended:
                break
            if not legal:
                continue
            if Win() in legal:
                await pilot.press("w")
                continue
            if not any(isinstance(a, Discard) for a in legal):
                await pilot.press("s")
                continue
            view = session.view()
            history = discard_history(session.game.events)
            tip = suggest_discard(view, history)
            assert tip is not None
            if tip.danger is not None:
                shown = (view, history, tip.tile, text_of(app, "#hints"))
                break
            await throw_drawn(pilot)
    assert shown is not None, "a suggestion came up while someone looked ready"
    view, history, tile, panel = shown
    p = dealin(view, tile, history=history).probability
    label = dealin_label(p)
    assert label == "some risk"
    assert f"({tile_name(tile)}): " in panel.split("Throw ", 1)[1]   # the tile suggested
    assert f"{tile_name(tile)} carries some risk ({in_words(p)} that someone wins on it)" \
        in panel
