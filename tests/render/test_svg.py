"""SVG tiles: every kind renders as titled, self-contained XML; the sprite sheet has unique ids."""

import xml.etree.ElementTree as ET

import pytest

from sgmahjong.render.svg import (
    BACK_ID,
    back_svg,
    sprite_sheet,
    symbol_id,
    tile_body,
    tile_svg,
)
from sgmahjong.tiles import ALL_TILES, Tile

NS = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("tile", ALL_TILES, ids=lambda t: t.text)
def test_every_tile_is_an_svg_titled_with_its_english_name(tile):
    root = ET.fromstring(tile_svg(tile))
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") == "0 0 60 80"
    assert root.find(f"{NS}title").text == tile.english
    assert root.get("aria-label") == tile.english


def test_size_is_set_by_width_and_height():
    root = ET.fromstring(tile_svg(Tile.M1, width=30, height=40))
    assert (root.get("width"), root.get("height")) == ("30", "40")


@pytest.mark.parametrize("tile", [t for t in ALL_TILES if not t.is_suited and t != Tile.WHITE],
                         ids=lambda t: t.text)
def test_honour_and_bonus_tiles_show_their_chinese_name(tile):
    root = ET.fromstring(tile_svg(tile))
    texts = "".join(el.text or "" for el in root.iter(f"{NS}text"))
    assert tile.chinese in texts


def test_characters_show_the_chinese_numeral_above_wan():
    root = ET.fromstring(tile_svg(Tile.M7))
    texts = [el.text for el in root.iter(f"{NS}text")]
    assert texts[-2:] == ["七", "萬"]


@pytest.mark.parametrize(("tile", "pips"), [(Tile(Tile.P1 + n - 1), n) for n in range(2, 10)],
                         ids=lambda v: v.text if isinstance(v, Tile) else None)
def test_circles_have_one_pip_per_number(tile, pips):
    circles = ET.fromstring(tile_svg(tile)).findall(f".//{NS}circle")
    assert len(circles) == 4 * pips  # each pip is four rings


def test_seasons_and_flowers_show_the_seat_number():
    texts = [el.text for el in ET.fromstring(tile_svg(Tile.AUTUMN)).iter(f"{NS}text")]
    assert "3" in texts


def test_every_tile_is_drawn_differently():
    assert len({tile_body(t) for t in ALL_TILES}) == len(ALL_TILES)


def test_output_is_deterministic_and_self_contained():
    for t in ALL_TILES:
        svg = tile_svg(t)
        assert svg == tile_svg(t)
        assert "href" not in svg and "url(" not in svg and "@import" not in svg
        assert svg.count("http") == 1  # the xmlns only


def test_back_is_an_svg():
    root = ET.fromstring(back_svg())
    assert root.find(f"{NS}title").text == "Face-down tile"


def test_sprite_sheet_has_one_symbol_per_tile_and_the_back_with_unique_ids():
    root = ET.fromstring(sprite_sheet())
    ids = [el.get("id") for el in root.iter() if el.get("id") is not None]
    assert len(ids) == len(set(ids))
    symbols = root.findall(f"{NS}symbol")
    assert [s.get("id") for s in symbols] == [symbol_id(t) for t in ALL_TILES] + [BACK_ID]
    assert symbol_id(Tile.P5) == "t-5p"
    for symbol, tile in zip(symbols, ALL_TILES, strict=False):
        assert symbol.find(f"{NS}title").text == tile.english
        assert symbol.get("viewBox") == "0 0 60 80"
