"""The web table on PostgreSQL: schema, migrations, big seeds, concurrent writers, and the
whole web suite again, each test in a database of its own.

Needs a server: ``SGMAHJONG_TEST_DATABASE_URL=$(bash .ci/postgres.sh)`` (any database on
it will do; the tests create and drop their own beside it). Without the variable these
tests are skipped, unless ``SGMAHJONG_REQUIRE_POSTGRES=1`` (CI), where they fail. A few
tests need no server: the driver's and the URL's errors, and the checks both databases
share.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from conftest import (
    Player,
    choose,
    create_table,
    into_second_hand,
    play_to,
    start,
    table_state,
)
from sqlalchemy.pool import NullPool
from starlette.websockets import WebSocketDisconnect

from sgmahjong.cli import main
from sgmahjong.record import check_record, loads_record
from sgmahjong.store.db import (
    StoredSeat,
    StoredTable,
    StoreError,
    TableStore,
    database_url,
    migrate,
)
from sgmahjong.store.tables import SCHEMA_VERSION, game_tables, schema_version

URL_ENV = "SGMAHJONG_TEST_DATABASE_URL"
REQUIRE_ENV = "SGMAHJONG_REQUIRE_POSTGRES"
BIG_SEED = 2**64 - 12345          # above 2^63: would overflow a BIGINT column


@pytest.fixture
def pg_admin() -> Iterator[sa.Engine]:
    """An AUTOCOMMIT engine on the test server (CREATE DATABASE refuses a transaction)."""
    url = os.environ.get(URL_ENV, "")
    if not url:
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"{REQUIRE_ENV}=1 but {URL_ENV} is not set: start a server with "
                        f"`{URL_ENV}=$(bash .ci/postgres.sh)`", pytrace=False)
        pytest.skip(f"no PostgreSQL: set {URL_ENV} (bash .ci/postgres.sh starts one)")
    engine = sa.create_engine(database_url(url), isolation_level="AUTOCOMMIT",
                              poolclass=NullPool)
    yield engine
    engine.dispose()


@pytest.fixture
def pg_url(pg_admin: sa.Engine) -> Iterator[str]:
    """The URL of a new, empty database, dropped after the test."""
    name = f"sgmahjong_t_{uuid.uuid4().hex[:16]}"
    with pg_admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    yield pg_admin.url.set(database=name).render_as_string(hide_password=False)
    # A test that failed half-way, or a worker thread still finishing its last call, may
    # hold a session: FORCE ends them (PostgreSQL 13+), and a session that opened again
    # meanwhile gets another try rather than an error in a test that passed.
    for attempt in range(5):
        try:
            with pg_admin.connect() as conn:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            return
        except sa.exc.OperationalError:
            if attempt == 4:
                raise


@pytest.fixture
def db_url(pg_url: str) -> str:
    """conftest's ``make_client`` opens this: in this file, a fresh PostgreSQL database."""
    return pg_url


@pytest.fixture(params=["sqlite", "postgresql"])
def any_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each database in turn, for behaviour both must share."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'web.sqlite3'}"
    return str(request.getfixturevalue("pg_url"))


def _row(table_id: str = "t1", seed: int = 7) -> StoredTable:
    return StoredTable(table_id, "waiting", {"name": "casual"}, "casual", True, seed, True, {})


def _seat(name: str = "Ann") -> StoredSeat:
    return StoredSeat(0, name, "human", "hedgehog", "ab" * 32)


# ----------------------------------------------------------------- no server needed


def test_a_missing_driver_names_the_extra_without_a_traceback(monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)      # as if not installed
    with pytest.raises(StoreError, match=r'pip install "sgmahjong\[postgres\]"'):
        TableStore("postgresql://ann@/mahjong")
    assert main(["serve", "--database-url", "postgres://ann@/mahjong"]) == 2
    err = capsys.readouterr().err
    assert "sgmahjong[postgres]" in err and "Traceback" not in err


def test_an_unreachable_server_is_a_clear_error_without_the_password(capsys) -> None:
    pytest.importorskip("psycopg")
    url = "postgresql://ann:s3cret@/mahjong?host=/nonexistent-sgmahjong"
    with pytest.raises(StoreError, match="cannot open the database") as caught:
        TableStore(url)
    assert "s3cret" not in str(caught.value)
    assert main(["serve", "--database-url", url]) == 2
    err = capsys.readouterr().err
    assert "cannot open the database" in err and "Traceback" not in err


