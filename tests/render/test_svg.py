"""SVG tiles: every kind renders as titled, self-contained XML drawn without any font, with
its Latin mark; the sprite sheet has a symbol per tile kind and icon, with unique ids.

(tests/e2e/test_tile_faces.py renders the faces in Chromium with and without fonts.)
"""

import re
import xml.etree.ElementTree as ET

import pytest

from sgmahjong.render.glyphs import GLYPHS
from sgmahjong.render.svg import (
    BACK_ID,
    ICONS,
    back_svg,
    icon_id,
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


@pytest.mark.parametrize(("tile", "pips"), [(Tile(Tile.P1 + n - 1), n) for n in range(2, 10)],
                         ids=lambda v: v.text if isinstance(v, Tile) else None)
def test_circles_have_one_pip_per_number(tile, pips):
    circles = ET.fromstring(tile_svg(tile)).findall(f".//{NS}circle")
    assert len(circles) == 4 * pips  # each pip is four rings


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
    assert [s.get("id") for s in symbols] == ([symbol_id(t) for t in ALL_TILES] + [BACK_ID]
                                              + [icon_id(n) for n in ICONS])
    assert symbol_id(Tile.P5) == "t-5p"
    for symbol, tile in zip(symbols, ALL_TILES, strict=False):
        assert symbol.find(f"{NS}title").text == tile.english
        assert symbol.get("viewBox") == "0 0 60 80"


def test_sprite_sheet_holds_the_sound_hint_and_timer_icons():
    root = ET.fromstring(sprite_sheet())
    icons = {s.get("id"): s for s in root.findall(f"{NS}symbol") if s.get("id").startswith("i-")}
    assert sorted(icons) == ["i-book", "i-hint", "i-music-off", "i-music-on", "i-sound-off",
                             "i-sound-on", "i-timer"]
    for symbol in icons.values():
        assert symbol.get("viewBox") == "0 0 24 24"
        assert symbol.find(f"{NS}title").text in {"Sound on", "Sound off", "Hint", "Timer",
                                                  "Music on", "Music off", "Rules and guides"}
        assert len(list(symbol.iter())) > 2   # a title and some drawing


# -- drawn without fonts -------------------------------------------------------------------

FONT_ELEMENTS = {"text", "tspan", "textPath", "font", "font-face", "glyph", "foreignObject"}


def test_the_sprite_sheet_uses_no_font():
    """Text would be drawn by the viewer's fonts: a machine without CJK or emoji fonts
    shows empty boxes. Only the titles (names read aloud, never drawn) hold words."""
    root = ET.fromstring(sprite_sheet())
    for el in root.iter():
        tag = el.tag.removeprefix(NS)
        assert tag not in FONT_ELEMENTS
        assert not any(name.startswith("font") for name in el.attrib), el.attrib
        if tag == "title":
            assert el.text.isascii() and el.text.strip()
        else:
            assert not (el.text or "").strip(), (tag, el.text)
        assert "".join(el.attrib.values()).isascii()
    assert "font" not in sprite_sheet() and "@" not in sprite_sheet()


# -- Latin marks ---------------------------------------------------------------------------

# The mark each face must show, written out from the tiles themselves: as the terminal
# labels them, with F or S after the seat of a flower or season.
EXPECTED_MARKS = {
    **{Tile(Tile.M1 + i): str(i + 1) for i in range(9)},
    **{Tile(Tile.P1 + i): str(i + 1) for i in range(9)},
    **{Tile(Tile.S1 + i): str(i + 1) for i in range(9)},
    Tile.EAST: "E", Tile.SOUTH: "S", Tile.WEST: "W", Tile.NORTH: "N",
    Tile.RED: "R", Tile.GREEN: "G", Tile.WHITE: "Wh",
    Tile.PLUM: "1F", Tile.ORCHID: "2F", Tile.CHRYSANTHEMUM: "3F", Tile.BAMBOO: "4F",
    Tile.SPRING: "1S", Tile.SUMMER: "2S", Tile.AUTUMN: "3S", Tile.WINTER: "4S",
    Tile.CAT: "Ca", Tile.MOUSE: "Mo", Tile.ROOSTER: "Ro", Tile.CENTIPEDE: "Ce",
}


def marks(tile):
    """(text, cap height in viewBox units, the path data drawn) of each mark on a face."""
    out = []
    for g in ET.fromstring(tile_svg(tile)).iter(f"{NS}g"):
        if g.get("data-mark") is None:
            continue
        scale = float(re.search(r"scale\(([\d.]+)\)", g.get("transform")).group(1))
        ink = g.findall(f"{NS}g")[-1]   # the last layer is the ink, over any halo
        out.append((g.get("data-mark"), 10 * scale, [p.get("d") for p in ink]))
    return out


def test_every_tile_kind_has_an_expected_mark():
    assert sorted(EXPECTED_MARKS) == sorted(ALL_TILES)


@pytest.mark.parametrize("tile", ALL_TILES, ids=lambda t: t.text)
def test_every_face_carries_its_latin_mark_drawn_from_the_glyphs(tile):
    [(text, height, paths)] = marks(tile)
    assert text == EXPECTED_MARKS[tile]
    assert paths == [GLYPHS[ch][1] for ch in text]
    # readable at the page's smallest tiles: a fifth of the tile's height at least
    assert height >= 15


@pytest.mark.parametrize("tile", [Tile(Tile.M1 + i) for i in range(9)], ids=lambda t: t.text)
def test_characters_tiles_differ_by_a_big_digit(tile):
    """Not only a corner digit: the number fills a third of the face."""
    [(_, height, _)] = marks(tile)
    assert height >= 25


def test_red_and_green_dragons_differ_in_shape_not_only_colour():
    red, green = tile_body(Tile.RED), tile_body(Tile.GREEN)
    shapes = re.compile(r'(?:fill|stroke)="#[0-9a-f]{6}"')
    assert shapes.sub("", red) != shapes.sub("", green)
    assert marks(Tile.RED)[0][0] == "R" and marks(Tile.GREEN)[0][0] == "G"


def test_the_glyphs_are_ascii_letters_and_digits_with_path_data():
    for ch, (width, d) in GLYPHS.items():
        assert ch.isascii() and ch.isalnum()
        assert 0 < width <= 10
        assert re.fullmatch(r"[MLHVCQZ0-9. -]+", d), ch
