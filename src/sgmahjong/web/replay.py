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
from typing import TypedDict

from ..english import chow_name, count, tile_list, tile_name
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
from ..game.codec import JSON
from ..game.wall import KIND
from ..record import Record
from ..render.words import (
    BAO_NAMES,
    CONTEXT_NAMES,
    drawn_text,
    payout_text,
    tai_counted,
    tai_text,
)
from ..rules import Ruleset
from ..tiles import Seat, format_tiles
from .protocol import HandSummary, hand_summary

WINDS = ("East", "South", "West", "North")

# A step ends at the first of these: what a player chose, or the end of the hand. Draws,
# bonus tiles and their replacements before East's first choice are the deal.
_DECISIONS = (Discarded, Claimed, KongDeclared, Won, HandDrawn)



def describe(e: Event, *, counts_tai: bool | None = None) -> str:
    """One line for an event as a viewer of the replay reads it, tiles named:
    ``"South discards 5 Circles"``. ``counts_tai``: whether the rules count tai (read from a
    win when not given, :func:`sgmahjong.render.words.tai_counted`)."""
    who = WINDS[e.seat] if hasattr(e, "seat") else ""
    if isinstance(e, Drew):
        return (f"{who} draws {tile_name(e.tile)}"
                + (" as a replacement" if e.replacement else ""))
    if isinstance(e, BonusExposed):
        return f"{who} sets aside the bonus tile {tile_name(e.tile)}"
    if isinstance(e, Discarded):
        return f"{who} discards {tile_name(e.tile)}"
    if isinstance(e, Claimed):
        if e.kind == "chow":
            return f"{who} chows {tile_name(e.tile)}, making {chow_name(e.low)}"
        return f"{who} {e.kind}s {tile_name(e.tile)}"
    if isinstance(e, KongDeclared):
        if e.kind == "added":
            return f"{who} adds {tile_name(e.tile)} to a pong: a kong"
        return f"{who} declares a concealed kong of {tile_name(e.tile)}"
    if isinstance(e, ClaimPassed):
        return f"{who} passes on {tile_name(e.tile)}"
    if isinstance(e, InstantPayout):
        return payout_text(who, e.amount, e.reason).removesuffix(".")
    if isinstance(e, BaoIncurred):
        return (f"{who} {BAO_NAMES.get(e.case, e.case)} ({tile_name(e.tile)}): liable (Bao) "
                f"for {WINDS[e.winner]}'s win")
    if isinstance(e, Won):
        how = "self-drawn" if e.discarder is None else f"from {WINDS[e.discarder]}"
        extra = "".join(f", {CONTEXT_NAMES.get(c, c)}" for c in e.context)
        counted = tai_counted(e) if counts_tai is None else counts_tai
        tai = f": {tai_text(e.tai, e.raw_tai)}" if counted else ""
        return f"{who} wins on {tile_name(e.tile)}{tai} ({how}{extra})"
    if isinstance(e, Settled):
        return f"{who} collects {count(e.deltas[e.seat], 'point')}"
    if isinstance(e, HandDrawn):
        return drawn_text(e.reason).removesuffix(".")
    return e.TYPE


def _tiles(ids: Sequence[int], *, sort: bool = True) -> str:
    return format_tiles((KIND[i] for i in ids), sort=sort)


class SeatTiles(TypedDict):
    concealed: str
    drawn: str | None       # the tile just drawn, while it is in the hand
    melds: list[JSON]       # each {kind, tiles}
    bonus: str
    discards: str


class Snapshot(TypedDict):
    seats: list[SeatTiles]
    turn: int
    phase: str
    window: str | None
    wall: int               # draws left
    wall_tiles: int
    scores: list[int]       # by seat


class Step(Snapshot):
    n: int                  # the last event number the step covers
    text: str
    tile: str | None


class ReplayHand(TypedDict):
    number: int
    round_wind: int
    banker: int
    players: list[int]      # the match player at seats 0-3
    steps: list[Step]
    summary: HandSummary    # as in hand-end


class HandTitle(TypedDict):
    number: int
    round_wind: int
    banker: int
    steps: int
    title: str


class ReplayIndex(TypedDict):
    players: list[str]
    rules: str
    quick: bool
    scores: list[int]
    hands: list[HandTitle]


