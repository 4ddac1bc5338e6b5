"""Headless self-play: full matches between registered players, summarised per player.

Game ``i`` of a run seeded ``s`` is the match seeded ``derive_seed(s, i)`` (the project's
PRNG), so results do not depend on the number of worker processes. Statistics are per
*player* (0-3, the match player index), not per seat wind: the banker, and so every seat
wind, rotates during a match.

>>> s = simulate("garden", ["greedy"] * 4, games=2, seed=5, quick=True)
>>> s.games, len(s.seats), sum(p.wins for p in s.seats) + s.draws == s.hands
(2, 4, True)
"""

from __future__ import annotations

import importlib
import json
import math
import shlex
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .agents import Agent, UnknownAgent, make_agent
from .errors import SgmahjongError
from .game.match import Match
from .game.prng import derive_seed
from .record import Record, record_from_match, write_record
from .rules import Ruleset, load_rules, rules_from_dict

AGENT_SEED_SALT = 0x5EA7A6E7


class SimulateError(SgmahjongError):
    """A simulation that cannot run as asked (wrong number of players, negative counts)."""


def game_seed(seed: int, index: int) -> int:
    """The match seed of game ``index`` in a run seeded ``seed``."""
    return derive_seed(seed, index)


def agent_seed(match_seed: int, player: int) -> int:
    """The seed of player ``player``'s agent in the match seeded ``match_seed`` (kept apart
    from the hand seeds, which are ``derive_seed(match_seed, hand)``)."""
    return derive_seed(derive_seed(match_seed, AGENT_SEED_SALT), player)


@dataclass(frozen=True)
class GameResult:
    """What one match contributes to the summary (small, so it crosses processes cheaply)."""

    index: int
    seed: int
    deltas: tuple[tuple[int, int, int, int], ...]    # per hand, by player
    draws: int
    wins: tuple[int, int, int, int]                  # winning hands by player
    patterns: tuple[tuple[str, int], ...]            # pattern id -> winning hands with it

    @property
    def hands(self) -> int:
        return len(self.deltas)


CMD_PREFIX = "cmd:"
MODEL_PREFIX = "model:"
# The learned-policy player needs numpy (the optional 'env' extra); it is looked up by name
# when a run asks for it, so that simulations without one never import numpy.
MODEL_MODULE = "sgmahjong.env.model"


def play_game(rules: Ruleset, players: Sequence[str], seed: int, index: int = 0, *,
              quick: bool = False, records: Path | None = None) -> GameResult:
    """Play one full match; write its record into ``records`` (a directory) if given."""
    result, match = play_match(rules, players, seed, index, quick=quick)
    if records is not None:
        write_record(records / record_name(index), game_record(match, players, index))
    return result


def game_record(match: Match, players: Sequence[str], index: int) -> Record:
    """The record of game ``index`` of a run, as ``--records`` writes it."""
    return record_from_match(match, players, meta={"game": index})


def play_match(rules: Ruleset, players: Sequence[str], seed: int, index: int = 0, *,
               quick: bool = False) -> tuple[GameResult, Match]:
    """Play one full match: its summary line and the finished match (for its record)."""
    match = Match(rules, seed, quick=quick)
    players_ = [make_player(name, agent_seed(seed, p), p) for p, name in enumerate(players)]
    try:
        result = match.play([a.act for a in players_])
    finally:
        for a in players_:
            close = getattr(a, "close", None)
            if callable(close):
                close()
    wins = [0, 0, 0, 0]
    patterns: dict[str, int] = {}
    draws = 0
    for hand in result.hands:
        if not hand.wins:
            draws += 1
        for w in hand.wins:
            wins[w.player] += 1
            for pid in {p for p, _ in w.patterns}:
                patterns[pid] = patterns.get(pid, 0) + 1
    summary = GameResult(index, seed, tuple(h.deltas for h in result.hands), draws,
                         (wins[0], wins[1], wins[2], wins[3]), tuple(sorted(patterns.items())))
    return summary, match


