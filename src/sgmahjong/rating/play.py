"""Playing the round robin of a rating (see :mod:`sgmahjong.rating`): the walls, in this
process, in worker processes or on a Ray cluster, and :func:`rate`, the whole run.

>>> r = rate(["fox"], ladder=("snail", "greedy", "rabbit"), walls=1)
>>> [p.hands for p in r.players]
[4, 4, 4, 4]
>>> r.standings[0].player
'fox'
"""

from __future__ import annotations

import importlib
import itertools
import logging
import shlex
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..agents import Agent, UnknownAgent, make_agent
from ..game import Action, Game
from ..game.prng import derive_seed
from ..rules import Ruleset, load_rules
from ..simulate import CMD_PREFIX, MODEL_MODULE, MODEL_PREFIX, rules_json, rules_of
from ..tiles import Seat
from . import DEFAULT_SEED, DEFAULT_WALLS, LADDER, RateError
from .stats import Rating, Row, WallResult, summarise

# Bot programs answer in the time the protocol gives a table (docs/protocol.md).
BOT_TIMEOUT = 1.0

Deal = Callable[[Ruleset, int, Sequence[str], Sequence[int]], list[Row]]
"""Plays one deal: ``deal(rules, wall_seed, seated, seeds)`` with a player name and a seed
per seat, returning a :data:`Row` per seat. :func:`deal` is the one for player names; a
caller with players of its own (the benches' reference revisions) passes another."""
Progress = Callable[[int], None]


# --- playing ---------------------------------------------------------------------------

def wall_seed(seed: int, index: int) -> int:
    """The seed of wall ``index`` in a run seeded ``seed``."""
    return derive_seed(seed, index)


def seat_seeds(wall: int, rotation: int) -> list[int]:
    """The seeds of the players at seats 0-3 when ``wall`` is played at ``rotation``."""
    return [derive_seed(wall, 10 * rotation + s) for s in range(4)]


def seatings(names: Sequence[str]) -> list[tuple[int, tuple[str, ...]]]:
    """Every deal of one wall: ``(rotation, players by seat)`` for every table of four of
    ``names`` (in the order ``itertools.combinations`` gives them) and every rotation.

    >>> seatings(["a", "b", "c", "d"])[:2]
    [(0, ('a', 'b', 'c', 'd')), (1, ('b', 'c', 'd', 'a'))]
    """
    return [(rot, tuple(table[(s + rot) % 4] for s in range(4)))
            for table in itertools.combinations(names, 4) for rot in range(4)]


def play_deal(rules: str | Ruleset, wall: int, agents: Sequence[Any],
              on_action: Callable[[int, Action], None] | None = None) -> list[Row]:
    """One hand dealt from ``wall`` with ``agents`` (an object with ``act(view, legal)`` or a
    callable, per seat); ``on_action(seat, action)`` hears every decision. A :data:`Row`
    per seat."""
    g = Game.new(rules, seed=wall)
    while not g.ended:
        for seat in sorted(g.waiting_for()):
            a = agents[seat]
            act = a.act if hasattr(a, "act") else a
            action = act(g.view(seat), g.legal_actions(seat))
            g.submit(seat, action)
            if on_action is not None:
                on_action(seat, action)
    outcome = g.outcome()
    assert outcome is not None
    fed = {w.discarder for w in outcome.wins}
    return [(outcome.deltas[seat], int(seat in outcome.winners), int(seat in fed))
            for seat in Seat]


# Players are made once per process: a policy file is read once, a bot program started
# once (it plays every deal of the process, told its seat again when it changes).
_FACTORIES: dict[str, Callable[[int], Agent]] = {}
_BOTS: dict[str, Any] = {}


def player(name: str, seed: int) -> Agent:
    """The player ``name`` seeded ``seed``: a registered name (``owl``, ``greedy`` ...),
    ``model:PATH`` (a saved policy) or ``cmd:COMMAND`` (a bot program)."""
    if name.startswith(CMD_PREFIX):
        return _bot(name)
    factory = _FACTORIES.get(name)
    if factory is None:
        factory = _FACTORIES[name] = _factory(name)
    return factory(seed)


