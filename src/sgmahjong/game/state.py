"""The table state of one hand, and ``apply(state, event)``: the only way it changes.

Live play and replay share this reducer. Events name tile kinds; the reducer picks the
physical copy: the most recently received copy of that kind in the seat's concealed tiles.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from ..analysis.decompose import Reading, completes, none_complete, read_parts, winning_tiles
from ..errors import SgmahjongError
from ..melds import Meld, MeldKind
from ..rules.model import Ruleset
from ..tiles import NUM_KINDS, Seat, Tile
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
from .wall import KIND, WallState, wall_from_kinds


class StateError(SgmahjongError):
    """An event that does not fit the state it is applied to (a corrupt or foreign record)."""


class Phase(Enum):
    """Where the hand is. ``CLAIMS``, ``ROB_KONG`` and ``EXPOSED`` are windows on a tile that
    other seats may take (a discard, a tile added to a kong, an exposed bonus tile)."""

    START = "start"
    DEAL = "deal"
    TURN = "turn"
    CLAIMS = "claims"
    ROB_KONG = "rob-kong"
    EXPOSED = "exposed"
    ENDED = "ended"


# Enum members read as module names: in Python 3.11 each ``Phase.TURN``-style lookup
# goes through the enum metaclass's ``__getattr__`` hook, several times slower than a
# global, and these are compared at every event.
_CHOW: Final = MeldKind.CHOW
_CONCEALED_KONG: Final = MeldKind.CONCEALED_KONG
_KONG: Final = MeldKind.KONG
_PONG: Final = MeldKind.PONG
_CLAIMS: Final = Phase.CLAIMS
_DEAL: Final = Phase.DEAL
_ENDED: Final = Phase.ENDED
_EXPOSED: Final = Phase.EXPOSED
_ROB_KONG: Final = Phase.ROB_KONG
_START: Final = Phase.START
_TURN: Final = Phase.TURN


_MELDS: Final[dict[tuple[MeldKind, Tile], Meld]] = {}


def _meld(kind: MeldKind, tile: Tile) -> Meld:
    """The (frozen, shared) :class:`Meld` of a kind and lowest tile."""
    m = _MELDS.get((kind, tile))
    if m is None:
        m = _MELDS[kind, tile] = Meld(kind, tile)
    return m


@dataclass(frozen=True, slots=True)
class DeclaredSet:
    """A declared set with its physical tiles; ``claimed`` is the id taken from a discard."""

    kind: MeldKind
    ids: tuple[int, ...]
    claimed: int | None = None
    claimed_from: Seat | None = None
    added: bool = False

    @property
    def meld(self) -> Meld:
        return _meld(self.kind, KIND[min(self.ids)])

    @property
    def tile(self) -> Tile:
        return KIND[min(self.ids)]


@dataclass(slots=True)
class SeatState:
    """One seat. Fields hold immutable values (tuples), replaced when they change."""

    concealed: tuple[int, ...] = ()
    melds: tuple[DeclaredSet, ...] = ()
    bonus: tuple[int, ...] = ()
    discards: tuple[int, ...] = ()           # unclaimed discards, in order
    passed: frozenset[Tile] = frozenset()    # passed-claim rule
    blocked: Tile | None = None              # own-discard rule: one's latest discard
    last_drawn: int | None = None            # the tile a self-drawn win would be on
    must_discard: bool = False               # just claimed a chow or pong
    liable: Seat | None = None               # Bao: who pays for this seat's win
    paid: frozenset[str] = frozenset()       # instant payouts already made
    # Derived from ``concealed`` (and ``melds``), recomputed when they are replaced; and the
    # seat's public view (see view.py). Not part of the state: not compared, not copied.
    _tiles: Tiles | None = field(default=None, init=False, compare=False, repr=False)
    public: Any = field(default=None, init=False, compare=False, repr=False)

    @property
    def size(self) -> int:
        """Playable tiles held, each declared set counting three."""
        return sum(1 for i in self.concealed if i < 136) + 3 * len(self.melds)

    @property
    def tiles(self) -> Tiles:
        """The concealed tiles as kinds and counts (cached until ``concealed`` changes)."""
        d = self._tiles
        if d is None or d.ids is not self.concealed or d.melds is not self.melds:
            d = self._tiles = Tiles(self.concealed, self.melds)
        return d


class Tiles:
    """A seat's concealed tiles read once: kinds in order, 46-kind counts (on demand) and the
    kinds that would complete the hand (on demand, for the claim windows)."""

    __slots__ = ("_counts", "_none_complete", "_parts", "_waits", "ids", "kinds", "melds")

    def __init__(self, ids: tuple[int, ...], melds: tuple[DeclaredSet, ...],
                 kinds: tuple[Tile, ...] | None = None) -> None:
        self.ids = ids
        self.melds = melds
        self.kinds = tuple(map(KIND.__getitem__, ids)) if kinds is None else kinds
        self._counts: list[int] | None = None
        self._waits: frozenset[int] | None = None
        self._parts: Reading | None = None
        self._none_complete = False

    def moved(self, ids: tuple[int, ...], kinds: tuple[Tile, ...], kind: Tile,
              delta: int) -> Tiles:
        """These tiles after one copy of ``kind`` came in (``delta`` 1) or went out (-1):
        ``ids`` and ``kinds`` as they are now. The counts follow by one step instead of a
        recount (a draw and a discard at every turn); the waits are found again."""
        new = Tiles(ids, self.melds, kinds)
        c = self._counts
        if c is not None:
            c = c.copy()
            c[kind] += delta
            new._counts = c
        return new

    @property
    def counts(self) -> list[int]:
        c = self._counts
        if c is None:
            c = self._counts = [0] * NUM_KINDS
            for k in self.kinds:
                c[k] += 1
        return c

    def completes(self, tile: int) -> bool:
        """Whether one more ``tile`` (0-33) completes these tiles with the declared sets:
        ``tile in waits()`` for any tile of which a copy is left. The hand's parts are read
        once and each claim window then looks only at the part ``tile`` falls in, which
        is cheaper than listing every wait."""
        r = self._parts
        if r is None:
            r = self._parts = read_parts(self.counts)
            self._none_complete = none_complete(r, self.counts, self.melds)
        if self._none_complete:
            return False
        return completes(r, self.counts, tile, self.melds)

    def waits(self) -> frozenset[int]:
        """Kinds that complete these tiles with the declared sets (regular or Thirteen
        Wonders), by :func:`sgmahjong.analysis.decompose.winning_tiles`."""
        w = self._waits
        if w is None:
            w = self._waits = frozenset(
                winning_tiles(self.counts, [m.meld for m in self.melds] if self.melds else ()))
        return w


@dataclass(slots=True)
class TableState:
    """Everything about one hand: the wall, the four seats, the phase and the scores."""

    rules: Ruleset
    round_wind: Seat = Seat.EAST
    hand_number: int = 0
    seed: int | None = None
    wall: WallState | None = None
    seats: list[SeatState] = field(default_factory=lambda: [SeatState() for _ in Seat])
    phase: Phase = Phase.START
    turn: Seat = Seat.EAST            # the seat on turn, or offering the window's tile
    window_tile: int | None = None    # the tile other seats may take in a window
    dealt: int = 0
    dealing: bool = True              # until East holds the 14th tile
    replacement_owed: bool = False
    draw_replacement: bool = False    # the turn seat's latest draw came from the back
    draw_final: bool = False          # ... and was the final playable tile
    discard_count: int = 0
    sets_declared: int = 0            # claims and kongs so far
    kong_declared: bool = False
    initial_bonus: frozenset[int] = frozenset()  # exposed before East's first discard
    seen: tuple[int, ...] = (0,) * NUM_KINDS  # times each kind was discarded
    scores: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    wins: list[Won] = field(default_factory=list)
    drawn: str | None = None
    public_cache: Any = field(default=None, compare=False, repr=False)  # see view.py

    @classmethod
    def empty(cls, rules: Ruleset) -> TableState:
        return cls(rules)

    @property
    def ended(self) -> bool:
        return self.phase is _ENDED


def apply(state: TableState, event: Event) -> None:
    """Change ``state`` by one event. Raises :class:`StateError` if the event cannot happen."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise StateError(f"unknown event {event!r}")
    if state.phase is _ENDED and not isinstance(event, (Won, Settled, InstantPayout,
                                                       BaoIncurred)):
        raise StateError(f"the hand is over; {event.TYPE} cannot follow")
    state.public_cache = None
    handler(state, event)


