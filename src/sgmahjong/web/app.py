"""The FastAPI app: the page, the lobby's REST calls and one websocket per seat or spectator."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from html import escape
from importlib import resources

from fastapi import FastAPI, Header, HTTPException, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..game.codec import JSON
from ..record import dumps_record
from ..render.svg import sprite_sheet
from ..rules.loading import PRESETS
from ..rules.model import Ruleset
from ..store.db import TableStore
from ..store.requests import Claim, RequestLog
from .config import WebConfig
from .guard import Guard
from .ladder import ladder_json
from .learn import router as learn_router
from .lobby import Lobby, TableOptions, default_ai
from .once import once
from .peers import PeerLobby
from .protocol import (
    MAX_MESSAGE,
    PROTOCOL,
)
from .replay import ReplayHand, ReplayIndex, replay_index, table_replay
from .runtime import TableError, level_names
from .scorekeeper import router as scorekeeper_router
from .sockets import WSConn, add_socket_route
from .tables import Table

log = logging.getLogger("sgmahjong.web")
CLOSE_SECONDS = 10.0     # a stopping server waits this long for its tables to close

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'; "
       "base-uri 'none'; form-action 'self'")
STATUS = {"full": 409, "started": 409, "not-creator": 403, "not-finished": 409,
          "busy": 503, "no-seed": 403, "mid-hand": 409, "finished": 409, "seat-taken": 409,
          "solo": 409, "too-many-tables": 429, "expired": 410, "name-taken": 409}


class CreateBody(BaseModel):
    name: str = Field("Host", max_length=100)
    rules: str = Field("casual", max_length=40)
    quick: bool = True
    # None: the rules' own default opponents (casual: the gentlest)
    ai: list[str] | None = Field(None, max_length=3, min_length=3)
    hints: bool = True
    seed: int | None = None
    ladder: str | None = Field(None, max_length=40)   # a practice-ladder rung id


class JoinBody(BaseModel):
    name: str = Field("Player", max_length=100)
    player: int | None = None    # which seat (1-3); the runtime refuses others with a reason


def _page() -> str:
    html = resources.files("sgmahjong.web").joinpath("static/index.html").read_text("utf-8")
    return html.replace("<!--SPRITES-->", sprite_sheet())


NOT_FOUND = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} - Singapore Mahjong</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/app.css">
<link rel="stylesheet" href="/static/replay.css">
</head>
<body>
<header class="bar"><a class="brand" href="/">Singapore Mahjong</a></header>
<main><section data-testid="not-found">
<h1>{title}</h1>
<p>{text}</p>
<p><a class="button" href="/" data-testid="back-to-lobby">Set up a table</a></p>
</section></main>
</body>
</html>
"""


def not_found_page(title: str, text: str) -> HTMLResponse:
    """A 404 a person can read, with the way back to the lobby."""
    return HTMLResponse(NOT_FOUND.format(title=escape(title), text=escape(text)),
                        status_code=404)


def _wants_html(request: Request) -> bool:
    """A browser opening a page (not a script calling the API)."""
    return (not request.url.path.startswith("/api/")
            and "text/html" in request.headers.get("accept", ""))