def make_player(name: str, seed: int, player: int = 0) -> Agent:
    """A registered player by name, or ``cmd:COMMAND``: an outside program speaking the bot
    protocol (docs/protocol.md) on its stdin and stdout."""
    if name.startswith(CMD_PREFIX):
        command = name[len(CMD_PREFIX):].strip()
        if not command:
            raise UnknownAgent("player 'cmd:' needs a command after the colon, "
                               "e.g. 'cmd:python examples/bot.py'")
        from .bot.agent import ProcessAgent

        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise UnknownAgent(f"player {name!r}: cannot read the command: {exc}") from None
        return ProcessAgent(argv, seat=player)
    if name.startswith(MODEL_PREFIX):
        return model_player(name[len(MODEL_PREFIX):].strip(), seed)
    return make_agent(name, seed)


def model_player(path: str, seed: int) -> Agent:
    """``model:PATH``: a policy saved by ``examples/train.py`` (docs/env.md), played with
    numpy. A missing file or missing numpy is one clear error."""
    if not path:
        raise UnknownAgent("player 'model:' needs the path of a saved policy after the "
                           "colon, e.g. 'model:policy.npz'")
    try:
        module = importlib.import_module(MODEL_MODULE)
    except ImportError as e:
        raise UnknownAgent(f"player 'model:{path}': {e}") from None
    agent: Agent = module.model_player(path, seed)
    return agent


def check_player(name: str) -> None:
    """Fail now, with the reason, on a player name that could not play."""
    if name.startswith(CMD_PREFIX):
        return
    if name.startswith(MODEL_PREFIX):
        model_player(name[len(MODEL_PREFIX):].strip(), 0)
        return
    make_agent(name, 0)                  # UnknownAgent lists the known names


def record_name(index: int) -> str:
    """The file name of game ``index``'s record."""
    return f"game-{index + 1:05d}.jsonl"


def ci95(values: Sequence[float]) -> float:
    """Half-width of the normal 95% confidence interval of the mean: 1.96·sd/√n (sample
    standard deviation; 0 for fewer than two values).

    >>> round(ci95([1, 2, 3, 4]), 4)
    1.2652
    """
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return 1.96 * math.sqrt(var) / math.sqrt(n)


@dataclass(frozen=True)
class PlayerStats:
    """One match player's results over every hand of every game."""

    player: str
    index: int
    points_total: int
    points_per_hand_mean: float
    ci95: float
    wins: int

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "index": self.index, "points_total": self.points_total,
                "points_per_hand_mean": round(self.points_per_hand_mean, 4),
                "ci95": round(self.ci95, 4), "wins": self.wins}


@dataclass(frozen=True)
class Summary:
    """The results of a run (``seats`` holds the four match players, in player order)."""

    rules: str
    rules_digest: str
    seed: int
    quick: bool
    workers: int
    games: int
    hands: int
    draws: int
    seconds: float
    seats: tuple[PlayerStats, ...]
    patterns: dict[str, int] = field(default_factory=dict)
    interrupted: bool = False

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules, "rules_digest": self.rules_digest, "seed": self.seed,
            "quick": self.quick, "workers": self.workers, "games": self.games,
            "hands": self.hands, "draws": self.draws, "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands_per_second, 1),
            "seats": [s.to_json() for s in self.seats], "patterns": self.patterns,
            "interrupted": self.interrupted,
        }


def summarise(rules: Ruleset, players: Sequence[str], seed: int, results: Sequence[GameResult],
              *, quick: bool = False, workers: int = 1, seconds: float = 0.0,
              interrupted: bool = False) -> Summary:
    """Combine per-game results (in game order, so the summary never depends on timing)."""
    ordered = sorted(results, key=lambda r: r.index)
    per_player: list[list[int]] = [[], [], [], []]
    wins = [0, 0, 0, 0]
    patterns: dict[str, int] = {}
    for r in ordered:
        for d in r.deltas:
            for p in range(4):
                per_player[p].append(d[p])
        for p in range(4):
            wins[p] += r.wins[p]
        for pid, n in r.patterns:
            patterns[pid] = patterns.get(pid, 0) + n
    hands = sum(r.hands for r in ordered)
    seats = tuple(
        PlayerStats(players[p], p, sum(per_player[p]),
                    sum(per_player[p]) / hands if hands else 0.0, ci95(per_player[p]), wins[p])
        for p in range(4))
    top = dict(sorted(patterns.items(), key=lambda kv: (-kv[1], kv[0])))
    return Summary(rules.name, rules.digest(), seed, quick, workers, len(ordered), hands,
                   sum(r.draws for r in ordered), seconds, seats, top, interrupted)


