"""Fit the deal-in model of ``sgmahjong.agents.dealin``, or check its calibration.

AI players of the five levels play seeded hands through the engine, four of the five at a
table, the field rotated one seat per hand. Before every discard the features of
``sgmahjong.agents.dealin`` are read from the discarder's own view (with the public order
of the discards), once for each other seat; the outcome is whether that seat then won on
this very discard (a Won event naming the discarder, not by robbing a kong). Fitting is a
logistic regression (Newton's method with a light ridge penalty) over those
(discard, other seat) pairs; the coefficients go to a JSON file.

``--check`` plays other seeds and compares the shipped (or ``--model``) probabilities with
what happened: a reliability table (predicted-probability bins against the observed rate,
95% Wilson intervals), the Brier score against always predicting the base rate, the
expected calibration error, and the same per level of the seat that could win.

    python bench/fit_dealin.py --hands 3000 --procs 2 --out src/sgmahjong/agents/dealin_model.json
    python bench/fit_dealin.py --check --hands 2000 --seed 99 --procs 2
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from bench_danger import wilson  # the script's own folder is on the path

from sgmahjong.agents import agent_names, make_agent
from sgmahjong.agents.danger import discard_history, read_threats
from sgmahjong.agents.dealin import FEATURES, Model, features, load_model
from sgmahjong.game import Game
from sgmahjong.game.actions import Discard
from sgmahjong.game.events import Won
from sgmahjong.game.prng import derive_seed

LEVELS = ("snail", "rabbit", "hedgehog", "fox", "owl")

# One pair: (discarder's level, other seat's level, features, that seat won on it).
Pair = tuple[str, str, tuple[float, ...], bool]


def play(args: tuple[str, int, int, int, tuple[str, ...]]) -> list[list[Pair]]:
    """Hands ``first`` to ``last`` (exclusive): for every discard, its pairs."""
    rules, seed, first, last, names = args
    out: list[list[Pair]] = []
    for n in range(first, last):
        hand_seed = derive_seed(seed, n)
        levels = [names[(s + n) % len(names)] for s in range(4)]
        agents = [make_agent(levels[s], derive_seed(hand_seed, s)) for s in range(4)]
        g = Game.new(rules, seed=hand_seed)
        rows: list[tuple[int, list[tuple[int, tuple[float, ...]]]]] = []
        while not g.ended:
            for seat in sorted(g.waiting_for()):
                v = g.view(seat)
                action = agents[seat].act(v, g.legal_actions(seat))  # type: ignore[attr-defined]
                if isinstance(action, Discard):
                    threats = read_threats(v, discard_history(g.events))
                    rows.append((seat, [(th.seat, features(v, action.tile, th, threats))
                                        for th in threats]))
                g.submit(seat, action)
        # A win on a discard ends the hand, so it is on the hand's last discard.
        winners = {int(e.seat) for e in g.events if isinstance(e, Won)
                   and e.discarder is not None and not any("robbing" in c for c in e.context)}
        for i, (seat, pairs) in enumerate(rows):
            last_one = i == len(rows) - 1
            out.append([(levels[seat], levels[o], x, last_one and o in winners)
                        for o, x in pairs])
    return out


def collect(opts: argparse.Namespace) -> list[list[Pair]]:
    names = tuple(opts.players.split(","))
    chunk = 20
    jobs = [(opts.rules, opts.seed, a, min(a + chunk, opts.hands), names)
            for a in range(0, opts.hands, chunk)]
    data: list[list[Pair]] = []
    with ProcessPoolExecutor(max(1, opts.procs)) as pool:
        for part in pool.map(play, jobs):
            data.extend(part)
    return data


def fit(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """Logistic regression by Newton's method; the bias is not penalised."""
    w = np.zeros(x.shape[1])
    w[0] = math.log(max(y.mean(), 1e-6) / (1 - max(y.mean(), 1e-6)))
    pen = np.full(x.shape[1], ridge)
    pen[0] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + pen * w
        h = (x * (p * (1 - p))[:, None]).T @ x + np.diag(pen) + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(h, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


BINS = (0.0, 0.005, 0.01, 0.02, 0.04, 0.08, 0.15, 0.3, 1.0001)


def report(title: str, p: np.ndarray, y: np.ndarray, bins: tuple[float, ...] = BINS,
           word: str = "won on") -> None:
    """Reliability table, Brier score against the base rate, expected calibration error."""
    n = len(y)
    base = y.mean()
    brier = float(((p - y) ** 2).mean())
    brier0 = float(((base - y) ** 2).mean())
    print(f"\n{title}: {n} cases, {int(y.sum())} {word}, observed {base:.2%}, "
          f"mean predicted {p.mean():.2%}")
    print(f"  {'predicted':<14} {'cases':>7} {'won':>5} {'mean pred':>9} {'observed':>8}"
          "   95% interval")
    ece = 0.0
    for lo, hi in itertools.pairwise(bins):
        m = (p >= lo) & (p < hi)
        k = int(m.sum())
        if not k:
            continue
        won = int(y[m].sum())
        a, b = wilson(won, k)
        ece += k / n * abs(p[m].mean() - won / k)
        print(f"  {f'{lo:.1%}-{min(hi, 1):.1%}':<14} {k:>7} {won:>5} {p[m].mean():>9.2%} "
              f"{won / k:>8.2%}   [{a:.2%}, {b:.2%}]")
    skill = 1 - brier / brier0 if brier0 else 0.0
    print(f"  Brier {brier:.5f} against {brier0:.5f} for the base rate (skill {skill:.1%}); "
          f"expected calibration error {ece:.3%}")


def check(data: list[list[Pair]], model: Model) -> None:
    # Each discard: the probability that any other seat wins on it.
    pd = np.array([1 - math.prod(1 - model.chance(x) for _, _, x, _ in pairs)
                   for pairs in data])
    yd = np.array([float(any(w for *_, w in pairs)) for pairs in data])
    report("Every discard (anyone wins on it)", pd, yd)
    by: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for pairs in data:
        for _, opp, x, w in pairs:
            by[opp].append((model.chance(x), float(w)))
    for level in LEVELS:
        if by[level]:
            arr = np.array(by[level])
            report(f"Against {level} (this seat wins on it)", arr[:, 0], arr[:, 1])
    ready = np.array([x[FEATURES.index("three sets out")] for pairs in data
                      for _, _, x, _ in pairs])
    pp = np.array([model.chance(x) for pairs in data for _, _, x, _ in pairs])
    yp = np.array([float(w) for pairs in data for *_, w in pairs])
    report("Against a seat with three sets out", pp[ready > 0], yp[ready > 0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--seed", type=int, default=None,
                    help="first seed (default 2024 to fit, 99 to check)")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--players", default=",".join(LEVELS),
                    help="the levels, four at a table, rotated one seat per hand")
    ap.add_argument("--ridge", type=float, default=1.0)
    ap.add_argument("--out", type=Path, help="where to write the fitted model (JSON)")
    ap.add_argument("--check", action="store_true", help="check calibration instead")
    ap.add_argument("--model", type=Path, help="with --check: a model file to check")
    opts = ap.parse_args()
    if opts.seed is None:
        opts.seed = 99 if opts.check else 2024
    if opts.hands < 1:
        ap.error("--hands must be at least 1")
    unknown = [n for n in opts.players.split(",") if n not in agent_names()]
    if unknown:
        ap.error(f"--players: no such player {unknown[0]!r} (players: "
                 f"{', '.join(agent_names())})")
    model = None
    if opts.model is not None:
        try:
            raw = json.loads(opts.model.read_text())
            model = Model(tuple(float(raw["coef"][n]) for n in FEATURES))
        except (OSError, ValueError, KeyError, TypeError) as e:
            ap.error(f"--model {opts.model}: not a deal-in model of these features ({e})")
    start = time.time()
    data = collect(opts)
    took = time.time() - start
    print(f"{opts.rules}: {opts.hands} hands from seed {opts.seed} ({opts.players}), "
          f"{len(data)} discards in {took:.0f}s")
    if opts.check:
        check(data, load_model() if model is None else model)
        return
    x = np.array([x for pairs in data for _, _, x, _ in pairs])
    y = np.array([float(w) for pairs in data for *_, w in pairs])
    w = fit(x, y, opts.ridge)
    model = Model(tuple(float(c) for c in w))
    for name, c in zip(FEATURES, w, strict=True):
        print(f"  {name:<26} {c:+.3f}")
    check(data, model)
    if opts.out is not None:
        about = (f"fitted by bench/fit_dealin.py on {opts.hands} {opts.rules} hands from seed "
                 f"{opts.seed} ({opts.players}), ridge {opts.ridge}: {len(data)} discards, "
                 f"{int(y.sum())} won on")
        opts.out.write_text(json.dumps({"about": about, "features": list(FEATURES),
                                        "coef": {n: round(float(c), 4)
                                                 for n, c in zip(FEATURES, w, strict=True)}},
                                       indent=1) + "\n")
        print(f"wrote {opts.out}")


if __name__ == "__main__":
    main()
