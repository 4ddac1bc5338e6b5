"""Benchmark: ``sgmahjong simulate`` hands per CPU-second, this tree against a reference.

Each measurement is a fresh Python process that imports one source tree (``PYTHONPATH``),
plays one warm-up match, then ``--games`` full matches with ``sgmahjong.simulate.simulate``
(one worker, greedy players by default, ``--rules`` standard, ``--seed`` 1) and reports the
hands played and the process CPU time they took (``time.process_time``, so other work on
a shared machine does not count). The current tree and the reference run alternately,
``--reps`` times each, and the medians and their ratio are printed. Both must play the
same number of hands: the same seeds give the same games.

    python bench/bench_engine.py                       # against REFERENCE below
    python bench/bench_engine.py --games 100 --reps 5 --reference main
    python bench/bench_engine.py --reference ../old-checkout --rules garden
    python bench/bench_engine.py --reference none      # this tree alone
    python bench/bench_engine.py --compiled            # this tree built with mypyc

``--reference`` is a git revision of this repository (checked out for the run with
``git worktree add`` into a temporary folder, removed afterwards), a folder holding a
checkout (its ``src``) or an installed package's parent folder, or ``none``. The default
is the last commit before the engine speed work of issue 17, so the script shows that
speed-up.

``--compiled`` measures this tree compiled by ``python -m sgmahjong.fast build --out``
into a temporary folder (see docs/engine.md); ``--tree DIR`` measures another folder
instead of this checkout (a checkout, or a compiled copy made with ``--out``). Each run
reports which engine it loaded (``python`` or ``compiled``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REFERENCE = "d277a63"   # main before the speed work of issue 17

# Run in the child: one warm-up match (imports, first-use tables) that is not timed, then
# the timed run. Only ``simulate``'s public signature is used, so any version runs it.
CHILD = """
import json, sys, time
from sgmahjong.simulate import simulate
rules, games, seed, players = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
players = players.split(",")
simulate(rules, players, games=1, seed=seed + 7919)
start = time.process_time()
s = simulate(rules, players, games=games, seed=seed)
cpu = time.process_time() - start
try:
    from sgmahjong.fast import engine
    kind = engine()
except ImportError:
    kind = "python"
print(json.dumps({"hands": s.hands, "cpu": cpu, "engine": kind}))
"""


class BenchError(Exception):
    """A reference that cannot be found or checked out."""


def source_dir(path: Path) -> Path:
    """The folder to put on ``PYTHONPATH`` for a checkout or a package's parent folder."""
    for cand in (path / "src", path):
        if (cand / "sgmahjong" / "__init__.py").is_file():
            return cand
    raise BenchError(f"{path} holds no sgmahjong package (neither src/sgmahjong nor sgmahjong)")


@contextlib.contextmanager
def reference_tree(spec: str) -> Iterator[Path]:
    """The source folder of ``spec`` (a folder, or a git revision checked out for the run)."""
    path = Path(spec)
    if path.is_dir():
        yield source_dir(path)
        return
    rev = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--verify", "--quiet",
                          f"{spec}^{{commit}}"], capture_output=True, text=True)
    if rev.returncode != 0:
        raise BenchError(f"--reference {spec!r} is neither a folder nor a git revision of "
                         f"{REPO}")
    commit = rev.stdout.strip()
    with tempfile.TemporaryDirectory(prefix="sgmahjong-ref-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "--quiet",
                        str(tree), commit], check=True)
        try:
            yield source_dir(tree)
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force",
                            str(tree)], check=False)


