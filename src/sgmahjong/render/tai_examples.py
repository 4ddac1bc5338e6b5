"""A small example hand for each scoring pattern, for the tai table of the rules pages.

Each example is a whole winning hand and the way it was won; the tests score every
example under every preset and check that it scores its pattern, and the pages caption each
example with what the scorer gives it under the rules in play, so they never show a hand
that would not score what they say.

>>> ex = EXAMPLES["dragon-pong"]
>>> ex.hand.text, ex.context().self_drawn
('11123m456p789s, pong 777z', False)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..hand import Hand
from ..scoring.context import WinContext
from ..tiles import Seat, Tile, parse_tiles

__all__ = ["EXAMPLES", "HONOURS_ONLY", "TaiExample"]


@dataclass(frozen=True)
class TaiExample:
    """A winning hand (concealed tiles with the winning tile, declared sets, bonus tiles)
    and how it was won: the winner's seat, self-drawn or on a discard, special events."""

    text: str
    win: str
    seat: Seat = Seat.SOUTH
    self_drawn: bool = False
    events: tuple[str, ...] = ()
    note: str = ""

    @property
    def hand(self) -> Hand:
        return Hand.parse(self.text)

    @property
    def win_tile(self) -> Tile:
        return parse_tiles(self.win)[0]

    def context(self) -> WinContext:
        """The win as the scorer reads it (East round; a discard comes from East, or from
        North when East is the winner)."""
        discarder = None
        if not self.self_drawn:
            discarder = Seat.NORTH if self.seat == Seat.EAST else Seat.EAST
        return WinContext.from_events(self.seat, self.win_tile, self.self_drawn, Seat.EAST,
                                      discarder, self.events)


_PONG_WEST = "123m456p789s11m, pong 333z"
"""A plain hand worth nothing by itself (West is neither South's seat nor the round's
wind), to show a bonus tile's tai on its own."""

EXAMPLES: dict[str, TaiExample] = {
    "dragon-pong": TaiExample("123m456p789s11m, pong 777z", "1m"),
    "seat-wind": TaiExample("123m456p789s11m, pong 222z", "1m", note="South's own wind"),
    "round-wind": TaiExample("123m456p789s11m, pong 111z", "1m", note="in the East round"),
    "animal": TaiExample(f"{_PONG_WEST}, bonus 1a", "1m"),
    "own-flower": TaiExample(f"{_PONG_WEST}, bonus 2f", "1m", note="South holds flower 2"),
    "own-season": TaiExample(f"{_PONG_WEST}, bonus 2g", "1m", note="South holds season 2"),
    "four-animals": TaiExample(f"{_PONG_WEST}, bonus 1a2a3a4a", "1m"),
    "four-flowers": TaiExample(f"{_PONG_WEST}, bonus 1f2f3f4f", "1m"),
    "four-seasons": TaiExample(f"{_PONG_WEST}, bonus 1g2g3g4g", "1m"),
    "all-chow": TaiExample("123m456p789s345s11m, bonus 1a", "3s",
                           note="all chows, with a bonus tile"),
    "ping-hu": TaiExample("123m456p789s345s11m", "3s",
                          note="all chows, no bonus tile, won on a two-sided wait"),
    "all-pong": TaiExample("999s55m, pong 111m, pong 444p, pong 777s", "5m"),
    "half-colour": TaiExample("123m456m789m11m, pong 333z", "1m"),
    "full-colour": TaiExample("123m456m789m11m, pong 222m", "1m"),
    "all-honours": TaiExample("111z222z44z, pong 555z, pong 666z", "4z"),
    "half-terminals": TaiExample("111m999p11z, pong 999s, pong 333z", "1z"),
    "all-terminals": TaiExample("111m999m11p, pong 999p, pong 111s", "1p"),
    "little-three-dragons": TaiExample("123m456p55z, pong 666z, pong 777z", "5z"),
    "big-three-dragons": TaiExample("123m11p, pong 555z, pong 666z, pong 777z", "1p"),
    "little-four-winds": TaiExample("123m22z, pong 111z, pong 333z, pong 444z", "2z"),
    "big-four-winds": TaiExample("11m, pong 111z, pong 222z, pong 333z, pong 444z", "1m"),
    "thirteen-wonders": TaiExample("19m19p19s1234567z1m", "1m"),
    "nine-gates": TaiExample("11123455678999m", "5m"),
    "four-concealed-pongs": TaiExample("111m444p777s999s55m", "5m", self_drawn=True),
    "four-kongs": TaiExample("55m, kong 1111m, kong 4444p, concealed-kong 7777s, kong 9999s",
                             "5m"),
    "heavenly-hand": TaiExample("123m456p789s11m777z", "1m", seat=Seat.EAST, self_drawn=True,
                                events=("heavenly",), note="the banker's own deal"),
    "earthly-hand": TaiExample("123m456p789s11m777z", "1m", events=("earthly",),
                               note="on the banker's first discard"),
    "eight-flowers": TaiExample("123m456p789s11m, pong 333z, bonus 1f2f3f4f1g2g3g4g", "1m"),
    "robbing-the-eighth": TaiExample("123m456p789s11m, pong 333z, bonus 1f2f3f4f1g2g3g4g",
                                     "1m", events=("robbing-eighth",),
                                     note="the eighth taken from another player"),
    "men-qing-zi-mo": TaiExample("123m456p789s11m777z", "1m", self_drawn=True),
    "replacement-win": TaiExample("123m456p789s11m, pong 777z, bonus 1f", "1m",
                                  self_drawn=True, events=("replacement",)),
    # Self-drawn: where replacements come from the same wall (every preset that scores
    # it), no discard follows the final playable tile, so no one can win on a discard then.
    "last-tile": TaiExample("123m456p789s11m, pong 777z", "1m", self_drawn=True,
                            events=("last-tile",), note="the final playable tile"),
    "robbing-the-kong": TaiExample("123m456p789s11m, pong 777z", "1m",
                                   events=("robbing-kong",)),
}

HONOURS_ONLY = EXAMPLES["all-honours"]
"""A hand of winds and dragons only: under rules where such a hand counts as Full Colour
(``honours_only_as_full_colour``) the Full Colour row shows it too."""
