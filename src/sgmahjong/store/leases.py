"""Several servers on one database: who is alive, who plays which table, and the messages
they pass each other (SQLAlchemy Core; PostgreSQL in practice, since only it lets several
processes share a database and signal each other).

Each server keeps a row in ``peers`` whose ``expires_at`` it pushes on every second or so;
a server whose row has expired is dead. A table's lease (``table_leases``) names the server
that plays it; any server may take the lease of a table whose owner is dead, and every
change of owner adds one to the lease's ``epoch``. The owner writes events only while the
lease is still its own (:class:`FencedStore`), so a server that stalled past its expiry and
lost a table cannot write into the log its successor now extends.

Times are read from the database's clock, so servers on several machines agree on them;
tests may pass their own ``now``.

>>> from sgmahjong.store.db import TableStore, StoredTable
>>> store = TableStore("sqlite://")
>>> store.create_table(StoredTable("t1", "playing", {}, "casual", True, 7, True), [])
>>> leases = LeaseStore(store.engine, ttl=3.0, now=lambda: 100.0)
>>> leases.renew("a"), leases.renew("b")
(True, True)
>>> leases.claim("t1", "a"), leases.claim("t1", "b")
(1, None)
>>> leases.now = lambda: 104.0        # both rows expired: "a" is not coming back
>>> leases.renew("b")                 # "b" was taken for dead meanwhile
False
>>> leases.claim("t1", "b"), leases.owner("t1")
(2, ('b', 2, True))
"""

from __future__ import annotations

