"""Who may sit at a table: AI levels by name, the stand-in, and names told apart."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...agents import Agent, UnknownAgent, make_agent, player_names
from ...errors import SgmahjongError


class TableError(SgmahjongError):
    """A request the table refuses; ``code`` names why (``full``, ``started``, ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.retry_after: int | None = None


def level_names() -> list[str]:
    """The AI players one can pick: the five levels weakest first, then the baselines."""
    return player_names()


def make_ai(name: str, seed: int) -> Agent:
    """An AI player by registry name."""
    try:
        return make_agent(name, seed)
    except UnknownAgent:
        raise TableError("bad-level", f"unknown AI level {name!r}; choose from "
                                      f"{', '.join(level_names())}") from None


def default_standin() -> str:
    names = level_names()
    return "hedgehog" if "hedgehog" in names else "greedy"


def same_name(name: str) -> str:
    """A name as names at a table are told apart: capitals and spacing do not count
    ("Zed" and " zed" are one name), as in the ledger."""
    return " ".join(name.split()).casefold()


def unique_name(name: str, taken: Iterable[str]) -> str:
    """``name``, numbered if another seat has it: ``Fox``, ``Fox 2``."""
    seen = {same_name(t) for t in taken}
    out, k = name, 1
    while same_name(out) in seen:
        k += 1
        out = f"{name} {k}"
    return out


def ai_names(levels: Sequence[str]) -> list[str]:
    """The names AI players of ``levels`` would get, seat by seat, with no person at the
    table: the level's, numbered when another has it. The names they get at the start
    are among these (a person's name is never one of them), so a name refused now is
    never one that makes two seats alike later."""
    out: list[str] = []
    for level in levels:
        out.append(unique_name(level.title(), out))
    return out


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
