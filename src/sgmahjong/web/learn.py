"""The learning pages and the guided first hand on the web.

``/learn`` and ``/learn/<page>`` draw :mod:`sgmahjong.render.pages` as HTML (the same
text as the terminal's pages): for a preset (``?rules=garden``) or for a live table's own
rules (``?table=<id>``, the table's "Rules" button opens it in a new tab, so the game is
never left). ``/api/learn/<page>`` gives a page as JSON. ``/learn/lesson`` is the guided
first hand: the page plays :func:`sgmahjong.render.lesson.lesson_steps` (``/api/lesson``),
East's own view at each step and nothing of the other seats' tiles.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import cache
from html import escape
from importlib import resources
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse

from ..errors import SgmahjongError
from ..game.codec import JSON
from ..render.lesson import lesson_steps
from ..render.pages import (
    PAGE_TITLES,
    Block,
    Bullets,
    Heading,
    Page,
    Para,
    Table,
    TileCards,
    TileRow,
    chinese_columns,
    is_chinese,
    page,
    page_ids,
)
from ..render.svg import sprite_sheet
from ..rules.loading import DEFAULT_PRESET, PRESETS, load_rules
from ..rules.model import Ruleset

TableRules = Callable[[str], Awaitable[Ruleset | None]]
"""The rules of a live table by id (None: no such table)."""


class LearnError(SgmahjongError):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _tile(t: str, small: bool = False) -> str:
    cls = "tile small" if small else "tile"
    return (f'<svg class="{cls}" viewBox="0 0 60 80" role="img" data-tile="{escape(t)}">'
            f'<use href="#t-{escape(t)}"/></svg>')


def block_html(b: Block) -> str:
    """One block of a page as HTML (every text escaped)."""
    if isinstance(b, Heading):
        level = min(b.level, 4)
        return f"<h{level}>{escape(b.text)}</h{level}>"
    if isinstance(b, Para):
        return f"<p>{escape(b.text)}</p>"
    if isinstance(b, Bullets):
        return "<ul>" + "".join(f"<li>{escape(i)}</li>" for i in b.items) + "</ul>"
    if isinstance(b, Table):
        # a column of Chinese names is marked, so a device without a font for them can
        # leave it out (cjk.js) rather than show boxes
        zh = chinese_columns(b)
        mark = [' class="zh" lang="zh-Hant"' if i in zh else "" for i in range(len(b.headers))]
        head = "".join(f"<th{m}>{escape(h)}</th>" for h, m in zip(b.headers, mark, strict=True))
        rows = "".join("<tr>" + "".join(f"<td{m}>{escape(c)}</td>"
                                        for c, m in zip(r, mark, strict=True)) + "</tr>"
                       for r in b.rows)
        cap = f"<caption>{escape(b.caption)}</caption>" if b.caption else ""
        return f'<table class="learn-table">{cap}<thead><tr>{head}</tr></thead>' \
               f"<tbody>{rows}</tbody></table>"
    if isinstance(b, TileRow):
        groups = "".join('<span class="group">' + "".join(_tile(t) for t in g) + "</span>"
                         for g in b.groups)
        return (f'<figure class="tile-row" data-testid="tai-example"><div class="tiles">'
                f"{groups}</div><figcaption>{escape(b.caption)}</figcaption></figure>")
    if isinstance(b, TileCards):
        cards = "".join(
            f'<div class="card" data-testid="tile-card" data-tile="{escape(c.tile)}">'
            f"{_tile(c.tile)}<span class=\"en\">{escape(c.lines[0])}</span>"
            + "".join(f'<span class="more zh" lang="zh-Hant">{escape(x)}</span>'
                      if is_chinese(x) else f'<span class="more" lang="en">{escape(x)}</span>'
                      for x in c.lines[1:])
            + "</div>" for c in b.cards)
        return f'<div class="cards">{cards}</div>'
    raise TypeError(f"no HTML for {type(b).__name__}")


def page_html(p: Page, rules: Ruleset, query: str, table: str | None) -> str:
    """The whole page: the sprite sheet, the page links, the text, the way back."""
    links = " · ".join(
        f'<a href="/learn/{pid}{query}" data-testid="learn-link-{pid}"'
        + (' aria-current="page"' if pid == p.id else "") + f">{escape(PAGE_TITLES[pid])}</a>"
        for pid in page_ids(rules))
    if table is None:
        options = "".join(f'<option value="{n}"{" selected" if n == rules.name else ""}>{n}'
                          "</option>" for n in PRESETS)
        chooser = (f'<form class="chooser" method="get" action="/learn/{p.id}">'
                   f'<label>Rules <select name="rules" data-testid="learn-rules">{options}'
                   '</select></label> <button type="submit">Show</button></form>')
        back = ('<a class="button" href="/" data-testid="back-to-lobby">Set up a table</a> '
                '<a class="button primary" href="/learn/lesson" data-testid="lesson-link">'
                "Guided first hand</a>")
    else:
        chooser = (f'<p class="small">The rules of your table ({escape(rules.name)}). Your '
                   "game goes on in its own tab.</p>")
        back = (f'<a class="button" href="/t/{escape(table)}" data-testid="back-to-table">'
                "Back to the table</a>")
    body = "".join(block_html(b) for b in p.blocks)
    return _SHELL.format(title=escape(p.title), sprites=sprite_sheet(), links=links,
                         chooser=chooser, body=body, back=back, page=escape(p.id))


_SHELL = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Singapore Mahjong</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/learn.css">
<script src="/static/cjk.js" defer></script>
</head>
<body>
{sprites}
<header class="bar"><a class="brand" href="/">Singapore Mahjong</a>
<nav class="learn-nav" aria-label="Learn">{links}</nav></header>
<main class="learn" data-testid="learn-page" data-page="{page}">
{chooser}
<h1>{title}</h1>
<p class="no-cjk-note" data-testid="no-cjk-note">This device has no font for Chinese
characters, so the Chinese names are left out here.</p>
{body}
<p class="back">{back}</p>
</main>
</body>
</html>
"""


