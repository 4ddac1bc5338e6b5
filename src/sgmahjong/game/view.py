"""What one seat may see: ``view(state, seat) -> PlayerView``, the only redaction path.

A view holds that seat's own concealed tiles and everything public (declared sets, bonus
tiles, discards, scores, the phase, the tile on offer) and the wall's *counts* only:
never another seat's concealed tiles or the order of the wall.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, TypeVar

from ..hand import Hand
from ..rules.model import Ruleset
from ..tiles import Seat, Tile
from .state import DeclaredSet, Phase, TableState
from .wall import KIND, NUM_TILES

T = TypeVar("T")


def _python_class(cls: type[T]) -> type[T]:
    """Marks a class that stays an ordinary Python class when this module is compiled
    (:mod:`sgmahjong.fast`: mypyc leaves classes with decorators it does not know as
    Python classes), so that views can be filled in their unfrozen twins there too: a
    compiled frozen dataclass is still built through the dataclass's Python ``__init__``."""
    return cls


@_python_class
@dataclass(frozen=True, slots=True)
class SeatView:
    """The public part of one seat."""

    seat: Seat
    melds: tuple[DeclaredSet, ...]
    bonus: tuple[Tile, ...]
    discards: tuple[Tile, ...]
    concealed_count: int
    score: int


@_python_class
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


@_python_class
class _Unfrozen:
    """:class:`PlayerView`'s slot layout without its frozen ``__setattr__``. A view is filled
    in here and then given its class (CPython allows that between classes with the same
    slots): a frozen dataclass's ``__init__`` sets each of the 21 fields through
    ``object.__setattr__``, and a view is built at nearly every decision, so this is several
    times faster. The result is an ordinary, frozen :class:`PlayerView` (a test checks it
    equals one built by the constructor)."""

    __slots__ = PlayerView.__slots__


@_python_class
class _UnfrozenSeat:
    """:class:`SeatView`'s slots, filled in the same way (one is rebuilt at most events)."""

    __slots__ = SeatView.__slots__


def _twin_works() -> bool:
    """Whether views can be filled in their unfrozen twins: true when this module runs as
    Python. Compiled (:mod:`sgmahjong.fast`), the classes are native, cannot change
    class, and their constructors are fast: views are built by them."""
    try:
        u: Any = _UnfrozenSeat()
        for name in getattr(SeatView, "__slots__", ()):
            setattr(u, name, None)
        u.__class__ = SeatView
    except (AttributeError, TypeError):
        return False
    return True


_TWIN: Final = _twin_works()


def _new_seat_view(seat: Seat, melds: tuple[DeclaredSet, ...], bonus: tuple[Tile, ...],
                   discards: tuple[Tile, ...], concealed_count: int, score: int) -> SeatView:
    if not _TWIN:
        return SeatView(seat, melds, bonus, discards, concealed_count, score)
    u: Any = _UnfrozenSeat()
    u.seat = seat
    u.melds = melds
    u.bonus = bonus
    u.discards = discards
    u.concealed_count = concealed_count
    u.score = score
    u.__class__ = SeatView
    return u  # type: ignore[no-any-return]


def _kinds(ids: tuple[int, ...]) -> tuple[Tile, ...]:
    return tuple(map(KIND.__getitem__, ids))


class _Cache:
    """What the views of one state share: the public seats, ``seen``, and each seat's view
    once built. Dropped by :func:`~.state.apply` at every event."""

    __slots__ = ("seats", "seen", "views")

    def __init__(self, state: TableState) -> None:
        # Each seat's part as _seat_view gives it, with its usual case (nothing of the seat
        # changed since its part was built) tested here rather than in a call per seat.
        scores = state.scores
        seats = []
        for seat, s in zip(_SEATS, state.seats, strict=True):
            old = s.public
            if old is not None:
                sv, concealed, bonus, discards = old
                if (concealed is s.concealed and discards is s.discards and bonus is s.bonus
                        and sv.melds is s.melds and sv.score == scores[seat]):
                    seats.append(sv)
                    continue
            seats.append(_seat_view(state, seat))
        self.seats = tuple(seats)
        self.seen = state.seen
        self.views: list[PlayerView | None] = [None, None, None, None]


