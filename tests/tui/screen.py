"""What a person sees: the terminal's screen as plain text, row by row (the compositor's
picture, so a line cut off by a frame or pushed below the last row is not in it)."""

from __future__ import annotations

import io

from rich.console import Console
from textual.app import App


def screen_lines(app: App[object]) -> list[str]:
    """The rows of the screen as drawn, trailing spaces removed."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False,
                      safe_box=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return [line.rstrip() for line in console.export_text().splitlines()][:height]


def screen_text(app: App[object]) -> str:
    return "\n".join(screen_lines(app))
