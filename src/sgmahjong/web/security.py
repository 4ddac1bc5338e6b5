"""Seat tokens (made, hashed, compared), the websocket Origin check and a per-connection rate limit.

>>> t = new_token()
>>> token_matches(t, hash_token(t)), token_matches("guess", hash_token(t))
(True, False)
>>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000")
True
>>> origin_allowed("https://evil.example", "127.0.0.1:8000")
False
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Iterable
from urllib.parse import urlsplit

TOKEN_BYTES = 24
NAME_MAX = 24


def new_token() -> str:
    """An unguessable seat token (192 bits, URL-safe text)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_table_id() -> str:
    """An unguessable table id: knowing it is what lets one join or watch the table."""
    return secrets.token_urlsafe(12)


def hash_token(token: str) -> str:
    """What the database keeps instead of the token (SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str | None, token_hash: str | None) -> bool:
    """Whether ``token`` is the one ``token_hash`` was made from (constant-time)."""
    if not token or not token_hash:
        return False
    return hmac.compare_digest(hash_token(token), token_hash)


def clean_name(name: object, fallback: str = "Player") -> str:
    """A display name: printable, trimmed, at most :data:`NAME_MAX` characters."""
    if not isinstance(name, str):
        return fallback
    text = "".join(c for c in name if c.isprintable()).strip()[:NAME_MAX].strip()
    return text or fallback


def origin_allowed(origin: str | None, host: str | None,
                   extra: Iterable[str] = ()) -> bool:
    """A browser's websocket is accepted only from a page of this host (or a listed
    origin). Clients without an Origin header (bots, tests) are not browsers: allowed."""
    if origin is None:
        return True
    if origin in extra:
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(host) and netloc.lower() == (host or "").lower()


class RateLimit:
    """A token bucket: ``burst`` messages at once, ``rate`` per second after that."""

    def __init__(self, rate: float = 10.0, burst: float = 30.0) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()
        self.refused = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False


__all__ = ["NAME_MAX", "RateLimit", "clean_name", "hash_token", "new_table_id", "new_token",
           "origin_allowed", "token_matches"]
