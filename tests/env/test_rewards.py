"""Rewards are the points paid: they add up to the engine's payments, zero-sum where the
preset's losers pay the winner."""

from __future__ import annotations

import numpy as np
import pytest

from sgmahjong.agents import make_agent
from sgmahjong.env import action_index, env, unpack
from sgmahjong.game.engine import Game
from sgmahjong.game.events import InstantPayout, Settled
from sgmahjong.rules import PRESETS
from sgmahjong.tiles import Seat

# RULES.md, "what a win pays": losers pay the winner under these; garden pays the winner's
# points to nobody's cost, casual scores the winner one point.
PAYING = ("standard", "limit", "automatic", "menqing")


def test_presets_that_pay_are_those_with_a_payment_table() -> None:
    from sgmahjong.rules import load_rules
    assert {p for p in PRESETS if load_rules(p).payments.scheme == "table"} == set(PAYING)


def play_hand(preset: str, seed: int) -> tuple[dict[str, float], list[dict[str, float]], Game]:
    """A hand of greedy players: the total rewards, each step's rewards, the game."""
    e = env(preset)
    e.reset(seed=seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    steps: list[dict[str, float]] = []
    greedy = make_agent("greedy", seed)     # wins when it can, so hands get settled
    while not any(e.terminations.values()):
        seat = e.seat_of(e.agent_selection)
        v = e.game.view(seat)
        e.step(action_index(greedy.act(v, e.game.legal_actions(seat)), v.window_tile))
        steps.append(dict(e.rewards))
        for a, r in e.rewards.items():
            total[a] += r
    assert e.game is not None
    return total, steps, e.game


@pytest.mark.parametrize("preset", PRESETS)
def test_episode_rewards_equal_the_engines_payments(preset: str) -> None:
    wins = 0
    for seed in range(8):
        total, steps, game = play_hand(preset, seed)
        paid = [0, 0, 0, 0]
        for ev in game.events:
            if isinstance(ev, (InstantPayout, Settled)):
                for s in Seat:
                    paid[s] += ev.deltas[s]
        assert [total[f"player_{s}"] for s in range(4)] == paid
        wins += bool(game.outcome().wins)
        if preset in PAYING:
            assert all(sum(step.values()) == 0 for step in steps)
    assert wins > 0        # some of these random hands are won, so a settlement is checked


def test_match_rewards_add_up_to_the_match_scores() -> None:
    e = env("standard", mode="match")
    e.reset(seed=9)
    total = dict.fromkeys(e.possible_agents, 0)
    rng = np.random.default_rng(9)
    while not any(e.terminations.values()):
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert sum(e.rewards.values()) == 0
        for a, r in e.rewards.items():
            total[a] += r
    assert e.match is not None and e.match.state.ended
    assert len(e.match.hands) >= 4       # a full match: every seat dealt at least once
    assert [total[f"player_{p}"] for p in range(4)] == list(e.match.state.scores)
    # the last hand's final table stays observable, with the totals from before that hand
    last = e.match.hands[-1]
    fields = unpack(e.observe("player_0")["observation"])
    seat = e.seat_of("player_0")
    before = [e.match.state.scores[p] - last.deltas[p] for p in range(4)]
    assert fields["match_scores"][0] == before[0]
    assert fields["seat_wind"][seat] == 1
