"""``sgmahjong simulate --ray``: the games of a run spread over a Ray cluster.

Game ``i`` is played exactly as :func:`sgmahjong.simulate.simulate` plays it (the same
seed, the same players), so the summary and every record equal a ``--workers 1`` run's.
Games travel in small batches (one Ray task each, a few per CPU, so the cluster stays busy
to the end and progress moves smoothly). Records are written by this process, where
``--records`` points, as their batch comes back: a cluster's nodes need no shared disk.
A batch whose worker or node is lost is run again by Ray (``max_retries``); games are
deterministic, so a rerun returns the same results and nothing is counted twice.

Ray is optional (``pip install "sgmahjong[ray]"``); every node of a cluster needs
sgmahjong installed, the same version as here.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .record import dumps_record
from .rules import Ruleset
from .simulate import (
    GameResult,
    SimulateError,
    Summary,
    game_record,
    game_seed,
    play_match,
    prepare,
    record_name,
    rules_json,
    rules_of,
    summarise,
)

# A lost worker's batch is run again this many times before the run fails.
RETRIES = 5
# Batches per CPU: enough that a slow batch at the end does not leave the cluster idle.
BATCHES_PER_CPU = 4
MAX_BATCH = 50


def play_batch(rules_text: str, players: tuple[str, ...], seed: int, indices: Sequence[int],
               quick: bool, with_records: bool) -> list[tuple[GameResult, str | None]]:
    """Play games ``indices`` of the run; each result with its record's text if asked."""
    rules = rules_of(rules_text)
    out: list[tuple[GameResult, str | None]] = []
    for i in indices:
        result, match = play_match(rules, players, game_seed(seed, i), i, quick=quick)
        text = dumps_record(game_record(match, players, i)) if with_records else None
        out.append((result, text))
    return out


def batches(games: int, cpus: int) -> list[range]:
    """Split games ``0..games-1`` into consecutive batches, a few per CPU.

    >>> [len(b) for b in batches(20, 2)]
    [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]
    >>> batches(0, 4)
    []
    """
    size = max(1, min(MAX_BATCH, games // max(1, cpus * BATCHES_PER_CPU)))
    return [range(i, min(i + size, games)) for i in range(0, games, size)]


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise SimulateError('--ray needs Ray: pip install "sgmahjong[ray]"') from None
    return ray


def connect(address: str | None, cpus: int | None) -> tuple[Any, bool]:
    """Ray, connected to the cluster at ``address`` (a new local one for None); and whether
    this run started it (and so stops it)."""
    ray = _ray()
    if ray.is_initialized():
        return ray, False
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                              "logging_level": logging.ERROR, "configure_logging": True}
    if address:
        kwargs["address"] = address
    elif cpus:
        kwargs["num_cpus"] = cpus
    # Workers of a local cluster are started from this environment: they find this very
    # sgmahjong (also when it is run from a source folder on PYTHONPATH).
    try:
        ray.init(**kwargs)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = f"the Ray cluster at {address}" if address else "a local Ray cluster"
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise SimulateError(f"cannot start or reach {where}: {first}") from None
    return ray, True


def simulate_on_ray(rules: str | Path | Ruleset, players: Sequence[str], *, games: int = 10,
                    seed: int = 1, quick: bool = False, records: str | Path | None = None,
                    address: str | None = None, cpus: int | None = None,
                    progress: Callable[[int], None] | None = None) -> Summary:
    """Play ``games`` matches on a Ray cluster and summarise them, as
    :func:`sgmahjong.simulate.simulate` does. ``cpus`` limits a new local cluster."""
    rs, names, out_dir = prepare(rules, players, quick=quick, records=records)
    if any(n.startswith("cmd:") for n in names):
        raise SimulateError("--ray cannot run outside bot programs (cmd:): their program "
                            "would have to exist on every node; use --workers")
    # Ray prints its notices (such as "A worker died") on stdout, where --json answers
    with contextlib.redirect_stdout(sys.stderr):
        return _run(rs, names, seed, games, quick, out_dir, address, cpus, progress)


def _run(rs: Ruleset, names: tuple[str, ...], seed: int, games: int, quick: bool,
         out_dir: Path | None, address: str | None, cpus: int | None,
         progress: Callable[[int], None] | None) -> Summary:
    ray, started = connect(address, cpus)
    results: list[GameResult] = []
    interrupted = False
    start = time.perf_counter()
    try:
        cluster_cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        task = ray.remote(max_retries=RETRIES, retry_exceptions=False)(play_batch)
        text = ray.put(rules_json(rs))
        pending = [task.remote(text, names, seed, list(b), quick, out_dir is not None)
                   for b in batches(games, cluster_cpus)]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    for result, record in _get(ray, ref):
                        if out_dir is not None and record is not None:
                            _write(out_dir / record_name(result.index), record)
                        results.append(result)
                if progress:
                    progress(len(results))
        except KeyboardInterrupt:
            interrupted = True
            for ref in pending:
                ray.cancel(ref, force=True)
    finally:
        if started:
            ray.shutdown()
    seconds = time.perf_counter() - start
    return summarise(rs, names, seed, results, quick=quick, workers=cluster_cpus,
                     seconds=seconds, interrupted=interrupted)


def _get(ray: Any, ref: Any) -> list[tuple[GameResult, str | None]]:
    from ray.exceptions import RayError, RayTaskError

    try:
        return ray.get(ref)  # type: ignore[no-any-return]
    except RayTaskError as exc:
        # an error inside a game (a bug, not a lost worker): show what the game raised
        cause = exc.as_instanceof_cause() if hasattr(exc, "as_instanceof_cause") else exc
        raise SimulateError(f"a game failed on the cluster: {str(cause).splitlines()[-1]}") \
            from None
    except RayError as exc:
        raise SimulateError(f"the cluster lost a batch of games {RETRIES + 1} times: "
                            f"{type(exc).__name__}") from None


def _write(path: Path, text: str) -> None:
    """Write a record whole, so that a run stopped midway leaves no half record."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


__all__ = ["batches", "connect", "play_batch", "simulate_on_ray"]
