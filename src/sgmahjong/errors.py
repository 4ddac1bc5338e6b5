"""The exceptions sgmahjong raises for bad input: each names what is wrong."""

from __future__ import annotations


class SgmahjongError(ValueError):
    """Base class of every input error the library raises."""


class TileTextError(SgmahjongError):
    """Tile notation that cannot be read (an unknown token, a digit with no suit)."""


class TileCountError(SgmahjongError):
    """More copies of a tile than the 148-tile set holds."""


class MeldError(SgmahjongError):
    """A meld whose tiles do not form the declared kind of set."""


class HandError(SgmahjongError):
    """A hand with the wrong number of tiles for its melds, or bonus tiles in the wrong place."""


class RulesError(SgmahjongError):
    """A rule set or rule file with an unknown field or a bad value."""
