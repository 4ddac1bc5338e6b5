"""The final standings of a match: players best first, equal scores sharing a place."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..ledger import standings as ledger_standings

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


@dataclass(frozen=True)
class Standing:
    """One player's place: ``place`` 1-4 (shared by equal scores, the next one skipped)."""

    place: int
    player: int
    name: str
    score: int

    @property
    def ordinal(self) -> str:
        """``"1st"`` ... ``"4th"``."""
        return ORDINALS[self.place]


def final_standings(names: Sequence[str], scores: Sequence[int]) -> list[Standing]:
    """The players by score, best first; equal scores share a place and the next place is
    skipped (1, 1, 3, 4), and keep their seating order: the ledger's ranking, so a table
    and the ledger never place a player differently.

    >>> [(s.name, s.place) for s in final_standings("ABCD", [2, 2, 0, -4])]
    [('A', 1), ('B', 1), ('C', 3), ('D', 4)]
    """
    return [Standing(r["place"], r["player"], r["name"], r["points"])
            for r in ledger_standings(list(scores), list(names))]


__all__ = ["ORDINALS", "Standing", "final_standings"]
