"""The scorekeeper's ledgers in the web server's database: one row per ledger, its hands
as JSON (:meth:`sgmahjong.ledger.Ledger.to_dict`), a revision number that grows with each
change (viewers poll it) and two links: the view token is the row's id, the edit token is
kept only as a hash, like the seat tokens.

>>> from sgmahjong.store.db import TableStore
>>> s = LedgerStore(TableStore("sqlite://"))
>>> view, edit = s.create({"names": ["A", "B", "C", "D"]})
>>> s.load(edit).can_edit, s.load(view).can_edit, s.load(view).revision
(True, False, 1)
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from .db import StoreError, TableStore
from .tables import ledgers


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_tokens() -> tuple[str, str]:
    """A new ledger's (view token, edit token)."""
    return dashless(16), dashless(24)


def dashless(nbytes: int) -> str:
    """A URL-safe random token that does not start with "-": pasted into a command line
    (``sgmahjong ledger ... TOKEN``) it must not read as an option."""
    while True:
        token = secrets.token_urlsafe(nbytes)
        if not token.startswith("-"):
            return token


@dataclass(frozen=True)
class StoredLedger:
    id: str                 # the view token
    revision: int
    data: dict[str, Any]
    can_edit: bool          # found by its edit token


class LedgerConflict(StoreError):
    """The ledger changed since it was read (two editors at once): read it again."""


class LedgerStore:
    """Ledgers in a :class:`TableStore`'s database."""

    def __init__(self, store: TableStore) -> None:
        self.engine = store.engine

    def create(self, data: dict[str, Any], tokens: tuple[str, str] | None = None,
               within: Callable[[Connection], None] | None = None) -> tuple[str, str]:
        """Store a new ledger; returns (view token, edit token), made here unless given
        (:func:`new_tokens`). ``within`` runs in the same transaction (to store the
        request's answer with it)."""
        view, edit = tokens or new_tokens()
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(ledgers).values(
                id=view, edit_hash=token_hash(edit), created_at=now, updated_at=now,
                revision=1, data=json.dumps(data, ensure_ascii=False)))
            if within is not None:
                within(conn)
        return view, edit

    def load(self, token: str, changed_since: float | None = None) -> StoredLedger | None:
        """The ledger a view or edit token opens (None: no such ledger, or one not changed
        since ``changed_since``, which :meth:`expire` is about to delete)."""
        if not token or len(token) > 64 or not token.isprintable():
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(ledgers).where(ledgers.c.id == token)).first()
            can_edit = False
            if row is None:
                row = conn.execute(select(ledgers).where(
                    ledgers.c.edit_hash == token_hash(token))).first()
                can_edit = row is not None
        if row is None or (changed_since is not None and row.updated_at < changed_since):
            return None
        return StoredLedger(row.id, row.revision, json.loads(row.data), can_edit)

    def expire(self, before: float) -> int:
        """Delete the ledgers last changed before ``before`` (seconds since the epoch, as
        ``time.time()``); returns how many."""
        with self.engine.begin() as conn:
            return conn.execute(delete(ledgers).where(ledgers.c.updated_at < before)).rowcount

    def revision(self, ledger_id: str) -> int | None:
        with self.engine.connect() as conn:
            return conn.execute(select(ledgers.c.revision)
                                .where(ledgers.c.id == ledger_id)).scalar()

    def save(self, ledger_id: str, revision: int, data: dict[str, Any],
             within: Callable[[Connection], None] | None = None) -> int:
        """Write ``data`` over revision ``revision``; returns the new revision. A ledger
        changed in between is a :class:`LedgerConflict` and nothing is written.
        ``within`` runs in the same transaction, after the write."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(ledgers).where(ledgers.c.id == ledger_id,
                                      ledgers.c.revision == revision)
                .values(data=json.dumps(data, ensure_ascii=False), revision=revision + 1,
                        updated_at=time.time())).rowcount
            if done and within is not None:
                within(conn)
        if not done:
            raise LedgerConflict("the ledger was changed by someone else meanwhile: "
                                 "look again and repeat the change")
        return revision + 1


__all__ = ["LedgerConflict", "LedgerStore", "StoredLedger", "dashless", "new_tokens", "token_hash"]
