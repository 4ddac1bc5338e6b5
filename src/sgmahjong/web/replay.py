"""The replay of a finished table: each hand as steps, each step the whole table at that point.

The page holds no rules, so the server replays the match record through the engine's
reducer (:func:`sgmahjong.game.apply`) and sends, for every step, what happened in words
and every seat's tiles (concealed ones too: the match is over, nothing is secret any
more). Only finished tables are replayed, since a record reveals every wall.

Seats in a frame are seat winds of that hand (0 East); ``players`` maps them to match
players, whose seats move with the banker.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game import (
    BaoIncurred,
    BonusExposed,
    Claimed,
    ClaimPassed,
    Discarded,
    Drew,
    Event,
    Game,
    HandDrawn,
    InstantPayout,
    KongDeclared,
    Match,
    Settled,
    TableState,
    Won,
    apply,
)
from ..game.wall import KIND
from ..record import Record
from ..render.words import BAO_NAMES, CONTEXT_NAMES, DRAWN_WHY, PAYOUT_NAMES
from ..rules import Ruleset
from ..tiles import Seat, Tile, format_tiles
from .protocol import hand_summary

WINDS = ("East", "South", "West", "North")

# A step ends at the first of these: what a player chose, or the end of the hand. Draws,
# bonus tiles and their replacements before East's first choice are the deal.
_DECISIONS = (Discarded, Claimed, KongDeclared, Won, HandDrawn)



def describe(e: Event) -> str:
    """One line for an event as a viewer of the replay reads it: ``"South discards 5p"``."""
    who = WINDS[e.seat] if hasattr(e, "seat") else ""
    if isinstance(e, Drew):
        return f"{who} draws {e.tile.text}" + (" as a replacement" if e.replacement else "")
    if isinstance(e, BonusExposed):
        return f"{who} sets aside the bonus tile {e.tile.text}"
    if isinstance(e, Discarded):
        return f"{who} discards {e.tile.text}"
    if isinstance(e, Claimed):
        if e.kind == "chow":
            return (f"{who} chows {e.tile.text} "
                    f"({format_tiles([e.low, Tile(e.low + 1), Tile(e.low + 2)])})")
        return f"{who} {e.kind}s {e.tile.text}"
    if isinstance(e, KongDeclared):
        if e.kind == "added":
            return f"{who} adds {e.tile.text} to a pong: a kong"
        return f"{who} declares a concealed kong of {e.tile.text}"
    if isinstance(e, ClaimPassed):
        return f"{who} passes on {e.tile.text}"
    if isinstance(e, InstantPayout):
        return (f"{who} collects {e.amount} from each player for "
                f"{PAYOUT_NAMES.get(e.reason, e.reason)}")
    if isinstance(e, BaoIncurred):
        return (f"{who} {BAO_NAMES.get(e.case, e.case)}: liable (Bao) for "
                f"{WINDS[e.winner]}'s win")
    if isinstance(e, Won):
        how = "self-drawn" if e.discarder is None else f"from {WINDS[e.discarder]}"
        extra = "".join(f", {CONTEXT_NAMES.get(c, c)}" for c in e.context)
        tai = f"{e.tai} tai" if e.tai != 1 else "1 tai"
        return f"{who} wins on {e.tile.text}: {tai} ({how}{extra})"
    if isinstance(e, Settled):
        return f"{who} collects {e.deltas[e.seat]} points"
    if isinstance(e, HandDrawn):
        return f"The hand is drawn: {DRAWN_WHY.get(e.reason, e.reason)}"
    return e.TYPE


def _tiles(ids: Sequence[int], *, sort: bool = True) -> str:
    return format_tiles((KIND[i] for i in ids), sort=sort)


def snapshot(state: TableState, base: Sequence[int]) -> dict[str, Any]:
    """The whole table after some event: every seat's tiles, the wall, the scores by seat
    (``base``: the match scores of the seats before the hand)."""
    seats = []
    for n, s in enumerate(state.seats):
        drawn = None
        if (s.last_drawn is not None and state.turn == n and s.last_drawn in s.concealed):
            drawn = KIND[s.last_drawn].text
        seats.append({
            "concealed": _tiles(s.concealed), "drawn": drawn,
            "melds": [{"kind": m.kind.value, "tiles": _tiles(sorted(m.ids))}
                      for m in s.melds],
            "bonus": _tiles(s.bonus, sort=False), "discards": _tiles(s.discards, sort=False),
        })
    wall = state.wall
    window = state.window_tile
    return {
        "seats": seats, "turn": int(state.turn), "phase": state.phase.value,
        "window": None if window is None else KIND[window].text,
        "wall": 0 if wall is None else wall.live_remaining,
        "wall_tiles": 0 if wall is None else wall.remaining,
        "scores": [base[n] + state.scores[n] for n in range(4)],
    }


def _deal_text(state: TableState, hand: int) -> str:
    bonus = [f"{WINDS[n]} {_tiles(s.bonus, sort=False)}"
             for n, s in enumerate(state.seats) if s.bonus]
    out = f"Hand {hand + 1} is dealt ({WINDS[state.round_wind]} round)"
    if not state.dealing:   # (an Eight Flowers win can end the hand inside the deal)
        out += ": East, the banker, holds 14 tiles, the others 13"
    return out + (f"; bonus tiles set aside: {', '.join(bonus)}" if bonus else "")


def hand_steps(rules: Ruleset, events: Sequence[Event], base: Sequence[int],
               first_n: int = 1) -> list[dict[str, Any]]:
    """The steps of one hand: the deal, then one step per event (a passed claim, which
    changes nothing one can see, joins the step before). ``first_n`` is the table's event
    number of the hand's first event, so a step can say which events it covers."""
    state = TableState.empty(rules)
    steps: list[dict[str, Any]] = []
    k = 0
    while k < len(events) and not isinstance(events[k], _DECISIONS):
        apply(state, events[k])
        k += 1
    steps.append({"n": first_n + k - 1, "text": _deal_text(state, state.hand_number),
                  "tile": None, **snapshot(state, base)})
    for i in range(k, len(events)):
        e = events[i]
        apply(state, e)
        if isinstance(e, ClaimPassed):
            steps[-1].update(n=first_n + i, **snapshot(state, base))
            continue
        tile = getattr(e, "tile", None)
        steps.append({"n": first_n + i, "text": describe(e),
                      "tile": tile.text if tile is not None else None,
                      **snapshot(state, base)})
    return steps


