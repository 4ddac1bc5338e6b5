"""Every change a client asks for, carried out at most once: the ``Idempotency-Key`` header.

A mutating request may carry ``Idempotency-Key: <a random text the client made>``. The
first request with a key is carried out and its answer kept; a repeat with the same key
(a double tap, a retry after a lost answer, the same request on another server of the
same database) gets that answer again, with ``Idempotent-Replayed: true``, and changes
nothing. A repeat that arrives while the first is still being carried out waits for its
answer. The same key with another body is refused (422), as the IETF's
"The Idempotency-Key HTTP Header Field" draft describes. Only successful answers are
kept: a refused request changed nothing, so its repeat is simply tried again.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from ..store.db import StoreError
from ..store.requests import Busy, Claim, KeyReused, Replay, RequestLog

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
MAX_KEY = 100
WAIT_SECONDS = 10.0     # how long a repeat waits for the first copy's answer
POLL_SECONDS = 0.05



@dataclass(frozen=True)
class Stored:
    """An answer already stored with its change, in the change's own transaction."""

    response: Response


Run = Callable[[Claim | None], Awaitable[Response | Stored]]


def _refuse(code: str, message: str, status: int, retry: int | None = None) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status,
                        headers=None if retry is None else {"Retry-After": str(retry)})


def bad_key(key: str) -> str | None:
    """What is wrong with a client's key (None: nothing)."""
    if not key or len(key) > MAX_KEY or not all(33 <= ord(c) < 127 for c in key):
        return (f"the {HEADER} header must be 1-{MAX_KEY} visible ASCII characters, "
                "for instance a random UUID")
    return None


def json_answer(body: object, status: int = 200) -> JSONResponse:
    return JSONResponse(body, status_code=status)


async def once(request: Request, log: RequestLog, run: Run) -> Response:
    """Carry out ``run`` once per idempotency key of ``request`` (always, without a key).

    ``run`` gets the :class:`Claim` (None without a key): a handler that stores its change
    can store the answer in the same transaction (:meth:`RequestLog.finish` with ``conn``)
    and answer :class:`Stored`; otherwise its successful answer is stored here after it.
    """
    key = request.headers.get(HEADER)
    if key is None:
        out = await run(None)
        return out.response if isinstance(out, Stored) else out
    wrong = bad_key(key)
    if wrong is not None:
        return _refuse("bad-idempotency-key", wrong, 400)
    scope = f"{request.method} {request.url.path}"
    body = await request.body()
    waited = 0.0
    while True:
        try:
            outcome = await run_in_threadpool(log.claim, scope, key, body)
        except StoreError as exc:
            return _refuse("server", f"the request could not be recorded: {exc}", 503, 1)
        if isinstance(outcome, Replay):
            return Response(outcome.body, status_code=outcome.status,
                            media_type="application/json", headers={REPLAYED: "true"})
        if isinstance(outcome, KeyReused):
            return _refuse("idempotency-key-reused", f"this {HEADER} was already used for "
                           "another request: make a new key for each change", 422)
        if isinstance(outcome, Claim):
            break
        assert isinstance(outcome, Busy)
        if waited >= WAIT_SECONDS:
            return _refuse("in-progress", "the same request is still being carried out: "
                           "ask again in a moment", 409, 1)
        # A real wait on the request's own task (the event loop goes on): the other copy
        # is being carried out, by this server or another one of the same database.
        await asyncio.sleep(POLL_SECONDS)
        waited += POLL_SECONDS
    claim = outcome
    try:
        out = await run(claim)
    except BaseException:
        await run_in_threadpool(log.release, claim)
        raise
    if isinstance(out, Stored):
        return out.response
    if 200 <= out.status_code < 300:
        await run_in_threadpool(log.finish, claim, out.status_code, bytes(out.body))
    else:
        await run_in_threadpool(log.release, claim)
    return out


def answer_bytes(body: object) -> bytes:
    """``body`` as :class:`JSONResponse` renders it (to store it before it is sent)."""
    return json.dumps(body, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8")


__all__ = ["HEADER", "REPLAYED", "Stored", "answer_bytes", "bad_key", "json_answer", "once"]
