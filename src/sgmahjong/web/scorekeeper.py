"""The scorekeeper for a real table: ``POST /api/score`` and the hand calculator page.

The request and the answer are those of ``sgmahjong score --json``
(:mod:`sgmahjong.scoring.request`); the body may add the rules: ``rules`` (a preset's
name) or ``house_rules`` (a house-rule file's TOML text, read by the rules loader), and
``detail`` for what the calculator page shows beyond the scorer's answer (the cap, each
payment line, the winner's instant payouts).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from importlib import resources
from typing import TypedDict

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.concurrency import run_in_threadpool

from ..errors import SgmahjongError
from ..game.codec import JSON
from ..game.payouts import bonus_payouts, kong_payout
from ..game.wall import KIND
from ..inputs import MAX_REQUEST_BYTES, InputError, decode, parse_json, parse_toml
from ..render.svg import sprite_sheet
from ..rules.loading import PRESETS, load_rules, rules_from_dict
from ..rules.model import Ruleset
from ..scoring.request import RequestError, ScoredWin, answer, score_win
from ..store.db import TableStore
from ..tiles import Seat, Tile
from .config import WebConfig

MAX_BODY = MAX_REQUEST_BYTES
"""The largest request body read (a hand is a few hundred bytes)."""
MAX_HOUSE_RULES = 16 * 1024
"""The largest house-rule file accepted (the presets are 2-3 KB)."""

EXTRA_FIELDS = ("rules", "house_rules", "detail", "bonus_dealt", "ledger")


class BadInput(SgmahjongError):
    """A request the server refuses with a 4xx and this message."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


ERROR_CODES = {400: "bad-request", 403: "forbidden", 404: "not-found", 409: "conflict",
               413: "too-large"}
"""The ``error`` code of each status the scorekeeper's API answers (5xx: ``server``)."""


def failure(message: str, status: int) -> JSONResponse:
    """An error answer: ``{"error": code of the status, "message": what is wrong}``."""
    code = ERROR_CODES.get(status, "server" if status >= 500 else "bad-request")
    return JSONResponse({"error": code, "message": message}, status_code=status)


def refuse(exc: SgmahjongError) -> JSONResponse:
    return failure(str(exc), exc.status if isinstance(exc, BadInput) else 400)


async def read_json(request: Request) -> object:
    """The request body as JSON (any JSON value: the caller checks its shape), refusing an
    oversized or malformed one by name (the app's guard has already checked both; this
    holds for the router on its own too)."""
    size = request.headers.get("content-length")
    if size is not None and size.isascii() and size.isdigit() and int(size) > MAX_BODY:
        raise BadInput(f"the request body is too large: at most {MAX_BODY} bytes", 413)
    chunks: list[bytes] = []
    total = 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY:
            raise BadInput(f"the request body is too large: at most {MAX_BODY} bytes", 413)
        chunks.append(chunk)
    try:
        return parse_json(decode(b"".join(chunks), "the request body"), "the request body")
    except InputError as exc:
        raise BadInput(str(exc)) from None


def house_rules(text: object, name: str = "house rules") -> Ruleset:
    """A house-rule file's text read as the loader reads a file (a preset, ``extends``
    default standard, overridden field by field), refused by name when it is wrong."""
    if not isinstance(text, str):
        raise BadInput("field 'house_rules' must be the text of a TOML rule file")
    if len(text.encode("utf-8")) > MAX_HOUSE_RULES:
        raise BadInput(f"field 'house_rules' is too large: at most {MAX_HOUSE_RULES} bytes",
                       413)
    try:
        data = parse_toml(text, "field 'house_rules'")
    except InputError as exc:
        raise BadInput(str(exc)) from None
    data.setdefault("extends", "standard")
    data.setdefault("name", name)
    try:
        return rules_from_dict(data, "field 'house_rules'")
    except SgmahjongError as exc:
        raise BadInput(str(exc)) from None


def pick_rules(body: Mapping[str, object]) -> Ruleset:
    """The rules a body names: ``house_rules`` text, else the ``rules`` preset (standard)."""
    if body.get("house_rules") is not None:
        if body.get("rules") is not None:
            raise BadInput("give either 'rules' (a preset) or 'house_rules' (a TOML file's "
                           "text), not both")
        return house_rules(body["house_rules"])
    name = body.get("rules", "standard")
    if name is None:
        name = "standard"
    if not isinstance(name, str) or name not in PRESETS:
        raise BadInput(f"field 'rules': unknown preset {str(name)[:40]!r}; choose from "
                       f"{', '.join(PRESETS)} (or send a rule file as 'house_rules')")
    return rules_from_dict({"extends": name, "name": name}, f"preset {name}")


class InstantPayoutLine(TypedDict):
    seat: str                   # the seat's letter, as the scorer's answer names seats
    reason: str
    amount: int
    payments: dict[str, int]    # what each seat (by letter) pays (-) or gets (+)


