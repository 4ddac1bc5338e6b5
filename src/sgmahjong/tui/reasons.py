"""Why a claim key does nothing: the sentence the table shows when W, P, C, K or S is pressed
and the move is not possible now, read from the player's own view (as the guided hand says
"Not yet: …" when a key is not the one the coach asks for).

The engine decides what is legal (:func:`sgmahjong.game.legal_actions`); this module only
names, in the player's words, the rule the key runs into: whose turn it is, what the tile on
offer would need in hand, chows only from the left, the passed-claim and own-discard rules,
and for a win what the tiles lack (no complete shape, or too few tai).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..english import tile_name
from ..game import Action, Chow, Kong, Pass, Phase, PlayerView, Pong, Win
from ..game.winning import win_score
from ..tiles import Seat, Tile

__all__ = ["KIND_NAMES", "why_not"]

KIND_NAMES = {"win": "win", "pong": "pong", "chow": "chow", "kong": "kong", "skip": "skip"}

_TWO = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four"}


def _held(view: PlayerView, tile: Tile) -> str:
    n = sum(1 for t in view.concealed if t == tile)
    return f"{_TWO.get(n, str(n))} {tile_name(tile)}"


def why_not(view: PlayerView, kind: str, legal: Sequence[Action],
            name: Callable[[Seat], str]) -> str:
    """The sentence for a ``kind`` key ("win", "pong", "chow", "kong", "skip") that has no
    legal move now; ``name`` gives a seat's player name as the table shows it."""
    if view.phase is Phase.ENDED:
        return "The hand is over."
    if not legal:
        return f"Not your move: {name(view.turn)} is to play."
    if view.phase is Phase.TURN:
        return _on_your_turn(view, kind)
    tile = view.window_tile
    if tile is None:   # pragma: no cover - the engine offers no window without a tile
        return f"No {kind} now."
    return _on_offer(view, kind, tile, legal, name)


def _on_your_turn(view: PlayerView, kind: str) -> str:
    if view.must_discard:
        if kind in ("win", "kong"):
            return (f"No {kind} now: after a chow or pong you throw a tile first "
                    "(←/→ and Enter).")
        return "After a chow or pong you throw a tile: ←/→ choose it, Enter picks it."
    if kind in ("pong", "chow"):
        return (f"Nothing to {kind}: it is your turn. A {kind} takes a tile another player "
                "has just thrown; now throw one of yours.")
    if kind == "skip":
        return "Nothing to skip: it is your turn, throw a tile (←/→ and Enter)."
    if kind == "kong":
        return ("No kong: you hold no four of a kind, and no pong to add the fourth "
                "tile to.")
    drawn = view.last_drawn
    if drawn is None:   # the banker's first turn: the 14th tile counts as the draw
        return "No win: your tiles do not make four sets and a pair."
    return _no_win(view, drawn, "self")


def _no_win(view: PlayerView, tile: Tile, source: str) -> str:
    result = win_score(view, tile, source)
    with_tile = f"with {tile_name(tile)}"
    if result is None or not result.complete:
        return f"No win: {with_tile} your tiles do not make four sets and a pair."
    need = view.rules.scoring.minimum_tai
    return (f"No win: {with_tile} the hand is worth {result.raw_tai} tai, and a win "
            f"needs {need}.")


def _on_offer(view: PlayerView, kind: str, tile: Tile, legal: Sequence[Action],
              name: Callable[[Seat], str]) -> str:
    thrower = name(view.turn)
    what = tile_name(tile)
    if kind == "skip":   # only a claim window without Pass: none in these rules
        return "You cannot skip this one."
    if view.blocked == tile and not (kind == "kong" and
                                     view.rules.claims.own_discard == "kong-only"):
        return (f"No {kind}: {what} is the tile you threw last, and your own discard may "
                "not be claimed until your next draw or claim.")
    if kind in ("win", "pong") and view.rules.claims.passed_claim and tile in view.passed:
        return (f"No {kind}: you let a {what} pass earlier, so you may not {kind} it until "
                "your next draw or declared set.")
    if view.phase is not Phase.CLAIMS and kind != "win":
        return f"No {kind}: only a win may take this tile."
    if kind == "win":
        return _no_win(view, tile, "discard" if view.phase is Phase.CLAIMS else "rob-kong")
    if kind == "chow":
        left = Seat((view.seat + 3) % 4)
        if view.turn != left:
            return (f"No chow: you chow only from the player on your left ({name(left)}); "
                    f"{thrower} threw the {what}.")
        return f"No chow: your tiles make no run of three with the {what}."
    need = 2 if kind == "pong" else 3
    return (f"No {kind}: you hold {_held(view, tile)}; a {kind} needs {_TWO[need]} in your "
            "hand.")


def claim_kind(action: Action) -> str:
    """The key's kind for an action (``"pong"`` for a Pong)."""
    for cls, kind in ((Win, "win"), (Pong, "pong"), (Chow, "chow"), (Kong, "kong"),
                      (Pass, "skip")):
        if isinstance(action, cls):
            return kind
    return type(action).__name__.lower()
