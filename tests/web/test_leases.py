"""Table leases, the fenced event log and the inbox (store level, on SQLite: the same SQL
runs on PostgreSQL, where ``test_scale_out.py`` uses it across real processes).

Time is a variable here: a server's row lives ``ttl`` seconds after its last renewal.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, select

from sgmahjong.store.db import StoredTable, StoreError, TableStore
from sgmahjong.store.leases import FencedStore, LeaseStore, LostLease
from sgmahjong.store.tables import metadata, schema_version


class Time:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def store(tmp_path: Path) -> TableStore:
    s = TableStore(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    for tid in ("t1", "t2"):
        s.create_table(StoredTable(tid, "playing", {}, "casual", True, 7, True), [])
    return s


def test_one_owner_at_a_time_and_a_dead_owners_table_moves(store: TableStore) -> None:
    now = Time()
    leases = LeaseStore(store.engine, ttl=3.0, now=now)
    leases.renew("a")
    leases.renew("b")
    assert leases.claim("t1", "a") == 1
    assert leases.claim("t1", "b") is None          # a is alive: the lease stays its own
    assert leases.claim("t1", "a") == 1             # asking again changes nothing
    now.t += 2.0
    leases.renew("b")                               # b beats, a does not
    assert leases.claim("t1", "b") is None          # a's row lives 3 s: not yet
    now.t += 1.5                                    # 3.5 s since a's last beat
    assert leases.live_peers() == {"b"}
    assert "t1" in leases.orphans()
    assert leases.claim("t1", "b") == 2             # a new epoch for a new owner
    assert leases.owner("t1") == ("b", 2, True)
    leases.renew("a")                               # a comes back: the table stays b's
    assert leases.claim("t1", "a") is None
    assert leases.held("a") == {} and leases.held("b") == {"t1": 2}


def test_a_server_that_leaves_frees_its_tables_at_once(store: TableStore) -> None:
    now = Time()
    leases = LeaseStore(store.engine, ttl=3.0, now=now)
    leases.renew("a")
    leases.renew("b")
    leases.claim("t1", "a")
    leases.leave("a")
    assert leases.orphans() == ["t1"]
    assert leases.claim("t1", "b") == 3             # released (2), then taken (3)


def test_a_new_table_is_not_taken_before_its_maker_claims_it(store: TableStore) -> None:
    now = Time()
    leases = LeaseStore(store.engine, ttl=3.0, now=now)
    leases.renew("b")
    # t1 and t2 were made just now (the wall clock) and have no lease yet
    leases.now = None
    assert leases.orphans(grace=10.0) == []
    assert leases.orphans(grace=-60.0) == ["t1", "t2"]    # made "more than" -60 s ago


def test_an_owner_that_lost_the_lease_cannot_write_the_log(store: TableStore) -> None:
    now = Time()
    leases = LeaseStore(store.engine, ttl=3.0, now=now)
    leases.renew("a")
    leases.claim("t1", "a")
    a = FencedStore(store, "a")
    a.append_events("t1", 1, [{"type": "x"}])
    now.t += 5.0                                    # a stalled past its lease
    leases.renew("b")
    assert leases.claim("t1", "b") == 2
    with pytest.raises(LostLease, match="another server plays it now"):
        a.append_events("t1", 2, [{"type": "from a"}])
    b = FencedStore(store, "b")
    b.append_events("t1", 2, [{"type": "from b"}])
    assert store.load_events("t1") == [{"type": "x"}, {"type": "from b"}]
    with pytest.raises(StoreError, match="taken"):
        b.append_events("t1", 2, [{"type": "again"}])
    assert isinstance(a.load_table("t1"), StoredTable)   # reads go to the store


def test_an_applied_action_leaves_the_inbox_with_its_events(store: TableStore) -> None:
    leases = LeaseStore(store.engine, ttl=3.0, now=Time())
    leases.renew("a")
    leases.claim("t1", "a")
    leases.put_inbox("t1", "b", "sock", "msg", {"type": "action"})
    leases.put_inbox("t1", "b", "sock", "msg", {"type": "ready"})
    leases.put_inbox("t2", "b", "sock2", "attach", {"player": 0})
    first, second = leases.take_inbox(["t1"])
    assert (first.kind, first.payload, second.payload) == ("msg", {"type": "action"},
                                                          {"type": "ready"})
    assert [r.seq for r in leases.take_inbox(["t1"], after=first.seq)] == [second.seq]
    fenced = FencedStore(store, "a")
    fenced.append_events("t1", 1, [{"type": "discard"}], answering=("t1", first.seq))
    # the action's row went in the events' transaction; the other rows wait
    assert [r.seq for r in leases.take_inbox(["t1", "t2"])] == [
        second.seq, leases.take_inbox(["t2"])[0].seq]
    # a write that fails (the number is taken) keeps the action in the inbox
    with pytest.raises(StoreError):
        fenced.append_events("t1", 1, [{"type": "discard"}], answering=("t1", second.seq))
    assert second.seq in [r.seq for r in leases.take_inbox(["t1"])]
    leases.done([second.seq])
    assert leases.take_inbox(["t1"]) == []


def test_the_outbox_hands_each_server_its_own_messages_in_order(store: TableStore) -> None:
    leases = LeaseStore(store.engine)
    leases.put_outbox([("b", "s1", {"n": 1}), ("c", "s2", {"n": 2}), ("b", "s1", {"n": 3})])
    assert leases.take_outbox("b") == [("s1", {"n": 1}), ("s1", {"n": 3})]
    assert leases.take_outbox("b") == []
    assert leases.take_outbox("c") == [("s2", {"n": 2})]


def test_a_version_2_database_gains_the_tables_of_several_servers(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = create_engine(url)
    new = {"peers", "table_leases", "table_inbox", "table_outbox"}
    with engine.begin() as conn:   # the schema as version 2 made it
        metadata.create_all(conn, tables=[t for t in metadata.sorted_tables
                                          if t.name not in new | {"requests_done"}])
        conn.execute(schema_version.insert(), [{"version": 1}, {"version": 2}])
    engine.dispose()
    store = TableStore(url)
    try:
        assert new <= set(inspect(store.engine).get_table_names())
        with store.engine.connect() as conn:
            assert sorted(conn.execute(select(schema_version.c.version)).scalars()) == [
                1, 2, 3, 4]
    finally:
        store.close()


class Sink:
    player: int | None = 1

    def __init__(self) -> None:
        self.got: list[dict[str, object]] = []

    def send(self, message: dict[str, object]) -> None:
        self.got.append(message)


def test_a_relayed_socket_attached_again_gets_no_event_twice() -> None:
    from sgmahjong.web.peers import Relay

    sink = Sink()
    relay = Relay(sink, "t1", "k", last_seen=None, epoch=1)
    for n in (1, 2, 3):
        relay.deliver({"type": "event", "n": n, "event": {}})
    # the table changed hands; the new owner sends from the last event the socket has
    # (3), but a copy of 2 and 3 still in the old owner's outbox arrives too
    for msg in ({"type": "event", "n": 2, "event": {}}, {"type": "welcome"},
                {"type": "event", "n": 3, "event": {}}, {"type": "event", "n": 4, "event": {}},
                {"type": "request", "id": 200001, "n": 4}):
        relay.deliver(msg)
    assert [(m["type"], m.get("n")) for m in sink.got] == [
        ("event", 1), ("event", 2), ("event", 3), ("welcome", None), ("event", 4),
        ("request", 4)]
    assert relay.delivered == 4
