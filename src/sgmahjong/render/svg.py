"""SVG tiles drawn by the project: one ivory tile per kind, a face-down back and a sprite sheet.

Every tile is drawn in a 60 x 80 viewBox from the project's own shapes: no text, so no
font of the viewer's is needed and a tile looks the same on every machine. Each face
carries a Latin mark drawn with :mod:`~sgmahjong.render.glyphs`, as the terminal labels
it (:func:`~sgmahjong.render.labels.face`): the number of a suited tile, E S W N, R G Wh,
the seat and F or S on flowers and seasons, Ca Mo Ro Ce on the animals. The sprite sheet
also holds the web page's icons (:data:`ICONS`). Nothing is fetched; output is
deterministic: the same call gives the same string.

>>> svg = tile_svg(Tile.P5)
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and "<title>5 Circles</title>" in svg
True
>>> symbol_id(Tile.P5)
't-5p'
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from ..tiles import ALL_TILES, Tile
from .glyphs import mark
from .labels import BACK_COLOUR, FACES, IVORY

__all__ = [
    "BACK_ID",
    "ICONS",
    "VIEW_HEIGHT",
    "VIEW_WIDTH",
    "back_svg",
    "icon_id",
    "mark_text",
    "sprite_sheet",
    "symbol_id",
    "tile_body",
    "tile_svg",
]

VIEW_WIDTH = 60
VIEW_HEIGHT = 80
BACK_ID = "t-back"
_NS = "http://www.w3.org/2000/svg"
_EDGE = "#d8cdb0"
_OUTLINE = "#7d735f"
_INK = "#1b2433"
_RED = "#c8102e"
_GREEN = "#1e7b3a"
_BLUE = "#1f5fbf"
_DARK_GREEN = "#145226"
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

def _strokes(d: str, cx: float, cy: float, size: float, colour: str, pen: float) -> str:
    """Stroked path ``d`` from a 10 x 10 grid, drawn ``size`` units wide centred on (cx, cy)."""
    scale = size / 10
    return (f'<path d="{d}" transform="translate({_n(cx - size / 2)} {_n(cy - size / 2)}) '
            f'scale({_n(scale)})" fill="none" stroke="{colour}" stroke-width="{_n(pen)}" '
            f'stroke-linecap="round" stroke-linejoin="round"/>')


# Simplified brush characters on a 10 x 10 grid: the red 萬 of the characters suit, the
# 中 of the Red dragon and the 发 of the Green one. They are pictures here; the Latin mark
# above them is what tells the tiles apart.
_WAN = ("M0.6 1.5 H9.4 M3.2 0 V2.9 M6.8 0 V2.9 M2.3 3.9 H7.7 V6.6 H2.3 Z M2.3 5.25 H7.7 "
        "M5 3.9 V8.6 M1 10 V7.6 H9 V9.2 C9 9.7 8.8 10 8.2 10 M4.1 8.1 L3.3 9.3 H6.7 "
        "M6 8.6 L6.8 9.5")
_ZHONG = "M1.2 3 H8.8 V7.2 H1.2 Z M5 0 V10"
_FA = ("M1 3 H9 M4.1 0.3 C4 4.2 3 7.6 0.5 9.8 M6.6 0.5 L7.7 1.9 M4.3 5.2 H8.2 "
       "C7.2 7.6 5.2 9.2 2.8 9.9 M4.9 6.4 C6 8.3 7.6 9.4 9.6 9.9")


def _characters(tile: Tile) -> str:
    return (mark(FACES[tile].text, _CX, 21, height=27, colour=_INK)
            + _strokes(_WAN, _CX, 55, 33, _RED, 0.85))


def _indexed(tile: Tile, picture: str) -> str:
    """A Circles or Bamboo picture made room for its number in the top-left corner: the
    picture shrinks towards the bottom-right corner, so the pips stay whole and countable."""
    f = FACES[tile]
    return (f'<g transform="translate(56 74) scale(0.78) translate(-56 -74)">{picture}</g>'
            + mark(f.text, 9, 11.5, height=17, colour=f.colour))


_ARROWS = {Tile.EAST: 90, Tile.SOUTH: 180, Tile.WEST: 270, Tile.NORTH: 0}


def _wind(tile: Tile) -> str:
    """The wind's letter and a compass needle pointing its way (north up)."""
    needle = (f'<g transform="translate({_n(_CX)} 60) rotate({_ARROWS[tile]})">'
              + _el("path", d="M0 -10.5 L5 3 L0 0 L-5 3 Z", fill=_RED)
              + _el("circle", cx=0, cy=0, r=1.6, fill=_INK) + "</g>")
    return (mark(FACES[tile].text, _CX, 27, height=32, colour=_INK)
            + _el("circle", cx=_CX, cy=60, r=12, fill="none", stroke=_BLUE, stroke_width=1.6)
            + needle)


