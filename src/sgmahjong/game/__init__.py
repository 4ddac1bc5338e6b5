"""The game engine: wall, deal, turns, claims, kongs, wins, payouts, Bao and the match.

Every state change is an :class:`Event` applied by :func:`apply`; :class:`Game` plays one
hand (``pending()``, ``legal_actions(seat)``, ``submit(seat, action)``, ``advance()``) and
:class:`Match` a sequence of hands. See ``docs/engine.md``.
"""

from .actions import Action, Chow, Discard, Kong, Pass, Pong, Win
from .engine import Game, HandOutcome, IllegalAction
from .events import (
    BaoIncurred,
    BonusExposed,
    Claimed,
    ClaimPassed,
    Dealt,
    Discarded,
    Drew,
    Event,
    HandDrawn,
    HandStarted,
    InstantPayout,
    KongDeclared,
    Settled,
    Won,
)
from .match import HandRecord, Match, MatchResult, MatchState
from .state import Phase, TableState, apply
from .view import PlayerView, SeatView, view
from .wall import shuffled_wall, wall_from_text, wall_text

__all__ = [
    "Action", "BaoIncurred", "BonusExposed", "Chow", "ClaimPassed", "Claimed", "Dealt",
    "Discard", "Discarded", "Drew", "Event", "Game", "HandDrawn", "HandOutcome", "HandRecord",
    "HandStarted", "IllegalAction", "InstantPayout", "Kong", "KongDeclared", "Match",
    "MatchResult", "MatchState", "Pass", "Phase", "PlayerView", "Pong", "SeatView", "Settled",
    "TableState", "Win", "Won", "apply", "shuffled_wall", "view", "wall_from_text", "wall_text",
]
