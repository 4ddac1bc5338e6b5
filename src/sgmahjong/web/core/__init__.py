"""The web table's core: one table's rules of play with no I/O (commands in, effects out).

Nothing here imports asyncio, sockets, the web framework or the database (an
import-linter contract holds it): the shell in :mod:`sgmahjong.web.runtime` carries out
the effects, and tests drive a :class:`TableCore` directly with the time they choose.
"""

from .messages import (
    Act,
    AskHints,
    Attach,
    Command,
    Decided,
    Detach,
    Effect,
    Expire,
    Hints,
    Inbox,
    Join,
    NeedReload,
    Outbox,
    Ready,
    Reload,
    Reviewed,
    ReviewHand,
    SaveSeat,
    Send,
    SetStatus,
    Start,
    Store,
    Think,
    Tick,
    WakeAt,
)
from .seating import (
    TableError,
    ai_names,
    check_name,
    default_standin,
    level_names,
    make_ai,
    same_name,
    unique_name,
)
from .seats import Slot, Timing
from .table import TableCore

__all__ = ["Act", "AskHints", "Attach", "Command", "Decided", "Detach", "Effect", "Expire",
           "Hints", "Inbox", "Join", "NeedReload", "Outbox", "Ready", "Reload", "ReviewHand",
           "Reviewed", "SaveSeat", "Send", "SetStatus", "Slot", "Start", "Store", "TableCore",
           "TableError", "Think", "Tick", "Timing", "WakeAt", "ai_names", "check_name",
           "default_standin", "level_names", "make_ai", "same_name", "unique_name"]