def _take(ids: tuple[int, ...], kind: Tile, what: str) -> tuple[int, tuple[int, ...]]:
    """Remove the most recently received copy of ``kind``."""
    for pos in range(len(ids) - 1, -1, -1):
        if KIND[ids[pos]] == kind:
            return ids[pos], ids[:pos] + ids[pos + 1:]
    raise StateError(f"{what} holds no {kind.text}")


def _find(ids: tuple[int, ...], kind: Tile, seat: Seat) -> int:
    """Where :func:`_take` would take ``kind`` from ``seat``'s concealed ``ids``."""
    for pos in range(len(ids) - 1, -1, -1):
        if KIND[ids[pos]] == kind:
            return pos
    raise StateError(f"{seat.name}'s hand holds no {kind.text}")


def _current_tiles(seat: SeatState) -> Tiles | None:
    """The seat's :class:`Tiles` if already read for its present tiles (else None)."""
    d = seat._tiles
    if d is not None and d.ids is seat.concealed and d.melds is seat.melds:
        return d
    return None


def _hand_started(s: TableState, e: HandStarted) -> None:
    if s.phase is not _START:
        raise StateError("a hand can only start on an empty table")
    s.round_wind, s.hand_number, s.seed = e.round_wind, e.hand_number, e.seed
    s.wall = WallState.new(wall_from_kinds(e.wall), s.rules.wall)
    s.phase = _DEAL


