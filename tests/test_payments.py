"""Settlement of a win by preset (RULES.md row "what a win pays" and the seeds' examples)."""

import pytest

from sgmahjong.rules import load_rules
from sgmahjong.scoring import base_points, settle_win
from sgmahjong.tiles import Seat

E, S, W, N = Seat


@pytest.mark.parametrize(("tai", "base"), [(0, 1), (1, 2), (2, 4), (3, 8), (4, 16), (5, 32)])
def test_standard_base_points_double_per_tai(tai, base):
    assert base_points(tai, load_rules("standard")) == base


@pytest.mark.parametrize(("tai", "base"), [(1, 1), (2, 2), (3, 4), (4, 8), (5, 16)])
def test_limit_base_points_ladder_1_2_4_8_16(tai, base):
    assert base_points(tai, load_rules("limit")) == base


def test_seed_000_three_fan_discard_win_discarder_pays_16_others_8():
    s = settle_win(load_rules("standard"), E, 3, self_drawn=False, discarder=W)
    assert s.deltas == (32, -8, -16, -8)


def test_seed_000_three_fan_self_drawn_each_opponent_pays_16():
    s = settle_win(load_rules("standard"), E, 3, self_drawn=True, discarder=None)
    assert s.deltas == (48, -16, -16, -16)


def test_seed_004_two_tai_8_from_shooter_4_from_others_24_by_zi_mo():
    rules = load_rules("menqing")
    s = settle_win(rules, S, 2, self_drawn=False, discarder=N)
    assert s.deltas == (-4, 16, -4, -8)
    assert settle_win(rules, S, 2, self_drawn=True, discarder=None).deltas[S] == 24


@pytest.mark.parametrize(("tai", "self_each", "shooter", "other"), [
    (1, 2, 2, 1), (2, 4, 4, 2), (3, 8, 8, 4), (4, 16, 16, 8), (5, 32, 32, 16), (7, 32, 32, 16),
])
def test_seed_001_payment_table(tai, self_each, shooter, other):
    rules = load_rules("limit")
    assert settle_win(rules, W, tai, self_drawn=True, discarder=None).deltas == (
        -self_each, -self_each, 3 * self_each, -self_each)
    assert settle_win(rules, W, tai, self_drawn=False, discarder=E).deltas == (
        -shooter, -other, shooter + 2 * other, -other)


def test_payment_is_capped_at_five_tai():
    s = settle_win(load_rules("standard"), N, 9, self_drawn=False, discarder=E)
    assert s.deltas == (-64, -32, -32, 128)


def test_thirteen_wonders_paid_at_self_drawn_rate_off_a_discard_in_standard():
    s = settle_win(load_rules("standard"), E, 5, self_drawn=False, discarder=S,
                   thirteen_wonders=True)
    assert s.deltas == (192, -64, -64, -64)


def test_thirteen_wonders_paid_at_ordinary_rates_in_limit():
    s = settle_win(load_rules("limit"), E, 5, self_drawn=False, discarder=S,
                   thirteen_wonders=True)
    assert s.deltas == (64, -32, -16, -16)


def test_garden_winner_only_points_doubled_when_self_drawn():
    rules = load_rules("garden")
    assert settle_win(rules, S, 1, self_drawn=False, discarder=E).deltas == (0, 2, 0, 0)
    assert settle_win(rules, S, 3, self_drawn=True, discarder=None).deltas == (0, 16, 0, 0)
    assert settle_win(rules, S, 8, self_drawn=False, discarder=E).deltas == (0, 32, 0, 0)


def test_garden_thirteen_wonders_doubled_only_when_really_self_drawn():
    rules = load_rules("garden")
    s = settle_win(rules, S, 5, self_drawn=False, discarder=E, thirteen_wonders=True)
    assert s.deltas == (0, 32, 0, 0)


def test_casual_winner_scores_one_point_nobody_pays():
    assert settle_win(load_rules("casual"), N, 0, self_drawn=False, discarder=E).deltas == (
        0, 0, 0, 1)


def test_bao_liable_player_pays_the_whole_tables_share():
    s = settle_win(load_rules("standard"), E, 2, self_drawn=False, discarder=S, liable=S)
    assert s.deltas == (16, -16, 0, 0)
    s = settle_win(load_rules("standard"), E, 2, self_drawn=True, discarder=None, liable=W)
    assert s.deltas == (24, 0, -24, 0)


def test_limit_multiple_winners_only_losers_pay():
    rules = load_rules("limit")
    # South and North both win on West's discard: winners pay each other nothing.
    a = settle_win(rules, S, 2, self_drawn=False, discarder=W, exempt=[N])
    b = settle_win(rules, N, 3, self_drawn=False, discarder=W, exempt=[S])
    assert a.deltas == (-2, 6, -4, 0)
    assert b.deltas == (-4, 0, -8, 12)
    assert sum((a + b).deltas) == 0
