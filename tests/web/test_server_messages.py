"""The messages the table sends, as declared in web/core/server.py: each reads back from
its JSON unchanged, and every message a real table sends reads as its declared class with
nothing lost (the JSON the page and bots receive is what the classes write)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from core_harness import Harness, row
from test_core import simple

from sgmahjong.game import Action, Chow, Discard, Pass, Win
from sgmahjong.game.codec import MessageError
from sgmahjong.tiles import Tile
from sgmahjong.web.core import Act, Start, Timing
from sgmahjong.web.core.server import (
    Ack,
    ErrorMessage,
    EventMessage,
    HandEnd,
    HintsReply,
    MatchEnd,
    Notice,
    Pong,
    RequestMessage,
    SeatHello,
    ServerMessage,
    TableChanged,
    ViewMessage,
    Welcome,
)

P5 = Tile.parse("5p")

EVERY_KIND = [
    Welcome(1, 0, "player", True, {"id": "t1", "seats": []}),
    Welcome(1, None, "spectator", False, {"id": "t1"}),
    SeatHello(1, 2, {"name": "casual", "digest": "ab12"}),
    TableChanged({"id": "t1", "n": 0}),
    EventMessage(17, {"type": "drew", "seat": 1, "tile": None}),
    ViewMessage(3, {"seat": None, "concealed": ""}, (0, 1, 2, 3), (0, -4, 8, -4)),
    RequestMessage(200001, 4, 0, (Discard(P5), Win()), 30_000, {"seat": 0},
                   (3, 0, 1, 2), (0, 0, 0, 0)),
    RequestMessage(7, 9, 3, (Chow(Tile.parse("3p")), Pass()), 0, {"seat": 3},
                   (1, 2, 3, 0), (5, -5, 0, 0)),
    Ack(7, Pass()),
    Ack(None, Discard(P5)),
    Notice("time-up", "Time's up: passed on the claim."),
    HintsReply(12, {"lines": [{"kind": "waits", "text": "Not ready yet."}]}),
    HintsReply(12, None),
    HandEnd({"number": 1, "wins": []}),
    HandEnd({"number": 2}, 4000, {"rung": 1, "earned": []}, {"seat": 0, "decisions": 3}),
    MatchEnd((8, -8, 0, 0), ({"player": 0, "place": 1}, {"player": 2, "place": 2}),
             "/api/tables/t1/record", "/t/t1/replay"),
    MatchEnd((0, 0, 0, 0), (), "/r", "/p", {"rung": 2, "earned": ["a"]},
             {"hands": [0], "lines": ["x"]}),
    ErrorMessage("stale", "request 7 is no longer open"),
    Pong(0),
]


@pytest.mark.parametrize("msg", EVERY_KIND, ids=lambda m: m.TYPE)
def test_a_server_message_reads_back_from_its_json_unchanged(msg: ServerMessage) -> None:
    wire = json.loads(json.dumps(msg.to_json()))
    assert ServerMessage.from_json(wire) == msg


def test_every_server_type_is_covered_above() -> None:
    assert {m.TYPE for m in EVERY_KIND} == set(ServerMessage.REGISTRY)


def test_the_json_is_the_documented_form() -> None:
    # docs/web.md: an ack is {"type": "ack", "id", "action"}; a request carries the
    # legal actions as the bot protocol writes them
    assert Ack(7, Discard(P5)).to_json() == {
        "type": "ack", "id": 7, "action": {"type": "discard", "tile": "5p"}}
    assert RequestMessage(1, 2, 0, (Pass(),), 0, {}, (0, 1, 2, 3), (0, 0, 0, 0)).to_json() \
        == {"type": "request", "id": 1, "n": 2, "seat": 0, "legal": [{"type": "pass"}],
            "deadline_ms": 0, "view": {}, "players": [0, 1, 2, 3], "totals": [0, 0, 0, 0]}


def test_an_optional_field_is_left_out_while_it_is_none() -> None:
    # after the last hand a hand-end has no next_in_ms; a spectator's has no review
    assert HandEnd({"number": 4}).to_json() == {"type": "hand-end", "hand": {"number": 4}}
    assert MatchEnd((0, 0, 0, 0), (), "/r", "/p").to_json() == {
        "type": "match-end", "scores": [0, 0, 0, 0], "standings": [], "record": "/r",
        "replay": "/p"}
    assert HandEnd({}, 0).to_json()["next_in_ms"] == 0      # a zero is still said


@pytest.mark.parametrize("bad", [
    {"type": "pong"},                                          # a field missing
    {"type": "pong", "n": 1, "extra": 2},                      # a field not declared
    {"type": "ack", "id": "7", "action": {"type": "pass"}},    # a field of the wrong type
    {"type": "view", "n": 1, "view": [], "players": [], "totals": []},
    {"type": "shout"},
])
def test_json_that_is_not_a_declared_message_is_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(MessageError):
        ServerMessage.from_json(bad)


def _play_match(h: Harness, ann: int, watcher: int) -> list[dict[str, Any]]:
    """Every message the two sockets get while Ann plays a quick match to its end (her
    turns answered by :func:`simple`, the first claim offer left to the clock, one answer
    sent twice)."""
    got: list[dict[str, Any]] = []
    left_to_clock = sent_twice = False
    for _ in range(5000):
        mine = h.take(ann)
        got += mine + h.take(watcher)
        if any(m["type"] == "match-end" for m in mine):
            return got
        req = next((m for m in reversed(mine) if m["type"] == "request"), None)
        if req is None:
            h.advance(1.0)          # the AI's turns, the pause between hands
            continue
        if not left_to_clock and all(a["type"] != "discard" for a in req["legal"]):
            left_to_clock = True
            h.advance(req["deadline_ms"] / 1000)
            continue
        act = Act(ann, Action.from_json(simple(req["legal"], req["view"])), req["id"])
        h.do(act)
        if not sent_twice:          # the copy answers a request no longer open
            sent_twice = True
            h.do(act)
    raise AssertionError("the match never ended")


def test_every_message_of_a_real_match_reads_as_its_declared_class() -> None:
    h = Harness(row(), timing=Timing(0, 600, 0, claim_window=5.0, turn_limit=0))
    ann = h.attach(0)
    watcher = h.attach(None)
    h.do(Start(0))
    got = _play_match(h, ann, watcher)
    for m in got:
        wire = json.loads(json.dumps(m))
        assert ServerMessage.from_json(wire).to_json() == m, m["type"]
    seen = {m["type"] for m in got}
    # every type the core sends (hints and pong are the shell's)
    assert seen >= {"welcome", "hello", "table", "event", "view", "request", "ack",
                    "notice", "hand-end", "match-end", "error"}, seen