def _wall(s: TableState) -> WallState:
    if s.wall is None:
        raise StateError("no hand has started")
    return s.wall


def _dealt(s: TableState, e: Dealt) -> None:
    if s.phase is not _DEAL or e.seat != s.dealt:
        raise StateError(f"{e.seat.name} cannot be dealt now")
    w = _wall(s)
    ids = []
    for k in e.tiles:
        i = w.take(False)
        if KIND[i] != k:
            raise StateError(f"the deal does not match the wall: {k.text} vs {KIND[i].text}")
        ids.append(i)
    s.seats[e.seat].concealed = tuple(ids)
    s.dealt += 1


def _drew(s: TableState, e: Drew) -> None:
    w = _wall(s)
    if not w.can_draw(e.replacement) or KIND[w.peek(e.replacement)] != e.tile:
        raise StateError(f"{e.seat.name} cannot draw {e.tile.text} now: it is not the next tile")
    i = w.take(e.replacement)
    seat = s.seats[e.seat]
    old = _current_tiles(seat)
    seat.concealed = ids = (*seat.concealed, i)
    if old is not None:
        k = KIND[i]
        seat._tiles = old.moved(ids, (*old.kinds, k), k, 1)
    seat.last_drawn = i
    seat.passed = frozenset()
    seat.blocked = None
    seat.must_discard = False
    if e.replacement:
        s.replacement_owed = False
    s.draw_replacement = e.replacement
    s.draw_final = w.final_after_draw(e.replacement)
    s.turn = e.seat
    s.window_tile = None
    if s.dealing and not e.replacement and s.dealt == 4:
        s.dealing = False
    s.phase = _DEAL if s.dealing else _TURN


def _bonus_exposed(s: TableState, e: BonusExposed) -> None:
    seat = s.seats[e.seat]
    i, seat.concealed = _take(seat.concealed, e.tile, f"{e.seat.name}'s hand")
    if not e.tile.is_bonus:
        raise StateError(f"{e.tile.text} is not a bonus tile")
    seat.bonus = (*seat.bonus, i)
    if s.discard_count == 0:
        s.initial_bonus = s.initial_bonus | {i}
    s.replacement_owed = True
    s.turn = e.seat
    s.window_tile = i
    s.phase = _EXPOSED


def _discarded(s: TableState, e: Discarded) -> None:
    if s.phase is not _TURN or e.seat != s.turn:
        raise StateError(f"{e.seat.name} cannot discard now")
    seat = s.seats[e.seat]
    held = seat.concealed
    pos = _find(held, e.tile, e.seat)
    i = held[pos]
    old = _current_tiles(seat)
    seat.concealed = ids = held[:pos] + held[pos + 1:]
    if old is not None:
        seat._tiles = old.moved(ids, old.kinds[:pos] + old.kinds[pos + 1:], e.tile, -1)
    seat.discards = (*seat.discards, i)
    seat.blocked = e.tile
    seat.last_drawn = None
    seat.must_discard = False
    k = e.tile
    s.seen = (*s.seen[:k], s.seen[k] + 1, *s.seen[k + 1:])
    s.discard_count += 1
    s.window_tile = i
    s.phase = _CLAIMS


_SET_KINDS: Final = {"chow": _CHOW, "pong": _PONG, "kong": _KONG}


def _claimed(s: TableState, e: Claimed) -> None:
    if s.phase is not _CLAIMS or s.window_tile is None or e.discarder != s.turn:
        raise StateError("there is no discard to claim")
    kind = _SET_KINDS.get(e.kind)
    if kind is None:
        raise StateError(f"unknown claim kind {e.kind!r}")
    giver = s.seats[e.discarder]
    wid = s.window_tile
    if KIND[wid] != e.tile:
        raise StateError(f"the latest discard is {KIND[wid].text}, not {e.tile.text}")
    seat = s.seats[e.seat]
    need = list(Meld(kind, e.low).tiles)
    need.remove(e.tile)
    concealed = seat.concealed
    ids = [wid]
    for k in need:
        i, concealed = _take(concealed, k, f"{e.seat.name}'s hand")
        ids.append(i)
    giver.discards = giver.discards[:-1]
    seat.concealed = concealed
    seat.melds = (*seat.melds, DeclaredSet(kind, tuple(sorted(ids)), wid, e.discarder))
    seat.passed = frozenset()
    seat.blocked = None
    seat.last_drawn = None
    seat.must_discard = kind is not _KONG
    if kind is _KONG:
        s.replacement_owed = True
        s.kong_declared = True
    s.sets_declared += 1
    s.turn = e.seat
    s.window_tile = None
    s.draw_replacement = s.draw_final = False
    s.phase = _TURN


