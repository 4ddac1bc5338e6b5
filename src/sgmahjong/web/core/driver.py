"""How a table plays on by itself: whose decision it is, who is asked (a person, the
AI or the stand-in), what the clock does, and when hands start and end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...game import Action, Discard, Game, Pass
from ...session.decisions import FailureNotices, checked, failure_notice
from ...session.players import player_seed
from ...tiles import Seat
from ..protocol import (
    time_up_text,
)
from .messages import (
    Decided,
    NeedReload,
    Outbox,
    Think,
)
from .seating import default_standin, make_ai
from .seats import Slot, Timing
from .server import Ack, Notice, SeatHello, TableChanged

if TYPE_CHECKING:
    pass


from .sending import Sending


class Driver(Sending):
    """The driver half of :class:`~.table.TableCore`."""

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
    ai_failures: FailureNotices
    presence_due: float | None
    table_sent_at: float

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
        if cmd.agent is not None:
            slot.agent = cmd.agent
        decision = checked(g.view(seat), g.legal_actions(seat), cmd.action, cmd.failure)
        action = decision.action
        if decision.failure is not None and self.ai_failures.first(slot.player):
            # the people at the table hear once that this AI plays safe moves now
            self._broadcast(out, Notice("ai-failed", failure_notice(slot.name)))
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
        out.send(conns, Notice("time-up", time_up_text(action)))
        # as for an answer of theirs: the open request is closed
        out.send(conns, Ack(rid, action))
        self._commit(new, out)

    def _think(self, seat: Seat, slot: Slot, out: Outbox, *, time_up: bool = False) -> None:
        g = self.game
        assert g is not None
        self.jobs += 1
        self.thinking = (self.jobs, int(seat), self.n, time_up)
        if slot.agent is None:
            level = slot.level if slot.kind == "ai" else self.options.get(
                "standin", default_standin())
            slot.agent = make_ai(level, player_seed(self.seed, slot.player))
        out.add(Think(self.jobs, slot.agent, g.view(seat), tuple(g.legal_actions(seat))))

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

    def _send_table(self, out: Outbox) -> None:
        """The table's facts to every socket (who is connected included, so a presence
        change still waiting goes with them)."""
        self._broadcast(out, TableChanged(self.info()))
        self.table_sent_at = self.now
        self.presence_due = None

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
            out.send(sorted(s.conns), SeatHello.of(self.seat_of(s.player), self.rules))
        self._send_table(out)
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


__all__ = ["Driver"]
