"""What the table says about a hand, in English: why a hand was drawn, how a win came, what
an instant payout was for, what made a player liable (Bao), and the sentences for wins,
payments and payouts. The terminal game, the web table and the replay say them the same
way; tile names, plurals and "You pay" / "Bob pays" come from :mod:`sgmahjong.english`.

Names are the players' names as the front end shows them; the name ``"You"`` makes a
sentence speak to the reader:

>>> payment_text("You", "Rabbit", 4, "discarder: 2 × base 2")
'You pay Rabbit 4 points (discarder: 2 × base 2).'
>>> payment_text(None, "South", 1, "one point for the win")
'South scores 1 point (one point for the win).'
>>> win_text("Rabbit", Tile.M4, "You", ("last-tile",), 3, 3)
'Rabbit won on 4 Characters, on your discard (on the last tile): 3 tai.'
>>> payout_text("You", 2, "concealed-kong")
'You collect 2 points from each player for a concealed kong.'
>>> payout_text("You", 1, "own-flower-season")
'You collect 1 point from each player for your own flower and season.'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..english import (
    count,
    is_you,
    objective,
    possessive,
    says,
    sentence,
    tile_list,
    tile_name,
    verb,
)
from ..game.events import Won
from ..tiles import Tile

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


def drawn_text(reason: str) -> str:
    """``"The hand is drawn: no replacement tile was left to draw."``"""
    return sentence(f"the hand is drawn: {DRAWN_WHY.get(reason, reason)}")


def tai_text(tai: int, raw_tai: int | None = None) -> str:
    """``"3 tai"``, or ``"5 tai (7 before the cap)"`` when the cap cut the raw tai."""
    capped = f" ({raw_tai} before the cap)" if raw_tai is not None and raw_tai != tai else ""
    return f"{count(tai, 'tai')}{capped}"


def tai_counted(won: Won) -> bool:
    """Whether a win was scored under rules that count tai, read from the win alone (for a
    front end that has the event but not the rules): rules that count no tai give every
    win 0 tai and no pattern, while rules that count them accept a win only at its
    minimum, one tai or more in every preset."""
    return won.raw_tai != 0 or len(won.patterns) > 0


def win_text(winner: str, tile: Tile, discarder: str | None, context: Sequence[str],
             tai: int, raw_tai: int, *, counts_tai: bool = True, past: bool = True) -> str:
    """How a win came: ``"Rabbit won on 4 Characters, on your discard: 3 tai."``
    (``discarder`` None: self-drawn). Without ``counts_tai`` (rules that count no tai,
    where any complete hand wins) the tai are not mentioned."""
    how = "self-drawn" if discarder is None else f"on {possessive(discarder)} discard"
    extra = ", ".join(CONTEXT_NAMES.get(c, c) for c in context)
    text = (f"{winner} {'won' if past else verb(winner, 'win')} on "
            f"{tile_name(tile)}, {how}" + (f" ({extra})" if extra else ""))
    if counts_tai:
        text += f": {tai_text(tai, raw_tai)}"
    return sentence(text)


def payment_text(payer: str | None, payee: str, amount: int, why: str = "") -> str:
    """One line of a settlement: ``"Bob pays you 4 points (discarder: 2 × base 2)."``;
    ``payer`` None: points from nobody, ``"Rabbit scores 1 point (...)."``"""
    points = count(amount, "point")
    text = (says(payee, "score", points) if payer is None
            else says(payer, "pay", f"{objective(payee)} {points}"))
    return sentence(text + (f" ({why})" if why else ""))


def payout_text(name: str, amount: int, reason: str) -> str:
    """An instant payout: ``"Bob collects 2 points from each player for a concealed kong."``"""
    why = PAYOUT_NAMES.get(reason, reason)
    if is_you(name):
        why = why.replace("their own", "your own")
    return sentence(says(name, "collect", f"{count(amount, 'point')} from each player for "
                                          f"{why}"))


def bao_text(name: str, case: str, winner: str, tile: Tile) -> str:
    """``"Bob fed the third dragon set (Red Dragon) and pays for your win."``"""
    return sentence(f"{name} {BAO_NAMES.get(case, case)} ({tile_name(tile)}) and "
                    f"{verb(name, 'pay')} for {possessive(winner)} win")


def bonus_text(tiles: Sequence[Tile]) -> str:
    """Bonus tiles set aside, named: ``"Plum and Chrysanthemum"``."""
    return tile_list(tiles)


__all__ = ["BAO_NAMES", "CONTEXT_NAMES", "DRAWN_WHY", "PAYOUT_NAMES", "bao_text",
           "bonus_text", "drawn_text", "payment_text", "payout_text", "tai_counted", "tai_text",
           "win_text"]
