"""The bot protocol's messages: hello, redacted events, requests with the view, and replies."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..errors import SgmahjongError
from ..game.actions import Action
from ..game.events import ClaimPassed, Dealt, Drew, Event, HandStarted
from ..game.view import PlayerView
from ..inputs import InputError, parse_json
from ..rules.model import Ruleset
from ..tiles import Seat, format_tiles

PROTOCOL_VERSION = 1


class BotError(SgmahjongError):
    """A bot's message that cannot be used: not JSON, the wrong type, a bad or illegal action."""


def dumps(message: dict[str, Any]) -> str:
    """One JSON Lines line (no newline inside, none at the end)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def hello(seat: Seat, rules: Ruleset) -> dict[str, Any]:
    """The handshake: protocol version, the bot's seat and the full rules with their digest."""
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "seat": int(seat),
            "rules": {"name": rules.name, "digest": rules.digest(), **rules.to_dict()}}


def redact(event: Event, seat: Seat) -> dict[str, Any] | None:
    """``event`` as ``seat`` may see it: the wall, the seed, other seats' dealt and drawn
    tiles are ``null`` (unknown); another seat's ``claim-passed`` is not sent (None)."""
    data = event.to_json()
    if isinstance(event, HandStarted):
        data["wall"] = None
        data["seed"] = None
    elif isinstance(event, Dealt) and event.seat != seat:
        data["tiles"] = None
        data["count"] = len(event.tiles)
    elif isinstance(event, Drew) and event.seat != seat:
        data["tile"] = None
    elif isinstance(event, ClaimPassed) and event.seat != seat:
        return None
    return data


def event_message(event: Event, seat: Seat) -> dict[str, Any] | None:
    data = redact(event, seat)
    return None if data is None else {"type": "event", "event": data}


def view_json(v: PlayerView) -> dict[str, Any]:
    """The view in JSON: own tiles, everything public, the wall's counts only."""
    def tiles(ts: Sequence[Any]) -> str:
        return format_tiles(ts, sort=False)
    return {
        "seat": int(v.seat), "round_wind": int(v.round_wind), "hand_number": v.hand_number,
        "phase": v.phase.value, "turn": int(v.turn),
        "window_tile": None if v.window_tile is None else v.window_tile.text,
        "concealed": format_tiles(v.concealed),
        "last_drawn": None if v.last_drawn is None else v.last_drawn.text,
        "must_discard": v.must_discard,
        "seats": [{"seat": int(s.seat),
                   "melds": [{"kind": m.kind.value, "tiles": tiles(m.meld.tiles)}
                             for m in s.melds],
                   "bonus": tiles(s.bonus), "discards": tiles(s.discards),
                   "concealed_count": s.concealed_count, "score": s.score} for s in v.seats],
        "wall_remaining": v.wall_remaining, "live_remaining": v.live_remaining,
    }


def request(rid: int, v: PlayerView, legal: Sequence[Action], deadline_ms: int) -> dict[str, Any]:
    """A decision: the request id, the legal actions, the time allowed and the view."""
    return {"type": "request", "id": rid, "seat": int(v.seat),
            "legal": [a.to_json() for a in legal], "deadline_ms": deadline_ms,
            "view": view_json(v)}


def parse_reply(line: str) -> dict[str, Any]:
    """A line from the bot as a JSON object (BotError if it is not one)."""
    try:
        data = parse_json(line, "the line")
    except InputError:
        raise BotError(f"not JSON: {line[:80]!r}") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise BotError(f"not a message object with a type: {line[:80]!r}")
    return data


def action_of(data: dict[str, Any], legal: Sequence[Action]) -> Action:
    """The action of an ``action`` reply, checked against the legal actions."""
    try:
        action = Action.from_json(data.get("action"))  # type: ignore[arg-type]
    except SgmahjongError as exc:
        raise BotError(f"bad action: {exc}") from None
    if action not in legal:
        raise BotError(f"illegal action {action.to_json()}; legal: "
                       f"{[a.to_json() for a in legal]}")
    return action