def test_plain_postgresql_urls_mean_psycopg() -> None:
    for url in ("postgresql://ann@db/mahjong", "postgres://ann@db/mahjong"):
        assert database_url(url).drivername == "postgresql+psycopg"
    assert database_url("postgresql+psycopg2://a@b/c").drivername == "postgresql+psycopg2"
    with pytest.raises(StoreError, match="cannot read the database URL"):
        database_url("not a url")


# ----------------------------------------------------------------- both databases


def test_text_postgresql_would_refuse_is_refused_on_both(any_url: str) -> None:
    store = TableStore(any_url)
    try:
        with pytest.raises(StoreError, match="at most 40"):
            store.create_table(_row(), [_seat("x" * 41)])
        with pytest.raises(StoreError, match="NUL"):
            store.create_table(_row(), [_seat("A\x00nn")])
        with pytest.raises(StoreError, match="Unicode"):
            store.create_table(_row(), [_seat("\ud800")])
        assert store.load_table("t1") is None             # nothing half-written
        store.create_table(_row(), [_seat("安妮")])
        with pytest.raises(StoreError, match="at most 40"):
            store.save_seat("t1", _seat("y" * 41))
        assert store.load_table("t1").seats[0].name == "安妮"    # type: ignore[union-attr]
        # ids come from URLs: a NUL finds nothing (PostgreSQL would raise an error)
        assert store.load_table("t\x00") is None and store.load_events("t\x00") == []
    finally:
        store.close()


@pytest.mark.parametrize("seed", [0, 2**63 - 1, 2**63, 2**64 - 1])
def test_seeds_round_trip_as_text(any_url: str, seed: int) -> None:
    store = TableStore(any_url)
    try:
        store.create_table(_row(seed=seed), [])
        assert store.load_table("t1").seed == seed          # type: ignore[union-attr]
        with store.engine.connect() as conn:
            raw = conn.execute(sa.select(game_tables.c.seed)).scalar_one()
        assert raw == str(seed)
    finally:
        store.close()


def test_a_newer_schema_is_refused_before_anything_is_created(any_url: str) -> None:
    store = TableStore(any_url)
    with store.engine.begin() as conn:
        conn.execute(schema_version.insert().values(version=SCHEMA_VERSION + 1))
        conn.execute(sa.text("DROP TABLE events"))        # as a newer schema might have
    store.close()
    with pytest.raises(StoreError, match="newer"):
        TableStore(any_url)
    engine = sa.create_engine(database_url(any_url), poolclass=NullPool)
    try:
        assert not sa.inspect(engine).has_table("events")
    finally:
        engine.dispose()


def test_duplicate_event_numbers_are_refused_and_the_store_goes_on(any_url: str) -> None:
    store = TableStore(any_url)
    try:
        store.create_table(_row(), [])
        store.append_events("t1", 1, [{"k": 1}, {"k": 2}])
        with pytest.raises(StoreError, match="another server"):
            store.append_events("t1", 2, [{"k": "again"}, {"k": 3}])
        with pytest.raises(StoreError, match="missing"):
            store.append_events("nosuchtable", 1, [{"k": 1}])
        # PostgreSQL aborts a transaction at its first error: the connection must have
        # been rolled back before going back to the pool.
        store.append_events("t1", 3, [{"k": 3}])
        assert store.load_events("t1") == [{"k": 1}, {"k": 2}, {"k": 3}]
    finally:
        store.close()


# ----------------------------------------------------------------- PostgreSQL


def test_migrate_creates_the_schema_and_a_second_migrate_changes_nothing(pg_url: str) -> None:
    store = TableStore(pg_url)
    store.create_table(_row(), [_seat()])
    insp = sa.inspect(store.engine)
    assert {"game_tables", "seats", "events", "schema_version"} <= set(insp.get_table_names())
    cols = {c["name"]: c for c in insp.get_columns("game_tables")}
    assert isinstance(cols["seed"]["type"], sa.String) and cols["seed"]["type"].length == 24
    assert isinstance(cols["quick"]["type"], sa.Boolean)
    assert isinstance(cols["created_at"]["type"], sa.Float)
    version_col = insp.get_columns("schema_version")[0]
    assert version_col["default"] is None              # not SERIAL: versions are written
    with store.engine.begin() as conn:
        assert migrate(conn) == SCHEMA_VERSION
    store.close()
    again = TableStore(pg_url)
    try:
        with again.engine.connect() as conn:
            versions = conn.execute(sa.select(schema_version.c.version)).scalars().all()
        assert versions == [SCHEMA_VERSION]
        assert again.load_table("t1").seats[0].name == "Ann"  # type: ignore[union-attr]
    finally:
        again.close()