import errno
import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from sqlalchemy import (
    ColumnElement,
    Engine,
    and_,
    delete,
    func,
    insert,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .db import StoreError, TableStore, database_url
from .tables import (
    events,
    game_tables,
    peers,
    table_inbox,
    table_leases,
    table_outbox,
)

CHANNEL = "sgmahjong"
"""The PostgreSQL ``LISTEN``/``NOTIFY`` channel the servers signal each other on."""

LEASE_TTL = 2.5       # a server not heard of for this long is dead: its tables move
RENEW_EVERY = 1.0     # how often a server says it is alive (well inside the TTL)

class LostLease(StoreError):
    """This server no longer plays the table: another took it over."""


@dataclass(frozen=True)
class InboxRow:
    """A message for a table's owner: a socket attached or left, a client message, a call."""

    seq: int
    table_id: str
    peer: str
    conn: str
    kind: str
    payload: dict[str, Any]


class LeaseStore:
    """The servers' liveness rows, the tables' leases and the inbox and outbox."""

    def __init__(self, engine: Engine, ttl: float = LEASE_TTL,
                 now: Callable[[], float] | None = None) -> None:
        self.engine = engine
        self.ttl = ttl
        self.now = now

    # ------------------------------------------------------------ time

    def _now(self) -> ColumnElement[Any]:
        if self.now is not None:
            return literal(self.now())
        if self.engine.dialect.name == "postgresql":
            return func.extract("epoch", func.clock_timestamp())
        return (func.julianday("now") - 2440587.5) * 86400.0

    def _alive(self) -> Any:
        """The ids of the live servers (a subquery)."""
        return select(peers.c.id).where(peers.c.expires_at > self._now())

    # ------------------------------------------------------------ servers

    def renew(self, peer: str) -> bool:
        """Say ``peer`` is alive for another ``ttl`` seconds (its row made if missing).
        False if its row had expired: the others may have taken it for dead meanwhile
        (and dropped the sockets it relays)."""
        with self.engine.begin() as conn:
            until = self._now() + self.ttl
            was = conn.execute(select(peers.c.expires_at > self._now())
                               .where(peers.c.id == peer)).scalar_one_or_none()
            if was is None:
                conn.execute(insert(peers).values(id=peer, started_at=self._now(),
                                                  expires_at=until))
                return True
            conn.execute(update(peers).where(peers.c.id == peer).values(expires_at=until))
            return bool(was)

    def leave(self, peer: str) -> None:
        """A clean stop: the server's tables are free at once, not after the TTL."""
        with self.engine.begin() as conn:
            conn.execute(update(table_leases).where(table_leases.c.owner == peer)
                         .values(owner=None, epoch=table_leases.c.epoch + 1))
            conn.execute(delete(peers).where(peers.c.id == peer))
            conn.execute(delete(table_outbox).where(table_outbox.c.peer == peer))

    def live_peers(self) -> set[str]:
        with self.engine.connect() as conn:
            return set(conn.execute(self._alive()).scalars())

    def forget_dead(self, older_than: float = 60.0) -> None:
        """Drop long-dead servers and what was queued for them."""
        with self.engine.begin() as conn:
            dead = select(peers.c.id).where(peers.c.expires_at < self._now() - older_than)
            conn.execute(delete(table_outbox).where(table_outbox.c.peer.in_(dead)))
            conn.execute(delete(peers).where(peers.c.id.in_(dead)))

    # ------------------------------------------------------------ leases

    def claim(self, table_id: str, peer: str) -> int | None:
        """Take the table's lease for ``peer`` if nobody alive holds it; the lease's epoch
        if ``peer`` holds it now, else None."""
        try:
            with self.engine.begin() as conn:
                row = conn.execute(select(table_leases.c.owner, table_leases.c.epoch)
                                   .where(table_leases.c.table_id == table_id)).first()
                if row is None:
                    conn.execute(insert(table_leases).values(table_id=table_id, owner=peer,
                                                             epoch=1))
                    return 1
                if row.owner == peer:
                    return int(row.epoch)
                free = or_(table_leases.c.owner.is_(None),
                           table_leases.c.owner.not_in(self._alive()))
                # the old owner and epoch in the WHERE: of two servers trying at once,
                # one changes the row and the other finds it changed
                done = conn.execute(
                    update(table_leases)
                    .where(table_leases.c.table_id == table_id,
                           table_leases.c.epoch == row.epoch, free)
                    .values(owner=peer, epoch=row.epoch + 1)).rowcount
                return int(row.epoch) + 1 if done else None
        except IntegrityError:        # another server made the row first, or no table
            return None

    def owner(self, table_id: str) -> tuple[str | None, int, bool] | None:
        """(owner, epoch, whether the owner is alive), or None for a table never leased."""
        with self.engine.connect() as conn:
            row = conn.execute(select(table_leases.c.owner, table_leases.c.epoch)
                               .where(table_leases.c.table_id == table_id)).first()
            if row is None:
                return None
            alive = row.owner is not None and row.owner in set(
                conn.execute(self._alive()).scalars())
            return row.owner, int(row.epoch), alive

    def epochs(self, table_ids: Iterable[str]) -> dict[str, int]:
        """The current lease epoch of each of these tables that has a lease."""
        ids = list(table_ids)
        if not ids:
            return {}
        with self.engine.connect() as conn:
            return {r.table_id: int(r.epoch) for r in conn.execute(
                select(table_leases.c.table_id, table_leases.c.epoch)
                .where(table_leases.c.table_id.in_(ids)))}

    def held(self, peer: str) -> dict[str, int]:
        """The tables ``peer`` holds, with their epochs."""
        with self.engine.connect() as conn:
            return {r.table_id: int(r.epoch) for r in conn.execute(
                select(table_leases.c.table_id, table_leases.c.epoch)
                .where(table_leases.c.owner == peer))}

    def orphans(self, grace: float = 10.0, limit: int = 100) -> list[str]:
        """Unfinished tables no live server plays: their owner died or left, or (made more
        than ``grace`` seconds ago) they were never leased."""
        lease = table_leases
        q = (select(game_tables.c.id)
             .select_from(game_tables.outerjoin(lease, lease.c.table_id == game_tables.c.id))
             .where(game_tables.c.status.in_(["waiting", "playing"]),
                    or_(and_(lease.c.table_id.is_(None),
                             game_tables.c.created_at < self._now() - grace),
                        and_(lease.c.table_id.is_not(None), lease.c.owner.is_(None)),
                        # (NULL NOT IN an empty set is true: hence the first test)
                        and_(lease.c.owner.is_not(None),
                             lease.c.owner.not_in(self._alive()))))
             .order_by(game_tables.c.created_at).limit(limit))
        with self.engine.connect() as conn:
            return list(conn.execute(q).scalars())

    # ------------------------------------------------------------ messages

    def notify(self, conn: Connection, payload: str) -> None:
        """Signal every server (on PostgreSQL: delivered when the transaction commits)."""
        if conn.dialect.name == "postgresql":
            conn.execute(select(func.pg_notify(CHANNEL, payload)))

    def put_inbox(self, table_id: str, peer: str, conn_id: str, kind: str,
                  payload: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(table_inbox).values(
                table_id=table_id, peer=peer, conn=conn_id, kind=kind,
                payload=json.dumps(payload, separators=(",", ":"))))
            self.notify(conn, f"i:{table_id}")

    def take_inbox(self, table_ids: Sequence[str], after: int = 0) -> list[InboxRow]:
        """The messages waiting for these tables (oldest first), left in the inbox until
        :meth:`done`."""
        if not table_ids:
            return []
        with self.engine.connect() as conn:
            rows = conn.execute(select(table_inbox)
                                .where(table_inbox.c.table_id.in_(list(table_ids)),
                                       table_inbox.c.seq > after)
                                .order_by(table_inbox.c.seq)).all()
        return [InboxRow(int(r.seq), r.table_id, r.peer, r.conn, r.kind, json.loads(r.payload))
                for r in rows]

    def done(self, seqs: Sequence[int]) -> None:
        """Remove handled messages from the inbox."""
        with self.engine.begin() as conn:
            conn.execute(delete(table_inbox).where(table_inbox.c.seq.in_(list(seqs))))

    def put_outbox(self, rows: Sequence[tuple[str, str, dict[str, Any]]]) -> None:
        """Queue (server, socket, message) rows and signal each server concerned."""
        if not rows:
            return
        with self.engine.begin() as conn:
            conn.execute(insert(table_outbox), [
                {"peer": p, "conn": c, "payload": json.dumps(m, separators=(",", ":"),
                                                            ensure_ascii=False)}
                for p, c, m in rows])
            for p in sorted({p for p, _c, _m in rows}):
                self.notify(conn, f"o:{p}")

    def take_outbox(self, peer: str) -> list[tuple[str, dict[str, Any]]]:
        """Remove and return what is queued for ``peer``: (socket, message), in order."""
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                rows = conn.execute(delete(table_outbox).where(table_outbox.c.peer == peer)
                                    .returning(table_outbox.c.seq, table_outbox.c.conn,
                                               table_outbox.c.payload)).all()
            else:
                rows = conn.execute(select(table_outbox.c.seq, table_outbox.c.conn,
                                           table_outbox.c.payload)
                                    .where(table_outbox.c.peer == peer)).all()
                conn.execute(delete(table_outbox).where(
                    table_outbox.c.seq.in_([r.seq for r in rows])))
        return [(r.conn, json.loads(r.payload)) for r in sorted(rows, key=lambda r: r.seq)]

    def signal(self, payload: str) -> None:
        with self.engine.begin() as conn:
            self.notify(conn, payload)


class FencedStore(TableStore):
    """A :class:`TableStore` whose event writes succeed only while ``peer`` holds the
    table's lease, and which removes the relayed message being answered (see
    ``answering``) in the same transaction. It shares ``store``'s database connections
    (closing either closes both); everything else is the store's own."""

    def __init__(self, store: TableStore, peer: str) -> None:
        # the same database, already migrated: not opened (and migrated) a second time
        self.url = store.url
        self.engine = store.engine
        self.version = store.version
        self.peer = peer

    def append_events(self, table_id: str, first: int, payloads: Sequence[dict[str, Any]],
                      answering: tuple[str, int] | None = None) -> None:
        """Store the events while this server holds the lease, and remove the relayed
        message ``answering`` (table, inbox seq) that made them in the same transaction,
        so a server that dies in between has either done both or neither."""
        if not payloads:
            return
        try:
            with self.engine.begin() as conn:
                held = conn.execute(update(table_leases)
                                    .where(table_leases.c.table_id == table_id,
                                           table_leases.c.owner == self.peer)
                                    .values(owner=self.peer)).rowcount
                if not held:
                    raise LostLease(f"table {table_id}: another server plays it now")
                conn.execute(insert(events), [
                    {"table_id": table_id, "n": first + i, "payload": json.dumps(p)}
                    for i, p in enumerate(payloads)])
                conn.execute(update(game_tables).where(game_tables.c.id == table_id)
                             .values(updated_at=time.time()))
                if answering is not None and answering[0] == table_id:
                    conn.execute(delete(table_inbox).where(table_inbox.c.seq == answering[1]))
        except IntegrityError:
            raise StoreError(f"table {table_id}: events {first}-{first + len(payloads) - 1} "
                             "were not stored: those numbers are taken") from None


# ---------------------------------------------------------------- one process on SQLite

class SingleServerLock:
    """An exclusive lock beside a SQLite database file, held while one server uses it: a
    second ``serve`` on the same file is refused instead of playing the same tables."""

    def __init__(self, url: str) -> None:
        parsed = database_url(url)
        path = parsed.database or ""
        self.path: Path | None = None
        self._file: TextIO | None = None
        if parsed.get_backend_name() != "sqlite" or not path or path == ":memory:":
            return
        self.path = Path(path).expanduser().resolve().with_name(Path(path).name + ".lock")

    def acquire(self) -> None:
        """Take the lock, or raise a :class:`StoreError` saying who holds it."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        f = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held open while serving
        try:
            _lock_file(f)
        except OSError as exc:
            f.seek(0)
            holder = f.read().strip() or "another process"
            f.close()
            if exc.errno not in (errno.EACCES, errno.EAGAIN, errno.EWOULDBLOCK, None):
                raise StoreError(f"cannot lock {self.path}: {exc.strerror}") from None
            raise StoreError(
                f"the database {self.path.with_suffix('')} is already served by "
                f"{holder}: a SQLite database serves one process. Stop that server, or "
                "run every server on one PostgreSQL database (--database-url "
                "postgresql://...)") from None
        f.seek(0)
        f.truncate()
        f.write(f"sgmahjong serve (process {os.getpid()})\n")
        f.flush()
        self._file = f

    def release(self) -> None:
        if self._file is not None:
            self._file.close()      # closing drops the lock
            self._file = None


def _lock_file(f: TextIO) -> None:
    try:
        import fcntl
    except ImportError:          # Windows
        import msvcrt

        msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
        return
    fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def postgres_dsn(url: str) -> str:
    """The libpq connection string of a SQLAlchemy PostgreSQL URL (for ``LISTEN``)."""
    parsed = database_url(url).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


def is_postgres(url: str) -> bool:
    return database_url(url).get_backend_name() == "postgresql"


__all__ = ["CHANNEL", "LEASE_TTL", "RENEW_EVERY", "FencedStore", "InboxRow",
           "LeaseStore", "LostLease", "SingleServerLock", "is_postgres", "postgres_dsn"]
