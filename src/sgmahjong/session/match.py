"""The match a table plays: the rules of a preset, a quick game's length, the hand label."""

from __future__ import annotations

import dataclasses

from ..game import Match
from ..rules.loading import load_rules
from ..rules.model import Ruleset

QUICK_HANDS = 4
"""Hands in a quick game when the preset does not define one (the rules' quick game)."""


def quick_rules(rules: Ruleset) -> Ruleset:
    """The rules of a quick game: the preset's own, or the same with a 4-hand quick game."""
    if rules.match.quick_game_hands > 0:
        return rules
    return dataclasses.replace(
        rules, match=dataclasses.replace(rules.match, quick_game_hands=QUICK_HANDS))


def table_rules(preset: str, quick: bool) -> Ruleset:
    """The rules a table of ``preset`` plays: a quick game's when ``quick``."""
    rules = load_rules(preset)
    return quick_rules(rules) if quick else rules


def hand_label(number: int, quick_hands: int | None = None) -> str:
    """``"Hand 2 of 4"`` in a quick game of ``quick_hands`` hands, else ``"Hand 2"``:
    hand ``number`` counted from 1 (0 before the first deal).

    >>> hand_label(2, 4), hand_label(7)
    ('Hand 2 of 4', 'Hand 7')
    """
    if quick_hands:
        return f"Hand {number} of {quick_hands}"
    return f"Hand {number}"


def match_hand_label(match: Match) -> str:
    """The label of the hand ``match`` is playing (of the last one played between hands)."""
    number = match.state.hands_played + (1 if match.game is not None else 0)
    return hand_label(number, match.rules.match.quick_game_hands if match.quick else None)


__all__ = ["QUICK_HANDS", "hand_label", "match_hand_label", "quick_rules", "table_rules"]
