"""The practice ladder: three tables of rising difficulty, three stars to earn at each.

The terminal game and the web table share these definitions and the star rules, so a star
means the same at both (the terminal keeps progress in :mod:`.progress`, the browser in
its own storage).

>>> [t.id for t in TABLES]
['garden-gate', 'lily-pond', 'old-oak']
>>> hand_stars([3]), match_stars([9, 1, 0, -10])
(['win', 'big-win'], ['ahead'])
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .progress import Progress


@dataclass(frozen=True)
class LadderTable:
    """One table of the ladder: its id (used in the progress file), name and opponents."""

    id: str
    name: str
    opponents: tuple[str, str, str]
    blurb: str


TABLES: tuple[LadderTable, ...] = (
    LadderTable("garden-gate", "Garden gate", ("snail", "rabbit", "hedgehog"),
                "gentle; the snail and the rabbit make mistakes"),
    LadderTable("lily-pond", "Lily pond", ("rabbit", "hedgehog", "fox"),
                "steady; the fox knows where its tai come from"),
    LadderTable("old-oak", "Old oak", ("hedgehog", "fox", "owl"),
                "sharp; the owl counts every tile and plays safe"),
)

GOALS: tuple[tuple[str, str], ...] = (
    ("win", "win a hand"),
    ("big-win", "win a hand worth 3+ tai"),
    ("ahead", "finish a quick game ahead"),
)
"""Star goal ids and how to say them, in the order they are usually earned."""

MAX_STARS = len(TABLES) * len(GOALS)

ALL_DONE = "every star is yours; try a full match against the owl"
"""The next goal once every star is earned."""


def table_by_id(table_id: str) -> LadderTable:
    for t in TABLES:
        if t.id == table_id:
            return t
    raise KeyError(table_id)


def goal_sequence() -> Iterator[tuple[LadderTable, str, str]]:
    """``(table, goal id, "goal at the table")`` in the order a player is pointed to them:
    every star of a rung before the next rung, so the next goal is the first star still
    open at the lowest rung not yet complete."""
    for t in TABLES:
        for goal, text in GOALS:
            yield t, goal, f"{text} at the {t.name}"


def stars_text(progress: Progress, table_id: str) -> str:
    """Three stars, filled for those earned: ``"★★☆"``."""
    return "".join("★" if progress.has(table_id, g) else "☆" for g, _ in GOALS)


def next_goal(progress: Progress) -> str:
    """The next thing to try, e.g. ``"win a hand at the Garden gate"``."""
    for t, goal, text in goal_sequence():
        if not progress.has(t.id, goal):
            return text
    return ALL_DONE


def summary(progress: Progress) -> str:
    """``"Your tables ★ 0/9 · Next goal: win a hand at the Garden gate"``."""
    return (f"Your tables ★ {progress.total}/{MAX_STARS} · "
            f"Next goal: {next_goal(progress)}")


def hand_stars(tai: Sequence[int]) -> list[str]:
    """The star goals met by a hand the player won with these tai (one entry per win)."""
    out: list[str] = []
    if tai:
        out.append("win")
    if any(t >= 3 for t in tai):
        out.append("big-win")
    return out


def match_stars(scores: Sequence[int], player: int = 0) -> list[str]:
    """The star goals met at the end of a quick game: ahead of every opponent."""
    mine = scores[player]
    others = [s for i, s in enumerate(scores) if i != player]
    return ["ahead"] if all(mine > s for s in others) else []


def goal_text(goal: str) -> str:
    return dict(GOALS)[goal]


__all__ = ["ALL_DONE", "GOALS", "MAX_STARS", "TABLES", "LadderTable", "goal_sequence",
           "goal_text", "hand_stars", "match_stars", "next_goal", "stars_text", "summary",
           "table_by_id"]
