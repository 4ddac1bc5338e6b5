"""Every player at a table has a name of their own: a name already used there (whatever
its capitals or the spaces around it, and the AI players' names too) is refused with a
reason, at create and at join, so no payment line reads "Quinn pays Quinn"."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Player, create_table, join, start


def _join(c: Any, tid: str, name: str, **kw: Any) -> Any:
    return c.post(f"/api/tables/{tid}/join", json={"name": name, **kw})


def _names(c: Any, tid: str) -> list[str]:
    return [s["name"] for s in c.get(f"/api/tables/{tid}").json()["seats"]]


@pytest.mark.parametrize("again", ["Zed", "zed", "  ZED ", "zEd"])
def test_a_second_player_cannot_take_a_name_already_at_the_table(make_client, again) -> None:
    c = make_client()
    t = create_table(c, name="Ann")
    tid = t["table_id"]
    join(c, tid, "Zed")
    r = _join(c, tid, again)
    assert r.status_code == 409, r.text
    body = r.json()
    assert body["error"] == "name-taken"
    assert body["message"] == ("Zed is already at this table: pick another name (names "
                               "must differ, whatever their capitals)")
    # nothing changed: the seat is still free for someone else
    seats = c.get(f"/api/tables/{tid}").json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "human", "open", "open"]
    assert join(c, tid, "Quinn")["player"] == 2


def test_the_hosts_name_counts_and_a_joiner_cannot_repeat_it(make_client) -> None:
    c = make_client()
    t = create_table(c, name="Quinn")
    r = _join(c, t["table_id"], " quinn")
    assert r.status_code == 409 and r.json()["error"] == "name-taken"
    assert r.json()["message"].startswith("Quinn is already at this table")


def test_the_ai_players_names_are_taken_too(make_client) -> None:
    c = make_client()
    t = create_table(c, name="Ann", ai=["fox", "fox", "owl"])
    tid = t["table_id"]
    for taken in ("fox", "Fox 2", "OWL"):
        r = _join(c, tid, taken)
        assert r.status_code == 409, (taken, r.text)
        assert r.json()["error"] == "name-taken"
        assert "(an AI player)" in r.json()["message"]
    join(c, tid, "Bob")
    start(c, tid, t["token"])
    # the names the AI players got at the start are the ones refused above, and all differ
    names = _names(c, tid)
    assert names[:2] == ["Ann", "Bob"]
    assert {n.casefold() for n in names[2:]} <= {"fox", "fox 2", "owl"}
    assert len({n.casefold() for n in names}) == 4


def test_taking_over_an_ai_seat_with_another_players_name_is_refused(make_client) -> None:
    c = make_client()
    t = create_table(c, name="Ann", ai=["greedy", "fox", "owl"])
    tid = t["table_id"]
    start(c, tid, t["token"])
    names = _names(c, tid)
    assert names == ["Ann", "Greedy", "Fox", "Owl"]    # the table's own names for its AIs
    for taken in ("ann", "OWL", " Greedy "):
        r = _join(c, tid, taken, player=2)
        assert r.status_code == 409 and r.json()["error"] == "name-taken", taken
    assert _names(c, tid) == names


def test_the_host_cannot_take_an_ai_players_name_at_create(make_client) -> None:
    c = make_client()
    r = c.post("/api/tables", json={"name": " owl ", "rules": "casual",
                                    "ai": ["hedgehog", "fox", "owl"]})
    assert r.status_code == 409, r.text
    assert r.json() == {"error": "name-taken",
                        "message": "Owl is already at this table (an AI player): pick "
                                   "another name (names must differ, whatever their "
                                   "capitals)"}
    # a ladder table's opponents are the rung's: the same check
    rung = c.get("/api/options").json()["ladder"]["rungs"][0]
    level = rung["opponents"][0]
    r = c.post("/api/tables", json={"name": level.upper(), "rules": "standard",
                                    "ladder": rung["id"]})
    assert r.status_code == 409 and r.json()["error"] == "name-taken"
    assert c.post("/api/tables", json={"name": "Ann", "rules": "casual",
                                       "ai": ["hedgehog", "fox", "owl"]}).status_code == 201


def test_a_player_coming_back_with_their_seat_token_is_not_a_clash(make_client) -> None:
    c = make_client()
    t = create_table(c, name="Zed")
    tid = t["table_id"]
    join(c, tid, "Bob")
    zed = Player(c, tid, t["token"])
    welcome = zed.until("welcome")
    assert welcome["player"] == 0 and welcome["role"] == "player"
    zed.close()
    again = Player(c, tid, t["token"])
    assert again.until("welcome")["player"] == 0
    assert _names(c, tid)[:2] == ["Zed", "Bob"]
