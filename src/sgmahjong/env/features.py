"""Input features of the learned policy, built from one seat's ``PlayerView`` only.

Two blocks, both float32:

- **global** (``GLOBAL_SIZE``): the environment's observation (:func:`.observation.encode`)
  rescaled to about 0..1, with each seat's discards turned from an ordered list of codes
  into counts per kind plus its latest discard; then the hand's shanten, the count of
  ready-looking opponents, and one row per claim slot (chow low / mid / high, pong,
  claimed kong, concealed kong, added kong) saying what that claim does to the hand.
- **per discard** (``(34, DISCARD_SIZE)``): for each tile kind the hand could discard,
  what the hand is after it: shanten (relative to the best discard), live and raw useful
  tiles, the tai plan, how much the tile is worth keeping, how dangerous it looks, whether
  it is a Bao risk, and so on. Rows of kinds not held are zero.

The hand evaluation comes from :mod:`sgmahjong.agents.evaluation` (the same counting the
levels use), so the network learns how to weigh these quantities, not how to count.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from ..agents.evaluation import (
    Situation,
    bao_dangers,
    claim_live,
    claim_options,
    danger,
    discard_options,
    keep_score,
    ready_looking,
    ready_waits,
    situation,
    useful_kinds,
    view_plan,
)
from ..agents.fox import plan_value
from ..analysis.shanten import shanten
from ..game.actions import Action, Chow, Kong, Pong
from ..game.view import PlayerView
from ..melds import Meld
from .actions import ADDED_KONG, CONCEALED_KONG, NUM_ACTIONS
from .actions import DISCARD as DISCARD_ACTION
from .observation import OFFSET, SIZE, encode

_SCALE = np.ones(SIZE, np.float32)


def _scale(name: str, length: int, by: float) -> None:
    _SCALE[OFFSET[name]:OFFSET[name] + length] = 1.0 / by


_scale("hand", 34, 4)
_scale("chows", 4 * 34, 4)
_scale("discard_counts", 4, 30)
_scale("concealed_counts", 4, 14)
_scale("seen", 34, 4)
_scale("wall", 3, 100)
_scale("progress", 3, 100)
_scale("scores", 4, 100)
_scale("match_scores", 4, 1000)

# Observation blocks kept as they are (rescaled); the ordered discards are re-encoded.
_KEEP = np.r_[0:OFFSET["discards"], OFFSET["discard_counts"]:SIZE]
_DISCARDS = OFFSET["discards"]
_MAX_DISCARDS = 32
CLAIM_SLOTS = 7     # chow low, chow mid, chow high, pong, claimed kong, concealed, added
CLAIM_SIZE = 7
OBS_PART = len(_KEEP) + 4 * 34 + 4 * 34
GLOBAL_SIZE = OBS_PART + 6 + CLAIM_SLOTS * CLAIM_SIZE
DISCARD_SIZE = 18


def _discard_blocks(obs: np.ndarray) -> np.ndarray:
    """Per relative seat: copies of each kind discarded, and its latest discard (one-hot)."""
    codes = obs[_DISCARDS:_DISCARDS + 4 * _MAX_DISCARDS].reshape(4, _MAX_DISCARDS)
    counts = np.zeros((4, 34), np.float32)
    latest = np.zeros((4, 34), np.float32)
    for r in range(4):
        row = codes[r]
        n = int(np.count_nonzero(row))
        if n:
            kinds = row[:n].astype(np.int64) - 1
            np.add.at(counts[r], kinds, 0.25)
            latest[r, kinds[-1]] = 1.0
    return np.concatenate([counts.ravel(), latest.ravel()])


def _tai_value(view: PlayerView, counts: tuple[int, ...], melds: Sequence[Meld],
               sit: Situation, ready: bool) -> tuple[float, float, float]:
    """(value of the tai plan, tai secured, winning waits) of a 13-tile hand."""
    if ready:
        w = ready_waits(view, counts, melds, sit.unseen)
        return (min(w.tai, 5) if w.winning else -12.0), min(w.tai, 5), float(w.winning)
    plan = view_plan(view, counts, melds)
    return plan_value(plan), float(plan.secured), 0.0


def _claim_rows(view: PlayerView, legal: Sequence[Action], sit: Situation,
                before: int) -> np.ndarray:
    rows = np.zeros((CLAIM_SLOTS, CLAIM_SIZE), np.float32)
    offered = view.window_tile
    if offered is not None and offered < 34:
        plan_before = view_plan(view)
        for opt in claim_options(view, legal, sit):
            a = opt.action
            if isinstance(a, Chow):
                slot = offered - a.tile
            elif isinstance(a, Pong):
                slot = 3
            else:
                slot = 4
            plan = view_plan(view, opt.counts, opt.melds)
            if slot == 4:
                # After a kong the replacement draw comes first: the hand as it stands.
                live = sum(sit.unseen[k] for k in useful_kinds(opt.counts, len(opt.melds))[1])
            else:
                live = claim_live(opt, sit)
            rows[slot] = (1.0, opt.after - opt.before, float(opt.after == 0),
                          live / 20.0, float(plan.reachable),
                          (plan.secured - plan_before.secured) / 5.0, plan_value(plan) / 10.0)
    for a in legal:
        if isinstance(a, Kong) and a.kind in ("concealed", "added"):
            c = list(sit.counts)
            if a.kind == "concealed":
                c[a.tile] -= 4
                after = shanten(c, sit.n_melds + 1)
            else:
                c[a.tile] -= 1
                after = shanten(c, sit.n_melds)
            slot = 5 if a.kind == "concealed" else 6
            # Several kongs of one kind share a slot: describe the best of them.
            if not rows[slot, 0] or after - before < rows[slot, 1]:
                rows[slot, :3] = (1.0, after - before, float(after == 0))
    return rows.ravel()


def features(view: PlayerView, legal: Sequence[Action],
             obs: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The (global, per-discard) features of a decision: shapes ``(GLOBAL_SIZE,)`` and
    ``(34, DISCARD_SIZE)``. ``obs`` is the view's observation when already encoded."""
    if obs is None:
        obs = encode(view)
    sit = situation(view)
    n_melds = sit.n_melds
    held = sum(sit.counts)
    # Between turns the hand holds 13 - 3 * sets tiles; shanten of what it holds.
    cur = shanten(sit.counts, n_melds) if held % 3 == 1 else -1
    threats = ready_looking(view)
    per = np.zeros((34, DISCARD_SIZE), np.float32)
    best = 8
    if held % 3 == 2:
        options = discard_options(sit)
        best = min(o.shanten for o in options)
        drawn = view.last_drawn
        for o in options:
            t = o.tile
            rel = o.shanten - best
            value, secured, winning = _tai_value(view, o.after, sit.melds, sit, o.shanten == 0)
            per[t] = (
                1.0, float(rel == 0), float(rel == 1), float(rel >= 2), float(o.shanten == 0),
                o.live / 20.0, o.raw / 20.0, value / 10.0, secured / 5.0, winning / 10.0,
                keep_score(sit.counts, t) / 10.0,
                danger(view, t, threats, sit) if threats else 0.0,
                float(bool(bao_dangers(view, t))), float(drawn == t),
                sit.counts[t] / 4.0, sit.visible[t] / 4.0, float(t >= 27),
                float(t < 27 and t % 9 in (0, 8)))
        cur = best
    g = np.concatenate([
        obs[_KEEP] * _SCALE[_KEEP],
        _discard_blocks(obs),
        np.array([cur / 4.0, float(cur <= 0), float(cur == 1), len(threats) / 3.0,
                  n_melds / 4.0, sum(sit.unseen) / 100.0], np.float32),
        _claim_rows(view, legal, sit, max(cur, best if best < 8 else cur)),
    ]).astype(np.float32)
    return g, per


