"""The engine's shortcuts give what the plain definitions give, on random games under every
preset: a view (and each seat's public part) filled in without the frozen constructor equals
the one the constructor builds (and is just as frozen), and a seat's tile counts carried
from draw to discard equal a recount."""

from __future__ import annotations

import dataclasses
import random
import sys

import pytest

from sgmahjong.game import Game, TableState, Win, apply, view
from sgmahjong.game.legal import legal_actions
from sgmahjong.game.state import Tiles
from sgmahjong.game.view import PlayerView, SeatView
from sgmahjong.game.wall import KIND
from sgmahjong.rules import PRESETS, load_rules
from sgmahjong.tiles import NUM_KINDS, Seat


def constructed_view(state: TableState, seat: Seat) -> PlayerView:
    """The view as the dataclass constructor builds it, from the same state."""
    own = state.seats[seat]
    w = state.wall
    return PlayerView(
        seat=seat, rules=state.rules, round_wind=state.round_wind,
        hand_number=state.hand_number, phase=state.phase, turn=state.turn,
        window_tile=None if state.window_tile is None else KIND[state.window_tile],
        concealed=tuple(KIND[i] for i in own.concealed),
        last_drawn=None if own.last_drawn is None else KIND[own.last_drawn],
        passed=own.passed, blocked=own.blocked, must_discard=own.must_discard,
        seats=tuple(constructed_seat(state, s) for s in Seat),
        wall_remaining=w.remaining if w else 0, live_remaining=w.live_remaining if w else 0,
        replacements_remaining=w.replacements_remaining if w else 0,
        draw_replacement=state.draw_replacement, draw_final=state.draw_final,
        discard_count=state.discard_count, sets_declared=state.sets_declared,
        seen=state.seen)


def constructed_seat(state: TableState, seat: Seat) -> SeatView:
    s = state.seats[seat]
    return SeatView(seat, s.melds, tuple(KIND[i] for i in s.bonus),
                    tuple(KIND[i] for i in s.discards), len(s.concealed), state.scores[seat])


def check(state: TableState) -> None:
    for seat in Seat:
        s = state.seats[seat]
        fresh = Tiles(s.concealed, s.melds)
        counts = [0] * NUM_KINDS
        for i in s.concealed:
            counts[KIND[i]] += 1
        assert s.tiles.kinds == fresh.kinds
        assert s.tiles.counts == counts
        assert s.tiles.waits() == fresh.waits()
        if s.size == 13:    # the hands asked about in claim windows
            held = list(counts)
            for m in s.melds:
                for t in m.meld.tiles:
                    held[t] += 1
            assert {t for t in range(34) if held[t] < 4 and s.tiles.completes(t)} == \
                fresh.waits()
        v = view(state, seat)
        ref = constructed_view(state, seat)
        assert type(v) is PlayerView
        assert v == ref
        assert repr(v) == repr(ref)
        assert legal_actions(v) == legal_actions(ref)
        with pytest.raises(dataclasses.FrozenInstanceError):
            v.seat = seat  # type: ignore[misc]
        assert all(type(sv) is SeatView for sv in v.seats)
        with pytest.raises(dataclasses.FrozenInstanceError):
            v.seats[seat].score = 0  # type: ignore[misc]


@pytest.mark.parametrize("preset", PRESETS)
def test_shortcuts_match_the_plain_definitions(preset: str) -> None:
    rules = load_rules(preset)
    for seed in range(4):
        rng = random.Random(seed)
        game = Game.new(rules, seed=seed)
        while not game.ended:
            for seat in sorted(game.waiting_for()):
                legal = game.legal_actions(seat)
                wins = [a for a in legal if isinstance(a, Win)]
                game.submit(seat, wins[0] if wins and rng.random() < 0.5 else rng.choice(legal))
            check(game.state)
        # Event by event: the counts are carried through every draw and discard.
        state = TableState.empty(rules)
        for e in game.events:
            apply(state, e)
            check(state)


def test_views_built_by_their_constructors_are_the_same(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """Where a view cannot be given its class (``_twin_works`` is false: a Python without
    class assignment), views are built by the constructors, and are the same views."""
    module = sys.modules["sgmahjong.game.view"]
    if not str(module.__file__).endswith(".py"):
        pytest.skip("compiled (sgmahjong.fast): the choice is a C constant")
    monkeypatch.setattr(module, "_TWIN", False)
    for preset in ("standard", "garden"):
        rng = random.Random(preset)
        game = Game.new(preset, seed=3)
        while not game.ended:
            for seat in sorted(game.waiting_for()):
                game.submit(seat, rng.choice(game.legal_actions(seat)))
            check(game.state)


def recording_agent(log: list[tuple[Seat, int, list[object]]], rng: random.Random):
    """A random agent that logs what it was shown, then empties the list it was given."""
    def act(v: PlayerView, legal: list) -> object:
        log.append((v.seat, v.discard_count, list(legal)))
        choice = rng.choice(legal)
        legal.clear()   # the agent's copy: the game's own list must not change
        return choice
    return act


@pytest.mark.parametrize("preset", ["standard", "garden"])
def test_ask_plays_as_the_public_methods_do(preset: str) -> None:
    """``Game.ask`` asks the same seats in the same order, shows each the same view and
    legal list (a copy), and so plays the same game."""
    rules = load_rules(preset)
    for seed in range(3):
        plain_log: list[tuple[Seat, int, list[object]]] = []
        plain = Game.new(rules, seed=seed)
        act = recording_agent(plain_log, random.Random(seed))
        while not plain.ended:
            for seat in sorted(plain.waiting_for()):
                plain.submit(seat, act(plain.view(seat), plain.legal_actions(seat)))
        fast_log: list[tuple[Seat, int, list[object]]] = []
        fast = Game.new(rules, seed=seed)
        agents = [recording_agent(fast_log, random.Random(seed))] * 4
        while not fast.ended:
            fast.ask(agents)
        assert fast.events == plain.events
        assert fast_log == plain_log
