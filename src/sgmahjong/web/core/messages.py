"""What goes into a table core and what comes out: typed commands and effects.

A :class:`~sgmahjong.web.core.table.TableCore` takes one command at a time with the time
(``handle(command, now)``) and answers with effects for its shell to carry out in order:
store these events, send this message to these sockets, ask an AI, review a hand, wake me
at this time. Sockets are named by the small integers the shell gives them, so a core can
be driven by a test as well as by a server.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...game import Action, Event, PlayerView
from ...game.codec import JSON
from ...rules.model import Ruleset
from ...tiles import Seat
from .client import ActionMessage, ClientMessage, HintsMessage, ReadyMessage
from .server import ServerMessage, wire

if TYPE_CHECKING:
    from ...agents import Agent
    from ...agents.danger import History
    from ...agents.review import Review

Inbox = tuple[str, int]
"""A relayed message's inbox row (table, seq): removed in the write of the events it makes."""


# ------------------------------------------------------------ commands


@dataclass(frozen=True)
class Attach:
    """A socket said hello: ``player`` (None: a spectator) has seen events to ``last_seen``."""

    conn: int
    player: int | None
    last_seen: int | None = None


@dataclass(frozen=True)
class Detach:
    conn: int


@dataclass(frozen=True)
class Received:
    """A message from socket ``conn`` after its hello (``inbox``: the relayed row it came
    in, removed with the events it makes)."""

    conn: int
    message: ClientMessage
    inbox: Inbox | None = None


def Act(conn: int, action: Action, id: int | None = None, seat: int | None = None,
        inbox: Inbox | None = None) -> Received:
    """A player's answer to request ``id`` (both ``id`` and ``seat`` optional, checked)."""
    return Received(conn, ActionMessage(action, id, seat), inbox)


def Ready(conn: int) -> Received:
    """A player is ready for the next hand."""
    return Received(conn, ReadyMessage())


def AskHints(conn: int) -> Received:
    return Received(conn, HintsMessage())


@dataclass(frozen=True)
class Start:
    """The creator starts the match over HTTP (a refusal is raised)."""

    player: int


@dataclass(frozen=True)
class Join:
    """A newcomer takes a chair; refused with a :class:`TableError`."""

    name: str
    token_hash: str
    player: int | None = None


@dataclass(frozen=True)
class Tick:
    """Time passed: timers that are due fire."""


@dataclass(frozen=True)
class Decided:
    """An AI's answer to :class:`Think` ``job``, and the player as it is after deciding
    (None, None: it failed; a safe default is played); ``failure`` says why the action is
    a fallback (:mod:`sgmahjong.session.decisions`), None when it is the AI's own."""

    job: int
    action: Action | None
    agent: Agent | None = None
    failure: str | None = None


@dataclass(frozen=True)
class Reviewed:
    """The review asked by :class:`ReviewHand` (None: it could not be made)."""

    hand: int
    player: int
    review: Review | None


@dataclass(frozen=True)
class Reload:
    """The stored log read back after a write failed (None: it could not be read);
    ``actor`` is the socket whose message made the events that were not stored."""

    payloads: Sequence[JSON] | None
    actor: int | None = None


@dataclass(frozen=True)
class Expire:
    """The lobby closed a table never started."""


Command = (Attach | Detach | Received | Start | Join | Tick | Decided | Reviewed | Reload
           | Expire)


# ------------------------------------------------------------ effects


@dataclass(frozen=True)
class Store:
    """Append events numbered ``first`` on. If the write fails, the effects after it are
    dropped and the shell feeds :class:`Reload` back (with ``actor``)."""

    first: int
    payloads: list[JSON]
    actor: int | None = None
    inbox: Inbox | None = None


@dataclass(frozen=True)
class SaveSeat:
    player: int
    name: str
    kind: str
    level: str
    token_hash: str | None


@dataclass(frozen=True)
class SetStatus:
    status: str


@dataclass(frozen=True)
class Send:
    """One message to each of ``conns`` (the same message: built once, as it goes on the
    wire)."""

    conns: tuple[int, ...]
    message: JSON


@dataclass(frozen=True)
class Think:
    """Ask ``agent`` (the seat's AI player, a small object: its seed and generator) for
    its action; answer with :class:`Decided` ``job`` and the agent as it is after, so a
    worker in another process plays exactly as one kept here would."""

    job: int
    agent: Agent
    view: PlayerView
    legal: tuple[Action, ...]

    @property
    def level(self) -> str:
        return str(getattr(self.agent, "name", type(self.agent).__name__.lower()))


@dataclass(frozen=True)
class ReviewHand:
    """Review ``player``'s play in hand ``hand``; answer with :class:`Reviewed`."""

    hand: int
    player: int
    events: tuple[Event, ...]
    seat: Seat
    rules: Ruleset
    notes: Mapping[int, Mapping[str, object]]   # each event's meta, by index in the hand
    names: list[str]


@dataclass(frozen=True)
class Hints:
    """Work out hints for ``view`` and send them to ``conn`` (nothing at the table changes)."""

    conn: int
    n: int
    view: PlayerView
    legal: tuple[Action, ...]
    history: History


@dataclass(frozen=True)
class NeedReload:
    """Read the stored log back and feed it as :class:`Reload`."""

    actor: int | None = None


@dataclass(frozen=True)
class WakeAt:
    """Send a :class:`Tick` at clock time ``at`` (None: no timer is needed)."""

    at: float | None


Effect = Store | SaveSeat | SetStatus | Send | Think | ReviewHand | Hints | NeedReload | WakeAt


@dataclass
class Outbox:
    """The effects of one command, in order."""

    effects: list[Effect] = field(default_factory=list)
    result: int | None = None      # what a :class:`Join` gave: the newcomer's player

    def add(self, effect: Effect) -> None:
        self.effects.append(effect)

    def send(self, conns: Sequence[int], message: ServerMessage | JSON) -> None:
        if conns:
            self.effects.append(Send(tuple(conns), wire(message)))


__all__ = ["Act", "AskHints", "Attach", "Command", "Decided", "Detach", "Effect", "Expire",
           "Hints", "Inbox", "Join", "NeedReload", "Outbox", "Ready", "Received", "Reload",
           "ReviewHand", "Reviewed", "SaveSeat", "Send", "SetStatus", "Start", "Store",
           "Think", "Tick", "WakeAt"]
