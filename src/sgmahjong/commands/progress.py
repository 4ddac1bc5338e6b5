"""The progress bar of long commands (simulate, rate, dataset): on stderr, only when both
stdout and stderr are a terminal and no machine-readable output was asked for, so a pipe,
a file or ``--json`` gets nothing but the result."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def progress_bar(label: str, total: int, *, quiet: bool = False
                 ) -> Iterator[Callable[[int], None] | None]:
    """A callback ``progress(done)`` that moves a bar of ``total`` steps named ``label``,
    or None when no bar is shown (``quiet``, or output that is not a terminal)."""
    if quiet or not (sys.stdout.isatty() and sys.stderr.isatty()):
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(),
                   TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    with bar:
        task = bar.add_task(label, total=total)

        def progress(done: int) -> None:
            bar.update(task, completed=done)

        yield progress


__all__ = ["progress_bar"]
