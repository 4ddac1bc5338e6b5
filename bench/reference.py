"""Players from another revision of this repository, seated at the current engine's table.

``reference_package(rev, folder)`` copies the package as it was at ``rev`` into ``folder``
under the name ``sgmahjong_ref`` (its imports are relative, so it runs as it stands).
Such a player decides on that revision's own engine: :class:`ReferenceTable` keeps a
game of the reference package in step with the current one (the same seed, every action
of every seat replayed into it through the actions' JSON form), so a reference agent
sees exactly the view and legal actions its own engine gives, and its answer comes back
as the current package's action. Both engines must deal and play alike, which the
records checks (``check_records.py``) hold the tree to.
"""

from __future__ import annotations

import importlib
import io
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

from sgmahjong.game.actions import Action

REPO = Path(__file__).resolve().parent.parent
NAME = "sgmahjong_ref"
SUFFIX = "@ref"


class RevisionError(Exception):
    """A revision that cannot be read."""


def _archive(rev: str) -> bytes:
    try:
        return subprocess.run(["git", "-C", str(REPO), "archive", rev, "src/sgmahjong"],
                              capture_output=True, check=True).stdout
    except subprocess.CalledProcessError as e:
        raise RevisionError(f"--reference {rev!r}: not a revision of {REPO} "
                              f"({e.stderr.decode().strip()})") from None


def reference_package(rev: str, folder: Path) -> Path:
    """Copy ``src/sgmahjong`` at ``rev`` into ``folder/sgmahjong_ref``; returns ``folder``."""
    return _extract(_archive(rev), folder / NAME)


def reference_source(rev: str, folder: Path) -> Path:
    """Copy ``src/sgmahjong`` at ``rev`` into ``folder/sgmahjong`` under its own name;
    returns ``folder``, to put first on a child process's ``PYTHONPATH``. For running a
    revision's programs (``python -m sgmahjong serve``): those import some of their own
    modules by absolute name, which under ``sgmahjong_ref`` would be the current tree's."""
    return _extract(_archive(rev), folder / "sgmahjong")


def _extract(tar: bytes, target: Path) -> Path:
    """The archive's package written into the folder ``target``; returns its parent."""
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        for m in t.getmembers():
            if not m.isfile():
                continue
            rel = Path(m.name).relative_to("src/sgmahjong")
            out = target / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            data = t.extractfile(m)
            assert data is not None
            out.write_bytes(data.read())
    return target.parent


def load(folder: str) -> Any:
    """The reference package copied into ``folder``."""
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module(NAME)


class ReferenceTable:
    """A reference game kept in step with a current one, for the reference players."""

    def __init__(self, folder: str, rules: str, seed: int) -> None:
        self.pkg = load(folder)
        game_mod = importlib.import_module(NAME + ".game")
        self.actions = importlib.import_module(NAME + ".game.actions")
        self.game = game_mod.Game.new(rules, seed=seed)

    def agent(self, name: str, seed: int) -> Any:
        return importlib.import_module(NAME + ".agents").make_agent(name, seed)

    def act(self, agent: Any, seat: int) -> Action:
        """What the reference ``agent`` does for ``seat`` now, as a current action."""
        g = self.game
        choice = agent.act(g.view(seat), g.legal_actions(seat))
        return Action.from_json(choice.to_json())

    def follow(self, seat: int, action: Action) -> None:
        """Play the current game's ``action`` of ``seat`` here too."""
        self.game.submit(seat, self.actions.Action.from_json(action.to_json()))
