"""Instant payouts (RULES.md): bonus pairs pay 2 from each (4 when both were exposed during
the deal), complete sets of four pay 4 from each in addition; none in limit or garden."""

from __future__ import annotations

import pytest

from sgmahjong.game import InstantPayout

from .tables import E, S, W, answer, discard, events_of, new_game


def payouts(g) -> list[tuple[object, str, int]]:
    return [(p.seat, p.reason, p.amount) for p in events_of(g, InstantPayout)]


@pytest.mark.parametrize("bonus, reason", [
    ("1a2a", "cat-mouse"), ("3a4a", "rooster-centipede"), ("2f2g", "own-flower-season")])
def test_pair_exposed_during_the_deal_pays_four_from_each(bonus: str, reason: str) -> None:
    g = new_game("standard", south=bonus)
    assert payouts(g) == [(S, reason, 4)]
    assert sum(g.state.scores) == 0 and g.state.scores[S] == 12


def test_someone_elses_flower_and_season_pay_nothing() -> None:
    assert payouts(new_game("standard", east="2f2g")) == []


def test_pair_completed_in_play_pays_two_from_each() -> None:
    g = new_game("standard", south="1a", east="258m369p147s1234z9m", draws="2a",
                 replacements="5s")
    discard(g, E, "9m")
    answer(g)
    assert payouts(g) == [(S, "cat-mouse", 2)]


def test_all_four_animals_pay_both_pairs_and_the_set() -> None:
    g = new_game("standard", west="1234a")
    assert sorted(payouts(g)) == sorted([(W, "cat-mouse", 4), (W, "rooster-centipede", 4),
                                         (W, "four-animals", 4)])
    assert g.state.scores[W] == 36


def test_all_four_flowers_pay_four_from_each() -> None:
    assert payouts(new_game("standard", west="1234f")) == [(W, "four-flowers", 4)]


@pytest.mark.parametrize("rules", ["limit", "casual", "garden"])
def test_no_instant_payouts_where_the_table_has_none(rules: str) -> None:
    assert payouts(new_game(rules, west="1234a")) == []
