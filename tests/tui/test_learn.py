"""The learning pages and the guided first hand in the terminal (Textual's Pilot): R opens
the pages from the setup screen and from the table (the hand waits and goes on after), the
pages follow the table's rules, and the lesson is played to its end by doing what the
coach asks, refusing anything else."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.widgets import Static

from sgmahjong.game import Chow, Discard, Pong, Won
from sgmahjong.tiles import Seat, Tile
from sgmahjong.tui.app import PlayApp
from sgmahjong.tui.clock import ManualClock
from sgmahjong.tui.lesson import LessonScreen
from sgmahjong.tui.pages import PagesScreen
from sgmahjong.tui.session import PlayConfig
from sgmahjong.tui.setup import SetupScreen
from sgmahjong.tui.table import TableScreen

from .conftest import settle
from .test_play import PAIR_OF_9S, READY, SIZE, offer_was_skipped

pytestmark = pytest.mark.asyncio


def text_of(app: PlayApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def page_text(app: PlayApp) -> str:
    """The page as the terminal draws it (the widget's rendered lines)."""
    widget = app.screen.query_one("#page", Static)
    return "\n".join(strip.text for strip in widget.render_lines(widget.region.reset_offset))


async def test_pages_from_the_setup_screen(clock: ManualClock) -> None:
    app = PlayApp(PlayConfig(rules="garden", ai_delay=0.0), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PagesScreen)
        assert screen.rules.name == "garden" and screen.page_id == "how-to-play"
        assert "garden rules" in text_of(app, "#tabs")
        await pilot.press("2")
        await pilot.pause()
        assert screen.page_id == "rules"
        text = page_text(app)
        assert "Only the winner scores" in text and "The round wind stays East." in text
        await pilot.press("right")
        await pilot.pause()
        assert screen.page_id == "tai"
        await pilot.press("4")
        await pilot.pause()
        assert screen.page_id == "tiles" and "East Wind" in page_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)


async def test_a_house_rule_file_s_pages(clock: ManualClock, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "ours.toml"
    path.write_text('extends = "garden"\nname = "our table"\n[scoring]\nminimum_tai = 2\n'
                    "[wall]\nend_tiles = 20\n", encoding="utf-8")
    app = PlayApp(PlayConfig(rules=str(path), ai_delay=0.0), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("r", "2")
        await pilot.pause()
        text = page_text(app)
        assert "rules of this table: our table" in text
        assert "You need at least 2 tai to win." in text
        assert "When only 20 tiles are left" in text


async def test_casual_pages_have_no_tai_table(clock: ManualClock) -> None:
    app = PlayApp(PlayConfig(rules="casual", ai_delay=0.0), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PagesScreen)
        assert [p.id for p in screen.pages] == ["how-to-play", "rules", "tiles", "tips"]
        assert "Tai table" not in text_of(app, "#tabs")


async def test_pages_during_play_keep_the_hand(table_app: Callable[..., PlayApp]) -> None:
    app = table_app(READY)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        before = len(app.session.game.events)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, PagesScreen)
        assert app.screen.rules == app.session.rules
        # the lesson is not offered over a game in progress
        assert app.screen.check_action("lesson", ()) is False
        await pilot.press("2")
        await pilot.pause()
        assert "You need at least 1 tai to win." in page_text(app)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert len(app.session.game.events) == before
        # the hand goes on: throw the drawn South Wind, then win on the 5 Circles
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert Discard(Tile.SOUTH) not in app.session.human_legal()
        await pilot.press("w")
        await pilot.pause()
        won = [e for e in app.session.hands[-1].events if isinstance(e, Won)]
        assert [w.seat for w in won] == [Seat.EAST]


async def test_a_claim_timer_waits_while_the_pages_are_read(
        table_app: Callable[..., PlayApp], clock: ManualClock) -> None:
    app = table_app(PAIR_OF_9S, claim_timer=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert Pong() in app.session.human_legal()
        clock.advance(2)
        await pilot.press("r")
        await pilot.pause()
        clock.advance(60)             # reading: the offer stays open
        await pilot.pause()
        assert Pong() in app.session.human_legal()
        await pilot.press("escape")
        await pilot.pause()
        clock.advance(2.9)            # the timer starts again in full on the way back
        await pilot.pause()
        assert Pong() in app.session.human_legal()
        clock.advance(0.1)
        await pilot.pause()
        assert offer_was_skipped(app)


async def coach_says(app: PlayApp) -> str:
    return text_of(app, "#hints")


async def test_the_guided_first_hand(clock: ManualClock) -> None:
    app = PlayApp(PlayConfig(ai_delay=0.0), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("l")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LessonScreen)
        game = app.session.game
        assert "Welcome to your first hand" in await coach_says(app)
        # a throw before the coach's note is read changes nothing
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert game.view(Seat.EAST).seats[Seat.EAST].discards == ()
        assert "Read the coach's note first" in text_of(app, "#message")
        await pilot.press("space")
        await pilot.pause()
        assert "throw the North Wind" in await coach_says(app)
        # the wrong tile is refused, the North Wind is thrown
        await pilot.press("home")
        screen.cursor = 0
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert game.view(Seat.EAST).seats[Seat.EAST].discards == ()
        assert "the coach asks you to throw the North Wind" in text_of(app, "#message")
        screen.cursor = screen.order.index(Tile.NORTH)
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert game.view(Seat.EAST).seats[Seat.EAST].discards == (Tile.NORTH,)
        # the chow from Hedgehog, on the left: skipping is refused
        assert "Claim a chow" in await coach_says(app)
        assert Chow(Tile.P3) in app.session.human_legal()
        await pilot.press("s")
        await pilot.pause()
        assert "chow the 3 Circles" in text_of(app, "#message")
        await pilot.press("c")
        await pilot.pause()
        me = game.view(Seat.EAST).seats[Seat.EAST]
        assert [m.meld.tiles for m in me.melds] == [(Tile.P3, Tile.P4, Tile.P5)]
        screen.cursor = screen.order.index(Tile.WEST)
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert "Your draw" in await coach_says(app)
        assert game.view(Seat.EAST).last_drawn == Tile.M9
        await pilot.press("space")
        await pilot.pause()
        # the drawn tile sits under the cursor at the right end
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert "Win" in await coach_says(app)
        await pilot.press("w")
        await pilot.pause()
        assert game.ended
        coach = await coach_says(app)
        # standard: the Red Dragon pong is 1 tai; base 2, each of three pays 2 x 2
        assert "You won self-drawn on 5 Bamboo: 1 tai." in coach
        assert "Hedgehog pays you 4 points." in coach
        assert "In all you collect 12 points." in coach
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)


async def test_the_lesson_on_a_small_terminal_and_the_way_out(clock: ManualClock) -> None:
    app = PlayApp(PlayConfig(ai_delay=0.0), clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LessonScreen)
        # the coach stays in sight under the board, its whole first step with it
        coach = app.screen.query_one("#hints-panel")
        assert not coach.has_class("hidden") and coach.region.height > 0
        assert "Q twice leaves the lesson." in text_of(app, "#hints")
        assert coach.region.height > 8   # the table's own narrow panel stops at 8 rows
        await pilot.press("q", "q")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
