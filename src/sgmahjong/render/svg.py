"""SVG tiles drawn by the project: one ivory tile per kind, a face-down back and a sprite sheet.

Every tile is drawn in a 60 x 80 viewBox from plain shapes and text; nothing is fetched.
The Chinese characters use the viewer's CJK fonts (listed in :data:`CJK_FONTS`).
Output is deterministic: the same call gives the same string.

>>> svg = tile_svg(Tile.P5)
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and "<title>5 Circles</title>" in svg
True
>>> symbol_id(Tile.P5)
't-5p'
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from ..tiles import ALL_TILES, Tile
from .labels import BACK_COLOUR, IVORY, face

__all__ = [
    "BACK_ID",
    "CJK_FONTS",
    "VIEW_HEIGHT",
    "VIEW_WIDTH",
    "back_svg",
    "sprite_sheet",
    "symbol_id",
    "tile_body",
    "tile_svg",
]

VIEW_WIDTH = 60
VIEW_HEIGHT = 80
BACK_ID = "t-back"
CJK_FONTS = ("'Noto Serif CJK TC', 'Noto Serif TC', 'Source Han Serif TC', 'Songti TC', "
             "PMingLiU, MingLiU, 'Noto Serif CJK SC', 'Source Han Serif SC', SimSun, "
             "'Noto Sans CJK TC', 'Microsoft JhengHei', serif")
"""The font stack for Chinese characters: traditional forms (萬 發 貓) first."""
LATIN_FONTS = "Georgia, 'DejaVu Serif', 'Times New Roman', serif"

_NS = "http://www.w3.org/2000/svg"
_EDGE = "#d8cdb0"
_OUTLINE = "#7d735f"
_INK = "#1b2433"
_RED = "#c8102e"
_GREEN = "#1e7b3a"
_BLUE = "#1f5fbf"
_DARK_GREEN = "#145226"
_CN_DIGITS = "一二三四五六七八九"
_CX = 30.0
_CY = 38.5


def _n(x: float) -> str:
    """A coordinate written briefly and deterministically."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _attrs(**kw: object) -> str:
    parts = []
    for key, value in kw.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        text = _n(value) if isinstance(value, float | int) else str(value)
        parts.append(f"{name}={quoteattr(text)}")
    return " ".join(parts)


def _el(tag: str, **kw: object) -> str:
    return f"<{tag} {_attrs(**kw)}/>"


def _text(x: float, cy: float, text: str, size: float, fill: str, *,
          cjk: bool = True, weight: str = "bold") -> str:
    """Text centred on (x, cy); a CJK glyph's middle sits about 0.38 em above its baseline."""
    baseline = cy + size * (0.38 if cjk else 0.35)
    family = None if cjk else LATIN_FONTS
    attrs = _attrs(x=x, y=baseline, font_size=size, fill=fill, font_weight=weight,
                   text_anchor="middle", font_family=family)
    return f"<text {attrs}>{escape(text)}</text>"


# -- Circles -----------------------------------------------------------------------------

def _pip(cx: float, cy: float, r: float, colour: str) -> str:
    return "".join([
        _el("circle", cx=cx, cy=cy, r=r, fill=colour),
        _el("circle", cx=cx, cy=cy, r=r * 0.74, fill=IVORY),
        _el("circle", cx=cx, cy=cy, r=r * 0.56, fill=colour),
        _el("circle", cx=cx, cy=cy, r=r * 0.2, fill=IVORY),
    ])


def _big_circle() -> str:
    out = [_el("circle", cx=_CX, cy=_CY, r=21, fill=_GREEN),
           _el("circle", cx=_CX, cy=_CY, r=18.2, fill=IVORY)]
    dots = (
        (15.0, 0.0), (10.61, 10.61), (0.0, 15.0), (-10.61, 10.61),
        (-15.0, 0.0), (-10.61, -10.61), (0.0, -15.0), (10.61, -10.61),
    )
    for i, (dx, dy) in enumerate(dots):
        out.append(_el("circle", cx=_CX + dx, cy=_CY + dy, r=2.1, fill=_RED if i % 2 else _BLUE))
    out += [_el("circle", cx=_CX, cy=_CY, r=11, fill=_BLUE),
            _el("circle", cx=_CX, cy=_CY, r=7.5, fill=IVORY),
            _el("circle", cx=_CX, cy=_CY, r=5, fill=_RED),
            _el("circle", cx=_CX, cy=_CY, r=1.8, fill=IVORY)]
    return "".join(out)