def replay_hands(record: Record, names: Sequence[str]) -> list[dict[str, Any]]:
    """Every hand of a record: its number, round wind, banker, the seat-to-player map, its
    steps, and the summary the table showed at its end (:func:`protocol.hand_summary`)."""
    match = Match(record.rules, record.seed, quick=record.quick)
    out = []
    for first, events in record.hands():
        ms = match.state
        players = [ms.player_at(Seat(s)) for s in range(4)]
        base = [ms.scores[p] for p in players]
        steps = hand_steps(record.rules, events, base, first + 1)
        # The summary comes from the engine's own account of the hand (the match's
        # HandRecord), the same path the live table took, not from the frames.
        match.game = Game.replay(record.rules, events)
        rec = match.finish_hand()
        out.append({"number": rec.number, "round_wind": int(rec.round_wind),
                    "banker": rec.banker, "players": players, "steps": steps,
                    "summary": hand_summary(rec, names, match.state.scores)})
    return out


def replay_index(hands: Sequence[dict[str, Any]], names: Sequence[str],
                 record: Record) -> dict[str, Any]:
    """The replay without its frames: which hands there are and how each ended."""
    def title(h: dict[str, Any]) -> str:
        s = h["summary"]
        if s["wins"]:
            return ", ".join(f"{w['name']} wins" for w in s["wins"])
        return "drawn"

    return {"players": list(names), "rules": record.rules.name, "quick": record.quick,
            "scores": list(record.header.get("scores", [])),
            "hands": [{"number": h["number"], "round_wind": h["round_wind"],
                       "banker": h["banker"], "steps": len(h["steps"]), "title": title(h)}
                      for h in hands]}


_CACHE: dict[tuple[str, int], list[dict[str, Any]]] = {}
_CACHE_SIZE = 16


def table_replay(table_id: str, record: Record, names: Sequence[str]) -> list[dict[str, Any]]:
    """:func:`replay_hands` of a finished table, kept for the next request: a watcher steps
    through hand after hand, and a finished table's record never changes."""
    key = (table_id, len(record.events))
    hands = _CACHE.get(key)
    if hands is None:
        hands = replay_hands(record, names)
        if len(_CACHE) >= _CACHE_SIZE:
            del _CACHE[next(iter(_CACHE))]
        _CACHE[key] = hands
    return hands


__all__ = ["describe", "hand_steps", "replay_hands", "replay_index", "snapshot",
           "table_replay"]
