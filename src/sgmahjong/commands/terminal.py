"""What every command shares about the terminal: help text that wraps to its width, and a
Rich console that does not wrap output going to a pipe or a file."""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Wraps prose paragraphs of a description or epilog to the terminal, and keeps
    indented lines (examples, lists) as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out: list[str] = []
        prose: list[str] = []

        def flush() -> None:
            if prose:
                out.append(textwrap.fill(" ".join(prose), width, initial_indent=indent,
                                         subsequent_indent=indent))
                prose.clear()

        for line in text.splitlines():
            if not line.strip():
                flush()
                out.append("")
            elif line[0].isspace():
                flush()
                out.append(indent + line)
            else:
                prose.append(line.strip())
        flush()
        return "\n".join(out)


def stdout_console() -> Console:
    """A console on stdout. A terminal wraps at its width as usual; a pipe or file gets
    whole lines (Rich would otherwise wrap at 80 columns and split seeds and plays)."""
    from rich.console import Console

    piped = not sys.stdout.isatty()
    return Console(highlight=False, soft_wrap=piped)


__all__ = ["HelpFormatter", "stdout_console"]