def _step(n: int, text: str, tile: str | None, snap: Snapshot) -> Step:
    return {"n": n, "text": text, "tile": tile, "seats": snap["seats"], "turn": snap["turn"],
            "phase": snap["phase"], "window": snap["window"], "wall": snap["wall"],
            "wall_tiles": snap["wall_tiles"], "scores": snap["scores"]}


def snapshot(state: TableState, base: Sequence[int]) -> Snapshot:
    """The whole table after some event: every seat's tiles, the wall, the scores by seat
    (``base``: the match scores of the seats before the hand)."""
    seats: list[SeatTiles] = []
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
    bonus = [f"{tile_list([KIND[i] for i in s.bonus])} by {WINDS[n]}"
             for n, s in enumerate(state.seats) if s.bonus]
    out = f"Hand {hand + 1} is dealt ({WINDS[state.round_wind]} round)"
    if not state.dealing:   # (an Eight Flowers win can end the hand inside the deal)
        out += ": East, the banker, holds 14 tiles, the others 13"
    return out + (f"; bonus tiles set aside: {'; '.join(bonus)}" if bonus else "")


def hand_steps(rules: Ruleset, events: Sequence[Event], base: Sequence[int],
               first_n: int = 1) -> list[Step]:
    """The steps of one hand: the deal, then one step per event (a passed claim, which
    changes nothing one can see, joins the step before). ``first_n`` is the table's event
    number of the hand's first event, so a step can say which events it covers."""
    state = TableState.empty(rules)
    steps: list[Step] = []
    k = 0
    while k < len(events) and not isinstance(events[k], _DECISIONS):
        apply(state, events[k])
        k += 1
    steps.append(_step(first_n + k - 1, _deal_text(state, state.hand_number), None,
                       snapshot(state, base)))
    for i in range(k, len(events)):
        e = events[i]
        apply(state, e)
        if isinstance(e, ClaimPassed):
            steps[-1] = _step(first_n + i, steps[-1]["text"], steps[-1]["tile"],
                              snapshot(state, base))
            continue
        tile = getattr(e, "tile", None)
        steps.append(_step(first_n + i, describe(e, counts_tai=rules.scoring.counts_tai),
                           tile.text if tile is not None else None, snapshot(state, base)))
    return steps


def replay_hands(record: Record, names: Sequence[str]) -> list[ReplayHand]:
    """Every hand of a record: its number, round wind, banker, the seat-to-player map, its
    steps, and the summary the table showed at its end (:func:`protocol.hand_summary`)."""
    match = Match(record.rules, record.seed, quick=record.quick)
    out: list[ReplayHand] = []
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
                    "summary": hand_summary(rec, names, match.state.scores,
                                            counts_tai=record.rules.scoring.counts_tai)})
    return out


def replay_index(hands: Sequence[ReplayHand], names: Sequence[str],
                 record: Record) -> ReplayIndex:
    """The replay without its frames: which hands there are and how each ended."""
    def title(h: ReplayHand) -> str:
        wins = h["summary"]["wins"]
        if wins:
            return ", ".join(f"{w['name']} wins" for w in wins)
        return "drawn"

    return {"players": list(names), "rules": record.rules.name, "quick": record.quick,
            "scores": list(record.header.get("scores", [])),
            "hands": [{"number": h["number"], "round_wind": h["round_wind"],
                       "banker": h["banker"], "steps": len(h["steps"]), "title": title(h)}
                      for h in hands]}


_CACHE: dict[tuple[str, int], list[ReplayHand]] = {}
_CACHE_SIZE = 16


def table_replay(table_id: str, record: Record, names: Sequence[str]) -> list[ReplayHand]:
    """:func:`replay_hands` of a finished table, kept for the next request: a watcher steps
    through hand after hand, and a finished table's record never changes."""
    key = (table_id, len(record.events))
    hands = _CACHE.get(key)
    if hands is None:
        hands = replay_hands(record, names)
        if len(_CACHE) >= _CACHE_SIZE:
            # (the server works replays out in threads: another may have dropped it)
            _CACHE.pop(next(iter(_CACHE), key), None)
        _CACHE[key] = hands
    return hands


__all__ = ["ReplayHand", "ReplayIndex", "Snapshot", "Step", "describe", "hand_steps",
           "replay_hands", "replay_index", "snapshot", "table_replay"]
