"""What the patterns look at: one reading of a winning hand (its sets and eye) in its context."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from ..analysis.decompose import winning_tiles
from ..hand import Hand
from ..rules.model import Ruleset
from ..tiles import Tile
from .context import WinContext

Shape = Literal["regular", "thirteen-wonders", "automatic"]


@dataclass(frozen=True, slots=True)
class SetFact:
    """One of the four sets of a reading: declared or found among the concealed tiles."""

    is_chow: bool
    tile: Tile
    is_kong: bool = False
    concealed: bool = False

    @property
    def is_pong_or_kong(self) -> bool:
        return not self.is_chow


@dataclass(frozen=True)
class HandFacts:
    """A completed hand read one way: its shape, sets, eye, tiles and the win's context."""

    hand: Hand
    ctx: WinContext
    rules: Ruleset
    shape: Shape
    sets: tuple[SetFact, ...] = ()
    eye: Tile | None = None
    _shared: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def playable(self) -> list[int]:
        """34-kind counts of all playable tiles: concealed and declared."""
        c = [0] * 34
        for t in self.hand.playable_tiles():
            c[t] += 1
        return c

    @cached_property
    def kinds(self) -> list[Tile]:
        return [Tile(i) for i, n in enumerate(self.playable) if n]

    @cached_property
    def suits(self) -> set[int]:
        """The numbered suits present (0 m, 1 p, 2 s)."""
        return {t // 9 for t in self.kinds if t < 27}

    @cached_property
    def has_honours(self) -> bool:
        return any(t >= 27 for t in self.kinds)

    @property
    def bonus(self) -> tuple[Tile, ...]:
        return self.hand.bonus

    @property
    def seat_wind(self) -> Tile:
        return self.ctx.seat.wind

    @property
    def round_wind(self) -> Tile:
        return self.ctx.round_wind.wind

    def is_scoring_wind(self, tile: Tile) -> bool:
        return tile in (self.seat_wind, self.round_wind)

    @property
    def regular(self) -> bool:
        return self.shape == "regular"

    def count_sets(self, predicate: object) -> int:
        return sum(1 for s in self.sets if s.is_pong_or_kong and predicate(s.tile))  # type: ignore[operator]

    @property
    def waits_before_win(self) -> int:
        """How many tile kinds the hand waited on before the winning tile (All Chow's test)."""
        key = "waits"
        if key not in self._shared:
            before = self.hand.without_tile(self.ctx.win_tile)
            self._shared[key] = len(winning_tiles(before.counts, before.melds))
        return self._shared[key]  # type: ignore[return-value]
