"""The practice-ladder progress file: stars earned at each table (and the tile labels the
player chose), kept as JSON between runs.

The data directory is ``$SGMAHJONG_DATA_DIR`` when set (tests use it), else the platform's
user data directory for ``sgmahjong``.

>>> p = Progress()
>>> p.award("garden-gate", "win"), p.award("garden-gate", "win")
(True, False)
>>> p.total, sorted(p.stars["garden-gate"])
(1, ['win'])
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..render.labels import SCRIPTS

ENV_DATA_DIR = "SGMAHJONG_DATA_DIR"
FILE_NAME = "progress.json"
VERSION = 1


def data_dir() -> Path:
    """Where sgmahjong keeps the user's files (created on first use by the writers)."""
    override = os.environ.get(ENV_DATA_DIR)
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("sgmahjong", appauthor=False))


def progress_path() -> Path:
    return data_dir() / FILE_NAME


@dataclass
class Progress:
    """Stars earned per ladder table id (each star a goal id such as ``"win"``)."""

    stars: dict[str, set[str]] = field(default_factory=dict)
    tiles: str = "chinese"   # the terminal's tile labels: "chinese" (5筒) or "latin" (5Ci)

    @property
    def total(self) -> int:
        return sum(len(s) for s in self.stars.values())

    def has(self, table: str, goal: str) -> bool:
        return goal in self.stars.get(table, set())

    def award(self, table: str, goal: str) -> bool:
        """Record a star; True when it is new."""
        got = self.stars.setdefault(table, set())
        if goal in got:
            return False
        got.add(goal)
        return True

    def to_json(self) -> dict[str, object]:
        return {"version": VERSION,
                "stars": {t: sorted(g) for t, g in sorted(self.stars.items()) if g},
                "tiles": self.tiles}

    @classmethod
    def from_json(cls, data: object) -> Progress:
        """Read the saved form; anything unreadable counts as no progress."""
        stars: dict[str, set[str]] = {}
        if isinstance(data, dict) and isinstance(data.get("stars"), dict):
            for table, goals in data["stars"].items():
                if isinstance(table, str) and isinstance(goals, list):
                    stars[table] = {g for g in goals if isinstance(g, str)}
        tiles = data.get("tiles") if isinstance(data, dict) else None
        return cls(stars, tiles if tiles in SCRIPTS else "chinese")


def load_progress(path: Path | None = None) -> Progress:
    """The saved progress (empty when there is none or the file is damaged)."""
    p = path or progress_path()
    try:
        return Progress.from_json(json.loads(p.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return Progress()


def save_progress(progress: Progress, path: Path | None = None) -> Path:
    """Write the progress atomically (a temporary file renamed over the old one)."""
    p = path or progress_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(".tmp")
    tmp.write_text(json.dumps(progress.to_json(), indent=1) + "\n", encoding="utf-8")
    tmp.replace(p)
    return p
