"""A player's hand: concealed tiles, declared sets and exposed bonus tiles, with its notation.

Hand notation is the concealed tiles, then each declared set and the bonus tiles as
comma-separated parts, using the meld notation of :mod:`sgmahjong.melds`:

>>> h = Hand.parse("123m456p1z, pong 777z, kong 2222s, bonus 1a2f")
>>> h.text
'123m456p1z, pong 777z, kong 2222s, bonus 2f1a'
>>> h.size
13
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import HandError, MeldError
from .melds import Meld
from .tiles import Tile, check_counts, counts34, format_tiles, parse_tiles


@dataclass(frozen=True, slots=True)
class Hand:
    """Concealed tiles (sorted), declared melds (in order made) and exposed bonus tiles.

    ``size`` counts each kong as three tiles, so a hand between turns has size 13 and a
    hand about to discard (or complete) has size 14.
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    bonus: tuple[Tile, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "concealed", tuple(sorted(self.concealed)))
        object.__setattr__(self, "melds", tuple(self.melds))
        object.__setattr__(self, "bonus", tuple(sorted(self.bonus)))
        for t in self.concealed:
            if t.is_bonus:
                raise HandError(f"bonus tile {t.text} cannot be concealed: bonus tiles are "
                                "exposed at once")
        for t in self.bonus:
            if not t.is_bonus:
                raise HandError(f"{t.text} is not a bonus tile (flowers 1f-4f, seasons 1g-4g, "
                                "animals 1a-4a)")
        if len(self.melds) > 4:
            raise HandError(f"a hand has at most 4 declared sets, not {len(self.melds)}")
        check_counts(self.all_tiles(), "the hand")

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Read hand notation. Bonus tiles written among the concealed tiles are moved aside."""
        parts = [p.strip() for p in text.split(",")]
        concealed_text, rest = parts[0], parts[1:]
        tiles = parse_tiles(concealed_text)
        concealed = [t for t in tiles if not t.is_bonus]
        bonus = [t for t in tiles if t.is_bonus]
        melds: list[Meld] = []
        for part in rest:
            if not part:
                raise HandError(f"empty part between commas in {text!r}")
            word = part.split()[0].lower()
            if word == "bonus":
                extra = parse_tiles(part[len("bonus"):])
                bad = [t.text for t in extra if not t.is_bonus]
                if bad:
                    raise HandError(f"'bonus' lists non-bonus tiles {', '.join(bad)}")
                bonus.extend(extra)
            else:
                try:
                    melds.append(Meld.parse(part))
                except MeldError as exc:
                    raise HandError(str(exc)) from None
        return cls(tuple(concealed), tuple(melds), tuple(bonus))

    @property
    def size(self) -> int:
        """Playable tiles held, each declared set counting as three."""
        return len(self.concealed) + 3 * len(self.melds)

    @property
    def counts(self) -> list[int]:
        """34-kind counts of the concealed tiles."""
        return counts34(self.concealed)

    def all_tiles(self) -> list[Tile]:
        """Every tile of the hand: concealed, in melds and bonus."""
        out = list(self.concealed)
        for m in self.melds:
            out.extend(m.tiles)
        out.extend(self.bonus)
        return out

    def playable_tiles(self) -> list[Tile]:
        """Concealed tiles plus the tiles of the declared sets."""
        out = list(self.concealed)
        for m in self.melds:
            out.extend(m.tiles)
        return out

    def with_tile(self, tile: Tile) -> Hand:
        """This hand with one more concealed tile."""
        return Hand((*self.concealed, tile), self.melds, self.bonus)

    def without_tile(self, tile: Tile) -> Hand:
        """This hand with one concealed copy of ``tile`` removed."""
        concealed = list(self.concealed)
        try:
            concealed.remove(tile)
        except ValueError:
            raise HandError(f"the hand holds no concealed {tile.text}") from None
        return Hand(tuple(concealed), self.melds, self.bonus)

    def with_bonus(self, tiles: Iterable[Tile]) -> Hand:
        return Hand(self.concealed, self.melds, (*self.bonus, *tiles))

    @property
    def text(self) -> str:
        parts = [format_tiles(self.concealed)]
        parts.extend(m.text for m in self.melds)
        if self.bonus:
            parts.append("bonus " + format_tiles(self.bonus))
        return ", ".join(parts)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Hand.parse({self.text!r})"
