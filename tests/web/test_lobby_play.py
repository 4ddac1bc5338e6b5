"""Lobby and play: create, invite, join, start, AI fills the seats, a seeded hand to its end."""

from __future__ import annotations

from conftest import Player, create_table, join, play_all, start

from sgmahjong.record import check_record, loads_record


def test_create_gives_creator_token_and_invite_link(make_client) -> None:
    c = make_client()
    t = create_table(c)
    assert t["player"] == 0 and len(t["token"]) >= 32
    assert t["invite"] == f"http://testserver/t/{t['table_id']}"
    assert t["token"] not in t["invite"]
    info = c.get(f"/api/tables/{t['table_id']}").json()
    assert [s["kind"] for s in info["seats"]] == ["human", "open", "open", "open"]
    assert "token" not in str(info) and "seed" not in info


def test_invite_page_is_served(make_client) -> None:
    c = make_client()
    t = create_table(c)
    r = c.get(f"/t/{t['table_id']}")
    assert r.status_code == 200 and 'id="t-5p"' in r.text
    assert "default-src 'self'" in r.headers["content-security-policy"]


def test_join_takes_free_seat_and_start_fills_the_rest_with_ai(make_client) -> None:
    c = make_client()
    t = create_table(c, ai=["snail", "fox", "owl"])
    b = join(c, t["table_id"], "Bob")
    assert b["player"] == 1 and b["token"] != t["token"]
    start(c, t["table_id"], t["token"])
    info = c.get(f"/api/tables/{t['table_id']}").json()
    assert info["status"] == "playing"
    assert [(s["name"], s["kind"]) for s in info["seats"]] == [
        ("Ann", "human"), ("Bob", "human"), ("Fox", "ai"), ("Owl", "ai")]


def test_join_refused_once_started_or_full(make_client) -> None:
    c = make_client()
    t = create_table(c)
    for name in ("B", "C", "D"):
        join(c, t["table_id"], name)
    r = c.post(f"/api/tables/{t['table_id']}/join", json={"name": "E"})
    assert r.status_code == 409 and r.json()["error"] == "full"


def test_only_the_creator_starts(make_client) -> None:
    c = make_client()
    t = create_table(c)
    b = join(c, t["table_id"])
    r = c.post(f"/api/tables/{t['table_id']}/start",
               headers={"Authorization": f"Bearer {b['token']}"})
    assert r.status_code == 403
    r = c.post(f"/api/tables/{t['table_id']}/start", headers={"Authorization": "Bearer x"})
    assert r.status_code == 401
    r = c.post(f"/api/tables/{t['table_id']}/start")
    assert r.status_code == 401
    assert c.get(f"/api/tables/{t['table_id']}").json()["status"] == "waiting"


def test_unknown_level_rules_and_seed_refused(make_client) -> None:
    c = make_client(allow_seed=False)
    base = {"name": "A", "rules": "casual", "quick": True, "ai": ["greedy"] * 3}
    assert c.post("/api/tables", json={**base, "ai": ["dragon"] * 3}).status_code == 400
    assert c.post("/api/tables", json={**base, "rules": "nope"}).status_code == 400
    assert c.post("/api/tables", json={**base, "seed": 5}).status_code == 403
    assert c.get("/api/tables/nosuchtable").status_code == 404


def test_seeded_hand_played_to_its_end_over_websockets(make_client) -> None:
    c = make_client()
    t = create_table(c)
    b = join(c, t["table_id"])
    ann = Player(c, t["table_id"], t["token"])
    bob = Player(c, t["table_id"], b["token"])
    assert ann.until("welcome")["player"] == 0
    assert bob.until("welcome")["player"] == 1
    start(c, t["table_id"], t["token"])
    play_all([ann, bob], hands=1)
    for p in (ann, bob):
        end = next(m for m in p.log if m["type"] == "hand-end")["hand"]
        assert end["number"] == 0
        assert sum(end["deltas"]) == sum(end["scores"])
        numbers = [m["n"] for m in p.log if m["type"] == "event"]
        assert numbers == sorted(numbers) and numbers[0] == 1
        assert any(m["type"] == "request" for m in p.log)
    ann.close()
    bob.close()


def test_finished_match_downloads_as_a_record_that_checks(make_client) -> None:
    c = make_client()
    t = create_table(c)
    tid = t["table_id"]
    assert c.get(f"/api/tables/{tid}/record").status_code == 409
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    ann.play()
    end = ann.log[-1]
    assert end["type"] == "match-end" and [s["name"] for s in end["standings"]]
    r = c.get(end["record"])
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    rec = loads_record(r.text)
    assert check_record(rec).ok
    assert list(rec.header["scores"]) == end["scores"]
    ann.close()


def test_hints_on_request_and_refused_when_off(make_client) -> None:
    c = make_client()
    for allowed in (True, False):
        t = create_table(c, hints=allowed)
        ann = Player(c, t["table_id"], t["token"])
        start(c, t["table_id"], t["token"])
        ann.until("request")
        ann.send({"type": "hints"})
        if allowed:
            h = ann.until("hints")["hints"]
            assert h["discard"]["tile"] and h["tai"] and "waits" in h
        else:
            assert ann.until("error")["code"] == "hints-off"
        ann.close()
