"""The smallest terminal the game supports, 80x24 (docs/play.md): what is on the screen, as
a person reads it row by row. The keys help and the way out, the coach's notes, your hand
and its prompt with the hints open, resizing, and the notice below 80x24."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from textual.widget import Widget
from textual.widgets import Static

from sgmahjong.tiles import Tile
from sgmahjong.tui.app import PlayApp
from sgmahjong.tui.clock import ManualClock
from sgmahjong.tui.dialogs import HelpScreen
from sgmahjong.tui.lesson import LessonScreen
from sgmahjong.tui.session import PlayConfig
from sgmahjong.tui.table import TableScreen

from .conftest import settle
from .screen import screen_lines, screen_text
from .test_play import HOPELESS, READY

pytestmark = pytest.mark.asyncio
SMALL = (80, 24)

# You (East) wait on the 5 Circles with a dragon pong and draw it on your second turn.
WIN_ON_THE_DRAW = READY


async def footer(app: PlayApp, pilot) -> str:  # type: ignore[no-untyped-def]
    """The last row, once the footer has drawn its keys (it does so a refresh after the
    screen opens)."""
    for _ in range(20):
        if screen_lines(app)[-1].strip():
            break
        await pilot.pause()
    return screen_lines(app)[-1]


def on_screen(app: PlayApp, widget: Widget) -> bool:
    """Every row of the widget is inside the screen and drawn by it (not hidden under
    another widget or scrolled out of its container)."""
    r = widget.region
    if r.width == 0 or r.height == 0:
        return False
    for y in range(r.y, r.bottom):
        if not 0 <= y < app.size.height - 1:   # the last row is the footer's
            return False
        hit, _ = app.screen.get_widget_at(r.x + min(1, r.width - 1), y)
        if hit is not widget and widget not in hit.ancestors:
            return False
    return True


def your_box_in_sight(app: PlayApp) -> bool:
    """Your whole box: the hand, the claim buttons, the prompt and the frame under it."""
    screen = app.screen
    me = screen.query_one("#me")
    board = screen.query_one("#board")
    inside = (board.region.y <= me.region.y
              and me.region.bottom <= board.region.bottom)
    return inside and all(on_screen(app, screen.query_one(s))
                          for s in ("#hand", "#actions", "#message"))


# ------------------------------------------------------------------ 18: the keys, the way out

async def test_the_keys_help_fits_and_says_how_to_leave(
        table_app: Callable[..., PlayApp]) -> None:
    app = table_app(READY)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        table = app.screen
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        # every key of the table is on the screen at once, Q with it
        for key, words in [("← →", "move along your tiles"), ("W", "win"),
                           ("S", "skip a claim"), ("H", "show or hide the hints"),
                           ("?", "this help"), ("Q", "leave the table")]:
            assert re.search(rf"█ +{re.escape(key)} +{words}", text), key
        # the arrows scroll the help, they do not close it
        await pilot.press("down", "up")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is table


@pytest.mark.parametrize("where", ["table", "lesson", "setup"])
async def test_the_footer_shows_quit_at_80_columns(where: str, clock: ManualClock,
                                                   table_app: Callable[..., PlayApp]) -> None:
    app = table_app(READY) if where == "table" else PlayApp(PlayConfig(ai_delay=0.0),
                                                            clock=clock)
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        if where == "lesson":
            await pilot.press("l")
            await pilot.pause()
            assert isinstance(app.screen, LessonScreen)
        keys = await footer(app, pilot)
        assert "q Quit" in keys, keys
        assert "? Keys" in keys


# ------------------------------------------------------------------ 19: the coach's notes

async def play_the_lesson_to_its_end(app: PlayApp, pilot) -> None:  # type: ignore[no-untyped-def]
    """Do what the coach asks, step by step (tests/tui/test_learn.py walks the same way)."""
    await settle(app, pilot)
    await pilot.press("l")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, LessonScreen)
    await pilot.press("space")
    screen.cursor = screen.order.index(Tile.NORTH)
    await pilot.press("enter", "enter")
    await pilot.pause()
    await pilot.press("c")
    await pilot.pause()
    screen.cursor = screen.order.index(Tile.WEST)
    await pilot.press("enter", "enter")
    await pilot.pause()
    await pilot.press("space")
    await pilot.press("enter", "enter")     # the 9 Characters, just drawn
    await pilot.pause()
    await pilot.press("w")
    await pilot.pause()
    await pilot.pause()
    assert app.session.game.ended


async def test_the_coach_s_last_note_is_whole_at_80x24(clock: ManualClock) -> None:
    app = PlayApp(PlayConfig(ai_delay=0.0), clock=clock)
    async with app.run_test(size=SMALL) as pilot:
        await play_the_lesson_to_its_end(app, pilot)
        # what the breakdown says, from the standard rules: a Red Dragon pong is 1 tai,
        # base 2; self-drawn, each of the three pays 2 x 2 = 4, 12 in all
        words = " ".join(line.strip("│ ") for line in screen_lines(app))
        for said in ("Where the points came from", "Dragon Pong: 1 tai.",
                     "Snail pays you 4 points.", "Rabbit pays you 4 points.",
                     "Hedgehog pays you 4 points.", "In all you collect 12 points.",
                     "the Tai table and the Rules pages show the rest.",
                     "Press Space to go on."):
            assert said in words, said


async def test_the_guided_hand_s_top_line_keeps_the_rules(clock: ManualClock) -> None:
    app = PlayApp(PlayConfig(ai_delay=0.0), clock=clock)
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        await pilot.press("l")
        await pilot.pause()
        top = screen_lines(app)[0]
        # the lesson's deal: 148 tiles, 53 dealt, the last 15 never drawn: 80 draws left
        assert top.strip() == ("Guided first hand · East round · you sit East · 80 draws "
                               "left · standard rules")


async def test_a_long_hint_scrolls_with_page_down(table_app: Callable[..., PlayApp]) -> None:
    app = table_app(HOPELESS)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        panel = app.screen.query_one("#hints-panel")
        assert panel.max_scroll_y > 0      # more hints than rows under the board
        first = screen_text(app)
        await pilot.press("pagedown")
        await pilot.pause()
        assert panel.scroll_y > 0 and screen_text(app) != first
        assert your_box_in_sight(app)
        await pilot.press("pageup")
        await pilot.pause()
        assert panel.scroll_y == 0


# ------------------------------------------------------------------ 20: in sight, resizing

async def test_your_box_stays_in_sight_when_the_hints_open(
        table_app: Callable[..., PlayApp]) -> None:
    """Your turn with a win on offer: the prompt takes two lines; opening the hints under
    the board must still leave the whole box, buttons and prompt in sight."""
    app = table_app(WIN_ON_THE_DRAW)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert "W: Win" in screen_text(app)
        await pilot.press("h")
        await pilot.pause()
        await pilot.pause()
        assert your_box_in_sight(app), screen_text(app)
        assert "W: Win" in screen_text(app) and "Your turn" in screen_text(app)


async def test_resizing_brings_your_hand_back(table_app: Callable[..., PlayApp]) -> None:
    app = table_app(READY)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for size in [(60, 18), SMALL]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert your_box_in_sight(app), screen_text(app)
        assert screen_lines(app)[0].strip() == ("Hand 1/4 · East round · you sit East · 80 "
                                                "tiles left to draw · standard rules")


async def test_below_80x24_a_notice_says_so_and_the_table_waits(
        table_app: Callable[..., PlayApp]) -> None:
    app = table_app(READY)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        table = app.screen
        events = len(app.session.game.events)
        for size in [(79, 24), (80, 23), (60, 18)]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            text = screen_text(app)
            assert "too small" in text and f"{size[0]}x{size[1]}" in text, text
            assert "80x24" in text
        await pilot.press("enter", "enter")          # no throw made blind
        await pilot.pause()
        assert len(app.session.game.events) == events
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        await pilot.pause()
        assert app.screen is table and "too small" not in screen_text(app)
        assert your_box_in_sight(app)


async def test_the_narrow_notice_hides_no_seat_and_goes_when_widened(
        table_app: Callable[..., PlayApp]) -> None:
    app = table_app(READY)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        for seat in ("#left", "#top", "#right"):
            assert on_screen(app, screen.query_one(seat, Static)), seat
        assert "H shows the hints" in screen_text(app)
        await pilot.resize_terminal(130, 42)
        await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
        assert "H shows the hints" not in text and "narrow" not in text
        # wide enough: the hints that were hidden for want of room are back
        assert not screen.query_one("#hints-panel").has_class("hidden")
        assert "Throw" in text
