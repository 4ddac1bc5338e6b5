"""What each socket is told: events redacted for its seat, its view or its open request
(opened here, with its clock), the table's facts."""

from __future__ import annotations

from collections.abc import Sequence

from ...bot.wire import view_json
from ...game import Event
from ...game.codec import JSON
from ...record import STANDIN
from ..protocol import public_view_json, redact
from ..security import token_matches
from .messages import (
    Inbox,
    Outbox,
    Store,
)
from .seats import Slot, Timing
from .server import EventMessage, RequestMessage, ServerMessage, ViewMessage
from .summaries import Summaries


class Sending(Summaries):
    """The sending half of :class:`~.table.TableCore`."""

    seed: int
    timing: Timing
    thinking: tuple[int, int, int, bool] | None
    jobs: int
    pause_until: float
    stale: bool
    reloading: bool
    retry_at: float
    next_rid: int
    _standin_next: set[int]
    _wakes: list[float]

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
                    out.send(conns, EventMessage(first + i, data))
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
                out.send([conn], EventMessage(i + 1, data))

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

    def _state_message(self, slot: Slot | None) -> ViewMessage | RequestMessage | None:
        """The view (or, when the seat must decide, the request) for a player or spectator;
        a player's request is opened first (:meth:`_issue`)."""
        g = self.game
        if g is None:
            return None
        board = self._board()
        players, totals = tuple(board["players"]), tuple(board["totals"])
        if slot is None:
            return ViewMessage(self.n, public_view_json(g.state), players, totals)
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
            return RequestMessage(slot.request[0], self.n, int(v.seat), tuple(legal), left_ms,
                                  view_json(v), players, totals)
        return ViewMessage(self.n, view_json(v), players, totals)

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

    def _broadcast(self, out: Outbox, message: ServerMessage | JSON) -> None:
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


__all__ = ["Sending"]
