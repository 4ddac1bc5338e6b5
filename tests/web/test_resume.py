"""Reconnecting gets the missed events; an absent player's turns go to the AI after a timeout;
a restarted server resumes every table from its stored event log with the same state."""

from __future__ import annotations

import time
from typing import Any

import pytest
from conftest import (
    Player,
    choose,
    create_table,
    into_second_hand,
    join,
    play_all,
    play_to,
    start,
    table_state,
)

from sgmahjong.record import check_record, loads_record, redact_for
from sgmahjong.store.db import StoreError, TableStore
from sgmahjong.store.tables import schema_version


def _runtime(c, tid: str) -> Any:
    return c.app.state.lobby.tables[tid]


def _play_until(p: Player, done: Any, limit: float = 20.0) -> None:
    """Answer requests until ``done()`` holds while nothing more arrives."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        try:
            msg = p.recv(0.2)
        except TimeoutError:
            if done():
                return
            continue
        if msg["type"] == "request":
            p.send({"type": "action", "id": msg["id"],
                    "action": choose(msg["legal"], msg["view"])})
        elif msg["type"] == "hand-end":
            p.send({"type": "ready"})
    raise AssertionError(f"the table did not reach the expected point: {p.log[-3:]}")


def test_reconnect_gets_the_missed_events(make_client) -> None:
    c = make_client()
    t = create_table(c)
    tid = t["table_id"]
    b = join(c, tid)
    ann = Player(c, tid, t["token"])
    bob = Player(c, tid, b["token"])
    start(c, tid, t["token"])
    bob.until("view")
    seen = bob.last_n
    bob.close()
    rt = _runtime(c, tid)

    def bob_to_play() -> bool:
        g = rt.game
        return g is not None and g.waiting_for() == {rt.seat_of(1)} and rt.n > seen

    _play_until(ann, bob_to_play)
    bob2 = Player(c, tid, b["token"], last_seen=seen)
    req = bob2.until("request")
    got = [m for m in bob2.log if m["type"] == "event"]
    true = c.app.state.store.load_events(tid)
    seat = int(rt.seat_of(1))
    want = [(n, e) for n in range(seen + 1, len(true) + 1)
            for e in redact_for([true[n - 1]], seat)]
    assert [(m["n"], m["event"]) for m in got] == want
    assert req["n"] == len(true)
    bob2.send({"type": "action", "id": req["id"], "action": choose(req["legal"], req["view"])})
    assert bob2.until("ack")["id"] == req["id"]


def test_absent_players_turns_are_played_by_the_ai_after_the_timeout(make_client) -> None:
    c = make_client(disconnect_grace=0.1)
    t = create_table(c)
    tid = t["table_id"]
    join(c, tid)                  # Bob takes a seat and never comes
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    play_all([ann])
    assert ann.log[-1]["type"] == "match-end"
    info = c.get(f"/api/tables/{tid}").json()
    assert info["status"] == "finished" and info["seats"][1]["kind"] == "human"
    assert info["seats"][1]["standin"] is True


def test_restart_resumes_mid_hand_with_identical_state(make_client) -> None:
    c = make_client()
    t = create_table(c, ai=["rabbit", "hedgehog", "fox"])
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    held = play_to(ann, into_second_hand(c, tid, 40), limit=20_000)   # then hold one
    before = table_state(c, tid)
    seen = ann.last_n
    make_client.shutdown(c)

    c2 = make_client()
    assert c2.get(f"/api/tables/{tid}").json()["status"] == "playing"
    assert table_state(c2, tid) == before
    ann2 = Player(c2, tid, t["token"], last_seen=seen)
    req = ann2.until("request")
    assert req["legal"] == held["legal"] and req["view"] == held["view"]
    assert req["n"] == held["n"]
    assert not [m for m in ann2.log if m["type"] == "event"]
    ann2.send({"type": "action", "id": req["id"], "action": choose(req["legal"], req["view"])})
    ann2.play()
    assert ann2.log[-1]["type"] == "match-end"
    assert check_record(loads_record(c2.get(f"/api/tables/{tid}/record").text)).ok


def test_restart_between_hands_deals_the_next_hand(make_client) -> None:
    c = make_client(next_hand_delay=60.0)
    t = create_table(c)
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    ann.play(hands=1)
    rt = _runtime(c, tid)
    assert rt.game is None and rt.match.state.hands_played == 1
    events = [e.to_json() for e in rt.events]
    make_client.shutdown(c)
    c2 = make_client(next_hand_delay=0.0)
    ann2 = Player(c2, tid, t["token"], last_seen=len(events))
    ann2.until("request")
    first = next(m for m in ann2.log if m["type"] == "event")
    assert first["n"] == len(events) + 1 and first["event"]["type"] == "hand-started"
    assert first["event"]["hand_number"] == 1
    rt2 = _runtime(c2, tid)
    assert [e.to_json() for e in rt2.events[:len(events)]] == events
    assert rt2.match.state.hands_played == 1 and rt2.game is not None


def test_store_refuses_a_newer_schema(db_url: str) -> None:
    store = TableStore(db_url)
    with store.engine.begin() as conn:
        conn.execute(schema_version.insert().values(version=99))
    store.close()
    with pytest.raises(StoreError, match="newer"):
        TableStore(db_url)
