"""Environment steps per CPU-second with random masked actions: ``sgmahjong.env`` beside
RLCard's mahjong environment and ``pymahjong`` (Japanese rules, C++), measured in the same run.

    python bench/bench_env.py [--steps 20000] [--reps 5] [--preset standard] [--no-install]

Each step is one decision: the acting agent's observation and mask are built (as a learner
needs them) and a random legal action is played. The anchors are not project dependencies:
when one is not importable it is installed for this run into a temporary folder (``pip
install --target``); one that cannot be installed is reported as unavailable. Repetitions
are interleaved, and each figure is the median over them.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import numpy as np

Runner = Callable[[int, int], int]   # (steps, seed) -> steps played


def run_sgmahjong(preset: str) -> Runner:
    # The unwrapped environment, as the anchors' are (env() adds PettingZoo's order
    # checks around it).
    from sgmahjong.env import raw_env

    def run(steps: int, seed: int) -> int:
        e = raw_env(preset)
        rng = np.random.default_rng(seed)
        n, episode = 0, seed
        e.reset(seed=episode)
        while n < steps:
            if any(e.terminations.values()):
                episode += 1
                e.reset(seed=episode)
            obs, *_ = e.last()
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
        return n
    return run


def run_rlcard() -> Runner:
    import rlcard

    def run(steps: int, seed: int) -> int:
        e = rlcard.make("mahjong", config={"seed": seed})
        rng = np.random.default_rng(seed)
        n = 0
        while n < steps:
            state, _ = e.reset()
            while not e.is_over() and n < steps:
                legal = list(state["legal_actions"])
                state, _ = e.step(legal[int(rng.integers(len(legal)))])
                n += 1
        return n
    return run


def run_pymahjong() -> Runner:
    import pymahjong

    def run(steps: int, seed: int) -> int:
        e = pymahjong.MahjongEnv()
        rng = np.random.default_rng(seed)
        n, game = 0, 0
        while n < steps:
            e.reset(oya=game % 4, game_wind="east")
            game += 1
            while not e.is_over() and n < steps:
                pid = e.get_curr_player_id()
                mask = e.get_valid_actions(nhot=True)
                e.get_obs(pid)
                e.step(pid, int(rng.choice(np.flatnonzero(mask))))
                n += 1
        return n
    return run


ANCHORS = {  # name: (module, pip requirements, runner factory)
    "rlcard": ("rlcard", ["rlcard", "termcolor"], run_rlcard),
    "pymahjong": ("pymahjong", ["pymahjong"], run_pymahjong),
}


def load_anchor(name: str, install: bool, target: str) -> tuple[Runner | None, str]:
    module, requirements, factory = ANCHORS[name]
    try:
        importlib.import_module(module)
    except ImportError:
        if not install:
            return None, "not installed (--no-install)"
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                               "--target", target, *requirements],
                              capture_output=True, text=True)
        if done.returncode != 0:
            return None, f"cannot be installed: {done.stderr.strip().splitlines()[-1:]}"
        if target not in sys.path:
            sys.path.append(target)    # after the project's own numpy and gymnasium
        importlib.invalidate_caches()
        try:
            importlib.import_module(module)
        except Exception as e:  # an anchor that installs but does not import is skipped
            return None, f"installed but does not import: {e}"
    try:
        runner = factory()
        runner(50, 0)                  # a first short run: imports and warm caches
    except Exception as e:
        return None, f"does not run: {e}"
    return runner, "ok"


def steps_per_second(run: Runner, steps: int, seed: int) -> float:
    start = time.process_time()
    n = run(steps, seed)
    return n / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20_000, help="steps per repetition")
    ap.add_argument("--reps", type=int, default=5, help="repetitions (the median is shown)")
    ap.add_argument("--preset", default="standard", help="sgmahjong rule preset")
    ap.add_argument("--no-install", action="store_true",
                    help="measure only the anchors already importable")
    args = ap.parse_args(argv)
    if args.steps < 1 or args.reps < 1:
        print("error: --steps and --reps must be at least 1", file=sys.stderr)
        return 2
    ours = f"sgmahjong.env ({args.preset})"
    runners: dict[str, Runner] = {ours: run_sgmahjong(args.preset)}
    runners[ours](50, 0)               # warm-up, as for the anchors
    with tempfile.TemporaryDirectory(prefix="bench-env-anchors-") as target:
        for name in ANCHORS:
            runner, status = load_anchor(name, not args.no_install, target)
            if runner is None:
                print(f"{name}: unavailable, {status}")
            else:
                runners[name] = runner
        rates: dict[str, list[float]] = {name: [] for name in runners}
        for rep in range(args.reps):
            for name, run in runners.items():
                rates[name].append(steps_per_second(run, args.steps, rep))
    medians = {name: statistics.median(r) for name, r in rates.items()}
    print(f"random masked actions, {args.steps} steps x {args.reps} reps, CPU time, "
          "median steps/second:")
    for name, m in medians.items():
        spread = f"{min(rates[name]):,.0f}-{max(rates[name]):,.0f}"
        line = f"  {name:<28} {m:>9,.0f}  (range {spread})"
        if name != ours:
            line += f"  sgmahjong/{name} = {medians[ours] / m:.2f}x"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
