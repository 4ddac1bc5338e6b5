"""The fixed discrete action space, and its mapping to and from the engine's actions.

======== ============================================================
index    action
======== ============================================================
0-33     discard one tile of kind ``i`` (``1m`` .. ``7z``)
34       chow with the offered tile as the *low* tile (``t, t+1, t+2``)
35       chow with the offered tile in the *middle* (``t-1, t, t+1``)
36       chow with the offered tile as the *high* tile (``t-2, t-1, t``)
37       pong the offered tile
38       kong the offered tile (exposed, from a claim)
39-72    concealed kong of kind ``i - 39``
73-106   added kong (a fourth tile on one's exposed pong) of kind ``i - 73``
107      win (self-drawn, on a discard, robbing a kong or the eighth bonus tile)
108      pass
======== ============================================================

A chow is named by the position of the offered tile, so the engine's ``Chow(low)`` needs the
offered tile to be read back; every other index is the same whatever the table.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..errors import SgmahjongError
from ..game.actions import Action, Chow, Discard, Kong, Pass, Pong, Win
from ..game.view import PlayerView
from ..tiles import Tile

DISCARD = 0
CHOW_LOW, CHOW_MID, CHOW_HIGH = 34, 35, 36
PONG = 37
CLAIMED_KONG = 38
CONCEALED_KONG = 39
ADDED_KONG = 73
WIN = 107
PASS = 108
NUM_ACTIONS = 109

_KONG_BASE = {"concealed": CONCEALED_KONG, "added": ADDED_KONG}


class ActionError(SgmahjongError):
    """An action index that does not name a legal action now (the message says why)."""


def action_index(action: Action, offered: Tile | None = None) -> int:
    """The index of an engine action (``offered``: the tile on offer, needed for a chow)."""
    if isinstance(action, Discard):
        return DISCARD + action.tile
    if isinstance(action, Chow):
        if offered is None:
            raise ActionError("a chow is indexed by the offered tile's place in it; "
                              "no tile is on offer")
        place = offered - action.tile
        if place not in (0, 1, 2):
            raise ActionError(f"the chow from {action.tile.text} does not hold the offered "
                              f"{offered.text}")
        return CHOW_LOW + place
    if isinstance(action, Pong):
        return PONG
    if isinstance(action, Kong):
        if action.kind == "claimed":
            return CLAIMED_KONG
        return _KONG_BASE[action.kind] + action.tile
    if isinstance(action, Win):
        return WIN
    if isinstance(action, Pass):
        return PASS
    raise ActionError(f"not an action: {action!r}")


def index_action(index: int, offered: Tile | None = None) -> Action:
    """The engine action an index names (``offered``: the tile on offer, for a chow or a
    claimed kong)."""
    i = int(index)
    if not 0 <= i < NUM_ACTIONS:
        raise ActionError(f"action {index!r}: expected 0-{NUM_ACTIONS - 1}")
    if i < CHOW_LOW:
        return Discard(Tile(i))
    if i < PONG or i == CLAIMED_KONG:
        if offered is None or offered >= 34:
            raise ActionError(f"action {i} claims the offered tile, and none is on offer")
        if i == CLAIMED_KONG:
            return Kong(offered, "claimed")
        low = offered - (i - CHOW_LOW)
        if offered >= 27 or not 0 <= low % 9 <= 6 or low // 9 != offered // 9:
            raise ActionError(f"action {i}: no chow holds {offered.text} in that place")
        return Chow(Tile(low))
    if i == PONG:
        return Pong()
    if i < ADDED_KONG:
        return Kong(Tile(i - CONCEALED_KONG), "concealed")
    if i < WIN:
        return Kong(Tile(i - ADDED_KONG), "added")
    return Win() if i == WIN else Pass()


def legal_mask(legal: Iterable[Action], offered: Tile | None = None) -> np.ndarray:
    """The action mask (int8, 1 = legal) of these legal actions."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    for a in legal:
        mask[action_index(a, offered)] = 1
    return mask


def view_mask(view: PlayerView, legal: Iterable[Action]) -> np.ndarray:
    """:func:`legal_mask` for the seat of ``view`` (which holds the tile on offer)."""
    return legal_mask(legal, view.window_tile)


def describe(index: int) -> str:
    """A short name for an action index (``"discard 5p"``, ``"chow mid"``, ``"win"``)."""
    i = int(index)
    if i < CHOW_LOW:
        return f"discard {Tile(i).text}"
    names = {CHOW_LOW: "chow low", CHOW_MID: "chow mid", CHOW_HIGH: "chow high",
             PONG: "pong", CLAIMED_KONG: "kong (claimed)", WIN: "win", PASS: "pass"}
    if i in names:
        return names[i]
    if i < ADDED_KONG:
        return f"concealed kong {Tile(i - CONCEALED_KONG).text}"
    return f"added kong {Tile(i - ADDED_KONG).text}"


__all__ = ["ADDED_KONG", "CHOW_HIGH", "CHOW_LOW", "CHOW_MID", "CLAIMED_KONG",
           "CONCEALED_KONG", "DISCARD", "NUM_ACTIONS", "PASS", "PONG", "WIN", "ActionError",
           "action_index", "describe", "index_action", "legal_mask", "view_mask"]
