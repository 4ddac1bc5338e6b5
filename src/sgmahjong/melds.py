"""Declared sets: chow, pong, kong and concealed kong, with their notation ``"pong 777z"``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .errors import MeldError, TileTextError
from .tiles import Tile, format_tiles, parse_tiles


class MeldKind(Enum):
    """How a set was made. A ``KONG`` is claimed or added; both count as exposed."""

    CHOW = "chow"
    PONG = "pong"
    KONG = "kong"
    CONCEALED_KONG = "concealed-kong"

    @property
    def size(self) -> int:
        return 3 if self in (MeldKind.CHOW, MeldKind.PONG) else 4

    @property
    def is_kong(self) -> bool:
        return self in (MeldKind.KONG, MeldKind.CONCEALED_KONG)


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set, named by its kind and its lowest tile.

    >>> Meld.parse("chow 234s")
    Meld.parse('chow 234s')
    >>> Meld.parse("kong 2222s").tiles
    (Tile.S2, Tile.S2, Tile.S2, Tile.S2)
    """

    kind: MeldKind
    tile: Tile

    def __post_init__(self) -> None:
        t = self.tile
        if t.is_bonus:
            raise MeldError(f"{t.text} is a bonus tile and can never be part of a set")
        if self.kind is MeldKind.CHOW and (not t.is_suited or t % 9 > 6):
            raise MeldError(f"no chow starts at {t.text}: a chow is three in a row of one suit")

    @classmethod
    def parse(cls, text: str) -> Meld:
        """Read ``"<kind> <tiles>"``, e.g. ``"pong 777z"`` or ``"concealed-kong 1111m"``."""
        parts = text.split()
        if len(parts) != 2:
            raise MeldError(f"cannot read meld {text!r}: expected '<kind> <tiles>', "
                            "e.g. 'pong 777z'")
        kind_text, tiles_text = parts
        try:
            kind = MeldKind(kind_text.lower())
        except ValueError:
            kinds = ", ".join(k.value for k in MeldKind)
            raise MeldError(f"unknown meld kind {kind_text!r} in {text!r}: "
                            f"expected one of {kinds}") from None
        try:
            tiles = sorted(parse_tiles(tiles_text))
        except TileTextError as exc:
            raise MeldError(f"in meld {text!r}: {exc}") from None
        return cls.from_tiles(kind, tiles, text)

    @classmethod
    def from_tiles(cls, kind: MeldKind, tiles: list[Tile], text: str | None = None) -> Meld:
        """Build a meld from its tiles, checking they form the kind of set named."""
        label = text if text is not None else f"{kind.value} {format_tiles(tiles)}"
        if len(tiles) != kind.size:
            raise MeldError(f"meld {label!r}: a {kind.value} has {kind.size} tiles, "
                            f"not {len(tiles)}")
        tiles = sorted(tiles)
        first = tiles[0]
        if any(t.is_bonus for t in tiles):
            raise MeldError(f"meld {label!r}: bonus tiles are never part of a set")
        if kind is MeldKind.CHOW:
            ok = (first.is_suited and first % 9 <= 6
                  and list(tiles) == [first, Tile(first + 1), Tile(first + 2)])
            if not ok:
                raise MeldError(f"meld {label!r}: a chow is three consecutive tiles of one suit")
        elif any(t != first for t in tiles):
            raise MeldError(f"meld {label!r}: a {kind.value} is {kind.size} identical tiles")
        return cls(kind, first)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        t = self.tile
        if self.kind is MeldKind.CHOW:
            return (t, Tile(t + 1), Tile(t + 2))
        return (t,) * self.kind.size

    @property
    def is_chow(self) -> bool:
        return self.kind is MeldKind.CHOW

    @property
    def is_pong_or_kong(self) -> bool:
        return self.kind is not MeldKind.CHOW

    @property
    def is_kong(self) -> bool:
        return self.kind.is_kong

    @property
    def is_concealed(self) -> bool:
        """Only a concealed kong is a concealed declared set."""
        return self.kind is MeldKind.CONCEALED_KONG

    @property
    def text(self) -> str:
        return f"{self.kind.value} {format_tiles(self.tiles)}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Meld.parse({self.text!r})"
