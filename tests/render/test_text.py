"""Plain-text tiles: boxes of equal display width, one-line hands, Rich markup strings."""

import ast
import re
import sys
import unicodedata
from pathlib import Path

import pytest

import sgmahjong.render
from sgmahjong.hand import Hand
from sgmahjong.melds import Meld
from sgmahjong.render.text import (
    BOX_HEIGHT,
    BOX_WIDTH,
    back_box,
    display_width,
    hand_boxes,
    hand_text,
    markup,
    meld_text,
    pad,
    tile_box,
    tiles_boxes,
    tiles_line,
)
from sgmahjong.tiles import ALL_TILES, Tile, parse_tiles

TAG = re.compile(r"\[(?:/|bold|dim|#)[^\]]*\]")


def plain(text: str) -> str:
    """Text with our Rich markup tags removed."""
    return TAG.sub("", text)


def test_display_width_counts_wide_characters_as_two():
    assert unicodedata.east_asian_width("萬") == "W"
    assert display_width("萬") == 2
    assert display_width("5筒") == 3
    assert display_width("蜈蚣") == 4
    assert display_width("┌──┐") == 4
    assert pad("筒", 4, "center") == " 筒 "


@pytest.mark.parametrize("tile", ALL_TILES, ids=lambda t: t.text)
def test_every_tile_box_has_the_same_display_width(tile):
    box = tile_box(tile)
    assert len(box) == BOX_HEIGHT
    assert [display_width(line) for line in box] == [BOX_WIDTH] * BOX_HEIGHT


@pytest.mark.parametrize("tile", ALL_TILES, ids=lambda t: t.text)
def test_styled_box_is_the_plain_box_with_markup(tile):
    assert [plain(line) for line in tile_box(tile, styled=True)] == tile_box(tile)


def test_box_shows_number_and_chinese_character():
    assert tile_box(Tile.P5) == ["┌──┐", "│5 │", "│筒│", "└──┘"]
    assert tile_box(Tile.WHITE)[1:3] == ["│Wh│", "│白│"]
    assert [display_width(line) for line in back_box()] == [BOX_WIDTH] * BOX_HEIGHT


def test_tiles_side_by_side_keep_their_order():
    rows = tiles_boxes(parse_tiles("1m5p1z"))
    assert rows[2] == "│萬││筒││東│"
    assert {display_width(r) for r in rows} == {3 * BOX_WIDTH}


def test_tiles_line_uses_short_labels():
    assert tiles_line(parse_tiles("19m5p7z1f3a")) == "1萬 9萬 5筒 R中 1梅 Ro雞"


def test_hand_text_lists_concealed_sorted_then_sets_then_bonus():
    hand = Hand.parse("5p1m9s, pong 111z, concealed-kong 2222s, bonus 4a1g")
    assert hand_text(hand) == ("1萬 5筒 9索 | pong E東 E東 E東 | concealed-kong 2索 2索 2索 2索"
                               " | bonus 1春 Ce蜈")
    assert plain(hand_text(hand, styled=True)) == hand_text(hand)


def test_meld_text_names_the_kind():
    assert meld_text(Meld.parse("chow 345m")) == "chow 3萬 4萬 5萬"


def test_hand_boxes_show_a_concealed_kong_with_its_ends_face_down():
    hand = Hand.parse("12m, concealed-kong 2222s")
    rows = hand_boxes(hand)
    assert rows[1] == "│1 ││2 │ │▒▒││2 ││2 ││▒▒│"
    assert len({display_width(r) for r in rows}) == 1
    assert [plain(r) for r in hand_boxes(hand, styled=True)] == rows


def test_markup_is_rich_markup_in_the_tile_colour():
    assert markup(Tile.P5) == "[bold #4d8fe6]5筒[/]"
    assert markup(Tile.EAST) == "[bold]E東[/]"
    assert markup(Tile.P5, on_tile=True) == "[bold #1f5fbf on #fbf7ea]5筒[/]"


def test_rich_reads_the_markup_as_the_plain_text():
    text_mod = pytest.importorskip("rich.text")
    hand = Hand.parse("123m456p99s1z, pong 777z, bonus 1f2a")
    rich_text = text_mod.Text.from_markup(hand_text(hand, styled=True))
    assert rich_text.plain == hand_text(hand)
    for line, styled in zip(hand_boxes(hand), hand_boxes(hand, styled=True), strict=True):
        assert text_mod.Text.from_markup(styled).plain == line


def test_render_imports_only_the_standard_library_and_the_core():
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    for path in Path(sgmahjong.render.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"
