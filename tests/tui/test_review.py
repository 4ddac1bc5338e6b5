"""The review at the table (Textual's Pilot): after each hand the dialog says what the
player could have done better, worked out in a worker thread while the dialog is already
up; after the match, a summary of the whole match."""

from __future__ import annotations

import dataclasses
import re
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.text import Text

from sgmahjong.agents.levels import Owl
from sgmahjong.agents.review import match_summary, review_hand, review_record
from sgmahjong.game import Discard, Discarded, Win
from sgmahjong.record import read_record, replay_record
from sgmahjong.rules import load_rules
from sgmahjong.tiles import Seat, Tile
from sgmahjong.tui import review as review_text
from sgmahjong.tui.app import PlayApp
from sgmahjong.tui.dialogs import HandOverScreen, MatchOverScreen
from sgmahjong.tui.session import Session
from sgmahjong.tui.table import TableScreen

from .test_play import READY, SIZE, text_of, throw_drawn
from .walls import build_wall

pytestmark = pytest.mark.asyncio
# North waits on 5 Circles with a Red Dragon pong; East (passive) draws 5 Circles and throws it
NORTH_WINS_ON_EAST = build_wall(north="123m456m789m777z5p", draws="5p")


def plain(markup: str) -> str:
    return Text.from_markup(markup).plain


async def finish_as_owl(app: PlayApp, pilot) -> None:  # type: ignore[no-untyped-def]
    """Play every decision of the player as Owl would until the hand ends."""
    owl = Owl(0)
    for _ in range(300):
        if isinstance(app.screen, HandOverScreen):
            return
        s = app.session
        assert s is not None
        legal = s.human_legal()
        if legal:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            screen.act(owl.act(s.view(), legal))
        await pilot.pause()
    raise AssertionError("the hand did not end")


async def test_the_hand_end_names_the_costly_discard_and_its_cost(
        table_app: Callable[..., PlayApp]) -> None:
    # East holds 1-2-3, 4-5-6 and 7-8-9 Characters, three Red Dragons, 5 Circles and the
    # South Wind: throwing either single leaves it ready (waiting on the other); throwing
    # 1 Characters breaks a run and leaves it one tile from ready. The player throws
    # 1 Characters, then plays as Owl to the end.
    app = table_app(READY)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        assert screen.order[0] == Tile.M1 and screen.cursor == 13
        await pilot.press("right", "enter", "enter")   # the cursor wraps to 1 Characters
        await pilot.pause()
        assert app.session is not None
        assert any(isinstance(e, Discarded) and e.seat == Seat.EAST and e.tile == Tile.M1
                   for e in app.session.game.events)
        await finish_as_owl(app, pilot)
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = text_of(app, "#review")
        # the engine's review of the hand just played, for East
        session = app.session
        assert session is not None
        events = session.game.events if session.in_hand else session.hands[-1].events
        review = review_hand(list(events), Seat.EAST, session.rules)
    lines = text.splitlines()
    # its mark, its cost in expected points and the hand's agreement with Owl, as the
    # engine's review says them
    [d] = review.costly
    assert d.severity in ("mistake", "serious mistake")
    assert f"That was a {d.severity}: about {d.cost:.1f} points lost in expectation." \
        in " ".join(x.strip() for x in lines)
    assert lines[-1].strip() == review.tally
    assert lines[0] == "What could you have done better?"
    # the costliest decision first, its tiles drawn (yours, then Owl's), then its sentence;
    # South Wind and 5 Circles both leave the hand ready, whichever Owl prefers
    owls = re.match(r"  1\. 1萬 → (\S+)  On your 1st turn you threw 1 Characters; Owl would "
                    r"have thrown (South Wind|5 Circles): 1 Characters left you 1 tile away "
                    r"from ready, \2 ready", lines[1])
    assert owls is not None, lines[1]
    assert owls.group(1) == {"South Wind": "S風", "5 Circles": "5筒"}[owls.group(2)]
    # the player followed Owl everywhere else: this is the one difference
    assert " as Owl would (" in lines[-1] and "; of the other 1: 1 " in lines[-1]
    assert lines[-1].endswith(" points lost in expectation.")