_NOT_HERE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not here · Singapore Mahjong</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/learn.css">
</head>
<body>
<header class="bar"><a class="brand" href="/">Singapore Mahjong</a></header>
<main class="learn" data-testid="not-found">
<h1>Not here</h1>
<p>{text}.</p>
<p><a class="button primary" href="/learn" data-testid="learn-home">How to play</a></p>
</main>
</body>
</html>
"""


@cache
def _lesson_json() -> list[JSON]:
    return lesson_steps()


def router(table_rules: TableRules) -> APIRouter:
    """The learning routes, for ``app.include_router``."""
    r = APIRouter()

    async def rules_for(request: Request) -> tuple[Ruleset, str, str | None]:
        q = request.query_params
        table = q.get("table")
        if table is not None:
            rules = await table_rules(table)
            if rules is None:
                raise LearnError("there is no table with this id", 404)
            return rules, escape(f"?table={quote(table, safe='')}"), table
        name = q.get("rules", DEFAULT_PRESET)
        if name not in PRESETS:
            raise LearnError(f"unknown rules {name[:40]!r}: choose one of "
                             f"{', '.join(PRESETS)}")
        return load_rules(name), f"?rules={name}", None

    def refuse(exc: LearnError, html: bool) -> HTMLResponse | JSONResponse:
        if html:
            return HTMLResponse(_NOT_HERE.format(text=escape(str(exc))), status_code=exc.status)
        return JSONResponse({"error": "bad-request", "message": str(exc)},
                            status_code=exc.status)

    async def find(request: Request, page_id: str) -> tuple[Page, Ruleset, str, str | None]:
        rules, query, table = await rules_for(request)
        if page_id not in page_ids(rules):
            what = ("these rules count no tai, so there is no tai table"
                    if page_id == "tai" else f"no page {page_id[:40]!r}")
            raise LearnError(f"{what}: the pages are {', '.join(page_ids(rules))}", 404)
        return page(page_id, rules), rules, query, table

    @r.get("/learn", response_class=HTMLResponse, response_model=None)
    async def learn_index(request: Request) -> HTMLResponse | JSONResponse:
        return await learn_page(request, "how-to-play")

    lesson_html = (resources.files("sgmahjong.web").joinpath("static/lesson.html")
                   .read_text("utf-8").replace("<!--SPRITES-->", sprite_sheet()))

    @r.get("/learn/lesson", response_class=HTMLResponse)
    async def lesson_page() -> HTMLResponse:
        return HTMLResponse(lesson_html)

    @r.get("/learn/{page_id}", response_class=HTMLResponse, response_model=None)
    async def learn_page(request: Request, page_id: str) -> HTMLResponse | JSONResponse:
        try:
            p, rules, query, table = await find(request, page_id)
        except LearnError as exc:
            return refuse(exc, True)
        return HTMLResponse(page_html(p, rules, query, table))

    @r.get("/api/learn/{page_id}", response_model=None)
    async def learn_json(request: Request, page_id: str) -> JSON | JSONResponse:
        try:
            p, rules, _, _ = await find(request, page_id)
        except LearnError as exc:
            return refuse(exc, False)  # type: ignore[return-value]
        return {"rules": rules.name, "page": p.to_json()}

    @r.get("/api/lesson", response_model=None)
    async def lesson() -> JSON:
        return {"steps": _lesson_json()}

    return r


__all__ = ["block_html", "page_html", "router"]
