"""Play a hand or a match with agents that also watch the events (bots get them redacted)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game.engine import Game
from ..game.match import Match, MatchResult


def _act(agent: Any) -> Any:
    return agent.act if hasattr(agent, "act") else agent


def play_game(game: Game, agents: Sequence[Any]) -> Game:
    """Play ``game`` to its end, one agent per seat; agents with ``observe(event)`` see
    every event as it happens (a :class:`ProcessAgent` redacts them for its seat)."""
    for seat, agent in enumerate(agents):
        if hasattr(agent, "start"):
            agent.start(game.view(seat))  # type: ignore[arg-type]
    sent = 0
    while True:
        for agent in agents:
            if hasattr(agent, "observe"):
                for e in game.events[sent:]:
                    agent.observe(e)
        sent = len(game.events)
        if game.ended:
            return game
        for seat in sorted(game.waiting_for()):
            game.submit(seat, _act(agents[seat])(game.view(seat), game.legal_actions(seat)))


def play_match(match: Match, players: Sequence[Any]) -> MatchResult:
    """Play ``match`` to its end, one agent per player (seats follow the banker)."""
    while not match.state.ended:
        game = match.start_hand()
        seated = [players[match.state.player_at(seat)] for seat in range(4)]  # type: ignore[arg-type]
        play_game(game, seated)
        match.finish_hand()
    return match.result()
