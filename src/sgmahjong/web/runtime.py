"""One live table: the match, its seats and sockets, the AI seats and the numbered event log.

The server owns the only game state. Every change is an engine event, stored (numbered)
before any socket hears of it; each socket gets only what its seat may see. Holds no
rules: legality, views and redaction come from the engine and the record module.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from ..agents import Agent, UnknownAgent, make_agent, player_names
from ..agents.danger import discard_history
from ..agents.evaluation import safe_default
from ..bot.wire import hello, view_json
from ..errors import SgmahjongError
from ..game import (
    Action,
    Discard,
    Event,
    Game,
    HandRecord,
    HandStarted,
    IllegalAction,
    Match,
    Pass,
)
from ..game.prng import derive_seed
from ..record import STANDIN, Record, record_from_match
from ..rules.loading import rules_from_dict
from ..store.db import StoredSeat, StoredTable, TableStore
from ..tiles import Seat
from .config import WebConfig
from .ladder import hand_ladder, match_ladder
from .protocol import (
    PROTOCOL,
    ClientMessage,
    early_answer,
    error,
    event_json,
    hand_summary,
    hints_json,
    public_view_json,
    redact,
    request_json,
    review_json,
    standings,
)
from .security import token_matches

if TYPE_CHECKING:
    from ..agents.review import Review

log = logging.getLogger("sgmahjong.web")


class TableError(SgmahjongError):
    """A request the table refuses; ``code`` names why (``full``, ``started``, ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def level_names() -> list[str]:
    """The AI players one can pick: the five levels weakest first, then the baselines."""
    return player_names()


def make_ai(name: str, seed: int) -> Agent:
    """An AI player by registry name."""
    try:
        return make_agent(name, seed)
    except UnknownAgent:
        raise TableError("bad-level", f"unknown AI level {name!r}; choose from "
                                      f"{', '.join(level_names())}") from None


def default_standin() -> str:
    names = level_names()
    return "hedgehog" if "hedgehog" in names else "greedy"


def same_name(name: str) -> str:
    """A name as names at a table are told apart: capitals and spacing do not count
    ("Zed" and " zed" are one name), as in the ledger."""
    return " ".join(name.split()).casefold()


def _unique(name: str, taken: Iterable[str]) -> str:
    """``name``, numbered if another seat has it: ``Fox``, ``Fox 2``."""
    seen = {same_name(t) for t in taken}
    out, k = name, 1
    while same_name(out) in seen:
        k += 1
        out = f"{name} {k}"
    return out


def ai_names(levels: Sequence[str]) -> list[str]:
    """The names AI players of ``levels`` would get, seat by seat, with no person at the
    table: the level's, numbered when another has it. The names they get at the start
    are among these (a person's name is never one of them), so a name refused now is
    never one that makes two seats alike later."""
    out: list[str] = []
    for level in levels:
        out.append(_unique(level.title(), out))
    return out


def check_name(name: str, people: Iterable[str], ais: Iterable[str] = ()) -> None:
    """Refuse ``name`` when a person (``people``) or an AI player (``ais``) at the table
    already has it, whatever its capitals or spaces: payment lines name players."""
    key = same_name(name)
    for taken, what in [*((p, "") for p in people), *((a, " (an AI player)") for a in ais)]:
        if same_name(taken) == key:
            raise TableError("name-taken", f"{taken} is already at this table{what}: pick "
                                           "another name (names must differ, whatever "
                                           "their capitals)")


class Conn(Protocol):
    """A socket as the table sees it: whose it is, and a send that never blocks."""

    player: int | None

    def send(self, message: dict[str, Any]) -> None: ...


@dataclass(eq=False)
class Slot:
    """A match player's chair: who sits there and their sockets."""

    player: int
    name: str
    kind: str                    # open, human, ai
    level: str                   # the AI level (for a human: the stand-in's)
    token_hash: str | None = None
    conns: set[Conn] = field(default_factory=set)
    away_since: float | None = None     # clock time its last socket closed
    ready: bool = False
    agent: Agent | None = None
    request: tuple[int, int] | None = None   # (request id, event number) sent
    # clock time the open decision was first sent: kept while the same decision is
    # re-sent (a new event number, a reconnect), so neither restarts its clock
    asked_at: float | None = None
    newcomer: bool = False       # took over an AI seat and has not connected yet
    human_from: int = 0          # the first hand (index) a person played in this chair

    def stored(self) -> StoredSeat:
        return StoredSeat(self.player, self.name, self.kind, self.level, self.token_hash)


class TableRuntime:
    """One table in memory, rebuilt from the store by replaying its events."""

    def __init__(self, store: TableStore, config: WebConfig, row: StoredTable,
                 events: Sequence[dict[str, Any]] = ()) -> None:
        self.store = store
        self.config = config
        self.clock = config.clock
        self.id = row.id
        self.rules = rules_from_dict(row.rules, where=f"table {row.id} rules")
        self.preset = row.preset
        self.status = row.status
        self.quick = row.quick
        self.seed = row.seed
        self.hints = row.hints
        self.options = dict(row.options)
        by_player = {s.player: s for s in row.seats}
        self.slots = []
        for p in range(4):
            s = by_player.get(p)
            self.slots.append(Slot(p, s.name, s.kind, s.level, s.token_hash) if s else
                              Slot(p, f"Seat {p + 1}", "open", default_standin()))
        self._fresh_match()
        self.stale = False     # memory ran ahead of a failed write and is not yet rebuilt
        self.spectators: set[Conn] = set()
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.next_rid = 0
        self.next_hand_at: float | None = None
        self.closed = False
        if events:
            self._replay(events)
        now = self.clock.now()
        for slot in self.slots:
            if slot.kind == "human":
                slot.away_since = now

    # ------------------------------------------------------------ rebuilding

    def _replay(self, payloads: Sequence[dict[str, Any]]) -> None:
        """Rebuild the match from the stored events (hand by hand, through the engine)."""
        evs = []
        for i, p in enumerate(payloads):
            meta = p.get("meta")
            if isinstance(meta, dict) and meta.get(STANDIN):
                self.standin[i] = [int(x) for x in meta[STANDIN]]
            evs.append(Event.from_json({k: v for k, v in p.items() if k != "meta"}))
        starts = [i for i, e in enumerate(evs) if isinstance(e, HandStarted)]
        if not starts or starts[0] != 0:
            raise TableError("broken-log", f"table {self.id}: the log does not start a hand")
        bounds = [*starts[1:], len(evs)]
        for h, (a, b) in enumerate(zip(starts, bounds, strict=True)):
            hand = evs[a:b]
            self.bankers.append(self.match.state.banker)
            game = Game.replay(self.rules, hand)
            self.match.game = game
            self.events.extend(hand)
            self.event_hand.extend([h] * len(hand))
            if not game.ended:
                if b != len(evs):
                    raise TableError("broken-log", f"table {self.id}: hand {h + 1} is "
                                                   "unfinished but the log goes on")
                break
            rec = self.match.finish_hand()
            self.last_summary = self._summary(rec, game)

    def _fresh_match(self) -> None:
        """The match before its first event (what ``_replay`` builds on)."""
        self.match = Match(self.rules, self.seed, quick=self.quick)
        self.events: list[Event] = []
        self.event_hand: list[int] = []        # the hand (index) of each event
        self.bankers: list[int] = []           # the banker (match player) of each hand
        self.last_summary: dict[str, Any] | None = None
        # the review of a human's play in a hand, by (hand, player): worked out at the hand
        # end (or when a player comes back to a table rebuilt since) and sent to them alone
        self.reviews: dict[tuple[int, int], Review] = {}
        # the seats whose decision the stand-in made (time up, or away), by the index of
        # the first event after that decision; stored as that event's ``meta`` so the
        # review leaves them out, here and in the downloaded record
        self.standin: dict[int, list[int]] = {}
        self._standin_next: set[int] = set()   # marks for the next event to be stored

    def _rebuild(self) -> None:
        """Forget the in-memory match and replay it from the database. If the log cannot
        be read either, the table stays ``stale`` (nothing is played) until it can."""
        try:
            stored = self.store.load_events(self.id)
        except Exception:
            log.exception("table %s: the log could not be read back", self.id)
            self.stale = True
            return
        self._fresh_match()
        for slot in self.slots:
            slot.request = None
        if stored:
            self._replay(stored)
        self.stale = False
        self._send_states()      # fresh requests for the state that is stored

    # ------------------------------------------------------------ information

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.slots]

    @property
    def game(self) -> Game | None:
        return self.match.game

    @property
    def n(self) -> int:
        """The number of the last event (0 before the first)."""
        return len(self.events)

    def seat_of(self, player: int, hand: int | None = None) -> Seat:
        h = len(self.bankers) - 1 if hand is None else hand
        banker = self.bankers[h] if self.bankers else self.match.state.banker
        return Seat((player - banker) % 4)

    def hand_label(self) -> str:
        played = self.match.state.hands_played + (1 if self.game is not None else 0)
        if self.quick:
            return f"Hand {played} of {self.rules.match.quick_game_hands}"
        return f"Hand {played}"

    def info(self) -> dict[str, Any]:
        """The table as the lobby shows it (public)."""
        in_hand = self.game is not None
        return {
            "id": self.id, "status": self.status, "rules": self.rules.name,
            "preset": self.preset, "description": self.rules.description,
            "quick": self.quick, "hints": self.hints,
            "quick_hands": self.rules.match.quick_game_hands if self.quick else None,
            "hands_played": self.match.state.hands_played, "hand_label": self.hand_label(),
            "in_hand": in_hand, "scores": list(self.match.state.scores),
            "round_wind": int(self.game.state.round_wind) if self.game else None,
            "seats": [{"player": s.player, "name": s.name, "kind": s.kind,
                       "level": s.level if s.kind == "ai" else None,
                       "connected": bool(s.conns),
                       "standin": s.kind == "human" and self._away(s),
                       "wind": int(self.seat_of(s.player)) if in_hand else None}
                      for s in self.slots],
            "spectators": len(self.spectators),
            "n": self.n,
        }

    async def live_info(self) -> dict[str, Any]:
        """:meth:`info` where the table is played (another server's table asks its owner)."""
        return self.info()

    def record(self) -> Record:
        """The match record (every finished hand); the table must be finished."""
        if self.status != "finished":
            raise TableError("not-finished", "the record can be downloaded once the match "
                                             "is over")
        return record_from_match(self.match, self.names, {"table": self.id},
                                 notes={i: {STANDIN: seats} for i, seats in self.standin.items()})

    def player_for(self, token: str | None) -> int | None:
        for s in self.slots:
            if s.kind == "human" and token_matches(token, s.token_hash):
                return s.player
        return None

    # ------------------------------------------------------------ sending

    def _all_conns(self) -> list[Conn]:
        out = list(self.spectators)
        for s in self.slots:
            out.extend(s.conns)
        return out

    def _broadcast(self, message: dict[str, Any]) -> None:
        for c in self._all_conns():
            c.send(message)

    def broadcast_table(self) -> None:
        self._broadcast({"type": "table", "table": self.info()})

    def _send_events(self, conn: Conn, first: int) -> None:
        """Events numbered ``first`` on, redacted for the conn's seat in their hand."""
        for i in range(first - 1, len(self.events)):
            h = self.event_hand[i]
            seat = -1 if conn.player is None else int(self.seat_of(conn.player, h))
            data = redact(self.events[i], seat)
            if data is not None:
                conn.send(event_json(i + 1, data))

    def _state_message(self, slot: Slot | None) -> dict[str, Any] | None:
        """The view (or, when the seat must decide, the request) for a player or spectator."""
        g = self.game
        if g is None:
            return None
        n = self.n
        if slot is None:
            return {"type": "view", "n": n, "view": public_view_json(g.state), **self._board()}
        seat = self.seat_of(slot.player)
        v = g.view(seat)
        if not g.ended and seat in g.waiting_for():
            if slot.request is None or slot.request[1] != n:
                self.next_rid += 1
                slot.request = (self.next_rid, n)
            now = self.clock.now()
            if slot.asked_at is None:
                slot.asked_at = now
            legal = g.legal_actions(seat)
            limit, _claim = self._limit(legal)
            left_ms = 0
            if limit > 0:
                # at least 1: a deadline that is due must not read as "no limit"
                left_ms = max(1, round((slot.asked_at + limit - now) * 1000))
            return {**request_json(slot.request[0], n, v, legal, left_ms), **self._board()}
        self._forget_request(slot)
        return {"type": "view", "n": n, "view": view_json(v), **self._board()}

    def _board(self) -> dict[str, Any]:
        """Who sits at each seat of the hand being played and their match total so far
        (the standings before the hand plus what the hand has paid yet), by seat: the page
        shows these as they are, so it never adds a hand's result to a total twice."""
        st = self.match.state
        g = self.game
        players = [st.player_at(seat) for seat in Seat]
        hand = g.state.scores if g is not None else [0, 0, 0, 0]
        return {"players": players,
                "totals": [st.scores[p] + hand[seat] for seat, p in enumerate(players)]}

    def _limit(self, legal: Sequence[Action]) -> tuple[float, bool]:
        """The time allowed for a decision (0: none), and whether it is a claim offer."""
        claim = (any(isinstance(a, Pass) for a in legal)
                 and not any(isinstance(a, Discard) for a in legal))
        return (self.config.claim_window if claim else self.config.turn_limit), claim

    @staticmethod
    def _forget_request(slot: Slot) -> None:
        slot.request = None
        slot.asked_at = None

    def _forget_answered(self) -> None:
        """Drop the open request of every seat no longer deciding. A disconnected seat is
        sent nothing, so its request would otherwise outlive a decision that was settled
        without it (a claim resolved by a higher one) and lend its clock to the next."""
        g = self.game
        waiting = set() if g is None or g.ended else g.waiting_for()
        for s in self.slots:
            if self.seat_of(s.player) not in waiting:
                self._forget_request(s)

    def _send_states(self) -> None:
        if self.spectators:
            msg = self._state_message(None)
            if msg is not None:
                for c in self.spectators:
                    c.send(msg)
        for s in self.slots:
            if s.conns:
                msg = self._state_message(s)
                if msg is not None:
                    for c in s.conns:
                        c.send(msg)

    def _commit(self, new: Sequence[Event]) -> None:
        """Store new events (numbered), then tell every socket what it may see."""
        if not new:
            return
        first = self.n + 1
        payloads = [e.to_json() for e in new]
        marks = sorted(self._standin_next)
        stored = payloads
        if marks:
            # a claim window's decisions make no event until the last seat has answered:
            # the mark goes on the first event after them, whichever that is
            stored = [{**payloads[0], "meta": {STANDIN: marks}}, *payloads[1:]]
        try:
            self.store.append_events(self.id, first, stored)
        except Exception as exc:
            # The engine has already moved on in memory; the stored log is the truth, so
            # go back to it rather than play on with a state nobody could resume.
            log.exception("table %s: events %d+ could not be stored", self.id, first)
            self._rebuild()
            raise TableError("unsaved", "the table could not be saved, so nothing "
                                        "changed: try again") from exc
        h = len(self.bankers) - 1
        if marks:
            self.standin[first - 1] = marks
            self._standin_next.clear()
        self.events.extend(new)
        self.event_hand.extend([h] * len(new))
        self._forget_answered()
        for conn in self._all_conns():
            seat = -1 if conn.player is None else int(self.seat_of(conn.player, h))
            for i, p in enumerate(payloads):
                data = redact(p, seat)
                if data is not None:
                    conn.send(event_json(first + i, data))
        self._send_states()

    # ------------------------------------------------------------ sockets

    async def attach(self, conn: Conn, last_seen: int | None) -> None:
        """A socket said hello: the table, what it missed, the view or its request."""
        async with self.lock:
            slot = None if conn.player is None else self.slots[conn.player]
            (self.spectators if slot is None else slot.conns).add(conn)
            if slot is not None:
                slot.away_since = None
                slot.newcomer = False
            conn.send({"type": "welcome", "protocol": PROTOCOL, "player": conn.player,
                       "role": "spectator" if slot is None else "player",
                       "token_ok": slot is not None, "table": self.info()})
            if slot is not None and self.game is not None:
                conn.send(hello(self.seat_of(slot.player), self.rules))
            if last_seen is not None:
                first = min(last_seen, self.n) + 1
            elif self.game is not None:
                first = self.event_hand.index(len(self.bankers) - 1) + 1
            else:
                first = self.n + 1
            self._send_events(conn, first)
            msg = self._state_message(slot)
            if msg is not None:
                conn.send(msg)
            if self.game is None and self.last_summary is not None:
                if slot is not None and slot.kind == "human":
                    await self._review(slot.player)
                conn.send(self._hand_end(conn.player))
            if self.status == "finished":
                if slot is not None and slot.kind == "human":
                    # a server started since the match ended has no review kept: each
                    # hand's is worked out again from the log
                    for h in range(len(self.match.hands)):
                        await self._review(slot.player, h)
                conn.send(self._match_end(conn.player))
            self.broadcast_table()
        self.kick()

    async def detach(self, conn: Conn) -> None:
        async with self.lock:
            slot = None if conn.player is None else self.slots[conn.player]
            (self.spectators if slot is None else slot.conns).discard(conn)
            if slot is not None and not slot.conns:
                slot.away_since = self.clock.now()
            self.broadcast_table()
        self.kick()

    async def handle(self, conn: Conn, msg: ClientMessage) -> None:
        """A message from a socket after its hello."""
        reply = early_answer(msg, conn.player, self.n)
        if reply is not None:
            conn.send(reply)
            return
        async with self.lock:
            if msg.type == "action":
                self._act(conn, conn.player, msg)
            elif msg.type == "ready":
                self.slots[conn.player].ready = True
            elif msg.type == "hints":
                self._hints(conn, conn.player)
            elif msg.type == "start":
                try:
                    self._start(conn.player)
                except TableError as exc:
                    conn.send(error(exc.code, str(exc)))
        self.kick()

    def _act(self, conn: Conn, player: int, msg: ClientMessage) -> None:
        if self.stale:
            self._rebuild()
        if self.stale:
            conn.send(error("unsaved", "the table cannot be saved just now: try again"))
            return
        g = self.game
        if g is None or g.ended:
            conn.send(error("no-hand", "no hand is being played now"))
            return
        seat = self.seat_of(player)
        if msg.seat is not None and msg.seat != int(seat):
            conn.send(error("wrong-seat", f"you sit at seat {int(seat)} "
                                          f"({seat.name.title()}); you cannot act for "
                                          f"seat {msg.seat}"))
            return
        if seat not in g.waiting_for():
            conn.send(error("not-your-turn", "it is not your decision now"))
            return
        slot = self.slots[player]
        if msg.id is not None and (slot.request is None or msg.id != slot.request[0]):
            conn.send(error("stale", f"request {msg.id} is no longer open"))
            return
        assert msg.action is not None
        try:
            new = g.submit(seat, msg.action)
        except IllegalAction as exc:
            conn.send(error("illegal", str(exc)))
            return
        rid = None if slot.request is None else slot.request[0]
        self._forget_request(slot)
        for c in slot.conns:
            c.send({"type": "ack", "id": rid, "action": msg.action.to_json()})
        try:
            self._commit(new)
        except TableError as exc:      # not stored: the table is back where it was
            conn.send(error(exc.code, str(exc)))

    def _hints(self, conn: Conn, player: int) -> None:
        g = self.game
        if not self.hints:
            conn.send(error("hints-off", "hints are off at this table"))
            return
        if g is None:
            conn.send(error("no-hand", "no hand is being played now"))
            return
        seat = self.seat_of(player)
        legal = g.legal_actions(seat) if seat in g.waiting_for() else []
        data = hints_json(g.view(seat), legal, discard_history(g.events))
        if data is None:
            conn.send(error("no-hints", "this server has no hints module"))
            return
        conn.send({"type": "hints", "n": self.n, "hints": data})

    # ------------------------------------------------------------ lobby

    async def join(self, name: str, token_hash: str, player: int | None = None) -> int:
        """Seat a newcomer: in a free chair before the start, or in an AI's chair between
        hands (from the next hand on). ``player`` (1-3) picks the chair, else the first one.
        Returns the match player."""
        async with self.lock:
            if player is not None and not 1 <= player <= 3:
                raise TableError("bad-player", f"there is no seat {player} to take: choose "
                                                "1, 2 or 3 (seat 0 is the creator's)")
            if self.status == "finished":
                raise TableError("finished", "the match is over: you can still watch it or "
                                             "download its record")
            if self.options.get("ladder"):
                # the ladder's stars are the creator's; company would make them meaningless
                raise TableError("solo", "a practice-ladder table is played alone: you can "
                                         "watch it")
            taking_over = self.status == "playing"
            want = "ai" if taking_over else "open"
            if player is None:
                slot = next((s for s in self.slots if s.kind == want), None)
                if slot is None:
                    raise TableError("full", "no AI seat is left to take over: watch instead"
                                     if taking_over else "every seat is taken")
            else:
                slot = self.slots[player]
                if slot.kind != want:
                    raise TableError("seat-taken", f"seat {player} ({slot.name}) is not "
                                     + ("an AI seat" if taking_over else "free"))
            self._check_name(name)
            g = self.game
            if taking_over and g is not None and not g.ended:
                raise TableError("mid-hand", "an AI seat can be taken between hands: try "
                                             "again when this hand ends")
            now = self.clock.now()
            slot.name, slot.kind, slot.token_hash = name, "human", token_hash
            slot.away_since = now
            if taking_over:
                # the hands before this one were the AI's: no review of them is theirs
                slot.human_from = len(self.match.hands) + (1 if g is not None else 0)
                slot.level = self.options.get("standin", default_standin())
                slot.agent = None
                slot.ready = False
                slot.newcomer = True
                self._forget_request(slot)
                if self.bankers:   # between hands (not before the first deal)
                    # the newcomer needs time to connect and read the last hand's summary
                    due = now + self.config.next_hand_delay
                    self.next_hand_at = due if self.next_hand_at is None else max(
                        self.next_hand_at, due)
            self.store.save_seat(self.id, slot.stored())
            self.broadcast_table()
        self.kick()
        return slot.player

    def _check_name(self, name: str) -> None:
        """Refuse a newcomer's name that a seat here has, or (before the start) that an
        AI player will get."""
        ais = [s.name for s in self.slots if s.kind == "ai"]
        if self.status == "waiting":
            ais += ai_names(self.options.get("ai", []))
        check_name(name, [s.name for s in self.slots if s.kind == "human"], ais)

    async def start(self, player: int) -> None:
        async with self.lock:
            self._start(player)
        self.kick()

    def _start(self, player: int) -> None:
        if player != 0:
            raise TableError("not-creator", "only the table's creator can start the game")
        if self.status == "expired":
            raise TableError("expired", "this table was not started in time and has "
                                        "closed: set up a new one")
        if self.status != "waiting":
            raise TableError("started", "the game has already started")
        levels = list(self.options.get("ai", []))
        taken = {s.name for s in self.slots if s.kind == "human"}
        for s in self.slots:
            if s.kind == "open":
                s.kind = "ai"
                s.level = levels[s.player - 1] if 0 < s.player <= len(levels) else s.level
                s.name = _unique(s.level.title(), taken)
                taken.add(s.name)
                self.store.save_seat(self.id, s.stored())
        self.status = "playing"
        self.store.set_status(self.id, "playing")
        self.ensure_running()
        self.broadcast_table()

    # ------------------------------------------------------------ the driver

    def kick(self) -> None:
        """Something changed: let the driver look again."""
        self.wake.set()

    def ensure_running(self) -> None:
        if self.status == "playing" and (self.task is None or self.task.done()):
            self.task = asyncio.get_running_loop().create_task(self._run(),
                                                               name=f"table-{self.id}")

    async def close(self) -> None:
        self.closed = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    def _away(self, slot: Slot) -> bool:
        """Whether a human's decisions go to the stand-in AI (away longer than the grace)."""
        return (slot.away_since is not None
                and self.clock.now() - slot.away_since >= self.config.disconnect_grace)

    async def _run(self) -> None:
        failures = 0
        while not self.closed:
            self.wake.clear()
            began = self.clock.now()
            try:
                async with self.lock:
                    mode, delay = await self._step()
                failures = 0
            except Exception:
                # e.g. the database is briefly unreachable: the table was put back to its
                # stored state, so try again later instead of leaving it stuck for good
                failures += 1
                log.exception("table %s: the driver failed (%d in a row)", self.id, failures)
                await self.clock.sleep(min(30.0, 0.5 * 2 ** min(failures, 6)))
                continue
            if mode == "stop":
                return
            if mode == "sleep":
                await self.clock.sleep(delay or 0)
                continue
            # measured from before the step: time that passed during it is not waited twice
            await self.clock.wait(self.wake, None if delay is None else began + delay)

    async def _step(self) -> tuple[str, float | None]:
        """One move of the table: ``("sleep", s)`` to go on after s, ``("wait", s)`` to wait
        for a kick (or s seconds; None: forever), ``("stop", None)`` when over."""
        if self.stale:
            self._rebuild()
            if self.stale:
                raise TableError("unsaved", "the table's log cannot be read")
        if self.status != "playing":
            return "stop", None
        m = self.match
        g = m.game
        now = self.clock.now()
        if g is None:
            if m.state.ended:
                return "stop", None
            if self.bankers and self.next_hand_at is None:
                self.next_hand_at = now + self.config.next_hand_delay
            humans = [s for s in self.slots if s.kind == "human" and (s.conns or s.newcomer)]
            if (self.next_hand_at is not None and now < self.next_hand_at
                    and not (humans and all(s.ready for s in humans))):
                return "wait", self.next_hand_at - now
            self._start_hand()
            return "sleep", 0
        if g.ended:
            return await self._end_hand()
        waiting = sorted(g.waiting_for())
        if not waiting:
            self._commit(g.advance())
            return "sleep", 0
        wake_in: float | None = None
        for seat in waiting:
            slot = self.slots[m.state.player_at(seat)]
            if slot.kind == "human" and not self._away(slot):
                lefts = []
                if slot.away_since is not None:
                    lefts.append(slot.away_since + self.config.disconnect_grace - now)
                # the clock runs from the request's first sending, connected or not
                limit, claim = self._limit(g.legal_actions(seat))
                if slot.asked_at is not None and limit > 0:
                    lefts.append(slot.asked_at + limit - now)
                    if lefts[-1] <= 0:
                        await self._time_up(g, seat, slot, claim)
                        return "sleep", 0
                for left in lefts:
                    wake_in = left if wake_in is None else min(wake_in, left)
                continue
            await self._ai_move(g, seat, slot)
            return "sleep", self.config.ai_delay if slot.kind == "ai" else 0
        return "wait", None if wake_in is None else max(wake_in, 0.0)

    async def _ai_choice(self, g: Game, seat: Seat, slot: Slot) -> Action:
        """The action of the seat's AI (for a human: the stand-in)."""
        if slot.agent is None:
            name = slot.level if slot.kind == "ai" else self.options.get("standin",
                                                                         default_standin())
            slot.agent = make_ai(name, derive_seed(self.seed, 1000 + slot.player))
        v = g.view(seat)
        legal = g.legal_actions(seat)
        try:
            action: Action = await asyncio.to_thread(slot.agent.act, v, legal)
        except Exception:
            log.exception("table %s: the AI at seat %d failed", self.id, int(seat))
            action = safe_default(v, legal)
        if action not in legal:
            action = safe_default(v, legal)
        return action

    async def _ai_move(self, g: Game, seat: Seat, slot: Slot) -> None:
        action = await self._ai_choice(g, seat, slot)
        self._forget_request(slot)
        if slot.kind == "human":    # away: the stand-in's decision, not theirs
            self._standin_next.add(int(seat))
        self._commit(g.submit(seat, action))

    async def _time_up(self, g: Game, seat: Seat, slot: Slot, claim: bool) -> None:
        """A human let the clock run out: pass on a claim offer, or let the stand-in play
        this one turn. Stored and sent like any other decision; the seat stays theirs."""
        if claim:
            action: Action = next(a for a in g.legal_actions(seat) if isinstance(a, Pass))
            text = "Time's up: passed on the claim"
        else:
            action = await self._ai_choice(g, seat, slot)
            kind = action.to_json()["type"]
            did = (f"threw {action.tile.english}" if isinstance(action, Discard)
                   else {"win": "won the hand", "kong": "declared a kong"}.get(
                       kind, f"chose {kind}"))
            text = f"Time's up: the AI {did} for you"
        rid = None if slot.request is None else slot.request[0]
        self._forget_request(slot)
        new = g.submit(seat, action)
        self._standin_next.add(int(seat))
        for c in slot.conns:
            c.send({"type": "notice", "code": "time-up", "message": text})
            # as for an answer of theirs: the open request is closed
            c.send({"type": "ack", "id": rid, "action": action.to_json()})
        self._commit(new)

    def _start_hand(self) -> None:
        self.next_hand_at = None
        self.bankers.append(self.match.state.banker)
        g = self.match.start_hand()
        for s in self.slots:
            s.ready = False
            s.newcomer = False
            for c in s.conns:
                c.send(hello(self.seat_of(s.player), self.rules))
        self.broadcast_table()
        self._commit(list(g.events))

    async def _end_hand(self) -> tuple[str, float | None]:
        game = self.match.game
        assert game is not None
        rec = self.match.finish_hand()
        self.last_summary = self._summary(rec, game)
        for s in self.slots:
            if s.kind == "human":
                await self._review(s.player)
        # set before the hand-end is sent, which says when the next hand starts
        self.next_hand_at = (None if self.match.state.ended
                             else self.clock.now() + self.config.next_hand_delay)
        for c in self._all_conns():
            c.send(self._hand_end(c.player))
        if self.match.state.ended:
            self.status = "finished"
            self.store.set_status(self.id, "finished")
            for c in self._all_conns():
                c.send(self._match_end(c.player))
            self.broadcast_table()
            return "stop", None
        self.broadcast_table()
        return "sleep", 0

    def _summary(self, rec: HandRecord, game: Game) -> dict[str, Any]:
        """The hand-end summary, each win with the winner's whole hand: a win lays it open
        to the table (tiles in hand, the winning one among them, declared sets, bonus
        tiles), as in the terminal."""
        out = hand_summary(rec, self.names, self.match.state.scores)
        for w in out["wins"]:
            v = view_json(game.view(Seat(w["seat"])))
            mine = v["seats"][w["seat"]]
            w["hand"] = {"concealed": v["concealed"], "melds": mine["melds"],
                         "bonus": mine["bonus"]}
        return out

    def _hand_end(self, player: int | None = None) -> dict[str, Any]:
        """The hand-end message for a socket: with ``player``'s review of the hand, when
        there is one (a human's); a spectator gets none."""
        msg: dict[str, Any] = {"type": "hand-end", "hand": self.last_summary}
        if self.next_hand_at is not None and not self.match.state.ended:
            # the longest wait: the next hand starts sooner when every player is ready
            msg["next_in_ms"] = max(0, round((self.next_hand_at - self.clock.now()) * 1000))
        stars = hand_ladder(self.options, self.match.hands[-1]) if self.match.hands else None
        if stars is not None:
            msg["ladder"] = stars
        if player is not None:
            review = self.reviews.get((len(self.match.hands) - 1, player))
            if review is not None:
                msg["review"] = review_json(review)
        return msg

    async def _review(self, player: int, hand: int | None = None) -> None:
        """Review ``player``'s play in the last finished hand (or hand number ``hand``), off
        the event loop (it takes a fraction of a second); kept for the hand-end and
        match-end messages. A failure costs the review, never the table."""
        h = len(self.match.hands) - 1 if hand is None else hand
        if h < self.slots[player].human_from or (h, player) in self.reviews:
            return
        from ..agents.review import review_hand

        seat = self.seat_of(player, h)
        events = list(self.match.hands[h].events)
        first = self.event_hand.index(h)
        notes = {i - first: {STANDIN: seats} for i, seats in self.standin.items()
                 if first <= i < first + len(events)}
        by_seat = {self.seat_of(p, h): self.names[p] for p in range(4)}
        names = [by_seat[s] for s in Seat]
        try:
            r = await asyncio.to_thread(partial(review_hand, names=names), events, seat,
                                        self.rules, notes)
        except Exception:
            log.exception("table %s: the review of player %d failed", self.id, player)
            return
        self.reviews[(h, player)] = r

    def _match_end(self, player: int | None = None) -> dict[str, Any]:
        """The match-end message for a socket: with ``player``'s review of the match (the
        hands reviewed for them as they ended), when there is one."""
        scores = self.match.state.scores
        msg: dict[str, Any] = {"type": "match-end", "scores": list(scores),
                               "standings": standings(self.names, scores),
                               "record": f"/api/tables/{self.id}/record",
                               "replay": f"/t/{self.id}/replay"}
        stars = match_ladder(self.options, self.match)
        if stars is not None:
            msg["ladder"] = stars
        if player is not None:
            mine = [(h, r) for (h, p), r in sorted(self.reviews.items()) if p == player]
            if mine:
                from ..agents.review import match_summary

                msg["review"] = {"hands": [h for h, _ in mine],
                                 "lines": match_summary(mine)}
        return msg


__all__ = ["Conn", "Slot", "TableError", "TableRuntime", "ai_names", "check_name",
           "default_standin", "level_names", "make_ai", "same_name"]
