"""The practice ladder: three tables of rising difficulty, three stars to earn at each."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..store.progress import Progress


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


def table_by_id(table_id: str) -> LadderTable:
    for t in TABLES:
        if t.id == table_id:
            return t
    raise KeyError(table_id)


def stars_text(progress: Progress, table_id: str) -> str:
    """Three stars, filled for those earned: ``"★★☆"``."""
    return "".join("★" if progress.has(table_id, g) else "☆" for g, _ in GOALS)


def next_goal(progress: Progress) -> str:
    """The next thing to try, e.g. ``"win a hand at the Garden gate"``."""
    for goal, text in GOALS:
        for t in TABLES:
            if not progress.has(t.id, goal):
                return f"{text} at the {t.name}"
    return "every star is yours; try a full match against the owl"


def summary(progress: Progress) -> str:
    """``"Your tables ⭐ 0/9 · Next goal: win a hand at the Garden gate"``."""
    return (f"Your tables ⭐ {progress.total}/{MAX_STARS} · "
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
