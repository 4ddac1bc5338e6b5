"""The practice ladder at the web table: rungs as the lobby lists them, stars per hand.

The rungs and the star rules are :mod:`sgmahjong.store.ladder`'s, shared with the terminal
game. The server only says which goals a hand or a match met; there are no accounts, so
the browser keeps the stars (and knows which ones are new).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from ..game import HandRecord, Match
from ..game.codec import JSON
from ..store.ladder import (
    ALL_DONE,
    GOALS,
    MAX_STARS,
    TABLES,
    LadderTable,
    goal_sequence,
    hand_stars,
    match_stars,
)

PLAYER = 0
"""The ladder player: the table's creator (a ladder table is solo)."""


def ladder_json() -> JSON:
    """The ladder for the lobby: rungs, goals, and the order to suggest them in."""
    return {
        "rungs": [{"id": t.id, "name": t.name, "opponents": list(t.opponents),
                   "blurb": t.blurb} for t in TABLES],
        "goals": [{"id": g, "text": text} for g, text in GOALS],
        "order": [{"rung": t.id, "goal": g, "text": text} for t, g, text in goal_sequence()],
        "max_stars": MAX_STARS, "all_done": ALL_DONE,
    }


def find_rung(rung_id: str) -> LadderTable | None:
    return next((t for t in TABLES if t.id == rung_id), None)


def bad_rung(rung_id: str) -> str:
    """Why a create request's ``ladder`` field is refused."""
    return (f"field 'ladder': unknown ladder rung {rung_id[:40]!r}; choose from "
            f"{', '.join(t.id for t in TABLES)}")


class Stars(TypedDict):
    rung: object        # the rung's id, as the table stored it
    earned: list[str]   # goal ids


def hand_ladder(options: Mapping[str, object], record: HandRecord) -> Stars | None:
    """``{rung, earned}``: the goals the ladder player met in this hand (None off the ladder)."""
    rung = options.get("ladder")
    if not rung:
        return None
    tai = [w.tai for w in record.wins if w.player == PLAYER]
    return {"rung": rung, "earned": hand_stars(tai)}


def match_ladder(options: Mapping[str, object], match: Match) -> Stars | None:
    """``{rung, earned}`` for the whole match: every hand's stars and the quick game's, so a
    browser that missed a hand's end still gets them."""
    rung = options.get("ladder")
    if not rung:
        return None
    earned: list[str] = []
    for rec in match.hands:
        stars = hand_ladder(options, rec)
        for g in [] if stars is None else stars["earned"]:
            if g not in earned:
                earned.append(g)
    if match.quick and match.state.ended:
        earned.extend(g for g in match_stars(match.state.scores, PLAYER) if g not in earned)
    order = [g for g, _ in GOALS]
    return {"rung": rung, "earned": sorted(earned, key=order.index)}


__all__ = ["PLAYER", "bad_rung", "find_rung", "hand_ladder", "ladder_json", "match_ladder"]
