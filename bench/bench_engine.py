"""Benchmark: whole matches per second, as ``sgmahjong simulate --json`` plays them.

Runs the simulate logic in-process (``sgmahjong.simulate.simulate``) for ``--games`` full
matches (default 100; the issue's reference run is 1000) under ``--rules`` (default
standard) with ``--seed`` 1 and greedy players, ``--reps`` times for each worker count
(default 1 and 2), and prints the median hands/second. Every repetition plays the same
games, so only the time varies.

    python bench/bench_engine.py --games 100 --reps 3
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
from collections.abc import Sequence

from sgmahjong.simulate import simulate


def bench(games: int, rules: str, seed: int, workers: int, reps: int, players: Sequence[str],
          quick: bool) -> dict[str, object]:
    """Median, min and max hands/second over ``reps`` runs of the same games."""
    rates, hands, seconds = [], 0, []
    for _ in range(reps):
        s = simulate(rules, players, games=games, seed=seed, workers=workers, quick=quick)
        rates.append(s.hands_per_second)
        seconds.append(s.seconds)
        hands = s.hands
    return {"workers": workers, "games": games, "hands": hands, "reps": reps,
            "median_hands_per_second": round(statistics.median(rates), 1),
            "min": round(min(rates), 1), "max": round(max(rates), 1),
            "median_seconds": round(statistics.median(seconds), 2)}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="matches per run (default 100)")
    ap.add_argument("--rules", default="standard", help="preset or rule file (default standard)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reps", type=int, default=3, help="runs per worker count (default 3)")
    ap.add_argument("--workers", default="1,2", help="worker counts to try (default 1,2)")
    ap.add_argument("--players", default="greedy,greedy,greedy,greedy")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = ap.parse_args(argv)
    players = args.players.split(",")
    if len(players) == 1:
        players *= 4
    rows = [bench(args.games, args.rules, args.seed, int(w), args.reps, players, args.quick)
            for w in args.workers.split(",")]
    if args.json:
        print(json.dumps(rows))
        return 0
    print(f"sgmahjong simulate --games {args.games} --rules {args.rules} --seed {args.seed} "
          f"(players {','.join(players)}), {args.reps} runs each; Python "
          f"{platform.python_version()}, {os.cpu_count()} CPUs")
    print(f"{'workers':>7} {'hands':>7} {'median s':>9} {'hands/s (median)':>17} "
          f"{'min':>7} {'max':>7}")
    for r in rows:
        print(f"{r['workers']:>7} {r['hands']:>7} {r['median_seconds']:>9} "
              f"{r['median_hands_per_second']:>17} {r['min']:>7} {r['max']:>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
