"""The practice ladder: stars, the next goal, progress saved between runs, the setup screen."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import Static

from sgmahjong.store.progress import Progress, load_progress, progress_path, save_progress
from sgmahjong.tui.app import PlayApp
from sgmahjong.tui.dialogs import HandOverScreen
from sgmahjong.tui.ladder import hand_stars, match_stars, next_goal, stars_text, summary
from sgmahjong.tui.session import PlayConfig
from sgmahjong.tui.setup import SetupScreen
from sgmahjong.tui.table import TableScreen

from .conftest import settle
from .test_play import READY, SIZE, throw_drawn


def test_a_new_player_starts_at_the_garden_gate() -> None:
    assert summary(Progress()) == ("Your tables ★ 0/9 · Next goal: win a hand at the "
                                   "Garden gate")


@pytest.mark.parametrize("stars, goal", [
    ({"garden-gate": {"win"}}, "win a hand worth 3+ tai at the Garden gate"),
    ({"garden-gate": {"win", "ahead"}}, "win a hand worth 3+ tai at the Garden gate"),
    ({"garden-gate": {"win", "big-win"}}, "finish a quick game ahead at the Garden gate"),
    ({"garden-gate": {"win", "big-win", "ahead"}}, "win a hand at the Lily pond"),
    # a star won higher up does not move the goal off a rung with stars still open
    ({"garden-gate": {"win"}, "lily-pond": {"win"}},
     "win a hand worth 3+ tai at the Garden gate"),
    ({"garden-gate": {"win", "big-win", "ahead"}, "lily-pond": {"win", "big-win", "ahead"},
      "old-oak": {"win", "ahead"}}, "win a hand worth 3+ tai at the Old oak"),
])
def test_the_next_goal_is_the_first_open_star_of_the_current_rung(
        stars: dict[str, set[str]], goal: str) -> None:
    assert next_goal(Progress(stars)) == goal


def test_every_star_earned() -> None:
    p = Progress({t: {"win", "big-win", "ahead"} for t in ("garden-gate", "lily-pond",
                                                             "old-oak")})
    assert next_goal(p) == "every star is yours; try a full match against the owl"
    assert stars_text(p, "old-oak") == "★★★"
    assert stars_text(Progress({"old-oak": {"win"}}), "old-oak") == "★☆☆"


def test_stars_for_a_hand_and_for_a_quick_game() -> None:
    assert hand_stars([]) == []
    assert hand_stars([1]) == ["win"]
    assert hand_stars([3]) == ["win", "big-win"]
    assert match_stars([10, 2, -4, -8]) == ["ahead"]
    assert match_stars([10, 10, -4, -16]) == []


def test_progress_is_saved_in_the_data_dir(data_dir: Path) -> None:
    assert progress_path() == data_dir / "progress.json"
    p = Progress()
    p.award("lily-pond", "win")
    save_progress(p)
    assert json.loads(progress_path().read_text())["stars"] == {"lily-pond": ["win"]}
    assert load_progress().stars == {"lily-pond": {"win"}}


def test_a_damaged_progress_file_counts_as_no_progress(data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    progress_path().write_text("{not json")
    assert load_progress().total == 0


@pytest.mark.asyncio
async def test_a_win_at_a_ladder_table_earns_a_star(
        table_app: Callable[..., PlayApp]) -> None:
    app = table_app(READY, table="garden-gate")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)
        assert "New star: win a hand" in str(app.screen.query_one("#breakdown",
                                                                   Static).render())
    assert load_progress().stars == {"garden-gate": {"win"}}


@pytest.mark.asyncio
async def test_setup_shows_progress_and_a_table_key_starts_it() -> None:
    p = Progress({"garden-gate": {"win"}})
    save_progress(p)
    app = PlayApp(PlayConfig(ai_delay=0.0, seed=4))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, SetupScreen)
        text = str(app.screen.query_one("#progress", Static).render())
        assert text == ("Your tables ★ 1/9 · Next goal: win a hand worth 3+ tai at the "
                        "Garden gate")
        await pilot.press("2")
        await settle(app, pilot)
        assert isinstance(app.screen, TableScreen)
        s = app.session
        assert s is not None and s.config.table == "lily-pond" and s.match.quick
        assert s.names == ["You", "Rabbit", "Hedgehog", "Fox"]
        await pilot.press("q", "q")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
