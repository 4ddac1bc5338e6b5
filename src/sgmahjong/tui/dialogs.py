"""Dialogs over the table: the keys, the end-of-hand breakdown, the final standings."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, ClassVar

from rich.markup import escape
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..game import Game
from ..tiles import Seat
from .clock import Handle
from .ladder import goal_text
from .review import HEAD, MATCH_HEAD, match_review_lines, review_lines
from .summary import hand_lines, standings_lines

if TYPE_CHECKING:
    from .session import Session

KEYS_TEXT = """\
[b]Keys at the table[/]
  ← →    move along your tiles
  Enter  pick the tile; Enter again throws it
  W      win (when you can)
  P      pong the tile just thrown
  C      chow it (only from the player on your left)
  K      kong (choose which when there are several)
  S      skip a claim
  1-4    choose when several chows or kongs fit
  Esc    put the picked tile back
  H      show or hide the hints (PgUp PgDn scroll them)
  R      how to play, the rules used here, the tai table, the tiles
  T      tiles in letters (5Ci) or Chinese (5筒), if 萬 shows as a box
  ?      this help
  Q      leave the table (press twice; the game so far is saved)

Mouse: click a tile to pick it, again to throw it; click a claim button.
A claim offer waits for you unless you started with --claim-timer."""
"""The keys, short enough to be read whole in an 80x24 terminal (the dialog there has 19
rows of 72 columns)."""

SCROLL_KEYS = {"up": "scroll_up", "down": "scroll_down", "pageup": "scroll_page_up",
               "pagedown": "scroll_page_down", "home": "scroll_home", "end": "scroll_end"}


class _Dialog(ModalScreen[None]):
    DEFAULT_CSS = """
    _Dialog { align: center middle; }
    _Dialog > VerticalScroll {
        width: 90; max-width: 95%; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 1 2;
    }
    _Dialog #review, _Dialog #match-review { margin-top: 1; }
    """


class HelpScreen(_Dialog):
    """The keys; the arrows (and PgUp PgDn Home End) scroll, any other key closes it."""

    DEFAULT_CSS = """
    HelpScreen > VerticalScroll { padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_subtitle = "↑ ↓ scroll · any other key: back"
            yield Static(Text.from_markup(KEYS_TEXT))

    def on_key(self, event: events.Key) -> None:
        event.stop()
        scroll = SCROLL_KEYS.get(event.key)
        if scroll is None:
            self.dismiss()
            return
        getattr(self.query_one(VerticalScroll), scroll)(animate=False)

    def on_click(self) -> None:
        self.dismiss()


class HandOverScreen(_Dialog):
    """Who won and how (each tai source, the payments), or why the hand was drawn."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", "Next"), Binding("space", "close", "Next", show=False)]

    def __init__(self, session: Session, game: Game, stars: list[str],
                 banker: int) -> None:
        super().__init__()
        self.session = session
        self.game = game
        self.stars = stars
        self.banker = banker
        self.hand = len(session.hands) - 1
        self.ready = False
        self._armer: Handle | None = None

    ARM_DELAY = 0.6
    """Seconds before a key closes the breakdown."""

    def on_mount(self) -> None:
        # a key pressed to throw just as an opponent won must not skip the breakdown
        if self.session.config.ai_delay > 0:
            self._armer = self.app.clock.call_later(  # type: ignore[attr-defined]
                self.ARM_DELAY, self._arm)
        else:
            self._arm()

    def on_unmount(self) -> None:
        if self._armer is not None:
            self._armer.cancel()

    def _arm(self) -> None:
        self._armer = None
        self.ready = True

    def compose(self) -> ComposeResult:
        s = self.session

        def name(seat: Seat) -> str:
            return s.names[(self.banker + seat) % 4]

        lines = [f"[b u]End of hand {len(s.hands)}[/]", ""]
        lines.extend(hand_lines(self.game, name))
        for goal in self.stars:
            lines.append(f"[b yellow]★ New star: {goal_text(goal)}![/]")
        lines.append("")
        lines.append("[b]Scores[/]: " + ", ".join(
            f"{n} {sc:+d}" for n, sc in zip(s.names, s.scores, strict=True)))
        more = "the standings" if s.match_over else "the next hand"
        with VerticalScroll() as box:
            # the breakdown can be taller than a small terminal: the way on stays in sight
            box.border_subtitle = f"Enter: {more}"
            yield Static(Text.from_markup("\n".join(lines)), id="breakdown")
            yield Static(self._review_text(), id="review")

    def _review_text(self) -> Text:
        s = self.session
        return Text.from_markup("\n".join(review_lines(s.reviews.get(self.hand),
                                                       s.review_failed.get(self.hand))))

    def show_review(self) -> None:
        """The review is in (or failed): show it in place of the line saying it is coming."""
        self.query_one("#review", Static).update(self._review_text())

    def action_close(self) -> None:
        if self.ready:
            self.dismiss()


class MatchOverScreen(_Dialog):
    """The standings after the last hand, stars earned, where the record was saved."""

    # the whole width of an 80-column terminal for the path of the record
    DEFAULT_CSS = """
    MatchOverScreen > VerticalScroll { max-width: 100%; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", "Setup"), Binding("q", "app.quit", "Quit")]

    def __init__(self, session: Session, stars: list[str]) -> None:
        super().__init__()
        self.session = session
        self.stars = stars

    def compose(self) -> ComposeResult:
        s = self.session
        lines = ["[b u]The match is over[/]", "", "[b]Standings[/]"]
        lines.extend(standings_lines(s.names, s.scores))
        for goal in self.stars:
            lines.append(f"[b yellow]★ New star: {goal_text(goal)}![/]")
        if s.record_path is not None:
            lines.append("")
            # the whole path, so the player can find it (and hand it to `sgmahjong replay`),
            # on a line of its own: the command is cut at a space before it, with the
            # shell's line continuation, so that no line breaks inside the path
            path = shlex.quote(str(s.record_path))
            lines.append("[dim]The game is saved as[/]")
            lines.append(escape(path))
            lines.append("[dim]Every decision of yours against Owl's, hand by hand:[/]")
            lines.append(f"sgmahjong replay --review --seat {s.HUMAN} \\")
            lines.append(escape(f"  {path}"))
        with VerticalScroll() as box:
            box.border_subtitle = "Enter: back to the tables · Q: quit"
            yield Static(Text.from_markup("\n".join(lines)), id="standings")
            yield Static(self._review_text(), id="match-review")

    def _review_text(self) -> Text:
        s = self.session
        failed = [n for n in range(len(s.hands)) if n in s.review_failed]
        if failed:
            return Text.from_markup("\n".join(review_lines(
                None, s.review_failed[failed[0]])).replace(HEAD, MATCH_HEAD))
        return Text.from_markup("\n".join(match_review_lines(s.reviews, len(s.hands))))

    def show_review(self) -> None:
        """A hand's review is in: the match's summary, once every hand's is."""
        self.query_one("#match-review", Static).update(self._review_text())

    def action_close(self) -> None:
        self.dismiss()
