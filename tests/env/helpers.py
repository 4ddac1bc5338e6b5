"""Playing the environment with a seeded random masked policy."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from sgmahjong.env import MahjongEnv


def masked_random(env: MahjongEnv, seed: int,
                  each: Callable[[MahjongEnv, str], None] | None = None) -> Iterator[str]:
    """Play one episode with uniformly random legal actions; yields each agent selected
    (before it acts), calling ``each(env, agent)`` first when given."""
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if each is not None:
            each(env, agent)
        yield agent
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
