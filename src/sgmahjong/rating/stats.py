"""The figures of a rating (see :mod:`sgmahjong.rating`): each player's points per hand with
its 95% interval clustered by wall, win and deal-in rates, the paired differences, the
place on the ladder, and the text ``sgmahjong rate`` prints."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules import Ruleset
from ..simulate import ci95

Row = tuple[int, int, int]
"""One player's deal: points, won (0/1), dealt in (0/1: its discard or robbed kong was
won on)."""


@dataclass(frozen=True)
class WallResult:
    """One wall's deals: each player's rows (in the order of
    :func:`~sgmahjong.rating.play.seatings`), and the decisions a bot got wrong and had
    defaulted (by player)."""

    index: int
    rows: Mapping[str, tuple[Row, ...]]
    faults: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Interval:
    """A mean over walls and the half-width of its 95% interval."""

    mean: float
    half: float

    @classmethod
    def of(cls, per_wall: Sequence[float]) -> Interval:
        return cls(sum(per_wall) / len(per_wall), ci95(per_wall))

    @property
    def low(self) -> float:
        return self.mean - self.half

    @property
    def high(self) -> float:
        return self.mean + self.half

    def to_json(self) -> dict[str, float]:
        return {"mean": round(self.mean, 4), "ci95": round(self.half, 4),
                "low": round(self.low, 4), "high": round(self.high, 4)}


@dataclass(frozen=True)
class PlayerResult:
    """One player of the field over every deal it sat in."""

    name: str
    hands: int
    points: Interval            # points per hand, clustered by wall
    wins: int
    deal_ins: int
    per_wall: tuple[float, ...]  # points per hand on each wall, in wall order

    @property
    def win_rate(self) -> float:
        return self.wins / self.hands

    @property
    def deal_in_rate(self) -> float:
        return self.deal_ins / self.hands

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "hands": self.hands, "points_per_hand": self.points.to_json(),
                "wins": self.wins, "win_rate": round(self.win_rate, 4),
                "deal_ins": self.deal_ins, "deal_in_rate": round(self.deal_in_rate, 4),
                "per_wall": [round(x, 6) for x in self.per_wall]}


@dataclass(frozen=True)
class Pair:
    """``a - b`` in points per hand, over the walls both played (paired by wall)."""

    a: str
    b: str
    difference: Interval

    def to_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "difference": self.difference.to_json()}


@dataclass(frozen=True)
class Standing:
    """Where a rated player stands among the levels of the field, by points per hand:
    between ``below`` (the best level it scored more than) and ``above`` (the weakest it
    did not); None past either end of the ladder."""

    player: str
    below: str | None
    above: str | None

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "below": self.below, "above": self.above}


@dataclass(frozen=True)
class Rating:
    """A round robin's results: every player of the field, and for each rated player its
    paired differences with the levels and its place on the ladder."""

    rules: str
    rules_digest: str
    seed: int
    walls: int
    field: tuple[str, ...]
    rated: tuple[str, ...]
    players: tuple[PlayerResult, ...]        # in field order
    pairs: tuple[Pair, ...]
    standings: tuple[Standing, ...]
    seconds: float = 0.0
    faults: Mapping[str, int] = field(default_factory=dict)

    @property
    def tables(self) -> int:
        return len(list(itertools.combinations(self.field, 4)))

    @property
    def hands(self) -> int:
        return self.walls * self.tables * 4

    def result(self, name: str) -> PlayerResult:
        return next(p for p in self.players if p.name == name)

    def pair(self, a: str, b: str) -> Pair:
        """``a - b`` wall by wall (any two players of the field)."""
        return paired(self.result(a), self.result(b))

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "rules_digest": self.rules_digest, "seed": self.seed,
                "walls": self.walls, "tables": self.tables, "hands": self.hands,
                "field": list(self.field), "rated": list(self.rated),
                "seconds": round(self.seconds, 3),
                "players": [p.to_json() for p in self.players],
                "pairs": [p.to_json() for p in self.pairs],
                "standings": [s.to_json() for s in self.standings],
                "faults": dict(self.faults)}


def paired(a: PlayerResult, b: PlayerResult) -> Pair:
    return Pair(a.name, b.name, Interval.of([x - y for x, y in zip(a.per_wall, b.per_wall,
                                                                   strict=True)]))


def tally(name: str, walls: Sequence[WallResult]) -> PlayerResult:
    """One player's results from the walls' rows."""
    rows = [row for w in walls for row in w.rows[name]]
    per_wall = tuple(sum(p for p, _, _ in w.rows[name]) / len(w.rows[name]) for w in walls)
    return PlayerResult(name, len(rows), Interval.of(per_wall), sum(r[1] for r in rows),
                        sum(r[2] for r in rows), per_wall)


def standing(me: PlayerResult, levels: Sequence[PlayerResult]) -> Standing:
    """Between the best level ``me`` scored more than and the weakest it did not."""
    ordered = sorted(levels, key=lambda p: p.points.mean)
    below = [p.name for p in ordered if p.points.mean < me.points.mean]
    above = [p.name for p in ordered if p.points.mean >= me.points.mean]
    return Standing(me.name, below[-1] if below else None, above[0] if above else None)


def summarise(rules: Ruleset, seed: int, names: Sequence[str], rated: Sequence[str],
              ladder: Sequence[str], walls: Sequence[WallResult],
              seconds: float = 0.0) -> Rating:
    """The statistics of a round robin (``walls`` in wall order)."""
    players = {n: tally(n, walls) for n in names}
    pairs: list[Pair] = []
    standings: list[Standing] = []
    for r in rated:
        levels = [players[n] for n in ladder if n != r]
        pairs.extend(paired(players[r], lv) for lv in levels)
        standings.append(standing(players[r], levels))
    faults: dict[str, int] = {}
    for w in walls:
        for n, k in w.faults.items():
            faults[n] = faults.get(n, 0) + k
    return Rating(rules.name, rules.digest(), seed, len(walls), tuple(names), tuple(rated),
                  tuple(players[n] for n in names), tuple(pairs), tuple(standings),
                  seconds, faults)


def table_text(r: Rating, order: Sequence[str] | None = None) -> list[str]:
    """The header and one line per player (by points per hand, lowest first, unless
    ``order`` is given)."""
    names = list(order) if order is not None else [
        p.name for p in sorted(r.players, key=lambda p: p.points.mean)]
    width = max(10, *(len(n) for n in names))
    lines = [f"{r.rules}: {_n(r.walls, 'wall')} from seed {r.seed} x {_n(r.tables, 'table')} "
             f"x 4 rotations = {r.hands} hands in {r.seconds:.0f}s",
             f"{'player':{width}} {'hands':>6} {'pts/hand':>9} {'95% CI':>17} "
             f"{'win rate':>9} {'deal-in':>8}"]
    for n in names:
        p = r.result(n)
        lines.append(f"{n:{width}} {p.hands:6d} {p.points.mean:9.2f} "
                     f"[{p.points.low:7.2f}, {p.points.high:6.2f}] "
                     f"{p.win_rate:9.1%} {p.deal_in_rate:8.1%}")
    return lines


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def pair_text(p: Pair) -> str:
    d = p.difference
    return f"{p.a} - {p.b}: {d.mean:+.2f} [{d.low:+.2f}, {d.high:+.2f}] points per hand"


def standing_text(r: Rating, s: Standing) -> str:
    def lv(name: str) -> str:
        return f"{name} ({r.result(name).points.mean:+.2f})"

    if s.below is None and s.above is None:
        return f"{s.player}: no level to compare with"
    if s.below is None:
        assert s.above is not None
        return f"{s.player} stands below every level of the ladder (the lowest: {lv(s.above)})"
    if s.above is None:
        return f"{s.player} stands above every level of the ladder (the highest: {lv(s.below)})"
    return f"{s.player} stands between {lv(s.below)} and {lv(s.above)} on the ladder"


def text(r: Rating) -> str:
    """The whole rating as printed by ``sgmahjong rate``."""
    lines = table_text(r)
    for p in r.pairs:
        lines.append(pair_text(p))
    for s in r.standings:
        lines.append(standing_text(r, s))
    for n, k in r.faults.items():
        lines.append(f"{n}: {k} decisions defaulted (late, invalid or illegal answers)")
    return "\n".join(lines)



__all__ = ["Interval", "Pair", "PlayerResult", "Rating", "Row", "Standing", "WallResult",
           "pair_text", "paired", "standing", "standing_text", "summarise",
           "table_text", "tally", "text"]