def _factory(name: str) -> Callable[[int], Agent]:
    if name.startswith(MODEL_PREFIX):
        path = name[len(MODEL_PREFIX):].strip()
        if not path:
            raise UnknownAgent("player 'model:' needs the path of a saved policy after the "
                               "colon, e.g. 'model:policy.npz'")
        try:
            module = importlib.import_module(MODEL_MODULE)
        except ImportError as e:
            raise UnknownAgent(f"player {name!r}: {e}") from None
        params = module.load(path)
        return lambda seed: module.ModelAgent(params, seed)  # type: ignore[no-any-return]
    make_agent(name, 0)                  # an unknown name fails here, listing the known
    return lambda seed: make_agent(name, seed)


def _bot(name: str) -> Agent:
    bot = _BOTS.get(name)
    if bot is None:
        from ..bot.agent import ProcessAgent

        command = name[len(CMD_PREFIX):].strip()
        if not command:
            raise UnknownAgent("the bot needs a command, e.g. --bot 'python examples/bot.py'")
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise RateError(f"bot {command!r}: cannot read the command: {exc}") from None
        try:
            bot = ProcessAgent(argv, timeout=BOT_TIMEOUT)
        except OSError as exc:
            raise RateError(f"bot {command!r} cannot be started: "
                            f"{exc.strerror or exc}") from None
        _BOTS[name] = bot
    return bot  # type: ignore[no-any-return]


def close_bots() -> None:
    """End the bot programs this process started."""
    for bot in _BOTS.values():
        bot.close()
    _BOTS.clear()


@contextmanager
def quiet_bots() -> Iterator[None]:
    """Keep the bot agents' warnings (a late or illegal answer, one line each) off the
    terminal while they play: a rating counts them and says how many there were."""
    log = logging.getLogger("sgmahjong.bot")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        yield
    finally:
        log.setLevel(level)


def _faults() -> dict[str, int]:
    return {name: len(bot.faults) for name, bot in _BOTS.items()}


def deal(rules: Ruleset, wall: int, seated: Sequence[str], seeds: Sequence[int]) -> list[Row]:
    """One deal of ``wall`` between the players named ``seated`` (by seat), each seeded."""
    return play_deal(rules, wall, [player(n, seeds[s]) for s, n in enumerate(seated)])


def play_wall(rules: Ruleset, seed: int, index: int, names: Sequence[str],
              play: Deal = deal) -> WallResult:
    """Play wall ``index`` of a run seeded ``seed`` at every table, in every rotation."""
    w = wall_seed(seed, index)
    before = _faults()
    rows: dict[str, list[Row]] = {n: [] for n in names}
    with quiet_bots():
        for rot, seated in seatings(names):
            for seat, row in enumerate(play(rules, w, seated, seat_seeds(w, rot))):
                rows[seated[seat]].append(row)
    faults = {n: k - before.get(n, 0) for n, k in _faults().items() if k > before.get(n, 0)}
    return WallResult(index, {n: tuple(r) for n, r in rows.items()}, faults)


def _worker_init() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent handles Ctrl-C


def _worker_wall(rules_text: str, seed: int, index: int, names: tuple[str, ...],
                 play: Deal) -> WallResult:
    return play_wall(rules_of(rules_text), seed, index, names, play)


def _ray_walls(rules_text: str, seed: int, indices: Sequence[int],
               names: tuple[str, ...]) -> list[WallResult]:
    rules = rules_of(rules_text)
    return [play_wall(rules, seed, i, names) for i in indices]


