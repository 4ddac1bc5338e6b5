"""How the engine's codes are said in English: why a hand was drawn, how a win came,
what an instant payout was for, what made a player liable (Bao). The terminal game and
the web table say them the same way."""

from __future__ import annotations

DRAWN_WHY = {
    "wall": "the wall ran down to its last 15 tiles with nobody winning",
    "replacement": "no replacement tile was left to draw",
    "final-tile": "the wall is down to its last 15 tiles and nobody won on the final "
                  "playable tile",
}
CONTEXT_NAMES = {
    "replacement": "on a replacement tile", "last-tile": "on the last tile",
    "robbing-kong": "by robbing a kong", "robbing-eighth": "by robbing the eighth flower",
    "heavenly": "heavenly hand", "earthly": "earthly hand",
}
PAYOUT_NAMES = {
    "claimed-kong": "a kong claimed from a discard", "added-kong": "a kong added to a pong",
    "concealed-kong": "a concealed kong", "cat-mouse": "the cat and the mouse",
    "rooster-centipede": "the rooster and the centipede",
    "own-flower-season": "their own flower and season", "four-animals": "all four animals",
    "four-flowers": "all four flowers", "four-seasons": "all four seasons",
}
BAO_NAMES = {
    "third-dragon": "fed the third dragon set", "fourth-wind": "fed the fourth wind set",
    "exposed-limit": "fed a set that took the hand to the limit",
    "exposed-limit-pong": "fed a set that took the hand to the limit",
    "full-colour": "fed a full-colour hand showing three sets", "fresh-tile":
    "threw a fresh tile late in the hand",
}

__all__ = ["BAO_NAMES", "CONTEXT_NAMES", "DRAWN_WHY", "PAYOUT_NAMES"]
