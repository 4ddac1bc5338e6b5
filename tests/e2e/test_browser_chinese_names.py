"""The Chinese names of the learn pages are text, so they need a font: on a device without
one they are left out with a note, rather than drawn as boxes; with one they show."""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sgmahjong.rules.catalog import PATTERNS
from sgmahjong.rules.loading import load_rules
from sgmahjong.tiles import ALL_TILES

from .conftest import CHROMIUM_ARGS, LATIN_FONT_DIRS, Server, chromium_path, fonts_conf
from .test_browser_learn import AA, contrast

CJK_FONT_DIR = "/usr/share/fonts/truetype/wqy"    # Debian's fonts-wqy-microhei (.ci/run)


def visible_text(page: Any) -> str:
    return str(page.get_by_test_id("learn-page").inner_text())


def chinese(text: str) -> list[str]:
    return [ch for ch in text if unicodedata.east_asian_width(ch) in "WF"]


def test_without_a_chinese_font_the_names_are_left_out(browser: Any, server: Server) -> None:
    """The module's browser has Latin fonts only."""
    page = browser.new_context().new_page()
    page.goto(server.url + "/learn/tiles")
    assert page.locator("[data-testid=tile-card]").count() == len(ALL_TILES)
    assert page.get_by_test_id("no-cjk-note").is_visible()
    text = visible_text(page)
    assert chinese(text) == [], "Chinese characters drawn without a font for them"
    east = page.locator("[data-testid=tile-card][data-tile='1z']").inner_text()
    assert "East Wind" in east and "1z" in east        # the English name and notation stay
    page.goto(server.url + "/learn/tai")
    headers = page.locator("table.learn-table th:visible").all_inner_texts()
    assert headers == ["Pattern", "Tai"]               # the Chinese column is left out
    assert chinese(visible_text(page)) == []
    page.context.close()


def test_the_note_without_a_chinese_font_can_be_read(browser: Any, server: Server) -> None:
    """The note's colour against the page behind it, as the browser draws them: at least
    WCAG AA (4.5:1)."""
    page = browser.new_context().new_page()
    for path in ("/learn/tiles", "/learn/tai?rules=garden"):
        page.goto(server.url + path)
        assert page.get_by_test_id("no-cjk-note").is_visible()
        ratio = contrast(page, "[data-testid=no-cjk-note]")
        assert ratio >= AA, f"{path}: the note's contrast is {ratio:.2f}:1"
    page.context.close()


@pytest.fixture(scope="module")
def cjk_browser(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A second Chromium, from the same Playwright, with a Chinese font beside the Latin."""
    if not Path(CJK_FONT_DIR).is_dir():
        message = f"no Chinese font in {CJK_FONT_DIR} (Debian: fonts-wqy-microhei)"
        if os.environ.get("SGMAHJONG_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    dirs = [d for d in LATIN_FONT_DIRS if Path(d).is_dir()] + [CJK_FONT_DIR]
    conf = fonts_conf(tmp_path_factory.mktemp("cjk-fonts"), dirs, reject=())
    b = browser.browser_type.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS,
                                    headless=True,
                                    env=dict(os.environ, FONTCONFIG_FILE=str(conf)))
    yield b
    b.close()


def test_with_a_chinese_font_the_names_show(cjk_browser: Any, server: Server) -> None:
    page = cjk_browser.new_context().new_page()
    page.goto(server.url + "/learn/tiles")
    assert not page.get_by_test_id("no-cjk-note").is_visible()
    for tile in ALL_TILES:
        card = page.locator(f"[data-testid=tile-card][data-tile='{tile.text}']").inner_text()
        assert tile.chinese in card
    page.goto(server.url + "/learn/tai")
    headers = page.locator("table.learn-table th:visible").all_inner_texts()
    assert headers == ["Pattern", "Chinese", "Tai"]
    rows = page.locator("table.learn-table tbody tr").all_inner_texts()
    standard = load_rules("standard").scoring.patterns
    names = {PATTERNS[p].chinese for p in standard}
    assert {r.split("\t")[1].strip() for r in rows} == names
    page.context.close()
