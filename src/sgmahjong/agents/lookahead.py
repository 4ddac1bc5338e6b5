"""Look-ahead for close discards: the hand played out on sampled tables.

When the evaluation in expected points (:mod:`sgmahjong.agents.expected`) puts a few
discards close together, the Owl plays each of them out on the same sampled tables and
lets what happened move their figures. A sample is one table consistent with the seat's
view: the other seats' concealed tiles drawn from the unseen copies (a kind a seat threw
counts as less likely in its hand) and the wall's order shuffled from the rest. The hand is
then played to its end with fast players: each seat draws, wins on its draw or on another's
discard when its hand is complete, and otherwise throws the tile that leaves it nearest to
ready (claims are not played). Every candidate meets the same samples, so their difference
is the candidates' own.

What a playout ends in is paid in the evaluation's own figures: the seat's win brings the
candidate's ``value`` (and spares what it would have paid another's win), dealing in to a
seat costs what the evaluation says that seat's win on a discard costs. The paired mean
difference from the evaluation's best, shrunk by :data:`WEIGHT`, replaces the difference
the evaluation saw. Everything is drawn from a generator seeded by the view itself, so the
same view gives the same decision in the Owl, in the hints and in the review, with either
engine.
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
import zlib
from collections.abc import Sequence

from ..analysis.shanten import shanten
from ..game.view import PlayerView
from .evaluation import Situation
from .expected import Evaluation, close_margin

__all__ = ["SAMPLES", "WEIGHT", "WIDTH", "close_candidates", "look_ahead", "playout"]

SAMPLES = 24      # sampled tables per close decision
WIDTH = 3         # candidates played out at most (the evaluation's best among them)
WEIGHT = 0.5      # how far the playouts move a candidate's figure from the evaluation's
SURE = 2.0        # standard errors a playout difference must exceed to count
THREW = 0.5       # a kind a seat threw is this much less likely to be in its hand
BONUS = 12        # flowers, seasons and animals in the full set


def close_candidates(view: PlayerView, evals: Sequence[Evaluation],
                     width: int = WIDTH) -> list[Evaluation]:
    """The evaluation's best and the others within the close margin of it (at most
    ``width``): the decisions worth playing out. Fewer than two: nothing to look at."""
    if len(evals) < 2:
        return []
    margin = 2 * close_margin(view.rules)
    top = evals[0].expected
    return [e for e in evals[:width] if top - e.expected <= margin and e.tile is not None]


def _seed(view: PlayerView) -> int:
    """A seed from what the view shows: the same view, the same samples."""
    parts = [int(view.seat), view.hand_number, view.live_remaining, *map(int, view.concealed)]
    for sv in view.seats:
        parts.append(99)
        parts.extend(map(int, sv.discards))
        parts.extend(int(t) for d in sv.melds for t in d.meld.tiles)
    return zlib.crc32(bytes(p & 0xFF for p in parts) + len(parts).to_bytes(2, "little"))


def _sample(view: PlayerView, sit: Situation, rng: random.Random
            ) -> tuple[dict[int, list[int]], list[int]]:
    """One table consistent with the view: each other seat's concealed counts (34 kinds)
    and the tiles the wall will give, in order."""
    pool = [k for k in range(34) for _ in range(sit.unseen[k])]
    hands: dict[int, list[int]] = {}
    for sv in view.seats:
        if sv.seat == view.seat:
            continue
        n = min(sv.concealed_count, 13 - 3 * len(sv.melds), len(pool))
        threw = {int(t) for t in sv.discards}
        # weighted sampling without replacement: the n largest keys u ** (1 / w)
        keyed = sorted(((rng.random() ** (1 / THREW if k in threw else 1.0), i)
                        for i, k in enumerate(pool)), reverse=True)
        take = {i for _, i in keyed[:n]}
        counts = [0] * 34
        for i in take:
            counts[pool[i]] += 1
        hands[int(sv.seat)] = counts
        pool = [k for i, k in enumerate(pool) if i not in take]
    rng.shuffle(pool)
    bonus = max(0, BONUS - sum(len(sv.bonus) for sv in view.seats))
    draws = round(view.live_remaining * len(pool) / max(1, len(pool) + bonus))
    return hands, pool[:min(draws, len(pool))]


def _complete(counts: list[int], melds: int) -> bool:
    # agrees with analysis.decompose.is_complete (no seven pairs; Thirteen Wonders only
    # with no declared set), but the playout's loop already has the shanten tables warm:
    # 0.47 us a call there against 1.06 us
    return shanten(counts, melds) == -1


def _throw(counts: list[int], melds: int) -> int:
    """The fast players' discard: the kind that leaves the hand nearest to ready, the
    loneliest of those (honours and terminals first, then tiles with fewest neighbours)."""
    best, best_s, best_n = -1, 99, 99
    for k in range(34):
        if not counts[k]:
            continue
        counts[k] -= 1
        s = shanten(counts, melds)
        counts[k] += 1
        if s > best_s:
            continue
        near = counts[k] - 1
        if k < 27:
            r = k % 9
            near += sum(counts[j] for j in range(max(k - 2, k - r), min(k + 3, k - r + 9))
                        if j != k)
        if s < best_s or near < best_n:
            best, best_s, best_n = k, s, near
    return best


def playout(seat: int, mine: list[int], my_melds: int, first: int,
            hands: dict[int, list[int]], melds: dict[int, int], wall: Sequence[int],
            *, claimable: bool = True) -> tuple[int, int | None]:
    """Play the hand out after ``seat`` throws ``first`` from ``mine`` (its 13 tiles
    left): (the winner or -1 for a draw, the seat that dealt in or None). The hands
    given are not changed. ``claimable=False``: nobody wins on ``first`` itself (the
    evaluation's calibrated chance judges that tile; a random sample of a seat's hand
    knows nothing of how ready it looks)."""
    table = {s: list(c) for s, c in hands.items()}
    table[seat] = list(mine)
    sets = dict(melds)
    sets[seat] = my_melds
    tile, thrower = first, seat
    w = 0
    while True:
        if claimable:
            for k in (1, 2, 3):
                who = (thrower + k) % 4
                c = table[who]
                c[tile] += 1
                won = _complete(c, sets[who])
                c[tile] -= 1
                if won:
                    return who, thrower
        claimable = True
        if w >= len(wall):
            return -1, None
        turn = (thrower + 1) % 4
        c = table[turn]
        c[wall[w]] += 1
        w += 1
        if _complete(c, sets[turn]):
            return turn, None
        tile = _throw(c, sets[turn])
        c[tile] -= 1
        thrower = turn


def look_ahead(view: PlayerView, sit: Situation, evals: list[Evaluation],
               give: float, samples: int = SAMPLES) -> list[Evaluation]:
    """``evals`` (best first) with the close candidates' figures moved by their playouts,
    sorted again. ``give``: what the seat expects to pay for a hand another seat wins (a
    win of its own spares it)."""
    close = close_candidates(view, evals)
    if len(close) < 2:
        return evals
    rng = random.Random(_seed(view))
    melds = {int(sv.seat): len(sv.melds) for sv in view.seats}
    me = int(view.seat)
    got = [[0.0] * samples for _ in close]
    costs = [{int(s): c for s, _, c, _ in e.by_seat} for e in close]
    for n in range(samples):
        hands, wall = _sample(view, sit, rng)
        for i, e in enumerate(close):
            assert e.tile is not None
            mine = list(sit.counts)
            mine[int(e.tile)] -= 1
            winner, dealt = playout(me, mine, sit.n_melds, int(e.tile), hands, melds, wall,
                                    claimable=False)
            if winner == me:
                got[i][n] = e.value + give
            elif dealt == me:
                got[i][n] = -costs[i].get(winner, 0.0)
    ref = close[0]
    moved = {}
    for i, e in enumerate(close[1:], 1):
        # what follows the discard, if it is not won on, by the playouts (paired with the
        # best's on the same tables); the discard's own risk by the evaluation
        diffs = [(1 - e.dealin) * a - (1 - ref.dealin) * b
                 for a, b in zip(got[i], got[0], strict=True)]
        seen = statistics.fmean(diffs) - (e.risk - ref.risk)
        said = e.expected - ref.expected
        # a difference the samples cannot tell from chance moves nothing: one lucky
        # playout is worth a whole win
        if samples < 2 or not any(diffs) or \
                abs(seen - said) <= SURE * statistics.stdev(diffs) / math.sqrt(samples):
            continue
        moved[e.tile] = dataclasses.replace(
            e, expected=ref.expected + said + WEIGHT * (seen - said))
    out = [moved.get(e.tile, e) for e in evals]
    out.sort(key=lambda e: (-e.expected, e.tile))
    return out
