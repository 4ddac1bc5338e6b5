"""The evaluation in expected points: what a win pays comes from the table's rules, the
figures read nothing hidden, and the fitted win chance is calibrated on seeded hands."""

from __future__ import annotations

import dataclasses
import math

from test_levels import N, W, view_of  # tests/agents is on sys.path (rootdir layout)

from sgmahjong.agents import make_agent
from sgmahjong.agents.danger import read_threats
from sgmahjong.agents.evaluation import discard_options, situation
from sgmahjong.agents.expected import (
    DEEP,
    WIN_FEATURES,
    evaluate_discards,
    hand_inputs,
    load_points_model,
    win_payments,
)
from sgmahjong.game import Game
from sgmahjong.game.actions import Discard
from sgmahjong.game.prng import derive_seed
from sgmahjong.game.state import Phase
from sgmahjong.game.view import view as view_from_state
from sgmahjong.rules.loading import load_rules
from sgmahjong.tiles import Seat, Tile


def test_the_shipped_model_has_a_coefficient_for_every_feature() -> None:
    m = load_points_model()
    assert len(m.win) == len(WIN_FEATURES) and all(math.isfinite(c) for c in m.win)
    assert 0 < m.self_drawn < 1 and 0 < m.others <= 1 and 0 <= m.anyway <= 1
    assert math.isclose(sum(m.extra), 1, abs_tol=1e-3)
    assert math.isclose(sum(m.win_tai), 1, abs_tol=1e-3)


def test_what_a_win_pays_is_the_rules_own_settlement() -> None:
    # RULES.md, "what a win pays": standard base 2^tai capped at 5 tai; off a discard the
    # discarder pays 2 x base and the others 1 x base; self-drawn each of three pays 2 x base
    std = load_rules("standard")
    assert win_payments(std, 3, False) == (2 * 8 + 8 + 8, 2 * 8, 8)
    assert win_payments(std, 3, True) == (3 * 2 * 8, 2 * 8, 2 * 8)
    assert win_payments(std, 9, False) == (4 * 32, 64, 32)           # the cap
    # Bao: the liable discarder pays the whole table's share
    assert win_payments(std, 5, False, liable=True) == (128, 128, 0)
    # limit: base 2^(tai-1)
    assert win_payments(load_rules("limit"), 3, False) == (16, 8, 4)
    # garden: winner-only points; nobody pays, so a deal-in costs nothing
    assert win_payments(load_rules("garden"), 2, False)[1:] == (0, 0)
    # casual: one point for the win
    assert win_payments(load_rules("casual"), 4, True)[0] == 1


def test_a_deal_in_costs_nothing_where_the_discarder_pays_nothing() -> None:
    # The same table under garden (winner-only points): the dangerous tile carries its
    # deal-in chance but no cost, so the Owl's figures weigh only speed and value.
    north = {N: ["pong 111p", "chow 234s", "pong 888m"]}
    v = view_of("159m28p5s7s1z2z3z4z6z7z9p", others=north, discards={N: "5s"},
                live_remaining=30, rules="garden")
    evals = evaluate_discards(v, situation(v))
    assert any(e.dealin > 0.01 for e in evals)
    assert all(e.risk == 0 for e in evals)
    std = view_of("159m28p5s7s1z2z3z4z6z7z9p", others=north, discards={N: "5s"},
                  live_remaining=30)
    assert any(e.risk > 0 for e in evaluate_discards(std, situation(std)))


def test_the_figures_never_depend_on_hidden_tiles() -> None:
    # Another seat's concealed tiles swapped with tiles still in the wall, and the wall
    # reversed: what the others hold and what comes next change, nothing public does, and
    # neither does any figure of the evaluation.
    g = Game.new("standard", seed=31)
    agents = [make_agent("fox", s) for s in range(4)]
    checked = 0
    while not g.ended and checked < 8:
        for seat in sorted(g.waiting_for()):
            v = g.view(seat)
            action = agents[seat].act(v, g.legal_actions(seat))  # type: ignore[attr-defined]
            st = g.state
            w = st.wall
            if isinstance(action, Discard) and v.phase is Phase.TURN and w is not None:
                other = Seat(seat).next
                hidden = st.seats[other].concealed
                live = list(w.order[w.front:w.back])
                k = min(len(hidden), len(live))
                swapped = tuple(live[:k]) + hidden[k:]
                live = list(hidden[:k]) + live[k:]
                order = w.order[:w.front] + tuple(reversed(live)) + w.order[w.back:]
                seats = list(st.seats)
                seats[other] = dataclasses.replace(seats[other], concealed=swapped)
                changed = dataclasses.replace(st, seats=seats, public_cache=None,
                                              wall=dataclasses.replace(w, order=order))
                after = view_from_state(changed, seat)
                assert st.seats[other].concealed != changed.seats[other].concealed
                assert evaluate_discards(v, situation(v)) == \
                    evaluate_discards(after, situation(after))
                checked += 1
            g.submit(seat, action)
    assert checked >= 5


def test_mean_win_chance_matches_the_observed_rate_on_seeded_hands() -> None:
    """A modest calibration check (the full one is bench/fit_points.py --check): over
    seeded hands of the quicker levels, the mean predicted chance that the hand kept at a
    Fox's discard wins lies within a wide interval around how often such hands won."""
    m = load_points_model()
    names = ("fox", "hedgehog", "rabbit", "fox")
    predicted = 0.0
    cases = 0
    won = 0
    for n in range(60):
        seed = derive_seed(777, n)
        agents = [make_agent(names[(s + n) % 4], derive_seed(seed, s)) for s in range(4)]
        g = Game.new("standard", seed=seed)
        mine: list[tuple[int, float]] = []
        while not g.ended:
            for seat in sorted(g.waiting_for()):
                v = g.view(seat)
                action = agents[seat].act(v, g.legal_actions(seat))  # type: ignore[attr-defined]
                if isinstance(action, Discard) and names[(seat + n) % 4] == "fox":
                    sit = situation(v)
                    opts = discard_options(sit)
                    i = next(i for i, o in enumerate(opts) if o.tile == action.tile)
                    o = opts[i]
                    ready = sum(1 for t in read_threats(v) if t.ready)
                    x, _ = hand_inputs(v, sit, o.after, sit.melds, o.shanten, o.live,
                                       i < DEEP, ready, m)
                    mine.append((seat, m.win_chance(x)))
                g.submit(seat, action)
        outcome = g.outcome()
        assert outcome is not None
        for seat, p in mine:
            predicted += p
            won += int(Seat(seat) in outcome.winners)
            cases += 1
    mean = predicted / cases
    rate = won / cases
    # decisions of one hand are not independent: a wide interval, in hands not decisions
    half = 2.6 * math.sqrt(rate * (1 - rate) / 60) * 1.5
    assert abs(mean - rate) < half, (mean, rate, half)


def test_the_ready_hand_s_value_is_what_its_waits_pay() -> None:
    # South throws the Red Dragon and is ready on 4 or 7 Circles for ping hu (4 tai): a win
    # collects 4 x 16 off a discard or 3 x 32 self-drawn, at the fitted self-drawn share.
    v = view_of("123m456p678s35p99m7z", others={W: ["pong 222s"]}, discards={W: "1z"})
    m = load_points_model()
    red = next(e for e in evaluate_discards(v, situation(v)) if e.tile == Tile.RED)
    assert red.shanten == 0
    assert math.isclose(red.value, m.self_drawn * 96 + (1 - m.self_drawn) * 64)
