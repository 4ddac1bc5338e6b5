"""The AI's memos are bounded where the AI runs: in the worker processes.

Since the AI, hints and reviews moved to a pool of processes, the lobby's sweep bounded
the memos of the server's own process, which the AI no longer fills, and each worker's
grew to its full size (a 30-minute soak: the two workers from 361 to 559 MiB in three
minutes, the server 85 MiB). Each test here failed before.
"""

from __future__ import annotations

import asyncio
import random

from sgmahjong.analysis.decompose import winning_tiles
from sgmahjong.analysis.shanten import shanten
from sgmahjong.web.limits import WebLimits
from sgmahjong.web.memory import memo_sizes
from sgmahjong.web.workers import Workers


def _hands(n: int, seed: int) -> list[tuple[int, ...]]:
    """``n`` random 14-tile hands as the 34 kinds' counts (four of each kind in the set)."""
    rng = random.Random(seed)
    tiles = [k for k in range(34) for _ in range(4)]
    out = []
    for _ in range(n):
        counts = [0] * 34
        for k in rng.sample(tiles, 14):
            counts[k] += 1
        out.append(tuple(counts))
    return out


def _less_one(counts: tuple[int, ...]) -> tuple[int, ...]:
    """The hand less one tile of its lowest kind: 13 tiles, whose waits can be read."""
    first = next(k for k, n in enumerate(counts) if n)
    return (*counts[:first], counts[first] - 1, *counts[first + 1:])


def test_a_worker_holds_its_ai_memos_to_the_servers_bounds() -> None:
    bound = 40
    workers = Workers(1, WebLimits(ai_cache_entries=bound, shanten_patterns=bound,
                                   suit_readings=bound))

    async def run() -> list[dict[str, int]]:
        seen = []
        for counts in _hands(60, seed=3):
            await workers.cpu(shanten, counts)
            await workers.cpu(winning_tiles, _less_one(counts))
            seen.append(await workers.cpu(memo_sizes))
        return seen

    try:
        seen = asyncio.run(run())
    finally:
        workers.close()
    # the hands met well over the bound in patterns (each meets several new ones) ...
    assert sum(s["shanten_patterns"] for s in seen) > 2 * bound
    assert sum(s["suit_readings"] for s in seen) > 2 * bound
    # ... and after every job the worker held at most the bound (it held 217 before)
    assert max(s["shanten_patterns"] for s in seen) <= bound
    assert max(s["suit_readings"] for s in seen) <= bound
