"""What the table and its dialogs say, checked against the engine's own events and figures:
who dealt in (East is seat 0), the tile on offer (tile 0 is the 1 Characters), the tiles
left to draw, who is to play once a hand or the match is over, where the game was saved,
tile names in sentences and the grammar of the payments."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from textual.widgets import Static

from sgmahjong.game import Discard, InstantPayout, Pong, Settled, Win, Won
from sgmahjong.tiles import Seat, Tile
from sgmahjong.tui.app import PlayApp
from sgmahjong.tui.dialogs import HandOverScreen, MatchOverScreen
from sgmahjong.tui.table import TableScreen

from .test_play import HOPELESS, READY, SIZE, throw_drawn
from .walls import build_wall

# South waits on the 5 Circles with a dragon pong; East (you) draws it and throws it.
SOUTH_WINS_ON_EASTS_5P = build_wall(east="1m4m7m2p8p3s6s9s1z2z3z4z4z" + "5p",
                                    south="123m456m789m777z5p")
# East holds a pair of 1 Characters; South draws the third and throws it.
ONE_CHARACTERS_OFFERED = build_wall(east="11m456m789m1p2p3s5s9s" + "7z", draws="1m")
NOTATION = re.compile(r"\b\d[mpszfga]\b|\b[1-9]z\b")


def text_of(app: PlayApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def table_texts(screen: TableScreen) -> str:
    return "\n".join(str(screen.query_one(f"#{w}", Static).render())
                     for w in ("status", "left", "top", "right", "center", "me-info",
                               "message"))


@pytest.mark.asyncio
async def test_east_dealing_in_is_named_as_the_discarder(
        table_app: Callable[..., PlayApp]) -> None:
    """East is seat 0: the breakdown must still say the win was on East's discard."""
    app = table_app(SOUTH_WINS_ON_EASTS_5P, opponents=("eager", "passive", "passive"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.session.human_seat == Seat.EAST
        await throw_drawn(pilot)                      # the drawn 5 Circles
        assert isinstance(app.screen, HandOverScreen)
        won = [e for e in app.screen.game.events if isinstance(e, Won)]
        assert [(w.seat, w.discarder, w.tile) for w in won] == [
            (Seat.SOUTH, Seat.EAST, Tile.P5)]
        settled = next(e for e in app.screen.game.events if isinstance(e, Settled))
        mine = [p for p in settled.payments if p.payer == Seat.EAST]
        assert len(mine) == 1 and mine[0].payee == Seat.SOUTH
        text = text_of(app, "#breakdown")
        # South wins on the first discard of the hand: an earthly hand
        assert "Eager won with 5 Circles, on your discard (earthly hand)." in text
        assert "on Eager's discard" not in text
        assert f"You pay Eager {mine[0].amount} points" in text
        assert "You pays" not in text


@pytest.mark.asyncio
async def test_an_offer_of_the_1_characters_names_the_tile(
        table_app: Callable[..., PlayApp]) -> None:
    """Tile 0 (the 1 Characters) on offer: the prompt names it, as any other tile."""
    app = table_app(ONE_CHARACTERS_OFFERED)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        assert Pong() in app.session.human_legal()
        assert app.session.view().window_tile == Tile.M1
        assert text_of(app, "#message") == "Passive threw 1 Characters: P pong or S skip."


@pytest.mark.asyncio
async def test_the_header_counts_the_tiles_left_to_draw(
        table_app: Callable[..., PlayApp]) -> None:
    """148 tiles, 53 dealt (no bonus tile among them), the last 15 never drawn: 80 left to
    draw at the start; at a drawn hand none, while the breakdown speaks of the last 15."""
    app = table_app(HOPELESS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.session.view().live_remaining == 80
        assert " · 80 tiles left to draw · " in text_of(app, "#status")
        table = app.screen
        for _ in range(200):
            if isinstance(app.screen, HandOverScreen):
                break
            if any(isinstance(a, Discard) for a in app.session.human_legal()):
                await throw_drawn(pilot)
            else:
                await pilot.press("s")
                await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)
        assert app.screen.game.view(Seat.EAST).wall_remaining == 15
        status = str(table.query_one("#status", Static).render())
        assert " · 0 tiles left to draw · " in status
        assert "last 15 tiles" in text_of(app, "#breakdown")


def board_scores(screen: TableScreen) -> dict[str, int]:
    """Each seat box's name and score, as the table shows them."""
    out = {}
    for w in ("left", "top", "right", "me-info"):
        first = str(screen.query_one(f"#{w}", Static).render()).split("\n")[0]
        m = re.match(r"(.+?)(?:  to play )? · .* · ([+-]\d+) · \d+ tiles", first)
        assert m, first
        out[m.group(1)] = int(m.group(2))
    return out


def ready_at(seat: str, draws: str) -> list[Tile]:
    """A wall on which the player at ``seat`` is one tile (the 5 Circles) from a dragon-pong
    hand and draws it on their first turn."""
    return build_wall(**{seat: "123m456m789m777z5p"}, draws=draws)  # type: ignore[arg-type]


# The deal passes after every hand here, so you sit East, North, West, then South.
FOUR_WINS = [READY, ready_at("north", "1s5s5p"), ready_at("west", "1s5p"),
             ready_at("south", "5p")]


@pytest.mark.parametrize("size, status", [
    ((130, 42), "Singapore Mahjong · Hand 1 of 4 · East round · you sit East · 80 tiles left "
                "to draw · standard rules"),
    ((80, 24), "Hand 1/4 · East round · you sit East · 80 tiles left to draw · standard "
               "rules"),
])
@pytest.mark.asyncio
async def test_the_header_is_whole_at_any_width(table_app: Callable[..., PlayApp],
                                                size: tuple[int, int], status: str) -> None:
    app = table_app(READY)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert text_of(app, "#status") == status
        bar = app.screen.query_one("#status", Static)
        assert bar.region.width == size[0] and len(status) <= size[0] - 2


@pytest.mark.asyncio
async def test_nobody_is_to_play_once_the_hand_and_the_match_are_over(
        table_app: Callable[..., PlayApp]) -> None:
    """A quick game of four hands, each won by you: after each hand and at the final
    standings no seat is marked as the one to play and each seat's score is the match
    score the engine computed; the standings give the full path of the saved record."""
    app = table_app(READY, walls=FOUR_WINS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        for hand in range(4):
            for _ in range(20):
                if isinstance(app.screen, HandOverScreen):
                    break
                legal = app.session.human_legal()
                if Win() in legal:
                    assert "to play" in table_texts(table)
                    await pilot.press("w")
                    await pilot.pause()
                elif any(isinstance(a, Discard) for a in legal):
                    await throw_drawn(pilot)
                else:
                    await pilot.press("s")
                    await pilot.pause()
            assert isinstance(app.screen, HandOverScreen), hand
            won = [e for e in app.screen.game.events if isinstance(e, Won)]
            assert [w.seat for w in won] == [Seat((4 - hand) % 4)]
            assert "to play" not in table_texts(table)
            assert board_scores(table) == dict(zip(app.session.names, app.session.scores,
                                                   strict=True))
            await pilot.press("enter")
            await pilot.pause()
        assert isinstance(app.screen, MatchOverScreen)
        assert "to play" not in table_texts(table)
        path = app.session.record_path
        assert path is not None and path.is_absolute() and path.exists()
        shown = text_of(app, "#standings").replace("\n", "")
        assert str(path) in shown


@pytest.mark.asyncio
async def test_sentences_name_the_tiles(table_app: Callable[..., PlayApp]) -> None:
    """The moves below the opponents read "Passive threw South Wind", not a label or
    notation; a picked tile is named in the prompt."""
    app = table_app(READY)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        assert "to throw South Wind;" in text_of(app, "#message")
        await pilot.press("enter")
        await pilot.pause()
        center = text_of(app, "#center")
        assert "Passive threw 1 Bamboo · Passive 2 threw 5 Bamboo" in center
        assert not NOTATION.search(table_texts(app.screen))


@pytest.mark.asyncio
async def test_one_point_is_said_in_the_singular(table_app: Callable[..., PlayApp]) -> None:
    """Under casual a win scores 1 point and nobody pays (the engine's settlement)."""
    app = table_app(READY, rules="casual")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)
        settled = next(e for e in app.screen.game.events if isinstance(e, Settled))
        assert [(p.payer, p.payee, p.amount) for p in settled.payments] == [
            (None, Seat.EAST, 1)]
        text = text_of(app, "#breakdown")
        assert "You score 1 point (" in text
        assert not re.search(r"(?<![\d.])1 points", text) and "Nobody" not in text



# ------------------------------------------------------------------ places, names, whose

def own_flower_and_season_then_a_win() -> list[Tile]:
    """East is dealt its own flower (Plum) and season (Spring); the two replacements, from
    the back of the wall, are the 5 Circles that complete 1-9 Characters, a Red Dragon
    pong and a 5 Circles pair."""
    wall = build_wall(east="123m456m789m777z1f", draws="1g")
    fives = [k for k, t in enumerate(wall) if t == Tile.P5 and k > 60]
    for k, end in zip(fives[:2], (len(wall) - 1, len(wall) - 2), strict=True):
        wall[k], wall[end] = wall[end], wall[k]
    return wall


def test_equal_points_share_a_place() -> None:
    from sgmahjong.tui.summary import standings_lines

    lines = [x.split() for x in standings_lines(["You", "Fox", "Owl", "Hen"], [2, 2, 0, -4])]
    assert lines == [["1st", "You", "+2"], ["1st", "Fox", "+2"], ["3rd", "Owl", "+0"],
                     ["4th", "Hen", "-4"]]


@pytest.mark.asyncio
async def test_the_final_standings_give_a_tie_one_place(
        table_app: Callable[..., PlayApp]) -> None:
    app = table_app(READY, walls=FOUR_WINS)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(4):
            for _ in range(20):
                if isinstance(app.screen, HandOverScreen):
                    break
                legal = app.session.human_legal()
                if Win() in legal:
                    await pilot.press("w")
                elif any(isinstance(a, Discard) for a in legal):
                    await throw_drawn(pilot)
                else:
                    await pilot.press("s")
                await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
        assert isinstance(app.screen, MatchOverScreen)
        scores = app.session.scores
        names = app.session.names
        # a place is one more than the number of players with more points
        places = {n: 1 + sum(1 for q in scores if q > sc)
                  for n, sc in zip(names, scores, strict=True)}
        assert sorted(places.values()) != [1, 2, 3, 4]       # this match has a tie
        shown = {}
        for row in text_of(app, "#standings").splitlines():
            m = re.match(r"\s+(\d)(?:st|nd|rd|th)\s+(.+?)\s+([+-]\d+)$", row)
            if m:
                shown[m.group(2)] = int(m.group(1))
        assert shown == places


@pytest.mark.asyncio
async def test_the_review_names_players_as_the_breakdown_does(
        table_app: Callable[..., PlayApp]) -> None:
    """South (Eager) wins on your 5 Circles: the breakdown says "Eager won"; the review's
    deal-in names Eager too, not the seat's wind."""
    app = table_app(SOUTH_WINS_ON_EASTS_5P, opponents=("eager", "passive", "passive"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        assert isinstance(app.screen, HandOverScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "Eager won with 5 Circles" in text_of(app, "#breakdown")
        review = text_of(app, "#review").replace("\n", " ")
        assert "You dealt in 5 Circles to Eager" in review
        assert "South" not in review


@pytest.mark.asyncio
async def test_your_own_flower_and_season_are_called_yours(
        table_app: Callable[..., PlayApp]) -> None:
    app = table_app(own_flower_and_season_then_a_win())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        payouts = [e for e in app.session.game.events if isinstance(e, InstantPayout)]
        # standard: own flower and season, both exposed in the deal, 4 from each player
        assert [(p.seat, p.reason, p.amount) for p in payouts] == [
            (Seat.EAST, "own-flower-season", 4)]
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)
        text = text_of(app, "#breakdown")
        assert "You collect 4 points from each player for your own flower and season." in text
        assert "their own" not in text
