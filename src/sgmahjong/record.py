"""Match records: JSON Lines read and write, replay, checking against the engine, redaction.

A record is a header line then one engine event per line, across every hand of a match
(see ``docs/records.md``)::

    {"format": "sgmahjong-record", "version": 1, "rules": {...}, "rules_digest": "...",
     "seed": 1, "players": ["greedy", ...], "quick": false, "hands": 17, "scores": [...]}
    {"type": "hand-started", "round_wind": 0, "hand_number": 0, "seed": ..., "wall": "..."}
    {"type": "dealt", "seat": 0, "tiles": "..."}
    ...

>>> from sgmahjong.agents import make_agent
>>> from sgmahjong.game import Match
>>> m = Match("garden", seed=3, quick=True)
>>> _ = m.play([make_agent("greedy").act] * 4)
>>> rec = record_from_match(m, ["greedy"] * 4)
>>> loads_record(dumps_record(rec)).events == rec.events
True
>>> check_record(rec).ok
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import __version__
from .errors import SgmahjongError
from .game import (
    Action,
    BaoIncurred,
    Chow,
    Claimed,
    ClaimPassed,
    Dealt,
    Discard,
    Discarded,
    Drew,
    Event,
    Game,
    HandDrawn,
    HandStarted,
    IllegalAction,
    InstantPayout,
    Kong,
    KongDeclared,
    Match,
    MatchState,
    Pass,
    Phase,
    Pong,
    Settled,
    TableState,
    Win,
    Won,
    apply,
)
from .game.match import next_state, round_wind
from .inputs import (
    MAX_RECORD_BYTES,
    MAX_RECORD_LINE_BYTES,
    InputError,
    check_size,
    parse_json,
    read_file,
    split_lines,
)
from .rules import Ruleset, rules_from_dict
from .tiles import Seat, parse_tiles

FORMAT = "sgmahjong-record"
VERSION = 1
HEADER_FIELDS = ("format", "version", "rules", "rules_digest", "seed", "players", "quick")
STANDIN = "standin"
"""The event line ``meta`` key listing the seats whose decision just before that event an
AI stand-in made for a person (their time ran out, or they were away): not their own."""


class RecordError(SgmahjongError):
    """A record that cannot be read: a bad header, a bad JSON line, an unknown event type."""


@dataclass(frozen=True)
class Record:
    """A match record: the rules, seed, players and quick flag of the header, and the events.

    ``lines[i]`` is the line number (1-based, the header is line 1) of ``events[i]``;
    ``header`` is the header as read or written (including fields this module ignores);
    ``notes[i]`` is the ``meta`` of ``events[i]``'s line, when it has one (the rules ignore
    it; :data:`STANDIN` marks a stand-in's decisions).
    """

    rules: Ruleset
    seed: int
    players: tuple[str, ...]
    quick: bool
    events: tuple[Event, ...]
    lines: tuple[int, ...] = ()
    header: Mapping[str, Any] = field(default_factory=dict)
    notes: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)

    def hand_notes(self, first: int, count: int) -> dict[int, Mapping[str, Any]]:
        """The notes of the ``count`` events from index ``first`` (one hand), indexed from
        that hand's first event."""
        return {i - first: m for i, m in self.notes.items() if first <= i < first + count}

    def line_of(self, index: int) -> int:
        """The line number of ``events[index]`` (one past the last line for the end)."""
        if index < len(self.lines):
            return self.lines[index]
        if index < len(self.events):
            return index + 2
        return (self.lines[-1] if self.lines else len(self.events) + 1) + 1

    def hand_starts(self) -> list[int]:
        """The index in ``events`` of each ``hand-started`` event."""
        return [i for i, e in enumerate(self.events) if isinstance(e, HandStarted)]

    def hands(self) -> list[tuple[int, tuple[Event, ...]]]:
        """Each hand's events with the index of its first event. Events before the first
        ``hand-started`` (a malformed record) form a hand of their own."""
        starts = self.hand_starts()
        if not starts or starts[0] != 0:
            starts = [0, *starts]
        ends = [*starts[1:], len(self.events)]
        return [(a, self.events[a:b]) for a, b in zip(starts, ends, strict=True)
                if b > a]


