"""The environments survive pickle and deepcopy, after reset and in mid-game, and a copy
steps exactly as its original (vector environments in subprocesses, search over copies and
checkpoints need it)."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from sgmahjong.env import MahjongEnv, SingleSeatEnv, env

COPIES: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda x: pickle.loads(pickle.dumps(x)),
    "deepcopy": copy.deepcopy,
}


def _same_last(a: Any, b: Any) -> None:
    obs_a, rew_a, term_a, trunc_a, info_a = a.last()
    obs_b, rew_b, term_b, trunc_b, info_b = b.last()
    assert a.agent_selection == b.agent_selection
    assert np.array_equal(obs_a["observation"], obs_b["observation"])
    assert np.array_equal(obs_a["action_mask"], obs_b["action_mask"])
    assert (rew_a, term_a, trunc_a, info_a) == (rew_b, term_b, trunc_b, info_b)


def _play_both(a: Any, b: Any, seed: int) -> int:
    """Steps both with the same random masked actions until the episode ends, checking at
    every step that they agree (every agent's observation, rewards, terminations)."""
    rng = np.random.default_rng(seed)
    steps = 0
    for _ in a.agent_iter():
        _same_last(a, b)
        for agent in a.agents:
            assert np.array_equal(a.observe(agent)["observation"],
                                  b.observe(agent)["observation"])
        assert a.rewards == b.rewards and a.terminations == b.terminations
        _, _, terminated, truncated, _ = a.last()
        action = (None if terminated or truncated
                  else int(rng.choice(np.flatnonzero(a.last()[0]["action_mask"]))))
        a.step(action)
        b.step(action)
        steps += 1
    assert not b.agents
    return steps


MAKERS: dict[str, Callable[[], Any]] = {
    "env": lambda: env("standard"),
    "raw": lambda: MahjongEnv("standard"),
    "match": lambda: env("garden", mode="match", quick=True),
}


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("maker", MAKERS)
@pytest.mark.parametrize("moves", [0, 25])
def test_a_copied_aec_env_steps_like_its_original(maker: str, how: str, moves: int) -> None:
    e = MAKERS[maker]()
    e.reset(seed=3)
    rng = np.random.default_rng(9)
    for _ in range(moves):
        e.step(int(rng.choice(np.flatnonzero(e.last()[0]["action_mask"]))))
    twin = COPIES[how](e)
    assert _play_both(e, twin, seed=11) > 0
    # And the next episode, reset without a seed, is the same too.
    e.reset()
    twin.reset()
    _play_both(e, twin, seed=12)


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("moves", [0, 6])
def test_a_copied_single_seat_env_steps_like_its_original(how: str, moves: int) -> None:
    e = SingleSeatEnv("standard", opponents=["owl", "fox", "random"], player=1)
    obs, _ = e.reset(seed=4)
    rng = np.random.default_rng(5)
    for _ in range(moves):
        obs, _, terminated, _, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not terminated
    twin = COPIES[how](e)
    terminated = False
    while not terminated:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = e.step(action)
        obs2, reward2, terminated2, truncated2, info2 = twin.step(action)
        assert np.array_equal(obs["observation"], obs2["observation"])
        assert np.array_equal(obs["action_mask"], obs2["action_mask"])
        assert (reward, terminated, truncated, info) == (reward2, terminated2, truncated2, info2)
    assert twin.aec.game.events == e.aec.game.events