def test_servers_starting_together_migrate_once(pg_url: str) -> None:
    ready = threading.Barrier(6)

    def open_store(_: int) -> TableStore:
        ready.wait()
        return TableStore(pg_url)

    with ThreadPoolExecutor(6) as pool:
        stores = list(pool.map(open_store, range(6)))
    try:
        with stores[0].engine.connect() as conn:
            versions = conn.execute(sa.select(schema_version.c.version)).scalars().all()
        assert versions == [SCHEMA_VERSION]
    finally:
        for s in stores:
            s.close()


def test_concurrent_event_inserts_keep_numbering(pg_url: str) -> None:
    """Writers race for the next number; the key lets exactly one win each time, and each
    batch is stored whole and in one piece."""
    store = TableStore(pg_url)
    store.create_table(_row(), [])
    writers, batches = 6, 12
    start_line = threading.Barrier(writers)
    refused = [0] * writers

    def write(w: int) -> None:
        start_line.wait()
        done = 0
        while done < batches:
            first = len(store.load_events("t1")) + 1
            try:
                store.append_events("t1", first, [{"w": w, "b": done, "part": p}
                                                  for p in range(3)])
            except StoreError:
                refused[w] += 1
                continue
            done += 1

    try:
        with ThreadPoolExecutor(writers) as pool:
            list(pool.map(write, range(writers)))
        evs = store.load_events("t1")           # a gap would raise StoreError
        assert len(evs) == writers * batches * 3
        chunks = [evs[i:i + 3] for i in range(0, len(evs), 3)]
        assert all([e["part"] for e in c] == [0, 1, 2] and len({(e["w"], e["b"]) for e in c})
                   == 1 for c in chunks)
        assert sorted((c[0]["w"], c[0]["b"]) for c in chunks) == [
            (w, b) for w in range(writers) for b in range(batches)]
        for w in range(writers):                # each writer's batches in its own order
            assert [c[0]["b"] for c in chunks if c[0]["w"] == w] == list(range(batches))
    finally:
        store.close()


def test_a_big_seed_match_restarts_mid_hand_identically_and_its_record_checks(
        make_client: Any) -> None:
    c = make_client()
    assert c.app.state.store.engine.dialect.name == "postgresql"
    t = create_table(c, seed=BIG_SEED, ai=["rabbit", "hedgehog", "fox"])
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    held = play_to(ann, into_second_hand(c, tid, 30), limit=20_000)   # then hold one
    before = table_state(c, tid)
    seen = ann.last_n
    make_client.shutdown(c)

    c2 = make_client()
    assert c2.get(f"/api/tables/{tid}").json()["status"] == "playing"
    assert table_state(c2, tid) == before
    assert c2.app.state.lobby.tables[tid].seed == BIG_SEED
    ann2 = Player(c2, tid, t["token"], last_seen=seen)
    req = ann2.until("request")
    assert (req["n"], req["legal"], req["view"]) == (held["n"], held["legal"], held["view"])
    ann2.send({"type": "action", "id": req["id"], "action": choose(req["legal"], req["view"])})
    ann2.play()
    end = ann2.log[-1]
    assert end["type"] == "match-end"
    r = c2.get(f"/api/tables/{tid}/record")
    assert r.status_code == 200
    rec = loads_record(r.text)
    assert check_record(rec).ok
    assert list(rec.header["scores"]) == end["scores"]
    assert c2.get(f"/api/tables/{tid}").json()["status"] == "finished"


def test_ids_postgresql_cannot_hold_are_not_found(make_client: Any) -> None:
    c = make_client()
    assert c.get("/api/tables/%00").status_code == 404
    assert c.get("/api/tables/a%00b/record").status_code == 404
    with pytest.raises(WebSocketDisconnect) as exc:
        Player(c, "%00", "x")
    assert exc.value.code == 4404


def _web_suite() -> list[Any]:
    """Every test of the other tests/web files that needs no fixture but ``make_client``
    and ``db_url``: run again below on PostgreSQL, so the two databases cannot drift."""
    cases = []
    for path in sorted(Path(__file__).parent.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        module = importlib.import_module(path.stem)
        for name, fn in vars(module).items():
            if (not name.startswith("test_") or not inspect.isfunction(fn)
                    or fn.__module__ != module.__name__ or hasattr(fn, "pytestmark")):
                continue
            if set(inspect.signature(fn).parameters) <= {"make_client", "db_url"}:
                cases.append(pytest.param(fn, id=f"{path.stem}.{name}"))
    return cases


@pytest.mark.parametrize("case", _web_suite())
def test_the_web_suite_passes_on_postgresql(case: Callable[..., None], db_url: str,
                                            request: pytest.FixtureRequest) -> None:
    names = inspect.signature(case).parameters
    case(**{n: request.getfixturevalue(n) for n in names})
