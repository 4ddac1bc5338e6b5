"""Players that see only a :class:`PlayerView` and the legal actions: a registry by name.

>>> from sgmahjong.game import Game
>>> g = Game.new("standard", seed=7)
>>> seat = next(iter(g.pending()))
>>> agent = make_agent("greedy", seed=1)
>>> agent.act(g.view(seat), g.legal_actions(seat)) in g.legal_actions(seat)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from ..errors import SgmahjongError
from ..game.actions import Action
from ..game.view import PlayerView
from ..inputs import did_you_mean


@runtime_checkable
class Agent(Protocol):
    """A player: given its view and its legal actions (never empty), picks one of them."""

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action: ...


AgentFactory = Callable[[int], Agent]


class UnknownAgent(SgmahjongError):
    """A player name that is not in the registry."""


_REGISTRY: dict[str, AgentFactory] = {}


def register_agent(name: str, factory: AgentFactory) -> None:
    """Make ``factory(seed)`` available as ``make_agent(name, seed)``."""
    _REGISTRY[name] = factory


def agent_names() -> list[str]:
    """The registered player names, sorted."""
    return sorted(_REGISTRY)


def player_names() -> list[str]:
    """The players to offer: the five levels weakest first, then the other registered names."""
    from .levels import LEVELS

    return [*LEVELS, *(n for n in agent_names() if n not in LEVELS)]


def make_agent(name: str, seed: int = 0) -> Agent:
    """A new player by registry name; ``seed`` makes any randomness it uses reproducible."""
    factory = _REGISTRY.get(name)
    if factory is None:
        raise UnknownAgent(f"unknown player {name!r}{did_you_mean(name, agent_names())}; "
                           f"known players: {', '.join(agent_names())}")
    return factory(seed)


from .baseline import GreedyAgent, RandomAgent  # noqa: E402
from .levels import LEVELS  # noqa: E402

register_agent("random", RandomAgent)
register_agent("greedy", GreedyAgent)
for _name, _factory in LEVELS.items():
    register_agent(_name, _factory)

__all__ = ["Agent", "AgentFactory", "GreedyAgent", "RandomAgent", "UnknownAgent",
           "agent_names", "make_agent", "player_names", "register_agent"]