def rules_json(rules: Ruleset) -> str:
    """The rules as the text sent to worker processes (smaller than a pickled Ruleset)."""
    return json.dumps(rules.to_dict(), sort_keys=True)


@cache
def rules_of(data: str) -> Ruleset:
    """The rules sent as :func:`rules_json` (read once per worker process)."""
    return rules_from_dict(json.loads(data))


def _worker_init() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent handles Ctrl-C


def _worker_game(rules_text: str, players: tuple[str, ...], seed: int,
                 index: int, quick: bool, records: str | None) -> GameResult:
    rules = rules_of(rules_text)
    return play_game(rules, players, game_seed(seed, index), index, quick=quick,
                     records=Path(records) if records else None)


def prepare(rules: str | Path | Ruleset, players: Sequence[str], *, quick: bool = False,
            records: str | Path | None = None) -> tuple[Ruleset, tuple[str, ...], Path | None]:
    """Check a run before any game: the rules, four known players, quick games where the
    rules have them; make the records folder. Returns the rules, players and folder."""
    rs = load_rules(rules)
    players = tuple(players)
    for name in set(players):
        check_player(name)                       # unknown names fail before any game
    if len(players) != 4:
        raise UnknownAgent(f"four players are needed, got {len(players)}")
    if quick:
        Match(rs, 0, quick=True)                 # a preset without quick games fails here
    out_dir: Path | None = None
    if records is not None:
        out_dir = Path(records)
        out_dir.mkdir(parents=True, exist_ok=True)
    return rs, players, out_dir


def simulate(rules: str | Path | Ruleset, players: Sequence[str], *, games: int = 10,
             seed: int = 1, workers: int = 1, quick: bool = False,
             records: str | Path | None = None,
             progress: Callable[[int], None] | None = None) -> Summary:
    """Play ``games`` full matches and summarise them. ``progress(done)`` is called after
    each game. Ctrl-C stops early: the summary then covers the games finished so far and
    has ``interrupted`` set."""
    rs, players, out_dir = prepare(rules, players, quick=quick, records=records)
    results: list[GameResult] = []
    interrupted = False
    start = time.perf_counter()
    try:
        if workers <= 1:
            for i in range(games):
                results.append(play_game(rs, players, game_seed(seed, i), i, quick=quick,
                                         records=out_dir))
                if progress:
                    progress(len(results))
        else:
            pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init)
            try:
                pending: set[Future[GameResult]] = {
                    pool.submit(_worker_game, rules_json(rs), players, seed, i,
                                quick, str(out_dir) if out_dir else None)
                    for i in range(games)}
                while pending:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for f in done:
                        results.append(f.result())
                    if progress:
                        progress(len(results))
            finally:
                # On Ctrl-C the workers (which ignore SIGINT) finish their current game.
                pool.shutdown(wait=True, cancel_futures=True)
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - start
    return summarise(rs, players, seed, results, quick=quick, workers=max(workers, 1),
                     seconds=seconds, interrupted=interrupted)


def pattern_names(patterns: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """``(id, English name, count)`` for each pattern of a summary."""
    from .rules import PATTERNS
    return [(pid, PATTERNS[pid].english if pid in PATTERNS else pid, n)
            for pid, n in patterns.items()]


__all__ = ["GameResult", "PlayerStats", "SimulateError", "Summary", "agent_seed", "ci95",
           "game_record", "game_seed", "pattern_names", "play_game", "play_match", "prepare",
           "record_name", "rules_json", "rules_of", "simulate", "summarise"]
