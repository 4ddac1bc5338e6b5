"""A Gymnasium environment: one player against three chosen opponents.

Opponents are named like ``sgmahjong simulate`` players (``"owl"``, ``"fox"``,
``"hedgehog"``, ``"rabbit"``, ``"snail"``, ``"greedy"``, ``"random"``), or given as any
callable ``f(view, legal) -> Action`` (or an object with such an ``act`` method). Named
opponents are built afresh at every ``reset``, seeded from the episode's seed.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from ..agents import Agent, make_agent
from ..game.actions import Action, Discard, Pass
from ..game.view import PlayerView
from ..rules.model import Ruleset
from .actions import ActionError, action_index
from .aec import AGENTS, EnvError, MahjongEnv, observation_space

Opponent = str | Callable[[PlayerView, list[Action]], Action] | Agent
ILLEGAL = ("fallback", "raise")


class SingleSeatEnv(gym.Env):  # type: ignore[misc]
    """Player ``player`` (0-3; in a hand, its seat: 0 is East) against ``opponents``.

    ``opponents``: one opponent for all three, or three (for the other players in order).
    An action the mask forbids raises :class:`~.actions.ActionError` with ``illegal="raise"``;
    with ``"fallback"`` (the default) a legal action is played instead (pass, else discard
    the tile just drawn, else the engine's first legal action) and the step's info has
    ``illegal_action`` set.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(self, rules: str | Ruleset = "standard",
                 opponents: Opponent | Sequence[Opponent] = "owl", *, player: int = 0,
                 mode: str = "hand", quick: bool = False, illegal: str = "fallback",
                 render_mode: str | None = None) -> None:
        # Each instance its own metadata (a wrapper adding to it changes this one only).
        self.metadata = copy.deepcopy(type(self).metadata)
        if player not in range(4):
            raise EnvError(f"player {player!r}: expected 0-3")
        if illegal not in ILLEGAL:
            raise EnvError(f"illegal {illegal!r}: expected one of {', '.join(ILLEGAL)}")
        self.aec = MahjongEnv(rules, mode=mode, quick=quick, render_mode=None)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise EnvError(f"render_mode {render_mode!r}: expected 'human' or 'ansi'")
        self.render_mode = render_mode
        self.agent = AGENTS[player]
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            opponents = [opponents] * 3
        if len(opponents) != 3:
            raise EnvError(f"expected one opponent or three, got {len(opponents)}")
        for o in opponents:
            if isinstance(o, str):
                make_agent(o)   # an unknown name fails here, not at the first reset
        self._specs = list(opponents)
        self._others = [a for a in AGENTS if a != self.agent]
        self._opponents: dict[str, Callable[[PlayerView, list[Action]], Action]] = {}
        self.illegal = illegal
        self.observation_space = observation_space()
        self.action_space = gym.spaces.Discrete(self.aec.action_space(self.agent).n)
        self._carry = 0.0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=int(self.np_random.integers(2**63)))
        self._opponents = {}
        for name, spec in zip(self._others, self._specs, strict=True):
            if isinstance(spec, str):
                self._opponents[name] = make_agent(spec, int(self.np_random.integers(2**63))).act
            elif callable(getattr(spec, "act", None)):
                self._opponents[name] = spec.act
            else:
                self._opponents[name] = spec
        self._carry = 0.0
        self._play_opponents()
        # Points that came before this player's first decision (instant payouts in the
        # deal, opponents' kongs) are paid in the first step's reward.
        self._carry = float(self.aec._cumulative_rewards[self.agent])
        return self.aec.observe(self.agent), {}

    def _play_opponents(self) -> None:
        aec = self.aec
        while not aec.terminations[aec.agent_selection] and aec.agent_selection != self.agent:
            who = aec.agent_selection
            seat = aec.seat_of(who)
            assert aec.game is not None
            view = aec.game.view(seat)
            legal = aec.legal_actions(who)
            aec.step(action_index(self._opponents[who](view, legal), view.window_tile))

    def step(self, action: int | np.integer) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                                       dict[str, Any]]:
        aec = self.aec
        if aec.terminations[self.agent]:
            raise ActionError("the episode is over: call reset()")
        info: dict[str, Any] = {}
        mask = aec.action_mask(self.agent)
        a = int(action)
        if not (0 <= a < len(mask) and mask[a]):
            if self.illegal == "raise":
                aec.step(a)   # raises, naming the rule the action breaks
            a = self._fallback()
            info["illegal_action"] = True
        aec.step(a)
        self._play_opponents()
        reward = float(aec._cumulative_rewards[self.agent]) + self._carry
        self._carry = 0.0
        terminated = aec.terminations[self.agent]
        if self.render_mode == "human":
            self.render()
        return aec.observe(self.agent), reward, terminated, False, info

    def _fallback(self) -> int:
        aec = self.aec
        legal = aec.legal_actions(self.agent)
        assert aec.game is not None
        view = aec.game.view(aec.seat_of(self.agent))
        choice = next((x for x in legal if isinstance(x, Pass)), None)
        if choice is None and view.last_drawn is not None:
            choice = next((x for x in legal if isinstance(x, Discard)
                           and x.tile == view.last_drawn), None)
        return action_index(choice or legal[0], view.window_tile)

    def render(self) -> str | None:
        """The table as text (every hand shown: a spectator's view)."""
        if self.render_mode is None:
            return None
        text = self.aec.table_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.aec.close()


__all__ = ["SingleSeatEnv"]