def _dragon(tile: Tile) -> str:
    f = FACES[tile]
    if tile is Tile.WHITE:
        return (_el("rect", x=10, y=11, width=40, height=55, rx=3, fill="none",
                    stroke=f.colour, stroke_width=3.2)
                + _el("rect", x=15, y=16, width=30, height=45, rx=1.5, fill="none",
                      stroke=f.colour, stroke_width=1.2)
                + mark(f.text, _CX, 38.5, height=17, colour=f.colour))
    picture = _ZHONG if tile is Tile.RED else _FA
    return (mark(f.text, _CX, 19, height=25, colour=f.colour)
            + _strokes(picture, _CX, 54, 32, f.colour, 0.95))


def _petals(n: int, cx: float, cy: float, dist: float, rx: float, ry: float,
            colour: str) -> str:
    return "".join(
        f'<ellipse cx="{_n(cx)}" cy="{_n(cy - dist)}" rx="{_n(rx)}" ry="{_n(ry)}" '
        f'fill="{colour}" transform="rotate({_n(360 * i / n)} {_n(cx)} {_n(cy)})"/>'
        for i in range(n))


def _plum(c: str) -> str:
    return _petals(5, 12, 13, 4.3, 3.1, 3.1, c) + _el("circle", cx=12, cy=13, r=2.2,
                                                        fill="#f2c200")


def _orchid(c: str) -> str:
    return (_el("path", d="M12 24 Q6 16 2 15 M12 24 Q13 14 11 6 M12 24 Q18 17 22 17",
                fill="none", stroke=_GREEN, stroke_width=1.4, stroke_linecap="round")
            + _petals(3, 12, 9, 2.6, 1.8, 3, c) + _el("circle", cx=12, cy=9, r=1.2,
                                                       fill="#f2c200"))


def _chrysanthemum(c: str) -> str:
    return _petals(12, 12, 13, 5.4, 1.3, 3.6, c) + _el("circle", cx=12, cy=13, r=2.6,
                                                         fill="#f2c200")


def _bamboo_flower(c: str) -> str:
    return (_el("path", d="M9 24 V3", stroke=_GREEN, stroke_width=2.2, stroke_linecap="round")
            + _el("path", d="M7.8 10 H10.2 M7.8 17 H10.2", stroke=_DARK_GREEN, stroke_width=1.6)
            + _el("path", d="M9 10 Q15 5 22 6 Q16 10 9 10 Z M9 17 Q15 13 21 15 Q15 18 9 17 Z "
                  "M9 13 Q4 9 1 10 Q4 14 9 13 Z", fill=c))


def _sprout(c: str) -> str:
    return (_el("path", d="M12 24 V11", stroke=_GREEN, stroke_width=1.6, stroke_linecap="round")
            + _el("path", d="M12 14 Q4 14 3 6 Q11 6 12 14 Z M12 11 Q14 3 21 3 Q20 10 12 11 Z",
                  fill=c))


