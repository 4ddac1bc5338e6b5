"""Two servers on one PostgreSQL database, their beats driven by hand: a relayed socket is
never left on a dead path, and a database that was away does not make a stampede."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from conftest import Player, create_table, fast_config, start
from fastapi.testclient import TestClient
from test_postgres import pg_admin, pg_url  # noqa: F401 (fixtures)

from sgmahjong.store.db import TableStore
from sgmahjong.store.tables import peers
from sgmahjong.web import create_app
from sgmahjong.web.clock import ManualClock


@pytest.fixture
def two(pg_url: str) -> Iterator[tuple[TestClient, TestClient]]:  # noqa: F811
    """Servers a and b sharing the database; nothing beats unless a test says so."""
    clock = ManualClock()
    stores = [TableStore(pg_url), TableStore(pg_url)]
    with TestClient(create_app(fast_config(shared=True, clock=clock), stores[0])) as a, \
            TestClient(create_app(fast_config(shared=True, clock=clock), stores[1])) as b:
        yield a, b
    for s in stores:
        s.close()


def beat(client: TestClient) -> None:
    client.portal.call(client.app.state.lobby._tick)


def lobby(client: TestClient) -> Any:
    return client.app.state.lobby


def _discard(req: dict[str, Any]) -> dict[str, Any]:
    return next(a for a in req["legal"] if a["type"] == "discard")


def test_unsaved_on_the_relay_path_is_followed_by_a_fresh_request(
        two: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = two
    t = create_table(a)
    tid = t["table_id"]
    ann = Player(b, tid, t["token"])              # relayed by b to a, the owner
    try:
        start(a, tid, t["token"])
        req = ann.until("request", timeout=20)
        leases = lobby(b).leases
        real = leases.put_inbox
        calls = {"n": 0}

        def once_down(*args: Any) -> Any:
            calls["n"] += 1
            if calls["n"] == 1:
                raise sa.exc.OperationalError("put", {}, Exception("database away"))
            return real(*args)

        monkeypatch.setattr(leases, "put_inbox", once_down)
        ann.send({"type": "action", "id": req["id"], "action": _discard(req)})
        err = ann.until("error", timeout=20)
        assert err["code"] == "unsaved"
        beat(b)                                   # the database answers again
        fresh = ann.until("request", timeout=20)
        assert fresh["n"] == req["n"]             # nothing was played meanwhile
        ann.send({"type": "action", "id": fresh["id"], "action": _discard(fresh)})
        ack = ann.until("ack", timeout=20)
        assert ack["id"] == fresh["id"]
    finally:
        ann.close()


def test_a_socket_relayed_by_a_server_taken_for_dead_is_attached_again(
        two: tuple[TestClient, TestClient], pg_url: str) -> None:  # noqa: F811
    a, b = two
    t = create_table(a)
    tid = t["table_id"]
    ann = Player(b, tid, t["token"])
    try:
        start(a, tid, t["token"])
        req = ann.until("request", timeout=20)
        # b stalls past its lease: the database says it is dead, a drops its sockets
        engine = sa.create_engine(pg_url)
        with engine.begin() as conn:
            conn.execute(sa.update(peers).where(peers.c.id == lobby(b).peer)
                         .values(expires_at=0.0))
        engine.dispose()
        beat(a)
        assert not [k for k, rc in lobby(a).remote_conns.items() if rc.table_id == tid]
        beat(b)                                   # b wakes: it attaches its sockets again
        again = ann.until("request", timeout=20)
        assert again["n"] == req["n"]
        ann.send({"type": "action", "id": again["id"], "action": _discard(again)})
        assert ann.until("ack", timeout=20)["id"] == again["id"]
    finally:
        ann.close()


def test_after_the_database_was_away_no_server_takes_the_others_tables(
        two: tuple[TestClient, TestClient], pg_url: str,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = two
    t = create_table(b)                           # b plays it
    tid = t["table_id"]
    start(b, tid, t["token"])
    assert tid in lobby(b).epochs
    leases = lobby(a).leases
    real = leases.renew

    def down(peer: str) -> bool:
        raise sa.exc.OperationalError("renew", {}, Exception("database away"))

    monkeypatch.setattr(leases, "renew", down)
    with pytest.raises(sa.exc.OperationalError):
        beat(a)                                   # a cannot renew: the database is away
    monkeypatch.setattr(leases, "renew", real)
    # meanwhile every lease lapsed by the database's clock (nobody could renew)
    engine = sa.create_engine(pg_url)
    with engine.begin() as conn:
        conn.execute(sa.update(peers).values(expires_at=0.0))
    engine.dispose()
    beat(a)                                       # back, before b has renewed
    assert tid not in lobby(a).epochs             # a waits a lease's time
    beat(b)
    assert tid in lobby(b).epochs                 # b renewed and plays on


def test_a_table_made_while_the_beat_asks_what_is_held_is_not_taken_for_lost(
        two: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch) -> None:
    a, _b = two
    leases = lobby(a).leases
    real = leases.held
    asked, go = threading.Event(), threading.Event()

    def held_then_wait(peer: str) -> dict[str, int]:
        answer = real(peer)          # read before the new table is made
        asked.set()
        assert go.wait(20)
        return answer

    monkeypatch.setattr(leases, "held", held_then_wait)
    tick = a.portal.start_task_soon(lobby(a)._tick)
    assert asked.wait(20)
    t = create_table(a)
    go.set()
    tick.result(20)
    assert t["table_id"] in lobby(a).epochs
    r = a.post(f"/api/tables/{t['table_id']}/start",
               headers={"Authorization": f"Bearer {t['token']}"})
    assert r.status_code == 200, r.text