@contextlib.contextmanager
def current_tree(tree: str | None, compiled: bool) -> Iterator[Path]:
    """The source folder to measure: ``tree``, or this checkout; with ``compiled``, a copy
    of it built by ``sgmahjong.fast`` in a temporary folder."""
    src = source_dir(Path(tree)) if tree else source_dir(REPO)
    if not compiled:
        yield src
        return
    with tempfile.TemporaryDirectory(prefix="sgmahjong-fast-") as tmp:
        env = dict(os.environ, PYTHONPATH=str(src))
        res = subprocess.run([sys.executable, "-m", "sgmahjong.fast", "build", "--out", tmp],
                             env=env, capture_output=True, text=True)
        if res.returncode != 0:
            raise BenchError(f"the compiled build failed:\n{res.stderr.strip()}")
        yield Path(tmp)


def measure(src: Path, rules: str, games: int, seed: int, players: Sequence[str]) -> dict:
    """Hands and CPU seconds of one child process running ``src``'s engine."""
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run([sys.executable, "-c", CHILD, rules, str(games), str(seed),
                          ",".join(players)], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise BenchError(f"the run of {src} failed:\n{out.stderr.strip()}")
    row = json.loads(out.stdout.strip().splitlines()[-1])
    row["rate"] = row["hands"] / row["cpu"] if row["cpu"] > 0 else 0.0
    return row


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50, help="matches per run (default 50)")
    ap.add_argument("--rules", default="standard", help="preset or rule file (default standard)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reps", type=int, default=3, help="runs of each tree (default 3)")
    ap.add_argument("--players", default="greedy",
                    help="four names, or one for all (default greedy)")
    ap.add_argument("--reference", default=REFERENCE,
                    help=f"git revision, folder or 'none' (default {REFERENCE})")
    ap.add_argument("--tree", metavar="DIR",
                    help="the folder to measure (default this checkout)")
    ap.add_argument("--compiled", action="store_true",
                    help="measure the tree built with mypyc (python -m sgmahjong.fast)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    args = ap.parse_args(argv)
    players = args.players.split(",")
    if len(players) == 1:
        players *= 4
    if args.games < 1 or args.reps < 1:
        ap.error("--games and --reps must be at least 1")
    ref_spec = None if args.reference == "none" else args.reference
    try:
        with (current_tree(args.tree, args.compiled) as current,
              reference_tree(ref_spec) if ref_spec else contextlib.nullcontext() as ref):
            trees = {"current": current} | ({"reference": ref} if ref else {})
            rows: dict[str, list[dict]] = {name: [] for name in trees}
            for _ in range(args.reps):            # alternate, so drifts hit both alike
                for name, src in trees.items():
                    rows[name].append(measure(src, args.rules, args.games, args.seed,
                                              players))
    except BenchError as exc:
        print(f"bench_engine: {exc}", file=sys.stderr)
        return 2
    hands = {name: {r["hands"] for r in rs} for name, rs in rows.items()}
    if len({h for hs in hands.values() for h in hs}) != 1:
        print(f"bench_engine: the trees played different numbers of hands: {hands}",
              file=sys.stderr)
        return 1
    result = {name: {"hands": rs[0]["hands"],
                     "median_hands_per_cpu_second": round(statistics.median(
                         r["rate"] for r in rs), 1),
                     "rates": [round(r["rate"], 1) for r in rs],
                     "engine": sorted({r["engine"] for r in rs})} for name, rs in rows.items()}
    if "reference" in result:
        result["ratio"] = round(result["current"]["median_hands_per_cpu_second"]
                                / result["reference"]["median_hands_per_cpu_second"], 2)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"simulate --games {args.games} --rules {args.rules} --seed {args.seed} "
          f"(players {','.join(players)}), {args.reps} alternating runs per tree; "
          f"Python {platform.python_version()}, {os.cpu_count()} CPUs")
    for name in trees:
        r = result[name]
        print(f"{name:>9}: {r['hands']} hands, median {r['median_hands_per_cpu_second']} "
              f"hands per CPU-second (runs: {', '.join(map(str, r['rates']))}; engine "
              f"{' / '.join(r['engine'])})")
    if "ratio" in result:
        print(f"    ratio: {result['ratio']}x (reference {args.reference})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
