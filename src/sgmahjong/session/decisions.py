"""An AI player's decision, kept from stopping the table when the player fails.

An AI that raises, or answers with an action that is not legal, must not end the game:
the table plays a legal action chosen predictably instead (pass on a claim offer; on its
turn, throw the tile just drawn) and says so once to the people at the table.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..agents import Agent
from ..agents.evaluation import safe_default
from ..game import Action, PlayerView

log = logging.getLogger("sgmahjong.session")


@dataclass(frozen=True)
class Decision:
    """The action a seat plays; ``failure`` says why it is the fallback (None: it is the
    AI's own)."""

    action: Action
    failure: str | None = None


def fallback(view: PlayerView, legal: Sequence[Action]) -> Action:
    """The action played for an AI that failed: the same for the same view and choices."""
    return safe_default(view, legal)


def checked(view: PlayerView, legal: Sequence[Action], action: Action | None,
            failure: str | None = None) -> Decision:
    """An answer got elsewhere (a worker) made safe: the fallback when there is none
    (``failure`` says why) or when it is not among ``legal``."""
    if action is None:
        return Decision(fallback(view, legal), failure or "it gave no answer")
    if action not in legal:
        return Decision(fallback(view, legal), f"it chose an illegal action ({action})")
    return Decision(action, failure)


def decide(agent: Agent, view: PlayerView, legal: Sequence[Action]) -> Decision:
    """``agent``'s action for ``view``, or the fallback when it raises or answers with an
    action that is not legal (the error is logged with its traceback)."""
    try:
        action = agent.act(view, list(legal))
    except Exception as exc:   # any fault of the AI's: the table plays on without it
        log.warning("an AI player (%s) failed; a safe action is played",
                    type(agent).__name__, exc_info=True)
        return Decision(fallback(view, legal), f"{type(exc).__name__}: {exc}")
    decision = checked(view, legal, action)
    if decision.failure is not None:
        log.warning("an AI player (%s): %s", type(agent).__name__, decision.failure)
    return decision


def failure_notice(name: str) -> str:
    """What the people at the table are told when ``name``'s AI first fails."""
    return (f"{name}'s AI ran into a problem, so a safe move was played for it; "
            "the game goes on.")


@dataclass
class FailureNotices:
    """The failing AI seats the table has told its people about: each once a match."""

    told: set[int] = field(default_factory=set)

    def first(self, player: int) -> bool:
        """Whether ``player``'s failure is news (and from now on, it is not)."""
        if player in self.told:
            return False
        self.told.add(player)
        return True


__all__ = ["Decision", "FailureNotices", "checked", "decide", "failure_notice", "fallback"]