def record_from_match(match: Match, players: Sequence[str],
                      meta: Mapping[str, Any] | None = None, *,
                      notes: Mapping[int, Mapping[str, Any]] | None = None) -> Record:
    """The record of a match played so far (every finished hand); ``notes``, the ``meta``
    of event lines by event index (see :class:`Record`)."""
    events = tuple(e for h in match.hands for e in h.events)
    header = _header(match.rules, match.seed, players, match.quick,
                     hands=len(match.hands), scores=match.state.scores,
                     complete=match.state.ended, meta=meta)
    kept = {i: dict(m) for i, m in (notes or {}).items() if i < len(events) and m}
    return Record(match.rules, match.seed, tuple(players), match.quick, events, (), header,
                  kept)


def _header(rules: Ruleset, seed: int, players: Sequence[str], quick: bool, *,
            hands: int | None = None, scores: Sequence[int] | None = None,
            complete: bool | None = None, meta: Mapping[str, Any] | None = None
            ) -> dict[str, Any]:
    h: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "rules": rules.to_dict(),
        "rules_digest": rules.digest(), "seed": seed, "players": list(players),
        "quick": quick, "generator": f"sgmahjong {__version__}",
    }
    if hands is not None:
        h["hands"] = hands
    if scores is not None:
        h["scores"] = list(scores)
    if complete is not None:
        h["complete"] = complete
    if meta:
        h["meta"] = dict(meta)
    return h


def dumps_record(record: Record) -> str:
    """The record as JSON Lines text (header first)."""
    header = dict(record.header) or _header(record.rules, record.seed, record.players,
                                            record.quick)
    out = [json.dumps(header, ensure_ascii=False, separators=(", ", ": "))]
    for i, e in enumerate(record.events):
        line = e.to_json()
        if record.notes.get(i):
            line["meta"] = dict(record.notes[i])
        out.append(json.dumps(line, ensure_ascii=False, separators=(", ", ": ")))
    return "\n".join(out) + "\n"


def write_record(path: str | Path, record: Record) -> Path:
    """Write ``record`` to ``path`` (JSON Lines, UTF-8); returns the path."""
    p = Path(path)
    p.write_text(dumps_record(record), encoding="utf-8")
    return p


def read_record(path: str | Path) -> Record:
    """Read a record file. Raises :class:`RecordError` naming the line at fault."""
    p = Path(path)
    try:
        text = read_file(p, MAX_RECORD_BYTES, f"record file {str(p)!r}")
    except InputError as exc:
        raise RecordError(str(exc)) from None
    return loads_record(text, where=p.name)