_B, _G, _R = _BLUE, _GREEN, _RED
# (x, y, colour) per pip, and the pip radius, for 2-9 Circles, laid out as on real tiles.
_CIRCLES: dict[int, tuple[float, list[tuple[float, float, str]]]] = {
    2: (11.5, [(30, 20.5, _G), (30, 56.5, _B)]),
    3: (9.5, [(15.5, 16, _B), (30, 38.5, _R), (44.5, 61, _G)]),
    4: (10.5, [(18, 21, _B), (42, 21, _G), (18, 56, _G), (42, 56, _B)]),
    5: (9, [(16, 17.5, _B), (44, 17.5, _G), (30, 38.5, _R), (16, 59.5, _G), (44, 59.5, _B)]),
    6: (8.5, [(19, 15.5, _G), (41, 15.5, _G), (19, 40, _R), (41, 40, _R), (19, 61, _R),
              (41, 61, _R)]),
    7: (7.3, [(14, 11.5, _G), (30, 18, _G), (46, 24.5, _G), (19, 43, _R), (41, 43, _R),
              (19, 62, _R), (41, 62, _R)]),
    8: (7.2, [(x, y, _B) for y in (12.5, 29.5, 46.5, 63.5) for x in (19, 41)]),
    9: (7.4, [(x, y, c) for y, c in ((15.5, _B), (38.5, _R), (61.5, _G))
              for x in (13.5, 30, 46.5)]),
}


def _circles(n: int) -> str:
    if n == 1:
        return _big_circle()
    r, pips = _CIRCLES[n]
    return "".join(_pip(x, y, r, c) for x, y, c in pips)


# -- Bamboo ------------------------------------------------------------------------------

def _stick(cx: float, cy: float, h: float, colour: str = _GREEN, angle: float = 0) -> str:
    w = 6.2
    dark = _DARK_GREEN if colour == _GREEN else "#7a0a1c" if colour == _RED else "#123a7a"
    top, node = -h / 2, 2.2
    parts = [
        _el("rect", x=-w / 2, y=top, width=w, height=h, rx=w / 2, fill=colour),
        _el("line", x1=0, y1=top + 2.8, x2=0, y2=-2, stroke=IVORY, stroke_width=0.9,
            stroke_opacity=0.7, stroke_linecap="round"),
        _el("line", x1=0, y1=2, x2=0, y2=h / 2 - 2.8, stroke=IVORY, stroke_width=0.9,
            stroke_opacity=0.7, stroke_linecap="round"),
    ]
    for y in (top, -node / 2, h / 2 - node):
        parts.append(_el("rect", x=-w / 2 - 0.7, y=y, width=w + 1.4, height=node, rx=1,
                         fill=dark))
    rot = f" rotate({_n(angle)})" if angle else ""
    return f'<g transform="translate({_n(cx)} {_n(cy)}){rot}">{"".join(parts)}</g>'


def _bird() -> str:
    """1 Bamboo: a small green bird on a stem."""
    return "".join([
        _el("path", d="M14 50 Q5 62 9 72 Q15 60 22 55 Z", fill=_BLUE),
        _el("path", d="M17 52 Q12 66 19 73 Q21 60 26 56 Z", fill=_RED),
        _el("ellipse", cx=29, cy=46, rx=15, ry=11, fill=_GREEN),
        _el("path", d="M22 42 Q30 36 38 44 Q30 52 22 42 Z", fill=_DARK_GREEN),
        _el("circle", cx=39, cy=29, r=7.5, fill=_GREEN),
        _el("path", d="M35 22 Q37 14 41 19 Q43 13 45 21 Z", fill=_RED),
        _el("path", d="M46 27 L54 30 L46 33 Z", fill="#e08a00"),
        _el("circle", cx=41, cy=27.5, r=2, fill=IVORY),
        _el("circle", cx=41.4, cy=27.5, r=1, fill=_INK),
        _el("line", x1=26, y1=56, x2=24, y2=64, stroke=_RED, stroke_width=1.6,
            stroke_linecap="round"),
        _el("line", x1=33, y1=56, x2=34, y2=64, stroke=_RED, stroke_width=1.6,
            stroke_linecap="round"),
        _el("line", x1=16, y1=65, x2=46, y2=65, stroke="#7a4f2a", stroke_width=2,
            stroke_linecap="round"),
    ])


