"""Clocks for idle players (a claim offer is passed, a turn is played by the stand-in) and
taking over an AI seat between hands.

The table's timers run on a :class:`ManualClock` that the test moves on by hand: a test
never waits for a timer, it says how much time has passed. ``_quiet`` (a short real wait)
only checks that nothing happens when a timer is *not* due."""

from __future__ import annotations

import time
from typing import Any

import pytest
from conftest import Player, choose, create_table, join, play_all, play_to, start

from sgmahjong.tiles import Tile
from sgmahjong.web.clock import ManualClock

QUIET = 0.3
"""Seconds of real time in which nothing may arrive, when no timer is due."""


def _runtime(c, tid: str) -> Any:
    return c.app.state.lobby.tables[tid]


def _is_claim_offer(req: dict[str, Any]) -> bool:
    types = {a["type"] for a in req["legal"]}
    return "pass" in types and "discard" not in types


def _quiet(p: Player, seconds: float) -> list[dict[str, Any]]:
    """Every message that arrives within ``seconds`` (the player answers nothing)."""
    got = []
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            got.append(p.recv(left))
        except TimeoutError:
            break
    return got


def _after(msgs: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(m for m in msgs if m["type"] == kind)


# ---------------------------------------------------------------- the clocks

def test_an_unanswered_claim_offer_is_passed_after_the_window(make_client) -> None:
    window = 10.0
    clock = ManualClock()
    c = make_client(claim_window=window, clock=clock)
    t = create_table(c)
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    offer = play_to(ann, _is_claim_offer)
    assert offer["deadline_ms"] == window * 1000      # no time has passed on the clock
    rt = _runtime(c, tid)
    seat = rt.seat_of(0)
    clock.advance(window - 0.5)
    assert not [m for m in _quiet(ann, QUIET) if m["type"] in ("notice", "ack", "event")]
    clock.advance(0.5)                                # the window closes
    notice = ann.until("notice", timeout=5)
    assert notice["message"] == "Time's up: passed on the claim."
    ack = ann.until("ack")
    assert ack["id"] == offer["id"] and ack["action"] == {"type": "pass"}
    # the pass is the table's decision: play went on past the offer, the seat is Ann's
    nxt = ann.until("request")
    assert nxt["n"] > offer["n"]
    assert rt.slots[0].kind == "human" and rt.slots[0].agent is None
    stored = c.app.state.store.load_events(tid)
    assert len(stored) >= nxt["n"]
    assert not any(e["type"] == "claimed" and e.get("seat") == int(seat)
                   for e in stored[offer["n"]:nxt["n"]])
    ann.send({"type": "action", "id": offer["id"], "action": {"type": "pass"}})
    assert ann.until("error")["code"] in ("stale", "not-your-turn")


def test_an_idle_turn_is_played_by_the_standin_and_the_seat_is_kept(make_client) -> None:
    limit = 60.0
    clock = ManualClock()
    c = make_client(turn_limit=limit, clock=clock)
    t = create_table(c)
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    req = ann.until("request")
    assert any(a["type"] == "discard" for a in req["legal"])
    assert req["deadline_ms"] == limit * 1000
    clock.advance(limit - 1)
    assert not [m for m in _quiet(ann, QUIET) if m["type"] in ("notice", "ack", "event")]
    clock.advance(1)
    notice = ann.until("notice", timeout=5)
    assert notice["message"].startswith("Time's up")
    ack = ann.until("ack")
    assert ack["id"] == req["id"] and ack["action"] in req["legal"]
    assert ack["action"]["type"] == "discard"
    name = Tile.parse(ack["action"]["tile"]).english     # as a player reads it: "5 Circles"
    assert notice["message"] == f"Time's up: the AI threw {name} for you."
    # stored and broadcast like any discard: the next event is Ann's throw of that tile
    seat = int(_runtime(c, tid).seat_of(0))
    ev = ann.until("event")
    assert ev["n"] == req["n"] + 1
    assert ev["event"]["type"] == "discarded" and ev["event"]["seat"] == seat
    assert ev["event"]["tile"] == ack["action"]["tile"]
    assert c.app.state.store.load_events(tid)[req["n"]]["type"] == "discarded"
    info = c.get(f"/api/tables/{tid}").json()
    assert info["seats"][0]["kind"] == "human" and info["seats"][0]["standin"] is False
    # her next turn is hers again, with a fresh clock
    nxt = play_to(ann, lambda r: not _is_claim_offer(r))
    assert nxt["deadline_ms"] == limit * 1000
    ann.send({"type": "action", "id": nxt["id"], "action": choose(nxt["legal"], nxt["view"])})
    assert ann.until("ack")["id"] == nxt["id"]


def test_a_reconnect_gets_the_time_left_not_a_new_clock(make_client) -> None:
    limit = 20.0
    clock = ManualClock()
    c = make_client(turn_limit=limit, clock=clock)
    t = create_table(c)
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    first = ann.until("request")
    assert first["deadline_ms"] == 20_000
    clock.advance(6.0)
    ann.close()
    clock.advance(1.5)
    ann2 = Player(c, tid, t["token"], last_seen=first["n"])
    again = ann2.until("request")
    assert again["id"] == first["id"]
    assert again["deadline_ms"] == 12_500       # 20 s less the 7.5 s gone: not a new clock
    clock.advance(12.5 - 0.1)
    assert not [m for m in _quiet(ann2, QUIET) if m["type"] in ("notice", "ack")]
    clock.advance(0.1)                          # the first clock runs out
    assert ann2.until("notice", timeout=5)["message"].startswith("Time's up")


@pytest.mark.parametrize("zero", ["turn_limit", "claim_window"])
def test_a_limit_of_zero_sends_no_deadline_and_never_acts(make_client, zero: str) -> None:
    other = "claim_window" if zero == "turn_limit" else "turn_limit"
    clock = ManualClock()
    c = make_client(**{zero: 0.0, other: 30.0}, clock=clock)
    t = create_table(c)
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    if zero == "turn_limit":
        req = ann.until("request")
        assert not _is_claim_offer(req)
    else:
        req = play_to(ann, _is_claim_offer)
    assert req["deadline_ms"] == 0
    rt = _runtime(c, tid)
    n = rt.n
    clock.advance(3600)                 # an hour on: still nothing is done for Ann
    got = _quiet(ann, QUIET)
    assert not [m for m in got if m["type"] in ("notice", "ack", "event", "request")]
    assert rt.n == n and rt.seat_of(0) in rt.game.waiting_for()
    ann.send({"type": "action", "id": req["id"], "action": choose(req["legal"], req["view"])})
    assert ann.until("ack")["id"] == req["id"]
    # the other kind of decision does have its clock
    nxt = play_to(ann, lambda r: _is_claim_offer(r) == (zero == "turn_limit"))
    assert nxt["deadline_ms"] == 30_000


# ---------------------------------------------------------------- taking over an AI seat

def _between_hands(c, **kw: Any) -> tuple[dict[str, Any], Player]:
    """A started table (Ann and three AIs) after its first hand, the next not yet dealt."""
    t = create_table(c, **kw)
    ann = Player(c, t["table_id"], t["token"])
    start(c, t["table_id"], t["token"])
    ann.play(hands=1)
    rt = _runtime(c, t["table_id"])
    assert rt.game is None and rt.match.state.hands_played == 1
    return t, ann


def test_a_newcomer_takes_over_an_ai_seat_between_hands(make_client) -> None:
    clock = ManualClock()
    c = make_client(next_hand_delay=60.0, clock=clock)
    t, ann = _between_hands(c, ai=["greedy", "fox", "greedy"])
    tid = t["table_id"]
    rt = _runtime(c, tid)
    assert rt.slots[2].agent is not None           # the AI has played the first hand
    r = c.post(f"/api/tables/{tid}/join", json={"name": "Cat", "player": 2})
    assert r.status_code == 200, r.text
    cat_token = r.json()["token"]
    assert r.json()["player"] == 2
    seat = r.json()["table"]["seats"][2]
    assert (seat["name"], seat["kind"], seat["level"]) == ("Cat", "human", None)
    assert rt.slots[2].agent is None
    stored = {s.player: s for s in c.app.state.store.load_table(tid).seats}
    assert (stored[2].name, stored[2].kind) == ("Cat", "human")
    assert stored[2].token_hash and cat_token not in stored[2].token_hash
    while ann.until("table")["table"]["seats"][2]["name"] != "Cat":
        pass                                       # (the tables sent before the join)

    ann.send({"type": "ready"})
    clock.advance(59)
    _quiet(ann, QUIET)
    assert rt.game is None                 # the next hand waits for the newcomer to come
    cat = Player(c, tid, cat_token)
    welcome = cat.until("welcome")
    assert welcome["player"] == 2 and welcome["role"] == "player"
    cat.until("hand-end")                          # the summary of the hand just played
    _quiet(cat, QUIET)
    assert rt.game is None                         # ... and to be ready
    cat.send({"type": "ready"})
    play_all([ann, cat], hands=1)
    assert any(m["type"] == "hello" for m in cat.log)
    asked = [m for m in cat.log if m["type"] == "request"]
    acked = [m for m in cat.log if m["type"] == "ack"]
    assert asked and len(acked) == len(asked)
    assert rt.slots[2].kind == "human" and rt.slots[2].agent is None
    end = next(m for m in reversed(cat.log) if m["type"] == "hand-end")["hand"]
    assert end["number"] == 1


def test_join_takes_the_first_ai_seat_until_none_is_left(make_client) -> None:
    c = make_client(next_hand_delay=60.0)
    t, _ann = _between_hands(c)
    tid = t["table_id"]
    assert join(c, tid, "Dan")["player"] == 1
    r = c.post(f"/api/tables/{tid}/join", json={"name": "Eve", "player": 1})
    assert r.status_code == 409 and r.json()["error"] == "seat-taken"
    assert join(c, tid, "Eve")["player"] == 2
    assert join(c, tid, "Fay")["player"] == 3
    r = c.post(f"/api/tables/{tid}/join", json={"name": "Gus"})
    assert r.status_code == 409 and r.json()["error"] == "full"
    info = c.get(f"/api/tables/{tid}").json()
    assert [(s["name"], s["kind"]) for s in info["seats"]] == [
        ("Ann", "human"), ("Dan", "human"), ("Eve", "human"), ("Fay", "human")]


def test_joining_mid_hand_is_refused_and_changes_nothing(make_client) -> None:
    c = make_client()
    t = create_table(c)
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    ann.until("request")                           # Ann holds her turn: the hand waits
    rt = _runtime(c, tid)
    before = (c.get(f"/api/tables/{tid}").json(), rt.n,
              c.app.state.store.load_table(tid).seats)
    for body in ({"name": "Cat"}, {"name": "Cat", "player": 3}):
        r = c.post(f"/api/tables/{tid}/join", json=body)
        assert r.status_code == 409
        assert r.json()["error"] == "mid-hand"
        assert "between hands" in r.json()["message"]
    after = (c.get(f"/api/tables/{tid}").json(), rt.n,
             c.app.state.store.load_table(tid).seats)
    assert after == before
    assert [s.kind for s in rt.slots] == ["human", "ai", "ai", "ai"]


def test_join_with_a_bad_player_number_is_refused_clearly(make_client) -> None:
    c = make_client(next_hand_delay=60.0)
    waiting = create_table(c)
    t, _ann = _between_hands(c)
    for tid in (waiting["table_id"], t["table_id"]):
        for player in (0, 4, -1, 99):
            r = c.post(f"/api/tables/{tid}/join", json={"name": "Cat", "player": player})
            assert r.status_code == 400, r.text
            assert r.json()["error"] == "bad-player"
            assert "1, 2 or 3" in r.json()["message"]
        r = c.post(f"/api/tables/{tid}/join", json={"name": "Cat", "player": "two"})
        assert r.status_code == 422
    # seat 0 is a person's: naming a person's seat is refused even when in range
    b = join(c, waiting["table_id"], "Bob")
    r = c.post(f"/api/tables/{waiting['table_id']}/join", json={"name": "C", "player": 1})
    assert r.status_code == 409 and r.json()["error"] == "seat-taken" and b["player"] == 1
    info = c.get(f"/api/tables/{t['table_id']}").json()
    assert [s["kind"] for s in info["seats"]] == ["human", "ai", "ai", "ai"]


def test_a_finished_match_takes_no_one(make_client) -> None:
    c = make_client()
    t = create_table(c)
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    ann.play()
    assert ann.log[-1]["type"] == "match-end"
    r = c.post(f"/api/tables/{tid}/join", json={"name": "Cat"})
    assert r.status_code == 409 and r.json()["error"] == "finished"


def test_the_next_hand_is_dealt_when_the_delay_is_over_if_nobody_says_ready(
        make_client) -> None:
    clock = ManualClock()
    c = make_client(next_hand_delay=30.0, clock=clock)
    t = create_table(c)
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    ann.play(hands=1)                  # Ann reads the hand's end and does not say ready
    rt = _runtime(c, tid)
    clock.advance(29.5)
    _quiet(ann, QUIET)
    assert rt.game is None and rt.match.state.hands_played == 1
    clock.advance(0.5)
    assert ann.until("hello")["type"] == "hello"      # the second hand is dealt
    assert rt.game is not None and rt.match.state.hands_played == 1
