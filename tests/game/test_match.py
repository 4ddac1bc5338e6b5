"""The match (RULES.md rows 'banker after a win', 'banker after a drawn hand', 'round wind
and match length'): banker rotation, round wind, match end, quick games."""

from __future__ import annotations

import random

import pytest

from sgmahjong.game import Match, MatchState, Win
from sgmahjong.game.engine import HandOutcome
from sgmahjong.game.events import Won
from sgmahjong.game.match import next_state, round_wind
from sgmahjong.rules import load_rules
from sgmahjong.tiles import Seat, Tile


def won_by(*seats: Seat) -> HandOutcome:
    wins = tuple(Won(s, Tile.M1, None, (), 1, 1, (), "regular")
                 for s in seats)
    return HandOutcome(wins, None, False, (0, 0, 0, 0))


def drawn(kong: bool) -> HandOutcome:
    return HandOutcome((), "final-tile", kong, (0, 0, 0, 0))


@pytest.mark.parametrize("rules, outcome, banker_after", [
    ("standard", won_by(Seat.EAST), 1),      # passes after any win
    ("standard", won_by(Seat.SOUTH), 1),
    ("limit", won_by(Seat.EAST), 0),         # stays if the banker won
    ("limit", won_by(Seat.WEST), 1),
    ("limit", won_by(Seat.SOUTH, Seat.EAST), 0),
    ("garden", won_by(Seat.EAST), 0),
    ("standard", drawn(kong=False), 0),      # stays unless a kong was declared
    ("standard", drawn(kong=True), 1),
    ("menqing", drawn(kong=True), 1),
    ("garden", drawn(kong=True), 0),         # stays
])
def test_banker_rotation(rules: str, outcome: HandOutcome, banker_after: int) -> None:
    st = next_state(load_rules(rules), MatchState(), outcome)
    assert st.banker == banker_after


def test_round_wind_advances_after_the_deal_has_gone_round() -> None:
    rules = load_rules("standard")
    st = MatchState()
    winds = []
    for _ in range(16):
        winds.append(round_wind(rules, st))
        st = next_state(rules, st, won_by(Seat.SOUTH))
    assert winds == [Seat.EAST] * 4 + [Seat.SOUTH] * 4 + [Seat.WEST] * 4 + [Seat.NORTH] * 4
    assert st.ended and st.hands_played == 16


def test_banker_kept_hands_do_not_move_the_round() -> None:
    rules = load_rules("standard")
    st = MatchState()
    for _ in range(5):
        st = next_state(rules, st, drawn(kong=False))
    assert (st.banker, st.round_index, st.ended) == (0, 0, False)


def test_seats_follow_the_banker() -> None:
    st = MatchState(banker=2)
    assert st.seat_of(2) == Seat.EAST and st.player_at(Seat.SOUTH) == 3


def test_garden_round_wind_stays_east_and_round_ends_after_12_hands() -> None:
    rules = load_rules("garden")
    st = MatchState()
    for _ in range(11):
        assert round_wind(rules, st) == Seat.EAST
        st = next_state(rules, st, won_by(Seat.EAST))   # the banker keeps the deal
        assert not st.ended
    st = next_state(rules, st, won_by(Seat.EAST))
    assert st.ended and st.hands_played == 12


def test_garden_round_ends_when_the_deal_has_gone_round() -> None:
    rules = load_rules("garden")
    st = MatchState()
    for _ in range(4):
        st = next_state(rules, st, won_by(Seat.SOUTH))
    assert st.ended


def test_garden_quick_game_is_four_hands() -> None:
    rng = random.Random(3)

    def agent(view, legal):
        return next((a for a in legal if isinstance(a, Win)), rng.choice(legal))

    result = Match("garden", seed=11, quick=True).play(agent)
    assert len(result.hands) == 4
    assert [h.number for h in result.hands] == [0, 1, 2, 3]


def test_a_full_standard_match_ends_with_zero_sum_scores() -> None:
    rng = random.Random(5)

    def agent(view, legal):
        return next((a for a in legal if isinstance(a, Win)), rng.choice(legal))

    result = Match("standard", seed=2).play(agent)
    assert sum(result.scores) == 0
    assert sum(h.deltas[p] for h in result.hands for p in range(4)) == 0
    assert result.hands[-1].round_wind == Seat.NORTH
    for h in result.hands:
        assert (h.drawn is None) == bool(h.wins)
