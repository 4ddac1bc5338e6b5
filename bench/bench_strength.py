"""Strength of the levels: a seeded round robin with duplicate seating under one preset.

Every table of four players (all 4-player subsets of the field) plays each wall four
times, the players rotated through the seats, so every player meets every wall from every
seat. Prints mean points per hand with a 95% confidence interval (clustered by wall, since
the duplicate deals of one wall are not independent), the win rate and the deal-in rate
(hands in which the player's discard, or robbed kong, was won on). ``--players`` picks the
field (at least four names: levels, baselines, or ``model:PATH`` for a policy saved by
``examples/train.py``, or ``NAME@ref`` for a level as it plays at ``--reference REV``, another
revision of this repository); ``--pair a,b`` also prints the mean difference a - b in points
per hand, with its interval, over the walls.

    python bench/bench_strength.py --walls 40 --procs 2
    python bench/bench_strength.py --walls 400 --players fox,owl,hedgehog,greedy --pair owl,fox
    python bench/bench_strength.py --players model:p.npz,owl,fox,hedgehog --pair model:p.npz,owl
    python bench/bench_strength.py --reference 2ca9c76 --players owl,owl@ref,fox,hedgehog \
        --pair owl,owl@ref --walls 1000 --seed 7
"""

from __future__ import annotations

import argparse
import itertools
import math
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from reference import SUFFIX, ReferenceTable, RevisionError, reference_package

from sgmahjong.agents.levels import LEVELS
from sgmahjong.errors import SgmahjongError
from sgmahjong.game import Game
from sgmahjong.game.prng import derive_seed
from sgmahjong.tiles import Seat

PlayerFactory = Callable[[int], object]


def field(names: Sequence[str]) -> dict[str, PlayerFactory]:
    players: dict[str, PlayerFactory] = {}
    for n in names:
        if n in LEVELS:
            players[n] = LEVELS[n]
        elif n.startswith("model:"):
            # A policy saved by examples/train.py: read once, one player per seat.
            from sgmahjong.env.model import ModelAgent, load
            params = load(n[len("model:"):])
            players[n] = lambda seed, params=params: ModelAgent(params, seed)
        elif n.startswith("owl~"):
            players[n] = variant(n)
        else:
            from sgmahjong.agents import make_agent
            players[n] = lambda seed, n=n: make_agent(n, seed)
    return players


Row = tuple[int, int, int]   # points, won, dealt in


def variant(name: str) -> PlayerFactory:
    """``owl~FIELD=V[~FIELD=V]``: the Owl with fields of its points model changed, for
    experiments (``realise=0`` values no tai source not yet secured, ``anyway=99`` counts
    no deal-in cost; a number fills every entry of a list field)."""
    import dataclasses

    from sgmahjong.agents.expected import load_points_model
    from sgmahjong.agents.owl import Owl

    model = load_points_model()
    fox_claims = False
    for part in name.split("~")[1:]:
        key, _, value = part.partition("=")
        if key == "foxclaims":
            fox_claims = True
            continue
        old = getattr(model, key)
        new = (tuple(float(value) for _ in old) if isinstance(old, tuple)
               else float(value))
        model = dataclasses.replace(model, **{key: new})

    class Variant(Owl):
        def claim(self, view, claims):  # type: ignore[no-untyped-def]
            if not fox_claims:
                return super().claim(view, claims)
            from sgmahjong.agents.evaluation import claim_options, situation
            from sgmahjong.agents.fox import Fox
            from sgmahjong.game.actions import Kong
            kongs = [a for a in claims if isinstance(a, Kong)]
            for opt in claim_options(view, kongs, situation(view)):
                if opt.after <= opt.before:
                    return opt.action
            return Fox.claim(self, view, claims)

    Variant.model = model
    return Variant


def play_deal(rules: str, wall_seed: int, seated: Sequence[str], seeds: Sequence[int],
              ref_folder: str = "") -> list[Row]:
    """One deal of ``wall_seed`` with ``seated`` (a player name per seat, each with its
    seed): (points, won, dealt in) per seat. Players named ``NAME@ref`` play the level as
    it is at the reference revision copied into ``ref_folder``."""
    players = field([n for n in set(seated) if not n.endswith(SUFFIX)])
    ref = (ReferenceTable(ref_folder, rules, wall_seed)
           if any(n.endswith(SUFFIX) for n in seated) else None)
    agents = [ref.agent(n[:-len(SUFFIX)], seeds[s]) if ref is not None and n.endswith(SUFFIX)
              else players[n](seeds[s]) for s, n in enumerate(seated)]
    g = Game.new(rules, seed=wall_seed)
    while not g.ended:
        for seat in sorted(g.waiting_for()):
            a = agents[seat]
            if ref is not None and seated[seat].endswith(SUFFIX):
                action = ref.act(a, seat)
            else:
                act = a.act if hasattr(a, "act") else a  # type: ignore[attr-defined]
                action = act(g.view(seat), g.legal_actions(seat))
            g.submit(seat, action)
            if ref is not None:
                ref.follow(seat, action)
    outcome = g.outcome()
    assert outcome is not None
    fed = {w.discarder for w in outcome.wins}
    return [(outcome.deltas[seat], int(seat in outcome.winners), int(seat in fed))
            for seat in Seat]


