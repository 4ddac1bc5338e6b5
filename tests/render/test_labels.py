"""Tile faces: labels, names, colours and Unicode glyphs of the 46 kinds."""

import re
import unicodedata

import pytest

from sgmahjong.render.labels import FACES, KINDS, face, set_script
from sgmahjong.render.text import display_width
from sgmahjong.tiles import ALL_TILES, Tile

HEX = re.compile(r"^#[0-9a-f]{6}$")


def test_there_is_one_face_per_tile_kind_in_tile_order():
    assert [f.tile for f in FACES] == list(ALL_TILES)
    assert all(face(t) is FACES[t] for t in ALL_TILES)


@pytest.mark.parametrize("tile", ALL_TILES, ids=lambda t: t.text)
def test_face_carries_the_names_from_tiles(tile):
    f = face(tile)
    assert f.chinese == tile.chinese
    # the name a sentence uses: a wind is named as a wind, not as the seat
    assert f.english == (f"{tile.english} Wind" if tile.is_wind else tile.english)
    assert f.suit_label in tile.chinese or tile.is_suited


@pytest.mark.parametrize("tile", ALL_TILES, ids=lambda t: t.text)
def test_face_fits_a_two_column_box(tile):
    f = face(tile)
    assert 1 <= display_width(f.text) <= 2
    assert f.text.isascii()
    assert f.short.startswith(f.text)   # the Latin mark leads every running-text label
    assert display_width(f.suit_label) == 2
    assert f.kind in KINDS


@pytest.mark.parametrize(("tile", "text", "label", "short"), [
    (Tile.M1, "1", "萬", "1萬"), (Tile.P5, "5", "筒", "5筒"), (Tile.S9, "9", "索", "9索"),
    (Tile.EAST, "E", "東", "E東"), (Tile.WHITE, "Wh", "白", "Wh白"), (Tile.RED, "R", "中", "R中"),
    (Tile.PLUM, "1", "梅", "1梅"), (Tile.WINTER, "4", "冬", "4冬"),
    (Tile.CAT, "Ca", "貓", "Ca貓"), (Tile.CENTIPEDE, "Ce", "蜈", "Ce蜈"),
], ids=lambda v: v.text if isinstance(v, Tile) else None)
def test_short_labels(tile, text, label, short):
    """Every running-text label starts with its Latin mark: a terminal without CJK fonts
    still tells the Red dragon from the Green, and the Cat from the Mouse."""
    f = face(tile)
    assert (f.text, f.suit_label, f.short) == (text, label, short)


def test_colours_are_hex_and_groups_are_told_apart_by_colour():
    for f in FACES:
        assert HEX.match(f.colour)
        assert f.term_colour is None or HEX.match(f.term_colour)
    group_colour = {f.kind: f.colour for f in FACES if f.kind != "dragon"}
    dragons = [face(t).colour for t in (Tile.WHITE, Tile.GREEN, Tile.RED)]
    assert len(set(group_colour.values())) == len(group_colour)
    assert len(set(dragons)) == 3
    assert face(Tile.RED).colour.startswith("#c")  # red
    assert face(Tile.P5).colour == "#1f5fbf"  # blue


def test_unicode_glyphs_are_mapped_by_name_not_by_position():
    # Unicode orders the flowers plum, orchid, bamboo, chrysanthemum; ours put bamboo last.
    assert face(Tile.CHRYSANTHEMUM).glyph == "\U0001F025"
    assert face(Tile.BAMBOO).glyph == "\U0001F024"
    assert face(Tile.EAST).glyph == "\U0001F000"
    assert face(Tile.RED).glyph == "\U0001F004"
    assert face(Tile.WHITE).glyph == "\U0001F006"
    assert face(Tile.M1).glyph == "\U0001F007"
    assert face(Tile.S1).glyph == "\U0001F010"
    assert face(Tile.P9).glyph == "\U0001F021"


@pytest.mark.parametrize("tile", [t for t in ALL_TILES if not t.is_animal], ids=lambda t: t.text)
def test_each_glyph_is_named_for_its_tile(tile):
    name = unicodedata.name(face(tile).glyph)
    if tile.is_suited:
        number, suit = tile.english.upper().split()
        numbers = ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"]
        assert name == f"MAHJONG TILE {numbers[int(number) - 1]} OF {suit.rstrip('S')}S"
    else:
        assert name.startswith("MAHJONG TILE " + tile.english.upper().removesuffix(" FLOWER"))


def test_animals_have_no_unicode_glyph_and_glyphs_are_unique():
    glyphs = [f.glyph for f in FACES if f.glyph is not None]
    assert [f.tile for f in FACES if f.glyph is None] == [t for t in ALL_TILES if t.is_animal]
    assert len(set(glyphs)) == 42


@pytest.fixture
def latin():
    set_script("latin")
    yield
    set_script("chinese")


def test_latin_labels_tell_every_kind_apart_without_chinese_characters(latin):
    """A terminal with no CJK font: every tile's box (mark above, kind below) and running
    label is plain ASCII, and no two kinds look the same (the 1 Flower and the 1 Season,
    5 Characters and 5 Circles differ)."""
    faces = [face(t) for t in ALL_TILES]
    assert all((f.text + f.suit_label + f.short).isascii() for f in faces)
    assert all(display_width(f.suit_label) == 2 for f in faces)
    assert len({(f.text, f.suit_label) for f in faces}) == len(ALL_TILES)
    assert len({f.short for f in faces}) == len(ALL_TILES)


@pytest.mark.parametrize(("tile", "label", "short"), [
    (Tile.M5, "Ch", "5Ch"), (Tile.P5, "Ci", "5Ci"), (Tile.S5, "Ba", "5Ba"),
    (Tile.EAST, "Wd", "E"), (Tile.WHITE, "Dr", "Wh"), (Tile.GREEN, "Dr", "G"),
    (Tile.PLUM, "Fl", "1Fl"), (Tile.SPRING, "Se", "1Se"), (Tile.MOUSE, "An", "Mo"),
], ids=lambda v: v.text if isinstance(v, Tile) else None)
def test_latin_labels(latin, tile, label, short):
    f = face(tile)
    assert (f.suit_label, f.short) == (label, short)
    assert f.english == FACES[tile].english      # sentences name tiles the same way


def test_the_script_is_one_of_two():
    with pytest.raises(ValueError, match="chinese or latin"):
        set_script("klingon")
    assert face(Tile.P5).short == "5筒"