_L, _M, _RR = 15.0, 30.0, 45.0
# (x, y, colour, angle) per stick, and the stick length, for 2-9 Bamboo.
_BAMBOO: dict[int, tuple[float, list[tuple[float, float, str, float]]]] = {
    2: (27, [(_M, 21, _G, 0), (_M, 56, _B, 0)]),
    3: (27, [(_M, 21, _G, 0), (20, 56, _G, 0), (40, 56, _G, 0)]),
    4: (27, [(19, 21, _G, 0), (41, 21, _B, 0), (19, 56, _B, 0), (41, 56, _G, 0)]),
    5: (27, [(_L, 21, _G, 0), (_RR, 21, _B, 0), (_M, 38.5, _R, 0), (_L, 56, _B, 0),
             (_RR, 56, _G, 0)]),
    6: (27, [(x, y, _G if y < 30 else _B, 0.0) for y in (21.0, 56.0) for x in (_L, _M, _RR)]),
    7: (19, [(_M, 14, _R, 0), *((x, y, _G, 0.0) for y in (38.0, 61.0) for x in (_L, _M, _RR))]),
    8: (25, [(12, 21, _G, 18), (22, 21, _G, -18), (38, 21, _G, 18), (48, 21, _G, -18),
             (12, 56, _B, -18), (22, 56, _B, 18), (38, 56, _B, -18), (48, 56, _B, 18)]),
    9: (19, [(x, y, _R if x == _M else _G if x == _L else _B, 0)
             for y in (15, 38.5, 62) for x in (_L, _M, _RR)]),
}


def _bamboo(n: int) -> str:
    if n == 1:
        return _bird()
    h, sticks = _BAMBOO[n]
    return "".join(_stick(x, y, h, c, a) for x, y, c, a in sticks)


# -- Honours and bonus tiles -------------------------------------------------------------

def _characters(n: int) -> str:
    return (_text(_CX, 21, _CN_DIGITS[n - 1], 25, _INK)
            + _text(_CX, 54, "萬", 30, _RED))


def _white() -> str:
    return (_el("rect", x=10, y=11, width=40, height=55, rx=3, fill="none", stroke=face(
                Tile.WHITE).colour, stroke_width=3.2)
            + _el("rect", x=15, y=16, width=30, height=45, rx=1.5, fill="none",
                  stroke=face(Tile.WHITE).colour, stroke_width=1.2))


def _corner(text: str, colour: str) -> str:
    """A small Latin index in the top-left corner (the seat number, the wind letter)."""
    return _text(9.5, 9.5, text, 9, colour, cjk=False)


def _seat_badge(number: int, colour: str) -> str:
    return (_el("circle", cx=49, cy=11, r=6.3, fill=colour)
            + _text(49, 11, str(number), 9.5, IVORY, cjk=False))


def _blossom(cx: float, cy: float, colour: str) -> str:
    petals = ((0.0, -4.2), (4.0, -1.3), (2.5, 3.4), (-2.5, 3.4), (-4.0, -1.3))
    return ("".join(_el("circle", cx=cx + dx, cy=cy + dy, r=2.9, fill=colour)
                    for dx, dy in petals)
            + _el("circle", cx=cx, cy=cy, r=2.1, fill="#f2c200"))


_SEASON_MARKS = {
    1: lambda c: _blossom(12, 13, c),
    2: lambda c: (_el("circle", cx=12, cy=13, r=4.2, fill=c)
                  + "".join(_el("line", x1=12 + 5.8 * dx, y1=13 + 5.8 * dy, x2=12 + 7.8 * dx,
                                y2=13 + 7.8 * dy, stroke=c, stroke_width=1.3,
                                stroke_linecap="round")
                            for dx, dy in ((1, 0), (0.71, 0.71), (0, 1), (-0.71, 0.71),
                                           (-1, 0), (-0.71, -0.71), (0, -1), (0.71, -0.71)))),
    3: lambda c: _el("path", d="M6 18 Q8 6 19 7 Q18 17 6 18 Z M7 17 L15 10", fill=c,
                     stroke=IVORY, stroke_width=0.8),
    4: lambda c: "".join(_el("line", x1=12 - 6 * dx, y1=13 - 6 * dy, x2=12 + 6 * dx,
                             y2=13 + 6 * dy, stroke=c, stroke_width=1.6,
                             stroke_linecap="round")
                         for dx, dy in ((1, 0), (0.5, 0.87), (-0.5, 0.87))),
}


