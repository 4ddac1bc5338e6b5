"""Decision time of each level (median, p90, max) over seeded hands, all four seats that level.

    python bench/bench_agents.py --hands 20
"""

from __future__ import annotations

import argparse
import time

from sgmahjong.agents.levels import LEVELS
from sgmahjong.game import Game
from sgmahjong.game.prng import derive_seed


def timings(name: str, hands: int, seed: int, rules: str) -> list[float]:
    out: list[float] = []
    for h in range(hands):
        agents = [LEVELS[name](derive_seed(seed, 4 * h + s)) for s in range(4)]
        g = Game.new(rules, seed=derive_seed(seed, h))
        while not g.ended:
            for seat in sorted(g.waiting_for()):
                view, legal = g.view(seat), g.legal_actions(seat)
                t = time.perf_counter()
                action = agents[seat].act(view, legal)
                out.append(time.perf_counter() - t)
                g.submit(seat, action)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="standard")
    opts = ap.parse_args()
    print(f"{opts.rules}, {opts.hands} seeded hands per level (all seats that level)")
    print(f"{'level':9} {'decisions':>9} {'median ms':>10} {'p90 ms':>8} {'p99 ms':>8} "
          f"{'max ms':>8}  engine: {engine()}")
    for name in LEVELS:
        ts = sorted(timings(name, opts.hands, opts.seed, opts.rules))
        n = len(ts)
        print(f"{name:9} {n:9d} {1e3 * ts[n // 2]:10.2f} {1e3 * ts[int(n * 0.9)]:8.2f} "
              f"{1e3 * ts[int(n * 0.99)]:8.2f} {1e3 * ts[-1]:8.1f}")


def engine() -> str:
    """Which engine plays: ``python``, or ``compiled`` when ``python -m sgmahjong.fast``
    built it (run with the build's folder first on ``PYTHONPATH`` to time it)."""
    from sgmahjong.fast import engine as kind
    return kind()


if __name__ == "__main__":
    main()
