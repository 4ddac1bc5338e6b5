"""Tai scoring and settlement: patterns as predicates, values from the rule set."""

from .context import EVENTS, WinContext
from .payments import PaymentLine, Settlement, base_points, settle_win
from .tai import ScoreItem, ScoreResult, score_hand

__all__ = [
    "EVENTS",
    "PaymentLine",
    "ScoreItem",
    "ScoreResult",
    "Settlement",
    "WinContext",
    "base_points",
    "score_hand",
    "settle_win",
]
