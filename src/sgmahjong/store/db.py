"""The web tables' storage: create, seat, log events and load tables through SQLAlchemy Core.

The numbered event log is the source of truth: a table is rebuilt by replaying it through
the engine. Works on SQLite (the default file in the data directory) and PostgreSQL.

>>> s = TableStore("sqlite://")
>>> s.create_table(StoredTable("t1", "waiting", {"name": "x"}, "casual", True, 7, True, {}),
...                [StoredSeat(0, "Ann", "human", "owl", "ab" * 32)])
>>> s.append_events("t1", 1, [{"type": "hand-drawn", "reason": "wall"}])
>>> s.load_events("t1")
[{'type': 'hand-drawn', 'reason': 'wall'}]
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.pool import StaticPool

from ..errors import SgmahjongError
from .progress import data_dir
from .tables import SCHEMA_VERSION, events, game_tables, metadata, schema_version, seats

ENV_DATABASE_URL = "SGMAHJONG_DATABASE_URL"
DB_FILE = "web.sqlite3"


class StoreError(SgmahjongError):
    """The database cannot be used: a newer schema, a missing table, a broken log."""


def default_database_url() -> str:
    """``$SGMAHJONG_DATABASE_URL``, else a SQLite file in the data directory."""
    url = os.environ.get(ENV_DATABASE_URL)
    if url:
        return url
    return f"sqlite:///{data_dir() / DB_FILE}"


@dataclass
class StoredSeat:
    """One seat's row: player 0-3, name, ``human``/``ai``/``open``, level, token hash."""

    player: int
    name: str
    kind: str
    level: str
    token_hash: str | None = None


@dataclass
class StoredTable:
    """One table's row (the rules as ``Ruleset.to_dict()``)."""

    id: str
    status: str
    rules: dict[str, Any]
    preset: str
    quick: bool
    seed: int
    hints: bool
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[StoredSeat] = field(default_factory=list)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    try:
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
    except Exception:  # a read-only or unusual database: keep its defaults
        pass
    cur.close()


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine; a SQLite file's folder is created on first use."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        kw: dict[str, Any] = {"connect_args": {"check_same_thread": False}}
        if path and path != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        else:
            kw["poolclass"] = StaticPool
        engine = create_engine(url, **kw)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def migrate(conn: Connection) -> int:
    """Create the schema or bring it up to :data:`SCHEMA_VERSION`; returns the version."""
    metadata.create_all(conn, checkfirst=True)
    found = conn.execute(select(func.max(schema_version.c.version))).scalar()
    if found is None:
        conn.execute(insert(schema_version).values(version=SCHEMA_VERSION))
        return SCHEMA_VERSION
    if found > SCHEMA_VERSION:
        raise StoreError(f"the database has schema version {found}, newer than this "
                         f"sgmahjong's {SCHEMA_VERSION}: upgrade sgmahjong")
    for version in range(found + 1, SCHEMA_VERSION + 1):
        _STEPS[version](conn)
        conn.execute(insert(schema_version).values(version=version))
    return SCHEMA_VERSION


# version -> the step that upgrades the previous version to it (none yet beyond 1)
_STEPS: dict[int, Any] = {}


class TableStore:
    """The tables, their seats and their numbered event logs in one database."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_database_url()
        self.engine = make_engine(self.url)
        with self.engine.begin() as conn:
            self.version = migrate(conn)

    def close(self) -> None:
        self.engine.dispose()

    # ---------------------------------------------------------------- writes

    def create_table(self, table: StoredTable, seat_rows: Sequence[StoredSeat]) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(game_tables).values(
                id=table.id, created_at=now, updated_at=now, status=table.status,
                rules=json.dumps(table.rules), preset=table.preset, quick=table.quick,
                seed=str(table.seed), hints=table.hints, options=json.dumps(table.options)))
            for s in seat_rows:
                conn.execute(insert(seats).values(
                    table_id=table.id, player=s.player, name=s.name, kind=s.kind,
                    level=s.level, token_hash=s.token_hash))

    def save_seat(self, table_id: str, seat: StoredSeat) -> None:
        """Insert or update one seat's row."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(seats).where(seats.c.table_id == table_id,
                                    seats.c.player == seat.player)
                .values(name=seat.name, kind=seat.kind, level=seat.level,
                        token_hash=seat.token_hash)).rowcount
            if not done:
                conn.execute(insert(seats).values(
                    table_id=table_id, player=seat.player, name=seat.name, kind=seat.kind,
                    level=seat.level, token_hash=seat.token_hash))

    def set_status(self, table_id: str, status: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(game_tables).where(game_tables.c.id == table_id)
                         .values(status=status, updated_at=time.time()))

    def append_events(self, table_id: str, first: int,
                      payloads: Sequence[dict[str, Any]]) -> None:
        """Store events numbered ``first``, ``first + 1`` ... in one transaction (a number
        already taken is an integrity error: the log is append-only)."""
        if not payloads:
            return
        with self.engine.begin() as conn:
            conn.execute(insert(events), [
                {"table_id": table_id, "n": first + i, "payload": json.dumps(p)}
                for i, p in enumerate(payloads)])
            conn.execute(update(game_tables).where(game_tables.c.id == table_id)
                         .values(updated_at=time.time()))

    # ---------------------------------------------------------------- reads

    def load_table(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(game_tables).where(game_tables.c.id == table_id)).first()
            if row is None:
                return None
            seat_rows = conn.execute(select(seats).where(seats.c.table_id == table_id)
                                     .order_by(seats.c.player)).all()
        return StoredTable(
            row.id, row.status, json.loads(row.rules), row.preset, bool(row.quick),
            int(row.seed), bool(row.hints), json.loads(row.options or "{}"),
            [StoredSeat(s.player, s.name, s.kind, s.level, s.token_hash) for s in seat_rows])

    def load_events(self, table_id: str) -> list[dict[str, Any]]:
        """The table's events in order; a gap in the numbering is a :class:`StoreError`."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(events.c.n, events.c.payload)
                                .where(events.c.table_id == table_id)
                                .order_by(events.c.n)).all()
        out = []
        for i, (n, payload) in enumerate(rows, start=1):
            if n != i:
                raise StoreError(f"table {table_id}: event {i} is missing from the log")
            out.append(json.loads(payload))
        return out

    def table_ids(self, status: Sequence[str] = ("waiting", "playing")) -> list[str]:
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(
                select(game_tables.c.id).where(game_tables.c.status.in_(list(status)))
                .order_by(game_tables.c.created_at))]


__all__ = ["DB_FILE", "ENV_DATABASE_URL", "StoreError", "StoredSeat", "StoredTable",
           "TableStore", "default_database_url", "make_engine", "migrate"]