def play_wall(args: tuple[str, int, tuple[str, ...], str]) -> dict[str, list[Row]]:
    """Play one wall at every table in every rotation: name -> [(points, won, dealt in)]."""
    rules, wall_seed, names, ref_folder = args
    out: dict[str, list[Row]] = {n: [] for n in names}
    for table in itertools.combinations(names, 4):
        for rot in range(4):
            seated = [table[(s + rot) % 4] for s in range(4)]
            seeds = [derive_seed(wall_seed, 10 * rot + s) for s in range(4)]
            for seat, row in enumerate(play_deal(rules, wall_seed, seated, seeds, ref_folder)):
                out[seated[seat]].append(row)
    return out


def prepare(ap: argparse.ArgumentParser, names: Sequence[str], reference: str,
            tmp: Path) -> str:
    """Check that every player of ``names`` can be made (a model file that cannot be read
    fails here, once) and copy the ``--reference`` revision into ``tmp`` when a player
    plays from it: the folder to hand to :func:`play_deal` ("" without one)."""
    try:
        field([n for n in set(names) if not n.endswith(SUFFIX)])
    except SgmahjongError as e:
        ap.error(str(e))
    refs = sorted(n for n in set(names) if n.endswith(SUFFIX))
    if refs and not reference:
        ap.error(f"{refs[0]} needs --reference REV")
    for n in refs:
        if n[:-len(SUFFIX)] not in LEVELS:
            ap.error(f"{n}: only the levels ({', '.join(LEVELS)}) can play from a reference")
    if not refs:
        return ""
    try:
        return str(reference_package(reference, tmp))
    except RevisionError as e:
        ap.error(str(e))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--walls", type=int, default=20)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--players", default="snail,rabbit,hedgehog,fox,owl,greedy")
    ap.add_argument("--pair", default="", help="two players a,b: print the mean of a - b")
    ap.add_argument("--reference", default="",
                    help="a revision of this repository for the players named NAME@ref")
    opts = ap.parse_args()
    names = tuple(opts.players.split(","))
    if len(names) < 4 or len(set(names)) != len(names):
        ap.error("--players needs at least four different names")
    tmp = tempfile.TemporaryDirectory(prefix="sgmahjong-ref-")
    ref_folder = prepare(ap, names, opts.reference, Path(tmp.name))
    pair = tuple(opts.pair.split(",")) if opts.pair else ()
    if pair and (len(pair) != 2 or not set(pair) <= set(names)):
        ap.error("--pair needs two players of the field")
    jobs = [(opts.rules, derive_seed(opts.seed, i), names, ref_folder)
            for i in range(opts.walls)]
    t0 = time.perf_counter()
    per_wall: dict[str, list[float]] = {n: [] for n in names}
    all_points: dict[str, list[int]] = {n: [] for n in names}
    wins: dict[str, int] = dict.fromkeys(names, 0)
    fed: dict[str, int] = dict.fromkeys(names, 0)
    with ProcessPoolExecutor(opts.procs) as pool:
        for res in pool.map(play_wall, jobs):
            for n, rows in res.items():
                per_wall[n].append(sum(p for p, _, _ in rows) / len(rows))
                all_points[n].extend(p for p, _, _ in rows)
                wins[n] += sum(w for _, w, _ in rows)
                fed[n] += sum(d for _, _, d in rows)
    hands = opts.walls * math.comb(len(names), 4) * 4
    elapsed = time.perf_counter() - t0
    print(f"{opts.rules}: {opts.walls} walls x {math.comb(len(names), 4)} tables x 4 "
          f"rotations = {hands} hands in {elapsed:.0f}s")
    width = max(10, *(len(n) for n in names))
    print(f"{'player':{width}} {'hands':>6} {'pts/hand':>9} {'95% CI':>17} {'win rate':>9} "
          f"{'deal-in':>8}")
    for n in sorted(names, key=lambda n: sum(per_wall[n]) / len(per_wall[n])):
        mean, half = interval(per_wall[n])
        count = len(all_points[n])
        print(f"{n:{width}} {count:6d} {mean:9.2f} [{mean - half:7.2f}, {mean + half:6.2f}] "
              f"{wins[n] / count:9.1%} {fed[n] / count:8.1%}")
    if pair:
        a, b = pair
        mean, half = interval([x - y for x, y in zip(per_wall[a], per_wall[b], strict=True)])
        print(f"{a} - {b}: {mean:.2f} [{mean - half:.2f}, {mean + half:.2f}] points per hand")


def interval(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% interval (one value per wall)."""
    mean = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / max(1, len(xs) - 1))
    return mean, 1.96 * sd / math.sqrt(len(xs))


if __name__ == "__main__":
    main()
