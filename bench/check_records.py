"""Check that this tree plays exactly what a reference plays: byte-identical match records.

For each preset (all six by default), runs ``sgmahjong simulate --seed S --games N --records
DIR --json`` once with this tree's sources and once with the reference's (``PYTHONPATH``),
then compares every record file byte for byte and the JSON summaries (less the timing).
Speed work on the engine, the agents or a compiled path must leave this silent.

    python bench/check_records.py                          # against bench_engine's REFERENCE
    python bench/check_records.py --reference main --games 20 --seed 5
    python bench/check_records.py --players greedy,random,owl,fox --presets standard,casual
    python bench/check_records.py --compiled    # this tree built with mypyc, see docs/engine.md

``--reference`` is a git revision (checked out into a temporary folder for the run) or a
folder holding a checkout. Exit status 0 when every preset matches, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench_engine import REFERENCE, BenchError, current_tree, reference_tree

PRESETS = ("standard", "limit", "casual", "garden", "automatic", "menqing")
TIMING = ("seconds", "hands_per_second", "engine")   # not part of the games


def run(src: Path, preset: str, games: int, seed: int, players: str, out: Path) -> dict:
    """One ``simulate`` run of ``src``'s package; its JSON summary without the timing."""
    env = dict(os.environ, PYTHONPATH=str(src))
    res = subprocess.run([sys.executable, "-m", "sgmahjong", "simulate", "--rules", preset,
                          "--games", str(games), "--seed", str(seed), "--players", players,
                          "--records", str(out), "--json"],
                         env=env, capture_output=True, text=True)
    if res.returncode != 0:
        raise BenchError(f"simulate with {src} under {preset} failed:\n{res.stderr.strip()}")
    summary = json.loads(res.stdout)
    for key in TIMING:
        summary.pop(key, None)
    summary["_engine"] = json.loads(res.stdout).get("engine", "python")
    return summary


def compare(a: Path, b: Path) -> list[str]:
    """What differs between two records folders (empty when every file is identical)."""
    names_a = sorted(p.name for p in a.iterdir())
    names_b = sorted(p.name for p in b.iterdir())
    if names_a != names_b:
        return [f"different record files: {names_a} vs {names_b}"]
    out = []
    for name in names_a:
        x, y = (a / name).read_bytes(), (b / name).read_bytes()
        if x != y:
            lines_x, lines_y = x.splitlines(), y.splitlines()
            pairs = enumerate(zip(lines_x, lines_y, strict=False))
            first = next((i for i, (p, q) in pairs if p != q), min(len(lines_x), len(lines_y)))
            out.append(f"{name} differs from line {first + 1}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", default=REFERENCE,
                    help=f"git revision or folder (default {REFERENCE})")
    ap.add_argument("--presets", default=",".join(PRESETS), help="comma-separated presets")
    ap.add_argument("--games", type=int, default=10, help="matches per preset (default 10)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", default="greedy", help="as simulate takes them")
    ap.add_argument("--tree", metavar="DIR",
                    help="the folder to check (default this checkout)")
    ap.add_argument("--compiled", action="store_true",
                    help="check the tree built with mypyc (python -m sgmahjong.fast)")
    args = ap.parse_args(argv)
    failed = 0
    try:
        with (current_tree(args.tree, args.compiled) as current,
              reference_tree(args.reference) as ref, tempfile.TemporaryDirectory() as tmp):
            for preset in args.presets.split(","):
                mine, theirs = Path(tmp, preset, "current"), Path(tmp, preset, "reference")
                s_mine = run(current, preset, args.games, args.seed, args.players, mine)
                s_theirs = run(ref, preset, args.games, args.seed, args.players, theirs)
                engines = f"engine {s_mine.pop('_engine')} against {s_theirs.pop('_engine')}"
                problems = compare(mine, theirs)
                if s_mine != s_theirs:
                    problems.append("the summaries differ")
                files = len(list(mine.iterdir()))
                if problems:
                    failed += 1
                    print(f"{preset}: DIFFERENT ({files} records, {engines}): "
                          + "; ".join(problems))
                else:
                    print(f"{preset}: identical ({files} records, {s_mine['hands']} hands, "
                          f"{engines})")
    except BenchError as exc:
        print(f"check_records: {exc}", file=sys.stderr)
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