def _bonus(tile: Tile) -> str:
    f = face(tile)
    mark = _blossom(12, 13, f.colour) if tile.is_flower else _SEASON_MARKS[tile.number](
        f.colour)
    return (mark + _seat_badge(tile.number, f.colour)
            + _text(_CX, 45, tile.chinese, 34, f.colour))


def _cat(c: str) -> str:
    return "".join([
        _el("path", d="M17 16 L20 4 L27 12 Z M43 16 L40 4 L33 12 Z", fill=c),
        _el("circle", cx=30, cy=20, r=12, fill=c),
        _el("ellipse", cx=25, cy=18.5, rx=2.2, ry=3, fill="#f2c200"),
        _el("ellipse", cx=35, cy=18.5, rx=2.2, ry=3, fill="#f2c200"),
        _el("ellipse", cx=25, cy=18.5, rx=0.8, ry=2.4, fill=_INK),
        _el("ellipse", cx=35, cy=18.5, rx=0.8, ry=2.4, fill=_INK),
        _el("path", d="M28.5 24 L31.5 24 L30 26 Z", fill="#e48aa0"),
        _el("path", d="M10 23 L22 25 M10 28 L22 27 M50 23 L38 25 M50 28 L38 27", stroke=_INK,
            stroke_width=0.8),
    ])


def _mouse(c: str) -> str:
    return "".join([
        _el("path", d="M14 26 Q4 30 8 36 Q12 40 6 44", fill="none", stroke=c, stroke_width=1.6,
            stroke_linecap="round"),
        _el("ellipse", cx=28, cy=23, rx=14, ry=9, fill=c),
        _el("circle", cx=37, cy=13, r=5.5, fill=c),
        _el("circle", cx=37, cy=13, r=3, fill="#e48aa0"),
        _el("path", d="M38 17 Q48 18 52 24 Q44 28 38 27 Z", fill=c),
        _el("circle", cx=44, cy=21.5, r=1.4, fill=_INK),
        _el("circle", cx=52, cy=24, r=1.5, fill="#e48aa0"),
    ])


def _rooster(c: str) -> str:
    return "".join([
        _el("path", d="M12 12 Q6 24 16 30 Q12 20 18 16 Z M16 9 Q12 22 20 28 Q18 18 22 13 Z",
            fill=_GREEN),
        _el("ellipse", cx=27, cy=24, rx=11, ry=8.5, fill=c),
        _el("circle", cx=37, cy=12, r=5.5, fill=c),
        _el("path", d="M33 8 Q33 2 36 5 Q37 1 39 5 Q41 2 41.5 8 Z", fill=_RED),
        _el("path", d="M42 11 L47 13 L42 15 Z", fill="#e08a00"),
        _el("path", d="M39 16 Q40 21 37.5 20 Z", fill=_RED),
        _el("circle", cx=38.5, cy=11, r=1.1, fill=_INK),
        _el("path", d="M25 32 L24 38 M30 32 L31 38", stroke="#e08a00", stroke_width=1.5,
            stroke_linecap="round"),
    ])


def _centipede(c: str) -> str:
    segments = [(11 + 5 * i, 22 + (1.2 if i % 2 else -1.2)) for i in range(8)]
    legs = "".join(_el("path", d=f"M{_n(x)} {_n(y)} l-2.5 -8 M{_n(x)} {_n(y)} l-2.5 8",
                       stroke=_INK, stroke_width=1, stroke_linecap="round")
                   for x, y in segments[:-1])
    body = "".join(_el("circle", cx=x, cy=y, r=3.4, fill=c) for x, y in segments[:-1])
    hx, hy = segments[-1]
    head = (_el("circle", cx=hx, cy=hy, r=4.3, fill=_RED)
            + _el("path", d=f"M{_n(hx + 2)} {_n(hy - 3)} q3 -8 8 -8 M{_n(hx + 3)} {_n(hy - 1)} "
                  "q5 -5 8 -2", fill="none", stroke=_INK, stroke_width=1,
                  stroke_linecap="round"))
    return legs + body + head