def loads_record(text: str, where: str = "record") -> Record:
    """Read a record from JSON Lines text (each line at most
    :data:`~sgmahjong.inputs.MAX_RECORD_LINE_BYTES`)."""
    check_size(text, MAX_RECORD_BYTES, where)
    try:
        lines = split_lines(text, MAX_RECORD_LINE_BYTES, where)
    except InputError as exc:
        raise RecordError(str(exc)) from None
    first = next((n for n, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise RecordError(f"{where} is empty: expected a header line")
    header = _json_line(lines[first], first + 1, where)
    rules, seed, players, quick = _read_header(header, first + 1, where)
    events: list[Event] = []
    numbers: list[int] = []
    notes: dict[int, Mapping[str, Any]] = {}
    for n in range(first + 1, len(lines)):
        if not lines[n].strip():
            continue
        data = _json_line(lines[n], n + 1, where)
        if isinstance(data, dict):
            meta = data.pop("meta", None)
            if isinstance(meta, dict) and meta:
                notes[len(events)] = meta
        try:
            events.append(Event.from_json(data))
        except SgmahjongError as exc:
            raise RecordError(f"{where}, line {n + 1}: {exc}") from None
        numbers.append(n + 1)
    return Record(rules, seed, players, quick, tuple(events), tuple(numbers), header, notes)


def _json_line(line: str, number: int, where: str) -> Any:
    try:
        return parse_json(line, f"{where}, line {number}")
    except InputError as exc:
        raise RecordError(str(exc)) from None


def _read_header(h: Any, number: int, where: str) -> tuple[Ruleset, int, tuple[str, ...], bool]:
    def bad(msg: str) -> RecordError:
        return RecordError(f"{where}, line {number} (header): {msg}")

    if not isinstance(h, dict) or h.get("format") != FORMAT:
        raise bad(f"not a sgmahjong record: the first line must be a JSON object with "
                  f'"format": "{FORMAT}"')
    version = h.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version != VERSION:
        raise bad(f"unsupported record version {version!r}: this sgmahjong reads "
                  f"version {VERSION}")
    missing = [k for k in HEADER_FIELDS if k not in h]
    if missing:
        raise bad(f"missing field {missing[0]!r}")
    if not isinstance(h["rules"], dict):
        raise bad("field 'rules' must be an object (Ruleset.to_dict())")
    try:
        rules = rules_from_dict(h["rules"], where=f"{where} header rules")
    except SgmahjongError as exc:
        raise bad(str(exc)) from None
    if h["rules_digest"] != rules.digest():
        raise bad(f"rules_digest {h['rules_digest']!r} does not match the rules "
                  f"(their digest is {rules.digest()!r})")
    seed = h["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise bad(f"field 'seed' must be an integer, got {seed!r}")
    players = h["players"]
    if (not isinstance(players, list) or len(players) != 4
            or not all(isinstance(p, str) for p in players)):
        raise bad(f"field 'players' must be a list of four names, got {players!r}")
    if not isinstance(h["quick"], bool):
        raise bad(f"field 'quick' must be true or false, got {h['quick']!r}")
    return rules, seed, tuple(players), h["quick"]


# --- replay -----------------------------------------------------------------------------

@dataclass(frozen=True)
class ReplayedHand:
    """One hand rebuilt from its events: the match before it and the replayed :class:`Game`."""

    number: int
    first: int                 # index in Record.events of its hand-started
    match: MatchState          # banker, round and scores before the hand
    game: Game

    def player_at(self, seat: Seat) -> int:
        return self.match.player_at(seat)


def replay_record(record: Record) -> list[ReplayedHand]:
    """Every hand re-run through the engine's reducer (:meth:`Game.replay`), with the match
    state (banker, scores) carried between hands. Raises a :class:`SgmahjongError` (such as
    ``StateError``) if an event cannot happen; use :func:`check_record` for a full check."""
    out = []
    ms = MatchState()
    for n, (first, events) in enumerate(record.hands()):
        game = Game.replay(record.rules, events)
        out.append(ReplayedHand(n, first, ms, game))
        outcome = game.outcome()
        if outcome is None:
            break
        ms = next_state(record.rules, ms, outcome, quick=record.quick)
    return out


def iter_states(record: Record) -> Iterator[tuple[int, Event, TableState]]:
    """``(index, event, state after it)`` for every event, applied one at a time with
    :func:`apply`. The state object is shared by the events of one hand (copy to keep it)."""
    state: TableState | None = None
    for i, e in enumerate(record.events):
        if state is None or isinstance(e, HandStarted):
            state = TableState.empty(record.rules)
        apply(state, e)
        yield i, e, state


# --- check ------------------------------------------------------------------------------

@dataclass(frozen=True)
class CheckReport:
    """The result of :func:`check_record`: ``ok``, or the first mismatch (line and what)."""

    hands: int
    events: int
    line: int | None = None
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None

    def __str__(self) -> str:
        if self.ok:
            return f"record OK: {self.hands} hands, {self.events} events"
        return f"record mismatch at line {self.line}: {self.problem}"


class _Mismatch(Exception):
    def __init__(self, index: int, problem: str) -> None:
        super().__init__(problem)
        self.index = index
        self.problem = problem


def _show(e: Event) -> str:
    return json.dumps(e.to_json(), ensure_ascii=False, separators=(", ", ": "))


def check_record(record: Record) -> CheckReport:
    """Re-derive every wall from the seed and re-run the match through the engine, taking
    each player's decision from the record; report the first event that differs from what
    the engine produces (a changed tile, a reordered line, a changed payment...)."""
    try:
        hands = _check(record)
    except _Mismatch as m:
        line = 1 if m.index < 0 else record.line_of(m.index)
        return CheckReport(0, len(record.events), line, m.problem)
    return CheckReport(hands, len(record.events))


@dataclass(frozen=True)
class Step:
    """One decision of a record as it is replayed: the choices the record shows the
    ``game`` of hand ``hand`` (0 first) taking next, by seat, and the match before that
    hand. ``game`` is live: it moves on once the iteration goes on, so read it (views,
    legal actions, scores) when the step is given. ``index`` is the index in
    ``Record.events`` of the first event the choices make (where a stand-in's decision
    is marked, :data:`STANDIN`)."""

    hand: int
    match: MatchState
    game: Game
    index: int
    choices: Mapping[Seat, Action]


def iter_steps(record: Record, *, unfinished: bool = False) -> Iterator[Step]:
    """Every decision of every hand, in order, checked as :func:`check_record` checks the
    record (each wall re-derived, every event compared with the engine's): the first
    mismatch raises :class:`RecordError` with its line. With ``unfinished``, a record
    whose header says the match is not complete (a terminal game left in the middle) may
    end in the middle of its last hand: the steps stop there, and that hand's game is not
    ended."""
    try:
        yield from _steps(record, unfinished=unfinished)
    except _Mismatch as m:
        line = 1 if m.index < 0 else record.line_of(m.index)
        raise RecordError(str(CheckReport(0, len(record.events), line, m.problem))) from None


def _check(record: Record) -> int:
    for _ in _steps(record):
        pass
    return len(record.hands())


def _steps(record: Record, *, unfinished: bool = False) -> Iterator[Step]:
    match = Match(record.rules, record.seed, quick=record.quick)
    events = record.events
    hands = record.hands()
    if not hands:
        raise _Mismatch(0, "the record has no events")
    complete = record.header.get("complete", True)
    for n, (first, evs) in enumerate(hands):
        if match.state.ended:
            raise _Mismatch(first, f"the match was over after {n} hands, but the record "
                                   "goes on")
        if not isinstance(evs[0], HandStarted):
            raise _Mismatch(first, f"a hand must begin with hand-started, not {evs[0].TYPE}")
        wind = round_wind(record.rules, match.state)
        before = match.state
        game = match.start_hand()
        _compare(game.events, evs, first, 0)
        while not game.ended:
            k = len(game.events)
            if k >= len(evs):
                if unfinished and not complete and n == len(hands) - 1:
                    return
                who = ", ".join(s.name.title() for s in sorted(game.pending()))
                raise _Mismatch(first + k, f"the record ends in the middle of hand {n + 1} "
                                           f"(waiting for {who})")
            choices = _infer(game, evs, k, first)
            yield Step(n, before, game, first + k, choices)
            try:
                game.step(choices)
            except IllegalAction as exc:
                raise _Mismatch(first + k, f"{_show(evs[k])} is not a legal play: {exc}") from None
            _compare(game.events, evs, first, k)
        if len(evs) > len(game.events):
            k = len(game.events)
            raise _Mismatch(first + k, f"the hand is over, but the record goes on with "
                                       f"{_show(evs[k])}")
        assert game.state.round_wind == wind
        match.finish_hand()
    if complete and not match.state.ended:
        raise _Mismatch(len(events), f"the record ends after {len(hands)} hands, but the "
                                     "match is not over")
    scores = record.header.get("scores")
    if scores is not None and list(scores) != list(match.state.scores):
        raise _Mismatch(-1, f"the header's scores {scores} differ from the replayed scores "
                            f"{list(match.state.scores)}")


def _compare(produced: Sequence[Event], recorded: Sequence[Event], first: int,
             start: int) -> None:
    for i in range(start, len(produced)):
        if i >= len(recorded):
            raise _Mismatch(first + i, f"the record ends here, but the engine goes on with "
                                       f"{_show(produced[i])}")
        if produced[i] != recorded[i]:
            raise _Mismatch(first + i, f"expected {_show(produced[i])}, the record has "
                                       f"{_show(recorded[i])}")


_WINDOW_EVENTS = (ClaimPassed, BaoIncurred, Won, Settled, InstantPayout)


def _infer(game: Game, evs: Sequence[Event], k: int, first: int) -> dict[Seat, Action]:
    """The choices of the pending seats that would produce the recorded events at ``k``.

    Losing claimants are taken to have passed: the engine's events are the same either way
    (a lost Chow or Pong passes the Pong, and a win ends the window)."""
    pending = sorted(game.pending())
    e = evs[k]
    if game.state.phase is Phase.TURN:
        seat = game.state.turn
        action: Action | None = None
        if isinstance(e, Discarded) and e.seat == seat:
            action = Discard(e.tile)
        elif isinstance(e, KongDeclared) and e.seat == seat:
            action = Kong(e.tile, e.kind)
        elif isinstance(e, Won) and e.seat == seat:
            action = Win()
        elif isinstance(e, HandDrawn) and e.reason == "final-tile":
            action = Pass()
        if action is None:
            raise _Mismatch(first + k, f"{seat.name.title()} is to play (discard, kong or "
                                       f"win), but the record has {_show(e)}")
        return {seat: action}
    choices: dict[Seat, Action] = {s: Pass() for s in pending}
    for j in range(k, len(evs)):
        x = evs[j]
        if isinstance(x, Won):
            choices[x.seat] = Win()
        elif isinstance(x, Claimed):
            choices[x.seat] = (Chow(x.low) if x.kind == "chow" else
                               Pong() if x.kind == "pong" else Kong(x.tile, "claimed"))
            break
        elif not isinstance(x, _WINDOW_EVENTS):
            break
    return choices


# --- redaction --------------------------------------------------------------------------

def _as_json(e: Event | Mapping[str, Any]) -> dict[str, Any]:
    return e.to_json() if isinstance(e, Event) else dict(e)


def redact_for(events: Iterable[Event | Mapping[str, Any]], seat: Seat | int
               ) -> list[dict[str, Any]]:
    """The JSON events of one hand as ``seat`` may see them: another seat's ``dealt`` tiles
    and ``drew`` tile become ``null`` (``dealt`` keeps a ``count``), ``hand-started`` loses
    its ``wall`` and ``seed`` (the seed would give the wall), and another seat's
    ``claim-passed`` is dropped. Everything else is public."""
    me = int(seat)
    out: list[dict[str, Any]] = []
    for e in events:
        d = _as_json(e)
        t = d.get("type")
        if t == HandStarted.TYPE:
            d["wall"] = None
            d["seed"] = None
        elif t == Dealt.TYPE and d.get("seat") != me:
            tiles = d.get("tiles")
            d["count"] = len(parse_tiles(tiles)) if isinstance(tiles, str) else None
            d["tiles"] = None
        elif t == Drew.TYPE and d.get("seat") != me:
            d["tile"] = None
        elif t == ClaimPassed.TYPE and d.get("seat") != me:
            continue
        out.append(d)
    return out


def redact_record_for(record: Record, player: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A whole record as ``player`` (0-3, the match player, whose seat changes as the banker
    moves) may see it: the header without the seed, and every hand redacted for the seat
    that player held in it."""
    header = dict(record.header) or _header(record.rules, record.seed, record.players,
                                            record.quick)
    header["seed"] = None
    header["redacted_for"] = player
    out: list[dict[str, Any]] = []
    for hand in replay_record(record):
        seat = hand.match.seat_of(player)
        out.extend(redact_for(hand.game.events, seat))
    return header, out


__all__ = ["FORMAT", "STANDIN", "VERSION", "CheckReport", "Record", "RecordError",
           "ReplayedHand", "Step", "check_record", "dumps_record", "iter_states", "iter_steps",
           "loads_record", "read_record", "record_from_match", "redact_for", "redact_record_for",
           "replay_record", "write_record"]
