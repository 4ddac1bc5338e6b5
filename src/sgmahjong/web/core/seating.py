"""Who may sit at a table: AI levels by name and the stand-in (the table session's, in the
web table's words), and a newcomer's name refused when the table has it."""

from __future__ import annotations

from collections.abc import Iterable

from ...agents import Agent
from ...errors import SgmahjongError
from ...session.players import (
    UnknownPlayer,
    ai_names,
    ai_player_names,
    default_standin,
    make_player,
    same_name,
    unique_name,
)


class TableError(SgmahjongError):
    """A request the table refuses; ``code`` names why (``full``, ``started``, ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.retry_after: int | None = None


def level_names() -> list[str]:
    """The AI levels one can pick: the five levels weakest first, then the baselines."""
    return ai_player_names()


def make_ai(name: str, seed: int) -> Agent:
    """An AI player by name (an unknown one: ``bad-level``, naming the choices)."""
    try:
        return make_player(name, seed)
    except UnknownPlayer as exc:
        raise TableError("bad-level", exc.sentence("AI level")) from None


def check_name(name: str, people: Iterable[str], ais: Iterable[str] = ()) -> None:
    """Refuse ``name`` when a person (``people``) or an AI player (``ais``) at the table
    already has it, whatever its capitals or spaces: payment lines name players."""
    key = same_name(name)
    for taken, what in [*((p, "") for p in people), *((a, " (an AI player)") for a in ais)]:
        if same_name(taken) == key:
            raise TableError("name-taken", f"{taken} is already at this table{what}: pick "
                                           "another name (names must differ, whatever "
                                           "their capitals)")


__all__ = ["TableError", "ai_names", "check_name", "default_standin", "level_names",
           "make_ai", "same_name", "unique_name"]
