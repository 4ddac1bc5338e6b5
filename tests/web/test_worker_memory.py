"""The AI's memos are bounded where the AI runs: in the worker processes.

Since the AI, hints and reviews moved to a pool of processes, the lobby's sweep bounded
the memos of the server's own process, which the AI no longer fills, and each worker's
grew to its full size (a 30-minute soak: the two workers from 361 to 559 MiB in three
minutes, the server 85 MiB). Each test here failed before.
"""

from __future__ import annotations

import asyncio
import random

from sgmahjong.agents.evaluation import ready_waits, tai_plan
from sgmahjong.analysis.decompose import winning_tiles
from sgmahjong.analysis.shanten import shanten
from sgmahjong.game.engine import Game
from sgmahjong.rules import load_rules
from sgmahjong.tiles import Seat, Tile
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
                                   suit_readings=bound, wait_readings=bound))
    view = Game.new("standard", seed=7).view(Seat.EAST)
    unseen = (4,) * 34

    async def run() -> list[dict[str, int]]:
        seen = []
        for counts in _hands(60, seed=3):
            await workers.cpu(shanten, counts)
            await workers.cpu(winning_tiles, _less_one(counts))
            # the Owl's and Fox's reading of a ready hand's waits, one entry a hand
            await workers.cpu(ready_waits, view, _less_one(counts), (), unseen)
            seen.append(await workers.cpu(memo_sizes))
        return seen

    try:
        seen = asyncio.run(run())
    finally:
        workers.close()
    # the hands met well over the bound in patterns (each meets several new ones) ...
    assert sum(s["shanten_patterns"] for s in seen) > 2 * bound
    assert sum(s["suit_readings"] for s in seen) > 2 * bound
    assert sum(s["waits"] for s in seen) > 2 * bound
    # ... and after every job the worker held at most the bound (it held 217 before)
    assert max(s["shanten_patterns"] for s in seen) <= bound
    assert max(s["suit_readings"] for s in seen) <= bound
    assert max(s["waits"] for s in seen) <= bound     # 60 before: it was never emptied


def test_a_worker_keeps_one_copy_of_a_tables_rules() -> None:
    """Every job carries the table's rules; a worker once kept each job's copy in the
    memos keyed on the rules (up to 4,096 of them, 7.5 KiB each), its memory climbing
    for hours, and no memo entry of one job served the next."""
    workers = Workers(1, WebLimits())
    rules = load_rules("standard")
    flower = (Tile.parse("1f"),)

    async def run() -> dict[str, int]:
        for counts in _hands(50, seed=5):
            await workers.cpu(tai_plan, counts[:27] + (0,) * 7, (), flower, Seat.EAST,
                              Seat.EAST, rules)
        return await workers.cpu(memo_sizes)

    try:
        sizes = asyncio.run(run())
    finally:
        workers.close()
    assert sizes["rule_sets"] == 1      # 50 before


def test_one_memo_past_its_bound_empties_them_all() -> None:
    """Emptied one at a time, each memo's survivors pinned the CPython arenas the others
    had freed: a soak's workers grew 2% after their memos were full. So the memos go
    together."""
    from sgmahjong.agents.evaluation import useful_kinds
    from sgmahjong.web.memory import MemoBounds, bound_ai_caches

    view = Game.new("standard", seed=7).view(Seat.EAST)
    for counts in _hands(20, seed=11):
        shanten(counts)
        winning_tiles(_less_one(counts))
        useful_kinds(_less_one(counts), 0)
        ready_waits(view, _less_one(counts), (), (4,) * 34)
    sizes = memo_sizes()
    held = {k: sizes[k] for k in ("useful_kinds", "shanten_patterns", "suit_readings",
                                  "waits")}
    assert min(held.values()) > 0
    roomy = MemoBounds(*(10 ** 9,) * 4)
    assert not bound_ai_caches(roomy)                     # nothing past its bound ...
    assert {k: memo_sizes()[k] for k in held} == held     # ... nothing emptied
    # only the shanten patterns past their bound: every memo is emptied
    assert bound_ai_caches(roomy._replace(shanten_patterns=held["shanten_patterns"] - 1))
    assert {k: memo_sizes()[k] for k in held} == dict.fromkeys(held, 0)
