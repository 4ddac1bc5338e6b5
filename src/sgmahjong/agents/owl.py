"""Owl: counts every tile, looks two draws ahead and plays safe near a player who looks
ready, all of it weighed in expected points (:mod:`sgmahjong.agents.expected`)."""

from __future__ import annotations

from collections.abc import Sequence

from ..game.actions import Action, Pass
from ..game.view import PlayerView
from ..tiles import Tile
from .evaluation import Situation, situation
from .expected import (
    DEEP,
    Evaluation,
    PointsModel,
    best_claim,
    evaluate_discards,
    load_points_model,
    spared,
)
from .fox import Fox
from .lookahead import look_ahead

LOOKAHEAD = DEEP     # candidate discards valued two draws ahead


class Owl(Fox):
    """Every discard and claim valued in expected points from its own view: the chance
    that the hand it keeps wins (its speed counted two draws ahead, draws weighted by
    unseen copies, waits too cheap to win counted as none) times the points such a win
    brings under the table's rules, less the chance that the discard is won on times what
    that would cost (the calibrated deal-in chance of each other seat, its likely hand, Bao).
    So it pushes a fast or valuable hand and folds a slow one against a seat that looks
    ready; it claims when taking is worth more than letting the tile pass (a claimed kong
    counts its instant payout). No slips."""

    name = "owl"
    slip = 0.0
    lookahead_count = LOOKAHEAD
    model: PointsModel | None = None  # the fitted figures (None: the shipped model)
    # Tables sampled to play close discards out; 0: no look-ahead. Off: on the walls it
    # was tried on it did not yet make the Owl stronger (docs/ai.md, "Look-ahead"), and
    # it takes four times the Owl's time at the median.
    samples = 0

    def claim(self, view: PlayerView, claims: Sequence[Action]) -> Action:
        best, _ = best_claim(view, situation(view), claims, model=self.model)
        return best.action if not isinstance(best.action, Pass) else Pass()

    def discard(self, view: PlayerView, tiles: list[Tile], sit: Situation) -> Tile:
        best = self.evaluations(view, tiles, sit)[0].tile
        assert best is not None
        return best

    def evaluations(self, view: PlayerView, tiles: Sequence[Tile], sit: Situation
                    ) -> list[Evaluation]:
        """Every distinct discard of ``tiles``, valued, best first."""
        evals = evaluate_discards(view, sit, tiles, model=self.model,
                                  deep=self.lookahead_count)
        if not self.samples:
            return evals
        m = load_points_model() if self.model is None else self.model
        return look_ahead(view, sit, evals, spared(view.rules, m), self.samples)

    def scored(self, view: PlayerView, tiles: Sequence[Tile], sit: Situation
               ) -> list[tuple[float, Tile]]:
        """Every distinct discard of ``tiles`` with its expected points (higher is
        better); the hints and the review weigh choices by it."""
        return [(e.expected, e.tile) for e in self.evaluations(view, tiles, sit)
                if e.tile is not None]