def _kong_declared(s: TableState, e: KongDeclared) -> None:
    if s.phase is not _TURN or e.seat != s.turn:
        raise StateError(f"{e.seat.name} cannot declare a kong now")
    seat = s.seats[e.seat]
    concealed = seat.concealed
    if e.kind == "concealed":
        ids = []
        for _ in range(4):
            i, concealed = _take(concealed, e.tile, f"{e.seat.name}'s hand")
            ids.append(i)
        seat.melds = (*seat.melds, DeclaredSet(_CONCEALED_KONG, tuple(sorted(ids))))
        s.window_tile = None
    elif e.kind == "added":
        pos = next((n for n, m in enumerate(seat.melds)
                    if m.kind is _PONG and m.tile == e.tile), None)
        if pos is None:
            raise StateError(f"{e.seat.name} has no pong of {e.tile.text} to add to")
        i, concealed = _take(concealed, e.tile, f"{e.seat.name}'s hand")
        old = seat.melds[pos]
        new = DeclaredSet(_KONG, tuple(sorted((*old.ids, i))), old.claimed,
                          old.claimed_from, added=True)
        seat.melds = (*seat.melds[:pos], new, *seat.melds[pos + 1:])
        s.window_tile = i
        s.phase = _ROB_KONG
    else:
        raise StateError(f"unknown kong kind {e.kind!r}")
    seat.concealed = concealed
    seat.passed = frozenset()
    seat.last_drawn = None
    s.replacement_owed = True
    s.kong_declared = True
    s.sets_declared += 1


def _claim_passed(s: TableState, e: ClaimPassed) -> None:
    seat = s.seats[e.seat]
    seat.passed = seat.passed | {e.tile}


def _instant_payout(s: TableState, e: InstantPayout) -> None:
    _add_scores(s, e.deltas)
    seat = s.seats[e.seat]
    seat.paid = seat.paid | {e.reason}


def _bao_incurred(s: TableState, e: BaoIncurred) -> None:
    seat = s.seats[e.winner]
    if seat.liable is None:
        seat.liable = e.seat


def _won(s: TableState, e: Won) -> None:
    winner = s.seats[e.seat]
    if e.discarder is not None and s.window_tile is not None and KIND[s.window_tile] == e.tile:
        wid = s.window_tile
        giver = s.seats[e.discarder]
        if "robbing-eighth" in e.context:
            giver.bonus = tuple(i for i in giver.bonus if i != wid)
            winner.bonus = (*winner.bonus, wid)
        elif "robbing-kong" in e.context:
            giver.melds = tuple(
                DeclaredSet(_PONG, tuple(i for i in m.ids if i != wid), m.claimed,
                            m.claimed_from) if wid in m.ids else m for m in giver.melds)
            winner.concealed = (*winner.concealed, wid)
        else:
            giver.discards = giver.discards[:-1]
            winner.concealed = (*winner.concealed, wid)
        s.window_tile = None
    s.wins.append(e)
    s.phase = _ENDED


def _settled(s: TableState, e: Settled) -> None:
    _add_scores(s, e.deltas)


def _hand_drawn(s: TableState, e: HandDrawn) -> None:
    s.drawn = e.reason
    s.window_tile = None
    s.phase = _ENDED


def _add_scores(s: TableState, deltas: tuple[int, ...]) -> None:
    if len(deltas) != 4:
        raise StateError(f"deltas need four seats, got {deltas!r}")
    for n in range(4):
        s.scores[n] += deltas[n]


# Each handler takes its own event class (the key), so the value type names the base.
_HANDLERS: Final[dict[type, Callable[[TableState, Any], None]]] = {
    HandStarted: _hand_started, Dealt: _dealt, Drew: _drew, BonusExposed: _bonus_exposed,
    Discarded: _discarded, Claimed: _claimed, KongDeclared: _kong_declared,
    ClaimPassed: _claim_passed, InstantPayout: _instant_payout, BaoIncurred: _bao_incurred,
    Won: _won, Settled: _settled, HandDrawn: _hand_drawn,
}
