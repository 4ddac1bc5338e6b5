"""The Gymnasium one-seat environment."""

from __future__ import annotations

from collections.abc import Sequence

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from sgmahjong.agents import UnknownAgent
from sgmahjong.env import SINGLE_SEAT_ID, EnvError, SingleSeatEnv
from sgmahjong.env.actions import PONG, ActionError
from sgmahjong.game.actions import Action, Discard, Pass, Win
from sgmahjong.game.view import PlayerView


def tsumogiri(view: PlayerView, legal: Sequence[Action]) -> Action:
    """Wins when it can, passes every claim, else discards the tile just drawn."""
    for a in legal:
        if isinstance(a, Win | Pass):
            return a
    return next((a for a in legal if isinstance(a, Discard) and a.tile == view.last_drawn),
                legal[0])


@pytest.mark.parametrize("opponents", ["greedy", "owl"])
def test_passes_gymnasiums_env_checker(opponents: str) -> None:
    check_env(SingleSeatEnv("standard", opponents, player=2), skip_render_check=True)


def test_registered_with_gymnasium_and_renders_in_both_modes(capsys: pytest.CaptureFixture
                                                             ) -> None:
    made = gymnasium.make(SINGLE_SEAT_ID, rules="limit", opponents="greedy", player=1,
                          render_mode="ansi")
    check_env(made.unwrapped)         # with a spec, the checker renders every mode
    assert capsys.readouterr().out.startswith("limit, hand 1, round wind East")


def play(env: SingleSeatEnv, seed: int) -> tuple[float, int, bool]:
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated and "illegal_action" not in info
        total += reward
        steps += 1
    return total, steps, done


@pytest.mark.parametrize("opponents", ["owl", ["snail", "fox", tsumogiri]])
def test_a_random_masked_policy_finishes_its_episodes(opponents: object) -> None:
    env = SingleSeatEnv("standard", opponents, player=1)
    for seed in range(3):
        total, steps, done = play(env, seed)
        assert done and steps > 0
        game = env.aec.game
        assert game is not None and game.ended
        assert total == game.state.scores[env.aec.seat_of("player_1")]


def test_a_match_episode_sums_to_the_players_match_score() -> None:
    env = SingleSeatEnv("garden", "greedy", player=3, mode="match", quick=True)
    total, _, done = play(env, 7)
    assert done and env.aec.match is not None
    assert total == env.aec.match.state.scores[3]


def test_same_seed_same_episode() -> None:
    a = SingleSeatEnv("standard", "fox")
    b = SingleSeatEnv("standard", "fox")
    assert play(a, 5) == play(b, 5)
    assert [type(e) for e in a.aec.game.events] == [type(e) for e in b.aec.game.events]


def test_an_illegal_action_falls_back_or_raises() -> None:
    env = SingleSeatEnv("standard", "greedy", player=0)
    obs, _ = env.reset(seed=1)
    assert obs["action_mask"][PONG] == 0          # East on turn: no discard to pong
    _, _, _, _, info = env.step(PONG)
    assert info["illegal_action"] is True
    strict = SingleSeatEnv("standard", "greedy", player=0, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(ActionError, match="may not pong"):
        strict.step(PONG)


def test_unknown_opponents_and_players_are_named() -> None:
    with pytest.raises(UnknownAgent, match="unknown player 'eagle'"):
        SingleSeatEnv("standard", "eagle")
    with pytest.raises(EnvError, match="expected one opponent or three, got 2"):
        SingleSeatEnv("standard", ["owl", "fox"])
    with pytest.raises(EnvError, match="player 4"):
        SingleSeatEnv("standard", player=4)
