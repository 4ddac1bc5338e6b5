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
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response

from ..errors import SgmahjongError
from ..ledger import Ledger, LedgerError
from ..rules.model import Ruleset
from ..store.db import StoreError, TableStore
from ..store.ledgers import LedgerConflict, LedgerStore, StoredLedger
from .scorekeeper import BadInput, pick_rules, read_json, refuse

NEW_FIELDS = ("names", "rules", "house_rules", "stake")


def _fail(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": "bad-request" if status < 500 else "server",
                         "message": message}, status_code=status)


def ledger_view(stored: StoredLedger, led: Ledger, base: str) -> dict[str, Any]:
    out = led.summary()
    out.update(revision=stored.revision, can_edit=stored.can_edit, view=stored.id,
               view_url=f"{base}/ledger/{stored.id}")
    return out


def router(store: TableStore, page: Callable[[str], str]) -> APIRouter:
    r = APIRouter()
    db = LedgerStore(store)
    html = page("ledger.html")

    def open_ledger(token: str, *, edit: bool = False) -> tuple[StoredLedger, Ledger]:
        stored = db.load(token)
        if stored is None:
            raise BadInput("no ledger has this link", 404)
        if edit and not stored.can_edit:
            raise BadInput("this is the ledger's view link: it cannot change the ledger "
                           "(use the edit link)", 403)
        return stored, Ledger.from_dict(stored.data)

    def write(stored: StoredLedger, led: Ledger, request: Request) -> dict[str, Any]:
        rev = db.save(stored.id, stored.revision, led.to_dict())
        fresh = StoredLedger(stored.id, rev, led.to_dict(), True)
        return ledger_view(fresh, led, _base(request))

    async def guarded(fn: Callable[[], Any]) -> Any:
        try:
            return await fn()
        except LedgerConflict as exc:
            return _fail(str(exc), 409)
        except StoreError as exc:
            return _fail(f"the ledger could not be stored: {exc}", 503)
        except SgmahjongError as exc:
            return refuse(exc)

    @r.get("/ledger", response_class=HTMLResponse)
    async def new_page() -> HTMLResponse:
        return HTMLResponse(html)

    @r.get("/ledger/{token}", response_class=HTMLResponse)
    async def ledger_page(token: str) -> HTMLResponse:
        return HTMLResponse(html)

    @r.post("/api/ledgers", status_code=201, response_model=None)
    async def create(request: Request) -> Any:
        async def run() -> dict[str, Any]:
            body = await read_json(request)
            if not isinstance(body, dict):
                raise BadInput("the request must be a JSON object")
            unknown = [k for k in body if k not in NEW_FIELDS]
            if unknown:
                raise BadInput(f"unknown field {unknown[0]!r}; fields are "
                               f"{', '.join(NEW_FIELDS)}")
            rules: Ruleset = pick_rules(body)
            try:
                led = Ledger.new(body.get("names"), rules, body.get("stake"))
            except LedgerError as exc:
                raise BadInput(str(exc)) from None
            view, edit = db.create(led.to_dict())
            base = _base(request)
            stored = StoredLedger(view, 1, led.to_dict(), True)
            return {"view": view, "edit": edit, "view_url": f"{base}/ledger/{view}",
                    "edit_url": f"{base}/ledger/{edit}",
                    "ledger": ledger_view(stored, led, base)}
        return await guarded(run)

    @r.get("/api/ledgers/{token}", response_model=None)
    async def show(token: str, request: Request, since: str | None = None) -> Any:
        async def run() -> dict[str, Any]:
            if since is not None:
                rev = _whole(since, "since")
                stored = db.load(token)
                if stored is None:
                    raise BadInput("no ledger has this link", 404)
                if stored.revision == rev:
                    return {"revision": rev, "unchanged": True}
            stored, led = open_ledger(token)
            return ledger_view(stored, led, _base(request))
        return await guarded(run)

    async def entry_of(request: Request) -> Any:
        body = await read_json(request)
        if not isinstance(body, dict):
            raise BadInput("a hand must be a JSON object")
        return body

    @r.post("/api/ledgers/{token}/hands", status_code=201, response_model=None)
    async def add(token: str, request: Request) -> Any:
        async def run() -> dict[str, Any]:
            stored, led = open_ledger(token, edit=True)
            entry = await entry_of(request)
            return write(stored, led.add(entry), request)
        return await guarded(run)

    @r.put("/api/ledgers/{token}/hands/{index}", response_model=None)
    async def edit(token: str, index: str, request: Request) -> Any:
        async def run() -> dict[str, Any]:
            stored, led = open_ledger(token, edit=True)
            entry = await entry_of(request)
            return write(stored, led.edit(_whole(index, "hand"), entry), request)
        return await guarded(run)

    @r.delete("/api/ledgers/{token}/hands/{index}", response_model=None)
    async def delete(token: str, index: str, request: Request) -> Any:
        async def run() -> dict[str, Any]:
            stored, led = open_ledger(token, edit=True)
            return write(stored, led.delete(_whole(index, "hand")), request)
        return await guarded(run)

    @r.get("/api/ledgers/{token}/export.json", response_model=None)
    async def export_json(token: str) -> Any:
        async def run() -> Response:
            stored, led = open_ledger(token)
            return PlainTextResponse(led.dumps(), media_type="application/json", headers={
                "Content-Disposition": f"attachment; filename=ledger-{stored.id[:8]}.json"})
        return await guarded(run)

    @r.get("/api/ledgers/{token}/export.csv", response_model=None)
    async def export_csv(token: str) -> Any:
        async def run() -> Response:
            stored, led = open_ledger(token)
            out = io.StringIO()
            csv.writer(out).writerows(led.csv_rows())
            return PlainTextResponse(out.getvalue(), media_type="text/csv", headers={
                "Content-Disposition": f"attachment; filename=ledger-{stored.id[:8]}.csv"})
        return await guarded(run)

    return r


def _whole(text: str, what: str) -> int:
    """A whole number from the URL (FastAPI's own 422 would not say it in words)."""
    # isdigit alone takes "²" and other digits int() refuses
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise BadInput(f"the {what} must be a whole number 0 or more, not {text[:20]!r}")
    return int(text)


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


__all__ = ["router"]
