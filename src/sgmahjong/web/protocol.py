"""The web table's websocket messages: client messages checked, server messages built.

The server speaks the bot protocol (``hello``, ``event``, ``request``; see
``docs/protocol.md``) with numbered events (``n``) and a few table messages on top;
``docs/web.md`` lists them all. Nothing here knows a rule: views and legal actions come
from the engine, redaction from :func:`sgmahjong.record.redact_for`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..bot.wire import view_json
from ..english import tile_name
from ..errors import SgmahjongError
from ..game import (
    Action,
    BaoIncurred,
    Discard,
    Event,
    HandRecord,
    InstantPayout,
    Pass,
    PlayerView,
    Settled,
    TableState,
    Won,
    view,
)
from ..inputs import InputError, decode, parse_json
from ..ledger import standings as ranked
from ..record import redact_for
from ..render.words import (
    bao_text,
    drawn_text,
    payment_text,
    payout_text,
    tai_counted,
    win_text,
)
from ..rules.catalog import PATTERNS
from ..tiles import Seat

if TYPE_CHECKING:
    from ..agents.danger import History
    from ..agents.review import Review

PROTOCOL = 1
MAX_MESSAGE = 4096
"""Largest client message accepted, in bytes (UTF-8)."""

CLIENT_TYPES = ("hello", "action", "ready", "hints", "start", "ping")


class ProtocolError(SgmahjongError):
    """A client message that cannot be used; ``code`` names the fault for the client."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class ClientMessage:
    """A checked client message: its type and the fields that type may carry."""

    type: str
    token: str | None = None
    spectate: bool = False
    last_seen: int | None = None
    id: int | None = None
    seat: int | None = None
    action: Action | None = None


def _int_field(data: dict[str, Any], key: str, low: int, high: int) -> int | None:
    v = data.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise ProtocolError("malformed", f"field {key!r} must be an integer {low}-{high}")
    return v


def parse_client(text: str | bytes) -> ClientMessage:
    """Check one client message (size, JSON, type, fields); :class:`ProtocolError` if bad."""
    size = len(text.encode("utf-8") if isinstance(text, str) else text)
    if size > MAX_MESSAGE:
        raise ProtocolError("too-large", f"message of {size} bytes: the limit is "
                                         f"{MAX_MESSAGE}")
    try:
        body = decode(text, "the message") if isinstance(text, bytes) else text
        data = parse_json(body, "the message")
    except InputError as exc:
        raise ProtocolError("malformed", str(exc)) from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError("malformed", "a message is a JSON object with a \"type\"")
    kind = data["type"]
    if kind not in CLIENT_TYPES:
        raise ProtocolError("unknown-type", f"unknown message type {kind[:40]!r}; expected "
                                            f"one of {', '.join(CLIENT_TYPES)}")
    if kind == "hello":
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or len(token) > 200):
            raise ProtocolError("malformed", "field 'token' must be text")
        spectate = data.get("spectate", False)
        if not isinstance(spectate, bool):
            raise ProtocolError("malformed", "field 'spectate' must be true or false")
        return ClientMessage("hello", token=token, spectate=spectate,
                             last_seen=_int_field(data, "last_seen", 0, 2**31))
    if kind == "action":
        raw = data.get("action")
        if not isinstance(raw, dict):
            raise ProtocolError("malformed", "an action message needs an \"action\" object")
        try:
            action = Action.from_json(raw)
        except SgmahjongError as exc:
            raise ProtocolError("bad-action", f"bad action: {exc}") from None
        return ClientMessage("action", id=_int_field(data, "id", 0, 2**31),
                             seat=_int_field(data, "seat", 0, 3), action=action)
    return ClientMessage(kind)


def error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def early_answer(msg: ClientMessage, player: int | None, n: int) -> dict[str, Any] | None:
    """The answer to a message after the hello that never reaches the table: a ping (the
    pong carries ``n``, the last event number the socket has), a second hello, an action
    from a spectator (``player`` None). None: the message goes on to the table."""
    if msg.type == "ping":
        return {"type": "pong", "n": n}
    if msg.type == "hello":
        return error("already-greeted", "this socket has already said hello")
    if player is None:
        return error("spectator", "spectators cannot act at the table")
    return None


def event_json(n: int, event: dict[str, Any]) -> dict[str, Any]:
    """An ``event`` message: the bot protocol's, with the event's number."""
    return {"type": "event", "n": n, "event": event}


def redact(event: Event | dict[str, Any], seat: int) -> dict[str, Any] | None:
    """``event`` as ``seat`` may see it (``-1``: a spectator, who sees no hidden tile)."""
    out = redact_for([event], seat)
    return out[0] if out else None


def public_view_json(state: TableState) -> dict[str, Any]:
    """What a spectator sees: the public part of a view, no concealed tiles."""
    v = view_json(view(state, Seat.EAST))
    v.update(seat=None, concealed="", last_drawn=None, must_discard=False)
    return v


def request_json(rid: int, n: int, v: PlayerView, legal: Sequence[Action],
                 deadline_ms: int = 0) -> dict[str, Any]:
    """A decision for a human seat: the bot protocol's ``request`` and ``n``;
    ``deadline_ms`` is the time left to answer (0: no limit)."""
    return {"type": "request", "id": rid, "n": n, "seat": int(v.seat),
            "legal": [a.to_json() for a in legal], "deadline_ms": deadline_ms,
            "view": view_json(v)}


