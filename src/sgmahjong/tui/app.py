"""``PlayApp``: the Textual application behind ``sgmahjong play`` (setup, table, ladder)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual import events
from textual.app import App
from textual.worker import Worker, WorkerState

from ..errors import SgmahjongError
from ..game import Game, Won
from ..render.labels import LATIN_LEGEND, script, set_script
from ..rules.model import Ruleset
from ..store.progress import Progress, load_progress, save_progress
from .clock import AppClock, Clock
from .fit import TooSmallScreen, too_small
from .ladder import hand_stars, match_stars
from .session import PlayConfig, Session
from .setup import SetupScreen
from .table import TableScreen


class PlayApp(App[None]):
    """Singapore Mahjong at a table of three garden animals."""

    TITLE = "Singapore Mahjong"
    # a game, not a tool: the palette's key would only take room from the footer
    ENABLE_COMMAND_PALETTE = False
    # notices at the top right: at the bottom they hid the prompt under your hand
    CSS = """
    ToastRack { dock: top; align: right top; margin-bottom: 0; }
    """

    def __init__(self, config: PlayConfig | None = None, *, skip_setup: bool = False,
                 progress_path: Path | None = None, clock: Clock | None = None) -> None:
        super().__init__()
        self.config = PlayConfig() if config is None else config
        self.skip_setup = skip_setup
        self.progress_path = progress_path
        self.progress: Progress = load_progress(progress_path)
        self._script_before = script()
        self.session: Session | None = None
        self.clock: Clock = AppClock(self) if clock is None else clock
        self.tables_ready = False
        self._waiting: PlayConfig | None = None

    @property
    def ai_delay(self) -> float:
        s = self.session
        return (self.config if s is None else s.config).ai_delay

    def on_unmount(self) -> None:
        # the labels are the process's: leave them as they were found
        set_script(self._script_before)

    def action_toggle_tiles(self) -> None:
        """Label the tiles in letters or in Chinese (T): a terminal whose font has no
        Chinese characters shows boxes for 萬 筒 索. The choice is saved for next time."""
        now = "chinese" if script() == "latin" else "latin"
        set_script(now)
        self.progress.tiles = now
        try:
            save_progress(self.progress, self.progress_path)
        except OSError as exc:
            self.notify(f"The choice could not be saved: {exc}", severity="warning")
        if now == "latin":
            self.notify(LATIN_LEGEND + ". T: Chinese again.", title="Tiles in letters")
        else:
            self.notify("Tiles in Chinese: 萬 Characters, 筒 Circles, 索 Bamboo. "
                        "T: letters again.", title="Tiles in Chinese")
        redraw = getattr(self.screen, "redraw_tiles", None)
        if redraw is not None:
            redraw()

    async def on_event(self, event: events.Event) -> None:
        await super().on_event(event)
        if isinstance(event, events.Resize):   # the app's own size is the new one now
            self._check_fit()

    def _check_fit(self, _: object = None) -> None:
        """Below 80x24 the notice covers whatever screen is on top (a dialog pushed over
        it later gets a notice of its own); it closes itself once the terminal fits."""
        if too_small(self.size) and not isinstance(self.screen, TooSmallScreen):
            self.push_screen(TooSmallScreen())

    def on_mount(self) -> None:
        self.screen_change_signal.subscribe(self, self._check_fit)
        set_script(self.config.tiles or self.progress.tiles)
        if self.skip_setup:
            # the test hook: straight to the table, the tables loaded first
            _prepare_tables()
            self.tables_ready = True
            self.start_game(self.config)
            return
        # Without a disk cache the shanten tables take seconds to build: build them while
        # the player reads the setup screen, not when the first key deals a hand.
        self.run_worker(_prepare_tables, name="tables", thread=True, exclusive=True)
        self.push_screen(SetupScreen(self.config))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.name != "tables" or event.state is not WorkerState.SUCCESS:
            return
        self.tables_ready = True
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            self.start_game(waiting)

    def start_game(self, config: PlayConfig) -> None:
        """Seat the players and deal the first hand (once the tables are ready)."""
        if not self.tables_ready:
            self._waiting = config
            if isinstance(self.screen, SetupScreen):
                self.screen.show_busy()
            return
        try:
            self.session = Session(config)
        except SgmahjongError as exc:
            self.notify(str(exc), title="Cannot start", severity="error")
            return
        self.config = config
        if isinstance(self.screen, SetupScreen):
            self.switch_screen(TableScreen(self.session))
        else:
            self.push_screen(TableScreen(self.session))

    def start_lesson(self) -> None:
        """The guided first hand (from the setup screen or its pages)."""
        from .lesson import LessonScreen, LessonSession

        self.session = LessonSession(ai_delay=self.config.ai_delay)
        screen = LessonScreen(self.session)
        if isinstance(self.screen, SetupScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def show_pages(self, rules: Ruleset, *, lesson: bool = False,
                   closed: Callable[[object], None] | None = None) -> None:
        """The learning pages for these rules over the current screen (which waits);
        ``closed`` is called when the player goes back."""
        from .pages import PagesScreen

        self.push_screen(PagesScreen(rules, lesson=lesson), closed)

    def back_to_setup(self) -> None:
        """Leave the table (the record so far is already saved)."""
        self.session = None
        self.switch_screen(SetupScreen(self.config))

    def keep_game(self) -> Path | None:
        """Save the game being played as it stands (None: nothing to keep, or a lesson);
        a failure to write is said, never raised: the player is leaving."""
        s = self.session
        if s is None:
            return None
        try:
            return s.keep_game()
        except OSError as exc:
            self.notify(f"The game could not be saved: {exc}", severity="error")
            return None

    def leave_game(self) -> None:
        """Q twice at the table: the game is saved, this hand up to now with it, and the
        setup screen says where."""
        path = self.keep_game()
        self.back_to_setup()
        if path is not None:
            # the file's name only: a whole path would be broken over the notice's lines
            self.notify(f"{path.name}, in the records folder: sgmahjong replay shows it.",
                        title="Game saved", timeout=8)

    async def action_quit(self) -> None:
        """Ctrl+Q (or Q on the setup screen and the standings): the game so far is kept."""
        self.keep_game()
        await super().action_quit()

    # ------------------------------------------------------------------ the ladder

    def award_hand_stars(self, game: Game) -> list[str]:
        """Stars for the player's win in this hand at a ladder table (new ones only)."""
        s = self.session
        if s is None or not s.config.table:
            return []
        mine = [e.tai for e in game.events if isinstance(e, Won) and e.seat == s.human_seat]
        return self._award(s.config.table, hand_stars(mine))

    def award_match_stars(self) -> list[str]:
        s = self.session
        if s is None or not s.config.table or not s.match.quick:
            return []
        return self._award(s.config.table, match_stars(s.scores))

    def _award(self, table: str, goals: list[str]) -> list[str]:
        new = [g for g in goals if self.progress.award(table, g)]
        if new:
            try:
                save_progress(self.progress, self.progress_path)
            except OSError as exc:
                self.notify(f"could not save your stars: {exc}", severity="warning")
        return new


def _prepare_tables() -> None:
    """Load the shanten tables (from the disk cache, or built the first time)."""
    from ..analysis import shanten

    shanten.prepare_tables()
