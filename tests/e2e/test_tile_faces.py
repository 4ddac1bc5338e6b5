"""Every tile face and icon looks the same on every machine, and no two faces look alike.

The faces are drawn in Chromium twice: in the ``browser`` of these tests (Latin fonts only,
as on a fresh Debian without CJK or emoji fonts) and in a Chromium with no font at all.
A face that drew any text would change between the two; the pictures are compared pixel
by pixel. A control shows the font-less Chromium really has no fonts, and the Latin one
no CJK or emoji fonts, so these comparisons can fail.
"""

from __future__ import annotations

import math
import os
import re
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sgmahjong.render.svg import BACK_ID, ICONS, icon_id, sprite_sheet, symbol_id
from sgmahjong.tiles import ALL_TILES

from .conftest import CHROMIUM_ARGS, chromium_path, fonts_conf

FACES = [symbol_id(t) for t in ALL_TILES] + [BACK_ID]
ICON_IDS = [icon_id(name) for name in ICONS]
STATIC = Path(__file__).parents[2] / "src" / "sgmahjong" / "web" / "static"
# The page's tile widths (app.css): the hand on a wide screen and the smallest discards.
SIZES = (46, 18)
TOFU = "\ue000"   # a private-use character: no font has it, so it is drawn as a missing glyph


def pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and rows of raw pixels of an 8-bit, non-interlaced PNG (as Chromium
    writes its screenshots), unfiltered, so two pictures compare pixel by pixel."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, data, header = 8, b"", b""
    while pos < len(png):
        (length,), kind = struct.unpack(">I", png[pos:pos + 4]), png[pos + 4:pos + 8]
        chunk = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = chunk
        elif kind == b"IDAT":
            data += chunk
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and interlace == 0 and colour in (2, 6)
    bpp = 4 if colour == 6 else 3
    raw, stride, rows = zlib.decompress(data), width * bpp, []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        filt, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if filt == 1:
                line[i] = (line[i] + a) & 255
            elif filt == 2:
                line[i] = (line[i] + b) & 255
            elif filt == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif filt == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows


Picture = tuple[bytes, ...]   # rows of RGB(A) pixels


def differing(one: Picture, two: Picture) -> int:
    """How many pixels differ between two pictures of the same size."""
    assert (len(one), len(one[0])) == (len(two), len(two[0]))
    return sum(r1[x:x + 3] != r2[x:x + 3] for r1, r2 in zip(one, two, strict=True)
               for x in range(0, len(r1), 3))


def sheet() -> str:
    """A page of every face at the page's tile sizes and every icon at a button's size."""
    faces = "".join(
        f'<svg data-id="{i}-{w}" viewBox="0 0 60 80" style="width:{w}px;height:{w * 4 // 3}px">'
        f'<use href="#{i}"/></svg>' for w in SIZES for i in FACES)
    icons = "".join(
        f'<svg data-id="{i}" viewBox="0 0 24 24" style="width:20px;height:20px;'
        f'color:#1b2433;background:#e8e8e8"><use href="#{i}"/></svg>' for i in ICON_IDS)
    return ("<!doctype html><html><body style='margin:0;background:#1f5e3b'>"
            f"{sprite_sheet()}<div style='display:flex;flex-wrap:wrap;gap:4px'>{faces}{icons}"
            "</div></body></html>")


def text_sample(chars: str) -> str:
    spans = "".join(f'<span data-id="c{ord(ch)}" style="display:inline-block;width:40px;'
                    f'height:40px;font-size:30px">{ch}</span>' for ch in chars)
    return f"<!doctype html><html><body style='margin:0;background:#fff'>{spans}</body></html>"


