"""Snapshots of the main screens (pytest-textual-snapshot). Regenerate after a deliberate
change with ``pytest tests/tui/test_snapshots.py --snapshot-update`` and look at the SVGs.

The table is shown with the hints hidden: their text comes from the hint engine, which
is tested on its own, so these pictures change only when the table itself does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sgmahjong.tui.app import PlayApp
from sgmahjong.tui.session import PlayConfig

from .test_play import PAIR_OF_9S, READY, SIZE, TWO_KONGS


def test_setup_screen(snap_compare: Any) -> None:
    assert snap_compare(PlayApp(PlayConfig(ai_delay=0.0)), terminal_size=SIZE)


def test_table_on_your_turn(snap_compare: Any, table_app: Callable[..., PlayApp]) -> None:
    app = table_app(READY, hints=False)
    assert snap_compare(app, press=["left", "enter"], terminal_size=SIZE)


def test_table_offering_a_pong(snap_compare: Any, table_app: Callable[..., PlayApp]) -> None:
    app = table_app(PAIR_OF_9S, hints=False)
    assert snap_compare(app, press=["enter", "enter"], terminal_size=SIZE)


def test_table_choosing_a_kong(snap_compare: Any, table_app: Callable[..., PlayApp]) -> None:
    app = table_app(TWO_KONGS, hints=False)
    assert snap_compare(app, press=["k"], terminal_size=SIZE)


def test_end_of_hand_breakdown(snap_compare: Any, table_app: Callable[..., PlayApp]) -> None:
    app = table_app(READY, hints=False)

    async def win_and_review(pilot: Any) -> None:
        await pilot.pause()
        await pilot.press("enter", "enter", "w")
        await pilot.pause()
        # the review comes from a worker thread: the picture is taken once it is in
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(app, run_before=win_and_review, terminal_size=SIZE)


def test_keys_dialog(snap_compare: Any, table_app: Callable[..., PlayApp]) -> None:
    app = table_app(READY, hints=False)
    assert snap_compare(app, press=["question_mark"], terminal_size=SIZE)


def test_rules_page(snap_compare: Any) -> None:
    app = PlayApp(PlayConfig(rules="standard", ai_delay=0.0))
    assert snap_compare(app, press=["r", "2"], terminal_size=SIZE)


def test_tile_guide_page(snap_compare: Any) -> None:
    app = PlayApp(PlayConfig(rules="standard", ai_delay=0.0))
    assert snap_compare(app, press=["r", "4"], terminal_size=SIZE)


def test_guided_hand_offering_the_chow(snap_compare: Any) -> None:
    from sgmahjong.tiles import Tile

    async def to_the_chow(pilot: Any) -> None:
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("space")
        screen = pilot.app.screen
        screen.cursor = screen.order.index(Tile.NORTH)
        await pilot.press("enter", "enter")
        await pilot.pause()

    app = PlayApp(PlayConfig(ai_delay=0.0))
    assert snap_compare(app, run_before=to_the_chow, terminal_size=SIZE)
