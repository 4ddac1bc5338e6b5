"""The oracle observation: the agent's own observation, unchanged, followed by exactly
what is hidden from it (every seat's concealed tiles, the wall's order, the table's
window); never what observe() gives."""

from __future__ import annotations

import numpy as np
import pytest

from sgmahjong.env import ORACLE_FIELDS, ORACLE_SIZE, SIZE, env, oracle_observation_space, unpack
from sgmahjong.env.observation import OFFSET
from sgmahjong.game.state import Phase
from sgmahjong.game.wall import KIND
from sgmahjong.rules import PRESETS

from .test_hidden import hidden_swapped, observe_with

PHASES = {Phase.TURN: 0, Phase.CLAIMS: 1, Phase.ROB_KONG: 2, Phase.EXPOSED: 3}


def hidden_part(e, agent: str) -> np.ndarray:  # type: ignore[no-untyped-def]
    """What the oracle adds, worked out from the engine's state directly."""
    st = e.game.state
    me = e.seat_of(agent)
    concealed = np.zeros((4, 34), np.float32)
    for s in range(4):
        for i in st.seats[s].concealed:
            if KIND[i] < 34:
                concealed[(s - me) % 4, KIND[i]] += 1
    wall = np.zeros(148, np.float32)
    left = [KIND[i] + 1 for i in st.wall.order[st.wall.front:st.wall.back]]
    wall[:len(left)] = left
    phase = np.zeros(4, np.float32)
    if st.phase in PHASES:
        phase[PHASES[st.phase]] = 1
    offered = np.zeros(46, np.float32)
    if st.window_tile is not None:
        offered[KIND[st.window_tile]] = 1
    return np.concatenate([concealed.ravel(), wall, phase, offered])


@pytest.mark.parametrize("preset", PRESETS)
def test_the_oracle_is_the_observation_plus_exactly_the_hidden_part(preset: str) -> None:
    wrapped = env(preset)
    wrapped.reset(seed=2)
    e = wrapped.unwrapped
    space = oracle_observation_space()
    rng = np.random.default_rng(2)
    hidden_differs = 0
    for _ in wrapped.agent_iter():
        for a in e.agents:
            plain = e.observe(a)
            oracle = e.oracle_observe(a)
            assert oracle["observation"].shape == (ORACLE_SIZE,)
            assert space.contains(oracle)
            # The normal observation is its first part, and is not changed by asking.
            assert np.array_equal(oracle["observation"][:SIZE], plain["observation"])
            assert np.array_equal(e.observe(a)["observation"], plain["observation"])
            assert np.array_equal(oracle["action_mask"], plain["action_mask"])
            assert np.array_equal(oracle["observation"][SIZE:], hidden_part(e, a))
            # Swapping what the agent cannot see changes the oracle's added part only.
            swapped = hidden_swapped(e.game.state, e.seat_of(a))
            assert np.array_equal(observe_with(e, a, swapped), plain["observation"])
            other = observe_with(e, a, swapped, oracle=True)
            assert np.array_equal(other[:SIZE], plain["observation"])
            hidden_differs += not np.array_equal(other[SIZE:], oracle["observation"][SIZE:])
        obs, _, terminated, truncated, _ = wrapped.last()
        wrapped.step(None if terminated or truncated
                     else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert hidden_differs > 0


def test_the_oracle_fields_read_back_by_name() -> None:
    e = env("standard")
    e.reset(seed=6)
    f = unpack(e.oracle_observe("player_2")["observation"])
    assert {x.name for x in ORACLE_FIELDS} <= set(f)
    assert f["all_concealed"].sum(axis=1).tolist() == [13, 13, 14, 13]   # East is opposite
    assert np.array_equal(f["all_concealed"][0], f["hand"])
    assert (f["wall_order"] > 0).sum() == f["wall"][0]
    assert f["table_phase"].tolist() == [1, 0, 0, 0]
    assert OFFSET["all_concealed"] == SIZE
    # The plain observation has no such fields.
    assert "all_concealed" not in unpack(e.observe("player_2")["observation"])
