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

from sqlalchemy import (
    Engine,
    Table,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, NoSuchModuleError
from sqlalchemy.pool import StaticPool

from ..errors import SgmahjongError
from .progress import data_dir
from .tables import (
    SCHEMA_VERSION,
    events,
    game_tables,
    ledgers,
    metadata,
    peers,
    requests_done,
    schema_version,
    seats,
    table_inbox,
    table_leases,
    table_outbox,
)

ENV_DATABASE_URL = "SGMAHJONG_DATABASE_URL"
DB_FILE = "web.sqlite3"
POSTGRES_EXTRA = "sgmahjong[postgres]"
# Any fixed 64-bit number: servers starting together on one PostgreSQL database queue on it.
_MIGRATE_LOCK = 0x5367_6D61_686A_6F6E


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


def database_url(url: str) -> URL:
    """``url`` parsed; a plain ``postgresql://`` (or ``postgres://``) URL means psycopg 3,
    so a URL as PostgreSQL's own tools write it works.

    >>> database_url("postgresql://ann@db/mahjong").drivername
    'postgresql+psycopg'
    """
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise StoreError("cannot read the database URL: expected e.g. sqlite:///path/web.db "
                         "or postgresql://user@host/dbname") from None
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine; a SQLite file's folder is created on first use."""
    parsed = database_url(url)
    if parsed.get_backend_name() == "sqlite":
        path = parsed.database or ""
        kw: dict[str, Any] = {"connect_args": {"check_same_thread": False}}
        if path and path != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        else:
            kw["poolclass"] = StaticPool
        engine = create_engine(parsed, **kw)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    try:
        return create_engine(parsed, pool_pre_ping=True)
    except NoSuchModuleError:
        raise StoreError(f"unknown kind of database {parsed.drivername!r}: use "
                         "sqlite:///path or postgresql://user@host/dbname") from None
    except ImportError as exc:
        hint = (f"pip install \"{POSTGRES_EXTRA}\"" if parsed.get_backend_name() == "postgresql"
                else f"install the Python module {exc.name!r}")
        raise StoreError(f"the database driver for {parsed.drivername} is not installed: "
                         f"{hint}") from None


def migrate(conn: Connection) -> int:
    """Create the schema or bring it up to :data:`SCHEMA_VERSION`; returns the version."""
    if conn.dialect.name == "postgresql":
        # Held to the end of the transaction: a second server starting at the same time
        # waits, then finds the schema made, instead of failing on "already exists".
        conn.execute(select(func.pg_advisory_xact_lock(_MIGRATE_LOCK)))
    found = None
    if inspect(conn).has_table(schema_version.name):
        found = conn.execute(select(func.max(schema_version.c.version))).scalar()
    # Refused before any table is created: SQLite commits DDL at once, so a newer
    # schema would otherwise gain this version's tables beside its own.
    if found is not None and found > SCHEMA_VERSION:
        raise StoreError(f"the database has schema version {found}, newer than this "
                         f"sgmahjong's {SCHEMA_VERSION}: upgrade sgmahjong")
    metadata.create_all(conn, checkfirst=True)
    if found is None:
        conn.execute(insert(schema_version).values(version=SCHEMA_VERSION))
        return SCHEMA_VERSION
    for version in range(found + 1, SCHEMA_VERSION + 1):
        _STEPS[version](conn)
        conn.execute(insert(schema_version).values(version=version))
    return SCHEMA_VERSION


# version -> the step that upgrades the previous version to it
_STEPS: dict[int, Any] = {
    2: lambda conn: ledgers.create(conn, checkfirst=True),   # the scorekeeper's ledgers
    3: lambda conn: [t.create(conn, checkfirst=True)               # several servers
                     for t in (peers, table_leases, table_inbox, table_outbox)],
    4: lambda conn: requests_done.create(conn, checkfirst=True),   # idempotency keys
}


def _fit(table: Table, values: dict[str, Any]) -> dict[str, Any]:
    """``values``, refused with a :class:`StoreError` if the column cannot hold them.

    PostgreSQL refuses text longer than its column and NUL characters, which SQLite
    stores silently; checking here makes both databases behave alike.
    """
    for key, value in values.items():
        if not isinstance(value, str):
            continue
        limit = getattr(table.c[key].type, "length", None)
        if limit is not None and len(value) > limit:
            raise StoreError(f"{table.name}.{key} holds at most {limit} characters, "
                             f"not {len(value)}")
        if "\x00" in value:
            raise StoreError(f"{table.name}.{key} cannot hold a NUL character")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise StoreError(f"{table.name}.{key} is not valid Unicode text") from None
    return values


def _plausible_id(table_id: str) -> bool:
    """Whether a table could have this id. Ids come from URLs, and PostgreSQL raises an
    error on a NUL where SQLite just finds nothing."""
    return len(table_id) <= (game_tables.c.id.type.length or 0) and table_id.isprintable()


class TableStore:
    """The tables, their seats and their numbered event logs in one database."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_database_url()
        self.engine = make_engine(self.url)
        try:
            with self.engine.begin() as conn:
                self.version = migrate(conn)
        except DBAPIError as exc:
            self.engine.dispose()
            shown = database_url(self.url).render_as_string(hide_password=True)
            reason = (str(exc.orig).strip() or type(exc.orig).__name__).splitlines()[0]
            raise StoreError(f"cannot open the database {shown}: {reason}") from None
        except BaseException:
            self.engine.dispose()
            raise

    def close(self) -> None:
        self.engine.dispose()

    # ---------------------------------------------------------------- writes

    def create_table(self, table: StoredTable, seat_rows: Sequence[StoredSeat]) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(game_tables).values(_fit(game_tables, dict(
                id=table.id, created_at=now, updated_at=now, status=table.status,
                rules=json.dumps(table.rules), preset=table.preset, quick=bool(table.quick),
                seed=str(table.seed), hints=bool(table.hints),
                options=json.dumps(table.options)))))
            for s in seat_rows:
                conn.execute(insert(seats).values(_fit(seats, dict(
                    table_id=table.id, player=s.player, name=s.name, kind=s.kind,
                    level=s.level, token_hash=s.token_hash))))

    def save_seat(self, table_id: str, seat: StoredSeat) -> None:
        """Insert or update one seat's row."""
        values = _fit(seats, {"name": seat.name, "kind": seat.kind, "level": seat.level,
                              "token_hash": seat.token_hash})
        # Update, then insert, rather than ON CONFLICT, whose spelling differs between
        # SQLite and PostgreSQL: one server writes a table's seats, one at a time.
        with self.engine.begin() as conn:
            done = conn.execute(
                update(seats).where(seats.c.table_id == table_id,
                                    seats.c.player == seat.player)
                .values(values)).rowcount
            if not done:
                conn.execute(insert(seats).values(table_id=table_id, player=seat.player,
                                                  **values))

    def set_status(self, table_id: str, status: str, *, was: str | None = None) -> bool:
        """Set a table's status; given ``was``, only if that is its status now (a table
        is expired only if nobody started it meanwhile). Whether a row changed."""
        stmt = update(game_tables).where(game_tables.c.id == table_id)
        if was is not None:
            stmt = stmt.where(game_tables.c.status == was)
        with self.engine.begin() as conn:
            changed = conn.execute(stmt.values(status=status, updated_at=time.time())).rowcount
        return bool(changed)

    def append_events(self, table_id: str, first: int, payloads: Sequence[dict[str, Any]],
                      answering: tuple[str, int] | None = None) -> None:
        """Store events numbered ``first``, ``first + 1`` ... in one transaction; a number
        already taken (the log is append-only) or a missing table is a :class:`StoreError`,
        and nothing is stored. ``answering`` (a relayed message's inbox row) matters only
        to a store shared by several servers."""
        if not payloads:
            return
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(events), [
                    {"table_id": table_id, "n": first + i, "payload": json.dumps(p)}
                    for i, p in enumerate(payloads)])
                conn.execute(update(game_tables).where(game_tables.c.id == table_id)
                             .values(updated_at=time.time()))
        except IntegrityError:
            raise StoreError(f"table {table_id}: events {first}-{first + len(payloads) - 1} "
                             "were not stored: the table is missing or those numbers are "
                             "taken (is another server playing this table?)") from None

    # ---------------------------------------------------------------- reads

    def load_table(self, table_id: str) -> StoredTable | None:
        if not _plausible_id(table_id):
            return None
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
        if not _plausible_id(table_id):
            return []
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
                .order_by(game_tables.c.created_at, game_tables.c.id))]


__all__ = ["DB_FILE", "ENV_DATABASE_URL", "POSTGRES_EXTRA", "StoreError", "StoredSeat",
           "StoredTable", "TableStore", "database_url", "default_database_url", "make_engine",
           "migrate"]
