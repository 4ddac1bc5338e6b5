"""Benchmark: sgmahjong shanten against the ``mahjong`` package on the same hands."""

from __future__ import annotations

import argparse
import functools
import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from sgmahjong.analysis import shanten as S

DATA_FILES = ("p_normal_10000.txt", "p_hon_10000.txt", "p_tin_10000.txt", "p_koku_10000.txt")
Hand = list[int]


def data_dir() -> Path:
    env = os.environ.get("SGMAHJONG_TESTDATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "shared" / "testdata" / "shanten"


def random_hands(n: int, seed: int) -> list[Hand]:
    """n random 14-tile hands drawn from the 136-tile set (no bonus tiles)."""
    rnd = random.Random(seed)
    wall = [k for k in range(34) for _ in range(4)]
    hands = []
    for _ in range(n):
        c = [0] * 34
        for t in rnd.sample(wall, 14):
            c[t] += 1
        hands.append(c)
    return hands


def read_data(path: Path) -> tuple[list[Hand], list[int]]:
    """Hands of a data file and their Singapore shanten min(R, K)."""
    hands, expected = [], []
    with path.open() as f:
        for line in f:
            v = [int(x) for x in line.split()]
            c = [0] * 34
            for t in v[:14]:
                c[t] += 1
            hands.append(c)
            expected.append(min(v[14], v[15]))
    return hands, expected


def timed_pass(fn: Callable[[Hand], int], hands: Sequence[Hand]) -> float:
    # As timeit does: a collection landing in one side's pass would only add noise.
    gc.disable()
    try:
        start = time.perf_counter()
        for c in hands:
            fn(c)
        return time.perf_counter() - start
    finally:
        gc.enable()


def measure(name: str, hands: list[Hand], expected: list[int] | None, repeat: int,
            ours: Callable[[Hand], int], ref: Callable[[Hand], int]) -> dict[str, object]:
    # Correctness first (also against the data file when there is one).
    got = [ours(c) for c in hands]
    want = [ref(c) for c in hands]
    bad_ref = sum(a != b for a, b in zip(got, want, strict=True))
    bad_data = (sum(a != b for a, b in zip(got, expected, strict=True))
                if expected is not None else None)
    # Fresh: tables filled by the first half of the set, timed on the unseen second half
    # (the steady state of a long run meeting new hands). Cold: empty tables, so each
    # new suit pattern and class combination is built during the pass.
    half = len(hands) // 2
    S.clear_caches()
    for c in hands[:half]:
        ours(c)
    fresh = timed_pass(ours, hands[half:])
    S.clear_caches()
    cold = timed_pass(ours, hands)
    # Interleaved, so that a slow spell of the machine hits both sides alike.
    ours_times, ref_times = [], []
    for _ in range(repeat):
        ours_times.append(timed_pass(ours, hands))
        ref_times.append(timed_pass(ref, hands))
    warm, refs = statistics.median(ours_times), statistics.median(ref_times)
    n = len(hands)
    return {"set": name, "hands": n, "cold": n / cold, "fresh": (n - half) / fresh,
            "warm": n / warm, "ref": n / refs, "bad_ref": bad_ref, "bad_data": bad_data}


def stage_profile(hands: list[Hand]) -> list[tuple[str, float]]:
    """Where a warm call spends its time: each stage of the hot path, cumulatively."""
    unpack, low, high, hon = S._UNPACK, S._LOW, S._HIGH, S._HON
    xy, zh, full = S._XY, S._ZH, S._FULL_MEMO
    for c in hands:
        S.shanten(c)

    def loop() -> None:
        for _c in hands:
            pass

    def to_buffer() -> None:
        for c in hands:
            bytearray(c)

    def to_keys() -> None:
        for c in hands:
            _m, _p, _s, _h = unpack(bytearray(c))

    def groups() -> None:
        for c in hands:
            m, p, s, h = unpack(bytearray(c))
            low[m], high[p], low[s], hon[h]

    def memos() -> None:
        for c in hands:
            m, p, s, h = unpack(bytearray(c))
            full[xy[low[m] + high[p]] + zh[low[s] + hon[h]]]

    def call() -> None:
        f = S.shanten
        for c in hands:
            f(c)

    steps = [("loop", loop), ("+ counts to bytearray", to_buffer),
             ("+ unpack into 4 keys", to_keys), ("+ 4 group lookups", groups),
             ("+ 3 memo lookups", memos), ("+ the rest of shanten()", call)]
    out = []
    for label, fn in steps:
        best = min(_time(fn) for _ in range(5))
        out.append((label, best / len(hands) * 1e9))
    return out


def _time(fn: Callable[[], None]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=20000, help="random hands (default 20000)")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--repeat", type=int, default=5, help="timed passes per set (median)")
    ap.add_argument("--stages", action="store_true", help="also break down a warm call")
    args = ap.parse_args(argv)

    try:
        from mahjong.shanten import Shanten
    except ImportError:
        print("the reference needs the 'mahjong' package: pip install -e '.[dev]'",
              file=sys.stderr)
        return 2
    # A partial, so that the reference pays no extra Python call per hand.
    ref = functools.partial(Shanten().calculate_shanten, use_chiitoitsu=False)

    ours = S.shanten
    sets: list[tuple[str, list[Hand], list[int] | None]] = [
        (f"random 14-tile (seed {args.seed})", random_hands(args.hands, args.seed), None)]
    folder = data_dir()
    for name in DATA_FILES:
        path = folder / name
        if path.is_file():
            hands, expected = read_data(path)
            sets.append((name, hands, expected))
        else:
            print(f"note: {path} not found, skipped", file=sys.stderr)

    rows = [measure(name, hands, expected, args.repeat, ours, ref)
            for name, hands, expected in sets]
    print(f"Python {sys.version.split()[0]}; shanten calls per second. sgmahjong = median of "
          f"{args.repeat} passes with the tables filled (mahjong likewise, interleaved); "
          "fresh = second half of the set after the first half filled the tables; cold = "
          "one pass from empty tables.")
    head = (f"{'set':31} {'hands':>6} {'sgmahjong':>11} {'mahjong':>9} {'ratio':>6} "
            f"{'fresh':>9} {'ratio':>6} {'cold':>9} {'ratio':>6}  check")
    print(head)
    print("-" * len(head))
    failed = False
    for r in rows:
        check = f"{r['bad_ref']} differ from mahjong"
        if r["bad_data"] is not None:
            check += f", {r['bad_data']} from the data"
        failed = failed or bool(r["bad_ref"]) or bool(r["bad_data"])
        print(f"{r['set']:31} {r['hands']:>6} {r['warm']:>11,.0f} {r['ref']:>9,.0f} "
              f"{r['warm'] / r['ref']:>5.1f}x {r['fresh']:>9,.0f} {r['fresh'] / r['ref']:>5.1f}x "
              f"{r['cold']:>9,.0f} {r['cold'] / r['ref']:>5.1f}x  "
              f"{check}")
    if args.stages:
        print("\nWarm call, cumulative ns per hand (random set):")
        for label, ns in stage_profile(sets[0][1]):
            print(f"  {label:28} {ns:6.0f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