async def test_the_review_is_worked_out_while_the_dialog_is_up(
        table_app: Callable[..., PlayApp], monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    seen: list[tuple[Seat, int]] = []
    real = Session.review_hand

    def slow(self: Session, events, seat, names=None):  # type: ignore[no-untyped-def]
        seen.append((seat, len(events)))
        assert release.wait(30)
        return real(self, events, seat, names)

    monkeypatch.setattr(Session, "review_hand", slow)
    app = table_app(READY)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)
        # the dialog is up, the scores shown, the review still coming
        assert "Passive" in text_of(app, "#breakdown")
        assert text_of(app, "#review").splitlines() == [
            "What could you have done better?", plain(review_text.WORKING)]
        assert app.session is not None
        game = app.screen.game
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = text_of(app, "#review")
    assert seen == [(Seat.EAST, len(game.events))]
    # the review of East (the player) in the hand just played, in place of the line
    expected = review_hand(game.events, Seat.EAST, game.rules,
                           names=["You", "Passive", "Passive 2", "Passive 3"])
    assert expected.decisions == 2        # a throw, then the self-drawn win
    assert text == plain("\n".join(review_text.review_lines(expected)))


async def test_the_match_end_sums_up_the_review_of_every_hand(
        table_app: Callable[..., PlayApp], data_dir: Path) -> None:
    # a quick game of two hands, both won by the player: sitting East, a self-drawn win;
    # then, the deal passed and the player sitting North, a win on East's first discard
    standard = load_rules("standard")
    two = dataclasses.replace(standard, match=dataclasses.replace(standard.match,
                                                                  quick_game_hands=2))
    app = table_app(READY, rules=two, walls=[READY, NORTH_WINS_ON_EAST], hints=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        ends = 0
        for _ in range(200):
            if isinstance(app.screen, MatchOverScreen):
                break
            if isinstance(app.screen, HandOverScreen):
                await app.workers.wait_for_complete()
                await pilot.pause()
                # each hand's dialog shows that hand's review
                assert text_of(app, "#review").startswith("What could you have done better?")
                assert review_text.WORKING not in text_of(app, "#review")
                ends += 1
                await pilot.press("enter")
            else:
                assert app.session is not None
                legal = app.session.human_legal()
                if Win() in legal:
                    await pilot.press("w")
                elif any(isinstance(a, Discard) for a in legal):
                    await pilot.press("enter", "enter")    # the drawn tile
            await pilot.pause()
        assert isinstance(app.screen, MatchOverScreen) and ends == 2, (
            ends, app.session and app.session.human_legal(),
            app.session and app.session.match.state)
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = text_of(app, "#match-review")
        saved = text_of(app, "#standings")
    # the engine's account: the saved record replayed, the player (0) reviewed hand by hand
    [path] = list((data_dir / "records").glob("*.jsonl"))
    record = read_record(path)
    assert len(replay_record(record)) == 2
    reviews = [(n, r) for n, (_, seat, r) in enumerate(review_record(record, 0))]
    assert [r.seat for _, r in reviews] == [Seat.EAST, Seat.NORTH]
    # the drawn tile thrown, then the win; the win on East's discard
    assert [r.decisions for _, r in reviews] == [2, 1]
    lines = text.splitlines()
    assert lines[0] == "Your play this match, against Owl"
    assert lines[1].startswith("  Over 2 hands: 3 decisions")
    assert [x.strip() for x in lines[1:]] == match_summary(reviews)
    assert f"sgmahjong replay --review --seat 0 \\\n  {path}" in saved


async def test_a_review_that_fails_says_so_and_the_table_goes_on(
        table_app: Callable[..., PlayApp], monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: Session, events, seat, names=None):  # type: ignore[no-untyped-def]
        raise ValueError("no [luck]")

    monkeypatch.setattr(Session, "review_hand", broken)
    app = table_app(READY)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        await pilot.press("w")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)
        assert text_of(app, "#review").splitlines() == [
            "What could you have done better?", "No review this time (ValueError: no [luck])."]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.session is not None and app.session.match.state.hands_played == 1
