"""The web tables' database schema (SQLAlchemy Core): tables, seats, numbered events, version.

One schema serves SQLite and PostgreSQL: only portable column types are used, seeds are
stored as text (they may not fit a signed 64-bit integer), JSON as text and times as
seconds since the epoch (no time zones to differ). PostgreSQL enforces the string lengths
that SQLite ignores; :mod:`sgmahjong.store.db` checks them for both.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

SCHEMA_VERSION = 4
"""The schema this sgmahjong writes; :func:`sgmahjong.store.db.migrate` brings older ones up."""

metadata = MetaData()

schema_version = Table(
    "schema_version", metadata,
    # Versions are written, never generated: without this PostgreSQL would make it SERIAL.
    Column("version", Integer, primary_key=True, autoincrement=False),
)

game_tables = Table(
    "game_tables", metadata,
    Column("id", String(40), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("status", String(16), nullable=False),          # waiting, playing, finished
    Column("rules", Text, nullable=False),                 # Ruleset.to_dict() as JSON
    Column("preset", String(40), nullable=False),
    Column("quick", Boolean, nullable=False),
    Column("seed", String(24), nullable=False),            # decimal text
    Column("hints", Boolean, nullable=False),
    Column("options", Text, nullable=False, default="{}"),  # JSON: other table options
)

seats = Table(
    "seats", metadata,
    Column("table_id", String(40), ForeignKey("game_tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("player", Integer, primary_key=True),           # match player 0-3
    Column("name", String(40), nullable=False),
    Column("kind", String(8), nullable=False),             # human, ai, open
    Column("level", String(32), nullable=False),           # the AI level (or stand-in)
    Column("token_hash", String(64), nullable=True),       # sha256 of the seat token
    UniqueConstraint("token_hash", name="uq_seats_token_hash"),
)

events = Table(
    "events", metadata,
    Column("table_id", String(40), ForeignKey("game_tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("n", Integer, primary_key=True),                # 1, 2, 3 ... per table
    Column("payload", Text, nullable=False),               # Event.to_json() as JSON
)

# Version 2: the scorekeeper's ledgers for real tables (sgmahjong.ledger), one row each.
ledgers = Table(
    "ledgers", metadata,
    Column("id", String(40), primary_key=True),            # the view token (read-only link)
    Column("edit_hash", String(64), nullable=False),       # sha256 of the edit token
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("revision", Integer, nullable=False),           # 1, 2, 3 ... one per change
    Column("data", Text, nullable=False),                  # Ledger.to_dict() as JSON
    UniqueConstraint("edit_hash", name="uq_ledgers_edit_hash"),
)

# Version 3: several servers on one PostgreSQL database (sgmahjong.web.peers). Each server
# keeps a row in ``peers`` alive; a table is played by the server its lease names, and the
# others pass their sockets' messages through ``table_inbox`` and get the owner's answers
# for them through ``table_outbox``. Unused (but present) on SQLite.
_SERIAL = BigInteger().with_variant(Integer, "sqlite")   # SQLite numbers only INTEGER keys

peers = Table(
    "peers", metadata,
    Column("id", String(32), primary_key=True),
    Column("started_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),           # the database's clock, epoch s
)

table_leases = Table(
    "table_leases", metadata,
    Column("table_id", String(40), ForeignKey("game_tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("owner", String(32), nullable=True),            # a peers.id; None: released
    Column("epoch", Integer, nullable=False),              # +1 at every change of owner
)

table_inbox = Table(
    "table_inbox", metadata,
    Column("seq", _SERIAL, primary_key=True, autoincrement=True),
    Column("table_id", String(40), ForeignKey("game_tables.id", ondelete="CASCADE"),
           nullable=False, index=True),
    Column("peer", String(32), nullable=False),            # the sending server
    Column("conn", String(64), nullable=False),            # its socket (or call) id
    Column("kind", String(16), nullable=False),            # attach, detach, msg, call
    Column("payload", Text, nullable=False),               # JSON
)

table_outbox = Table(
    "table_outbox", metadata,
    Column("seq", _SERIAL, primary_key=True, autoincrement=True),
    Column("peer", String(32), nullable=False, index=True),  # the receiving server
    Column("conn", String(64), nullable=False),
    Column("payload", Text, nullable=False),               # a server message as JSON
)

# Version 4: the answers to requests that carried an Idempotency-Key (sgmahjong.store.requests),
# so that a request the network delivers twice is carried out once. Neither the key nor
# the request's path (which may hold an edit token) is stored, only their hashes; the
# answer (which may hold a seat or edit token) is stored enciphered with the key.
requests_done = Table(
    "requests_done", metadata,
    Column("scope", String(64), primary_key=True),         # sha256 of method and path
    Column("key_hash", String(64), primary_key=True),      # sha256 of the client's key
    Column("fingerprint", String(64), nullable=False),     # sha256 of the request's body
    Column("created_at", Float, nullable=False, index=True),
    Column("status", Integer, nullable=True),              # None: still being carried out
    Column("answer", Text, nullable=True),                 # the answer's body, enciphered
)

__all__ = ["SCHEMA_VERSION", "events", "game_tables", "ledgers", "metadata", "peers",
           "requests_done", "schema_version", "seats", "table_inbox", "table_leases",
           "table_outbox"]
