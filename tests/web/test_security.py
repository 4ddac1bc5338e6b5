"""Security: each seat sees only its own tiles; bad tokens, other seats, out-of-turn, malformed,
oversized and too many messages are refused and change nothing; the Origin is checked."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import Player, create_table, join, play_all, start
from starlette.websockets import WebSocketDisconnect

from sgmahjong.bot.wire import view_json
from sgmahjong.game import view
from sgmahjong.record import iter_states, loads_record, redact_for, replay_record
from sgmahjong.tiles import Seat
from sgmahjong.web.protocol import public_view_json


def _walk(obj: Any, path: str = "") -> list[tuple[str, Any]]:
    out = [(path, obj)]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.extend(_walk(v, f"{path}.{k}"))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.extend(_walk(v, f"{path}[{i}]"))
    return out


def _check_log(log: list[dict[str, Any]], player: int | None, record_text: str) -> int:
    """Every message in ``log`` against the true match: events exactly as redacted for the
    player's seat in that hand, views exactly the seat's own view. Returns messages checked."""
    rec = loads_record(record_text)
    hands = replay_record(rec)
    hand_of = {}
    for i, h in enumerate(hands):
        end = hands[i + 1].first if i + 1 < len(hands) else len(rec.events)
        for k in range(h.first, end):
            hand_of[k + 1] = h
    want: dict[int, list[dict[str, Any]]] = {}
    for m in log:
        if m["type"] in ("view", "request"):
            want.setdefault(m["n"], []).append(m)
    walls = {"".join(e["wall"]) for e in (x.to_json() for x in rec.events)
             if e["type"] == "hand-started"}
    checked = 0
    for i, _e, state in iter_states(rec):
        for m in want.get(i + 1, []):
            h = hand_of[i + 1]
            if player is None:
                assert m["view"] == public_view_json(state)
                assert m["view"]["concealed"] == "" and m["view"]["last_drawn"] is None
            else:
                seat = h.match.seat_of(player)
                assert m["view"] == view_json(view(state, seat)), f"view at n={i + 1}"
            checked += 1
    for m in log:
        for path, value in _walk(m):
            if path.endswith((".wall", ".seed")) and not path.startswith(".rules"):
                assert value is None, f"{path} sent: {m}"
            if isinstance(value, str) and len(value) > 100:
                assert value not in walls
            # a win lays the winner's hand open (the hand-end box shows it), no other
            if path.endswith(".concealed") and player is None and not (
                    m["type"] == "hand-end" and re.fullmatch(r"\.hand\.wins\[\d\]\.hand"
                                                             r"\.concealed", path)):
                assert value == ""
        if m["type"] == "event":
            n = m["n"]
            h = hand_of[n]
            seat = -1 if player is None else int(h.match.seat_of(player))
            assert [m["event"]] == redact_for([rec.events[n - 1]], seat), f"event {n}"
            checked += 1
    return checked


def test_every_message_of_a_full_match_shows_only_the_seats_own_tiles(make_client) -> None:
    c = make_client()
    t = create_table(c)
    tid = t["table_id"]
    b = join(c, tid)
    ann = Player(c, tid, t["token"])
    bob = Player(c, tid, b["token"])
    watcher = Player(c, tid, spectate=True)
    start(c, tid, t["token"])
    play_all([ann, bob, watcher])
    record = c.get(f"/api/tables/{tid}/record").text
    assert _check_log(ann.log, 0, record) > 200
    assert _check_log(bob.log, 1, record) > 200
    assert _check_log(watcher.log, None, record) > 200
    dealt_to_others = [m for m in ann.log if m["type"] == "event"
                       and m["event"]["type"] == "dealt" and m["event"]["tiles"] is None]
    assert dealt_to_others
    for p in (ann, bob, watcher):
        p.close()


@pytest.fixture
def table(make_client):
    """A started table (Ann and Bob), Ann on turn with her first request."""
    c = make_client()
    t = create_table(c)
    tid = t["table_id"]
    b = join(c, tid)
    ann = Player(c, tid, t["token"])
    bob = Player(c, tid, b["token"])
    start(c, tid, t["token"])
    req = ann.until("request")
    yield c, tid, t, b, ann, bob, req
    ann.close()
    bob.close()


def _snapshot(c, tid: str) -> tuple[Any, ...]:
    rt = c.app.state.lobby.tables[tid]
    g = rt.game
    return (len(rt.events), c.app.state.store.load_events(tid),
            [view_json(g.view(s)) for s in Seat], sorted(g.waiting_for()))


def _refused(p: Player, msg: dict[str, Any] | str, code: str) -> dict[str, Any]:
    p.send(msg)
    err = p.until("error")
    assert err["code"] == code, err
    return err


def test_wrong_or_missing_token_refused(table) -> None:
    c, tid, *_ = table
    before = _snapshot(c, tid)
    for hello in ({"type": "hello", "token": "not-a-token"}, {"type": "hello"}):
        p = Player(c, tid, hello=False)
        p.send(hello)
        err = p.recv()
        assert err["type"] == "error" and err["code"] in ("bad-token", "missing-token")
        assert p.recv()["type"] == "closed"
        p.close()
    p = Player(c, tid, hello=False)
    p.send({"type": "action", "action": {"type": "pass"}})
    assert p.recv()["code"] == "no-hello"
    p.close()
    assert _snapshot(c, tid) == before


def test_acting_for_another_seat_refused(table) -> None:
    c, tid, _t, _b, _ann, bob, req = table
    before = _snapshot(c, tid)
    err = _refused(bob, {"type": "action", "seat": req["seat"], "action": req["legal"][0]},
                   "wrong-seat")
    assert "cannot act for seat" in err["message"]
    assert _snapshot(c, tid) == before


def test_out_of_turn_refused(table) -> None:
    c, tid, _t, _b, _ann, bob, req = table
    before = _snapshot(c, tid)
    _refused(bob, {"type": "action", "action": req["legal"][0]}, "not-your-turn")
    _refused(bob, {"type": "action", "action": {"type": "pong"}}, "not-your-turn")
    assert _snapshot(c, tid) == before


def test_illegal_action_refused_with_the_rule(table) -> None:
    c, tid, _t, _b, ann, _bob, req = table
    before = _snapshot(c, tid)
    tile = next(t for t in ("1m", "9p", "5s", "7z", "1z") if not
                any(a.get("tile") == t for a in req["legal"]))
    err = _refused(ann, {"type": "action", "id": req["id"],
                         "action": {"type": "discard", "tile": tile}}, "illegal")
    assert err["message"]
    _refused(ann, {"type": "action", "id": req["id"], "action": {"type": "pong"}}, "illegal")
    _refused(ann, {"type": "action", "id": req["id"] + 99, "action": req["legal"][0]}, "stale")
    assert _snapshot(c, tid) == before
    ann.send({"type": "action", "id": req["id"], "action": req["legal"][-1]})
    assert ann.until("ack")["id"] == req["id"]


@pytest.mark.parametrize("raw, code", [
    ("not json", "malformed"),
    ("[1, 2]", "malformed"),
    ('{"no": "type"}', "malformed"),
    ('{"type": "launch"}', "unknown-type"),
    ('{"type": "action"}', "malformed"),
    ('{"type": "action", "action": {"type": "discard", "tile": "0x"}}', "bad-action"),
    ('{"type": "action", "action": {"type": "teleport"}}', "bad-action"),
    ('{"type": "action", "seat": 9, "action": {"type": "pass"}}', "malformed"),
    ('{"type": "action", "id": true, "action": {"type": "pass"}}', "malformed"),
    ("x" * 5000, "too-large"),
    ('{"type": "hello", "pad": "' + "y" * 5000 + '"}', "too-large"),
], ids=["text", "array", "no-type", "unknown-type", "no-action", "bad-tile", "bad-action",
        "bad-seat", "bool-id", "oversized", "oversized-json"])
def test_malformed_and_oversized_refused_table_unharmed(table, raw: str, code: str) -> None:
    c, tid, _t, _b, ann, _bob, req = table
    before = _snapshot(c, tid)
    _refused(ann, raw, code)
    assert _snapshot(c, tid) == before
    ann.send({"type": "ping"})
    assert ann.until("pong")["n"] == before[0]
    ann.send({"type": "action", "id": req["id"], "action": req["legal"][0]})
    assert ann.until("ack")


def test_spectator_cannot_act(table) -> None:
    c, tid, _t, _b, _ann, _bob, req = table
    before = _snapshot(c, tid)
    w = Player(c, tid, spectate=True)
    w.until("welcome")
    _refused(w, {"type": "action", "action": req["legal"][0]}, "spectator")
    assert _snapshot(c, tid) == before
    w.close()


def test_message_rate_is_bounded(make_client) -> None:
    c = make_client(rate=1.0, burst=5.0)
    t = create_table(c)
    ann = Player(c, t["table_id"], t["token"])
    ann.until("welcome")
    for _ in range(15):
        ann.send({"type": "ping"})
    kinds = [ann.recv()["type"] for _ in range(15)]
    got = {k: kinds.count(k) for k in set(kinds) - {"table"}}
    assert got.get("error", 0) >= 8 and got.get("pong", 0) <= 7
    ann.close()


def test_foreign_origin_refused_same_host_accepted(make_client) -> None:
    c = make_client()
    t = create_table(c)
    with pytest.raises(WebSocketDisconnect) as exc:
        Player(c, t["table_id"], t["token"], headers={"origin": "https://evil.example"})
    assert exc.value.code == 4403
    ok = Player(c, t["table_id"], t["token"], headers={"origin": "http://testserver"})
    assert ok.until("welcome")["player"] == 0
    ok.close()


def test_unknown_table_socket_refused(make_client) -> None:
    c = make_client()
    with pytest.raises(WebSocketDisconnect) as exc:
        Player(c, "no-such-table", "x")
    assert exc.value.code == 4404


def test_tokens_are_stored_hashed(make_client) -> None:
    c = make_client()
    t = create_table(c)
    row = c.app.state.store.load_table(t["table_id"])
    assert all(t["token"] != s.token_hash for s in row.seats)
    assert t["token"] not in str(row)


DRAWN = b'{"type": "drawn"}'
EVIL = "https://evil.example"


def test_another_sites_page_cannot_change_a_ledger(make_client) -> None:
    c = make_client()
    led = c.post("/api/ledgers", json={"names": ["A", "B", "C", "D"]}).json()
    hands = f"/api/ledgers/{led['edit']}/hands"
    # a text/plain form or fetch(no-cors): a simple request, no preflight asked
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        r = c.post(hands, content=DRAWN, headers={"content-type": kind})
        assert r.status_code == 415, r.text
        assert r.json() == {"error": "not-json", "message": "a request body must be JSON, "
                            f"sent with Content-Type: application/json (not {kind!r})"}
    r = c.post(hands, content=DRAWN)            # no type at all
    assert r.status_code == 415 and "(not 'none')" in r.json()["message"]
    # JSON from another site's page: the browser names the site
    for headers in ({"origin": EVIL}, {"sec-fetch-site": "cross-site"},
                    {"sec-fetch-site": "same-site", "origin": "http://a.testserver"},
                    {"origin": "null"}, {"origin": "http://testserver.evil.example"}):
        r = c.post(hands, json={"type": "drawn"}, headers=headers)
        assert r.status_code == 403, (headers, r.text)
        assert r.json()["error"] == "cross-origin"
        assert r.json()["message"].startswith("a change to this server must come from its "
                                              "own pages, not from a page")
    assert c.get(f"/api/ledgers/{led['view']}").json()["hands"] == []
    # the app's own page (fetch sends its Origin and Sec-Fetch-Site) and a script
    for headers in ({"origin": "http://testserver", "sec-fetch-site": "same-origin"},
                    {"origin": "null", "sec-fetch-site": "same-origin"}, {}):
        r = c.post(hands, json={"type": "drawn"}, headers=headers)
        assert r.status_code == 201, (headers, r.text)
    assert [h["id"] for h in c.get(f"/api/ledgers/{led['view']}").json()["hands"]] == [
        "h1", "h2", "h3"]
    # a change without a body is refused from another site the same way
    for method, url in (("DELETE", f"{hands}/h1"), ("POST", f"{hands}/h1/restore")):
        r = c.request(method, url, headers={"origin": EVIL})
        assert r.status_code == 403 and r.json()["error"] == "cross-origin", r.text
    assert len(c.get(f"/api/ledgers/{led['view']}").json()["hands"]) == 3


def test_another_sites_page_cannot_open_join_or_start_a_table(make_client) -> None:
    c = make_client()
    t = create_table(c)
    for url, body in (("/api/tables", {"name": "Eve"}),
                      (f"/api/tables/{t['table_id']}/join", {"name": "Eve"}),
                      (f"/api/tables/{t['table_id']}/start", None),
                      ("/api/score", {"concealed": "1m"})):
        r = c.post(url, json=body, headers={"origin": EVIL,
                                            "authorization": f"Bearer {t['token']}"})
        assert r.status_code == 403 and r.json()["error"] == "cross-origin", (url, r.text)
    assert c.get(f"/api/tables/{t['table_id']}").json()["status"] == "waiting"


def test_the_pages_send_their_changes_as_json() -> None:
    """Every request with a body that the app's own scripts make declares it JSON (the
    browser tests run the pages themselves against the same checks)."""
    from importlib import resources
    static = resources.files("sgmahjong.web").joinpath("static")
    scripts = {p.name: p.read_text("utf-8") for p in static.iterdir()
               if p.name.endswith(".js")}
    calls = [(name, m.group(0)) for name, text in scripts.items()
             for m in re.finditer(r"fetch\((?:[^()]|\([^()]*\))*\)", text)]
    assert calls
    for name, call in calls:
        if "method" in call:        # a change: its own JSON header
            assert '"Content-Type": "application/json"' in call, (name, call)
        else:                       # a GET, or request.js's own fetch(url, opts)
            assert name != "request.js" or call == "fetch(url, opts)", call
    assert ('if (body !== undefined) headers["Content-Type"] = "application/json";'
            in scripts["request.js"])
