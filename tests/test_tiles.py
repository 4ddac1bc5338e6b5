"""Tile notation, names and counts (RULES.md, "Tile notation")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.errors import TileCountError, TileTextError
from sgmahjong.tiles import (
    ALL_TILES,
    Seat,
    Tile,
    check_counts,
    format_tiles,
    parse_tiles,
)


def test_the_set_has_148_tiles_in_46_kinds():
    total = sum(1 if t.is_bonus else 4 for t in ALL_TILES)
    assert len(ALL_TILES) == 46
    assert total == 148
    assert sum(1 for t in ALL_TILES if t.is_suited) * 4 == 108
    assert sum(1 for t in ALL_TILES if t.is_honour) * 4 == 28


@pytest.mark.parametrize(("text", "expected"), [
    ("1m", Tile.M1), ("9m", Tile.M9), ("5p", Tile.P5), ("9s", Tile.S9),
    ("1z", Tile.EAST), ("4z", Tile.NORTH), ("5z", Tile.WHITE), ("6z", Tile.GREEN),
    ("7z", Tile.RED), ("1f", Tile.PLUM), ("4f", Tile.BAMBOO), ("1g", Tile.SPRING),
    ("4g", Tile.WINTER), ("1a", Tile.CAT), ("2a", Tile.MOUSE), ("3a", Tile.ROOSTER),
    ("4a", Tile.CENTIPEDE),
])
def test_each_notation_names_its_tile(text, expected):
    assert Tile.parse(text) is expected
    assert expected.text == text


@pytest.mark.parametrize(("alias", "expected"), [
    ("E", Tile.EAST), ("S", Tile.SOUTH), ("W", Tile.WEST), ("N", Tile.NORTH),
    ("Wh", Tile.WHITE), ("G", Tile.GREEN), ("R", Tile.RED),
])
def test_letter_aliases_are_accepted_on_input(alias, expected):
    assert Tile.parse(alias) is expected


def test_runs_share_a_suit_letter():
    assert parse_tiles("123m456p") == [Tile.M1, Tile.M2, Tile.M3, Tile.P4, Tile.P5, Tile.P6]


def test_aliases_mix_with_digit_runs_and_white_is_read_before_west():
    assert parse_tiles("11m WhW E") == [Tile.M1, Tile.M1, Tile.WHITE, Tile.WEST, Tile.EAST]


def test_format_groups_sorted_tiles_by_suit():
    assert format_tiles(parse_tiles("7z 1m 9s 2m 1a 3f")) == "12m9s7z3f1a"


@pytest.mark.parametrize(("text", "names"), [
    ("12x", "'x'"), ("0m", "0m"), ("8z", "8z"), ("5f", "5f"), ("5a", "5a"), ("123", "123"),
    ("m", "'m'"), ("1m?", "'?'"),
])
def test_bad_text_raises_one_error_naming_the_bad_token(text, names):
    with pytest.raises(TileTextError, match=None) as info:
        parse_tiles(text)
    assert names in str(info.value)


def test_five_copies_of_a_tile_is_an_error():
    with pytest.raises(TileCountError, match="5 copies of 1m"):
        check_counts(parse_tiles("11111m"))


def test_two_copies_of_a_bonus_tile_is_an_error():
    with pytest.raises(TileCountError, match="2 copies of 1a"):
        check_counts(parse_tiles("1a1a"))


def test_four_copies_and_one_bonus_each_are_fine():
    check_counts(parse_tiles("1111m7777z1234f1234g1234a"))


@pytest.mark.parametrize(("tile", "english", "chinese"), [
    (Tile.M1, "1 Characters", "一萬"), (Tile.P9, "9 Circles", "九筒"),
    (Tile.S5, "5 Bamboo", "五索"), (Tile.EAST, "East", "東"), (Tile.RED, "Red Dragon", "中"),
    (Tile.GREEN, "Green Dragon", "發"), (Tile.WHITE, "White Dragon", "白"),
    (Tile.PLUM, "Plum", "梅"), (Tile.WINTER, "Winter", "冬"), (Tile.CAT, "Cat", "貓"),
    (Tile.CENTIPEDE, "Centipede", "蜈蚣"),
])
def test_tiles_have_english_and_chinese_names(tile, english, chinese):
    assert tile.english == english
    assert tile.chinese == chinese


def test_flower_and_season_n_belong_to_seat_n():
    assert Tile.parse("1f").owner is Seat.EAST
    assert Tile.parse("2g").owner is Seat.SOUTH
    assert Tile.parse("3f").owner is Seat.WEST
    assert Tile.parse("4g").owner is Seat.NORTH
    assert Tile.CAT.owner is None


def test_tile_classes():
    assert Tile.M1.is_terminal and Tile.S9.is_terminal and not Tile.M5.is_terminal
    assert Tile.EAST.is_wind and Tile.RED.is_dragon and not Tile.RED.is_wind
    assert Tile.CAT.is_animal and Tile.PLUM.is_flower and Tile.SPRING.is_season
    assert all(t.is_bonus for t in (Tile.CAT, Tile.PLUM, Tile.SPRING))


def test_repr_is_runnable():
    assert eval(repr(Tile.P5)) is Tile.P5


def test_seats_pass_to_the_right_and_have_winds():
    assert Seat.EAST.next is Seat.SOUTH and Seat.NORTH.next is Seat.EAST
    assert Seat.WEST.wind is Tile.WEST
    assert Seat.parse("n") is Seat.NORTH
    with pytest.raises(TileTextError, match="'Q'"):
        Seat.parse("Q")


@settings(max_examples=200, deadline=None)   # a loaded machine is not a failure
@given(st.lists(st.sampled_from(ALL_TILES), max_size=20))
def test_format_then_parse_gives_the_sorted_tiles(tiles):
    assert parse_tiles(format_tiles(tiles)) == sorted(tiles)


@settings(max_examples=200, deadline=None)   # a loaded machine is not a failure
@given(st.lists(st.sampled_from(ALL_TILES), max_size=20))
def test_unsorted_format_keeps_order(tiles):
    assert parse_tiles(format_tiles(tiles, sort=False)) == tiles