def instant_payouts(scored: ScoredWin, dealt: bool) -> list[InstantPayoutLine]:
    """The instant payouts the winner's shown hand earned (the engine's own functions):
    each kong and each bonus pair or set. ``dealt``: the bonus tiles were exposed during
    the deal (a pair then pays the higher amount)."""
    rules, seat, hand = scored.rules, scored.ctx.seat, scored.hand
    found = []
    for m in hand.melds:
        if m.is_kong:
            found += kong_payout(rules, seat, "concealed" if m.is_concealed else "claimed")
    ids = [KIND.index(t) for t in hand.bonus]
    found += bonus_payouts(rules, seat, ids, frozenset(), frozenset(ids) if dealt else frozenset())
    return [{"seat": p.seat.letter, "reason": p.reason, "amount": p.amount,
             "payments": {s.letter: p.deltas[s] for s in Seat}} for p in found]


def detail(scored: ScoredWin, dealt: bool) -> JSON:
    """What the calculator shows beyond the scorer's answer."""
    s = scored.rules.scoring
    lines = [{"payer": ln.payer.letter if ln.payer is not None else None,
              "payee": ln.payee.letter, "amount": ln.amount, "why": ln.why}
             for ln in scored.settlement.lines]
    instant = instant_payouts(scored, dealt)
    total = dict(scored.settlement.as_dict())
    for p in instant:
        for k, v in p["payments"].items():
            total[k] += v
    return {"cap": s.tai_cap, "min_tai": s.minimum_tai, "counts_tai": s.counts_tai,
            "scheme": scored.rules.payments.scheme, "bao": bool(scored.rules.bao.cases),
            "lines": lines, "instant": instant, "total": total}


def score_body(body: object,
               ledger_rules: Callable[[str], Ruleset] | None = None) -> JSON:
    """``POST /api/score``: the scorer's answer for a request body (with ``detail`` extras);
    ``ledger_rules`` finds the rules of the ledger a ``ledger`` field names by its link."""
    if not isinstance(body, dict):
        raise BadInput("the request must be a JSON object")
    if body.get("ledger") is not None and ledger_rules is not None:
        if not isinstance(body["ledger"], str):
            raise BadInput("field 'ledger' must be a ledger's link token")
        if body.get("rules") is not None or body.get("house_rules") is not None:
            raise BadInput("a ledger's hand is scored by the ledger's rules: leave out "
                           "'rules' and 'house_rules'")
        rules = ledger_rules(body["ledger"])
    else:
        rules = pick_rules(body)
    request = {k: v for k, v in body.items() if k not in EXTRA_FIELDS}
    want_detail = body.get("detail", False)
    dealt = body.get("bonus_dealt", False)
    for key, value in (("detail", want_detail), ("bonus_dealt", dealt)):
        if not isinstance(value, bool):
            raise BadInput(f"field {key!r} must be true or false")
    try:
        scored = score_win(request, rules)
    except RequestError as exc:
        raise BadInput(str(exc)) from None
    except SgmahjongError as exc:
        raise BadInput(str(exc)) from None
    out = answer(scored)
    if want_detail:
        out["detail"] = detail(scored, dealt)
    return out


def _page(name: str) -> str:
    html = resources.files("sgmahjong.web").joinpath(f"static/{name}").read_text("utf-8")
    return html.replace("<!--SPRITES-->", sprite_sheet())


def router(store: TableStore, config: WebConfig | None = None) -> APIRouter:
    """The scorekeeper's routes, for ``app.include_router``; ledgers live in ``store``'s
    database."""
    from . import ledgers  # it builds on this module's helpers

    r = APIRouter()
    r.include_router(ledgers.router(store, _page, config or WebConfig()))

    cfg = config or WebConfig()

    def ledger_rules(token: str) -> Ruleset:
        stored = ledgers.LedgerStore(store).load(token,
                                                 time.time() - cfg.limits.ledger_expiry)
        if stored is None:
            raise BadInput("field 'ledger': no ledger has this link", 404)
        return rules_from_dict(stored.data["rules"], "the ledger's rules")

    @r.post("/api/score", response_model=None)
    async def score(request: Request) -> JSON | JSONResponse:
        try:
            # house rules to read, a ledger to look up, a hand to score: not on the loop
            return await run_in_threadpool(score_body, await read_json(request),
                                           ledger_rules)
        except SgmahjongError as exc:
            return refuse(exc)

    calculator = _page("score.html")

    @r.get("/score", response_class=HTMLResponse)
    async def score_page() -> HTMLResponse:
        return HTMLResponse(calculator)

    @r.get("/api/score/options", response_model=None)
    async def options() -> JSON:
        presets = {name: {"bao": bool(rs.bao.cases), "instant": rs.instant.enabled,
                          "tai": rs.scoring.counts_tai}
                   for name in PRESETS for rs in [load_rules(name)]}
        return {"presets": presets, "default": "standard",
                "max_house_rules": MAX_HOUSE_RULES,
                "tiles": [{"id": t.text, "name": t.english} for t in Tile]}

    return r


__all__ = ["ERROR_CODES", "MAX_BODY", "MAX_HOUSE_RULES", "BadInput", "failure", "house_rules",
           "pick_rules", "router", "score_body"]
