"""The chance that a discard is won on: a deal-in probability per tile, read from the table.

For each other seat a small logistic model turns what is face up about that seat and the
tile (its sets, its discards, whether the tile is genbutsu or was let pass, suji, the kind
of tile and its copies in sight, how far the hand has gone) into the chance that this seat
wins on the discard; the seats combine as independent chances. The coefficients were fitted
by ``bench/fit_dealin.py`` on seeded hands played by the five AI levels and are shipped in
``dealin_model.json`` next to this module; ``bench/fit_dealin.py --check`` measures the
calibration on other seeds (docs/ai.md, "Deal-in probability").

Like :mod:`sgmahjong.agents.danger`, everything here reads a :class:`PlayerView` and,
optionally, the public order of the hand's discards: never another seat's concealed tiles
or the wall.

>>> in_words(0.083)
'about 1 in 12'
>>> in_words(0.004)
'under 1 in 100'
>>> in_words(0.31)
'about 31%'
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..game.view import PlayerView
from ..tiles import Seat, Tile
from .danger import History, Threat, _shape, in_sight, read_threats

__all__ = ["DANGEROUS", "FEATURES", "SAFE", "DealInChance", "Model", "dealin", "dealin_label",
           "features", "in_words", "load_model", "seat_chance"]

# The labels the hints give, from the probability (docs/ai.md): under 1 in 100 a discard is
# "safe", from 1 in 20 "dangerous", between them "some risk".
SAFE = 0.01
DANGEROUS = 0.05

FEATURES = (
    "bias",
    "one set out", "two sets out", "three sets out",
    "middle tiles thrown late", "sudden change", "wall running short",
    "its discards",
    "genbutsu", "let pass", "suji",
    "honour", "end", "two or eight",
    "honour copies in sight", "honour nearly used up", "suited copies in sight",
    "value honour for it", "suit it keeps", "its sets in this suit",
    "wall left", "others looking ready",
    "its readiness", "danger reading",
)


def _suji(tile: Tile, discards: frozenset[Tile]) -> float:
    """1 when every tile three away in the suit (the other end of each run that waits on
    ``tile`` from both sides) was thrown by the seat, 0.5 when one of two was."""
    if not tile.is_suited:
        return 0.0
    n = tile % 9
    sides = [Tile(tile + d) for d in (-3, 3) if 0 <= n + d <= 8]
    hit = sum(1 for t in sides if t in discards)
    return hit / len(sides)


def features(view: PlayerView, tile: Tile, threat: Threat,
             threats: Sequence[Threat] = ()) -> tuple[float, ...]:
    """The model's inputs for a discard of ``tile`` against the seat of ``threat``, in the
    order of :data:`FEATURES`. ``threats``: all the other seats (for "others looking
    ready")."""
    sv = view.seats[threat.seat]
    n = len(sv.melds)
    reasons = " ".join(threat.reasons)
    own = threat.own
    genbutsu = tile in own
    passed = not genbutsu and tile in threat.passed
    honour = tile.is_honour
    rank = tile % 9 if tile.is_suited else -1
    seen = in_sight(view, tile)
    value = honour and (tile >= Tile.WHITE or tile == Tile.EAST + threat.seat
                        or tile == Tile.EAST + view.round_wind)
    mine = sv.discards
    kept = 0.0
    in_sets = 0.0
    if tile.is_suited:
        suit = tile // 9
        if len(mine) >= 5:
            share = sum(1 for t in mine if t.is_suited and t // 9 == suit) / len(mine)
            kept = max(0.0, 1 / 3 - share) * 3
        if n:
            in_sets = sum(1 for m in sv.melds
                          if m.meld.tiles[0].is_suited and m.meld.tiles[0] // 9 == suit) / n
    others = sum(1 for t in threats if t.seat != threat.seat and t.ready)
    return (
        1.0,
        float(n >= 1), float(n >= 2), float(n >= 3),
        float("middle tiles thrown late" in reasons), float("sudden change" in reasons),
        float("wall running short" in reasons),
        min(len(mine), 24) / 12,
        float(genbutsu), float(passed), 0.0 if genbutsu else _suji(tile, frozenset(mine)),
        float(honour), float(rank in (0, 8)), float(rank in (1, 7)),
        seen / 4 if honour else 0.0, float(honour and seen >= 3),
        0.0 if honour else seen / 4,
        float(value), kept, in_sets,
        view.live_remaining / 100, float(others),
        threat.level, 0.0 if tile in threat.safe else threat.level * _shape(view, tile),
    )


@dataclass(frozen=True, slots=True)
class Model:
    """Logistic coefficients, one per feature, and how they were fitted."""

    coef: tuple[float, ...]
    about: str = ""

    def chance(self, x: Sequence[float]) -> float:
        z = sum(c * v for c, v in zip(self.coef, x, strict=True))
        return 1 / (1 + math.exp(-z)) if z > -40 else 0.0


@cache
def load_model() -> Model:
    """The shipped model (``dealin_model.json``)."""
    raw = json.loads(resources.files(__package__).joinpath("dealin_model.json").read_text())
    names = tuple(raw["features"])
    if names != FEATURES:
        raise ValueError("dealin_model.json does not match the features of this version: "
                         "refit it with bench/fit_dealin.py")
    return Model(tuple(float(raw["coef"][n]) for n in FEATURES), str(raw.get("about", "")))


def seat_chance(view: PlayerView, tile: Tile, threat: Threat,
                threats: Sequence[Threat] = (), model: Model | None = None) -> float:
    """The chance that the seat of ``threat`` wins on a discard of ``tile``."""
    model = load_model() if model is None else model
    return model.chance(features(view, tile, threat, threats))


@dataclass(frozen=True, slots=True)
class DealInChance:
    """A discard's chance of being won on, and each other seat's part of it."""

    tile: Tile
    probability: float
    by_seat: dict[Seat, float]

    @property
    def label(self) -> str:
        return dealin_label(self.probability)

    @property
    def words(self) -> str:
        return in_words(self.probability)


def dealin(view: PlayerView, tile: Tile, threats: Sequence[Threat] | None = None,
           history: History | None = None, model: Model | None = None) -> DealInChance:
    """The chance that another seat wins on a discard of ``tile`` now (``history``: the
    public order of the hand's discards, :func:`sgmahjong.agents.danger.discard_history`)."""
    threats = read_threats(view, history) if threats is None else threats
    by_seat = {th.seat: seat_chance(view, tile, th, threats, model) for th in threats}
    miss = 1.0
    for p in by_seat.values():
        miss *= 1.0 - p
    return DealInChance(tile, 1.0 - miss, by_seat)


def dealin_label(p: float) -> str:
    """``"safe"``, ``"some risk"`` or ``"dangerous"`` for a deal-in probability."""
    if p < SAFE:
        return "safe"
    return "dangerous" if p >= DANGEROUS else "some risk"


def in_words(p: float) -> str:
    """A probability as a player says it: "about 1 in 12" up to one in five (rounded to
    fives from 1 in 20, to tens from 1 in 50), "about 31%" above; "under 1 in 100" below
    one in a hundred."""
    if p < 0.01:
        return "under 1 in 100"
    if p < 0.2:
        # as a player would round it: 1 in 16, 1 in 35, 1 in 60
        n = 1 / p
        n = round(n) if n < 20 else 5 * round(n / 5) if n < 50 else 10 * round(n / 10)
        return f"about 1 in {n}"
    return f"about {round(100 * p)}%"
