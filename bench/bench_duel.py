"""Duplicate duels: one player against others on the same deals, the rest of the table fixed.

For every seeded wall and every seat, the same deal is played once with each of
``--players`` in that seat and the same three opponents (``--field``, with the same seeds)
in the others; a player's score at that seat is compared with the first player's on the
same deal. Everything but the one seat's decisions is the same, so the difference is the
players' own, and far less noisy than a table where all four change: it is the measure
docs/ai.md quotes for the Owl. Prints, for the first player against each other one, the
mean difference in points per hand with its 95% interval (clustered by wall), and each
player's points per hand, win and deal-in rates, and those points broken down into the
hands it won, dealt in, and neither.

    python bench/bench_duel.py --players owl,fox --walls 200
    python bench/bench_duel.py --reference 2ca9c76 \\
        --players owl,owl@ref,fox,model:examples/policy.npz \\
        --field owl@ref,fox,hedgehog --walls 1000 --seed 31337
"""

from __future__ import annotations

import argparse
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench_strength import Row, interval, play_deal, prepare

from sgmahjong.game.prng import derive_seed


def play_wall(args: tuple[str, int, tuple[str, ...], tuple[str, ...], str]
              ) -> dict[str, list[Row]]:
    """Every player in every seat of one wall: name -> [row per seat]."""
    rules, wall_seed, names, opponents, ref_folder = args
    out: dict[str, list[Row]] = {n: [] for n in names}
    for seat in range(4):
        # the opponents take the other seats in turn order, starting after this one
        others = [opponents[(k + seat) % 3] for k in range(3)]
        for n in names:
            seated = [""] * 4
            seated[seat] = n
            for k in range(3):
                seated[(seat + 1 + k) % 4] = others[k]
            seeds = [derive_seed(wall_seed, s) for s in range(4)]
            out[n].append(play_deal(rules, wall_seed, seated, seeds, ref_folder)[seat])
    return out


def breakdown(rows: list[Row]) -> list[tuple[float, float]]:
    """(share of hands, mean points) of the hands a player won, dealt in, and neither (a
    hand another seat won, or a drawn hand): the three make its points per hand."""
    parts = ([p for p, won, _ in rows if won],
             [p for p, won, dealt in rows if dealt and not won],
             [p for p, won, dealt in rows if not won and not dealt])
    return [(len(ps) / len(rows), sum(ps) / len(ps) if ps else 0.0) for ps in parts]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--walls", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--players", default="owl,fox",
                    help="the first is compared with each of the others")
    ap.add_argument("--field", default="fox,hedgehog,rabbit",
                    help="the three opponents at every deal")
    ap.add_argument("--reference", default="",
                    help="a revision of this repository for the players named NAME@ref")
    opts = ap.parse_args()
    names = tuple(opts.players.split(","))
    opponents = tuple(opts.field.split(","))
    if len(names) < 2 or len(set(names)) != len(names):
        ap.error("--players needs at least two different names")
    if len(opponents) != 3:
        ap.error("--field needs three names")
    tmp = tempfile.TemporaryDirectory(prefix="sgmahjong-ref-")
    ref_folder = prepare(ap, [*names, *opponents], opts.reference, Path(tmp.name))
    jobs = [(opts.rules, derive_seed(opts.seed, i), names, opponents, ref_folder)
            for i in range(opts.walls)]
    t0 = time.perf_counter()
    per_wall: dict[str, list[float]] = {n: [] for n in names}
    rows: dict[str, list[Row]] = {n: [] for n in names}
    done = 0
    with ProcessPoolExecutor(opts.procs) as pool:
        for res in pool.map(play_wall, jobs):
            for n, r in res.items():
                per_wall[n].append(sum(p for p, _, _ in r) / len(r))
                rows[n].extend(r)
            done += 1
            if done % max(1, opts.walls // 20) == 0:
                print(f"  {done}/{opts.walls} walls, {time.perf_counter() - t0:.0f}s",
                      flush=True)
    hands = opts.walls * 4 * len(names)
    print(f"{opts.rules}: {opts.walls} walls from seed {opts.seed} x 4 seats x "
          f"{len(names)} players = {hands} hands in {time.perf_counter() - t0:.0f}s; "
          f"opponents {', '.join(opponents)}")
    width = max(10, *(len(n) for n in names))
    print(f"{'player':{width}} {'hands':>6} {'pts/hand':>9} {'95% CI':>17} {'win rate':>9} "
          f"{'deal-in':>8}")
    for n in names:
        mean, half = interval(per_wall[n])
        r = rows[n]
        print(f"{n:{width}} {len(r):6d} {mean:9.2f} [{mean - half:7.2f}, {mean + half:6.2f}] "
              f"{sum(w for _, w, _ in r) / len(r):9.1%} {sum(d for *_, d in r) / len(r):8.1%}")
    print("where the points come from: share of hands x mean points = points per hand")
    print(f"{'player':{width}} {'won':>25} {'dealt in':>25} {'neither':>25}")
    for n in names:
        print(f"{n:{width}} " + " ".join(f"{share:6.1%} x {mean:+7.2f} = {share * mean:+6.2f}"
                                         for share, mean in breakdown(rows[n])))
    first = names[0]
    for n in names[1:]:
        mean, half = interval([a - b for a, b in zip(per_wall[first], per_wall[n],
                                                     strict=True)])
        print(f"{first} - {n}: {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] points "
              "per hand")


if __name__ == "__main__":
    main()
