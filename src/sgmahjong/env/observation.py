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

from ..game.state import Phase
from ..game.view import PlayerView
from ..melds import MeldKind

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
_HAND, _DRAWN, _OFFERED = OFFSET["hand"], OFFSET["drawn"], OFFSET["offered"]


def encode(view: PlayerView, match_scores: Sequence[int] | None = None) -> np.ndarray:
    """The observation of ``view.seat`` (float32, shape ``(SIZE,)``).

    ``match_scores`` are the running match totals before this hand, by seat (public; zeros
    when omitted, as in a single hand)."""
    out = np.zeros(SIZE, np.float32)
    me = view.seat
    for t in view.concealed:
        if t < 34:
            out[_HAND + t] += 1
    if view.last_drawn is not None and view.last_drawn < 34:
        out[_DRAWN + view.last_drawn] = 1
    if view.window_tile is not None:
        out[_OFFERED + view.window_tile] = 1
    ph = _PHASES.get(view.phase)
    if ph is not None:
        out[OFFSET["phase"] + ph] = 1
    out[OFFSET["turn"] + (view.turn - me) % 4] = 1
    out[OFFSET["seat_wind"] + me] = 1
    out[OFFSET["round_wind"] + view.round_wind] = 1
    flags = OFFSET["flags"]
    out[flags] = view.must_discard
    out[flags + 1] = view.draw_replacement
    out[flags + 2] = view.draw_final
    for t in view.passed:
        out[OFFSET["passed"] + t] = 1
    if view.blocked is not None:
        out[OFFSET["blocked"] + view.blocked] = 1
    for sv in view.seats:
        r = (sv.seat - me) % 4
        for m in sv.melds:
            meld = m.meld
            if meld.kind is MeldKind.CHOW:
                base = OFFSET["chows"] + 34 * r + meld.tile
                out[base:base + 3] += 1
            else:
                out[OFFSET[_MELD_FIELD[meld.kind]] + 34 * r + meld.tile] = 1
        for t in sv.bonus:
            out[OFFSET["bonus"] + 12 * r + t - 34] = 1
        discards = sv.discards[-MAX_DISCARDS:]
        base = OFFSET["discards"] + MAX_DISCARDS * r
        out[base:base + len(discards)] = discards
        out[base:base + len(discards)] += 1     # kind + 1, so that 0 means "no discard"
        out[OFFSET["discard_counts"] + r] = len(sv.discards)
        out[OFFSET["concealed_counts"] + r] = sv.concealed_count
        out[OFFSET["scores"] + r] = sv.score
        if match_scores is not None:
            out[OFFSET["match_scores"] + r] = match_scores[sv.seat]
    seen = OFFSET["seen"]
    out[seen:seen + 34] = view.seen[:34]
    wall = OFFSET["wall"]
    out[wall:wall + 3] = (view.wall_remaining, view.live_remaining,
                          view.replacements_remaining)
    progress = OFFSET["progress"]
    out[progress:progress + 3] = (view.hand_number, view.discard_count, view.sets_declared)
    return out


def unpack(obs: np.ndarray) -> dict[str, np.ndarray]:
    """The fields of an observation vector by name, each in its shape (views, not copies)."""
    return {f.name: obs[OFFSET[f.name]:OFFSET[f.name] + f.size].reshape(f.shape)
            for f in FIELDS}


__all__ = ["FIELDS", "HIGH", "LOW", "MAX_DISCARDS", "OFFSET", "SIZE", "Field", "encode",
           "unpack"]
