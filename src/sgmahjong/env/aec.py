"""The PettingZoo AEC environment: four players, one hand or a whole match, any rule set.

Agents are ``player_0`` .. ``player_3``. In a hand, ``player_i`` sits at seat ``i`` (East
first); in a match, the banker rotates and player ``p`` sits at ``(p - banker) % 4``, so
observe the ``seat_wind`` field. The agent selected is a seat that must decide: the player on
turn, or, in a claim window, each seat with a choice besides passing (in seat order; the
claims are resolved once all have answered, Win > Kong > Pong > Chow). Seats with nothing to
decide are never selected.

Rewards are the points each player wins or loses, as they happen (instant payouts, then the
settlement of a win), so an episode's rewards add up to the hand's (or match's) payments.
"""

from __future__ import annotations

import copy
import random
import secrets
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..errors import SgmahjongError
from ..game.actions import Action
from ..game.engine import Game
from ..game.legal import why_illegal
from ..game.match import Match, MatchState
from ..game.wall import KIND
from ..rules.loading import load_rules
from ..rules.model import Ruleset
from ..tiles import Seat, format_tiles
from .actions import NUM_ACTIONS, ActionError, action_index, describe, index_action
from .observation import HIGH, LOW, ORACLE_HIGH, ORACLE_LOW, encode, encode_oracle

MODES = ("hand", "match")


class EnvError(SgmahjongError):
    """An environment asked for with arguments it cannot take (the message names which)."""

AGENTS = tuple(f"player_{i}" for i in range(4))


