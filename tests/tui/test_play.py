"""The table driven through the keyboard (Textual's Pilot): wins, a drawn hand, every claim
key, the hints panel, the keys dialog, the end-of-hand breakdown and the saved record."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import Static

from sgmahjong.game import Chow, Claimed, Discard, Discarded, KongDeclared, Pong, Win, Won
from sgmahjong.tiles import Seat, Tile
from sgmahjong.tui.app import PlayApp
from sgmahjong.tui.clock import ManualClock
from sgmahjong.tui.dialogs import HandOverScreen, HelpScreen
from sgmahjong.tui.table import TableScreen

from .walls import build_wall

pytestmark = pytest.mark.asyncio
SIZE = (130, 42)

# East (you) is one tile from a dragon-pong hand; the passive opponents throw 1s 5s 9s.
READY = build_wall(east="123m456m789m777z5p" + "2z", draws="1s5s9s5p")
READY_FOR_SOUTH = build_wall(east="123m456m789m777z5p" + "2z", draws="5p")
PAIR_OF_9S = build_wall(east="123m456m789m99s1p2p" + "7z", draws="9s1z2z")
CHOWS = build_wall(east="123m456m789m3s4s6s7s" + "7z", draws="1z2z5s")
THREE_9S = build_wall(east="123m456m789m999s1p" + "7z", draws="9s")
TWO_KONGS = build_wall(east="1111m2222p345s67s" + "8s")
HOPELESS = build_wall(east="1m4m7m2p5p8p3s6s9s1z2z3z4z" + "5z")


def text_of(app: PlayApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def claimed(app: PlayApp) -> list[Claimed]:
    assert app.session is not None
    return [e for e in app.session.game.events if isinstance(e, Claimed)]


async def throw_drawn(pilot) -> None:  # type: ignore[no-untyped-def]
    """Enter picks the tile under the cursor (the drawn tile), Enter again throws it."""
    await pilot.press("enter", "enter")
    await pilot.pause()


async def test_self_drawn_win_through_the_keyboard(table_app: Callable[..., PlayApp]) -> None:
    app = table_app(READY)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        legal = app.session.human_legal()
        assert Discard(Tile.SOUTH) in legal
        await throw_drawn(pilot)
        assert Win() in app.session.human_legal()
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)
        won = [e for e in app.screen.game.events if isinstance(e, Won)]
        assert [(w.seat, w.discarder) for w in won] == [(Seat.EAST, None)]


async def test_win_on_a_discard_and_the_breakdown(table_app: Callable[..., PlayApp]) -> None:
    app = table_app(READY_FOR_SOUTH)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        assert app.session.human_legal() == [Win(), *app.session.human_legal()[1:]]
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)
        text = text_of(app, "#breakdown")
        assert "on Hedgehog" not in text  # opponents are named by level
        assert "You won with 5 Circles, on Passive's discard." in text
        assert "Dragon Pong" in text and "Total: " in text and "the cap is 5" in text
        assert "Passive pays you 4 points" in text
        assert "This hand: You +" in text
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.session.match.state.hands_played == 1


async def test_drawn_hand(table_app: Callable[..., PlayApp]) -> None:
    app = table_app(HOPELESS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(200):
            if isinstance(app.screen, HandOverScreen):
                break
            legal = app.session.human_legal()
            if any(isinstance(a, Discard) for a in legal):
                await throw_drawn(pilot)
            else:
                await pilot.press("s")
                await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)
        text = text_of(app, "#breakdown")
        assert "Drawn hand" in text and "wall" in text


async def test_pong_key(table_app: Callable[..., PlayApp]) -> None:
    app = table_app(PAIR_OF_9S)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        assert Pong() in app.session.human_legal()
        assert "P: Pong" in " ".join(str(b.label) for b in app.screen.query("Button"))
        await pilot.press("p")
        await pilot.pause()
        assert [(c.seat, c.kind, c.tile) for c in claimed(app)] == [
            (Seat.EAST, "pong", Tile.S9)]
        assert any(isinstance(a, Discard) for a in app.session.human_legal())


def offer_was_skipped(app: PlayApp) -> bool:
    """Nothing was claimed and play came round to East again, with a drawn tile."""
    view = app.session.view()
    return claimed(app) == [] and view.turn == Seat.EAST and view.last_drawn is not None


async def test_skip_key(table_app: Callable[..., PlayApp]) -> None:
    app = table_app(PAIR_OF_9S)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        await pilot.press("s")
        await pilot.pause()
        assert offer_was_skipped(app)


async def test_claim_offer_waits_without_a_timer(table_app: Callable[..., PlayApp],
                                                 clock: ManualClock) -> None:
    app = table_app(PAIR_OF_9S)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        clock.advance(600)
        await pilot.pause()
        assert Pong() in app.session.human_legal()  # still offered: no timer by default
        assert clock.pending == 0


async def test_claim_timer_skips_an_unanswered_offer(
        table_app: Callable[..., PlayApp], clock: ManualClock) -> None:
    app = table_app(PAIR_OF_9S, claim_timer=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        assert Pong() in app.session.human_legal()
        clock.advance(2.9)
        await pilot.pause()
        assert Pong() in app.session.human_legal()  # not yet
        clock.advance(0.1)
        await pilot.pause()
        assert offer_was_skipped(app)


async def test_an_answered_offer_stops_the_claim_timer(
        table_app: Callable[..., PlayApp], clock: ManualClock) -> None:
    app = table_app(PAIR_OF_9S, claim_timer=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        await pilot.press("p")
        await pilot.pause()
        assert [(c.seat, c.kind) for c in claimed(app)] == [(Seat.EAST, "pong")]
        assert clock.pending == 0
        clock.advance(10)
        await pilot.pause()
        assert any(isinstance(a, Discard) for a in app.session.human_legal())


async def test_with_paced_opponents_your_turn_starts_on_the_drawn_tile(
        table_app: Callable[..., PlayApp], clock: ManualClock) -> None:
    """The opponents pause 0.35 s after each discard; the engine deals your draw in the
    same step as the discard before it. From the moment you can throw, the cursor is on
    the tile you drew, and Enter Enter throws that tile."""
    app = table_app(READY, ai_delay=0.35)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)               # East throws the South wind
        steps = 0
        while not any(isinstance(a, Discard) for a in app.session.human_legal()):
            assert clock.next_delay() == pytest.approx(0.35)
            clock.advance(0.35)
            await pilot.pause()
            steps += 1
        assert steps == 2                      # after South's and West's discards
        view = app.session.view()
        assert view.last_drawn == Tile.P5      # the fourth live draw is East's
        screen = app.screen
        assert screen.order[screen.cursor] == Tile.P5 and screen.apart
        assert "Your turn" in text_of(app, "#message")
        await throw_drawn(pilot)
        thrown = [e.tile for e in app.session.game.events
                  if isinstance(e, Discarded) and e.seat == Seat.EAST]
        assert thrown == [Tile.SOUTH, Tile.P5]


async def test_chow_key_asks_which_chow(table_app: Callable[..., PlayApp]) -> None:
    app = table_app(CHOWS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        chows = [a for a in app.session.human_legal() if isinstance(a, Chow)]
        assert len(chows) == 3
        await pilot.press("c")
        await pilot.pause()
        assert "Choose with 1-4" in text_of(app, "#message")
        await pilot.press("2")
        await pilot.pause()
        assert [(c.kind, c.tile, c.low) for c in claimed(app)] == [
            ("chow", Tile.S5, Tile.S4)]


async def test_kong_key_on_a_discard(table_app: Callable[..., PlayApp]) -> None:
    app = table_app(THREE_9S)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        await pilot.press("k")
        await pilot.pause()
        assert [(c.kind, c.tile) for c in claimed(app)] == [("kong", Tile.S9)]


async def test_kong_key_chooses_among_concealed_kongs(
        table_app: Callable[..., PlayApp]) -> None:
    app = table_app(TWO_KONGS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("k")
        await pilot.pause()
        buttons = " ".join(str(b.label) for b in app.screen.query("Button"))
        assert "1: Kong 1萬" in buttons and "2: Kong 2筒" in buttons
        await pilot.press("2")
        await pilot.pause()
        kongs = [e for e in app.session.game.events if isinstance(e, KongDeclared)]
        assert [(k.tile, k.kind) for k in kongs] == [(Tile.P2, "concealed")]


async def test_claim_keys_do_nothing_when_not_legal(table_app: Callable[..., PlayApp]) -> None:
    app = table_app(READY)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        before = len(app.session.game.events)
        await pilot.press("p", "c", "w", "s")
        await pilot.pause()
        assert len(app.session.game.events) == before
        assert not app.screen.query("Button")  # no claim button appears


async def test_clicking_a_tile_picks_then_throws(table_app: Callable[..., PlayApp]) -> None:
    app = table_app(READY)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.click("#tile-0")
        assert app.screen.selected == 0
        await pilot.click("#tile-0")
        await pilot.pause()
        thrown = [e for e in app.session.game.events if type(e).__name__ == "Discarded"]
        assert thrown[0].seat == Seat.EAST and thrown[0].tile == Tile.M1


async def test_arrows_move_and_hints_toggle(table_app: Callable[..., PlayApp]) -> None:
    app = table_app(READY)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.cursor == 13
        await pilot.press("left", "left")
        assert screen.cursor == 11
        assert "Throw" in text_of(app, "#hints")
        hints = screen.query_one("#hints-panel")
        await pilot.press("h")
        assert not hints.display or hints.has_class("hidden")
        await pilot.press("h")
        assert not hints.has_class("hidden")
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("x")
        await pilot.pause()
        assert app.screen is screen


async def test_every_game_is_saved_as_a_record(table_app: Callable[..., PlayApp],
                                               data_dir: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    app = table_app(READY)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        await pilot.press("w")
        await pilot.pause()
    files = list((data_dir / "records").glob("*.jsonl"))
    assert len(files) == 1
    lines = files[0].read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["format"] == "sgmahjong-record"
    assert header["players"] == ["you", "passive", "passive", "passive"]
    assert json.loads(lines[1])["type"] == "hand-started"
    assert any(json.loads(x)["type"] == "won" for x in lines[2:])
    # `sgmahjong replay FILE` can show the saved game.
    from sgmahjong.cli import main

    assert main(["replay", str(files[0])]) == 0
    assert "wins" in capsys.readouterr().out


def _visible_tiles(app: PlayApp) -> int:
    """How many of the hand's tiles a person can see (and click) on the screen."""
    from sgmahjong.tui.widgets import TileWidget
    seen = 0
    for w in app.screen.query(TileWidget):
        if not w.display or w.region.width == 0:
            continue
        x, y = w.region.x + w.region.width // 2, w.region.y + w.region.height // 2
        if 0 <= x < app.size.width and 0 <= y < app.size.height:
            hit, _ = app.screen.get_widget_at(x, y)
            if hit is w or w in hit.ancestors:
                seen += 1
    return seen


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_a_narrow_terminal_shows_the_whole_hand_with_the_hints_open(
        table_app: Callable[..., PlayApp], size: tuple[int, int]) -> None:
    app = table_app(READY)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert _visible_tiles(app) == 14          # East's 14 tiles, hints hidden at first
        await pilot.press("h")
        await pilot.pause()
        assert not app.screen.query_one("#hints-panel").has_class("hidden")
        assert "Throw" in text_of(app, "#hints")
        assert _visible_tiles(app) == 14


async def test_a_key_just_after_the_hand_ends_does_not_skip_the_breakdown(
        table_app: Callable[..., PlayApp], clock: ManualClock) -> None:
    """With paced opponents, the breakdown takes Enter only 0.6 s after it opens (a key
    pressed to throw just as the hand ended must not close it unread)."""
    app = table_app(READY, ai_delay=0.35)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        while Win() not in app.session.human_legal():
            clock.advance(0.35)
            await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)   # too soon
        clock.advance(0.6)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.session.match.state.hands_played == 1
