"""One seat's observation as a fixed-shape numpy vector, read from its ``PlayerView`` only.

The vector is the concatenation of the named fields of :data:`FIELDS` (``unpack`` gives
them back by name and shape). Seats are *relative*: index 0 is the observing seat, 1 the
seat on its right (who plays next), 2 the seat opposite, 3 the seat on its left. Tile kinds
are the engine's order: 0-8 ``1m``-``9m``, 9-17 ``1p``-``9p``, 18-26 ``1s``-``9s``, 27-33
``E S W N`` and the ``Wh G R`` dragons, 34-45 the bonus tiles (flowers, seasons, animals).
docs/env.md describes every field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..game.state import Phase, TableState
from ..game.view import PlayerView
from ..game.wall import KIND, NUM_TILES
from ..melds import MeldKind
from ..tiles import Seat

MAX_DISCARDS = 32     # unclaimed discards kept per seat (the latest ones, if ever more)
MAX_POINTS = 1e7      # bound of the score fields (a match's running total stays far below)


@dataclass(frozen=True)
class Field:
    """One named block of the observation vector."""

    name: str
    shape: tuple[int, ...]
    high: float
    low: float = 0.0

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


FIELDS: tuple[Field, ...] = (
    Field("hand", (34,), 4),
    Field("drawn", (34,), 1),
    Field("offered", (46,), 1),
    Field("phase", (4,), 1),
    Field("turn", (4,), 1),
    Field("seat_wind", (4,), 1),
    Field("round_wind", (4,), 1),
    Field("flags", (3,), 1),
    Field("passed", (34,), 1),
    Field("blocked", (34,), 1),
    Field("chows", (4, 34), 4),
    Field("pongs", (4, 34), 1),
    Field("kongs", (4, 34), 1),
    Field("concealed_kongs", (4, 34), 1),
    Field("bonus", (4, 12), 1),
    Field("discards", (4, MAX_DISCARDS), 34),
    Field("discard_counts", (4,), 148),
    Field("concealed_counts", (4,), 18),
    Field("seen", (34,), 4),
    Field("wall", (3,), 148),
    Field("progress", (3,), 10_000),
    Field("scores", (4,), MAX_POINTS, -MAX_POINTS),
    Field("match_scores", (4,), MAX_POINTS, -MAX_POINTS),
)

OFFSET: dict[str, int] = {}
_at = 0
for _f in FIELDS:
    OFFSET[_f.name] = _at
    _at += _f.size
SIZE = _at
LOW = np.concatenate([np.full(f.size, f.low, np.float32) for f in FIELDS])
HIGH = np.concatenate([np.full(f.size, f.high, np.float32) for f in FIELDS])

_PHASES = {Phase.TURN: 0, Phase.CLAIMS: 1, Phase.ROB_KONG: 2, Phase.EXPOSED: 3}
_MELD_FIELD = {MeldKind.PONG: "pongs", MeldKind.KONG: "kongs",
               MeldKind.CONCEALED_KONG: "concealed_kongs"}
_HAND, _DRAWN, _OFFERED, _PHASE, _TURN, _SEAT_WIND, _ROUND_WIND, _FLAGS, _PASSED, _BLOCKED = (
    OFFSET[n] for n in ("hand", "drawn", "offered", "phase", "turn", "seat_wind", "round_wind",
                        "flags", "passed", "blocked"))
_CHOWS, _BONUS, _DISCARDS, _DISCARD_COUNTS, _CONCEALED_COUNTS, _SEEN = (
    OFFSET[n] for n in ("chows", "bonus", "discards", "discard_counts", "concealed_counts",
                        "seen"))
_WALL, _PROGRESS, _SCORES, _MATCH_SCORES = (
    OFFSET[n] for n in ("wall", "progress", "scores", "match_scores"))
_SET_BASE = {kind: OFFSET[name] for kind, name in _MELD_FIELD.items()}
_CHOW = MeldKind.CHOW
_ZERO = bytes(4 * SIZE)


def encode(view: PlayerView, match_scores: Sequence[int] | None = None, *,
           asked: bool = True) -> np.ndarray:
    """The observation of ``view.seat`` (float32, shape ``(SIZE,)``).

    ``match_scores`` are the running match totals before this hand, by seat (public; zeros
    when omitted, as in a single hand). ``asked``: whether the seat is to decide now; when
    it is not, the decision fields (``phase``, ``offered``) stay zero. The engine opens a
    window on a tile only when some seat can use it, so a window that this seat is not asked
    about tells of another seat's concealed tiles: it must not show (the discard itself is
    public, in the ``discards`` fields)."""
    # Written element by element into a plain buffer, then handed to numpy: single writes to
    # a memoryview cost less than numpy's, and this runs at every step of a learner.
    buf = bytearray(_ZERO)
    out = memoryview(buf).cast("f")
    me = view.seat
    for t in view.concealed:
        if t < 34:
            out[_HAND + t] += 1
    drawn = view.last_drawn
    if drawn is not None and drawn < 34:
        out[_DRAWN + drawn] = 1
    if asked:
        if view.window_tile is not None:
            out[_OFFERED + view.window_tile] = 1
        ph = _PHASES.get(view.phase)
        if ph is not None:
            out[_PHASE + ph] = 1
    out[_TURN + (view.turn - me) % 4] = 1
    out[_SEAT_WIND + me] = 1
    out[_ROUND_WIND + view.round_wind] = 1
    out[_FLAGS] = view.must_discard
    out[_FLAGS + 1] = view.draw_replacement
    out[_FLAGS + 2] = view.draw_final
    for t in view.passed:
        out[_PASSED + t] = 1
    if view.blocked is not None:
        out[_BLOCKED + view.blocked] = 1
    for sv in view.seats:
        r = (sv.seat - me) % 4
        for m in sv.melds:
            meld = m.meld
            if meld.kind is _CHOW:
                base = _CHOWS + 34 * r + meld.tile
                out[base] += 1
                out[base + 1] += 1
                out[base + 2] += 1
            else:
                out[_SET_BASE[meld.kind] + 34 * r + meld.tile] = 1
        for t in sv.bonus:
            out[_BONUS + 12 * r + t - 34] = 1
        discards = sv.discards
        at = _DISCARDS + MAX_DISCARDS * r
        for i, t in enumerate(discards[-MAX_DISCARDS:], at):
            out[i] = t + 1     # kind + 1, so that 0 means "no discard"
        out[_DISCARD_COUNTS + r] = len(discards)
        out[_CONCEALED_COUNTS + r] = sv.concealed_count
        out[_SCORES + r] = sv.score
        if match_scores is not None:
            out[_MATCH_SCORES + r] = float(match_scores[sv.seat])
    seen = view.seen
    for t in range(34):
        if seen[t]:
            out[_SEEN + t] = seen[t]
    out[_WALL] = view.wall_remaining
    out[_WALL + 1] = view.live_remaining
    out[_WALL + 2] = view.replacements_remaining
    out[_PROGRESS] = view.hand_number
    out[_PROGRESS + 1] = view.discard_count
    out[_PROGRESS + 2] = view.sets_declared
    return np.frombuffer(buf, np.float32)


# --- the oracle observation -------------------------------------------------------------
# For oracle guiding and centralised critics only: what no player may see, appended to the
# seat's own observation. Never what an agent is given to act on.
ORACLE_FIELDS: tuple[Field, ...] = (
    Field("all_concealed", (4, 34), 4),
    Field("wall_order", (NUM_TILES,), 46),
    Field("table_phase", (4,), 1),
    Field("table_offered", (46,), 1),
)
for _f in ORACLE_FIELDS:
    OFFSET[_f.name] = _at
    _at += _f.size
ORACLE_SIZE = _at
ORACLE_LOW = np.concatenate([LOW, *(np.full(f.size, f.low, np.float32) for f in ORACLE_FIELDS)])
ORACLE_HIGH = np.concatenate([HIGH, *(np.full(f.size, f.high, np.float32)
                                      for f in ORACLE_FIELDS)])
_ALL_CONCEALED, _WALL_ORDER, _TABLE_PHASE, _TABLE_OFFERED = (
    OFFSET[n] for n in ("all_concealed", "wall_order", "table_phase", "table_offered"))


def encode_oracle(state: TableState, seat: Seat, observation: np.ndarray) -> np.ndarray:
    """``observation`` (the seat's own, from :func:`encode`) followed by what is hidden from
    it (float32, shape ``(ORACLE_SIZE,)``): every seat's concealed tiles (relative seats,
    as counts per kind), the tiles left in the wall in order (front first, kind + 1; 0
    pads), and the table's phase and tile on offer whoever is asked."""
    out = np.zeros(ORACLE_SIZE, np.float32)
    out[:SIZE] = observation
    for s, st in enumerate(state.seats):
        base = _ALL_CONCEALED + 34 * ((s - seat) % 4)
        for i in st.concealed:
            k = KIND[i]
            if k < 34:    # a bonus tile is exposed at once: never held for long
                out[base + k] += 1
    w = state.wall
    if w is not None:
        left = w.order[w.front:w.back]
        out[_WALL_ORDER:_WALL_ORDER + len(left)] = [KIND[i] + 1 for i in left]
    ph = _PHASES.get(state.phase)
    if ph is not None:
        out[_TABLE_PHASE + ph] = 1
    if state.window_tile is not None:
        out[_TABLE_OFFERED + KIND[state.window_tile]] = 1
    return out


def unpack(obs: np.ndarray) -> dict[str, np.ndarray]:
    """The fields of an observation vector by name, each in its shape (views, not copies);
    an oracle observation's added fields too."""
    fields = FIELDS + ORACLE_FIELDS if len(obs) == ORACLE_SIZE else FIELDS
    return {f.name: obs[OFFSET[f.name]:OFFSET[f.name] + f.size].reshape(f.shape)
            for f in fields}


__all__ = ["FIELDS", "HIGH", "LOW", "MAX_DISCARDS", "OFFSET", "ORACLE_FIELDS", "ORACLE_HIGH",
           "ORACLE_LOW", "ORACLE_SIZE", "SIZE", "Field", "encode", "encode_oracle", "unpack"]
