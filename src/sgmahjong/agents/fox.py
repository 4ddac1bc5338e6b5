"""Fox: always knows where its tai will come from, but plays fast and slips up."""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis.shanten import shanten
from ..game.actions import Action, Pass, Pong
from ..game.view import PlayerView
from ..tiles import Tile
from .evaluation import (
    ClaimOption,
    DiscardOption,
    LevelAgent,
    Situation,
    TaiPlan,
    claim_live,
    claim_options,
    discard_options,
    keep_score,
    ready_waits,
    situation,
    view_plan,
)

UNREACHABLE = 8.0   # what a discard that leaves no tai source costs (10 is one shanten)
SECURED = 1.0       # weight of each tai already certain
POTENTIAL = 0.1     # weight of each tai of the best source not yet secured
KEEP = 0.05         # weight of a tile's neighbours (lone honours go first between equals)
DEAD_READY = 12.0   # a ready hand whose every wait is worth too few tai to win
MIN_LIVE = 3        # a claim whose next tiles are nearly all visible does not help


def plan_value(plan: TaiPlan, unreachable: float = UNREACHABLE,
               potential: float = POTENTIAL) -> float:
    """The tai plan's share of a discard's value (10 is one shanten): a hand that cannot
    reach the minimum is most of a step further from winning; tai already certain and the
    best source not yet secured only break near-ties (weighting a potential source more,
    0.6 per tai, bought no extra tai per win in the strength benchmark and cost speed)."""
    pot = max((s.tai for s in plan.sources if not s.secured), default=0)
    return (SECURED * min(plan.secured, 5) + potential * min(pot, 4)
            - (0.0 if plan.reachable else unreachable))


class Fox(LevelAgent):
    """Plans for the preset's minimum tai from the first discard: keeps a valued honour
    pair, its bonus tiles' worth or an all-chow shape, and never claims into a hand with no
    tai source. It plays fast: with ``slip`` chance it grabs any of its three best-looking
    discards without weighing them, and it never looks at what the others have shown (no
    defence at all)."""

    name = "fox"
    slip = 0.08
    unreachable = UNREACHABLE
    potential = POTENTIAL

    def tai_value(self, view: PlayerView, o: DiscardOption, sit: Situation) -> float:
        """The tai share of a discard's value. A ready hand is scored exactly: only the
        waits that make the minimum count, at the average tai they would win with."""
        if o.shanten == 0:
            w = ready_waits(view, o.after, sit.melds, sit.unseen)
            if not w.winning:
                return -DEAD_READY
            return 0.15 * (w.winning - o.live) + SECURED * min(w.tai, 5)
        return plan_value(view_plan(view, o.after, sit.melds), self.unreachable,
                          self.potential)

    def value(self, view: PlayerView, o: DiscardOption, sit: Situation) -> float:
        return (-10.0 * o.shanten + 0.15 * o.live + self.tai_value(view, o, sit)
                - KEEP * keep_score(sit.counts, o.tile))

    def discard(self, view: PlayerView, tiles: list[Tile], sit: Situation) -> Tile:
        ranked = sorted(discard_options(sit, tiles), key=lambda o: -self.value(view, o, sit))
        if len(ranked) > 1 and self.chance(self.slip):
            return ranked[self.rng.below(min(3, len(ranked)))].tile
        return ranked[0].tile

    def claim(self, view: PlayerView, claims: Sequence[Action]) -> Action:
        before = view_plan(view)
        sit = situation(view)
        best: tuple[float, Action] | None = None
        for opt in claim_options(view, claims, sit):
            plan = view_plan(view, opt.counts, opt.melds)
            if not plan.reachable or (opt.after == 0 and not self.ready_wins(view, opt, sit)):
                continue
            if opt.lowers and claim_live(opt, sit) < MIN_LIVE:
                continue
            gains_tai = isinstance(opt.action, Pong) and plan.secured > before.secured
            if opt.lowers or (gains_tai and opt.after <= opt.before):
                score = opt.after - 0.5 * gains_tai
                if best is None or score < best[0]:
                    best = (score, opt.action)
        return best[1] if best else Pass()

    @staticmethod
    def ready_wins(view: PlayerView, opt: ClaimOption, sit: Situation) -> bool:
        """Whether a claim that makes the hand ready leaves a wait it can win on."""
        c = list(opt.counts)
        if sum(c) % 3 == 1:   # a kong: the replacement draw comes before any discard
            return bool(ready_waits(view, opt.counts, opt.melds, sit.unseen).winning)
        for d in range(34):
            if not c[d]:
                continue
            c[d] -= 1
            after = tuple(c)
            c[d] += 1
            if shanten(after, len(opt.melds)) == 0 and ready_waits(
                    view, after, opt.melds, sit.unseen).winning:
                return True
        return False
