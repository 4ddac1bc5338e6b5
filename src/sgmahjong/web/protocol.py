"""The web table's websocket messages: client messages checked, what server messages carry.

The server speaks the bot protocol (``hello``, ``event``, ``request``; see
``docs/protocol.md``) with numbered events (``n``) and a few table messages on top;
``docs/web.md`` lists them all, and :mod:`~sgmahjong.web.core.server` declares each. Here
are the objects they carry (summaries, reviews, hints, a spectator's view). Nothing here
knows a rule: views and legal actions come from the engine, redaction from
:func:`sgmahjong.record.redact_for`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NotRequired, TypedDict

from ..bot.wire import view_json
from ..english import tile_name
from ..game import (
    Action,
    Discard,
    Event,
    HandRecord,
    Pass,
    PlayerView,
    TableState,
    view,
)
from ..game.codec import JSON
from ..record import redact_for
from ..render.words import (
    drawn_text,
    tai_counted,
    win_text,
)
from ..rules.catalog import PATTERNS
from ..session.reviews import hand_review
from ..session.standings import final_standings
from ..session.summaries import hand_end
from ..tiles import Seat
from .core.client import (
    MAX_MESSAGE,
    ClientMessage,
    ProtocolError,
    client_types,
    parse_client,
)
from .core.server import ErrorMessage, Pong

if TYPE_CHECKING:
    from ..agents.danger import History
    from ..agents.review import Review

PROTOCOL = 1

CLIENT_TYPES = client_types()


def error(code: str, message: str) -> ErrorMessage:
    return ErrorMessage(code, message)


def early_answer(msg: ClientMessage, player: int | None, n: int) -> Pong | ErrorMessage | None:
    """The answer to a message after the hello that never reaches the table: a ping (the
    pong carries ``n``, the last event number the socket has), a second hello, an action
    from a spectator (``player`` None). None: the message goes on to the table."""
    if msg.type == "ping":
        return Pong(n)
    if msg.type == "hello":
        return error("already-greeted", "this socket has already said hello")
    if player is None:
        return error("spectator", "spectators cannot act at the table")
    return None


def redact(event: Event | JSON, seat: int) -> JSON | None:
    """``event`` as ``seat`` may see it (``-1``: a spectator, who sees no hidden tile)."""
    out = redact_for([event], seat)
    return out[0] if out else None


def public_view_json(state: TableState) -> JSON:
    """What a spectator sees: the public part of a view, no concealed tiles."""
    v = view_json(view(state, Seat.EAST))
    v.update(seat=None, concealed="", last_drawn=None, must_discard=False)
    return v


class PatternLine(TypedDict):
    id: str
    name: str
    count: int
    tai: int


class WinLine(TypedDict):
    player: int                 # players are match players 0-3
    name: str
    seat: int
    tile: str
    tile_name: str
    discarder: int | None       # None: self-drawn
    self_drawn: bool
    context: list[str]
    tai: int
    raw_tai: int
    shape: str
    patterns: list[PatternLine]
    text: str                   # the sentence to show
    hand: NotRequired[JSON]     # the winner's whole hand, added by the table


class PaymentLine(TypedDict):
    payer: int | None
    payee: int
    amount: int
    why: str
    text: str


class PayoutLine(TypedDict):
    player: int
    amount: int
    reason: str
    text: str


class BaoLine(TypedDict):
    player: int
    winner: int
    case: str
    tile: str
    text: str


class HandSummary(TypedDict):
    """A hand-end's ``hand`` (docs/web.md)."""

    number: int
    round_wind: int
    banker: int
    drawn: str | None
    drawn_text: str | None
    wins: list[WinLine]
    payments: list[PaymentLine]
    payouts: list[PayoutLine]
    bao: list[BaoLine]
    deltas: list[int]
    scores: list[int]


def pattern_name(pid: str) -> str:
    p = PATTERNS.get(pid)
    return p.english if p else pid.replace("-", " ").title()


def hand_summary(record: HandRecord, names: Sequence[str], scores: Sequence[int], *,
                 counts_tai: bool | None = None) -> HandSummary:
    """What the page shows after a hand: each win's tai breakdown, the payments (by match
    player), the instant payouts and Bao along the way, the hand's deltas and the scores
    after it. Each win, payment, payout and Bao line, and a drawn hand, carries ``text``:
    the sentence to show, with tiles named (:mod:`sgmahjong.render.words`); no tai under
    rules that count none (``counts_tai``, read from each win when not given)."""
    def player(seat: int) -> int:
        return (record.banker + seat) % 4

    def name(seat: int | None) -> str | None:
        return None if seat is None else names[player(seat)]

    end = hand_end(record.events, lambda seat: names[player(seat)])
    wins: list[WinLine] = [{
        "player": player(e.seat), "name": name(e.seat),
        "seat": int(e.seat), "tile": e.tile.text, "tile_name": tile_name(e.tile),
        "discarder": None if e.discarder is None else player(e.discarder),
        "self_drawn": e.discarder is None, "context": list(e.context),
        "tai": e.tai, "raw_tai": e.raw_tai, "shape": e.shape,
        "patterns": [{"id": p.id, "name": pattern_name(p.id), "count": p.count,
                      "tai": p.tai} for p in e.patterns],
        "text": win_text(names[player(e.seat)], e.tile, name(e.discarder),
                         e.context, e.tai, e.raw_tai,
                         counts_tai=tai_counted(e) if counts_tai is None
                         else counts_tai)}
        for e in end.wins]
    payments: list[PaymentLine] = [{"payer": None if p.payer is None else player(p.payer),
                 "payee": player(p.payee), "amount": p.amount, "why": p.why, "text": p.text}
                for p in end.payments]
    payouts: list[PayoutLine] = [{"player": player(x.seat), "amount": x.amount, "reason": x.reason,
                "text": x.text} for x in end.payouts]
    bao: list[BaoLine] = [{"player": player(b.seat), "winner": player(b.winner), "case": b.case,
            "tile": b.tile.text, "text": b.text} for b in end.bao]
    return {"number": record.number, "round_wind": int(record.round_wind),
            "banker": record.banker, "drawn": record.drawn,
            "drawn_text": None if record.drawn is None else drawn_text(record.drawn),
            "wins": wins, "payments": payments, "payouts": payouts, "bao": bao,
            "deltas": list(record.deltas), "scores": list(scores)}


