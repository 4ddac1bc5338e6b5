"""A web table core driven by hand: a clock the test moves, a log in a list, sockets as
lists of messages, and AI decisions answered at once (as the server's pool would).

Nothing here is the server's code: the harness does what the shell's contract says
(store before sending, feed the log back after a failed write, tick when asked), so the
tests read what the core decides, in milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sgmahjong.game import Action
from sgmahjong.web.core import (
    Attach,
    Command,
    Decided,
    Detach,
    Hints,
    NeedReload,
    Reload,
    Reviewed,
    ReviewHand,
    SaveSeat,
    Send,
    SetStatus,
    Store,
    TableCore,
    Think,
    Tick,
    Timing,
    WakeAt,
)
from sgmahjong.web.workers import review, think

SEED = 20240607


@dataclass
class Row:
    """A stored table as the core reads it."""

    id: str = "t1"
    status: str = "waiting"
    rules: dict[str, Any] = field(default_factory=dict)
    preset: str = "casual"
    quick: bool = True
    seed: int = SEED
    hints: bool = True
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[Any] = field(default_factory=list)


@dataclass
class SeatRow:
    player: int
    name: str
    kind: str
    level: str
    token_hash: str | None


def row(rules: str = "casual", ai: tuple[str, str, str] = ("greedy",) * 3,
        **kw: Any) -> Row:
    from sgmahjong.rules.loading import load_rules
    from sgmahjong.session.match import quick_rules

    r = quick_rules(load_rules(rules))
    return Row(rules=r.to_dict(), preset=rules,
               options={"ai": list(ai), "standin": "hedgehog"},
               seats=[SeatRow(0, "Ann", "human", "hedgehog", "h0")], **kw)


class Harness:
    """One core, its log and its sockets; ``now`` is the clock (seconds)."""

    def __init__(self, table: Row, *, timing: Timing | None = None, now: float = 1000.0,
                 log: list[dict[str, Any]] | None = None,
                 answer_ai: bool = True) -> None:
        self.now = now
        self.log: list[dict[str, Any]] = [] if log is None else log
        self.core = TableCore(table, list(self.log), timing=timing or Timing(
            ai_delay=0.0, disconnect_grace=60.0, next_hand_delay=0.0, claim_window=0.0,
            turn_limit=0.0), now=now)
        self.inbox: dict[int, list[dict[str, Any]]] = {}
        self.thinks: list[Think] = []
        self.answer_ai = answer_ai
        self.fail_writes = 0          # the next this many writes fail
        self.fail_reads = 0
        self.wake: float | None = None
        self.statuses: list[str] = []
        self.seats: list[SaveSeat] = []
        self.standins: list[str] = []   # the levels asked to think
        self.next_conn = 0
        self.results: list[int | None] = []
        self.sent: dict[str, int] = {}    # messages handed to sockets, by type

    # ------------------------------------------------------------ driving

    def do(self, command: Command) -> int | None:
        queue: list[Command] = [command]
        result = None
        first = True
        while queue:
            out = self.core.handle(queue.pop(0), self.now)
            if first:
                result, first = out.result, False
            queue.extend(self._carry_out(out.effects))
        return result

    def _carry_out(self, effects: list[Any]) -> list[Command]:
        more: list[Command] = []
        for e in effects:
            if isinstance(e, Store):
                if self.fail_writes:
                    self.fail_writes -= 1
                    self.core.failed_write(e.actor)
                    more.append(self._read_back(e.actor))
                    return more
                assert e.first == len(self.log) + 1, "events are stored in order, once"
                self.log.extend(e.payloads)
            elif isinstance(e, Send):
                for c in e.conns:
                    self.inbox.setdefault(c, []).append(e.message)
                kind = e.message["type"]
                self.sent[kind] = self.sent.get(kind, 0) + len(e.conns)
            elif isinstance(e, Think):
                self.thinks.append(e)
                self.standins.append(e.level)
                if self.answer_ai:
                    more.append(Decided(e.job, *think(e.agent, e.view, e.legal)))
            elif isinstance(e, ReviewHand):
                more.append(Reviewed(e.hand, e.player, review(e)))
            elif isinstance(e, Hints):
                self.inbox.setdefault(e.conn, []).append({"type": "hints", "n": e.n})
            elif isinstance(e, NeedReload):
                more.append(self._read_back(e.actor))
            elif isinstance(e, WakeAt):
                self.wake = e.at
            elif isinstance(e, SetStatus):
                self.statuses.append(e.status)
            elif isinstance(e, SaveSeat):
                self.seats.append(e)
        return more

    def _read_back(self, actor: int | None) -> Reload:
        if self.fail_reads:
            self.fail_reads -= 1
            return Reload(None, actor)
        return Reload(list(self.log), actor)

    def advance(self, seconds: float) -> None:
        """Move the clock on; a tick if the core asked for one by then (as the shell's
        timer does)."""
        self.now += seconds
        while self.wake is not None and self.wake <= self.now:
            self.wake = None
            self.do(Tick())

    def attach(self, player: int | None, last_seen: int | None = None) -> int:
        self.next_conn += 1
        self.inbox[self.next_conn] = []
        self.do(Attach(self.next_conn, player, last_seen))
        return self.next_conn

    def detach(self, conn: int) -> None:
        self.do(Detach(conn))

    def take(self, conn: int, kind: str | None = None) -> list[dict[str, Any]]:
        """The messages ``conn`` got since the last take (of ``kind``, or all)."""
        got = self.inbox[conn]
        self.inbox[conn] = []
        return [m for m in got if kind is None or m["type"] == kind]

    def last(self, conn: int, kind: str) -> dict[str, Any] | None:
        got = [m for m in self.inbox[conn] if m["type"] == kind]
        return got[-1] if got else None

    def play_until(self, conn: int, stop: Callable[[dict[str, Any]], bool],
                   choose: Callable[[list[dict[str, Any]], dict[str, Any]], dict[str, Any]],
                   limit: int = 2000) -> dict[str, Any]:
        """Answer ``conn``'s requests with ``choose`` until one meets ``stop``."""
        from sgmahjong.web.core import Act

        for _ in range(limit):
            req = self.last(conn, "request")
            assert req is not None, "no request is open"
            if stop(req):
                return req
            self.inbox[conn] = []
            self.do(Act(conn, Action.from_json(choose(req["legal"], req["view"])), req["id"]))
        raise AssertionError("the stop was never reached")
