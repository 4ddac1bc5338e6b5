"""A claim key when the claim is not possible says why, in the line under your hand (as the
guided hand says "Not yet: …"); with two claims on offer the table says which is better, and
the hints do not give two claims the same line twice. At 80x24, read from the screen."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.widgets import Static

from sgmahjong.agents import hints as engine
from sgmahjong.agents.levels import Owl
from sgmahjong.game import Kong, Pass, Pong, Win
from sgmahjong.tiles import Tile
from sgmahjong.tui.app import PlayApp
from sgmahjong.tui.clock import ManualClock
from sgmahjong.tui.lesson import LessonScreen
from sgmahjong.tui.session import PlayConfig

from .conftest import settle
from .screen import screen_text
from .test_play import PAIR_OF_9S, READY, THREE_9S, throw_drawn
from .walls import build_wall

pytestmark = pytest.mark.asyncio
SMALL = (80, 24)

# East waits on 1 Circles or 9 Bamboo (two pairs, a Red Dragon pong: 1 tai); South draws the
# 9 Bamboo and throws it: East may win on it or pong it.
WIN_OR_PONG = build_wall(east="123m456m777z99s11p" + "2z", draws="9s")


def message(app: PlayApp) -> str:
    return str(app.screen.query_one("#message", Static).render())


def said(app: PlayApp) -> str:
    """The screen's words with the frames and line breaks taken out."""
    return " ".join(line.strip("│ ") for line in screen_text(app).splitlines())


async def press(pilot, key: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press(key)
    await pilot.pause()


async def test_on_your_turn_each_claim_key_says_why_not(
        table_app: Callable[..., PlayApp]) -> None:
    """East's first turn: 1-9 Characters, 5 Circles, three Red Dragons and the South Wind:
    no complete hand, no four of a kind, and no tile on offer to pong, chow or skip."""
    app = table_app(READY)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        before = len(app.session.game.events)
        for key, why in [
            ("w", "No win: with South Wind your tiles do not make four sets and a pair."),
            ("p", "Nothing to pong: it is your turn."),
            ("c", "Nothing to chow: it is your turn."),
            ("k", "No kong: you hold no four of a kind, and no pong to add the fourth "
                  "tile to."),
            ("s", "Nothing to skip: it is your turn, throw a tile"),
        ]:
            await press(pilot, key)
            assert why in message(app), key
            assert why in said(app), key           # on the screen, not only in the widget
        assert len(app.session.game.events) == before   # and nothing was played


async def test_on_a_discard_each_claim_key_says_why_not(
        table_app: Callable[..., PlayApp]) -> None:
    """South (Passive, on your right) throws the 9 Bamboo; you hold two of them: a pong
    only. No chow (only from the left, Passive 3), no kong (three needed), no win."""
    app = table_app(PAIR_OF_9S)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        assert app.session.human_legal() == [Pong(), Pass()]
        for key, why in [
            ("c", "No chow: you chow only from the player on your left (Passive 3); "
                  "Passive threw the 9 Bamboo."),
            ("k", "No kong: you hold two 9 Bamboo; a kong needs three in your hand."),
            ("w", "No win: with 9 Bamboo your tiles do not make four sets and a pair."),
        ]:
            await press(pilot, key)
            assert why in message(app), key
            assert why in said(app), key
        assert app.session.human_legal() == [Pong(), Pass()]   # the offer still stands


async def test_the_coach_says_what_it_asks_for(clock: ManualClock) -> None:
    app = PlayApp(PlayConfig(ai_delay=0.0), clock=clock)
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        await press(pilot, "l")
        screen = app.screen
        assert isinstance(screen, LessonScreen)
        await press(pilot, "space")
        screen.cursor = screen.order.index(Tile.NORTH)
        await pilot.press("enter", "enter")
        await pilot.pause()
        for key in ("p", "w", "k"):      # none possible: Hedgehog's 3 Circles is a chow
            await press(pilot, key)
            assert "Not yet: the coach asks you to chow the 3 Circles (C)." in said(app)


async def test_a_win_and_a_pong_on_offer_say_the_win_is_better(
        table_app: Callable[..., PlayApp]) -> None:
    app = table_app(WIN_OR_PONG)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        assert app.session.human_legal() == [Win(), Pong(), Pass()]
        words = said(app)
        assert "Passive threw 9 Bamboo: W win, P pong or S skip." in words
        assert "W is the better claim: a win scores now, a pong only brings you closer." \
            in words
        await press(pilot, "h")
        hints = str(app.screen.query_one("#hints", Static).render())
        assert "press W!" in hints
        assert "P Pong → win instead (W)" in hints
        assert "skip:" not in hints and "take" not in hints   # no verdict against the win


async def test_a_pong_into_no_tai_is_skipped_and_the_kong_taken_for_its_payout(
        table_app: Callable[..., PlayApp]) -> None:
    """Three 9 Bamboo in hand, a fourth thrown: a pong or a kong, and no tai left either
    way under standard (1 tai needed). The pong is no choice (it could not win); the kong
    is the Owl's choice all the same, for its instant payout (2 points from each player),
    and the hint says so with the expected points of taking and skipping."""
    app = table_app(THREE_9S)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await press(pilot, "h")
        await throw_drawn(pilot)
        legal = app.session.human_legal()
        assert Pong() in legal and Kong(Tile.S9, "claimed") in legal
        view = app.session.view()
        hints = str(app.screen.query_one("#hints", Static).render())
        assert "P Pong → skip: the hand would have no tai and could not win." in hints
        kong = next(h for h in engine.claim_hints(view, legal) if isinstance(h.action, Kong))
        assert kong.take and kong.expected is not None and kong.skip_expected is not None
        assert "K Kong → take" in hints
        assert (f"Expected points: {kong.expected:.1f} points taking it, "
                f"{kong.skip_expected:.1f} points skipping.") in hints
        assert Owl(0).act(view, legal) == Kong(Tile.S9, "claimed")
