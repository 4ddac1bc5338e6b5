"""Tiles and seats: the 46 tile kinds of the 148-tile set, their notation and names.

Notation (RULES.md, "Tile notation"): digits followed by a suit letter, runs sharing
the letter: ``123m456p789s1234567z``. ``m`` Characters, ``p`` Circles, ``s`` Bamboo,
``z`` honours (1-4 East South West North, 5-7 White Green Red), ``f`` flowers and
``g`` seasons (number = owning seat, 1 East .. 4 North), ``a`` animals (1 Cat,
2 Mouse, 3 Rooster, 4 Centipede). On input the letters ``E S W N`` and ``Wh G R``
stand for the winds and dragons.

>>> parse_tiles("12m E Wh 1a")
[Tile.M1, Tile.M2, Tile.EAST, Tile.WHITE, Tile.CAT]
>>> format_tiles(parse_tiles("3s1m2m7z5z"))
'12m3s57z'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import Final

from .errors import TileCountError, TileTextError

SUIT_LETTERS = "mpszfga"
NUM_KINDS: Final = 46
NUM_PLAYING_KINDS: Final = 34


class Tile(IntEnum):
    """One of the 46 tile kinds. Values 0-33 are the playing tiles in the usual 34-kind order."""

    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    EAST = 27
    SOUTH = 28
    WEST = 29
    NORTH = 30
    WHITE = 31
    GREEN = 32
    RED = 33
    PLUM = 34
    ORCHID = 35
    CHRYSANTHEMUM = 36
    BAMBOO = 37
    SPRING = 38
    SUMMER = 39
    AUTUMN = 40
    WINTER = 41
    CAT = 42
    MOUSE = 43
    ROOSTER = 44
    CENTIPEDE = 45

    def __repr__(self) -> str:
        return f"Tile.{self.name}"

    def __str__(self) -> str:
        return _TEXT[self]

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read exactly one tile (``"5p"``, ``"7z"``, ``"R"``, ``"2a"``)."""
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise TileTextError(f"expected one tile, got {len(tiles)} in {text!r}")
        return tiles[0]

    @property
    def text(self) -> str:
        """The tile in notation, e.g. ``"5p"``."""
        return _TEXT[self]

    @property
    def suit(self) -> str:
        """The notation letter of the tile's group: one of ``m p s z f g a``."""
        return _SUIT[self]

    @property
    def number(self) -> int:
        """The digit the tile has in notation (1-9 suited, 1-7 honours, 1-4 bonus)."""
        return _NUMBER[self]

    @property
    def is_suited(self) -> bool:
        return self < 27

    @property
    def is_honour(self) -> bool:
        return 27 <= self < 34

    @property
    def is_wind(self) -> bool:
        return 27 <= self < 31

    @property
    def is_dragon(self) -> bool:
        return 31 <= self < 34

    @property
    def is_terminal(self) -> bool:
        """A suited 1 or 9."""
        return self < 27 and self % 9 in (0, 8)

    @property
    def is_terminal_or_honour(self) -> bool:
        return self >= 27 or self % 9 in (0, 8)

    @property
    def is_bonus(self) -> bool:
        """Flowers, seasons and animals: never part of a set."""
        return self >= 34

    @property
    def is_flower(self) -> bool:
        return 34 <= self < 38

    @property
    def is_season(self) -> bool:
        return 38 <= self < 42

    @property
    def is_animal(self) -> bool:
        return self >= 42

    @property
    def owner(self) -> Seat | None:
        """The seat a flower or season belongs to (``1f`` and ``1g`` to East); None otherwise."""
        if 34 <= self < 42:
            return Seat((self - 34) % 4)
        return None

    @property
    def english(self) -> str:
        return _ENGLISH[self]

    @property
    def chinese(self) -> str:
        return _CHINESE[self]


