"""What leaving keeps (docs/play.md, "Files"): Q twice saves the game, the hand being played
up to your last move with it, even in the first hand; Ctrl+Q too. The guided hand says it
keeps nothing, and keeps nothing. The standings print the replay command with the record's
path whole on one line at 80 columns."""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.widgets import Static

from sgmahjong.cli import main
from sgmahjong.game import Discarded, HandStarted, Won
from sgmahjong.record import read_record
from sgmahjong.tiles import Seat, Tile
from sgmahjong.tui.app import PlayApp
from sgmahjong.tui.clock import ManualClock
from sgmahjong.tui.dialogs import HandOverScreen, MatchOverScreen
from sgmahjong.tui.lesson import LessonScreen
from sgmahjong.tui.session import PlayConfig
from sgmahjong.tui.setup import SetupScreen

from .conftest import settle
from .screen import screen_lines
from .test_play import READY, throw_drawn
from .test_table_words import FOUR_WINS

pytestmark = pytest.mark.asyncio
SMALL = (80, 24)


def records(data_dir: Path) -> list[Path]:
    return sorted((data_dir / "records").glob("*.jsonl"))


def message(app: PlayApp) -> str:
    return str(app.screen.query_one("#message", Static).render())


async def test_leaving_in_the_first_hand_keeps_it(table_app: Callable[..., PlayApp],
                                                  data_dir: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    app = table_app(READY)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)                 # you throw the South Wind
        await pilot.press("q")
        await pilot.pause()
        prompt = message(app)
        assert "Leave the table?" in prompt and "saved" in prompt
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
    [path] = records(data_dir)
    record = read_record(path)
    assert record.header["hands"] == 0 and record.header["complete"] is False
    assert isinstance(record.events[0], HandStarted)
    mine = [e.tile for e in record.events if isinstance(e, Discarded) and e.seat == Seat.EAST]
    assert mine == [Tile.SOUTH]
    # the three passive players threw what they drew after you: all in the record
    assert [e.seat for e in record.events if isinstance(e, Discarded)] == [
        Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH]
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "The record ends in the middle of a hand." in out
    assert main(["replay", str(path), "--review", "--seat", "0"]) == 0
    assert "Hand 1, sitting East" in capsys.readouterr().out


async def test_ctrl_q_keeps_the_hand_being_played_too(table_app: Callable[..., PlayApp],
                                                      data_dir: Path) -> None:
    app = table_app(READY, walls=FOUR_WINS)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await throw_drawn(pilot)
        await pilot.press("w")                   # hand 1: you win self-drawn
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
    [path] = records(data_dir)
    record = read_record(path)
    assert record.header["hands"] == 1 and record.header["complete"] is False
    hands = record.hands()
    assert len(hands) == 2                       # the first whole, the second begun
    assert any(isinstance(e, Won) for e in hands[0][1])
    assert not any(isinstance(e, Won) for e in hands[1][1])


async def test_the_guided_hand_says_it_keeps_nothing(clock: ManualClock,
                                                     data_dir: Path) -> None:
    app = PlayApp(PlayConfig(ai_delay=0.0), clock=clock)
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LessonScreen)
        await pilot.press("q")
        await pilot.pause()
        prompt = message(app)
        assert "Leave the guided hand?" in prompt and "not saved" in prompt
        assert "are saved" not in prompt
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
    assert records(data_dir) == []


@pytest.fixture
def home_like_data_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A data folder as long as a usual one, /home/<name>/.local/share/sgmahjong (36)."""
    base = Path(tempfile.mkdtemp(prefix="sgm"))
    folder = base / ("d" * (36 - len(str(base)) - 1))
    assert len(str(folder)) == 36
    monkeypatch.setenv("SGMAHJONG_DATA_DIR", str(folder))
    yield folder
    shutil.rmtree(base)


async def test_the_replay_command_keeps_the_path_whole_at_80_columns(
        table_app: Callable[..., PlayApp], home_like_data_dir: Path) -> None:
    app = table_app(READY, walls=FOUR_WINS, seed=None)   # a random seed, 20 digits or so
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        for _ in range(4):
            for _ in range(20):
                if isinstance(app.screen, HandOverScreen):
                    break
                legal = app.session.human_legal()
                if any(type(a).__name__ == "Win" for a in legal):
                    await pilot.press("w")
                elif any(type(a).__name__ == "Discard" for a in legal):
                    await pilot.press("enter", "enter")
                else:
                    await pilot.press("s")
                await pilot.pause()
            assert isinstance(app.screen, HandOverScreen)
            await pilot.press("enter")
            await pilot.pause()
        assert isinstance(app.screen, MatchOverScreen)
        path = str(app.session.record_path)
        assert path.startswith(str(home_like_data_dir))
        rows = [re.sub(r"^[\s│█▌▐]+|[\s│█▌▐▁▂▃▄▅▆▇]+$", "", line)
                for line in screen_lines(app)]
        assert path in rows                                  # whole, on a line of its own
        command = rows.index("sgmahjong replay --review --seat 0 \\")
        assert rows[command + 1] == path
