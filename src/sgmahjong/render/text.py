"""Plain-text renderings of tiles and hands, optionally styled with Rich markup strings.

Nothing here imports Rich: ``styled=True`` only wraps text in Rich's markup syntax
(``"[bold #4d8fe6]5筒[/]"``) for the terminal UI to print. Widths are display columns,
with Chinese characters counted as two (see :func:`display_width`).

>>> print("\\n".join(tile_box(Tile.P5)))
┌──┐
│5 │
│筒│
└──┘
>>> from sgmahjong.tiles import parse_tiles
>>> tiles_line(parse_tiles("123m5p1z"))
'1萬 2萬 3萬 5筒 E東'
>>> markup(Tile.P5)
'[bold #4d8fe6]5筒[/]'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

from ..hand import Hand
from ..melds import Meld, MeldKind
from ..tiles import Tile
from .labels import face

__all__ = [
    "BOX_HEIGHT",
    "BOX_WIDTH",
    "back_box",
    "boxes_row",
    "display_width",
    "hand_boxes",
    "hand_text",
    "markup",
    "meld_text",
    "pad",
    "tile_box",
    "tiles_boxes",
    "tiles_line",
]

BOX_WIDTH = 4
"""Display columns of one :func:`tile_box` line."""
BOX_HEIGHT = 4
"""Lines of one :func:`tile_box`."""

_INNER = BOX_WIDTH - 2
_BACK_FILL = "▒▒"
_BORDER_STYLE = "dim"
_BACK_STYLE = "#2e7d5b"


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes: East Asian wide and fullwidth characters count two.

    >>> display_width("5筒"), display_width("┌──┐")
    (3, 4)
    """
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, width: int, align: str = "left") -> str:
    """Pad ``text`` with spaces to ``width`` display columns (``align``: left, right, center)."""
    gap = max(0, width - display_width(text))
    if align == "right":
        return " " * gap + text
    if align == "center":
        return " " * (gap // 2) + text + " " * (gap - gap // 2)
    return text + " " * gap


def _wrap(text: str, style: str, styled: bool) -> str:
    if not styled or not style:
        return text
    return f"[{style}]{text.replace('[', chr(92) + '[')}[/]"


def markup(tile: Tile, *, on_tile: bool = False) -> str:
    """The tile's short label in Rich markup, e.g. ``"[bold #4d8fe6]5筒[/]"``.

    With ``on_tile`` the label is drawn in the tile's ink on an ivory face.
    """
    f = face(tile)
    return _wrap(f.short, f.tile_style if on_tile else f.style, True)


def tile_box(tile: Tile, *, styled: bool = False) -> list[str]:
    """A 4-column, 4-line box: the tile's short text above its Chinese character."""
    f = face(tile)
    style = f.style
    top = _wrap(pad(f.text, _INNER), style, styled)
    bottom = _wrap(pad(f.suit_label, _INNER, "center"), style, styled)
    return _frame([top, bottom], styled)


def back_box(*, styled: bool = False) -> list[str]:
    """A face-down tile in the same shape as :func:`tile_box`."""
    fill = _wrap(_BACK_FILL, _BACK_STYLE, styled)
    return _frame([fill, fill], styled)


def _frame(rows: list[str], styled: bool) -> list[str]:
    edge = (lambda s: _wrap(s, _BORDER_STYLE, True)) if styled else (lambda s: s)
    bar = "─" * _INNER
    return ([edge(f"┌{bar}┐")]
            + [edge("│") + row + edge("│") for row in rows]
            + [edge(f"└{bar}┘")])


def boxes_row(boxes: Sequence[Sequence[str]], gap: int = 0) -> list[str]:
    """Lay boxes (lists of lines of equal height) side by side, ``gap`` spaces apart.

    An empty list in ``boxes`` stands for an extra gap (used between groups).
    """
    height = max((len(b) for b in boxes), default=0)
    sep = " " * gap
    lines: list[list[str]] = [[] for _ in range(height)]
    for box in boxes:
        for i in range(height):
            lines[i].append(box[i] if box else " " * max(gap, 1))
    return [sep.join(parts) for parts in lines]


def tiles_boxes(tiles: Iterable[Tile], *, styled: bool = False, gap: int = 0) -> list[str]:
    """The tiles as boxes side by side, in the order given."""
    return boxes_row([tile_box(t, styled=styled) for t in tiles], gap)


def tiles_line(tiles: Iterable[Tile], *, styled: bool = False, sep: str = " ") -> str:
    """The tiles' short labels on one line, in the order given: ``"1萬 2萬 東"``."""
    if styled:
        return sep.join(markup(t) for t in tiles)
    return sep.join(face(t).short for t in tiles)


def meld_text(meld: Meld, *, styled: bool = False) -> str:
    """A declared set on one line, e.g. ``"pong R中 R中 R中"``."""
    return f"{meld.kind.value} {tiles_line(meld.tiles, styled=styled)}"


def hand_text(hand: Hand, *, styled: bool = False) -> str:
    """A hand on one line: concealed tiles (sorted), each declared set, the bonus tiles.

    >>> from sgmahjong.hand import Hand
    >>> hand_text(Hand.parse("123m5p1z, pong 777z, bonus 1f1a"))
    '1萬 2萬 3萬 5筒 E東 | pong R中 R中 R中 | bonus 1梅 Ca貓'
    """
    parts = [tiles_line(sorted(hand.concealed), styled=styled)]
    parts.extend(meld_text(m, styled=styled) for m in hand.melds)
    if hand.bonus:
        parts.append("bonus " + tiles_line(sorted(hand.bonus), styled=styled))
    return " | ".join(parts)


def _meld_boxes(meld: Meld, styled: bool) -> list[list[str]]:
    boxes = [tile_box(t, styled=styled) for t in meld.tiles]
    if meld.kind is MeldKind.CONCEALED_KONG:
        boxes[0] = boxes[-1] = back_box(styled=styled)
    return boxes


def hand_boxes(hand: Hand, *, styled: bool = False) -> list[str]:
    """A hand as rows of boxes: concealed tiles, then each set, then the bonus tiles.

    Groups are two columns apart; a concealed kong shows its end tiles face down.
    """
    groups: list[list[list[str]]] = [[tile_box(t, styled=styled) for t in hand.concealed]]
    groups.extend(_meld_boxes(m, styled) for m in hand.melds)
    if hand.bonus:
        groups.append([tile_box(t, styled=styled) for t in hand.bonus])
    boxes: list[Sequence[str]] = []
    for group in groups:
        if not group:
            continue
        if boxes:
            boxes.append([])
        boxes.extend(group)
    return boxes_row(boxes)