class Seat(IntEnum):
    """A seat at the table, named by its seat wind. Play passes East, South, West, North."""

    EAST = 0
    SOUTH = 1
    WEST = 2
    NORTH = 3

    def __repr__(self) -> str:
        return f"Seat.{self.name}"

    def __str__(self) -> str:
        return self.name[0]

    @classmethod
    def parse(cls, text: str) -> Seat:
        """Read a seat from ``E S W N`` (any case) or its full name."""
        key = text.strip().upper()
        for seat in cls:
            if key in (seat.name, seat.name[0]):
                return seat
        raise TileTextError(f"unknown seat {text!r}: expected one of E, S, W, N")

    @property
    def letter(self) -> str:
        return self.name[0]

    @property
    def wind(self) -> Tile:
        """The wind tile of this seat."""
        return Tile(27 + self)

    @property
    def next(self) -> Seat:
        """The seat to the right, who plays next."""
        return _SEATS[(self + 1) % 4]   # not Seat(...): calling an enum class is slow

    def distance_from(self, other: Seat) -> int:
        """How many turns after ``other`` this seat plays (0-3)."""
        return (self - other) % 4


_SEATS: Final[tuple[Seat, ...]] = tuple(Seat)
_SUIT_NAMES = {"m": ("Characters", "萬"), "p": ("Circles", "筒"), "s": ("Bamboo", "索")}
_CN_DIGITS = "一二三四五六七八九"
_HONOURS = [
    ("East", "東"), ("South", "南"), ("West", "西"), ("North", "北"),
    ("White Dragon", "白"), ("Green Dragon", "發"), ("Red Dragon", "中"),
]
_BONUS = [
    ("Plum", "梅"), ("Orchid", "蘭"), ("Chrysanthemum", "菊"), ("Bamboo Flower", "竹"),
    ("Spring", "春"), ("Summer", "夏"), ("Autumn", "秋"), ("Winter", "冬"),
    ("Cat", "貓"), ("Mouse", "鼠"), ("Rooster", "雞"), ("Centipede", "蜈蚣"),
]

_SUIT: Final[list[str]] = []
_NUMBER: list[int] = []
_ENGLISH: list[str] = []
_CHINESE: list[str] = []
for _i in range(NUM_KINDS):
    if _i < 27:
        _s, _n = "mps"[_i // 9], _i % 9 + 1
        _ENGLISH.append(f"{_n} {_SUIT_NAMES[_s][0]}")
        _CHINESE.append(_CN_DIGITS[_n - 1] + _SUIT_NAMES[_s][1])
    elif _i < 34:
        _s, _n = "z", _i - 26
        _ENGLISH.append(_HONOURS[_n - 1][0])
        _CHINESE.append(_HONOURS[_n - 1][1])
    else:
        _s, _n = "fga"[(_i - 34) // 4], (_i - 34) % 4 + 1
        _ENGLISH.append(_BONUS[_i - 34][0])
        _CHINESE.append(_BONUS[_i - 34][1])
    _SUIT.append(_s)
    _NUMBER.append(_n)
_TEXT = [f"{n}{s}" for n, s in zip(_NUMBER, _SUIT, strict=True)]
_BY_TEXT = {t: Tile(i) for i, t in enumerate(_TEXT)}
_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34, "g": 38, "a": 42}
_SUIT_MAX = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 4, "g": 4, "a": 4}
# Longest alias first, so "Wh" is read before "W".
_ALIASES = [
    ("Wh", Tile.WHITE), ("E", Tile.EAST), ("S", Tile.SOUTH), ("W", Tile.WEST),
    ("N", Tile.NORTH), ("G", Tile.GREEN), ("R", Tile.RED),
]

ALL_TILES: Final[tuple[Tile, ...]] = tuple(Tile)
PLAYING_TILES: Final[tuple[Tile, ...]] = ALL_TILES[:34]
BONUS_TILES: Final[tuple[Tile, ...]] = ALL_TILES[34:]
WINDS: Final[tuple[Tile, ...]] = ALL_TILES[27:31]
DRAGONS: Final[tuple[Tile, ...]] = ALL_TILES[31:34]
TERMINALS_AND_HONOURS: Final[tuple[Tile, ...]] = tuple(
    t for t in PLAYING_TILES if t.is_terminal_or_honour)