def pattern_name(pid: str) -> str:
    p = PATTERNS.get(pid)
    return p.english if p else pid.replace("-", " ").title()


def hand_summary(record: HandRecord, names: Sequence[str], scores: Sequence[int], *,
                 counts_tai: bool | None = None) -> dict[str, Any]:
    """What the page shows after a hand: each win's tai breakdown, the payments (by match
    player), the instant payouts and Bao along the way, the hand's deltas and the scores
    after it. Each win, payment, payout and Bao line, and a drawn hand, carries ``text``:
    the sentence to show, with tiles named (:mod:`sgmahjong.render.words`); no tai under
    rules that count none (``counts_tai``, read from each win when not given)."""
    def player(seat: int) -> int:
        return (record.banker + seat) % 4

    def name(seat: int | None) -> str | None:
        return None if seat is None else names[player(seat)]

    wins = []
    payments = []
    payouts = []
    bao = []
    for e in record.events:
        if isinstance(e, Won):
            wins.append({
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
                                 else counts_tai)})
        elif isinstance(e, Settled):
            payments.extend({"payer": None if p.payer is None else player(p.payer),
                             "payee": player(p.payee), "amount": p.amount, "why": p.why,
                             "text": payment_text(name(p.payer), names[player(p.payee)],
                                                  p.amount, p.why)}
                            for p in e.payments)
        elif isinstance(e, InstantPayout):
            payouts.append({"player": player(e.seat), "amount": e.amount, "reason": e.reason,
                            "text": payout_text(names[player(e.seat)], e.amount, e.reason)})
        elif isinstance(e, BaoIncurred):
            bao.append({"player": player(e.seat), "winner": player(e.winner), "case": e.case,
                        "tile": e.tile.text,
                        "text": bao_text(names[player(e.seat)], e.case,
                                         names[player(e.winner)], e.tile)})
    return {"number": record.number, "round_wind": int(record.round_wind),
            "banker": record.banker, "drawn": record.drawn,
            "drawn_text": None if record.drawn is None else drawn_text(record.drawn),
            "wins": wins, "payments": payments, "payouts": payouts, "bao": bao,
            "deltas": list(record.deltas), "scores": list(scores)}


def standings(names: Sequence[str], scores: Sequence[int]) -> list[dict[str, Any]]:
    """Players by score, best first; equal scores share a ``place`` (1, 1, 3 ...) and keep
    the seating order, as in the terminal and the ledger.

    >>> [(s["name"], s["place"]) for s in standings("ABCD", [2, 2, 0, -4])]
    [('A', 1), ('B', 1), ('C', 3), ('D', 4)]
    """
    return [{"player": s["player"], "name": s["name"], "score": s["points"],
             "place": s["place"]} for s in ranked(list(scores), list(names))]


WIN_KEY = "W"
"""The key the web table gives Win; the win hint names it."""


def review_json(r: Review) -> dict[str, Any]:
    """The review of one seat's play in the hand just ended, for that seat alone: ``head``
    (said when no decision was costly, else None), ``shown`` (the costliest decisions, each
    ``{"text", "tiles"}``: the sentence and the tiles it is about, the seat's then Owl's),
    ``deal_ins`` (each ``{"text", "tile"}``), ``tally`` (how many decisions, how many
    Owl would have made otherwise; empty when none), and ``standin`` / ``standin_line``
    (how many decisions an AI stand-in made for the seat, left out of all the rest, and
    the sentence saying so; 0 / None when none). Only what the seat saw is in it: its
    own tiles, and the table's public tiles and results."""
    from ..agents.review import SHOWN

    shown = r.costly[:SHOWN]
    return {"seat": int(r.seat), "decisions": r.decisions, "differ": len(r.items),
            "costly": len(r.costly), "head": None if shown else r.lines[0],
            "shown": [{"text": d.sentence, "tiles": [t.text for t in d.tiles]}
                      for d in shown],
            "deal_ins": [{"text": d.sentence, "tile": d.tile.text} for d in r.deal_ins],
            "tally": r.tally, "standin": r.standin, "standin_line": r.standin_line or None}


def hints_json(v: PlayerView, legal: Sequence[Action],
               history: History | None = None) -> dict[str, Any] | None:
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
    win = None if h.win is None else {
        "tile": None if h.win.tile is None else h.win.tile.text, "tai": h.win.tai,
        "text": h.win.sentence.removesuffix(".") + f": press {WIN_KEY}."}
    out: dict[str, Any] = {
        "waits": h.waits.sentence, "tai": h.tai.sentence,
        "claims": [{"action": c.action.to_json(), "take": c.take, "text": c.sentence}
                   for c in h.claims],
        "bao": [b.sentence for b in h.bao], "discard": None, "win": win,
        "threats": [{"seat": int(t.seat), "text": t.sentence} for t in h.threats]}
    lines: list[tuple[str, str]] = []
    if win is not None:
        lines.append(("win", win["text"]))
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
           "ProtocolError", "early_answer", "error", "event_json", "hand_summary", "hints_json",
           "parse_client", "pattern_name", "public_view_json", "redact", "request_json",
           "review_json",
           "standings", "time_up_text"]
