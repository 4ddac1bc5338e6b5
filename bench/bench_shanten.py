"""Benchmark: sgmahjong shanten against the ``mahjong`` package on the same hands."""

from __future__ import annotations

import argparse
import functools
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from sgmahjong.analysis import shanten as S
from sgmahjong.analysis import shanten_tables as T

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
    # There is no per-hand memo: every call does the full lookups, so a pass over hands
    # met before costs what a pass over new hands does ("fresh"). "Cold" empties the
    # group-pattern dicts before each pass, so that every suit and honour pattern is met
    # for the first time in it (the tables themselves stay loaded). Interleaved with the
    # reference, so that a slow spell of the machine hits both sides alike.
    fresh_times, cold_times, ref_times = [], [], []
    for _ in range(repeat):
        fresh_times.append(timed_pass(ours, hands))
        ref_times.append(timed_pass(ref, hands))
        S.clear_caches()
        cold_times.append(timed_pass(ours, hands))
    n = len(hands)
    fresh, cold, refs = (statistics.median(t) for t in (fresh_times, cold_times, ref_times))
    return {"set": name, "hands": n, "fresh": n / fresh, "cold": n / cold, "ref": n / refs,
            "ns": fresh / n * 1e9, "bad_ref": bad_ref, "bad_data": bad_data}


def table_times() -> list[tuple[str, float]]:
    """Seconds to build the tables from scratch, and to load them from a cache file."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / T.cache_path().name  # type: ignore[union-attr]
        start = time.perf_counter()
        tables = T.build_tables()
        build = time.perf_counter() - start
        T.write_cache(path, tables)
        loads = []
        for _ in range(5):
            start = time.perf_counter()
            loaded = T.read_cache(path)
            loads.append(time.perf_counter() - start)
            assert loaded is not None
        S.clear_caches(tables=True)
        os.environ[T.CACHE_ENV] = folder
        try:
            status = S.prepare_tables()
        finally:
            del os.environ[T.CACHE_ENV]
        assert status["source"] == "cache"
    return [("build (pure Python, from scratch)", build),
            ("read + check the cache file", min(loads)),
            ("load into the call path (first call)", float(status["seconds"]))]  # type: ignore[arg-type]


def stage_profile(hands: list[Hand]) -> list[tuple[str, float]]:
    """Where a call spends its time: each stage of the hot path, cumulatively."""
    unpack, low, high, hon = S._UNPACK, S._LOW, S._HIGH, S._HON
    xy, zh, final, ans0 = S._XY, S._ZH, S._FINAL, S._ANS0
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
            _a = low[m] + high[p]
            _b = low[s] + hon[h]

    def tables() -> None:
        for c in hands:
            m, p, s, h = unpack(bytearray(c))
            a = low[m] + high[p]
            b = low[s] + hon[h]
            ans0[final[xy[a & 0xFFFF] + zh[b & 0xFFFF]] + ((a + b) >> 16)]

    def call() -> None:
        f = S.shanten
        for c in hands:
            f(c)

    steps = [("loop", loop), ("+ counts to bytearray", to_buffer),
             ("+ unpack into 4 keys", to_keys), ("+ 4 group lookups", groups),
             ("+ 4 table lookups", tables), ("+ the call itself", call)]
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
    ap.add_argument("--stages", action="store_true", help="also break down a call")
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

    print(f"Python {sys.version.split()[0]}. Tables:")
    for label, seconds in table_times():
        print(f"  {label:38} {seconds * 1e3:8.1f} ms")
    rows = [measure(name, hands, expected, args.repeat, ours, ref)
            for name, hands, expected in sets]
    print(f"Shanten calls per second, median of {args.repeat} interleaved passes. fresh = "
          "no per-hand memo (every call does the full lookups), group-pattern dicts filled; "
          "cold = those dicts emptied before each pass (the tables stay loaded).")
    head = (f"{'set':31} {'hands':>6} {'fresh':>10} {'ns/call':>7} {'mahjong':>8} "
            f"{'ratio':>6} {'cold':>10} {'ratio':>6}  check")
    print(head)
    print("-" * len(head))
    failed = False
    for r in rows:
        check = f"{r['bad_ref']} differ from mahjong"
        if r["bad_data"] is not None:
            check += f", {r['bad_data']} from the data"
        failed = failed or bool(r["bad_ref"]) or bool(r["bad_data"])
        print(f"{r['set']:31} {r['hands']:>6} {r['fresh']:>10,.0f} {r['ns']:>7,.0f} "
              f"{r['ref']:>8,.0f} {r['fresh'] / r['ref']:>5.1f}x {r['cold']:>10,.0f} "
              f"{r['cold'] / r['ref']:>5.1f}x  {check}")
    if args.stages:
        print("\nA call, cumulative ns per hand (random set):")
        for label, ns in stage_profile(sets[0][1]):
            print(f"  {label:28} {ns:6.0f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