# ---------------------------------------------------------------- suit symmetry

# Blocks of the observation indexed by tile kind (their first 34 entries).
_KIND_BLOCKS = (("hand", 1), ("drawn", 1), ("offered", 1), ("passed", 1), ("blocked", 1),
                ("chows", 4), ("pongs", 4), ("kongs", 4), ("concealed_kongs", 4), ("seen", 1))
SUIT_ORDERS = tuple(itertools.permutations(range(3)))


def kind_map(order: Sequence[int]) -> np.ndarray:
    """Where each tile kind goes when suit ``s`` becomes suit ``order[s]``."""
    return np.array([order[k // 9] * 9 + k % 9 if k < 27 else k for k in range(34)])


def suit_swap(order: Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gather indices that relabel the suits of a decision: ``g[:, a]``, ``d[:, b]`` and
    ``mask[:, c]`` are the features and mask of the same decision with suit ``s`` played
    as suit ``order[s]``; an action ``i`` becomes ``c.argsort()[i]``.

    Nothing in the rules tells the suits apart, so this multiplies a learner's examples
    by six (the features are checked against relabelled views in the tests)."""
    kmap = kind_map(order)
    kinv = np.argsort(kmap)
    src = np.arange(SIZE)
    for name, rows in _KIND_BLOCKS:
        for r in range(rows):
            base = OFFSET[name] + 34 * r
            src[base:base + 34] = base + kinv
    g = np.arange(GLOBAL_SIZE)
    g[:len(_KEEP)] = np.searchsorted(_KEEP, src[_KEEP])
    for r in range(8):
        base = len(_KEEP) + 34 * r
        g[base:base + 34] = base + kinv
    a = np.arange(NUM_ACTIONS)
    for base in (DISCARD_ACTION, CONCEALED_KONG, ADDED_KONG):
        a[base:base + 34] = base + kinv
    return g, kinv, a


__all__ = ["CLAIM_SLOTS", "DISCARD_SIZE", "GLOBAL_SIZE", "SUIT_ORDERS", "features",
           "kind_map", "suit_swap"]
