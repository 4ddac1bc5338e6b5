"""Who plays at a table: the AI players by name, the default opponents, the stand-in, and
the players' names told apart."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..agents import Agent, UnknownAgent, make_agent, player_names
from ..errors import SgmahjongError
from ..game.prng import derive_seed
from ..inputs import did_you_mean

DEFAULT_OPPONENTS = ("hedgehog", "fox", "owl")
"""The opponents of a table whose creator picks none: a mix up to the strongest level (the
terminal game's at any rules, the web table's but at casual scoring)."""
NEWCOMERS_PRESET = "casual"
"""The newcomers' scoring: a web table of these rules defaults to the gentlest opponents."""
BASELINE = "greedy"
"""The player a table falls back on when the levels are not installed."""
STANDIN = "hedgehog"
"""Who decides for a person who is away or out of time (a careful level)."""


class UnknownPlayer(SgmahjongError):
    """An AI player name that is not known; each screen words it (:meth:`sentence`)."""

    def __init__(self, name: str, choices: Sequence[str]) -> None:
        self.name = name
        self.choices = list(choices)
        super().__init__(self.sentence("player"))

    def sentence(self, what: str) -> str:
        """``unknown opponent 'foxx' (did you mean fox?); choose from ...``: ``what`` is
        the screen's word for an AI player."""
        return (f"unknown {what} {self.name!r}{did_you_mean(self.name, self.choices)}; "
                f"choose from {', '.join(self.choices)}")


def ai_player_names() -> list[str]:
    """The AI players one can pick: the five levels weakest first, then the baselines."""
    return player_names()


def make_player(name: str, seed: int) -> Agent:
    """A new AI player by name; ``seed`` makes its choices reproducible."""
    try:
        return make_agent(name, seed)
    except UnknownAgent:
        raise UnknownPlayer(name, ai_player_names()) from None


def player_seed(match_seed: int, player: int) -> int:
    """The seed of the AI player in chair ``player`` (0-3) of a match dealt from
    ``match_seed``: the same at every screen, so a seeded game plays alike everywhere."""
    return derive_seed(match_seed, 1000 + player)


def _installed(names: Sequence[str]) -> bool:
    known = ai_player_names()
    return all(n in known for n in names)


def default_opponents(preset: str | None = None,
                      newcomers: tuple[str, str, str] | None = None) -> tuple[str, str, str]:
    """The three AI players a table gets unless its creator picks others: with
    ``newcomers`` given (the web table passes the practice ladder's gentlest rung), those
    at the newcomers' scoring; else :data:`DEFAULT_OPPONENTS` (the baseline when the
    levels are not installed)."""
    want = (newcomers if newcomers is not None and preset == NEWCOMERS_PRESET
            else DEFAULT_OPPONENTS)
    return want if _installed(want) else (BASELINE, BASELINE, BASELINE)


def default_standin() -> str:
    """The AI player that stands in for an absent person."""
    return STANDIN if _installed([STANDIN]) else BASELINE


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


def unique_names(names: Sequence[str]) -> list[str]:
    """Names seat by seat, each numbered when an earlier seat has it:
    ``["You", "Fox", "Fox 2", "Owl"]``."""
    out: list[str] = []
    for name in names:
        out.append(unique_name(name, out))
    return out


def ai_names(levels: Sequence[str]) -> list[str]:
    """The names AI players of ``levels`` get seat by seat with no person at the table:
    the level's, numbered when another has it (``Fox``, ``Fox 2``). The names they get at
    a web table's start are among these (a person's name is never one of them), so a
    name refused now is never one that makes two seats alike later."""
    return unique_names([level.title() for level in levels])


__all__ = ["BASELINE", "DEFAULT_OPPONENTS", "NEWCOMERS_PRESET", "STANDIN", "UnknownPlayer",
           "ai_names", "ai_player_names", "default_opponents",
           "default_standin", "make_player", "player_seed", "same_name", "unique_name",
           "unique_names"]