def copies_in_set(tile: Tile) -> int:
    """How many copies of this kind the 148-tile set holds (4, or 1 for a bonus tile)."""
    return 1 if tile >= 34 else 4


def parse_tiles(text: str) -> list[Tile]:
    """Read tile notation into a list of tiles, in the order written.

    Spaces are ignored. Raises :class:`TileTextError` naming the first bad token.
    Counts are not checked here; see :func:`check_counts`.
    """
    tiles: list[Tile] = []
    digits: list[tuple[int, int]] = []  # (digit, position) waiting for their suit letter
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch.isspace() or ch == ",":
            if digits and ch == ",":
                raise TileTextError(f"digits {_digits_text(digits)!r} at position "
                                    f"{digits[0][1] + 1} have no suit letter")
            i += 1
            continue
        # Only ASCII digits: str.isdigit() also takes '²' or '١', which int() refuses.
        if "0" <= ch <= "9":
            digits.append((int(ch), i))
            i += 1
            continue
        if ch in SUIT_LETTERS:
            if not digits:
                raise TileTextError(f"suit letter {ch!r} at position {i + 1} has no digits "
                                    "before it")
            for d, pos in digits:
                if not 1 <= d <= _SUIT_MAX[ch]:
                    raise TileTextError(f"no tile {d}{ch} (position {pos + 1}): "
                                        f"'{ch}' tiles run 1-{_SUIT_MAX[ch]}")
                tiles.append(Tile(_SUIT_BASE[ch] + d - 1))
            digits = []
            i += 1
            continue
        for alias, tile in _ALIASES:
            if text.startswith(alias, i):
                if digits:
                    raise TileTextError(f"digits {_digits_text(digits)!r} at position "
                                        f"{digits[0][1] + 1} have no suit letter")
                tiles.append(tile)
                i += len(alias)
                break
        else:
            j = i
            while j < n and not text[j].isspace() and not "0" <= text[j] <= "9":
                j += 1
            raise TileTextError(f"unknown tile text {text[i:j]!r} at position {i + 1}")
    if digits:
        raise TileTextError(f"digits {_digits_text(digits)!r} at position {digits[0][1] + 1} "
                            "have no suit letter")
    return tiles


def _digits_text(digits: list[tuple[int, int]]) -> str:
    return "".join(str(d) for d, _ in digits)


def format_tiles(tiles: Iterable[Tile], *, sort: bool = True) -> str:
    """Write tiles in notation, sharing suit letters: ``[M1, M2, P5] -> "12m5p"``.

    With ``sort=False`` the order is kept and a letter is written at each change of suit.
    """
    seq = sorted(tiles) if sort else list(tiles)
    out: list[str] = []
    run_suit = ""
    for t in seq:
        s = _SUIT[t]
        if run_suit and s != run_suit:
            out.append(run_suit)
        out.append(str(_NUMBER[t]))
        run_suit = s
    if run_suit:
        out.append(run_suit)
    return "".join(out)


def check_counts(tiles: Iterable[Tile], what: str = "the tiles") -> None:
    """Raise :class:`TileCountError` if any kind appears more often than the set holds."""
    for tile, count in sorted(Counter(tiles).items()):
        if count > copies_in_set(tile):
            limit = copies_in_set(tile)
            raise TileCountError(
                f"{what}: {count} copies of {tile.text} ({tile.english}), but the set has "
                f"only {limit}"
            )


def counts34(tiles: Iterable[Tile]) -> list[int]:
    """Counts of the 34 playing kinds, bonus tiles ignored."""
    c = [0] * NUM_PLAYING_KINDS
    for t in tiles:
        if t < 34:
            c[t] += 1
    return c


def tiles_from_counts(counts: Sequence[int]) -> list[Tile]:
    """The sorted tiles that a count vector describes."""
    return [Tile(i) for i, c in enumerate(counts) for _ in range(c)]
