"""How well the hints read danger: of the discards the hint labels "dangerous", "some risk"
or "safe", the share that was a winning tile for another seat at that moment.

AI players play seeded hands through the engine (the table rotates the field by one seat
per hand). Before every discard the danger reading of ``sgmahjong.agents.danger`` labels
the tile from the discarder's own view (with the public order of the discards, as the
hints use it; the label is read from the deal-in probability of
``sgmahjong.agents.dealin`` while some seat looks ready); after it, the engine says
whether another seat could win on it (a Win among its legal actions). Prints, per label,
the discards, those that were winning tiles, and the share with its 95% Wilson interval;
"nobody looks ready" is the label the hint leaves off.

    python bench/bench_danger.py --hands 2000 --procs 2
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from sgmahjong.agents import make_agent
from sgmahjong.agents.danger import discard_danger, discard_history, read_threats
from sgmahjong.game import Game
from sgmahjong.game.actions import Discard, Win
from sgmahjong.game.prng import derive_seed
from sgmahjong.game.state import Phase

LABELS = ("dangerous", "some risk", "safe", None)


def play(args: tuple[str, int, int, int, tuple[str, ...]]) -> tuple[Counter[str], Counter[str]]:
    """Play hands ``first`` to ``last`` (exclusive): discards and winning tiles per label."""
    rules, seed, first, last, names = args
    total: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for n in range(first, last):
        hand_seed = derive_seed(seed, n)
        agents = [make_agent(names[(s + n) % len(names)], derive_seed(hand_seed, s))
                  for s in range(4)]
        g = Game.new(rules, seed=hand_seed)
        while not g.ended:
            for seat in sorted(g.waiting_for()):
                v = g.view(seat)
                action = agents[seat].act(v, g.legal_actions(seat))  # type: ignore[attr-defined]
                label = None
                if isinstance(action, Discard):
                    threats = read_threats(v, discard_history(g.events))
                    label = str(discard_danger(v, action.tile, threats).label)
                g.submit(seat, action)
                if label is None:
                    continue
                total[label] += 1
                s = g.state
                # The engine stops at the claim window only when some seat may act on the
                # tile; a Win among a seat's legal actions makes it a winning tile.
                if (s.phase is Phase.CLAIMS and s.turn == seat
                        and any(Win() in g.legal_actions(o) for o in g.pending()
                                if o != seat)):
                    won[label] += 1
    return total, won


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a share of ``k`` in ``n``."""
    if n == 0:
        return 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--players", default="owl,fox,hedgehog,rabbit",
                    help="the field, rotated one seat per hand")
    opts = ap.parse_args()
    names = tuple(opts.players.split(","))
    chunk = 25
    jobs = [(opts.rules, opts.seed, a, min(a + chunk, opts.hands), names)
            for a in range(0, opts.hands, chunk)]
    start = time.time()
    total: Counter[str] = Counter()
    won: Counter[str] = Counter()
    with ProcessPoolExecutor(max(1, opts.procs)) as pool:
        for t, w in pool.map(play, jobs):
            total.update(t)
            won.update(w)
    print(f"{opts.rules}: {opts.hands} hands ({', '.join(names)}) in "
          f"{time.time() - start:.0f}s")
    print(f"{'label':<20} {'discards':>9} {'winning':>8} {'share':>7}   95% interval")
    for label in LABELS:
        key = str(label)
        n, k = total[key], won[key]
        lo, hi = wilson(k, n)
        name = "nobody looks ready" if label is None else label
        share = k / n if n else 0.0
        print(f"{name:<20} {n:>9} {k:>8} {share:>7.2%}   [{lo:.2%}, {hi:.2%}]")
    n, k = sum(total.values()), sum(won.values())
    lo, hi = wilson(k, n)
    print(f"{'all discards':<20} {n:>9} {k:>8} {k / max(n, 1):>7.2%}   [{lo:.2%}, {hi:.2%}]")


if __name__ == "__main__":
    main()
