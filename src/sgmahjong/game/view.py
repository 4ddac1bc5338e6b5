"""What one seat may see: ``view(state, seat) -> PlayerView``, the only redaction path.

A view holds that seat's own concealed tiles and everything public (declared sets, bonus
tiles, discards, scores, the phase, the tile on offer) and the wall's *counts* only:
never another seat's concealed tiles or the order of the wall.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..hand import Hand
from ..rules.model import Ruleset
from ..tiles import Seat, Tile
from .state import DeclaredSet, Phase, TableState
from .wall import KIND


@dataclass(frozen=True, slots=True)
class SeatView:
    """The public part of one seat."""

    seat: Seat
    melds: tuple[DeclaredSet, ...]
    bonus: tuple[Tile, ...]
    discards: tuple[Tile, ...]
    concealed_count: int
    score: int


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's view of the table. ``turn`` is the seat on turn or offering ``window_tile``."""

    seat: Seat
    rules: Ruleset
    round_wind: Seat
    hand_number: int
    phase: Phase
    turn: Seat
    window_tile: Tile | None
    concealed: tuple[Tile, ...]
    last_drawn: Tile | None
    passed: frozenset[Tile]
    blocked: Tile | None
    must_discard: bool
    seats: tuple[SeatView, ...]
    wall_remaining: int
    live_remaining: int
    replacements_remaining: int
    draw_replacement: bool
    draw_final: bool
    discard_count: int
    sets_declared: int
    seen: tuple[int, ...]

    @property
    def me(self) -> SeatView:
        return self.seats[self.seat]

    @property
    def hand(self) -> Hand:
        """Own concealed tiles, declared sets and bonus tiles as a :class:`Hand`."""
        me = self.me
        return Hand(tuple(t for t in self.concealed if not t.is_bonus),
                    tuple(m.meld for m in me.melds), me.bonus)


def _kinds(ids: tuple[int, ...]) -> tuple[Tile, ...]:
    return tuple(map(KIND.__getitem__, ids))


def public_seats(state: TableState) -> tuple[SeatView, ...]:
    """The public part of every seat (built once per state change and shared by the views)."""
    cached = state.public_cache
    if cached is None:
        cached = tuple(SeatView(seat, s.melds, _kinds(s.bonus), _kinds(s.discards),
                                len(s.concealed), state.scores[seat])
                       for seat, s in zip(Seat, state.seats, strict=True))
        state.public_cache = cached
    return cached  # type: ignore[return-value]


def view(state: TableState, seat: Seat) -> PlayerView:
    """The table as ``seat`` sees it."""
    own = state.seats[seat]
    seats = public_seats(state)
    w = state.wall
    return PlayerView(
        seat=seat, rules=state.rules, round_wind=state.round_wind,
        hand_number=state.hand_number, phase=state.phase, turn=state.turn,
        window_tile=None if state.window_tile is None else KIND[state.window_tile],
        concealed=_kinds(own.concealed),
        last_drawn=None if own.last_drawn is None else KIND[own.last_drawn],
        passed=own.passed, blocked=own.blocked, must_discard=own.must_discard, seats=seats,
        wall_remaining=w.remaining if w else 0, live_remaining=w.live_remaining if w else 0,
        replacements_remaining=w.replacements_remaining if w else 0,
        draw_replacement=state.draw_replacement, draw_final=state.draw_final,
        discard_count=state.discard_count, sets_declared=state.sets_declared,
        seen=tuple(state.seen),
    )