def shots(browser: Any, html: str, ids: list[str]) -> dict[str, Picture]:
    """The picture of each element ``[data-id=...]`` of ``html``, cut from one screenshot."""
    page = browser.new_page(viewport={"width": 720, "height": 400})
    try:
        page.set_content(html)
        boxes = page.evaluate("""ids => ids.map((i) => {
            const r = document.querySelector(`[data-id="${i}"]`).getBoundingClientRect();
            return [r.left, r.top, r.right, r.bottom]; })""", ids)
        width, _, rows = pixels(page.screenshot(full_page=True))
    finally:
        page.close()
    bpp = len(rows[0]) // width
    out = {}
    for i, (left, top, right, bottom) in zip(ids, boxes, strict=True):
        x0, x1 = math.floor(left), math.ceil(right)
        out[i] = tuple(b"".join(row[x * bpp:x * bpp + 3] for x in range(x0, x1))
                       for row in rows[math.floor(top):math.ceil(bottom)])
    return out


@pytest.fixture(scope="module")
def fontless(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A second Chromium, from the same Playwright, whose fontconfig knows no font at all."""
    conf = fonts_conf(tmp_path_factory.mktemp("no-fonts"), font_dirs=())
    b = browser.browser_type.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS,
                                    headless=True, env=dict(os.environ, FONTCONFIG_FILE=str(conf)))
    yield b
    b.close()


SHEET_IDS = [f"{i}-{w}" for w in SIZES for i in FACES] + ICON_IDS


def test_the_controls_the_font_less_chromium_has_no_fonts_and_the_test_one_no_cjk_or_emoji(
        browser: Any, fontless: Any) -> None:
    solid = shots(browser, "<div data-id='x' style='width:30px;height:20px;background:#1f5e3b'>",
                  ["x"])["x"]
    assert set(solid) == {b"\x1f\x5e\x3b" * 30} and len(solid) == 20   # the PNG reader
    samples = "Aa5" + "萬東🔊" + TOFU
    latin = shots(browser, text_sample(samples), [f"c{ord(c)}" for c in samples])
    bare = shots(fontless, text_sample(samples), [f"c{ord(c)}" for c in samples])
    for ch in "Aa5":
        assert differing(latin[f"c{ord(ch)}"], bare[f"c{ord(ch)}"]) > 20, ch
    # with Latin fonts only, a Chinese character or an emoji is a missing glyph
    for ch in "萬東🔊":
        assert differing(latin[f"c{ord(ch)}"], latin[f"c{ord(TOFU)}"]) == 0, ch


def test_every_face_and_icon_renders_the_same_with_and_without_fonts(
        browser: Any, fontless: Any) -> None:
    with_fonts = shots(browser, sheet(), SHEET_IDS)
    without = shots(fontless, sheet(), SHEET_IDS)
    changed = {i: n for i in SHEET_IDS if (n := differing(with_fonts[i], without[i]))}
    assert changed == {}


def test_no_two_faces_look_alike(browser: Any) -> None:
    pictures = shots(browser, sheet(), SHEET_IDS)
    for w in SIZES:
        seen: dict[bytes, str] = {}
        for i in FACES:
            rows = b"".join(pictures[f"{i}-{w}"])
            assert rows not in seen, f"{i} and {seen[rows]} look alike at {w} px"
            seen[rows] = i
    icons = {b"".join(pictures[i]) for i in ICON_IDS}
    assert len(icons) == len(ICON_IDS)


def test_the_page_uses_no_character_the_latin_fonts_lack(browser: Any) -> None:
    """The words of the page may use typographic signs (· — ★ ←), but only those a Latin
    font has: an emoji or a Chinese character would be an empty box on such a machine."""
    used = sorted({ch for f in STATIC.iterdir() if f.suffix in {".js", ".html", ".css"}
                   for ch in re.findall(r"[^\x00-\x7f]", f.read_text(encoding="utf-8"))})
    assert used, "the control: the page does use some signs"
    chars = "".join(used) + TOFU
    pictures = shots(browser, text_sample(chars), [f"c{ord(c)}" for c in chars])
    missing = [ch for ch in used
               if differing(pictures[f"c{ord(ch)}"], pictures[f"c{ord(TOFU)}"]) == 0]
    assert missing == []
