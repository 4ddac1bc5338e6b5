"""Fox: always knows where its tai will come from, but plays fast and slips up."""

from __future__ import annotations

from collections.abc import Sequence

from ..game.actions import Action, Pass, Pong
from ..game.view import PlayerView
from ..tiles import Tile
from .evaluation import (
    DiscardOption,
    LevelAgent,
    Situation,
    TaiPlan,
    claim_options,
    discard_options,
    situation,
    view_plan,
)

UNREACHABLE = 6.0   # what a discard that leaves no tai source costs (10 is one shanten)
POTENTIAL = 0.1     # weight of the best tai source not yet secured


def plan_value(plan: TaiPlan, unreachable: float = UNREACHABLE,
               potential: float = POTENTIAL) -> float:
    """The tai plan's share of a discard's value: a hand that cannot reach the minimum
    is most of a step further from winning."""
    pot = max((s.tai for s in plan.sources if not s.secured), default=0)
    return plan.secured + potential * min(pot, 4) - (0.0 if plan.reachable else unreachable)


class Fox(LevelAgent):
    """Plans for the preset's minimum tai from the first discard: keeps a valued honour
    pair, its bonus tiles' worth or an all-chow shape, and never claims into a hand with no
    tai source. With ``slip`` chance it throws its second choice."""

    name = "fox"
    slip = 0.06
    unreachable = UNREACHABLE
    potential = POTENTIAL

    def value(self, view: PlayerView, o: DiscardOption, sit: Situation) -> float:
        plan = view_plan(view, o.after, sit.melds)
        return -10.0 * o.shanten + 0.15 * o.live + plan_value(plan, self.unreachable,
                                                                 self.potential)

    def discard(self, view: PlayerView, tiles: list[Tile], sit: Situation) -> Tile:
        ranked = sorted(discard_options(sit, tiles), key=lambda o: -self.value(view, o, sit))
        if len(ranked) > 1 and self.chance(self.slip):
            return ranked[1].tile
        return ranked[0].tile

    def claim(self, view: PlayerView, claims: Sequence[Action]) -> Action:
        before = view_plan(view)
        best: tuple[float, Action] | None = None
        for opt in claim_options(view, claims, situation(view)):
            plan = view_plan(view, opt.counts, opt.melds)
            if not plan.reachable:
                continue
            gains_tai = isinstance(opt.action, Pong) and plan.secured > before.secured
            if opt.lowers or (gains_tai and opt.after <= opt.before):
                score = opt.after - 0.5 * gains_tai
                if best is None or score < best[0]:
                    best = (score, opt.action)
        return best[1] if best else Pass()