def _sun(c: str) -> str:
    rays = ((1, 0), (0.71, 0.71), (0, 1), (-0.71, 0.71), (-1, 0), (-0.71, -0.71), (0, -1),
            (0.71, -0.71))
    return _el("circle", cx=12, cy=13, r=4.6, fill=c) + "".join(
        _el("line", x1=12 + 6.6 * dx, y1=13 + 6.6 * dy, x2=12 + 9.4 * dx, y2=13 + 9.4 * dy,
            stroke=c, stroke_width=1.6, stroke_linecap="round") for dx, dy in rays)


def _leaf(c: str) -> str:
    return _el("path", d="M3 22 Q5 5 22 4 Q21 20 3 22 Z M4 21 L16 9", fill=c, stroke=IVORY,
               stroke_width=0.9)


def _snowflake(c: str) -> str:
    arms = "".join(
        f'<path d="M12 13 V3 M12 6.5 L9.5 4 M12 6.5 L14.5 4" transform="rotate({a} 12 13)"/>'
        for a in (0, 60, 120, 180, 240, 300))
    return (f'<g fill="none" stroke="{c}" stroke-width="1.5" stroke-linecap="round">{arms}'
            "</g>")


_BONUS_PICTURES = {
    Tile.PLUM: _plum, Tile.ORCHID: _orchid, Tile.CHRYSANTHEMUM: _chrysanthemum,
    Tile.BAMBOO: _bamboo_flower, Tile.SPRING: _sprout, Tile.SUMMER: _sun,
    Tile.AUTUMN: _leaf, Tile.WINTER: _snowflake,
}


def _bonus(tile: Tile) -> str:
    """A flower or season: its seat and F or S over a picture of the flower or season."""
    f = FACES[tile]
    picture = _BONUS_PICTURES[tile](f.colour)
    return (mark(mark_text(tile), _CX, 16, height=19, colour=f.colour)
            + f'<g transform="translate(6 24) scale(2)">{picture}</g>')


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
    f = FACES[tile]
    return _ANIMAL_EMBLEMS[tile](f.colour) + mark(f.text, _CX, 56, height=19, colour=f.colour)


# -- Assembly ----------------------------------------------------------------------------

def _frame(face_fill: str) -> str:
    return (_el("rect", x=0.75, y=0.75, width=58.5, height=78.5, rx=6.5, fill=_EDGE,
                stroke=_OUTLINE, stroke_width=1)
            + _el("rect", x=1.6, y=1.6, width=56.8, height=73.4, rx=5.5, fill=face_fill))


def _drawing(tile: Tile) -> str:
    if tile.suit == "m":
        return _characters(tile)
    if tile.suit == "p":
        return _indexed(tile, _circles(tile.number))
    if tile.suit == "s":
        return _indexed(tile, _bamboo(tile.number))
    if tile.is_wind:
        return _wind(tile)
    if tile.is_dragon:
        return _dragon(tile)
    if tile.is_animal:
        return _animal(tile)
    return _bonus(tile)


def mark_text(tile: Tile) -> str:
    """The Latin mark drawn on a tile's face: the terminal's label (:attr:`TileFace.text`),
    with F or S after the seat of a flower or season, which the terminal shows in colour.

    >>> mark_text(Tile.P8), mark_text(Tile.GREEN), mark_text(Tile.AUTUMN), mark_text(Tile.CAT)
    ('8', 'G', '3S', 'Ca')
    """
    text = FACES[tile].text
    if tile.is_flower:
        return text + "F"
    if tile.is_season:
        return text + "S"
    return text


def tile_body(tile: Tile) -> str:
    """The shapes of one tile in the 60 x 80 viewBox, without the ``<svg>`` element."""
    return f"<g>{_frame(IVORY)}{_drawing(tile)}</g>"


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


# -- Icons -------------------------------------------------------------------------------

