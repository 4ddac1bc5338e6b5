"""The action mask is exactly the engine's legal actions, and indices map both ways."""

from __future__ import annotations

import numpy as np
import pytest

from sgmahjong.env import MahjongEnv, action_index, env, index_action
from sgmahjong.env.actions import (
    ADDED_KONG,
    CHOW_HIGH,
    CHOW_LOW,
    CHOW_MID,
    CLAIMED_KONG,
    CONCEALED_KONG,
    NUM_ACTIONS,
    PASS,
    PONG,
    WIN,
    ActionError,
    describe,
)
from sgmahjong.game.actions import Chow, Discard, Kong, Pass, Pong, Win
from sgmahjong.rules import PRESETS
from sgmahjong.tiles import Tile

from .helpers import masked_random

SEEN: set[str] = set()


def check_mask(e: MahjongEnv, agent: str) -> None:
    assert e.game is not None
    seat = e.seat_of(agent)
    legal = e.game.legal_actions(seat)
    offered = e.game.view(seat).window_tile
    mask = e.observe(agent)["action_mask"]
    assert mask.dtype == np.int8
    indices = {action_index(a, offered) for a in legal}
    assert set(np.flatnonzero(mask)) == indices
    assert len(indices) == len(legal)               # no two legal actions share an index
    for i in indices:
        a = index_action(i, offered)
        assert a in legal and action_index(a, offered) == i
        SEEN.add(type(a).__name__)


@pytest.mark.parametrize("preset", PRESETS)
def test_mask_is_the_engines_legal_actions_over_random_games(preset: str) -> None:
    for seed in range(6):
        e = env(preset)
        e.reset(seed=seed)
        for _ in masked_random(e, seed, check_mask):
            pass


def test_random_games_reach_every_kind_of_decision() -> None:
    for seed in range(30):
        e = env("standard")
        e.reset(seed=100 + seed)
        for _ in masked_random(e, seed, check_mask):
            pass
    assert {"Discard", "Chow", "Pong", "Pass"} <= SEEN


def test_indices_of_each_action_kind() -> None:
    five_p = Tile.P5
    assert action_index(Discard(Tile.M1)) == 0
    assert action_index(Discard(Tile.RED)) == 33
    assert action_index(Chow(Tile.P5), five_p) == CHOW_LOW == 34     # 5p 6p 7p
    assert action_index(Chow(Tile.P4), five_p) == CHOW_MID == 35     # 4p 5p 6p
    assert action_index(Chow(Tile.P3), five_p) == CHOW_HIGH == 36    # 3p 4p 5p
    assert action_index(Pong()) == PONG
    assert action_index(Kong(five_p, "claimed"), five_p) == CLAIMED_KONG
    assert action_index(Kong(Tile.M1, "concealed")) == CONCEALED_KONG
    assert action_index(Kong(Tile.RED, "added")) == ADDED_KONG + 33
    assert action_index(Win()) == WIN
    assert action_index(Pass()) == PASS == NUM_ACTIONS - 1
    assert index_action(CHOW_HIGH, five_p) == Chow(Tile.P3)
    assert describe(CHOW_MID) == "chow mid"
    assert describe(ADDED_KONG + 33) == "added kong 7z"


def test_impossible_indices_are_named() -> None:
    with pytest.raises(ActionError, match="no chow holds 1m"):
        index_action(CHOW_HIGH, Tile.M1)           # nothing runs below 1m
    with pytest.raises(ActionError, match="no chow holds 7z"):
        index_action(CHOW_LOW, Tile.RED)           # honours make no chow
    with pytest.raises(ActionError, match="none is on offer"):
        index_action(PONG - 1, None)
    with pytest.raises(ActionError, match="expected 0-108"):
        index_action(NUM_ACTIONS)


def test_a_masked_out_action_is_refused_with_the_rule_and_changes_nothing() -> None:
    e = env()
    e.reset(seed=2)
    agent = e.agent_selection
    before = list(e.game.events)
    with pytest.raises(ActionError, match=r"may not pong: .*no other player's discard"):
        e.step(PONG)                               # East on turn: nothing to pong
    assert e.game.events == before and e.agent_selection == agent
