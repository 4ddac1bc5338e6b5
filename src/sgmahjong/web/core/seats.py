"""A table's chairs and its settings, as the core holds them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypedDict

from ...game.codec import JSON

if TYPE_CHECKING:
    from ...agents import Agent


class SeatRow(Protocol):
    """A stored seat (the store's row, or anything shaped like it)."""

    player: int
    name: str
    kind: str
    level: str
    token_hash: str | None


class TableRow(Protocol):
    """A stored table (the store's row, or anything shaped like it)."""

    id: str
    status: str
    rules: JSON
    preset: str
    quick: bool
    seed: int
    hints: bool
    options: JSON

    @property
    def seats(self) -> Sequence[SeatRow]: ...


class TableChoices(TypedDict, total=False):
    """What the creator chose beyond the rules, stored with the table (the lobby writes
    it: a stored row's ``options``)."""

    ai: list[str]       # the AI level of each of chairs 1-3
    standin: str        # the level that plays for an away human
    ladder: str         # the ladder rung, at a ladder table


@dataclass(frozen=True)
class Timing:
    """A table's timers, in seconds (0: none)."""

    ai_delay: float = 0.6                # pause after each AI move, so people can follow
    disconnect_grace: float = 30.0       # a disconnected player's turns go to the AI after
    next_hand_delay: float = 30.0        # the longest wait for "ready" between hands
    claim_window: float = 10.0           # a human's claim offer is passed after
    turn_limit: float = 60.0             # the stand-in plays a human's turn after
    # who is connected (sockets coming and going) is told to the table at most once in
    # this long: 200 spectators arriving together make one broadcast, not 200
    presence_interval: float = 1.0


@dataclass(eq=False)
class Slot:
    """A match player's chair: who sits there and the sockets (by number) they hold."""

    player: int
    name: str
    kind: str                    # open, human, ai
    level: str                   # the AI level (for a human: the stand-in's)
    token_hash: str | None = None
    conns: set[int] = field(default_factory=set)
    away_since: float | None = None     # clock time its last socket closed
    ready: bool = False
    request: tuple[int, int] | None = None   # (request id, event number) sent
    # clock time the open decision was first sent: kept while the same decision is
    # re-sent (a new event number, a reconnect), so neither restarts its clock
    asked_at: float | None = None
    newcomer: bool = False       # took over an AI seat and has not connected yet
    # the seat's AI player (for a human: the stand-in), made at its first decision and
    # kept: its generator goes on from decision to decision as in the terminal game
    agent: Agent | None = None
    human_from: int = 0          # the first hand (index) a person played in this chair

    def forget_request(self) -> None:
        self.request = None
        self.asked_at = None


__all__ = ["SeatRow", "Slot", "TableRow", "Timing"]
