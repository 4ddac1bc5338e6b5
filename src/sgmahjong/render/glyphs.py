"""A small stroke alphabet of the project's own: the Latin marks on the SVG tiles, as paths.

A tile must read the same on every machine, so its marks cannot depend on the viewer's
fonts. Each glyph is a path drawn with a round-capped stroke in a box 10 units high (the
baseline at y = 10, capitals and digits from y = 0, lower case from y = 4); only the
characters the tiles need are here: the digits, E S W N (winds), R G Wh (dragons), F and S
(flowers and seasons), Ca Mo Ro Ce (animals).

>>> mark_width("Wh") > mark_width("W")
True
>>> 'data-mark="5"' in mark("5", 30, 20, height=30, colour="#000")
True
"""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

__all__ = ["GLYPHS", "STROKE", "mark", "mark_width"]

STROKE = 1.75
"""The pen width in glyph units (the cap height is 10)."""

_GAP = 1.0 + STROKE
"""Space between two glyphs, from the ink of one to the ink of the next."""

# character: (ink width, path). The ink runs from x = 0 to the width (before the stroke).
GLYPHS: dict[str, tuple[float, str]] = {
    "1": (4.4, "M0.2 2.4 L2.8 0 V10 M0 10 H5.4"),
    "2": (5.4, "M0.2 2.6 C0.4 0.8 1.6 0 2.8 0 C4.4 0 5.3 1 5.3 2.6 C5.3 4.6 2.4 6.6 0.1 10 H5.5"),
    "3": (5.4, "M0.3 1.2 C1 0.4 1.8 0 2.8 0 C4.4 0 5.2 1 5.2 2.4 C5.2 3.9 4.2 4.8 2.3 4.8 "
               "C4.5 4.8 5.5 5.9 5.5 7.4 C5.5 9 4.3 10 2.8 10 C1.6 10 0.7 9.5 0.1 8.6"),
    "4": (5.8, "M4.3 10 V0 L0 7 H5.8"),
    "5": (5.4, "M5.1 0 H1.1 L0.6 4.6 C1.2 4 2 3.7 2.9 3.7 C4.6 3.7 5.5 5 5.5 6.8 "
               "C5.5 8.8 4.4 10 2.8 10 C1.6 10 0.7 9.5 0.1 8.6"),
    "6": (5.5, "M4.9 0.9 C4.3 0.3 3.6 0 2.9 0 C1 0 0 2 0 5.5 C0 8.6 1.1 10 2.8 10 "
               "C4.5 10 5.5 8.8 5.5 7 C5.5 5.2 4.5 4 2.9 4 C1.6 4 0.6 4.8 0.1 6"),
    "7": (5.4, "M0 0 H5.4 C3.6 2.6 2.4 5.6 2 10"),
    "8": (5.6, "M2.8 4.7 C1.4 4.7 0.4 3.8 0.4 2.4 C0.4 1 1.4 0 2.8 0 C4.2 0 5.2 1 5.2 2.4 "
               "C5.2 3.8 4.2 4.7 2.8 4.7 C1.1 4.7 0 5.8 0 7.3 C0 8.9 1.2 10 2.8 10 "
               "C4.4 10 5.6 8.9 5.6 7.3 C5.6 5.8 4.5 4.7 2.8 4.7 Z"),
    "9": (5.5, "M0.6 9.1 C1.2 9.7 1.9 10 2.6 10 C4.5 10 5.5 8 5.5 4.5 C5.5 1.4 4.4 0 2.7 0 "
               "C1 0 0 1.2 0 3 C0 4.8 1 6 2.6 6 C3.9 6 4.9 5.2 5.4 4"),
    "E": (5.0, "M5 0 H0 V10 H5 M0 5 H4.2"),
    "F": (5.0, "M5 0 H0 V10 M0 5 H4.2"),
    "S": (5.4, "M5 1.3 C4.4 0.4 3.6 0 2.7 0 C1.2 0 0.2 0.9 0.2 2.4 C0.2 3.9 1.3 4.5 2.7 5 "
               "C4.3 5.5 5.4 6.1 5.4 7.6 C5.4 9.1 4.3 10 2.7 10 C1.6 10 0.6 9.5 0 8.5"),
    "W": (8.4, "M0 0 L2.1 10 L4.2 1.6 L6.3 10 L8.4 0"),
    "N": (5.6, "M0 10 V0 L5.6 10 V0"),
    "R": (5.4, "M0 10 V0 H2.8 C4.4 0 5.3 1 5.3 2.6 C5.3 4.2 4.4 5.2 2.8 5.2 H0 M2.8 5.2 L5.4 10"),
    "G": (5.8, "M5.5 1.4 C4.9 0.5 4 0 3 0 C1.1 0 0 2 0 5 C0 8 1.1 10 3 10 C4.8 10 5.8 8.8 "
               "5.8 6.9 V5.6 H3.3"),
    "C": (5.6, "M5.5 1.4 C4.9 0.5 4 0 3 0 C1.1 0 0 2 0 5 C0 8 1.1 10 3 10 C4 10 4.9 9.5 5.6 8.5"),
    "M": (7.0, "M0 10 V0 L3.5 7 L7 0 V10"),
    "h": (5.0, "M0 0 V10 M0 6.6 C0.4 5 1.4 4 2.7 4 C4.2 4 5 4.9 5 6.4 V10"),
    "a": (5.0, "M5 4.2 V10 M5 7 C5 5.2 4 4 2.5 4 C1 4 0 5.2 0 7 C0 8.8 1 10 2.5 10 "
               "C4 10 5 8.8 5 7"),
    "o": (5.2, "M2.6 4 C4.2 4 5.2 5.2 5.2 7 C5.2 8.8 4.2 10 2.6 10 C1 10 0 8.8 0 7 "
               "C0 5.2 1 4 2.6 4 Z"),
    "e": (5.0, "M0.1 7 H5 C5 5.2 4 4 2.6 4 C1 4 0 5.2 0 7 C0 8.8 1 10 2.6 10 "
               "C3.6 10 4.4 9.6 5 8.8"),
}


def _n(x: float) -> str:
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def mark_width(text: str) -> float:
    """The width of ``text`` in glyph units (cap height 10), from the first ink to the last."""
    return sum(GLYPHS[ch][0] for ch in text) + _GAP * (len(text) - 1)


def mark(text: str, cx: float, cy: float, *, height: float, colour: str,
         halo: str | None = None, stroke: float = STROKE) -> str:
    """``text`` drawn as paths, centred on (cx, cy), capitals ``height`` units tall.

    ``halo`` draws a wider outline of that colour underneath first, so a mark set over a
    picture stays legible. The group carries ``data-mark`` (the text) for tests and tools.
    """
    scale = height / 10
    left = cx - mark_width(text) * scale / 2
    top = cy - height / 2
    paths, x = [], 0.0
    for ch in text:
        width, d = GLYPHS[ch]
        shift = f' transform="translate({_n(x)} 0)"' if x else ""
        paths.append(f'<path d="{d}"{shift}/>')
        x += width + _GAP
    body = "".join(paths)
    layers = []
    if halo is not None:
        layers.append(f'<g stroke={quoteattr(halo)} stroke-width="{_n(stroke + 2.2)}">{body}</g>')
    layers.append(f'<g stroke={quoteattr(colour)} stroke-width="{_n(stroke)}">{body}</g>')
    return (f'<g data-mark={quoteattr(text)} transform="translate({_n(left)} {_n(top)}) '
            f'scale({_n(scale)})" fill="none" stroke-linecap="round" stroke-linejoin="round">'
            f'{"".join(layers)}</g>')
