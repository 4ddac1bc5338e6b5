"""T shows the tiles in letters for a terminal whose font has no Chinese characters: every
tile of the hand is then told apart in ASCII, nothing on the table needs a CJK font, and the
choice is kept for the next game."""

from __future__ import annotations

import io
import json
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import Static

from sgmahjong.render.labels import face
from sgmahjong.tiles import ALL_TILES, Tile
from sgmahjong.tui.app import PlayApp
from sgmahjong.tui.setup import SetupScreen
from sgmahjong.tui.widgets import TileWidget

from .conftest import settle
from .test_play import HOPELESS, SIZE

# What a player reads under each mark, worked out from the tile's kind (not from the code)
KIND_LETTERS = {"m": "Ch", "p": "Ci", "s": "Ba", "f": "Fl", "g": "Se", "a": "An"}
PANELS = ("status", "left", "top", "right", "center", "me-info", "message", "caret")


def letters(tile: Tile) -> tuple[str, str]:
    """The tile's box in letters: its mark above, its kind below."""
    if tile.is_wind:
        return {Tile.EAST: "E", Tile.SOUTH: "S", Tile.WEST: "W", Tile.NORTH: "N"}[tile], "Wd"
    if tile.is_dragon:
        return {Tile.WHITE: "Wh", Tile.GREEN: "G", Tile.RED: "R"}[tile], "Dr"
    return str(tile.number), KIND_LETTERS[tile.suit]


def boxes(app: PlayApp) -> list[tuple[str, str]]:
    """The hand's tiles as the screen draws them: (mark row, kind row) of each box."""
    out = []
    for w in app.screen.query(TileWidget):
        if not w.display:
            continue
        rows = str(w.render()).split("\n")
        out.append((rows[1].strip("│ "), rows[2].strip("│ ")))
    return out


def cjk(text: str) -> list[str]:
    return [ch for ch in text if unicodedata.east_asian_width(ch) in "WF"]


def hand_order(app: PlayApp) -> list[Tile]:
    """East's concealed tiles as the engine holds them: sorted, the drawn tile last."""
    v = app.session.view()
    tiles = sorted(t for t in v.concealed if not t.is_bonus)
    tiles.remove(v.last_drawn)
    return [*tiles, v.last_drawn]


@pytest.mark.asyncio
async def test_t_shows_the_hand_in_letters_and_back(
        table_app: Callable[..., PlayApp], data_dir: Path) -> None:
    app = table_app(HOPELESS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        order = hand_order(app)
        assert len(order) == 14
        # Chinese first: the kind row is the character (5 Circles under 筒)
        assert boxes(app)[order.index(Tile.P5)] == ("5", "筒")
        await pilot.press("t")
        await pilot.pause()
        assert boxes(app) == [letters(t) for t in order]
        assert len(set(boxes(app))) == len(set(order))
        # nothing on the table needs a CJK font any more
        for panel in PANELS:
            text = str(app.screen.query_one(f"#{panel}", Static).render())
            assert cjk(text) == [], (panel, text)
        saved = json.loads((data_dir / "progress.json").read_text(encoding="utf-8"))
        assert saved["tiles"] == "latin"
        await pilot.press("t")
        await pilot.pause()
        assert boxes(app)[order.index(Tile.M1)] == ("1", "萬")
    assert face(Tile.P5).short == "5筒"      # the app left the labels as it found them


@pytest.mark.asyncio
async def test_the_choice_is_kept_and_the_option_wins(
        table_app: Callable[..., PlayApp], data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / "progress.json").write_text(json.dumps({"version": 1, "stars": {},
                                                        "tiles": "latin"}), encoding="utf-8")
    app = table_app(HOPELESS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert boxes(app)[hand_order(app).index(Tile.S3)] == ("3", "Ba")
    app = table_app(HOPELESS, tiles="chinese")          # sgmahjong play --tiles chinese
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert boxes(app)[hand_order(app).index(Tile.S3)] == ("3", "索")
    assert face(Tile.S3).short == "3索"


@pytest.mark.asyncio
async def test_the_setup_screen_offers_letters(data_dir: Path) -> None:
    app = PlayApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, SetupScreen)
        guide = str(app.screen.query_one("#guide", Static).render())
        assert "Press T for letters" in " ".join(guide.split())
        await pilot.press("t")
        await pilot.pause()
        assert face(Tile.P5).short == "5Ci"
    saved = json.loads((data_dir / "progress.json").read_text(encoding="utf-8"))
    assert saved["tiles"] == "latin"


@pytest.mark.parametrize("preset", ["standard", "garden"])
def test_pages_in_letters_need_no_chinese_font(preset: str) -> None:
    """With the tiles in letters, the learning pages leave the Chinese names out too (the
    terminal has no font for them); in Chinese they are there."""
    from rich.console import Console

    from sgmahjong.render.labels import set_script
    from sgmahjong.render.pages import pages
    from sgmahjong.rules.loading import load_rules
    from sgmahjong.tui.pages import render_page

    def shown(script: str) -> str:
        set_script(script)
        try:
            console = Console(record=True, width=100, file=io.StringIO())
            for p in pages(load_rules(preset)):
                console.print(render_page(p))
            return console.export_text()
        finally:
            set_script("chinese")

    assert cjk(shown("latin")) == []
    text = shown("chinese")
    assert all(t.chinese in text for t in ALL_TILES)
