"""The situation of one win, kept apart from the house rules: seats, winning tile, events."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import HandError
from ..inputs import did_you_mean
from ..tiles import Seat, Tile

EVENTS = ("replacement", "last-tile", "robbing-kong", "robbing-eighth", "heavenly", "earthly")


@dataclass(frozen=True, slots=True)
class WinContext:
    """Who won, how, and under what circumstances.

    ``discarder`` is the seat that discarded the winning tile, added the robbed kong or
    exposed the robbed eighth bonus tile; None for a self-drawn win.
    """

    seat: Seat
    win_tile: Tile
    self_drawn: bool
    round_wind: Seat = Seat.EAST
    discarder: Seat | None = None
    replacement: bool = False
    last_tile: bool = False
    robbing_kong: bool = False
    robbing_eighth: bool = False
    heavenly: bool = False
    earthly: bool = False

    def __post_init__(self) -> None:
        if self.self_drawn and self.discarder is not None:
            raise HandError("a self-drawn win has no discarder")
        if not self.self_drawn and self.discarder is None:
            raise HandError("a win on a discard needs the discarder's seat")
        if self.discarder is not None and self.discarder == self.seat:
            raise HandError("the winner cannot be the discarder")
        if self.robbing_kong and self.self_drawn:
            raise HandError("robbing a kong is a win on another player's tile, not self-drawn")
        if self.robbing_eighth and self.self_drawn:
            raise HandError("robbing the eighth takes another player's bonus tile, "
                            "not a self-drawn one")
        # The rarer events each describe one moment of the hand; two that cannot happen
        # together would score patterns the table never saw.
        if self.robbing_kong and self.robbing_eighth:
            raise HandError("robbing a kong and robbing the eighth are different wins, "
                            "not one")
        if self.replacement and not self.self_drawn:
            raise HandError("a win on a replacement draw is self-drawn, it has no discarder")
        if self.heavenly and (not self.self_drawn or self.seat != Seat.EAST):
            raise HandError("heavenly is the banker's (East's) self-drawn win on the deal, "
                            "with no discarder")
        if self.earthly and self.discarder != Seat.EAST:
            raise HandError("earthly is a win on the banker's (East's) first discard: the "
                            "discarder must be East")
        if self.heavenly and self.earthly:
            raise HandError("a win cannot be both heavenly and earthly")

    @classmethod
    def from_events(cls, seat: Seat, win_tile: Tile, self_drawn: bool, round_wind: Seat,
                    discarder: Seat | None, events: tuple[str, ...] = ()) -> WinContext:
        """Build a context from event names (see ``EVENTS``)."""
        for e in events:
            if e not in EVENTS:
                raise HandError(f"unknown event {e!r}{did_you_mean(e, EVENTS)}: expected one "
                                f"of {', '.join(EVENTS)}")
        return cls(
            seat=seat, win_tile=win_tile, self_drawn=self_drawn, round_wind=round_wind,
            discarder=discarder, replacement="replacement" in events,
            last_tile="last-tile" in events, robbing_kong="robbing-kong" in events,
            robbing_eighth="robbing-eighth" in events, heavenly="heavenly" in events,
            earthly="earthly" in events,
        )

    @property
    def events(self) -> tuple[str, ...]:
        flags = (self.replacement, self.last_tile, self.robbing_kong, self.robbing_eighth,
                 self.heavenly, self.earthly)
        return tuple(e for e, on in zip(EVENTS, flags, strict=True) if on)
