"""The smallest terminal the game is laid out for, and the notice shown below it.

Every screen fits 80x24 (docs/play.md). In a smaller terminal the table would be cut in
places nobody could guess (a hand without its prompt, a claim without its buttons), so the
app covers it with one notice that says what is wrong and how big the terminal is, and takes
it away by itself once the terminal is large enough. The game waits underneath: no key
reaches the table while it cannot be seen.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widgets import Static

MIN_WIDTH, MIN_HEIGHT = 80, 24


def too_small(size: Size) -> bool:
    """Narrower than 80 columns or shorter than 24 rows."""
    return size.width < MIN_WIDTH or size.height < MIN_HEIGHT


def notice(size: Size) -> str:
    return (f"The terminal is too small: {size.width}x{size.height}. The game needs "
            f"{MIN_WIDTH}x{MIN_HEIGHT} at least.\n\nMake the window larger: the game waits "
            "and comes back by itself.\nCtrl+Q quits.")


class TooSmallScreen(ModalScreen[None]):
    """The notice over everything, until the terminal is 80x24 or more."""

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; background: $background; }
    TooSmallScreen > Static { width: 100%; height: auto; padding: 0 1; text-align: center; }
    """

    def compose(self) -> ComposeResult:
        yield Static(notice(self.app.size), id="too-small")

    def on_resize(self, event: events.Resize) -> None:
        self._check()

    def on_screen_resume(self) -> None:
        self._check()

    def _check(self) -> None:
        size = self.app.size
        self.query_one("#too-small", Static).update(notice(size))
        # a screen pushed over this one meanwhile (a hand's end) is closed first: this one
        # then resumes and goes itself
        if not too_small(size) and self.is_current:
            self.dismiss()

    def on_key(self, event: events.Key) -> None:
        event.stop()   # nothing is played blind

    def on_click(self, event: events.Click) -> None:
        event.stop()
