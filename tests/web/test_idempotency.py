"""Every mutating request carried out once per Idempotency-Key (docs/web.md, "Requests
carried out once"): a repeat gets the first answer and changes nothing, on every endpoint
that changes something; hands are addressed by id; a deleted hand can be restored."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import httpx
import pytest
from conftest import SEED, create_table, reckon
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from sgmahjong.store.db import TableStore
from sgmahjong.store.requests import ABANDONED_SECONDS, Busy, Claim, Replay, RequestLog
from sgmahjong.store.tables import ledgers, requests_done, seats

NAMES = ["Ann", "Bob", "Cy", "Dee"]
WIN = {"type": "win", "winner": 0, "tai": 3, "from": 1}
DRAWN = {"type": "drawn"}


def key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


def twice(client: TestClient, method: str, url: str, **kw: Any) -> tuple[httpx.Response,
                                                                           httpx.Response]:
    """The same request sent twice with one key, as a retried or double-tapped request."""
    headers = {**kw.pop("headers", {}), **key()}
    first = client.request(method, url, headers=headers, **kw)
    second = client.request(method, url, headers=headers, **kw)
    assert first.status_code < 300, first.text
    assert second.status_code == first.status_code
    assert second.json() == first.json()
    assert second.headers.get("Idempotent-Replayed") == "true"
    assert first.headers.get("Idempotent-Replayed") is None
    return first, second


def count(client: TestClient, table: Any) -> int:
    with client.app.state.store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar() or 0)


def new_ledger(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/ledgers", json={"names": NAMES, "rules": "standard"})
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def book(client: TestClient, token: str) -> dict[str, Any]:
    return client.get(f"/api/ledgers/{token}").json()  # type: ignore[no-any-return]


def entries(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [h["entry"] for h in view["hands"]]


def agrees_with_reckoning(view: dict[str, Any]) -> None:
    """The totals shown equal an independent reckoning from the hands the ledger lists."""
    want = reckon(entries(view))
    assert view["totals"] == (want[-2]["totals"] if view["hands"] else [0, 0, 0, 0])


# ---------------------------------------------------------------- the ledger

def test_opening_a_ledger_twice_with_one_key_makes_one_ledger(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    first, _ = twice(client, "POST", "/api/ledgers", json={"names": NAMES})
    assert count(client, ledgers) == 1
    assert book(client, first.json()["edit"])["can_edit"]


def test_adding_a_hand_twice_with_one_key_adds_it_once(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    edit = new_ledger(client)["edit"]
    twice(client, "POST", f"/api/ledgers/{edit}/hands", json=WIN)
    view = book(client, edit)
    assert entries(view) == [WIN]
    # Ann won 3 tai from Bob under standard: base 8, the discarder pays double
    assert view["totals"] == [32, -16, -8, -8]
    agrees_with_reckoning(view)


def test_editing_deleting_and_restoring_twice_change_once(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    edit = new_ledger(client)["edit"]
    for h in (WIN, DRAWN, WIN):
        assert client.post(f"/api/ledgers/{edit}/hands", json=h).status_code == 201
    ids = [h["id"] for h in book(client, edit)["hands"]]
    rev = book(client, edit)["revision"]
    changed = {"type": "win", "winner": 2, "tai": 1, "from": None}
    twice(client, "PUT", f"/api/ledgers/{edit}/hands/{ids[1]}", json=changed)
    assert book(client, edit)["revision"] == rev + 1
    twice(client, "DELETE", f"/api/ledgers/{edit}/hands/{ids[0]}")
    view = book(client, edit)
    assert [h["id"] for h in view["hands"]] == ids[1:]     # the next hand was not deleted too
    assert entries(view) == [changed, WIN]
    twice(client, "POST", f"/api/ledgers/{edit}/hands/{ids[0]}/restore")
    view = book(client, edit)
    assert [h["id"] for h in view["hands"]] == ids
    assert entries(view) == [WIN, changed, WIN]
    assert view["revision"] == rev + 3
    agrees_with_reckoning(view)


def test_a_delete_by_id_delivered_twice_without_a_key_deletes_one_hand(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    edit = new_ledger(client)["edit"]
    for h in (WIN, DRAWN):
        client.post(f"/api/ledgers/{edit}/hands", json=h)
    first_id = book(client, edit)["hands"][0]["id"]
    assert client.delete(f"/api/ledgers/{edit}/hands/{first_id}").status_code == 200
    again = client.delete(f"/api/ledgers/{edit}/hands/{first_id}")
    assert again.status_code == 404 and "was deleted" in again.json()["message"]
    assert entries(book(client, edit)) == [DRAWN]
    # a restore delivered twice puts it back once, in its place
    for _ in range(2):
        assert client.post(f"/api/ledgers/{edit}/hands/{first_id}/restore").status_code == 200
    assert entries(book(client, edit)) == [WIN, DRAWN]


def test_a_hand_id_is_never_given_to_another_hand(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    edit = new_ledger(client)["edit"]
    client.post(f"/api/ledgers/{edit}/hands", json=WIN)
    gone = book(client, edit)["hands"][0]["id"]
    client.delete(f"/api/ledgers/{edit}/hands/{gone}")
    client.post(f"/api/ledgers/{edit}/hands", json=DRAWN)
    assert book(client, edit)["hands"][0]["id"] != gone
    # an edit sent for the deleted hand does not land on the new one
    r = client.put(f"/api/ledgers/{edit}/hands/{gone}", json=WIN)
    assert r.status_code == 404
    assert entries(book(client, edit)) == [DRAWN]


def test_the_calculators_full_hand_added_twice_with_one_key_is_added_once(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    edit = new_ledger(client)["edit"]
    hand = {"type": "win", "winner": 1, "from": 0,
            "hand": {"concealed": "123m456p789s777z1m", "win_tile": "1m"}}
    twice(client, "POST", f"/api/ledgers/{edit}/hands", json=hand)
    assert len(book(client, edit)["hands"]) == 1


def test_without_a_key_each_request_is_a_change_of_its_own(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    edit = new_ledger(client)["edit"]
    for _ in range(2):
        assert client.post(f"/api/ledgers/{edit}/hands", json=WIN).status_code == 201
    assert len(book(client, edit)["hands"]) == 2


def test_one_key_with_another_body_is_refused_and_changes_nothing(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    edit = new_ledger(client)["edit"]
    k = key()
    assert client.post(f"/api/ledgers/{edit}/hands", json=WIN, headers=k).status_code == 201
    r = client.post(f"/api/ledgers/{edit}/hands", json=DRAWN, headers=k)
    assert r.status_code == 422 and r.json()["error"] == "idempotency-key-reused"
    assert entries(book(client, edit)) == [WIN]


def test_a_refused_request_may_be_sent_again_with_its_key(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    edit = new_ledger(client)["edit"]
    k = key()
    bad = {"type": "win", "winner": 0, "tai": 3, "from": 0}
    r = client.post(f"/api/ledgers/{edit}/hands", json=bad, headers=k)
    assert r.status_code == 400
    again = client.post(f"/api/ledgers/{edit}/hands", json=bad, headers=k)
    assert again.status_code == 400 and again.headers.get("Idempotent-Replayed") is None
    assert book(client, edit)["hands"] == []


@pytest.mark.parametrize("bad", [b"", b"x" * 101, b"tab\there", "é-key".encode()])
def test_a_malformed_key_is_refused_by_name(make_client, bad: bytes) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    edit = new_ledger(client)["edit"]
    r = client.post(f"/api/ledgers/{edit}/hands", json=WIN,
                    headers=[(b"Idempotency-Key", bad)])
    assert r.status_code == 400 and "Idempotency-Key" in r.json()["message"]
    assert book(client, edit)["hands"] == []


def test_copies_arriving_together_are_carried_out_once(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    edit = new_ledger(client)["edit"]
    k = key()

    async def burst() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=client.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as ac:
            return list(await asyncio.gather(*[
                ac.post(f"/api/ledgers/{edit}/hands", json=WIN, headers=k) for _ in range(5)]))
    answers = asyncio.run(burst())
    assert {r.status_code for r in answers} == {201}
    assert len({json.dumps(r.json(), sort_keys=True) for r in answers}) == 1
    assert entries(book(client, edit)) == [WIN]


def test_the_stored_answers_give_no_token_away(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    k = key()
    made = client.post("/api/ledgers", json={"names": NAMES}, headers=k).json()
    table = client.post("/api/tables", json={"name": "Ann", "seed": SEED}, headers=key()).json()
    with client.app.state.store.engine.connect() as conn:
        rows = json.dumps([[str(v) for v in row] for row in conn.execute(select(requests_done))])
    for secret in (made["edit"], table["token"], k["Idempotency-Key"], "/api/ledgers"):
        assert secret not in rows
    # and yet a repeat gets the edit token back
    again = client.post("/api/ledgers", json={"names": NAMES}, headers=k).json()
    assert again["edit"] == made["edit"]


# ---------------------------------------------------------------- the tables

def test_creating_a_table_twice_with_one_key_makes_one_table(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    first, _ = twice(client, "POST", "/api/tables", json={"name": "Ann", "seed": SEED})
    assert client.app.state.store.table_ids() == [first.json()["table_id"]]


def test_a_repeated_create_does_not_count_against_the_clients_limit(make_client) -> None:  # type: ignore[no-untyped-def]
    from sgmahjong.web.config import WebLimits
    client = make_client(limits=WebLimits(creates_per_client=2, create_window=600))
    k = key()
    for _ in range(4):
        assert client.post("/api/tables", json={"name": "Ann"}, headers=k).status_code == 201
    assert client.post("/api/tables", json={"name": "Ann"}).status_code == 201


def test_taking_a_seat_twice_with_one_key_takes_one_seat(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    tid = create_table(client, ai=None)["table_id"]
    first, _ = twice(client, "POST", f"/api/tables/{tid}/join", json={"name": "Quinn"})
    people = [s for s in client.get(f"/api/tables/{tid}").json()["seats"]
              if s["kind"] == "human"]
    assert [s["name"] for s in people] == ["Ann", "Quinn"]
    assert first.json()["player"] == 1
    with client.app.state.store.engine.connect() as conn:
        humans = conn.execute(select(func.count()).select_from(seats).where(
            seats.c.table_id == tid, seats.c.kind == "human")).scalar()
    assert humans == 2


def test_starting_twice_with_one_key_answers_alike(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    made = create_table(client)
    first, _ = twice(client, "POST", f"/api/tables/{made['table_id']}/start",
                     headers={"Authorization": f"Bearer {made['token']}"})
    assert first.json()["status"] == "playing"


# ---------------------------------------------------------------- the log itself

def test_a_claim_left_by_a_stopped_server_is_taken_over_after_a_while() -> None:
    now = [1000.0]
    log = RequestLog(TableStore("sqlite://"), clock=lambda: now[0])
    first = log.claim("POST /x", "k", b"{}")
    assert isinstance(first, Claim)
    assert isinstance(log.claim("POST /x", "k", b"{}"), Busy)
    now[0] += ABANDONED_SECONDS + 1
    taken = log.claim("POST /x", "k", b"{}")
    assert isinstance(taken, Claim)
    log.finish(taken, 200, b'{"ok": 1}')
    assert log.claim("POST /x", "k", b"{}") == Replay(200, b'{"ok": 1}')
    # the same key for another path is another request
    assert isinstance(log.claim("POST /y", "k", b"{}"), Claim)


def test_answers_are_forgotten_after_a_day() -> None:
    now = [0.0]
    log = RequestLog(TableStore("sqlite://"), clock=lambda: now[0])
    done = log.claim("POST /x", "k", b"{}")
    assert isinstance(done, Claim)
    log.finish(done, 201, b"{}")
    now[0] += 25 * 3600
    assert isinstance(log.claim("POST /x", "k", b"{}"), Claim)
