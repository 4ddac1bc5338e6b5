"""The practice ladder as the terminal game uses it.

The definitions and star rules live in :mod:`sgmahjong.store.ladder` so that the web table
(which may not import the terminal UI) awards the same stars.
"""

from __future__ import annotations

from ..store.ladder import (
    GOALS,
    MAX_STARS,
    TABLES,
    LadderTable,
    goal_text,
    hand_stars,
    match_stars,
    next_goal,
    stars_text,
    summary,
    table_by_id,
)

__all__ = ["GOALS", "MAX_STARS", "TABLES", "LadderTable", "goal_text", "hand_stars",
           "match_stars", "next_goal", "stars_text", "summary", "table_by_id"]
