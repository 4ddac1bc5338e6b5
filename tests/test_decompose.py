"""Winning shapes (RULES.md: four sets and one eye, or Thirteen Wonders; never Seven Pairs)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.analysis.decompose import (
    completes,
    decompositions,
    is_complete,
    is_regular_complete,
    is_thirteen_wonders,
    read_parts,
    winning_tiles,
)
from sgmahjong.melds import Meld
from sgmahjong.tiles import Tile, counts34, format_tiles, parse_tiles


def c(text):
    return counts34(parse_tiles(text))


@pytest.mark.parametrize("text", [
    "123m456p789s777z11m", "11122233344455m", "111m222p333s444z55z", "123456789m12399p",
])
def test_four_sets_and_an_eye_is_complete(text):
    assert is_regular_complete(c(text))


@pytest.mark.parametrize("text", [
    "1133557799m1122p",  # seven pairs
    "11223344556677z",  # seven pairs of honours
    "123m456p789s777z12m",  # no eye
    "123z456z777z11m111p",  # honours cannot chow
])
def test_seven_pairs_and_broken_shapes_never_win(text):
    assert not is_complete(c(text))


def test_a_hand_can_have_several_readings():
    readings = decompositions(c("111222333m456p77s"))
    shapes = sorted(sorted((g.is_chow, g.tile) for g in d.groups) for d in readings)
    assert len(readings) == 2
    assert [(True, Tile.M1)] * 3 + [(True, Tile.P4)] in shapes
    assert [(False, Tile.M1), (False, Tile.M2), (False, Tile.M3), (True, Tile.P4)] in shapes


def test_declared_sets_leave_fewer_concealed_tiles():
    assert is_complete(c("11m"), [Meld.parse("pong 777z")] * 4)
    assert is_complete(c("234s55p"), [Meld.parse("chow 123m")] * 3)


def test_thirteen_wonders():
    assert is_thirteen_wonders(c("19m19p19s1234567z1m"))
    assert is_complete(c("19m19p19s1234567z7z"))
    assert not is_thirteen_wonders(c("19m19p19s1234566z1m"))  # no Red, two Greens plus a 1m
    assert not is_complete(c("19m19p19s123456z1m"), [Meld.parse("pong 777z")])


def test_waits_of_a_ready_hand():
    nine_gates = c("1112345678999m")
    assert [t.text for t in winning_tiles(nine_gates)] == [f"{n}m" for n in range(1, 10)]
    assert [t.text for t in winning_tiles(c("23m456p789s111z55s"))] == ["1m", "4m"]
    assert [t.text for t in winning_tiles(c("19m19p19s1234567z"))] == [
        "1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]


def test_a_tile_whose_four_copies_are_held_is_not_a_wait():
    # 1111m held: the hand can only want a fifth 1m, which does not exist.
    assert winning_tiles(c("1111m234p567s888s")) == []


_SETS = [[t, t, t] for t in range(34)] + [[t, t + 1, t + 2] for t in range(27) if t % 9 <= 6]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_SETS), min_size=4, max_size=4), st.integers(0, 33))
def test_any_four_sets_and_an_eye_are_complete(sets, eye):
    tiles = [t for s in sets for t in s] + [eye, eye]
    counts = counts34(Tile(t) for t in tiles)
    if max(counts) > 4:
        return
    assert is_regular_complete(counts), format_tiles(Tile(t) for t in tiles)
    assert decompositions(counts)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_SETS), min_size=0, max_size=4), st.integers(0, 33),
       st.integers(0, 13), st.one_of(st.none(), st.integers(0, 33)),
       st.lists(st.sampled_from(["pong 777z", "chow 123m", "kong 5555s"]), max_size=2))
def test_waits_are_exactly_the_kinds_that_complete_the_hand(sets, eye, drop, swap, declared):
    # Ready and nearly ready hands: sets and an eye less one tile, sometimes one tile changed.
    tiles = [t for s in sets for t in s] + [eye, eye]
    tiles.pop(drop % len(tiles))
    if swap is not None:
        tiles[drop % len(tiles)] = swap
    melds = [Meld.parse(m) for m in declared][:4 - len(sets)]
    counts = counts34(Tile(t) for t in tiles)
    held = list(counts)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    if max(held) > 4:
        return
    completing = [Tile(t) for t in range(34) if held[t] < 4
                  and is_complete([*counts[:t], counts[t] + 1, *counts[t + 1:]], melds)]
    assert winning_tiles(counts, melds) == completing, format_tiles(Tile(t) for t in tiles)
    reading = read_parts(counts)
    assert [Tile(t) for t in range(34)
            if held[t] < 4 and completes(reading, counts, t, melds)] == completing


def test_the_suit_memos_stay_bounded_on_a_long_run():
    """A server meets new suit patterns for ever: each memo keeps at most SUIT_MEMO of
    them, and what it forgot is worked out again the same."""
    from itertools import product

    from sgmahjong.analysis import decompose

    met = []
    for part in product(range(4), repeat=9):      # suits of 3n or 3n+2 tiles, up to 14
        if sum(part) <= 14 and sum(part) % 3 != 1:
            met.append(part)
        if len(met) > decompose.SUIT_MEMO + 2000:
            break
    for part in met:
        counts = [*part, *[0] * 25]
        # the other two suits and the honours empty: complete exactly when this suit is
        assert is_regular_complete(counts) == bool(decompositions(counts)), part
    for f in (decompose._suit_state, decompose._suit_sets, decompose._suit_adds):
        assert f.cache_info().currsize <= decompose.SUIT_MEMO, f
    assert decompose._suit_state.cache_info().currsize == decompose.SUIT_MEMO