_SEATS: Final = tuple(Seat)


def _seat_view(state: TableState, seat: Seat) -> SeatView:
    """The public part of one seat, rebuilt only when something of it changed."""
    s = state.seats[seat]
    score = state.scores[seat]
    old = s.public
    if old is None:
        new = _new_seat_view(seat, s.melds, _kinds(s.bonus), _kinds(s.discards),
                             len(s.concealed), score)
    else:
        sv, concealed, bonus, discards = old  # type: ignore[misc]
        if (concealed is s.concealed and discards is s.discards and bonus is s.bonus
                and sv.melds is s.melds and sv.score == score):
            return sv  # type: ignore[no-any-return]
        seen = sv.discards
        if discards is s.discards:
            pass
        elif len(s.discards) == len(discards) + 1 and s.discards[:-1] == discards:
            seen = (*seen, KIND[s.discards[-1]])   # one more discard: the usual change
        else:
            seen = _kinds(s.discards)
        new = _new_seat_view(seat, s.melds, sv.bonus if bonus is s.bonus else _kinds(s.bonus),
                             seen, len(s.concealed), score)
    s.public = (new, s.concealed, s.bonus, s.discards)
    return new


def _cache(state: TableState) -> _Cache:
    cached = state.public_cache
    if cached is None:
        cached = state.public_cache = _Cache(state)
    return cached  # type: ignore[return-value]


def public_seats(state: TableState) -> tuple[SeatView, ...]:
    """The public part of every seat (shared by the views; a seat's part is rebuilt only
    when it changes)."""
    return _cache(state).seats


def view(state: TableState, seat: Seat) -> PlayerView:
    """The table as ``seat`` sees it (built once per state change and seat)."""
    cache = _cache(state)
    v = cache.views[seat]
    if v is not None:
        return v
    own = state.seats[seat]
    w = state.wall
    drawn = own.last_drawn
    wt = state.window_tile
    if w is None:
        wall_remaining = live_remaining = replacements_remaining = 0
    else:
        # WallState's three properties, read from its two pointers here (a test checks
        # they agree): a view is built at nearly every decision.
        front, back, end = w.front, w.back, w.end_tiles
        wall_remaining = back - front
        if w.dead_wall:
            live = NUM_TILES - end - front
            repl = back - (NUM_TILES - end)
            live_remaining = live if live > 0 else 0
            replacements_remaining = repl if repl > 0 else 0
        else:
            live = back - front - end
            live_remaining = replacements_remaining = live if live > 0 else 0
    if not _TWIN:
        v = PlayerView(seat, state.rules, state.round_wind, state.hand_number, state.phase,
                       state.turn, None if wt is None else KIND[wt], own.tiles.kinds,
                       None if drawn is None else KIND[drawn], own.passed, own.blocked,
                       own.must_discard, cache.seats, wall_remaining, live_remaining,
                       replacements_remaining, state.draw_replacement, state.draw_final,
                       state.discard_count, state.sets_declared, cache.seen)
        cache.views[seat] = v
        return v
    u: Any = _Unfrozen()
    u.seat = seat
    u.rules = state.rules
    u.round_wind = state.round_wind
    u.hand_number = state.hand_number
    u.phase = state.phase
    u.turn = state.turn
    u.window_tile = None if wt is None else KIND[wt]
    u.concealed = own.tiles.kinds
    u.last_drawn = None if drawn is None else KIND[drawn]
    u.passed = own.passed
    u.blocked = own.blocked
    u.must_discard = own.must_discard
    u.seats = cache.seats
    u.wall_remaining = wall_remaining
    u.live_remaining = live_remaining
    u.replacements_remaining = replacements_remaining
    u.draw_replacement = state.draw_replacement
    u.draw_final = state.draw_final
    u.discard_count = state.discard_count
    u.sets_declared = state.sets_declared
    u.seen = cache.seen
    u.__class__ = PlayerView
    cache.views[seat] = u
    return u  # type: ignore[no-any-return]
