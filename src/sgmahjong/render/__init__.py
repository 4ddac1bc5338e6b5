"""Text and SVG renderings of tiles, hands and views, as plain strings (standard library only).

:mod:`~sgmahjong.render.labels` holds the face of each tile kind (labels, colours, names),
:mod:`~sgmahjong.render.text` plain text and Rich markup strings for the terminal UI, and
:mod:`~sgmahjong.render.svg` the SVG tile set and icons for the web, their Latin marks drawn
by :mod:`~sgmahjong.render.glyphs`.
"""

from .labels import FACES, TileFace, face
from .svg import back_svg, sprite_sheet, tile_svg
from .text import hand_text, markup, tile_box, tiles_line

__all__ = [
    "FACES",
    "TileFace",
    "back_svg",
    "face",
    "hand_text",
    "markup",
    "sprite_sheet",
    "tile_box",
    "tile_svg",
    "tiles_line",
]
