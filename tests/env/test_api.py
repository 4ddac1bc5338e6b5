"""PettingZoo's own API and seed tests, for every preset (few cycles, to stay quick)."""

from __future__ import annotations

import pytest
from pettingzoo.test import api_test, seed_test

from sgmahjong.env import EnvError, env
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
