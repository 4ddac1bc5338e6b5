"""One table's game, seats and timers, with no I/O: commands in, effects out.

:class:`TableCore` owns the match. The shell feeds it one command at a time with the time
(:meth:`TableCore.handle`) and carries out the effects it returns in order (see
:mod:`.messages`): so every rule of the table (seating, requests and their clocks, claim
windows, stand-ins, hand and match ends) is played and tested here, in milliseconds, with
no sockets, database, threads or event loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from ...agents.danger import discard_history
from ...game import Event, Game, HandStarted, IllegalAction, Match
from ...game.codec import JSON
from ...record import STANDIN
from ...rules.loading import rules_from_dict
from ...session.decisions import FailureNotices
from ..protocol import (
    PROTOCOL,
    HandSummary,
    error,
)
from .chairs import Chairs
from .client import (
    ActionMessage,
    ClientMessage,
    HintsMessage,
    ReadyMessage,
    StartMessage,
)
from .messages import (
    Attach,
    Command,
    Decided,
    Detach,
    Expire,
    Hints,
    Inbox,
    Join,
    Outbox,
    Received,
    Reload,
    Reviewed,
    Start,
    Tick,
    WakeAt,
)
from .seating import TableError, default_standin
from .seats import Slot, TableChoices, TableRow, Timing
from .server import Ack, SeatHello, Welcome

if TYPE_CHECKING:
    from ...agents.review import Review


class TableCore(Chairs):
    """One table in memory, rebuilt from its stored events."""

    def __init__(self, row: TableRow, payloads: Sequence[JSON] = (), *,
                 timing: Timing | None = None, now: float = 0.0) -> None:
        self.timing = timing or Timing()
        self.id = row.id
        self.rules = rules_from_dict(row.rules, where=f"table {row.id} rules")
        self.preset = row.preset
        self.status = row.status
        self.quick = row.quick
        self.seed = row.seed
        self.hints = row.hints
        # written by the lobby alone (TableChoices), read back as stored
        self.options = cast(TableChoices, dict(row.options))
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
        self.ai_failures = FailureNotices()   # the AI seats whose failure was told
        self.now = now
        # a change of who is connected waits until this time to be broadcast (None: none
        # waits); any "table" message, sent at ``table_sent_at``, carries it
        self.presence_due: float | None = None
        self.table_sent_at = float("-inf")
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
        self.last_summary: HandSummary | None = None
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

    def _replay(self, payloads: Sequence[JSON]) -> None:
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
        presence_changed = False
        match command:
            case Attach():
                self._attach(command, out)
                presence_changed = True
            case Detach():
                self._detach(command.conn)
                presence_changed = True
            case Received():
                handler = HANDLERS.get(type(command.message))
                if handler is not None:
                    handler(self, command.conn, command.message, command.inbox, out)
            case Start():
                self._start(command.player, out)
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
                if self.status == "waiting":     # a start that came first stands
                    self.status = "expired"
                    self._table_changed = True
        self._advance(out)
        if self._table_changed:
            self._send_table(out)
        elif presence_changed or self.presence_due is not None:
            self._tell_presence(out)
        wake = self._next_wake()
        if self.presence_due is not None:
            wake = self.presence_due if wake is None else min(wake, self.presence_due)
        out.add(WakeAt(wake))
        return out

    def _tell_presence(self, out: Outbox) -> None:
        """Broadcast who is connected now if the last "table" message is
        ``presence_interval`` old, else once it is: a crowd arriving costs each socket
        one message a second, not one per arrival (the newcomer's ``welcome`` already
        names everyone)."""
        due = self.table_sent_at + self.timing.presence_interval
        if self.now >= due:
            self._send_table(out)
        else:
            self.presence_due = due

    def _attach(self, cmd: Attach, out: Outbox) -> None:
        """A socket said hello: the table, what it missed, the view or its request."""
        conn = cmd.conn
        slot = None if cmd.player is None else self.slots[cmd.player]
        self.player_of[conn] = cmd.player
        (self.spectators if slot is None else slot.conns).add(conn)
        if slot is not None:
            slot.away_since = None
            slot.newcomer = False
        out.send([conn], Welcome(PROTOCOL, cmd.player, "spectator" if slot is None else "player",
                                 slot is not None, self.info()))
        if slot is not None and self.game is not None:
            out.send([conn], SeatHello.of(self.seat_of(slot.player), self.rules))
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

    def _detach(self, conn: int) -> None:
        player = self.player_of.pop(conn, None)
        self.deferred.pop(conn, None)
        slot = None if player is None else self.slots[player]
        (self.spectators if slot is None else slot.conns).discard(conn)
        if slot is not None and not slot.conns:
            slot.away_since = self.now

    def _act(self, conn: int, cmd: ActionMessage, inbox: Inbox | None, out: Outbox) -> None:
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
        out.send(sorted(slot.conns), Ack(rid, cmd.action))
        self._commit(new, out, actor=conn, inbox=inbox)

    def _ready(self, conn: int, _msg: ReadyMessage, _inbox: Inbox | None,
               _out: Outbox) -> None:
        player = self.player_of.get(conn)
        if player is not None:
            self.slots[player].ready = True

    def _start_asked(self, conn: int, _msg: StartMessage, _inbox: Inbox | None,
                     out: Outbox) -> None:
        player = self.player_of.get(conn)
        if player is None:
            out.send([conn], error("spectator", "spectators cannot act at the table"))
            return
        try:
            self._start(player, out)
        except TableError as exc:
            out.send([conn], error(exc.code, str(exc)))

    def _hints(self, conn: int, _msg: HintsMessage, _inbox: Inbox | None,
               out: Outbox) -> None:
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


# the message is left untyped: each handler takes its own class, the one it is keyed by
Handler = Callable[[TableCore, int, Any, "Inbox | None", Outbox], None]
HANDLERS: dict[type[ClientMessage], Handler] = {
    ActionMessage: TableCore._act,
    ReadyMessage: TableCore._ready,
    HintsMessage: TableCore._hints,
    StartMessage: TableCore._start_asked,
}
"""What the table does with each client message that reaches it (a ping or a second
hello is answered before: :func:`sgmahjong.web.protocol.early_answer`)."""


__all__ = ["HANDLERS", "TableCore"]
