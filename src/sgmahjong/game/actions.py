"""What a seat can submit: Discard, Chow, Pong, Kong, Win, Pass (frozen, no seat inside).

Drawing, bonus exposure and replacement are automatic, so they are not actions.

>>> Action.from_json({"type": "discard", "tile": "5p"})
Discard(tile=Tile.P5)
>>> Kong(Tile.RED, "added").to_json()
{'type': 'kong', 'tile': '7z', 'kind': 'added'}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..tiles import Tile
from .codec import CODECS, Message, MessageError, register

KONG_KINDS = ("concealed", "added", "claimed")
_ACTIONS: dict[str, type[Message]] = {}


class Action(Message):
    """Base class of the actions."""

    __slots__ = ()
    REGISTRY: ClassVar[dict[str, type[Message]]] = _ACTIONS


@register(_ACTIONS, "discard")
@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Discard one tile of this kind (on one's turn)."""

    tile: Tile


@register(_ACTIONS, "chow")
@dataclass(frozen=True, slots=True)
class Chow(Action):
    """Claim the latest discard for the chow starting at ``tile`` (next player only)."""

    tile: Tile


@register(_ACTIONS, "pong")
@dataclass(frozen=True, slots=True)
class Pong(Action):
    """Claim the latest discard for a pong."""


@register(_ACTIONS, "kong")
@dataclass(frozen=True, slots=True)
class Kong(Action):
    """A kong of ``tile``: ``concealed`` or ``added`` on one's turn, ``claimed`` on a discard."""

    tile: Tile
    kind: str

    def __post_init__(self) -> None:
        if self.kind not in KONG_KINDS:
            from .codec import MessageError
            raise MessageError(f"kong kind {self.kind!r}: expected one of {', '.join(KONG_KINDS)}")


@register(_ACTIONS, "win")
@dataclass(frozen=True, slots=True)
class Win(Action):
    """Declare a win: self-drawn on one's turn, or on the tile another player offers."""


@register(_ACTIONS, "pass")
@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline every claim (or, on the final playable tile, end the hand)."""


# an action inside another message (the web table's "action" message) reads as its own JSON
CODECS["Action"] = (lambda a: a.to_json(), Action.from_json)


def _actions_in(v: object) -> tuple[Action, ...]:
    if not isinstance(v, list):
        raise MessageError(f"actions are a list of action objects, got {v!r}")
    return tuple(Action.from_json(a) for a in v)


# the legal actions of a decision (the web table's "request" message)
CODECS["tuple[Action, ...]"] = (lambda v: [a.to_json() for a in v], _actions_in)
