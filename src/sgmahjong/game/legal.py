"""The legal actions of a seat, computed from its own view, and why an action is not legal.

Written once on :class:`PlayerView`, so the referee and an agent see the same list.
A seat is pending when its list holds anything but :class:`Pass`.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from typing import Final

from ..melds import MeldKind
from ..tiles import Tile
from .actions import Action, Chow, Discard, Kong, Pass, Pong, Win
from .state import Phase
from .view import PlayerView
from .winning import EIGHT, could_win_counts, win_score

# Enum members read as module names: in Python 3.11 each ``Phase.TURN``-style lookup
# goes through the enum metaclass's ``__getattr__`` hook, several times slower than a
# global, and these are compared at every event.
_PONG_SET: Final = MeldKind.PONG
_CLAIMS: Final = Phase.CLAIMS
_ENDED: Final = Phase.ENDED
_EXPOSED: Final = Phase.EXPOSED
_ROB_KONG: Final = Phase.ROB_KONG
_TURN: Final = Phase.TURN

RULE_CHOW = "RULES.md: Chow only by the next player (the one to the discarder's right)"
RULE_PASSED = ("passed-claim rule: having passed a Win or Pong on a tile, a player may not Win "
               "or Pong on another copy of it until their next draw or declared set")
RULE_OWN = {
    "kong-only": ("own-discard rule: a copy of one's own latest discard may not be claimed for "
                  "Win, Pong or Chow (Kong allowed) until one's next draw or claim"),
    "none": ("own-discard rule: a copy of one's own latest discard may not be claimed at all "
             "until one's next draw or claim"),
}
RULE_FINAL = ("RULES.md, 'the end of the wall': the final playable tile may win, Kong or "
              "complete a bonus set, but no replacement draw or discard follows it")
RULE_AFTER_CLAIM = "RULES.md: after a Chow or Pong the claimer discards"


def legal_actions(v: PlayerView) -> list[Action]:
    """Everything ``v.seat`` may submit now (empty when it has nothing to decide)."""
    ph = v.phase
    if ph is _TURN:
        return _turn(v) if v.seat == v.turn else []
    if v.seat == v.turn or v.window_tile is None:
        return []
    if ph is _CLAIMS:
        return _claims(v, v.window_tile)
    if ph is _ROB_KONG:
        return _rob_kong(v, v.window_tile)
    if ph is _EXPOSED:
        return _rob_eighth(v, v.window_tile)
    return []


def must_act(actions: list[Action]) -> bool:
    """A seat must answer when it has any choice besides passing."""
    for a in actions:  # noqa: SIM110 (a plain loop: no generator on every decision)
        if not isinstance(a, Pass):
            return True
    return False


def _no_discard(v: PlayerView) -> bool:
    return v.draw_final and v.rules.wall.replacement == "same-wall"


# Actions are frozen values: one shared instance per tile (the lists are built every turn).
_TILES: Final = tuple(Tile(k) for k in range(34))
_DISCARD: Final = tuple(Discard(t) for t in _TILES)
_CONCEALED_KONG: Final = tuple(Kong(t, "concealed") for t in _TILES)
_ADDED_KONG: Final = tuple(Kong(t, "added") for t in _TILES)
_CLAIMED_KONG: Final = tuple(Kong(t, "claimed") for t in _TILES)
_CHOW: Final = tuple(Chow(t) for t in _TILES)
_WIN: Final = Win()
_PASS: Final = Pass()
_PONG: Final = Pong()


def _turn(v: PlayerView) -> list[Action]:
    conc = v.concealed
    melds = v.me.melds
    if len(conc) + 3 * len(melds) != 14:
        return []  # a draw comes first
    kinds = sorted(set(conc))
    if kinds[-1] >= 34:
        return []  # a bonus exposure comes first
    if v.must_discard:
        return [_DISCARD[k] for k in kinds]
    counts = [0] * 34
    for t in conc:
        counts[t] += 1
    out: list[Action] = []
    if v.last_drawn is not None and could_win_counts(counts, melds, v.rules):
        r = win_score(v, v.last_drawn, "self")
        if r is not None and r.winning:
            out.append(_WIN)
    if 4 in counts:
        out.extend(_CONCEALED_KONG[k] for k in kinds if counts[k] == 4)
    if melds:
        out.extend(_ADDED_KONG[m.tile] for m in melds
                   if m.kind is _PONG_SET and counts[m.tile])
    if _no_discard(v):
        out.append(_PASS)
    elif out:
        out += [_DISCARD[k] for k in kinds]
    else:
        return [_DISCARD[k] for k in kinds]
    return out


def _blocked(v: PlayerView, t: Tile) -> bool:
    return v.blocked == t


def _passed(v: PlayerView, t: Tile) -> bool:
    return v.rules.claims.passed_claim and t in v.passed


def _claims(v: PlayerView, t: Tile) -> list[Action]:
    out: list[Action] = []
    blocked = _blocked(v, t)
    if blocked and v.rules.claims.own_discard == "none":
        return [_PASS]
    free = not blocked and not _passed(v, t)
    if free and _could_win_on(v, t):
        r = win_score(v, t, "discard")
        if r is not None and r.winning:
            out.append(_WIN)
    n = v.concealed.count(t)
    if n >= 3:
        out.append(_CLAIMED_KONG[t])
    if free and n >= 2:
        out.append(_PONG)
    if not blocked and v.seat == v.turn.next:
        out.extend(_CHOW[low] for low in chow_starts(v.concealed, t))
    out.append(_PASS)
    return out


def chow_starts(concealed: Sequence[Tile] | Set[int], t: Tile) -> list[Tile]:
    """The lowest tiles of the chows ``t`` can complete with these concealed tiles."""
    if t >= 27:
        return []
    held = concealed if isinstance(concealed, Set) else set(concealed)
    pos = t % 9
    out = []
    if pos >= 2 and t - 2 in held and t - 1 in held:
        out.append(_TILES[t - 2])
    if 1 <= pos <= 7 and t - 1 in held and t + 1 in held:
        out.append(_TILES[t - 1])
    if pos <= 6 and t + 1 in held and t + 2 in held:
        out.append(_TILES[t])
    return out


def _could_win_on(v: PlayerView, t: Tile) -> bool:
    """:func:`win_score`'s own first test (:func:`.winning.could_win`) for winning on
    another seat's tile ``t``, on counts: most claim windows a seat is asked about are a
    pong or chow it could make, and this rejects the win without building the hand that
    scoring needs."""
    counts = [0] * 34
    for k in v.concealed:
        if k < 34:
            counts[k] += 1
    counts[t] += 1
    return could_win_counts(counts, v.me.melds, v.rules)


def _rob_kong(v: PlayerView, t: Tile) -> list[Action]:
    if not _blocked(v, t) and not _passed(v, t) and _could_win_on(v, t):
        r = win_score(v, t, "rob-kong")
        if r is not None and r.winning:
            return [_WIN, _PASS]
    return [_PASS]


def _rob_eighth(v: PlayerView, t: Tile) -> list[Action]:
    if (v.rules.scoring.robbing_the_eighth and t in EIGHT
            and EIGHT - {t} <= set(v.me.bonus)):
        r = win_score(v, t, "rob-eighth")
        if r is not None and r.winning:
            return [_WIN, _PASS]
    return [_PASS]


def why_illegal(v: PlayerView, action: Action) -> str:
    """Name the rule ``action`` breaks for ``v.seat`` now ("" when it is legal)."""
    legal = legal_actions(v)
    if action in legal:
        return ""
    who = v.seat.name.title()
    if v.phase is _ENDED:
        return "the hand is over"
    on_turn = v.phase is _TURN and v.seat == v.turn
    if not must_act(legal) and (on_turn or v.window_tile is None or v.seat == v.turn
                                or isinstance(action, (Discard, Pass))):
        return f"{who} has nothing to decide now ({_waiting(v)})"
    t = v.window_tile
    if isinstance(action, Discard):
        if not on_turn:
            return f"only the player on turn discards; {who} may only claim or pass"
        if _no_discard(v):
            return f"no discard now: {RULE_FINAL}"
        return f"{who} holds no {action.tile.text}"
    if isinstance(action, Pass):
        return "the player on turn must discard (Pass ends the hand only on the final tile)"
    if on_turn and isinstance(action, (Chow, Pong)):
        return f"{who} is on turn: there is no other player's discard to claim"
    if on_turn and isinstance(action, Kong) and action.kind == "claimed":
        return f"{who} is on turn: a claimed kong needs another player's discard"
    if v.must_discard:
        return f"{who} must discard now: {RULE_AFTER_CLAIM}"
    if not on_turn and t is not None:
        if isinstance(action, Kong) and action.kind != "claimed":
            return f"{who} may declare a {action.kind} kong only on their own turn"
        if isinstance(action, (Chow, Pong, Kong, Win)) and _blocked(v, t) and not (
                isinstance(action, Kong) and v.rules.claims.own_discard == "kong-only"):
            return f"{who} may not take {t.text}: {RULE_OWN[v.rules.claims.own_discard]}"
        if isinstance(action, (Pong, Win)) and _passed(v, t):
            return f"{who} may not take {t.text}: {RULE_PASSED}"
        if v.phase is not _CLAIMS and not isinstance(action, Win):
            return f"only a Win may take {t.text} now ({v.phase.value} window)"
        if isinstance(action, Chow):
            if v.seat != v.turn.next:
                return (f"{who} may not chow {v.turn.name.title()}'s discard: only "
                        f"{v.turn.next.name.title()} may ({RULE_CHOW})")
            return f"{who} cannot make the chow starting at {action.tile.text} with {t.text}"
        if isinstance(action, (Pong, Kong)):
            need = 2 if isinstance(action, Pong) else 3
            if isinstance(action, Kong) and action.tile != t:
                return f"the tile on offer is {t.text}, not {action.tile.text}"
            return f"{who} needs {need} concealed {t.text} for that"
    if isinstance(action, Kong):
        if action.kind == "concealed":
            return f"{who} does not hold four concealed {action.tile.text}"
        return f"{who} has no pong of {action.tile.text} and a concealed copy to add"
    if isinstance(action, Win):
        return _why_no_win(v)
    if not must_act(legal):
        return f"{who} has nothing to decide now ({_waiting(v)})"
    return f"not legal now; the legal actions are: {', '.join(map(repr, legal))}"


def _why_no_win(v: PlayerView) -> str:
    if v.phase is _TURN:
        tile, source = v.last_drawn, "self"
    else:
        tile = v.window_tile
        source = {_CLAIMS: "discard", _ROB_KONG: "rob-kong"}.get(v.phase, "rob-eighth")
    if tile is None:
        return "there is no winning tile"
    r = win_score(v, tile, source)
    if r is None:
        return f"not a winning hand: the tiles with {tile.text} do not form a winning shape"
    return f"not a winning hand: {r.reason}"


def _waiting(v: PlayerView) -> str:
    if v.phase is _TURN:
        return f"{v.turn.name.title()} is on turn"
    return f"the {v.phase.value} phase"
