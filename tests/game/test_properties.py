"""Random legal games under every preset, checking after every event: each of the 148 tile
ids in exactly one place, hand sizes, zero-sum payments where players pay, no hidden tile in
any view, and that replaying the (JSON round-tripped) events gives the same state."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.game import Discard, Event, Game, Kong, Phase, TableState, Win, apply, view
from sgmahjong.game.actions import Action
from sgmahjong.rules import PRESETS, load_rules
from sgmahjong.tiles import Seat, counts34


def located_ids(state: TableState) -> list[int]:
    w = state.wall
    assert w is not None
    out = list(w.order[w.front:w.back])
    for s in state.seats:
        out.extend(s.concealed)
        out.extend(s.bonus)
        out.extend(s.discards)
        for m in s.melds:
            out.extend(m.ids)
    return out


def check_tiles(state: TableState) -> None:
    ids = located_ids(state)
    assert len(ids) == 148 and set(ids) == set(range(148))


def check_sizes(state: TableState) -> None:
    if state.dealing or state.ended:
        return
    for seat, s in zip(Seat, state.seats, strict=True):
        size = s.size + sum(1 for i in s.concealed if i >= 136)
        holder = seat == state.turn and state.phase in (Phase.TURN, Phase.EXPOSED, Phase.ROB_KONG)
        if holder and state.replacement_owed:
            size += 1
        assert size == (14 if holder else 13), (seat, state.phase, size)


def check_money(state: TableState) -> None:
    if state.rules.payments.scheme == "table":
        assert sum(state.scores) == 0
    else:
        winners = {w.seat for w in state.wins}
        assert all(state.scores[s] == 0 for s in Seat if s not in winners)


def check_views(state: TableState) -> None:
    """A view must not change when everything hidden from that seat changes."""
    for seat in Seat:
        hidden = copy.copy(state)
        hidden.public_cache = None
        hidden.seats = [s if n == seat else dataclasses.replace(s, concealed=(0,) * len(
            s.concealed), last_drawn=None, passed=frozenset()) for n, s in enumerate(state.seats)]
        assert state.wall is not None
        hidden.wall = dataclasses.replace(state.wall, order=tuple(reversed(state.wall.order)))
        assert view(hidden, seat) == view(state, seat)


def _shape_score(counts: list[int]) -> int:
    """A rough measure of how close concealed tiles are to sets: sets 3, pairs and
    two-tile runs 1 (greedy, for a test agent only)."""
    c = counts[:]
    score = 0
    for i in range(34):
        while c[i] >= 3:
            c[i] -= 3
            score += 3
        while i < 27 and i % 9 <= 6 and c[i] and c[i + 1] and c[i + 2]:
            for k in (i, i + 1, i + 2):
                c[k] -= 1
            score += 3
    for i in range(34):
        if c[i] >= 2:
            c[i] -= 2
            score += 1
        if i < 27 and i % 9 <= 7 and c[i] and c[i + 1]:
            c[i] -= 1
            c[i + 1] -= 1
            score += 1
    return score


def choose(rng: random.Random, view_: object, legal: list[Action]) -> Action:
    wins = [a for a in legal if isinstance(a, Win)]
    if wins and rng.random() < 0.9:
        return wins[0]
    kongs = [a for a in legal if isinstance(a, Kong)]
    if kongs and rng.random() < 0.5:
        return rng.choice(kongs)
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards and rng.random() < 0.9:
        concealed = list(view_.concealed)  # type: ignore[attr-defined]

        def after(a: Discard) -> int:
            rest = concealed[:]
            rest.remove(a.tile)
            return _shape_score(counts34(rest))
        best = max(after(a) for a in discards)
        return rng.choice([a for a in discards if after(a) == best])
    return rng.choice(legal)


def play_checked(preset: str, seed: int, choice_seed: int) -> Game:
    rules = load_rules(preset)
    rng = random.Random(choice_seed)
    game = Game.new(rules, seed=seed)
    live = TableState.empty(rules)      # the events as emitted
    replay = TableState.empty(rules)    # the same events through their JSON form
    done = 0

    def check_new_events() -> None:
        nonlocal done
        for e in game.events[done:]:
            apply(live, e)
            apply(replay, Event.from_json(e.to_json()))
            assert replay == live
            check_tiles(live)
            check_sizes(live)
            check_money(live)
        done = len(game.events)
        assert live == game.state

    check_new_events()
    check_views(game.state)
    steps = 0
    while not game.ended:
        for seat in sorted(game.waiting_for()):
            game.submit(seat, choose(rng, game.view(seat), game.legal_actions(seat)))
        check_new_events()
        if steps % 7 == 0:
            check_views(game.state)
        steps += 1
        assert steps < 1000
    assert Game.replay(rules, game.events).state == game.state
    return game


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), choice_seed=st.integers(0, 2**32))
def test_random_games_keep_every_invariant(preset: str, seed: int, choice_seed: int) -> None:
    play_checked(preset, seed, choice_seed)
