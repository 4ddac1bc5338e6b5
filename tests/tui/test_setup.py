"""The setup screen: it fits the smallest terminal, it never freezes while the shanten
tables are built, and the options from the command line reach the table."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.widget import Widget
from textual.widgets import Button, Static

from sgmahjong.analysis import shanten
from sgmahjong.tui.app import PlayApp
from sgmahjong.tui.clock import ManualClock
from sgmahjong.tui.session import PlayConfig
from sgmahjong.tui.setup import SetupScreen
from sgmahjong.tui.table import TableScreen

from .conftest import settle
from .test_play import PAIR_OF_9S, offer_was_skipped, throw_drawn
from .walls import PASSIVE

pytestmark = pytest.mark.asyncio


def seen(app: PlayApp, widget: Widget) -> bool:
    """The whole widget is on the screen and is what a click on its middle reaches."""
    r = widget.region
    if r.width == 0 or r.height == 0:
        return False
    if r.x < 0 or r.y < 0 or r.right > app.size.width or r.bottom > app.size.height - 1:
        return False  # the last row is the footer's
    hit, _ = app.screen.get_widget_at(r.x + r.width // 2, r.y + r.height // 2)
    return hit is widget or widget in hit.ancestors


async def test_the_whole_setup_screen_fits_in_80x24() -> None:
    app = PlayApp(PlayConfig(ai_delay=0.0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        for selector in ("#intro", "#progress", "#pick", "#guide"):
            assert seen(app, screen.query_one(selector, Static)), selector
        for button in screen.query(Button):
            assert seen(app, button), button.id
        start = screen.query_one("#start", Button)
        assert "Start my game" in str(start.label)
        for selector in ("#rules", "#quick", "#full", "#hints", "#opp-0", "#opp-1", "#opp-2"):
            assert seen(app, screen.query_one(selector)), selector
        assert str(screen.query_one("#intro", Static).render()).startswith(
            "Singapore Mahjong")


async def test_the_tables_are_built_in_the_background(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With no cache the shanten tables take seconds to build: the app builds them off
    the main thread from the start, and a key pressed meanwhile says what is happening
    instead of freezing; the table opens once they are ready."""
    real = shanten.prepare_tables
    real()
    entered, release = threading.Event(), threading.Event()
    on_main_thread: list[bool] = []

    def slow_prepare(rebuild: bool = False) -> dict[str, object]:
        on_main_thread.append(threading.current_thread() is threading.main_thread())
        entered.set()
        release.wait(timeout=10)
        return real(rebuild)

    monkeypatch.setattr(shanten, "prepare_tables", slow_prepare)
    app = PlayApp(PlayConfig(ai_delay=0.0, seed=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert entered.wait(timeout=10)                 # the build has started...
        assert on_main_thread == [False]                # ...off the main thread
        await pilot.press("1")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)          # the UI still answers keys
        busy = screen.query_one("#busy", Static)
        assert "Getting the tiles ready" in str(busy.render()) and seen(app, busy)
        release.set()
        await settle(app, pilot)
        assert isinstance(app.screen, TableScreen)
        assert app.session is not None and app.session.config.table == "garden-gate"
    assert on_main_thread == [False]


async def test_the_claim_timer_from_the_command_line_reaches_the_table() -> None:
    """``sgmahjong play --claim-timer 3`` then G on the setup screen: the offer is skipped
    after 3 s (the setup screen used to drop the option)."""
    clock = ManualClock()
    config = PlayConfig(quick=True, seed=1, opponents=PASSIVE, ai_delay=0.0, claim_timer=3,
                        walls=[PAIR_OF_9S])
    app = PlayApp(config, clock=clock)
    async with app.run_test(size=(130, 42)) as pilot:
        await settle(app, pilot)
        await pilot.press("g")
        await settle(app, pilot)
        assert isinstance(app.screen, TableScreen)
        await throw_drawn(pilot)
        assert not offer_was_skipped(app)
        clock.advance(3)
        await pilot.pause()
        assert offer_was_skipped(app)


async def test_a_rule_file_from_the_command_line_stays_chosen(tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    import sgmahjong.rules

    preset = Path(sgmahjong.rules.__file__).parent / "presets" / "standard.toml"
    rules.write_text(preset.read_text(encoding="utf-8"), encoding="utf-8")
    app = PlayApp(PlayConfig(rules=str(rules), ai_delay=0.0, seed=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("g")
        await settle(app, pilot)
        assert isinstance(app.screen, TableScreen)
        assert app.session is not None and app.session.config.rules == str(rules)


async def test_the_terminal_draws_no_emoji() -> None:
    """A terminal without an emoji font shows empty boxes (and guesses their width
    wrongly), so the terminal game and the ladder text it shows use none: the suggested
    discard is marked ``**``, stars are ★ (U+2605, in every common terminal font)."""
    import re
    from pathlib import Path

    import sgmahjong

    emoji = re.compile("[\U0001F300-\U0001FAFF\u2B50\u23F0-\u23FA"
                       "\u2600-\u2604\u2607-\u26FF\u2705\u274C]")
    root = Path(sgmahjong.__file__).parent
    found = [f"{p.relative_to(root)}: {m.group()!r}"
             for folder in ("tui", "store") for p in sorted((root / folder).rglob("*.py"))
             for m in emoji.finditer(p.read_text(encoding="utf-8"))]
    assert found == []
