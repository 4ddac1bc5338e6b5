"""Requests carried out once: the answers to requests that carried an idempotency key.

A client that may send a request twice (a double tap, a retry after a lost answer) sends
the same key with each copy. The first copy *claims* the key; the others find the claim
and get the first copy's answer once it is stored, instead of doing the work again. A key
is scoped to the request's method and path and tied to its body: the same key with
another body is refused (:class:`KeyReused`).

Only hashes of the key and of the path are kept, and the answer is enciphered with a
stream drawn from the key, because an answer may hold a seat's or a ledger's token: the
database alone does not give them away. Answers are kept for :data:`KEEP_SECONDS`.

>>> from sgmahjong.store.db import TableStore
>>> log = RequestLog(TableStore("sqlite://"))
>>> first = log.claim("POST /api/ledgers", "k-1", b'{"names": []}')
>>> isinstance(first, Claim)
True
>>> log.finish(first, 201, b'{"view": "abc"}')
>>> log.claim("POST /api/ledgers", "k-1", b'{"names": []}')
Replay(status=201, body=b'{"view": "abc"}')
>>> type(log.claim("POST /api/ledgers", "k-1", b'{"names": ["A"]}')).__name__
'KeyReused'
"""

from __future__ import annotations

import base64
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from .db import TableStore
from .tables import requests_done

KEEP_SECONDS = 24 * 3600
"""How long an answer is kept for a repeat (a retry comes within seconds, a reload within
hours)."""
ABANDONED_SECONDS = 60.0
"""A claim this old with no answer was left by a server that stopped mid-request: the
next copy of the request may carry it out (nothing was stored for it, see
:meth:`RequestLog.finish`)."""
SWEEP_EVERY = 300.0


@dataclass(frozen=True)
class Claim:
    """This copy of the request is the one to carry it out."""

    scope: str
    key_hash: str
    key: str
    created_at: float


@dataclass(frozen=True)
class Replay:
    """The request was carried out before: its answer."""

    status: int
    body: bytes


@dataclass(frozen=True)
class Busy:
    """Another copy of the request is being carried out right now."""


@dataclass(frozen=True)
class KeyReused:
    """The key came with another request's body."""


Outcome = Claim | Replay | Busy | KeyReused


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _stream(key: str, length: int) -> bytes:
    return hashlib.shake_256(b"sgmahjong answer\x00" + key.encode()).digest(length)


def _seal(key: str, body: bytes) -> str:
    pad = _stream(key, len(body))
    return base64.b64encode(bytes(a ^ b for a, b in zip(body, pad, strict=True))).decode()


def _open(key: str, sealed: str) -> bytes:
    data = base64.b64decode(sealed)
    pad = _stream(key, len(data))
    return bytes(a ^ b for a, b in zip(data, pad, strict=True))


class RequestLog:
    """The answers of :data:`~sgmahjong.store.tables.requests_done` in a store's database."""

    def __init__(self, store: TableStore, clock: Callable[[], float] = time.time) -> None:
        self.engine = store.engine
        self.clock = clock
        self._swept = float("-inf")

    def claim(self, scope: str, key: str, body: bytes) -> Outcome:
        """Claim ``key`` for the request ``scope`` (method and path) with ``body``."""
        now = self.clock()
        self._sweep(now)
        scope_hash, key_hash, fingerprint = _sha(scope.encode()), _sha(key.encode()), _sha(body)
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(requests_done).values(
                    scope=scope_hash, key_hash=key_hash, fingerprint=fingerprint,
                    created_at=now, status=None, answer=None))
            return Claim(scope_hash, key_hash, key, now)
        except IntegrityError:
            pass
        with self.engine.begin() as conn:
            row = conn.execute(select(requests_done).where(
                requests_done.c.scope == scope_hash,
                requests_done.c.key_hash == key_hash)).first()
            if row is None:            # answered and swept, or released, in between
                return Busy()
            if row.fingerprint != fingerprint:
                return KeyReused()
            if row.status is not None:
                return Replay(row.status, _open(key, row.answer or ""))
            if now - row.created_at < ABANDONED_SECONDS:
                return Busy()
            # Taken over only if nobody else took it over first.
            taken = conn.execute(update(requests_done).where(
                requests_done.c.scope == scope_hash, requests_done.c.key_hash == key_hash,
                requests_done.c.status.is_(None),
                requests_done.c.created_at == row.created_at).values(created_at=now)).rowcount
        return Claim(scope_hash, key_hash, key, now) if taken else Busy()

    def finish(self, claim: Claim, status: int, body: bytes,
               conn: Connection | None = None) -> None:
        """Store the answer of a claimed request. Given ``conn``, inside that transaction,
        so that the change and its answer are stored together or not at all."""
        stmt = (update(requests_done)
                .where(requests_done.c.scope == claim.scope,
                       requests_done.c.key_hash == claim.key_hash)
                .values(status=status, answer=_seal(claim.key, body)))
        if conn is not None:
            conn.execute(stmt)
            return
        with self.engine.begin() as own:
            own.execute(stmt)

    def release(self, claim: Claim) -> None:
        """Give a claim up (the request failed and changed nothing): a repeat tries again."""
        with self.engine.begin() as conn:
            conn.execute(delete(requests_done).where(
                requests_done.c.scope == claim.scope, requests_done.c.key_hash == claim.key_hash,
                requests_done.c.status.is_(None)))

    def _sweep(self, now: float) -> None:
        if now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        with self.engine.begin() as conn:
            conn.execute(delete(requests_done).where(
                requests_done.c.created_at < now - KEEP_SECONDS))


__all__ = ["ABANDONED_SECONDS", "KEEP_SECONDS", "Busy", "Claim", "KeyReused", "Outcome",
           "Replay", "RequestLog"]