def standings(names: Sequence[str], scores: Sequence[int]) -> list[JSON]:
    """Players by score, best first; equal scores share a ``place`` (1, 1, 3 ...) and keep
    the seating order, as in the terminal and the ledger.

    >>> [(s["name"], s["place"]) for s in standings("ABCD", [2, 2, 0, -4])]
    [('A', 1), ('B', 1), ('C', 3), ('D', 4)]
    """
    return [{"player": s.player, "name": s.name, "score": s.score, "place": s.place}
            for s in final_standings(names, scores)]


WIN_KEY = "W"
"""The key the web table gives Win; the win hint names it."""


def review_json(r: Review) -> JSON:
    """The review of one seat's play in the hand just ended, for that seat alone: ``head``
    (said when no decision was costly, else None), ``shown`` (the costliest decisions, each
    ``{"text", "tiles"}``: the sentence and the tiles it is about, the seat's then Owl's),
    ``deal_ins`` (each ``{"text", "tile"}``), ``tally`` (how many decisions, how many
    Owl would have made otherwise; empty when none), and ``standin`` / ``standin_line``
    (how many decisions an AI stand-in made for the seat, left out of all the rest, and
    the sentence saying so; 0 / None when none). Only what the seat saw is in it: its
    own tiles, and the table's public tiles and results."""
    h = hand_review(r)
    return {"seat": int(r.seat), "decisions": r.decisions, "differ": len(r.items),
            "costly": len(r.costly), "head": h.head,
            "shown": [{"text": d.sentence, "tiles": [t.text for t in d.tiles]}
                      for d in h.shown],
            "deal_ins": [{"text": d.sentence, "tile": d.tile.text} for d in h.deal_ins],
            "tally": h.tally, "standin": r.standin, "standin_line": h.standin_line}


def hints_json(v: PlayerView, legal: Sequence[Action],
               history: History | None = None) -> JSON | None:
    """The hint panel for ``v`` from :mod:`sgmahjong.agents.hints`, or None without it.

    ``lines`` holds every sentence to show, in order, each ``{"kind", "text"}`` (kinds:
    win, claim, discard, waits, tai, bao, danger); no text is empty. The other fields give the
    same hints one by one: ``discard.text`` is the reason after "Throw <name>: ", and
    ``win`` (None when no win is on offer) says "You can win now ...: press W."
    ``history``, the public order of the hand's discards, lets the danger reading count
    the tiles a seat let pass since its own discard as safe against it.
    """
    try:
        from ..agents.hints import hints
    except ImportError:  # the hints module is optional
        return None
    h = hints(v, legal, history)
    win_line = None if h.win is None else h.win.sentence.removesuffix(".") + f": press {WIN_KEY}."
    win = None if h.win is None else {
        "tile": None if h.win.tile is None else h.win.tile.text, "tai": h.win.tai,
        "text": win_line}
    out: JSON = {
        "waits": h.waits.sentence, "tai": h.tai.sentence,
        "claims": [{"action": c.action.to_json(), "take": c.take, "text": c.sentence}
                   for c in h.claims],
        "bao": [b.sentence for b in h.bao], "discard": None, "win": win,
        "threats": [{"seat": int(t.seat), "text": t.sentence} for t in h.threats]}
    lines: list[tuple[str, str]] = []
    if win_line is not None:
        lines.append(("win", win_line))
    lines.extend(("claim", c.sentence) for c in h.claims)
    if h.discard is not None:
        out["discard"] = {"tile": h.discard.tile.text, "name": tile_name(h.discard.tile),
                          "text": h.discard.reason, "danger": h.discard.danger,
                          "safer": None if h.discard.safer is None else h.discard.safer.text,
                          "chance": h.discard.chance, "safer_chance": h.discard.safer_chance}
        lines.append(("discard", h.discard.sentence))
    lines += [("waits", h.waits.sentence), ("tai", h.tai.sentence)]
    lines.extend(("bao", b.sentence) for b in h.bao)
    lines.extend(("danger", t.sentence) for t in h.threats)
    out["lines"] = [{"kind": k, "text": t} for k, t in lines if t]
    return out


def time_up_text(action: Action) -> str:
    """The notice when the clock ran out on a human seat and the AI (or a pass) answered:
    "Time's up: the AI threw 5 Circles for you." """
    if isinstance(action, Pass):
        return "Time's up: passed on the claim."
    if isinstance(action, Discard):
        return f"Time's up: the AI threw {action.tile.english} for you."
    kind = action.to_json()["type"]
    did = {"win": "won the hand", "kong": "declared a kong"}.get(kind, f"chose {kind}")
    return f"Time's up: the AI {did} for you."


__all__ = ["CLIENT_TYPES", "MAX_MESSAGE", "PROTOCOL", "WIN_KEY", "ClientMessage",
           "HandSummary", "ProtocolError", "early_answer", "error", "hand_summary",
           "hints_json", "parse_client", "pattern_name", "public_view_json", "redact",
           "review_json", "standings", "time_up_text"]
