"""An opponent whose AI raises does not stop the terminal game: the table plays a safe move
for it (its drawn tile thrown, a claim passed), the game goes on, and the player is told
once."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from textual.widgets import Static

from sgmahjong import agents
from sgmahjong.game import Action, Discard, Discarded, PlayerView
from sgmahjong.tiles import Seat, parse_tiles
from sgmahjong.tui.app import PlayApp
from sgmahjong.tui.table import TableScreen

from .walls import Passive, build_wall

pytestmark = pytest.mark.asyncio
SIZE = (130, 42)
NOTICE = "Flaky's AI ran into a problem"

# East (you) throws the South wind it drew; South draws 9 Characters, West 8, North 7,
# and your next draw is the 1 Circle.
WALL = build_wall(east="1m4m7m2p5p8p3s6s9s1z2z3z4z" + "2z", draws="9m8m7m1p1p")


class Flaky(Passive):
    """Raises at its first decision, then plays as :class:`Passive`."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.calls = 0

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("the model file is missing")
        return super().act(view, legal)


@pytest.fixture(autouse=True)
def flaky(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(agents._REGISTRY, "flaky", Flaky)


def message(app: PlayApp) -> str:
    return str(app.screen.query_one("#message", Static).render())


async def test_an_opponent_whose_ai_raises_plays_safe_and_the_player_is_told_once(
        table_app: Callable[..., PlayApp]) -> None:
    app = table_app(WALL, opponents=("flaky", "passive", "passive"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        await pilot.press("enter", "enter")          # throw the drawn South wind
        await pilot.pause()
        s = app.session
        assert s is not None
        # the game went on round the table and it is your turn again, on your next draw
        assert isinstance(app.screen, TableScreen)
        assert Discard(parse_tiles("1p")[0]) in s.human_legal()
        thrown = [(e.seat, e.tile.text) for e in s.game.events if isinstance(e, Discarded)]
        # Flaky (South) failed: the table threw the tile it had drawn for it
        assert thrown == [(Seat.EAST, "2z"), (Seat.SOUTH, "9m"), (Seat.WEST, "8m"),
                          (Seat.NORTH, "7m")]
        assert message(app).count(NOTICE) == 1
        await pilot.press("enter", "enter")          # a second round: nothing new to tell
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert NOTICE not in message(app)
        assert [e.seat for e in s.game.events if isinstance(e, Discarded)][-4:] == list(Seat)