def observation_space() -> spaces.Dict:
    """What :meth:`MahjongEnv.observe` returns: the encoded view and the action mask."""
    return spaces.Dict({
        "observation": spaces.Box(LOW, HIGH, dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
    })


def oracle_observation_space() -> spaces.Dict:
    """What :meth:`MahjongEnv.oracle_observe` returns: the encoded view followed by the
    hidden part, and the action mask."""
    return spaces.Dict({
        "observation": spaces.Box(ORACLE_LOW, ORACLE_HIGH, dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
    })


class MahjongEnv(AECEnv):  # type: ignore[misc]
    """Singapore Mahjong for four agents (PettingZoo AEC API).

    ``rules``: a preset name or a :class:`Ruleset`; ``mode``: ``"hand"`` (one hand per
    episode) or ``"match"`` (a whole match; ``quick`` plays the preset's quick game).
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "sgmahjong_v0", "render_modes": ["human", "ansi"],
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, rules: str | Ruleset = "standard", *, mode: str = "hand",
                 quick: bool = False, render_mode: str | None = None) -> None:
        super().__init__()
        # Each instance its own metadata: a wrapper that adds to it (a render mode, a name)
        # must not change it for every other environment.
        self.metadata = copy.deepcopy(type(self).metadata)
        if mode not in MODES:
            raise EnvError(f"mode {mode!r}: expected one of {', '.join(MODES)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise EnvError(f"render_mode {render_mode!r}: expected 'human' or 'ansi'")
        self.rules = load_rules(rules)
        self.mode = mode
        self.quick = quick
        if mode == "match" and quick and self.rules.match.quick_game_hands <= 0:
            raise EnvError(f"the {self.rules.name} rules have no quick game")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        obs_space, act_space = observation_space(), spaces.Discrete(NUM_ACTIONS)
        # One space object shared by all agents: seeding one seeds what every agent samples.
        self.observation_spaces = dict.fromkeys(AGENTS, obs_space)
        self.action_spaces = dict.fromkeys(AGENTS, act_space)
        self._rng: random.Random | None = None
        self.match: Match | None = None
        self.game: Game | None = None
        self._totals = [0, 0, 0, 0]
        self._seat(None)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- who sits where -------------------------------------------------------------
    def seat_of(self, agent: str) -> Seat:
        """The seat ``agent`` holds in the current hand."""
        return self._seats[agent]

    def agent_at(self, seat: Seat) -> str:
        """The agent sitting at ``seat`` in the current hand."""
        return self._agents[seat]

    def _seat(self, seating: MatchState | None) -> None:
        """Seat the players for a hand (in a match, as its state says before the hand)."""
        self._seating = seating
        self._seats = {a: Seat(p) if seating is None else seating.seat_of(p)
                       for p, a in enumerate(AGENTS)}
        self._agents = {seat: a for a, seat in self._seats.items()}

    def _points(self) -> list[int]:
        """Each player's points so far in the episode."""
        g = self.game
        assert g is not None
        hand = g.state.scores
        if self.match is None:
            return [hand[0], hand[1], hand[2], hand[3]]
        totals = self.match.state.scores
        if g.ended:   # recorded: its payments are in the match totals
            return list(totals)
        return [totals[p] + hand[self.seat_of(AGENTS[p])] for p in range(4)]

    # --- the PettingZoo API ---------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(int(seed))
        elif self._rng is None:
            self._rng = random.Random(secrets.randbits(64))
        match_seed = (options or {}).get("match_seed")
        if match_seed is not None and (self.mode != "match" or isinstance(match_seed, bool)
                                       or not isinstance(match_seed, int | np.integer)):
            raise EnvError(f"options match_seed {match_seed!r}: an integer, and only in "
                           "mode='match'")
        if self.mode == "match":
            # A given match seed deals exactly that match (a record's, to replay it).
            self.match = Match(self.rules, self._rng.getrandbits(63) if match_seed is None
                               else int(match_seed), quick=self.quick)
            self._seat(self.match.state)
            self.game = self.match.start_hand()
            self._play_on()
        else:
            self.match = None
            self._seat(None)
            # A hand that ends in the deal (Eight Flowers dealt to one seat) has nothing to
            # decide: dealt again from the next seed.
            while True:
                self.game = Game.new(self.rules, seed=self._rng.getrandbits(63))
                if not self.game.ended:
                    break
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        # Instant payouts made in the deal count in the first step's rewards.
        self._totals = [0, 0, 0, 0]
        self._select()

    def _play_on(self) -> None:
        """In a match, record each ended hand and deal the next (a hand can end in its deal).
        The match's last hand stays as ``game``, so its final table can still be observed."""
        m = self.match
        assert m is not None
        while self.game is not None and self.game.ended and m.game is not None:
            m.finish_hand()
            if not m.state.ended:
                self._seat(m.state)
                self.game = m.start_hand()

    def _select(self) -> None:
        g = self.game
        if g is None or g.ended:
            return
        self.agent_selection = self.agent_at(min(g.waiting_for()))

    def legal_actions(self, agent: str) -> list[Action]:
        """The engine's legal actions of ``agent`` now (empty when it has nothing to decide)."""
        g = self.game
        if g is None or g.ended or agent not in self.agents:
            return []
        seat = self.seat_of(agent)
        return g.legal_actions(seat) if seat in g.waiting_for() else []

    def action_mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if self.game is not None:
            offered = self.game.view(self.seat_of(agent)).window_tile
            for a in self.legal_actions(agent):
                mask[action_index(a, offered)] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        g = self.game
        assert g is not None, "reset() first"
        seat = self.seat_of(agent)
        match_scores = None
        if self.match is not None and self._seating is not None:
            # The totals before this hand: the hand's own points are in the scores field.
            st = self._seating
            match_scores = [st.scores[st.player_at(s)] for s in Seat]
        # Only a seat asked to decide sees the decision (the phase, the tile on offer): see
        # encode. Whether it is asked depends on its own tiles alone.
        asked = not g.ended and seat in g.waiting_for()
        return {"observation": encode(g.view(seat), match_scores, asked=asked),
                "action_mask": self.action_mask(agent)}

    def oracle_observe(self, agent: str) -> dict[str, np.ndarray]:
        """``observe(agent)`` with what the agent cannot see appended: every seat's concealed
        tiles, the wall's order, the table's window (see docs/env.md, "The oracle
        observation"). For oracle guiding or a centralised critic during training: never an
        acting agent's input, and never what :meth:`observe` returns."""
        g = self.game
        assert g is not None, "reset() first"
        own = self.observe(agent)
        return {"observation": encode_oracle(g.state, self.seat_of(agent), own["observation"]),
                "action_mask": own["action_mask"]}

    def step(self, action: int | np.integer | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        assert g is not None
        seat = self.seat_of(agent)
        chosen = self._engine_action(g, seat, action)
        self._cumulative_rewards[agent] = 0
        g.submit(seat, chosen)
        points = self._points_across_hands() if self.match is not None else self._points()
        self.rewards = {a: points[i] - self._totals[i] for i, a in enumerate(AGENTS)}
        self._totals = points
        self._accumulate_rewards()
        over = self.match.state.ended if self.match is not None else g.ended
        if over:
            self.terminations = dict.fromkeys(AGENTS, True)
        else:
            self._select()
        if self.render_mode == "human":
            self.render()

    def _points_across_hands(self) -> list[int]:
        """Points after a step in a match: an ended hand is recorded (its payments join the
        match totals) and the next one dealt, so the points stay continuous across hands."""
        g = self.game
        assert g is not None and self.match is not None
        if g.ended:
            self._play_on()
        return self._points()

    def _engine_action(self, g: Game, seat: Seat, action: int | np.integer | None) -> Action:
        if action is None:
            raise ActionError(f"{self.agent_selection} must act: None is only for a finished "
                              "agent")
        legal = g.legal_actions(seat)
        v = g.view(seat)
        for a in legal:
            if action_index(a, v.window_tile) == action:
                return a
        try:
            wanted = index_action(int(action), v.window_tile)
        except ActionError as e:
            raise ActionError(f"{self.agent_selection}: {e}") from None
        reason = why_illegal(v, wanted) or "not legal now"
        raise ActionError(f"{self.agent_selection} ({seat.name.title()}) may not "
                          f"{describe(int(action))}: {reason}")

    def render(self) -> str | None:
        """The table as text (every hand shown: a spectator's view, for debugging)."""
        if self.render_mode is None:
            return None
        text = self.table_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def table_text(self) -> str:
        g = self.game
        assert g is not None, "reset() first"
        st = g.state
        lines = [f"{self.rules.name}, hand {st.hand_number + 1}, round wind "
                 f"{st.round_wind.name.title()}, wall {st.wall.remaining if st.wall else 0}, "
                 f"phase {st.phase.value}"]
        for seat in Seat:
            v = g.view(seat)
            me = v.me
            melds = " ".join(f"[{m.meld.text}]" for m in me.melds)
            bonus = format_tiles(me.bonus)
            lines.append(
                f"{seat.name.title():<5} {self.agent_at(seat)}  {me.score:+d}  "
                f"{format_tiles(v.concealed)}"
                + (f"  {melds}" if melds else "") + (f"  bonus {bonus}" if bonus else "")
                + f"  discards {format_tiles(me.discards, sort=False) or '-'}")
        if st.window_tile is not None:
            lines.append(f"on offer: {KIND[st.window_tile].text}")
        if g.ended:
            lines.append("hand over: " + ", ".join(
                f"{self.agent_at(s)} {st.scores[s]:+d}" for s in Seat))
        if self.match is not None and self.match.state.ended:
            lines.append("match over: " + ", ".join(
                f"{a} {p:+d}" for a, p in zip(AGENTS, self.match.state.scores, strict=True)))
        return "\n".join(lines)

    def close(self) -> None:
        pass


def raw_env(rules: str | Ruleset = "standard", **kwargs: Any) -> MahjongEnv:
    """A new :class:`MahjongEnv`, unwrapped (the PettingZoo naming convention)."""
    return MahjongEnv(rules, **kwargs)


def env(rules: str | Ruleset = "standard", **kwargs: Any) -> wrappers.OrderEnforcingWrapper:
    """A new :class:`MahjongEnv` wrapped as PettingZoo's own environments are: ``step()``,
    ``observe()`` or ``render()`` before ``reset()`` is PettingZoo's clear error.

    Not wrapped in ``TerminateIllegalWrapper``: it would end the hand with a made-up reward
    (neither points nor zero-sum) where the environment refuses the action with the rule it
    breaks and leaves the game unchanged; nor in ``AssertOutOfBoundsWrapper``: an index
    outside the space is already refused with an :class:`ActionError` that names it. The
    attributes of :class:`MahjongEnv` (``game``, ``seat_of`` ...) read through the wrapper;
    ``.unwrapped`` is the environment itself."""
    return wrappers.OrderEnforcingWrapper(raw_env(rules, **kwargs))

__all__ = ["AGENTS", "MODES", "EnvError", "MahjongEnv", "env", "observation_space",
           "oracle_observation_space", "raw_env"]
