"""The evening's ledger over HTTP: open one, add, edit and delete hands, watch, export.

A ledger has two links: the view token (``/ledger/<view>``) shows it and follows it live;
the edit token (``/ledger/<edit>``) also changes it. The page polls
``GET /api/ledgers/<token>?since=<revision>``, which answers ``{"unchanged": true}`` while
nothing has changed. The ledger logic is :mod:`sgmahjong.ledger`'s, shared with
``sgmahjong ledger``.
"""

from __future__ import annotations

import csv
import io
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from sqlalchemy import Connection
from starlette.concurrency import run_in_threadpool

from ..errors import SgmahjongError
from ..game.codec import JSON
from ..ledger import HandNotFound, Ledger, LedgerError
from ..rules.model import Ruleset
from ..store.db import StoreError, TableStore
from ..store.ledgers import LedgerConflict, LedgerStore, StoredLedger, new_tokens
from ..store.requests import Claim, RequestLog
from .config import WebConfig
from .limits import DAY, CreateWindow
from .once import Stored, answer_bytes, once
from .scorekeeper import BadInput, failure, pick_rules, read_json, refuse

NEW_FIELDS = ("names", "rules", "house_rules", "stake")
CONFLICT_TRIES = 5
JSON_TYPE = "application/json"
KEPT_LEDGERS = 64
"""Ledgers kept read, by (view token, revision): a viewer polling an unchanged ledger, or
an editor's next change, does not read the stored hands again."""
R = TypeVar("R")


def _fail(message: str, status: int) -> JSONResponse:
    return failure(message, status)


def download(stored: StoredLedger, ext: str) -> dict[str, str]:
    """The export's headers: a file name of plain letters and digits from the view token
    (a token may start with '-' or hold '_', which make a poor file name)."""
    clean = "".join(c for c in stored.id if c.isascii() and c.isalnum())[:8]
    return {"Content-Disposition": f'attachment; filename="ledger-{clean}.{ext}"'}


def ledger_view(stored: StoredLedger, led: Ledger, base: str) -> JSON:
    out = led.summary()
    out.update(revision=stored.revision, can_edit=stored.can_edit, view=stored.id,
               view_url=f"{base}/ledger/{stored.id}")
    return out


class ReadLedgers:
    """The last :data:`KEPT_LEDGERS` ledgers read, by (view token, revision); a revision
    is never written twice, so a kept ledger is the stored one. Used from worker
    threads."""

    def __init__(self, size: int = KEPT_LEDGERS) -> None:
        self.size = size
        self.kept: OrderedDict[tuple[str, int], Ledger] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, stored: StoredLedger) -> Ledger:
        key = (stored.id, stored.revision)
        with self.lock:
            led = self.kept.get(key)
            if led is not None:
                self.kept.move_to_end(key)
                return led
        led = Ledger.from_dict(stored.data)
        self.put(stored.id, stored.revision, led)
        return led

    def put(self, ledger_id: str, revision: int, led: Ledger) -> None:
        with self.lock:
            self.kept[(ledger_id, revision)] = led
            self.kept.move_to_end((ledger_id, revision))
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)