_SPEAKER = '<path d="M3 9 H7 L12 5 V19 L7 15 H3 Z" fill="currentColor"/>'
# two beamed quavers: stems, beam, and heads drawn as filled arcs
_NOTES = ('<path d="M9 17.5 V6 L19.5 3.5 V15.5"/>'
          '<path d="M3.8 17.5 A2.6 2.1 0 1 0 9 17.5 A2.6 2.1 0 1 0 3.8 17.5 Z M14.3 15.5 '
          'A2.6 2.1 0 1 0 19.5 15.5 A2.6 2.1 0 1 0 14.3 15.5 Z" fill="currentColor"/>')
ICONS: dict[str, tuple[str, str]] = {
    "sound-on": ("Sound on", _SPEAKER + '<path d="M15.5 9 Q17.5 12 15.5 15 M18.5 6 '
                 'Q22.5 12 18.5 18"/>'),
    "sound-off": ("Sound off", _SPEAKER + '<path d="M15.5 9 L21.5 15 M21.5 9 L15.5 15"/>'),
    "hint": ("Hint", '<path d="M9 17.5 V15.5 C7 14 5.8 12 5.8 9.4 C5.8 5.6 8.6 3 12 3 '
             'C15.4 3 18.2 5.6 18.2 9.4 C18.2 12 17 14 15 15.5 V17.5 Z M9.5 20.5 H14.5 '
             'M10.8 23 H13.2 M12 17.5 V12.5 L10 10.5 M12 12.5 L14 10.5"/>'),
    "timer": ("Timer", '<circle cx="12" cy="13.5" r="8.2"/><path d="M12 13.5 V8.8 M12 13.5 '
              'L15 15.5 M9.5 2.5 H14.5 M12 2.5 V5.3 M18.4 6.6 L20 5"/>'),
    "music-on": ("Music on", _NOTES),
    "music-off": ("Music off", _NOTES + '<path d="M3 3 L21 21"/>'),
    "book": ("Rules and guides", '<path d="M3 5 C6 4 9.5 4.3 12 6 C14.5 4.3 18 4 21 5 V19 '
             'C18 18 14.5 18.3 12 20 C9.5 18.3 6 18 3 19 Z M12 6 V20"/>'),
}
"""The web page's icons: id suffix to (name, drawing in a 24 x 24 box). They draw in
``currentColor``, so they take the colour of the button they sit on."""


def icon_id(name: str) -> str:
    """The id of an icon's ``<symbol>`` in :func:`sprite_sheet`: ``"i-"`` and its name."""
    return f"i-{name}"


def _icon_symbol(name: str) -> str:
    title, body = ICONS[name]
    return (f'<symbol id="{icon_id(name)}" viewBox="0 0 24 24"><title>{escape(title)}</title>'
            f'<g fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" '
            f'stroke-linejoin="round">{body}</g></symbol>')


def sprite_sheet() -> str:
    """One hidden ``<svg>`` holding a ``<symbol>`` per tile kind, the back (``t-back``) and
    each icon (``i-sound-on`` ...).

    The web page inlines it once and draws a tile with
    ``<svg viewBox="0 0 60 80"><use href="#t-5p"/></svg>``, an icon with
    ``<svg viewBox="0 0 24 24"><use href="#i-timer"/></svg>``.
    """
    view = f"0 0 {VIEW_WIDTH} {VIEW_HEIGHT}"
    symbols = [f'<symbol id="{symbol_id(t)}" viewBox="{view}"><title>{escape(t.english)}'
               f"</title>{tile_body(t)}</symbol>" for t in ALL_TILES]
    symbols.append(f'<symbol id="{BACK_ID}" viewBox="{view}"><title>Face-down tile</title>'
                   f"{_back_body()}</symbol>")
    symbols += [_icon_symbol(name) for name in ICONS]
    return (f'<svg xmlns="{_NS}" width="0" height="0" style="position:absolute" '
            f'aria-hidden="true">{"".join(symbols)}</svg>')
