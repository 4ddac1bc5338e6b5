"""``bench/bench_duel.py``'s breakdown: the hands a player won, dealt in, and neither make
its points per hand, and its win and deal-in rates."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from sgmahjong.game.prng import derive_seed

ROOT = Path(__file__).resolve().parent.parent


def test_the_breakdown_adds_up_to_the_points_per_hand(monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    import bench_duel

    rows = []
    for w in range(3):
        got = bench_duel.play_wall(("standard", derive_seed(11, w), ("fox", "snail"),
                                    ("greedy", "rabbit", "hedgehog"), ""))
        rows += got["snail"]
    assert len(rows) == 12
    (won, won_pts), (dealt, dealt_pts), (neither, neither_pts) = bench_duel.breakdown(rows)
    assert math.isclose(won + dealt + neither, 1.0)
    assert math.isclose(won, sum(1 for _, w, _ in rows if w) / 12)
    assert math.isclose(dealt, sum(1 for _, w, d in rows if d and not w) / 12)
    per_hand = sum(p for p, _, _ in rows) / 12
    assert math.isclose(won * won_pts + dealt * dealt_pts + neither * neither_pts, per_hand)
    # a win is paid to the winner, a deal-in paid by the discarder
    assert won_pts > 0 or won == 0
    assert dealt_pts < 0 or dealt == 0
