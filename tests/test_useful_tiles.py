"""Useful tiles, waits and the discard table, with unseen copies of each tile.

Expected waits and counts are worked out by hand from the rules; the properties check
the definitions: a useful tile's draw lowers the shanten, a wait completes the hand
(by an independent completeness check), unseen = 4 - own copies - visible copies.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_shanten import complete_hands, completing_tiles, near_complete_hands

from sgmahjong import Hand, Tile
from sgmahjong.analysis.shanten import shanten
from sgmahjong.analysis.useful import discard_table, unseen_counts, useful_tiles, waits
from sgmahjong.errors import HandError, TileCountError
from sgmahjong.tiles import counts34, parse_tiles

PROPERTY = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def counts_of(text: str) -> list[int]:
    return Hand.parse(text).counts


def named(tiles: dict[Tile, int]) -> dict[str, int]:
    return {t.text: n for t, n in tiles.items()}


def seen(text: str) -> list[int]:
    return counts34(parse_tiles(text))


# ---- waits ----

def test_waits_of_a_double_pair_wait_count_unseen_copies() -> None:
    # 123m 456p 789s + 11z 22z: either pair can become the pong; two of each are left.
    assert named(waits(counts_of("123m456p789s1122z"))) == {"1z": 2, "2z": 2}


def test_nine_gates_waits_on_every_tile_of_its_suit() -> None:
    expected = {"1m": 1, "2m": 3, "3m": 3, "4m": 3, "5m": 3, "6m": 3, "7m": 3, "8m": 3,
                "9m": 1}
    assert named(waits(counts_of("1112345678999m"))) == expected


def test_thirteen_wonders_waits_on_all_thirteen() -> None:
    w = waits(counts_of("19m19p19s1234567z"))
    assert set(w) == {Tile(t) for t in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)}
    assert set(w.values()) == {3}


def test_visible_tiles_reduce_unseen_and_dead_waits_stay_listed_with_zero() -> None:
    assert named(waits(counts_of("123m456p789s1122z"), visible=seen("11z"))) == {
        "1z": 0, "2z": 2}


def test_a_hand_that_is_not_ready_has_no_waits() -> None:
    assert waits(counts_of("124m456p789s1123z")) == {}


def test_a_wait_on_a_fifth_copy_is_no_wait() -> None:
    c = counts_of("1111m234p567s888s")
    assert waits(c) == {}
    useful = useful_tiles(c)
    # 1m cannot be drawn at all; 2m (111m + 12m) and 3m (111m + 13m) make it ready.
    assert Tile.M1 not in useful
    assert useful[Tile.M2] == 4
    assert useful[Tile.M3] == 4


def test_waits_with_declared_sets() -> None:
    hand = Hand.parse("23m55p, pong 777z, chow 789s, concealed-kong 1111s")
    assert hand.size == 13
    visible = counts34(t for m in hand.melds for t in m.tiles)
    assert named(waits(hand.counts, len(hand.melds), visible)) == {"1m": 4, "4m": 4}
    # A single tile with four declared sets waits on its pair.
    hand = Hand.parse("5s, pong 111z, pong 222z, chow 789s, kong 5555p")
    assert named(waits(hand.counts, 4)) == {"5s": 3}


# ---- useful tiles ----

def test_useful_tiles_of_a_one_from_ready_hand() -> None:
    # 456p 789s, 12m (or 24m), 11z 22z, one tile too many. 3m makes 123m (drop 4m); 1z or
    # 2z makes a pong with the other pair as the eye and 12m waiting (drop 4m). Any other
    # draw still leaves two tiles missing.
    c = counts_of("124m456p789s1122z")
    assert shanten(c) == 1
    assert named(useful_tiles(c)) == {"3m": 4, "1z": 2, "2z": 2}


def test_useful_tiles_need_a_hand_between_turns() -> None:
    with pytest.raises(HandError):
        useful_tiles(counts_of("123m456p789s11122z"))
    with pytest.raises(HandError):
        waits(counts_of("123m456p789s11122z"))


def test_visible_counts_that_exceed_the_set_are_rejected() -> None:
    with pytest.raises(TileCountError):
        useful_tiles(counts_of("123m456p789s1122z"), visible=seen("111z"))
    with pytest.raises(HandError):
        useful_tiles(counts_of("123m456p789s1122z"), visible=[0] * 10)


# ---- the discard table ----

def test_discard_table_lists_each_distinct_discard_best_first() -> None:
    # 123m 456p 789s 11z 222z is complete; each discard leaves a ready hand. Discarding
    # 1m (or 4p, 6p, 7s, 9s ...) leaves a two-sided wait: 1m 3 unseen (one discarded) +
    # 4m 4 = 7. Discarding 2z leaves 11z 22z waiting on 1z (2) and 2z (1 after the
    # discard): 3. Discarding 1z leaves a single wait on 1z: 2.
    table = discard_table(counts_of("123m456p789s11222z"))
    assert len(table) == 11
    assert all(o.shanten == 0 for o in table)
    by_tile = {o.discard.text: o for o in table}
    assert named(by_tile["1m"].useful) == {"1m": 3, "4m": 4}
    assert named(by_tile["2z"].useful) == {"1z": 2, "2z": 1}
    assert named(by_tile["1z"].useful) == {"1z": 2}
    assert table[0].discard == Tile.M1
    assert table[0].unseen == 7
    assert table[-1].discard == Tile.EAST
    keys = [(o.shanten, -o.unseen, o.discard) for o in table]
    assert keys == sorted(keys)


def test_discard_table_prefers_lower_shanten_over_more_tiles() -> None:
    # 1239m 456p 789s 11z 22z: only discarding 9m keeps the hand ready.
    table = discard_table(counts_of("1239m456p789s1122z"))
    assert table[0].discard == Tile.M9
    assert table[0].shanten == 0
    assert all(o.shanten == 1 for o in table[1:])


def test_discard_table_needs_a_hand_after_its_draw() -> None:
    with pytest.raises(HandError):
        discard_table(counts_of("123m456p789s1122z"))


def test_unseen_counts_accept_a_46_kind_vector() -> None:
    visible = [0] * 46
    visible[27] = 2
    visible[40] = 1  # a season: not a playing tile, ignored
    assert unseen_counts(counts_of("123m456p789s1122z"), visible)[27] == 0


# ---- properties ----

@PROPERTY
@given(near_complete_hands())
def test_drawing_a_useful_tile_lowers_shanten_and_others_do_not(
        hand: tuple[list[int], int]) -> None:
    c, melds = hand
    before = shanten(c, melds)
    useful = useful_tiles(c, melds)
    for t in range(34):
        if c[t] >= 4:
            assert Tile(t) not in useful
            continue
        c[t] += 1
        after = shanten(c, melds)
        c[t] -= 1
        assert (after < before) == (Tile(t) in useful)


@PROPERTY
@given(near_complete_hands())
def test_each_wait_completes_the_hand_and_nothing_else_does(
        hand: tuple[list[int], int]) -> None:
    c, melds = hand
    assert {int(t) for t in waits(c, melds)} == completing_tiles(c, melds)
    for t in waits(c, melds):
        c[t] += 1
        assert shanten(c, melds) == -1
        c[t] -= 1


@PROPERTY
@given(complete_hands(), st.data())
def test_waits_include_the_tile_taken_out_of_a_complete_hand(
        hand: tuple[list[int], int], data: st.DataObject) -> None:
    c, melds = hand
    t = data.draw(st.sampled_from([k for k in range(34) if c[k]]))
    c[t] -= 1
    assert Tile(t) in waits(c, melds)


@PROPERTY
@given(near_complete_hands(), st.lists(st.integers(0, 33), max_size=20))
def test_unseen_copies_are_four_less_own_and_visible(hand: tuple[list[int], int],
                                                     shown: list[int]) -> None:
    c, melds = hand
    visible = [0] * 34
    for t in shown:
        if c[t] + visible[t] < 4:
            visible[t] += 1
    for t, n in useful_tiles(c, melds, visible).items():
        assert n == 4 - c[t] - visible[t]


@PROPERTY
@given(near_complete_hands(), st.data())
def test_discard_table_matches_shanten_of_each_discard(hand: tuple[list[int], int],
                                                       data: st.DataObject) -> None:
    c, melds = hand
    t = data.draw(st.sampled_from([k for k in range(34) if c[k] < 4]))
    c[t] += 1
    table = discard_table(c, melds)
    assert sorted(int(o.discard) for o in table) == [k for k in range(34) if c[k]]
    assert min(o.shanten for o in table) == max(shanten(c, melds), 0)
    for o in table:
        c[o.discard] -= 1
        assert o.shanten == shanten(c, melds)
        assert set(o.useful) == set(useful_tiles(c, melds))
        c[o.discard] += 1
