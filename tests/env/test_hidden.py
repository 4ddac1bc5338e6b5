"""An agent's observation never depends on what it cannot see, asked or not.

The engine opens a claim window only when some seat can use the tile, so a window being
open says something about the other seats' concealed tiles. An agent that is not asked
must therefore see nothing of it (the discard itself is public, in the discards fields).
Every agent is observed at every step of seeded games under every preset and compared
with (1) an observation built only from public information and its own hand, and (2) its
observation when the other seats' concealed tiles are swapped with tiles of the wall and
the wall's order is reversed (so that other seats may or may not be able to claim)."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
import pytest

from sgmahjong.env import MahjongEnv, encode, env, unpack
from sgmahjong.game.legal import legal_actions, must_act
from sgmahjong.game.state import Phase, TableState
from sgmahjong.game.view import view
from sgmahjong.rules import PRESETS
from sgmahjong.tiles import Seat

WINDOWS = (Phase.CLAIMS, Phase.ROB_KONG, Phase.EXPOSED)


def hidden_swapped(state: TableState, seat: Seat) -> TableState:
    """``state`` with what ``seat`` cannot see changed as far as the wall allows: each other
    seat's concealed tiles swapped with playable tiles still in the wall (its last draw
    following its tile), their passed claims forgotten, and the rest of the wall reversed."""
    w = state.wall
    assert w is not None
    order = list(w.order)
    spare = [i for i in range(w.front, w.back) if order[i] < 136]   # no bonus tile in a hand
    seats = list(state.seats)
    for n, s in enumerate(state.seats):
        if n == seat:
            continue
        held = list(s.concealed)
        moved: dict[int, int] = {}
        for k in range(len(held)):
            if not spare:
                break
            at = spare.pop()
            moved[held[k]] = order[at]
            held[k], order[at] = order[at], held[k]
        drawn = s.last_drawn if s.last_drawn is None else moved.get(s.last_drawn, s.last_drawn)
        seats[n] = dataclasses.replace(s, concealed=tuple(held), last_drawn=drawn,
                                       passed=frozenset())
    order[w.front:w.back] = reversed(order[w.front:w.back])
    return dataclasses.replace(state, seats=seats, public_cache=None,
                               wall=dataclasses.replace(w, order=tuple(order)))


def public_reference(e: MahjongEnv, agent: str, answered: set[str]) -> np.ndarray:
    """The observation built from public information and the agent's own hand only: the
    seat's view (which holds nothing else: tests/env/test_observation.py), with the
    decision fields only when the seat's own legal actions give it a choice and it has not
    answered yet."""
    assert e.game is not None
    seat = e.seat_of(agent)
    v = view(e.game.state, seat)
    obs = encode(v).copy()
    if e.game.ended or agent in answered or not must_act(legal_actions(v)):
        fields = unpack(obs)
        fields["phase"][:] = 0
        fields["offered"][:] = 0
    return obs


def observe_with(e: MahjongEnv, agent: str, state: TableState, *,
                 oracle: bool = False) -> np.ndarray:
    """``e.observe(agent)`` (or ``e.oracle_observe``) were the game's state ``state`` (its
    decisions worked out afresh from it)."""
    real = e.game
    assert real is not None
    fake = copy.copy(real)
    fake.state = state
    fake._decisions = None
    e.game = fake
    try:
        return (e.oracle_observe if oracle else e.observe)(agent)["observation"]
    finally:
        e.game = real


def play_observing(preset: str, seed: int) -> tuple[int, int]:
    """One seeded hand with random masked actions, every agent observed and checked at
    every step. Returns how often an agent not asked was observed in an open window, and
    how often the swap changed who is asked (so that both checks had something to see)."""
    wrapped = env(preset)
    wrapped.reset(seed=seed)
    e = wrapped.unwrapped
    rng = np.random.default_rng(seed)
    answered: set[str] = set()
    events = -1
    unasked_in_window = swaps_that_matter = 0
    for agent in wrapped.agent_iter():
        g = e.game
        if len(g.events) != events:      # something happened: a new decision
            answered = set()
            events = len(g.events)
        waiting = g.waiting_for()
        for a in e.agents:
            seat = e.seat_of(a)
            obs = e.observe(a)["observation"]
            assert np.array_equal(obs, public_reference(e, a, answered)), (a, g.state.phase)
            swapped = hidden_swapped(g.state, seat)
            assert np.array_equal(obs, observe_with(e, a, swapped)), (a, g.state.phase)
            if g.state.phase in WINDOWS and seat not in waiting:
                unasked_in_window += 1
            fake = copy.copy(g)
            fake.state, fake._decisions = swapped, None
            swaps_that_matter += fake.waiting_for() != waiting
        obs, _, terminated, truncated, _ = wrapped.last()
        if terminated or truncated:
            wrapped.step(None)
            continue
        wrapped.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        answered.add(agent)
    return unasked_in_window, swaps_that_matter


@pytest.mark.parametrize("preset", PRESETS)
def test_no_agent_sees_anything_that_depends_on_hidden_tiles(preset: str) -> None:
    unasked = swapped = 0
    for seed in range(2):
        u, s = play_observing(preset, seed)
        unasked += u
        swapped += s
    assert unasked > 0 and swapped > 0


def test_an_agent_not_asked_sees_the_discard_but_not_the_window() -> None:
    """The issue's case: seed 0, first legal action, a claim window that player_2 alone is
    asked about: player_0 sees the discard on the table, not the tile on offer."""
    e = env("standard")
    e.reset(seed=0)
    for _ in range(200):
        g = e.game
        if g.state.phase is Phase.CLAIMS and e.seat_of("player_0") not in g.waiting_for():
            break
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    else:
        pytest.fail("no claim window without player_0 in the first 200 steps")
    offered = g.view(Seat.EAST).window_tile
    f = unpack(e.observe("player_0")["observation"])
    asker = unpack(e.observe(e.agent_selection)["observation"])
    assert not f["offered"].any() and not f["phase"].any()
    assert asker["offered"][offered] == 1 and asker["phase"].tolist() == [0, 1, 0, 0]
    giver = (g.state.turn - Seat.EAST) % 4
    assert f["turn"][giver] == 1
    n = int(f["discard_counts"][giver])
    assert f["discards"][giver][min(n, f["discards"].shape[1]) - 1] == offered + 1
