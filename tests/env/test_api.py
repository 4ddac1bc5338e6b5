"""PettingZoo's own API and seed tests, for every preset (few cycles, to stay quick)."""

from __future__ import annotations

from typing import Any

import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from sgmahjong.env import EnvError, MahjongEnv, SingleSeatEnv, env, raw_env
from sgmahjong.rules import PRESETS, load_rules

# Expected for environments with an action mask in a Dict observation (PettingZoo's own
# classic games are on its list of exceptions).
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


@pytest.mark.parametrize("preset", PRESETS)
def test_hand_env_passes_the_pettingzoo_api_test(preset: str) -> None:
    api_test(env(preset), num_cycles=40)


@pytest.mark.parametrize("preset", PRESETS)
def test_hand_env_is_deterministic_under_a_seed(preset: str) -> None:
    seed_test(lambda: env(preset), num_cycles=40)


@pytest.mark.parametrize("preset", ["standard", "garden"])
def test_match_env_passes_the_api_and_seed_tests(preset: str) -> None:
    api_test(env(preset, mode="match", quick=preset == "garden"), num_cycles=40)
    seed_test(lambda: env(preset, mode="match"), num_cycles=40)


def test_takes_a_ruleset_as_well_as_a_preset_name() -> None:
    rules = load_rules("menqing")
    e = env(rules)
    e.reset(seed=0)
    assert e.rules is rules
    api_test(e, num_cycles=10)


def test_different_seeds_deal_different_hands() -> None:
    a, b = env(), env()
    a.reset(seed=1)
    b.reset(seed=2)
    assert (a.observe("player_0")["observation"] != b.observe("player_0")["observation"]).any()


def test_render_shows_the_table_as_text() -> None:
    e = env("standard", render_mode="ansi")
    e.reset(seed=3)
    text = e.render()
    assert isinstance(text, str)
    lines = text.splitlines()
    assert lines[0].startswith("standard, hand 1, round wind East")
    assert [line.split()[0] for line in lines[1:5]] == ["East", "South", "West", "North"]


def test_bad_arguments_are_named() -> None:
    with pytest.raises(EnvError, match="mode 'round'"):
        env(mode="round")
    with pytest.raises(EnvError, match="render_mode 'rgb_array'"):
        env(render_mode="rgb_array")


def test_env_is_wrapped_as_pettingzoos_own_environments_are() -> None:
    e = env("limit")
    assert isinstance(e, OrderEnforcingWrapper)
    assert isinstance(e.unwrapped, MahjongEnv)
    assert type(raw_env("limit")) is MahjongEnv
    e.reset(seed=5)
    # The environment's own attributes still read through the wrapper.
    assert e.rules.name == "limit" and e.game is e.unwrapped.game
    assert e.seat_of(e.agent_selection) in e.game.waiting_for()


def test_using_env_before_reset_is_pettingzoos_clear_error() -> None:
    e = env()
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before step"):
        e.step(0)
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before observe"):
        e.observe("player_0")
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        _ = e.agent_selection


@pytest.mark.parametrize("make", [env, MahjongEnv, SingleSeatEnv])
def test_metadata_belongs_to_each_instance(make: Any) -> None:
    a, b = make(), make()
    a.metadata["render_modes"].append("rgb_array")
    a.metadata["extra"] = 1
    assert b.metadata["render_modes"] == ["human", "ansi"] and "extra" not in b.metadata
    assert make().metadata == b.metadata
    cls = SingleSeatEnv if make is SingleSeatEnv else MahjongEnv
    assert cls.metadata["render_modes"] == ["human", "ansi"] and "extra" not in cls.metadata