_ANIMAL_EMBLEMS = {Tile.CAT: _cat, Tile.MOUSE: _mouse, Tile.ROOSTER: _rooster,
                   Tile.CENTIPEDE: _centipede}


def _animal(tile: Tile) -> str:
    f = face(tile)
    emblem = _ANIMAL_EMBLEMS[tile](f.colour)
    name = tile.chinese
    size = 26 if len(name) == 1 else 19
    return emblem + _text(_CX, 57, name, size, f.colour)


# -- Assembly ----------------------------------------------------------------------------

def _frame(face_fill: str) -> str:
    return (_el("rect", x=0.75, y=0.75, width=58.5, height=78.5, rx=6.5, fill=_EDGE,
                stroke=_OUTLINE, stroke_width=1)
            + _el("rect", x=1.6, y=1.6, width=56.8, height=73.4, rx=5.5, fill=face_fill))


def _drawing(tile: Tile) -> str:
    f = face(tile)
    if tile.suit == "m":
        return _corner(f.text, f.colour) + _characters(tile.number)
    if tile.suit == "p":
        return _circles(tile.number)
    if tile.suit == "s":
        return _bamboo(tile.number)
    if tile.is_wind:
        return _corner(f.text, _BLUE) + _text(_CX, 40, tile.chinese, 40, f.colour)
    if tile is Tile.WHITE:
        return _white()
    if tile.is_dragon:
        return _text(_CX, 40, tile.chinese, 42, f.colour)
    if tile.is_animal:
        return _animal(tile)
    return _bonus(tile)


def tile_body(tile: Tile) -> str:
    """The shapes of one tile in the 60 x 80 viewBox, without the ``<svg>`` element."""
    return (f"<g font-family={quoteattr(CJK_FONTS)}>"
            f"{_frame(IVORY)}{_drawing(tile)}</g>")


def _back_body() -> str:
    return (_frame(BACK_COLOUR)
            + _el("rect", x=6, y=6, width=48, height=64, rx=3.5, fill="none",
                  stroke="#6fb08f", stroke_width=1.2)
            + _el("path", d="M30 22 L42 38 L30 54 L18 38 Z", fill="none", stroke="#6fb08f",
                  stroke_width=1.2))


def _svg(body: str, title: str, width: float, height: float) -> str:
    return (f'<svg xmlns="{_NS}" {_attrs(width=width, height=height)} '
            f'viewBox="0 0 {VIEW_WIDTH} {VIEW_HEIGHT}" role="img" '
            f"aria-label={quoteattr(title)}><title>{escape(title)}</title>{body}</svg>")


def tile_svg(tile: Tile, width: float = VIEW_WIDTH, height: float = VIEW_HEIGHT) -> str:
    """A complete ``<svg>`` element for one tile, titled with its English name."""
    return _svg(tile_body(tile), tile.english, width, height)


def back_svg(width: float = VIEW_WIDTH, height: float = VIEW_HEIGHT) -> str:
    """A complete ``<svg>`` element for a face-down tile."""
    return _svg(_back_body(), "Face-down tile", width, height)


def symbol_id(tile: Tile) -> str:
    """The id of a tile's ``<symbol>`` in :func:`sprite_sheet`: ``"t-"`` and its notation."""
    return f"t-{tile.text}"


def sprite_sheet() -> str:
    """One hidden ``<svg>`` holding a ``<symbol>`` per tile kind and the back (``t-back``).

    The web page inlines it once and draws a tile with
    ``<svg viewBox="0 0 60 80"><use href="#t-5p"/></svg>``.
    """
    view = f"0 0 {VIEW_WIDTH} {VIEW_HEIGHT}"
    symbols = [f'<symbol id="{symbol_id(t)}" viewBox="{view}"><title>{escape(t.english)}'
               f"</title>{tile_body(t)}</symbol>" for t in ALL_TILES]
    symbols.append(f'<symbol id="{BACK_ID}" viewBox="{view}"><title>Face-down tile</title>'
                   f"{_back_body()}</symbol>")
    return (f'<svg xmlns="{_NS}" width="0" height="0" style="position:absolute" '
            f'aria-hidden="true">{"".join(symbols)}</svg>')
