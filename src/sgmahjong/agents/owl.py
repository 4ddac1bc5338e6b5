"""Owl: counts every tile, looks two draws ahead, claims every free kong and plays safe near a
ready-looking player."""

from __future__ import annotations

from collections.abc import Sequence

from ..game.actions import Action, Kong
from ..game.view import PlayerView
from ..tiles import Tile
from .evaluation import (
    DiscardOption,
    Situation,
    bao_dangers,
    claim_options,
    danger,
    discard_options,
    keep_score,
    lookahead,
    ready_looking,
    ready_waits,
    situation,
    view_plan,
)
from .fox import DEAD_READY, KEEP, SECURED, Fox, plan_value

LOOKAHEAD = 8        # candidate discards valued two draws ahead
BAO_PENALTY = 40.0   # a discard that could make the Owl pay for the whole table


class Owl(Fox):
    """Fox's tai planning without the slips, plus: every discard valued by the expected
    shanten two draws ahead (draws weighted by unseen copies; once ready, waits worth too
    few tai to win count as no help, so the lookahead sees tai as well as shanten);
    genbutsu and worn tiles preferred near a ready-looking player, most of all when its
    own hand is far; Bao-dangerous tiles avoided. It claims a kong on a discard whenever the
    hand stays as close to ready: the kong is paid at once (``instant.claimed_kong`` from
    each opponent, 6 points under ``standard``) and brings a replacement draw, while its
    three tiles were a finished set already. Fox claims a kong only when it lowers
    shanten, which a held triplet's kong never does."""

    name = "owl"
    slip = 0.0
    weights = (1.5, 4.0, 8.0)    # danger weight when ready, one away, further
    lookahead_count = LOOKAHEAD

    def claim(self, view: PlayerView, claims: Sequence[Action]) -> Action:
        kongs = [a for a in claims if isinstance(a, Kong)]
        if kongs:
            for opt in claim_options(view, kongs, situation(view)):
                if opt.after <= opt.before:
                    return opt.action
        return super().claim(view, claims)

    def discard(self, view: PlayerView, tiles: list[Tile], sit: Situation) -> Tile:
        return max(self.scored(view, tiles, sit), key=lambda s: (s[0], -s[1]))[1]

    def scored(self, view: PlayerView, tiles: Sequence[Tile], sit: Situation
               ) -> list[tuple[float, Tile]]:
        """Every distinct discard of ``tiles`` with the value the Owl gives it (10 is one
        shanten; higher is better); the hints and the review weigh choices by it."""
        options = discard_options(sit, tiles)
        threats = ready_looking(view)
        top = min(o.shanten for o in options)
        weight = self.weights[min(max(top, 0), 2)] if threats else 0.0

        def score(o: DiscardOption, deep: bool) -> float:
            v = self.hand_value(view, sit, o.after, o.shanten, o.live, deep)
            v -= KEEP * keep_score(sit.counts, o.tile)
            if weight:
                v -= weight * danger(view, o.tile, threats, sit)
            if bao_dangers(view, o.tile):
                v -= BAO_PENALTY
            return v

        return [(score(o, i < self.lookahead_count), o.tile) for i, o in enumerate(options)]

    def hand_value(self, view: PlayerView, sit: Situation, after: tuple[int, ...],
                   shanten: int, live: int, deep: bool = True) -> float:
        """The Owl's value of the 13-tile hand ``after`` (with ``sit``'s sets) waiting for
        a draw: its speed two draws ahead (``deep``) or by shanten and live tiles, and its
        tai; the value of a discard adds what the tile thrown costs."""
        unseen: Sequence[int] = sit.unseen
        if shanten == 0:
            # A ready hand is scored exactly: waits too cheap to win are no help.
            w = ready_waits(view, after, sit.melds, sit.unseen)
            tai = SECURED * min(w.tai, 5) if w.winning else -DEAD_READY
            if w.dead_kinds:
                unseen = [0 if k in w.dead_kinds else n for k, n in enumerate(sit.unseen)]
                live = w.winning
        else:
            tai = plan_value(view_plan(view, after, sit.melds), self.unreachable,
                             self.potential)
        if deep:
            speed = lookahead(after, sit.n_melds, unseen)
        else:
            speed = shanten - live / sit.total_unseen + 0.3
        return -10.0 * speed + tai