def router(store: TableStore, page: Callable[[str], str], config: WebConfig) -> APIRouter:
    r = APIRouter()
    db = LedgerStore(store)
    opened = CreateWindow(config.limits, config.limits.ledgers_per_client)
    requests = RequestLog(store)
    html = page("ledger.html")
    read = ReadLedgers()
    expiry = config.limits.ledger_expiry
    gone = (f"no ledger has this link (a ledger unchanged for {expiry / DAY:g} days is "
            "deleted)")
    next_sweep = [config.clock.now()]

    def changed_since() -> float:
        """The oldest last change of a ledger still kept (calendar time: a ledger outlives
        the process)."""
        return time.time() - expiry

    def sweep_due() -> bool:
        """Whether a new ledger should first delete the expired ones (at most once per
        ``sweep_every``: ledgers accumulate only as they are opened)."""
        now = config.clock.now()
        if now < next_sweep[0]:
            return False
        next_sweep[0] = now + config.limits.sweep_every
        return True

    # Every function below that reads or writes the database or works out a ledger runs
    # in a worker thread (run_in_threadpool): a 500-hand ledger must not hold the event
    # loop, and with it every other request and table, while it is read.

    def open_ledger(token: str, *, edit: bool = False) -> tuple[StoredLedger, Ledger]:
        stored = db.load(token, changed_since())
        if stored is None:
            raise BadInput(gone, 404)
        if edit and not stored.can_edit:
            raise BadInput("this is the ledger's view link: it cannot change the ledger "
                           "(use the edit link)", 403)
        return stored, read.get(stored)

    def change(token: str, how: Callable[[Ledger], Ledger], base: str, claim: Claim | None,
               status: int = 200) -> Response | Stored:
        """Apply ``how`` to the ledger and store it, with the request's answer.

        Each change names what it changes (a hand by its id), so one made while another
        editor's change landed is simply made again on the new revision."""
        for _ in range(CONFLICT_TRIES):
            stored, led = open_ledger(token, edit=True)
            new = how(led)
            if new == led:      # a hand restored twice: nothing to store
                return Response(answer_bytes(ledger_view(stored, led, base)), status,
                                media_type=JSON_TYPE)
            data = new.to_dict()
            body = answer_bytes(ledger_view(StoredLedger(stored.id, stored.revision + 1,
                                                         data, True), new, base))

            def with_answer(conn: Connection, body: bytes = body) -> None:
                if claim is not None:
                    requests.finish(claim, status, body, conn)
            try:
                db.save(stored.id, stored.revision, data, within=with_answer)
            except LedgerConflict:
                continue
            read.put(stored.id, stored.revision + 1, new)
            response = Response(body, status, media_type=JSON_TYPE)
            return response if claim is None else Stored(response)
        raise LedgerConflict("the ledger is being changed by others at this moment: "
                             "try again")

    async def guarded(fn: Callable[[], Awaitable[R]]) -> R | JSONResponse:
        try:
            return await fn()
        except LedgerConflict as exc:
            return _fail(str(exc), 409)
        except StoreError as exc:
            return _fail(f"the ledger could not be stored: {exc}", 503)
        except HandNotFound as exc:
            return refuse(BadInput(str(exc), 404))
        except SgmahjongError as exc:
            return refuse(exc)

    def mutate(request: Request, work: Callable[[Claim | None], Awaitable[Response | Stored]]
               ) -> Awaitable[Response]:
        async def run(claim: Claim | None) -> Response | Stored:
            return await guarded(lambda: work(claim))
        return once(request, requests, run)

    @r.get("/ledger", response_class=HTMLResponse)
    async def new_page() -> HTMLResponse:
        return HTMLResponse(html)

    @r.get("/ledger/{token}", response_class=HTMLResponse)
    async def ledger_page(token: str) -> HTMLResponse:
        return HTMLResponse(html)

    @r.post("/api/ledgers", status_code=201, response_model=None)
    async def create(request: Request) -> Response:
        client = request.client.host if request.client is not None else "unknown"

        def new_ledger(body: object) -> Ledger:
            if not isinstance(body, dict):
                raise BadInput("the request must be a JSON object")
            unknown = [k for k in body if k not in NEW_FIELDS]
            if unknown:
                raise BadInput(f"unknown field {unknown[0]!r}; fields are "
                               f"{', '.join(NEW_FIELDS)}")
            rules: Ruleset = pick_rules(body)
            try:
                return Ledger.new(body.get("names"), rules, body.get("stake"))
            except LedgerError as exc:
                raise BadInput(str(exc)) from None

        async def work(claim: Claim | None) -> Response | Stored:
            led = await run_in_threadpool(new_ledger, await read_json(request))
            wait = opened.wait(client, config.clock.now())
            if wait:
                return JSONResponse(
                    {"error": "too-many-ledgers", "message": "this address has opened "
                     f"{opened.per_client} ledgers lately: try again in "
                     f"{math.ceil(wait / 60)} min"}, status_code=429,
                    headers={"Retry-After": str(math.ceil(wait))})
            view, edit = new_tokens()
            base = _base(request)
            sweep = sweep_due()

            def store_it() -> bytes:
                if sweep:
                    db.expire(changed_since())
                stored = StoredLedger(view, 1, led.to_dict(), True)
                answer = answer_bytes({"view": view, "edit": edit,
                                       "view_url": f"{base}/ledger/{view}",
                                       "edit_url": f"{base}/ledger/{edit}",
                                       "ledger": ledger_view(stored, led, base)})

                def with_answer(conn: Connection) -> None:
                    if claim is not None:
                        requests.finish(claim, 201, answer, conn)
                db.create(stored.data, (view, edit), with_answer)
                read.put(view, 1, led)
                return answer
            response = Response(await run_in_threadpool(store_it), 201, media_type=JSON_TYPE)
            return response if claim is None else Stored(response)
        return await mutate(request, work)

    @r.get("/api/ledgers/{token}", response_model=None)
    async def show(token: str, request: Request, since: str | None = None) -> Response:
        def look() -> Response:
            rev = None if since is None else _whole(since, "since")
            stored = db.load(token, changed_since())
            if stored is None:
                raise BadInput(gone, 404)
            if stored.revision == rev:
                out: JSON = {"revision": rev, "unchanged": True}
            else:
                out = ledger_view(stored, read.get(stored), _base(request))
            # made here, in the worker thread: FastAPI would encode a returned dict of a
            # 500-hand ledger on the event loop
            return Response(answer_bytes(out), media_type=JSON_TYPE)

        async def run() -> Response:
            return await run_in_threadpool(look)
        return await guarded(run)

    async def entry_of(request: Request) -> JSON:
        body = await read_json(request)
        if not isinstance(body, dict):
            raise BadInput("a hand must be a JSON object")
        return body

    @r.post("/api/ledgers/{token}/hands", status_code=201, response_model=None)
    async def add(token: str, request: Request) -> Response:
        async def work(claim: Claim | None) -> Response | Stored:
            entry = await entry_of(request)
            return await run_in_threadpool(change, token, lambda led: led.add(entry),
                                           _base(request), claim, 201)
        return await mutate(request, work)

    @r.put("/api/ledgers/{token}/hands/{hand_id}", response_model=None)
    async def edit(token: str, hand_id: str, request: Request) -> Response:
        async def work(claim: Claim | None) -> Response | Stored:
            entry = await entry_of(request)
            return await run_in_threadpool(
                change, token, lambda led: led.edit(led.index_of(_hand(hand_id)), entry),
                _base(request), claim)
        return await mutate(request, work)

    @r.delete("/api/ledgers/{token}/hands/{hand_id}", response_model=None)
    async def delete(token: str, hand_id: str, request: Request) -> Response:
        async def work(claim: Claim | None) -> Response | Stored:
            return await run_in_threadpool(
                change, token, lambda led: led.delete(led.index_of(_hand(hand_id))),
                _base(request), claim)
        return await mutate(request, work)

    @r.post("/api/ledgers/{token}/hands/{hand_id}/restore", response_model=None)
    async def restore(token: str, hand_id: str, request: Request) -> Response:
        async def work(claim: Claim | None) -> Response | Stored:
            return await run_in_threadpool(
                change, token, lambda led: led.restore(_hand(hand_id)), _base(request),
                claim)
        return await mutate(request, work)

    @r.get("/api/ledgers/{token}/export.json", response_model=None)
    async def export_json(token: str) -> Response:
        def export() -> Response:
            stored, led = open_ledger(token)
            return PlainTextResponse(led.dumps(), media_type="application/json",
                                     headers=download(stored, "json"))

        async def run() -> Response:
            return await run_in_threadpool(export)
        return await guarded(run)

    @r.get("/api/ledgers/{token}/export.csv", response_model=None)
    async def export_csv(token: str) -> Response:
        def export() -> Response:
            stored, led = open_ledger(token)
            out = io.StringIO()
            csv.writer(out).writerows(led.csv_rows())
            return PlainTextResponse(out.getvalue(), media_type="text/csv",
                                     headers=download(stored, "csv"))

        async def run() -> Response:
            return await run_in_threadpool(export)
        return await guarded(run)

    return r


def _hand(text: str) -> str:
    """A hand's id from the URL: hands are addressed by id, never by position."""
    if text.isascii() and text.isdigit():
        raise BadInput(f"hands are named by their id (like \"h3\": each hand's \"id\" in "
                       f"the ledger), not by their position {text[:9]!r}")
    if not (text[:1] == "h" and text[1:].isascii() and text[1:].isdigit()
            and 2 <= len(text) <= 10):
        raise BadInput(f"a hand's id is \"h\" and a number, like \"h3\", not {text[:20]!r}")
    return text


def _whole(text: str, what: str) -> int:
    """A whole number from the URL (FastAPI's own 422 would not say it in words)."""
    # isdigit alone takes "²" and other digits int() refuses
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise BadInput(f"the {what} must be a whole number 0 or more, not {text[:20]!r}")
    return int(text)


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


__all__ = ["router"]