def play_walls(rules: Ruleset, names: Sequence[str], *, walls: int, seed: int,
               procs: int = 1, ray: str | None = None, play: Deal = deal,
               progress: Progress | None = None) -> list[WallResult]:
    """Play walls ``0 .. walls-1`` of a run seeded ``seed`` (in this process, in ``procs``
    processes, or on a Ray cluster: ``ray`` is its address, "" for a new local one); the
    results in wall order, whatever finished first."""
    names = tuple(names)
    if ray is not None:
        return _on_ray(rules, names, walls, seed, ray or None,
                       procs if procs > 1 else None, progress)
    results: list[WallResult] = []
    if procs <= 1 or walls <= 1:
        try:
            for i in range(walls):
                results.append(play_wall(rules, seed, i, names, play))
                if progress:
                    progress(len(results))
        finally:
            close_bots()
        return results
    text = rules_json(rules)
    pool = ProcessPoolExecutor(max_workers=procs, initializer=_worker_init)
    try:
        pending: set[Future[WallResult]] = {
            pool.submit(_worker_wall, text, seed, i, names, play) for i in range(walls)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            results.extend(f.result() for f in done)
            if progress:
                progress(len(results))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return sorted(results, key=lambda r: r.index)


def _on_ray(rules: Ruleset, names: tuple[str, ...], walls: int, seed: int,
            address: str | None, cpus: int | None,
            progress: Progress | None) -> list[WallResult]:
    import contextlib
    import sys

    from ..cluster import RETRIES, batches, connect

    if any(n.startswith(CMD_PREFIX) for n in names):
        raise RateError("--ray cannot run a bot program: it would have to exist on every "
                        "node; use --procs")
    # Ray prints its notices on stdout, where --json answers
    with contextlib.redirect_stdout(sys.stderr):
        ray, started = connect(address, cpus)
        results: list[WallResult] = []
        try:
            cluster_cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
            task = ray.remote(max_retries=RETRIES, retry_exceptions=False)(_ray_walls)
            text = ray.put(rules_json(rules))
            pending = [task.remote(text, seed, list(b), names)
                       for b in batches(walls, cluster_cpus)]
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    results.extend(_ray_get(ray, ref))
                if progress:
                    progress(len(results))
        finally:
            if started:
                ray.shutdown()
    return sorted(results, key=lambda r: r.index)


def _ray_get(ray: Any, ref: Any) -> list[WallResult]:
    from ray.exceptions import RayError, RayTaskError

    try:
        return ray.get(ref)  # type: ignore[no-any-return]
    except RayTaskError as exc:
        cause = exc.as_instanceof_cause() if hasattr(exc, "as_instanceof_cause") else exc
        raise RateError(f"a wall failed on the cluster: {str(cause).splitlines()[-1]}") \
            from None
    except RayError as exc:
        raise RateError(f"the cluster lost a batch of walls: {type(exc).__name__}") from None


# --- the run ---------------------------------------------------------------------------

def field_of(rated: Sequence[str], ladder: Sequence[str]) -> tuple[str, ...]:
    """The players of the round robin: the rated ones, then the levels not among them."""
    names = tuple(dict.fromkeys([*rated, *ladder]))
    if len(names) < 4:
        raise RateError(f"a round robin needs at least four different players, got "
                        f"{len(names)} ({', '.join(names) or 'none'})")
    return names


def check_players(names: Sequence[str], rules: str | Ruleset = "standard") -> None:
    """Fail now, with the reason, on a player that could not play: an unknown name, a
    policy file that cannot be read, a bot program that does not start or answer."""
    for n in names:
        if n.startswith(CMD_PREFIX):
            check_bot(n, rules)
        else:
            player(n, 0)


def check_bot(name: str, rules: str | Ruleset = "standard") -> None:
    """Start the bot ``cmd:COMMAND`` and have it play a hand under ``rules`` against three
    ``greedy``: it must answer every request in time with a legal action."""
    bot = _bot(name)
    try:
        with quiet_bots():
            play_deal(rules, 0, [bot, *(make_agent("greedy", s) for s in (1, 2, 3))])
        if bot.faults:  # type: ignore[attr-defined]
            raise RateError(f"bot {name[len(CMD_PREFIX):].strip()!r} does not play: "
                            f"{bot.faults[0]}")  # type: ignore[attr-defined]
    finally:
        close_bots()


def rate(rated: Sequence[str], *, rules: str | Path | Ruleset = "standard",
         ladder: Sequence[str] = LADDER, walls: int = DEFAULT_WALLS, seed: int = DEFAULT_SEED,
         procs: int = 1, ray: str | None = None, play: Deal = deal,
         progress: Progress | None = None, check: bool = True) -> Rating:
    """Rate ``rated`` (player names) against ``ladder`` on ``walls`` walls of ``seed``.
    ``progress(walls_done)`` is called as walls finish. With no player rated, the round
    robin of the ladder alone (the benches' use)."""
    rs = load_rules(rules)
    names = field_of(rated, ladder)
    if walls < 1:
        raise RateError(f"--walls must be at least 1, got {walls}")
    if procs < 1:
        raise RateError(f"--procs must be at least 1, got {procs}")
    if check:
        check_players(names, rs)
    start = time.perf_counter()
    results = play_walls(rs, names, walls=walls, seed=seed, procs=procs, ray=ray, play=play,
                         progress=progress)
    return summarise(rs, seed, names, tuple(dict.fromkeys(rated)), ladder, results,
                     time.perf_counter() - start)


__all__ = ["CMD_PREFIX", "Deal", "check_bot", "check_players", "close_bots", "deal",
           "field_of", "play_deal", "play_wall", "play_walls", "player", "quiet_bots", "rate",
           "seat_seeds", "seatings", "wall_seed"]