def create_app(config: WebConfig | None = None, store: TableStore | None = None) -> FastAPI:
    """The web app. ``store`` defaults to the database of ``config.database_url``."""
    cfg = config or WebConfig()
    own_store = store is None
    db = store or TableStore(cfg.database_url)
    lobby = PeerLobby(db, cfg) if cfg.shared else Lobby(db, cfg)
    requests = RequestLog(db)
    page = _page()

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await lobby.open()
        if cfg.resume_on_startup:
            await lobby.resume_all()
        lobby.start_sweeping()
        yield
        stuck = await lobby.close_within(CLOSE_SECONDS)
        app.state.stuck_at_close = stuck
        if stuck is not None:
            log.error("the tables had not closed %g s after the server was told to stop; "
                      "still running: %s", CLOSE_SECONDS, stuck)
        if own_store:
            db.close()

    app = FastAPI(title="sgmahjong", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.lobby = lobby
    app.state.stuck_at_close = None
    app.state.store = db
    app.state.config = cfg
    static = resources.files("sgmahjong.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.include_router(scorekeeper_router(db, cfg))

    async def table_rules(table_id: str) -> Ruleset | None:
        rt = await lobby.get(table_id)
        return None if rt is None else rt.rules

    app.include_router(learn_router(table_rules))

    @app.middleware("http")
    async def headers(request: Request,
                      call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response: Response = await call_next(request)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"   # no-referrer sends Origin: null
        response.headers["X-Frame-Options"] = "DENY"
        return response

    # added last, so it runs first: a foreign Host or a bad body never reaches a route
    app.add_middleware(Guard, config=cfg)

    async def table_or_404(table_id: str) -> Table:
        rt = await lobby.get(table_id)
        if rt is None:
            raise HTTPException(404, "no such table")
        return rt

    def refuse(exc: TableError) -> JSONResponse:
        wait = getattr(exc, "retry_after", None)
        return JSONResponse({"error": exc.code, "message": str(exc)},
                            status_code=STATUS.get(exc.code, 400),
                            headers=None if wait is None else {"Retry-After": str(wait)})

    @app.get("/", response_class=HTMLResponse)
    async def index() -> HTMLResponse:
        return HTMLResponse(page)

    async def page_of(table_id: str) -> HTMLResponse:
        if await lobby.get(table_id) is None:
            return not_found_page("No table here", "This invite link points to no table: it "
                                  "may be mistyped, or the table is gone.")
        return HTMLResponse(page)

    @app.get("/t/{table_id}", response_class=HTMLResponse)
    async def table_page(table_id: str) -> HTMLResponse:
        return await page_of(table_id)

    @app.get("/t/{table_id}/replay", response_class=HTMLResponse)
    async def replay_page(table_id: str) -> HTMLResponse:
        return await page_of(table_id)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        # a browser that opens a wrong address gets a page; the API keeps its JSON errors
        if exc.status_code == 404 and _wants_html(request):
            return not_found_page("Page not found", "There is no page at this address.")
        return await http_exception_handler(request, exc)

    @app.get("/api/options", response_model=None)
    async def options() -> JSON:
        return {"presets": list(PRESETS), "levels": level_names(),
                "default_ai": default_ai("casual"),
                "default_ai_by_rules": {p: default_ai(p) for p in PRESETS},
                "default_rules": "casual", "protocol": PROTOCOL, "max_message": MAX_MESSAGE,
                "allow_seed": cfg.allow_seed, "ladder": ladder_json()}

    @app.post("/api/tables", status_code=201, response_model=None)
    async def create(body: CreateBody, request: Request) -> Response:
        client = request.client.host if request.client is not None else "unknown"

        async def run(_claim: Claim | None) -> Response:
            try:
                rt, token = await lobby.create(TableOptions(
                    body.name, body.rules, body.quick, None if body.ai is None else
                    list(body.ai), body.hints, body.seed, ladder=body.ladder), client)
            except TableError as exc:
                return refuse(exc)
            return JSONResponse({"table_id": rt.id, "player": 0, "token": token,
                                 "invite": f"{str(request.base_url).rstrip('/')}/t/{rt.id}",
                                 "table": rt.info()}, status_code=201)
        return await once(request, requests, run)

    @app.get("/api/tables/{table_id}", response_model=None)
    async def table_info(table_id: str) -> JSON:
        return await (await table_or_404(table_id)).live_info()

    @app.post("/api/tables/{table_id}/join", response_model=None)
    async def join(table_id: str, body: JoinBody, request: Request) -> Response:
        rt = await table_or_404(table_id)

        async def run(_claim: Claim | None) -> Response:
            try:
                player, token = await lobby.join(rt, body.name, body.player)
            except TableError as exc:
                return refuse(exc)
            return JSONResponse({"table_id": rt.id, "player": player, "token": token,
                                 "table": await rt.live_info()})
        return await once(request, requests, run)

    @app.post("/api/tables/{table_id}/start", response_model=None)
    async def start(table_id: str, request: Request,
                    authorization: str | None = Header(None)) -> Response:
        rt = await table_or_404(table_id)
        token = (authorization or "").removeprefix("Bearer ").strip()
        player = rt.player_for(token)
        if player is None:
            return JSONResponse({"error": "bad-token", "message": "a seat token is needed "
                                 "(Authorization: Bearer <token>)"}, status_code=401)

        async def run(_claim: Claim | None) -> Response:
            try:
                await rt.start(player)
            except TableError as exc:
                return refuse(exc)
            return JSONResponse(await rt.live_info())
        return await once(request, requests, run)

    @app.get("/api/tables/{table_id}/record", response_model=None)
    async def record(table_id: str) -> Response:
        rt = await table_or_404(table_id)
        try:
            rec = rt.record()
        except TableError as exc:
            return refuse(exc)
        text = await run_in_threadpool(dumps_record, rec)
        return PlainTextResponse(text, media_type="application/jsonl",
                                 headers={"Content-Disposition": "attachment; filename="
                                          f"sgmahjong-{rt.id}.jsonl"})

    @app.get("/api/tables/{table_id}/replay", response_model=None)
    async def replay(table_id: str, hand: int | None = None
                     ) -> ReplayIndex | ReplayHand | JSONResponse:
        rt = await table_or_404(table_id)
        try:
            rec = rt.record()   # refuses an unfinished table: the record shows the walls
        except TableError as exc:
            return refuse(exc)
        # a whole match's steps take a tenth of a second to work out: not on the loop
        hands = await run_in_threadpool(table_replay, rt.id, rec, rt.names)
        if hand is None:
            return replay_index(hands, rt.names, rec)
        if not 0 <= hand < len(hands):
            return refuse(TableError("bad-hand", f"hand {hand} is not in this match: "
                                                 f"choose 0-{len(hands) - 1}"))
        return hands[hand]

    add_socket_route(app, lobby, cfg)

    return app


__all__ = ["WSConn", "create_app"]
