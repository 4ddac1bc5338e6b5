"""sgmahjong: Singapore Mahjong, complete and correct.

The core (tiles, melds, hands, analysis, rules, scoring) uses the standard library only.
Tile notation is described in :mod:`sgmahjong.tiles`, hand notation in :mod:`sgmahjong.hand`.
"""

from .errors import SgmahjongError
from .hand import Hand
from .melds import Meld, MeldKind
from .tiles import Seat, Tile, format_tiles, parse_tiles

__version__ = "0.1.0"

__all__ = [
    "Hand",
    "Meld",
    "MeldKind",
    "Seat",
    "SgmahjongError",
    "Tile",
    "__version__",
    "format_tiles",
    "parse_tiles",
]
