"""Tile faces: the short label, colours, Chinese and English names and glyph of each tile kind.

Both front ends draw tiles from the same :class:`TileFace`, so a 5 of Circles is "5筒" in
blue in the terminal, on the web and in the SVG set.

>>> f = face(Tile.P5)
>>> f.text, f.suit_label, f.short, f.kind, f.colour, f.english, f.glyph
('5', '筒', '5筒', 'circles', '#1f5fbf', '5 Circles', '🀝')
>>> face(Tile.CENTIPEDE).short, face(Tile.CHRYSANTHEMUM).glyph
('Ce蜈', '🀥')
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from ..english import tile_name
from ..tiles import ALL_TILES, Tile

IVORY = "#fbf7ea"
"""The face colour of a tile, for text drawn "on a tile" and for the SVG set."""

KINDS = ("characters", "circles", "bamboo", "wind", "dragon", "flower", "season", "animal")
"""The values of :attr:`TileFace.kind`, in tile order."""

# Ink on the ivory face (SVG, web) and a terminal colour readable on dark and light
# backgrounds (None: the terminal's own foreground, bold).
_INK: dict[str, tuple[str, str | None]] = {
    "characters": ("#b3261e", "#e5534b"),
    "circles": ("#1f5fbf", "#4d8fe6"),
    "bamboo": ("#1e7b3a", "#3fb365"),
    "wind": ("#1c2833", None),
    "flower": ("#b03a8c", "#e06ac0"),
    "season": ("#b85c00", "#e69a2e"),
    "animal": ("#7a4f2a", "#c08850"),
}
_DRAGON_INK: dict[Tile, tuple[str, str | None]] = {
    Tile.RED: ("#c8102e", "#ff4d4d"),
    Tile.GREEN: ("#1a7f37", "#2fb344"),
    Tile.WHITE: ("#2f5d9e", "#6f9fd8"),
}
_SUIT_KIND = {"m": "characters", "p": "circles", "s": "bamboo", "f": "flower", "g": "season",
              "a": "animal"}
_SUIT_LABEL = {"m": "萬", "p": "筒", "s": "索"}
_HONOUR_TEXT = {Tile.EAST: "E", Tile.SOUTH: "S", Tile.WEST: "W", Tile.NORTH: "N",
                Tile.WHITE: "Wh", Tile.GREEN: "G", Tile.RED: "R"}
_ANIMAL_TEXT = {Tile.CAT: "Ca", Tile.MOUSE: "Mo", Tile.ROOSTER: "Ro", Tile.CENTIPEDE: "Ce"}
_NUMBER_NAMES = ("ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE")
_GLYPH_SUIT = {"m": "CHARACTERS", "p": "CIRCLES", "s": "BAMBOOS"}


@dataclass(frozen=True, slots=True)
class TileFace:
    """How one tile kind looks: plain data for the terminal UI, the web and the SVG set.

    ``text`` is at most two ASCII characters (the number of a suited tile or the seat of a
    flower or season, a wind or dragon letter, an animal abbreviation); ``suit_label`` is
    one double-width Chinese character (萬 筒 索, the wind or dragon, the flower, season or
    animal); ``short`` is the compact label used in running text, always led by its Latin
    mark ("5筒", "E東", "Ca貓", "1梅").
    ``colour`` is the ink on the ivory face, ``term_colour`` a colour readable on any
    terminal background (None: the terminal's foreground). ``glyph`` is the Unicode
    mahjong tile (U+1F000-U+1F02B), None for the animals. ``english`` is the name a
    sentence uses (:func:`sgmahjong.english.tile_name`: "East Wind", "5 Circles").
    """

    tile: Tile
    text: str
    suit_label: str
    kind: str
    colour: str
    term_colour: str | None
    chinese: str
    english: str
    short: str
    glyph: str | None

    @property
    def style(self) -> str:
        """A Rich style string for the terminal, e.g. ``"bold #4d8fe6"``."""
        return f"bold {self.term_colour}" if self.term_colour else "bold"

    @property
    def tile_style(self) -> str:
        """A Rich style string for the tile's ink on an ivory face."""
        return f"bold {self.colour} on {IVORY}"


def _kind(tile: Tile) -> str:
    if tile.is_wind:
        return "wind"
    if tile.is_dragon:
        return "dragon"
    return _SUIT_KIND[tile.suit]


def _glyph(tile: Tile) -> str | None:
    """The Unicode mahjong tile, looked up by its Unicode name (animals have none)."""
    if tile.is_animal:
        return None
    if tile.is_suited:
        name = f"{_NUMBER_NAMES[tile.number - 1]} OF {_GLYPH_SUIT[tile.suit]}"
    elif tile.is_wind:
        name = f"{tile.english.upper()} WIND"
    elif tile is Tile.BAMBOO:
        name = "BAMBOO"  # our "Bamboo Flower"; Unicode orders the flowers differently
    else:
        name = tile.english.upper()
    return unicodedata.lookup(f"MAHJONG TILE {name}")


def _make(tile: Tile) -> TileFace:
    kind = _kind(tile)
    colour, term = _DRAGON_INK[tile] if tile.is_dragon else _INK[kind]
    if tile.is_suited:
        text, label = str(tile.number), _SUIT_LABEL[tile.suit]
        short = text + label
    elif tile.is_honour:
        text, label = _HONOUR_TEXT[tile], tile.chinese
        # the Latin mark first, so a terminal without CJK fonts still tells them apart
        short = text + label
    elif tile.is_animal:
        text, label = _ANIMAL_TEXT[tile], tile.chinese[0]
        short = text + label
    else:
        text, label = str(tile.number), tile.chinese
        short = text + label
    return TileFace(tile=tile, text=text, suit_label=label, kind=kind, colour=colour,
                    term_colour=term, chinese=tile.chinese, english=tile_name(tile), short=short,
                    glyph=_glyph(tile))


FACES: tuple[TileFace, ...] = tuple(_make(t) for t in ALL_TILES)
"""The face of every tile kind, indexed by ``Tile`` (the Chinese labels)."""

SCRIPTS = ("chinese", "latin")
"""How the terminal labels a tile: ``chinese`` (5筒, E東) or ``latin`` (5Ci, E), for a
terminal whose font has no Chinese characters."""

# Two columns under the tile's mark, as the Chinese character takes: the kind in letters
_LATIN_LABEL = {"characters": "Ch", "circles": "Ci", "bamboo": "Ba", "wind": "Wd",
                "dragon": "Dr", "flower": "Fl", "season": "Se", "animal": "An"}

LATIN_LEGEND = ("Ch Characters · Ci Circles · Ba Bamboo · Wd Wind · Dr Dragon · "
                "Fl Flower · Se Season · An Animal")
"""What the Latin labels stand for, for the terminal's key help."""


def _latin(f: TileFace) -> TileFace:
    label = _LATIN_LABEL[f.kind]
    # a number needs its kind beside it; a wind, dragon or animal mark is whole already
    short = f.text + label if f.tile.is_suited or (f.tile.is_bonus and not f.tile.is_animal) \
        else f.text
    return TileFace(tile=f.tile, text=f.text, suit_label=label, kind=f.kind, colour=f.colour,
                    term_colour=f.term_colour, chinese=f.chinese, english=f.english,
                    short=short, glyph=f.glyph)


LATIN_FACES: tuple[TileFace, ...] = tuple(_latin(f) for f in FACES)
"""The face of every tile kind with Latin labels only (``"5Ci"``, ``"1Fl"``, ``"E"``)."""

_faces = {"chinese": FACES, "latin": LATIN_FACES}
_current: list[tuple[TileFace, ...]] = [FACES]

BACK_GLYPH = "\N{MAHJONG TILE BACK}"
BACK_COLOUR = "#2e7d5b"
"""The colour of a tile's back (the web and SVG draw it green)."""


def face(tile: Tile) -> TileFace:
    """The face of one tile kind, in the script chosen with :func:`set_script`."""
    return _current[0][tile]


def set_script(script: str) -> None:
    """Label tiles in ``script`` (one of :data:`SCRIPTS`) from now on, in this process.

    The terminal's choice: the SVG tiles carry their own marks and do not change.

    >>> set_script("latin"); face(Tile.P5).short, face(Tile.PLUM).short, face(Tile.RED).short
    ('5Ci', '1Fl', 'R')
    >>> set_script("chinese"); face(Tile.P5).short
    '5筒'
    """
    if script not in _faces:
        raise ValueError(f"no tile script {script!r}: choose {' or '.join(SCRIPTS)}")
    _current[0] = _faces[script]


def script() -> str:
    """The script tiles are labelled in now."""
    return "latin" if _current[0] is LATIN_FACES else "chinese"
