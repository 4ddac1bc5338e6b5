"""One table's game, seats and timers, with no I/O: commands in, effects out.

:class:`TableCore` owns the match. The shell feeds it one command at a time with the time
(:meth:`TableCore.handle`) and carries out the effects it returns in order (see
:mod:`.messages`): so every rule of the table (seating, requests and their clocks, claim
windows, stand-ins, hand and match ends) is played and tested here, in milliseconds, with
no sockets, database, threads or event loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...agents.danger import discard_history
from ...agents.evaluation import safe_default
from ...bot.wire import hello, view_json
from ...game import Action, Discard, Event, Game, HandStarted, IllegalAction, Match, Pass
from ...game.prng import derive_seed
from ...record import STANDIN
from ...rules.loading import rules_from_dict
from ...tiles import Seat
from ..protocol import (
    PROTOCOL,
    error,
    event_json,
    public_view_json,
    redact,
    request_json,
    time_up_text,
)
from ..security import token_matches
from .messages import (
    Act,
    AskHints,
    Attach,
    Command,
    Decided,
    Detach,
    Expire,
    Hints,
    Inbox,
    Join,
    NeedReload,
    Outbox,
    Ready,
    Reload,
    Reviewed,
    SaveSeat,
    SetStatus,
    Start,
    Store,
    Think,
    Tick,
    WakeAt,
)
from .seating import TableError, ai_names, check_name, default_standin, unique_name
from .seats import Slot, TableRow, Timing
from .summaries import Summaries

if TYPE_CHECKING:
    from ...agents.review import Review


class TableCore(Summaries):
    """One table in memory, rebuilt from its stored events."""

    def __init__(self, row: TableRow, payloads: Sequence[dict[str, Any]] = (), *,
                 timing: Timing | None = None, now: float = 0.0) -> None:
        self.timing = timing or Timing()
        self.id = row.id
        self.rules = rules_from_dict(row.rules, where=f"table {row.id} rules")
        self.preset = row.preset
        self.status = row.status
        self.quick = row.quick
        self.seed = row.seed
        self.hints = row.hints
        self.options = dict(row.options)
        by_player = {s.player: s for s in row.seats}
        self.slots: list[Slot] = []
        for p in range(4):
            s = by_player.get(p)
            self.slots.append(Slot(p, s.name, s.kind, s.level, s.token_hash) if s else
                              Slot(p, f"Seat {p + 1}", "open", default_standin()))
        self.spectators: set[int] = set()
        self.player_of: dict[int, int | None] = {}   # each socket's player (None: watching)
        self.next_rid = 0
        self.next_hand_at: float | None = None
        self.pause_until = 0.0         # the pause after an AI move, so people can follow
        self.stale = False             # memory ran ahead of a failed write
        self.reloading = False         # ... and the stored log has been asked for
        self.failures = 0
        self.retry_at = 0.0
        self.thinking: tuple[int, int, int, bool] | None = None   # job, seat, n, time up
        self.jobs = 0
        self.now = now
        self._fresh_match()
        if payloads:
            self._replay(payloads)
        for slot in self.slots:
            if slot.kind == "human":
                slot.away_since = now

    # ------------------------------------------------------------ rebuilding

    def _fresh_match(self) -> None:
        """The match before its first event (what ``_replay`` builds on)."""
        self.match = Match(self.rules, self.seed, quick=self.quick)
        self.events: list[Event] = []
        self.event_hand: list[int] = []        # the hand (index) of each event
        self.bankers: list[int] = []           # the banker (match player) of each hand
        self.last_summary: dict[str, Any] | None = None
        self.hand_end_due = False              # a hand ended; its hand-end waits on reviews
        # the review of a human's play in a hand, by (hand, player): worked out at the hand
        # end (or when a player comes back to a table rebuilt since) and sent to them alone
        self.reviews: dict[tuple[int, int], Review | None] = {}
        self.reviewing: set[tuple[int, int]] = set()
        self.deferred: dict[int, list[str]] = {}   # socket: ends it gets once reviewed
        # the seats whose decision the stand-in made (time up, or away), by the index of
        # the first event after that decision; stored as that event's ``meta`` so the
        # review leaves them out, here and in the downloaded record
        self.standin: dict[int, list[int]] = {}
        self._standin_next: set[int] = set()
        self.thinking = None

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

    # ------------------------------------------------------------ commands

    def handle(self, command: Command, now: float) -> Outbox:
        """Apply ``command`` at clock time ``now``; the effects, in order. A refused
        :class:`Join` or HTTP :class:`Start` raises :class:`TableError` before any."""
        self.now = now
        out = Outbox()
        self._table_changed = False
        match command:
            case Attach():
                self._attach(command, out)
            case Detach():
                self._detach(command.conn)
            case Act():
                self._act(command, out)
            case Ready():
                player = self.player_of.get(command.conn)
                if player is not None:
                    self.slots[player].ready = True
            case AskHints():
                self._hints(command.conn, out)
            case Start():
                try:
                    self._start(command.player, out)
                except TableError as exc:
                    if command.conn is None:
                        raise
                    out.send([command.conn], error(exc.code, str(exc)))
            case Join():
                out.result = self._join(command, out)
            case Tick():
                pass
            case Decided():
                self._decided(command, out)
            case Reviewed():
                self.reviews[(command.hand, command.player)] = command.review
                self.reviewing.discard((command.hand, command.player))
                self._send_deferred(out)
            case Reload():
                self._reload(command, out)
            case Expire():
                self.status = "expired"
                self._table_changed = True
        self._advance(out)
        if self._table_changed:
            self._broadcast(out, {"type": "table", "table": self.info()})
        out.add(WakeAt(self._next_wake()))
        return out

    def _attach(self, cmd: Attach, out: Outbox) -> None:
        """A socket said hello: the table, what it missed, the view or its request."""
        conn = cmd.conn
        slot = None if cmd.player is None else self.slots[cmd.player]
        self.player_of[conn] = cmd.player
        (self.spectators if slot is None else slot.conns).add(conn)
        if slot is not None:
            slot.away_since = None
            slot.newcomer = False
        out.send([conn], {"type": "welcome", "protocol": PROTOCOL, "player": cmd.player,
                          "role": "spectator" if slot is None else "player",
                          "token_ok": slot is not None, "table": self.info()})
        if slot is not None and self.game is not None:
            out.send([conn], hello(self.seat_of(slot.player), self.rules))
        if cmd.last_seen is not None:
            first = min(cmd.last_seen, self.n) + 1
        elif self.game is not None:
            first = self.event_hand.index(len(self.bankers) - 1) + 1
        else:
            first = self.n + 1
        self._send_events(conn, first, out)
        msg = self._state_message(slot)
        if msg is not None:
            out.send([conn], msg)
        ends: list[str] = []
        if self.game is None and self.last_summary is not None and not self.hand_end_due:
            ends.append("hand-end")
        if self.status == "finished":
            ends.append("match-end")
        if ends:
            if slot is not None and slot.kind == "human":
                # a server started since the match ended has no review kept: each hand's
                # is worked out again from the log
                hands = (range(len(self.match.hands)) if self.status == "finished"
                         else [len(self.match.hands) - 1])
                for h in hands:
                    self._ask_review(slot.player, h, out)
            self.deferred[conn] = ends
            self._send_deferred(out)
        self._table_changed = True

    def _detach(self, conn: int) -> None:
        player = self.player_of.pop(conn, None)
        self.deferred.pop(conn, None)
        slot = None if player is None else self.slots[player]
        (self.spectators if slot is None else slot.conns).discard(conn)
        if slot is not None and not slot.conns:
            slot.away_since = self.now
        self._table_changed = True

    def _act(self, cmd: Act, out: Outbox) -> None:
        conn = cmd.conn
        player = self.player_of.get(conn)
        if player is None:
            out.send([conn], error("spectator", "spectators cannot act"))
            return
        if self.stale:
            out.send([conn], error("unsaved", "the table cannot be saved just now: try "
                                              "again"))
            return
        g = self.game
        if g is None or g.ended:
            out.send([conn], error("no-hand", "no hand is being played now"))
            return
        seat = self.seat_of(player)
        if cmd.seat is not None and cmd.seat != int(seat):
            out.send([conn], error("wrong-seat", f"you sit at seat {int(seat)} "
                                                 f"({seat.name.title()}); you cannot act "
                                                 f"for seat {cmd.seat}"))
            return
        if seat not in g.waiting_for():
            out.send([conn], error("not-your-turn", "it is not your decision now"))
            return
        slot = self.slots[player]
        if cmd.id is not None and (slot.request is None or cmd.id != slot.request[0]):
            out.send([conn], error("stale", f"request {cmd.id} is no longer open"))
            return
        try:
            new = g.submit(seat, cmd.action)
        except IllegalAction as exc:
            out.send([conn], error("illegal", str(exc)))
            return
        rid = None if slot.request is None else slot.request[0]
        slot.forget_request()
        out.send(sorted(slot.conns), {"type": "ack", "id": rid,
                                      "action": cmd.action.to_json()})
        self._commit(new, out, actor=conn, inbox=cmd.inbox)

    def _hints(self, conn: int, out: Outbox) -> None:
        player = self.player_of.get(conn)
        g = self.game
        if not self.hints:
            out.send([conn], error("hints-off", "hints are off at this table"))
            return
        if g is None or player is None:
            out.send([conn], error("no-hand", "no hand is being played now"))
            return
        seat = self.seat_of(player)
        legal = g.legal_actions(seat) if seat in g.waiting_for() else []
        out.add(Hints(conn, self.n, g.view(seat), tuple(legal), discard_history(g.events)))

    def _join(self, cmd: Join, out: Outbox) -> int:
        """Seat a newcomer: in a free chair before the start, or in an AI's chair between
        hands (from the next hand on). ``player`` (1-3) picks the chair, else the first."""
        player = cmd.player
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
        self.check_name(cmd.name)
        g = self.game
        if taking_over and g is not None and not g.ended:
            raise TableError("mid-hand", "an AI seat can be taken between hands: try "
                                         "again when this hand ends")
        slot.name, slot.kind, slot.token_hash = cmd.name, "human", cmd.token_hash
        slot.away_since = self.now
        if taking_over:
            # the hands before this one were the AI's: no review of them is theirs
            slot.human_from = len(self.match.hands) + (1 if g is not None else 0)
            slot.level = self.options.get("standin", default_standin())
            slot.ready = False
            slot.newcomer = True
            slot.forget_request()
            if self.bankers:   # between hands (not before the first deal)
                # the newcomer needs time to connect and read the last hand's summary
                due = self.now + self.timing.next_hand_delay
                self.next_hand_at = due if self.next_hand_at is None else max(
                    self.next_hand_at, due)
        out.add(self._seat_row(slot))
        self._table_changed = True
        return slot.player

    def check_name(self, name: str) -> None:
        """Refuse a newcomer's name that a seat here has, or (before the start) that an
        AI player will get."""
        ais = [s.name for s in self.slots if s.kind == "ai"]
        if self.status == "waiting":
            ais += ai_names(self.options.get("ai", []))
        check_name(name, [s.name for s in self.slots if s.kind == "human"], ais)

    def _start(self, player: int, out: Outbox) -> None:
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
                s.name = unique_name(s.level.title(), taken)
                taken.add(s.name)
                out.add(self._seat_row(s))
        self.status = "playing"
        out.add(SetStatus("playing"))
        self._table_changed = True

    @staticmethod
    def _seat_row(s: Slot) -> SaveSeat:
        return SaveSeat(s.player, s.name, s.kind, s.level, s.token_hash)

    def _reload(self, cmd: Reload, out: Outbox) -> None:
        """The stored log is the truth: play on from it (or, unread, try again later)."""
        self.reloading = False
        if cmd.payloads is None:
            self.stale = True
            self.failures += 1
            self.retry_at = self.now + min(30.0, 0.5 * 2 ** min(self.failures, 6))
            if cmd.actor is not None:
                out.send([cmd.actor], error("unsaved", "the table could not be saved, so "
                                                       "nothing changed: try again"))
            return
        self._fresh_match()
        for slot in self.slots:
            slot.request = None
        if cmd.payloads:
            self._replay(cmd.payloads)
        self.stale = False
        self.failures = 0
        if cmd.actor is not None:
            out.send([cmd.actor], error("unsaved", "the table could not be saved, so "
                                                   "nothing changed: try again"))
        self._send_states(out)      # fresh requests for the state that is stored

    def failed_write(self, actor: int | None) -> None:
        """The shell's write of this core's events failed: nothing is played until
        :class:`Reload` brings the stored log back."""
        self.stale = True
        self.reloading = True

    # ------------------------------------------------------------ AI answers

    def _decided(self, cmd: Decided, out: Outbox) -> None:
        t = self.thinking
        if t is None or t[0] != cmd.job:
            return      # a decision nobody waits for any more
        self.thinking = None
        _job, seat_i, n, time_up = t
        g = self.game
        seat = Seat(seat_i)
        if g is None or g.ended or n != self.n or seat not in g.waiting_for():
            return
        slot = self.slots[self.match.state.player_at(seat)]
        v = g.view(seat)
        legal = g.legal_actions(seat)
        action = cmd.action if cmd.action is not None and cmd.action in legal else (
            safe_default(v, legal))
        if time_up:
            self._time_up(g, seat, slot, action, out)
            return
        slot.forget_request()
        if slot.kind == "human":    # away: the stand-in's decision, not theirs
            self._standin_next.add(int(seat))
        else:
            self.pause_until = self.now + self.timing.ai_delay
        self._commit(g.submit(seat, action), out)

    def _time_up(self, g: Game, seat: Seat, slot: Slot, action: Action, out: Outbox) -> None:
        """A human let the clock run out: the stand-in's ``action`` (a pass on a claim
        offer), stored and sent like any other decision; the seat stays theirs."""
        rid = None if slot.request is None else slot.request[0]
        slot.forget_request()
        new = g.submit(seat, action)
        self._standin_next.add(int(seat))
        conns = sorted(slot.conns)
        out.send(conns, {"type": "notice", "code": "time-up", "message": time_up_text(action)})
        # as for an answer of theirs: the open request is closed
        out.send(conns, {"type": "ack", "id": rid, "action": action.to_json()})
        self._commit(new, out)

    def _think(self, seat: Seat, slot: Slot, out: Outbox, *, time_up: bool = False) -> None:
        g = self.game
        assert g is not None
        self.jobs += 1
        self.thinking = (self.jobs, int(seat), self.n, time_up)
        level = slot.level if slot.kind == "ai" else self.options.get("standin",
                                                                       default_standin())
        # seeded by the moment, not by a player kept alive: any worker answers alike
        seed = derive_seed(derive_seed(self.seed, 1000 + slot.player), self.n)
        out.add(Think(self.jobs, level, seed, g.view(seat), tuple(g.legal_actions(seat))))

    # ------------------------------------------------------------ the driver

    def _advance(self, out: Outbox) -> None:
        """Play on as far as the table can without waiting for anyone."""
        self._wakes: list[float] = []
        while self._step(out):
            pass

    def away(self, slot: Slot) -> bool:
        """Whether a human's decisions go to the stand-in AI (away longer than the grace)."""
        return (slot.away_since is not None
                and self.now - slot.away_since >= self.timing.disconnect_grace)

    def _step(self, out: Outbox) -> bool:
        """One move of the table; False when it must wait (for a person, an answer or
        the clock: the times it waits for go to ``_wakes``)."""
        if self.stale:
            if not self.reloading:
                if self.now < self.retry_at:
                    self._wakes.append(self.retry_at)
                    return False
                self.reloading = True
                out.add(NeedReload())
            return False
        if self.status != "playing":
            return False
        if self.now < self.pause_until:
            self._wakes.append(self.pause_until)
            return False
        m = self.match
        g = m.game
        if g is None:
            if self.hand_end_due:
                if self._reviews_wanted():
                    return False
                self._send_hand_end(out)
                return True
            if m.state.ended:
                return False
            if self.bankers and self.next_hand_at is None:
                self.next_hand_at = self.now + self.timing.next_hand_delay
            humans = [s for s in self.slots if s.kind == "human" and (s.conns or s.newcomer)]
            if (self.next_hand_at is not None and self.now < self.next_hand_at
                    and not (humans and all(s.ready for s in humans))):
                self._wakes.append(self.next_hand_at)
                return False
            self._start_hand(out)
            return True
        if g.ended:
            self._end_hand(out)
            return True
        waiting = sorted(g.waiting_for())
        if not waiting:
            self._commit(g.advance(), out)
            return True
        if self.thinking is not None:
            t = self.thinking
            if t[2] == self.n and Seat(t[1]) in waiting:
                return False        # an AI is thinking: its answer comes as a command
            self.thinking = None
        for seat in waiting:
            slot = self.slots[m.state.player_at(seat)]
            if slot.kind == "human" and not self.away(slot):
                if slot.away_since is not None:
                    self._wakes.append(slot.away_since + self.timing.disconnect_grace)
                # the clock runs from the request's first sending, connected or not
                limit, claim = self._limit(g.legal_actions(seat))
                if slot.asked_at is not None and limit > 0:
                    due = slot.asked_at + limit
                    if due <= self.now:
                        if claim:
                            self._time_up(g, seat, slot, Pass(), out)
                            return True
                        self._think(seat, slot, out, time_up=True)
                        return False
                    self._wakes.append(due)
                continue
            self._think(seat, slot, out)
            return False
        return False

    def _next_wake(self) -> float | None:
        wakes = getattr(self, "_wakes", [])
        return min(wakes) if wakes else None

    def _limit(self, legal: Sequence[Action]) -> tuple[float, bool]:
        """The time allowed for a decision (0: none), and whether it is a claim offer."""
        claim = (any(isinstance(a, Pass) for a in legal)
                 and not any(isinstance(a, Discard) for a in legal))
        return (self.timing.claim_window if claim else self.timing.turn_limit), claim

    def _start_hand(self, out: Outbox) -> None:
        self.next_hand_at = None
        self.bankers.append(self.match.state.banker)
        g = self.match.start_hand()
        for s in self.slots:
            s.ready = False
            s.newcomer = False
            out.send(sorted(s.conns), hello(self.seat_of(s.player), self.rules))
        self._broadcast(out, {"type": "table", "table": self.info()})
        self._commit(list(g.events), out)

    def _end_hand(self, out: Outbox) -> None:
        game = self.match.game
        assert game is not None
        rec = self.match.finish_hand()
        self.last_summary = self._summary(rec, game)
        self.hand_end_due = True
        h = len(self.match.hands) - 1
        for s in self.slots:
            if s.kind == "human":
                self._ask_review(s.player, h, out)

    # ------------------------------------------------------------ storing and sending

    def _commit(self, new: Sequence[Event], out: Outbox, *, actor: int | None = None,
                inbox: Inbox | None = None) -> None:
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
            self.standin[first - 1] = marks
            self._standin_next.clear()
        out.add(Store(first, stored, actor, inbox))
        h = len(self.bankers) - 1
        self.events.extend(new)
        self.event_hand.extend([h] * len(new))
        self._forget_answered()
        for seat, conns in self._conns_by_seat(h).items():
            for i, p in enumerate(payloads):
                data = redact(p, seat)
                if data is not None:
                    out.send(conns, event_json(first + i, data))
        self._send_states(out)

    def _conns_by_seat(self, hand: int) -> dict[int, list[int]]:
        """Every socket, grouped by the seat whose view it gets in ``hand`` (-1: public)."""
        groups: dict[int, list[int]] = {}
        if self.spectators:
            groups[-1] = sorted(self.spectators)
        for s in self.slots:
            if s.conns:
                groups.setdefault(int(self.seat_of(s.player, hand)), []).extend(
                    sorted(s.conns))
        return groups

    def _send_events(self, conn: int, first: int, out: Outbox) -> None:
        """Events numbered ``first`` on, redacted for the conn's seat in their hand."""
        player = self.player_of.get(conn)
        for i in range(first - 1, len(self.events)):
            h = self.event_hand[i]
            seat = -1 if player is None else int(self.seat_of(player, h))
            data = redact(self.events[i], seat)
            if data is not None:
                out.send([conn], event_json(i + 1, data))

    def _issue(self, slot: Slot) -> bool:
        """Open (or keep) the request of a seat whose decision it is; False if it has
        none. The request id changes with the event number; the clock does not."""
        g = self.game
        if g is None or g.ended or self.seat_of(slot.player) not in g.waiting_for():
            slot.forget_request()
            return False
        if slot.request is None or slot.request[1] != self.n:
            self.next_rid += 1
            slot.request = (self.next_rid, self.n)
        if slot.asked_at is None:
            slot.asked_at = self.now
        return True

    def _state_message(self, slot: Slot | None) -> dict[str, Any] | None:
        """The view (or, when the seat must decide, the request) for a player or spectator;
        a player's request is opened first (:meth:`_issue`)."""
        g = self.game
        if g is None:
            return None
        if slot is None:
            return {"type": "view", "n": self.n, "view": public_view_json(g.state),
                    **self._board()}
        seat = self.seat_of(slot.player)
        v = g.view(seat)
        if self._issue(slot):
            assert slot.request is not None and slot.asked_at is not None
            legal = g.legal_actions(seat)
            limit, _claim = self._limit(legal)
            left_ms = 0
            if limit > 0:
                # at least 1: a deadline that is due must not read as "no limit"
                left_ms = max(1, round((slot.asked_at + limit - self.now) * 1000))
            return {**request_json(slot.request[0], self.n, v, legal, left_ms),
                    **self._board()}
        return {"type": "view", "n": self.n, "view": view_json(v), **self._board()}

    def _forget_answered(self) -> None:
        """Drop the open request of every seat no longer deciding. A disconnected seat is
        sent nothing, so its request would otherwise outlive a decision that was settled
        without it (a claim resolved by a higher one) and lend its clock to the next."""
        g = self.game
        waiting = set() if g is None or g.ended else g.waiting_for()
        for s in self.slots:
            if self.seat_of(s.player) not in waiting:
                s.forget_request()

    def _send_states(self, out: Outbox) -> None:
        if self.spectators:
            msg = self._state_message(None)
            if msg is not None:
                out.send(sorted(self.spectators), msg)
        for s in self.slots:
            if s.conns:
                msg = self._state_message(s)
                if msg is not None:
                    out.send(sorted(s.conns), msg)

    def _broadcast(self, out: Outbox, message: dict[str, Any]) -> None:
        out.send(self.all_conns(), message)

    def all_conns(self) -> list[int]:
        out = sorted(self.spectators)
        for s in self.slots:
            out.extend(sorted(s.conns))
        return out

    def player_for(self, token: str | None) -> int | None:
        for s in self.slots:
            if s.kind == "human" and token_matches(token, s.token_hash):
                return s.player
        return None


__all__ = ["TableCore"]
