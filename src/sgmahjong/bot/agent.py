"""``ProcessAgent``: a bot behind the JSON Lines protocol, playing as an Agent that never
crashes or stalls the table (late, garbage or illegal answers get a safe default)."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from ..agents.evaluation import safe_default
from ..game.actions import Action
from ..game.events import Event
from ..game.view import PlayerView
from ..tiles import Seat
from .transport import MockTransport, ProcessTransport, Transport
from .wire import PROTOCOL_VERSION, BotError, action_of, event_message, hello, parse_reply, request

log = logging.getLogger("sgmahjong.bot")

MAX_TIMEOUTS = 3   # consecutive late answers before a bot is given up for the match


class ProcessAgent:
    """Runs ``command`` as a bot for ``seat``; ``act(view, legal)`` asks it for a decision.

    Faults (late, garbage, illegal, crashed) are logged and kept in ``faults``; the table
    gets the safe default: Pass on claims, on a turn the drawn tile (or the first legal
    discard). After ``MAX_TIMEOUTS`` late answers in a row, or once the bot has exited,
    every decision is defaulted at once. Use as a context manager, or call ``close()``.
    """

    def __init__(self, command: Sequence[str] | str | None, seat: Seat | int = 0,
                 timeout: float = 1.0, *, transport: Transport | None = None) -> None:
        if transport is None:
            if command is None:
                raise ValueError("ProcessAgent needs a command or a transport")
            transport = ProcessTransport(command)
        self.transport = transport
        self.seat = Seat(seat)
        self.timeout = timeout
        self.faults: list[str] = []
        self.dead = False
        self._greeted = False
        self._next_id = 0
        self._late = 0

    @classmethod
    def mock(cls, bot: Any, seat: Seat | int = 0, timeout: float = 1.0) -> ProcessAgent:
        """An agent talking to a Python function through :class:`MockTransport`."""
        return cls(None, seat, timeout, transport=MockTransport(bot))

    def __enter__(self) -> ProcessAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __call__(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return self.act(view, legal)

    def close(self) -> None:
        self.transport.close()
        self.dead = True

    def _fault(self, what: str) -> None:
        self.faults.append(what)
        log.warning("bot at seat %d: %s", int(self.seat), what)

    def _send(self, message: dict[str, Any], *, asking: bool = False) -> bool:
        """Whether ``message`` reached the bot; the bot is dead from the first that does
        not. ``asking``: the fault is left for the answer to name (what the bot wrote
        before it went, a line or nothing, says why)."""
        if self.dead:
            return False
        if self.transport.send(message):
            return True
        if not asking:
            self._fault("crashed: the bot can no longer be reached")
        self.dead = True
        return False

    def _greet(self, view: PlayerView, *, asking: bool = False) -> bool:
        if self._greeted and view.seat == self.seat:
            return True
        self._greeted = True
        self.seat = view.seat
        return self._send(hello(self.seat, view.rules), asking=asking)

    def start(self, view: PlayerView) -> None:
        """Say hello before a hand (again if the seat changed since the last one)."""
        self._greet(view)

    def observe(self, event: Event) -> None:
        """Pass an event on to the bot, redacted for its seat."""
        if self.dead or not self._greeted:
            return
        msg = event_message(event, self.seat)
        if msg is not None:
            self._send(msg)

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        default = safe_default(view, legal)
        if self.dead:
            return default
        self._next_id += 1
        rid = self._next_id
        # a bot gone while being asked may have written why before it went: read it
        # all the same, as for a bot that goes after the request
        if self._greet(view, asking=True):
            self._send(request(rid, view, legal, int(self.timeout * 1000)), asking=True)
        return self._answer(rid, default, legal)

    def _answer(self, rid: int, default: Action, legal: Sequence[Action]) -> Action:
        deadline = time.monotonic() + self.timeout
        while True:
            line = self.transport.receive(deadline - time.monotonic())
            if line is None:
                if self.transport.closed:
                    self._fault(f"request {rid}: crashed (the bot exited)")
                    self.dead = True
                    return default
                self._late += 1
                self._fault(f"request {rid}: no answer within {self.timeout:.3g}s")
                if self._late >= MAX_TIMEOUTS:
                    self._fault(f"{self._late} late answers in a row: the bot is given up")
                    self.close()
                return default
            try:
                data = parse_reply(line)
            except BotError as exc:
                self._fault(f"request {rid}: {exc}")
                return default
            kind = data["type"]
            if kind == "hello":
                if data.get("protocol") != PROTOCOL_VERSION:
                    self._fault(f"protocol {data.get('protocol')!r} is not {PROTOCOL_VERSION}")
                    self.close()
                    return default
                continue
            if kind == "log":
                log.info("bot at seat %d says: %s", int(self.seat), data.get("text"))
                continue
            if kind != "action":
                self._fault(f"request {rid}: unexpected message type {kind!r}")
                return default
            if data.get("id") != rid:
                log.debug("bot at seat %d: stale answer %r ignored", int(self.seat),
                          data.get("id"))
                continue
            self._late = 0
            try:
                return action_of(data, legal)
            except BotError as exc:
                self._fault(f"request {rid}: {exc}")
                return default
