"""How the game is said in English: tile names, lists of tiles, counts with their plural,
and verbs that agree with their subject ("You pay", "Bob pays").

Every sentence a player reads (hints, hand ends, the replay, notices) is built from these,
so no sentence shows tile notation ("5p", "43f"), says "1 points" or "You pays". The
notation stays for input and records; a front end may draw a tile's label or picture next
to its name, never instead of it in a sentence.

>>> from sgmahjong.tiles import parse_tiles
>>> tile_name(Tile.EAST), tile_name(Tile.P8), tile_name(Tile.RED)
('East Wind', '8 Circles', 'Red Dragon')
>>> tile_list(parse_tiles("1f3f"))
'Plum and Chrysanthemum'
>>> tile_list(parse_tiles("1m4m7m"), "or"), tile_list(parse_tiles("1m4m5p1z"))
('1, 4 or 7 Characters', '1 and 4 Characters, 5 Circles and East Wind')
>>> count(1, "point"), count(2, "point"), count(2, "tai"), count(3, "copy")
('1 point', '2 points', '2 tai', '3 copies')
>>> says("You", "pay", "Rabbit 4 points"), says("Bob", "pay", "you 4 points")
('You pay Rabbit 4 points', 'Bob pays you 4 points')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .tiles import Tile

__all__ = ["YOU", "and_list", "chow_name", "count", "is_you", "objective", "possessive",
           "says", "sentence", "suit_name", "tile_list", "tile_name", "verb"]

YOU = "You"
"""The name a front end gives the player it speaks to; sentences about them use "you"."""

_SUIT_NAMES = {"m": "Characters", "p": "Circles", "s": "Bamboo"}
_INVARIANT = {"tai", "Bamboo"}
_IRREGULAR_PLURALS = {"copy": "copies"}
# Third person of the verbs whose -s form is not just base + "s".
_THIRD_PERSON = {"be": "is", "have": "has", "do": "does", "go": "goes"}


def tile_name(tile: Tile) -> str:
    """The tile's English name: ``"8 Circles"``, ``"East Wind"``, ``"Red Dragon"``,
    ``"Plum"``, ``"Cat"`` (a wind is named as a wind, so it is not read as a seat)."""
    return f"{tile.english} Wind" if tile.is_wind else tile.english


def suit_name(tile: Tile) -> str:
    """``"Characters"``, ``"Circles"`` or ``"Bamboo"`` for a suited tile."""
    if not tile.is_suited:
        raise ValueError(f"{tile_name(tile)} has no suit")
    return _SUIT_NAMES[tile.suit]


def and_list(items: Sequence[str], conj: str = "and") -> str:
    """``"A"``, ``"A and B"``, ``"A, B and C"`` (``conj`` may be ``"or"``)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conj} {items[-1]}"


def tile_list(tiles: Iterable[Tile], conj: str = "and") -> str:
    """Tiles named in the order given; neighbours of one suit share its name:
    ``"1, 4 or 7 Characters"``, ``"3 Bamboo and Red Dragon"``, ``"Plum and Cat"``."""
    groups: list[list[Tile]] = []
    for t in tiles:
        if groups and t.is_suited and groups[-1][-1].is_suited and groups[-1][-1].suit == t.suit:
            groups[-1].append(t)
        else:
            groups.append([t])
    names = []
    for g in groups:
        if len(g) == 1:
            names.append(tile_name(g[0]))
        else:
            names.append(f"{and_list([str(t.number) for t in g], conj)} {suit_name(g[0])}")
    return and_list(names, conj)


def chow_name(low: Tile) -> str:
    """A chow by its lowest tile: ``"3-4-5 Circles"``."""
    n = low.number
    return f"{n}-{n + 1}-{n + 2} {suit_name(low)}"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun, plural unless ``n`` is 1 or -1: ``"1 point"``, ``"0 points"``,
    ``"3 tai"`` (tai does not change)."""
    if abs(n) == 1 or noun in _INVARIANT:
        return f"{n} {noun}"
    if plural is None:
        plural = _IRREGULAR_PLURALS.get(noun) or (
            noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou"
            else noun + "es" if noun.endswith(("s", "sh", "ch", "x")) else noun + "s")
    return f"{n} {plural}"


def is_you(name: str) -> bool:
    """Whether ``name`` is the player spoken to (``"You"``)."""
    return name.strip().lower() == "you"


def verb(subject: str, base: str) -> str:
    """``base`` (``"pay"``, ``"be"``) in the form that agrees with ``subject``:
    ``"pay"``/``"are"`` for you, ``"pays"``/``"is"`` for anybody else."""
    if is_you(subject):
        return "are" if base == "be" else base
    if base in _THIRD_PERSON:
        return _THIRD_PERSON[base]
    if base.endswith("y") and base[-2:-1] not in "aeiou":
        return base[:-1] + "ies"
    if base.endswith(("s", "sh", "ch", "x", "z", "o")):
        return base + "es"
    return base + "s"


def says(subject: str, base: str, rest: str = "") -> str:
    """A clause with its subject and agreeing verb: ``says("You", "pay", "Bob 2 points")``
    is ``"You pay Bob 2 points"``."""
    return f"{subject} {verb(subject, base)}" + (f" {rest}" if rest else "")


def objective(name: str) -> str:
    """The name as an object: ``"you"`` or the name itself (``"Bob pays you"``)."""
    return "you" if is_you(name) else name


def possessive(name: str, *, start: bool = False) -> str:
    """``"your"`` (``"Your"`` at the start of a sentence), ``"Bob's"``."""
    if is_you(name):
        return "Your" if start else "your"
    return f"{name}'s"


def sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop (kept if it already ends one)."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
