"""The deal-in probability: read from the view alone, lower for genbutsu than for a fresh
middle tile beside a ready-looking seat's sets, small early in the hand, and calibrated
against what the engine says happened on seeded hands."""

from __future__ import annotations

import dataclasses
import math

from test_levels import E, N, W, view_of  # tests/agents is on sys.path (rootdir layout)

from sgmahjong.agents import make_agent
from sgmahjong.agents.danger import discard_history, read_threats
from sgmahjong.agents.dealin import FEATURES, SAFE, dealin, dealin_label, in_words, load_model
from sgmahjong.game import Game
from sgmahjong.game.actions import Discard
from sgmahjong.game.events import Won
from sgmahjong.game.prng import derive_seed
from sgmahjong.game.state import Phase
from sgmahjong.game.view import view as view_from_state
from sgmahjong.tiles import Seat, Tile


def test_the_shipped_model_has_a_coefficient_for_every_feature() -> None:
    model = load_model()
    assert len(model.coef) == len(FEATURES)
    assert all(math.isfinite(c) for c in model.coef)


def test_probabilities_in_a_players_words() -> None:
    assert in_words(1 / 12) == "about 1 in 12"
    assert in_words(0.05) == "about 1 in 20"
    assert in_words(1 / 33) == "about 1 in 35"
    assert in_words(1 / 56) == "about 1 in 60"
    assert in_words(0.25) == "about 25%"
    assert in_words(0.0) == "under 1 in 100"
    assert [dealin_label(p) for p in (0.0, 0.0099, 0.01, 0.049, 0.05, 0.5)] == [
        "safe", "safe", "some risk", "some risk", "dangerous", "dangerous"]


# West shows three sets, all in Bamboo and Characters, and has thrown the 5 Circles. South
# holds a 5 Circles (genbutsu against West) and a 6 Bamboo nobody has thrown, in the suit
# of two of West's sets. Nobody else shows anything.
WEST_READY = {W: ["pong 222s", "chow 345s", "chow 678m"]}
WEST_THREW = {W: "1z2z9p5p1m7z", E: "9m1p", N: "2z8p"}


def test_genbutsu_against_the_only_ready_seat_is_lower_than_a_fresh_middle_tile() -> None:
    v = view_of("11m456p5p78s6s99p3m", others=WEST_READY, discards=WEST_THREW,
                live_remaining=40)
    [west] = [t for t in read_threats(v) if t.ready]
    assert west.seat == W
    safe = dealin(v, Tile.P5)
    fresh = dealin(v, Tile.S6)
    assert safe.probability < fresh.probability
    # genbutsu: the seat that threw it is the one least likely to win on it
    assert safe.by_seat[W] < fresh.by_seat[W]
    # and the seats that show nothing barely count for either tile
    assert max(safe.by_seat[E], safe.by_seat[N]) < fresh.by_seat[W]


def test_early_in_the_hand_with_nothing_declared_every_tile_is_unlikely_to_be_won_on() -> None:
    v = view_of("19m258p369s1234z5z", discards={E: "1z9s", W: "3z1p", N: "2z"},
                live_remaining=90)
    assert all(not t.ready for t in read_threats(v))
    for tile in set(v.concealed):
        assert dealin(v, tile).probability < SAFE, tile


def _midgame(seed: int, discards: int) -> Game:
    """A seeded hand of Fox players stopped at a discard turn after ``discards`` discards."""
    agents = [make_agent("fox", derive_seed(seed, s)) for s in range(4)]
    g = Game.new("standard", seed=seed)
    while not g.ended:
        st = g.state
        if st.phase is Phase.TURN and st.discard_count >= discards:
            return g
        for seat in sorted(g.waiting_for()):
            g.submit(seat, agents[seat].act(g.view(seat), g.legal_actions(seat)))
    raise AssertionError("the hand ended first")


def test_the_probability_never_depends_on_hidden_tiles() -> None:
    g = _midgame(31, 24)
    st = g.state
    me = st.turn
    history = discard_history(g.events)
    before = view_from_state(st, me)
    want = {t: dealin(before, t, history=history) for t in set(before.concealed)}
    # Another seat's concealed tiles swapped with tiles still in the wall, and the wall
    # reversed: what the others hold and what comes next change, nothing public does.
    other = me.next
    hidden = st.seats[other].concealed
    w = st.wall
    assert w is not None
    live = list(w.order[w.front:w.back])
    k = min(len(hidden), len(live))
    swapped = tuple(live[:k]) + hidden[k:]
    live = list(hidden[:k]) + live[k:]
    order = w.order[:w.front] + tuple(reversed(live)) + w.order[w.back:]
    seats = list(st.seats)
    seats[other] = dataclasses.replace(seats[other], concealed=swapped)
    changed = dataclasses.replace(st, seats=seats, wall=dataclasses.replace(w, order=order),
                                  public_cache=None)
    after = view_from_state(changed, me)
    assert st.seats[other].concealed != changed.seats[other].concealed
    for t, d in want.items():
        assert dealin(after, t, history=history) == d


def test_mean_predicted_matches_the_observed_rate_on_seeded_hands() -> None:
    """A modest calibration check (the full one is bench/fit_dealin.py --check): over
    seeded hands of the quicker levels, the mean predicted chance of a discard being won on
    lies within a wide interval around the rate the engine's Won events give."""
    names = ("rabbit", "hedgehog", "fox", "snail")
    predicted = 0.0
    discards = 0
    won = 0
    for n in range(120):
        seed = derive_seed(4242, n)
        agents = [make_agent(names[(s + n) % 4], derive_seed(seed, s)) for s in range(4)]
        g = Game.new("standard", seed=seed)
        last: Seat | None = None
        while not g.ended:
            for seat in sorted(g.waiting_for()):
                v = g.view(seat)
                action = agents[seat].act(v, g.legal_actions(seat))  # type: ignore[attr-defined]
                if isinstance(action, Discard):
                    predicted += dealin(v, action.tile,
                                        history=discard_history(g.events)).probability
                    discards += 1
                    last = seat
                g.submit(seat, action)
        # a win on a discard ends the hand: it was on the hand's last discard
        won += any(isinstance(e, Won) and e.discarder is not None and e.discarder == last
                   and not any("robbing" in c for c in e.context) for e in g.events)
    rate = won / discards
    mean = predicted / discards
    # a 99% interval for the observed rate, widened by half again on each side
    z = 2.58
    half = z * math.sqrt(rate * (1 - rate) / discards + z * z / (4 * discards ** 2))
    assert won >= 10
    assert rate - 1.5 * half <= mean <= rate + 1.5 * half, (mean, rate, half)
