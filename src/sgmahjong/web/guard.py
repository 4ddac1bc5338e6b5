"""The server's front door, before any route: the Host header must name this server, and an
HTTP body must be small JSON (size checked before it is read whole, then parsed by
:mod:`sgmahjong.inputs`, which cannot overflow the stack or build giant numbers).

A page on a foreign name that resolves to this machine (DNS rebinding) carries that name
in its Host header and an Origin of the same name, so the websocket's Origin check alone
would pass it: the Host allowlist is what refuses it.

A request that changes something must come from this server's own pages (or a client that
is no browser): a page elsewhere that knows a ledger's edit link could otherwise post to it
with ``fetch(url, {mode: "no-cors"})`` or a form. A browser marks such a request itself
(``Sec-Fetch-Site``, ``Origin``; no page can forge either) and cannot send a body as
``application/json`` to another site without asking it first (a CORS preflight, which
this server never grants), so a foreign site, a body that is not declared JSON and an
``Origin`` of another host are each refused.

>>> cross_site({"sec-fetch-site": "cross-site"}, "127.0.0.1:8000", ())
'a page of another site'
>>> cross_site({"origin": "https://evil.example"}, "127.0.0.1:8000", ())
"a page of 'https://evil.example'"
>>> cross_site({"origin": "http://127.0.0.1:8000"}, "127.0.0.1:8000", ()) is None
True
>>> cross_site({}, "127.0.0.1:8000", ()) is None   # curl, a bot, a test: no browser
True

>>> host_name("127.0.0.1:8000"), host_name("[::1]:8000"), host_name("Example.COM.")
('127.0.0.1', '::1', 'example.com')
>>> allowed = frozenset({"localhost", "127.0.0.1", "::1"})
>>> host_allowed("localhost:8000", allowed, False), host_allowed("evil.example", allowed, False)
(True, False)
>>> host_allowed("192.168.1.20:8000", allowed, True), host_allowed("evil.example", allowed, True)
(True, False)
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from ..inputs import InputError, decode, parse_json
from .clock import Clock
from .config import WebConfig
from .security import origin_allowed

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
# A body refused before it was read whole ends its connection: what is left of it must not
# be read as the next request, nor the connection held for that request's headers.
CLOSE = ((b"connection", b"close"),)

WITH_BODY = ("POST", "PUT", "PATCH", "DELETE")
JSON_TYPES = ("application/json",)
# Sec-Fetch-Site values of a request a page of this server made (or the user typed)
OWN_SITE = ("same-origin", "none")


def host_name(host: str) -> str:
    """The name in a Host header, without port, brackets or a final dot, in lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def host_allowed(host: str | None, allowed: frozenset[str], any_ip: bool) -> bool:
    """Whether a request's Host header names this server: a listed name, or (``any_ip``,
    serving on every address) any IP address, which no DNS name can rebind."""
    if not host:
        return False
    name = host_name(host)
    return name in allowed or (any_ip and _is_ip(name))


def allowed_hosts(config: WebConfig) -> frozenset[str]:
    """The names a server answers to: its own, and those of its extra websocket origins
    (a proxy's public name is the one its users' browsers send)."""
    names = {host_name(h) for h in config.allowed_hosts}
    for origin in config.allowed_origins:
        try:
            netloc = urlsplit(origin).netloc
        except ValueError:
            continue
        if netloc:
            names.add(host_name(netloc))
    return frozenset(n for n in names if n)


def cross_site(headers: Mapping[str, str], host: str | None,
               extra: Iterable[str]) -> str | None:
    """What foreign page sent a changing request (None: this server's own page, or no
    browser at all). ``headers``: the request's, by lower-case name."""
    site = headers.get("sec-fetch-site")
    origin = headers.get("origin")
    if site is not None and site.lower() not in OWN_SITE:
        return "a page of another site"
    if origin is None:
        return None
    if origin == "null":
        # a sandboxed frame or a page that hides its origin, unless the browser vouches
        # that it is one of ours
        return None if site is not None and site.lower() == "same-origin" else (
            "a page that hides its origin")
    if origin_allowed(origin, host, extra):
        return None
    return f"a page of {origin[:100]!r}"


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


async def _before(clock: Clock, step: Awaitable[Message], until: float) -> Message | None:
    """What ``step`` gives, or None (and ``step`` cancelled) if ``clock`` reaches ``until``
    first."""
    task = asyncio.ensure_future(step)
    done = asyncio.Event()
    task.add_done_callback(lambda _t: done.set())
    await clock.wait(done, until)
    if not task.done():
        task.cancel()
        return None
    return task.result()


async def _answer(send: Send, status: int, code: str, message: str,
                  extra: Iterable[tuple[bytes, bytes]] = ()) -> None:
    body = json.dumps({"error": code, "message": message}).encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"x-content-type-options", b"nosniff"), *extra]})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """ASGI middleware: refuses a foreign Host (HTTP 400, websocket closed with 4403), a
    change asked by another site's page (403), a body over ``limits.max_body`` (413), a
    body not declared JSON (415), a body still unfinished ``limits.body_timeout`` after
    it began (408) and an API body that is not small JSON (400), each with
    ``{"error", "message"}`` naming what is wrong."""

    def __init__(self, app: ASGIApp, config: WebConfig) -> None:
        self.app = app
        self.config = config
        self.hosts = allowed_hosts(config)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if not host_allowed(host, self.hosts, self.config.allow_ip_hosts):
            if kind == "websocket":
                await send({"type": "websocket.close", "code": 4403})
                return
            shown = (host or "")[:100]
            await _answer(send, 400, "bad-host",
                          f"this server does not answer to the name {shown!r}; start it "
                          f"with --allow-host {host_name(shown) or 'NAME'} to allow it"
                          if host else "the request has no Host header")
            return
        if kind == "http" and scope.get("method") in WITH_BODY:
            await self._with_body(scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def _with_body(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1").lower(): bytes(v).decode("latin-1")
                   for k, v in scope.get("headers", ())}
        foreign = cross_site(headers, headers.get("host"), self.config.allowed_origins)
        if foreign is not None:
            await _answer(send, 403, "cross-origin",
                          f"a change to this server must come from its own pages, not from "
                          f"{foreign} (behind a proxy, start the server with --allow-origin "
                          "and its public address)", CLOSE)
            return
        limit = self.config.limits.max_body
        too_large = f"the request body is too large: at most {limit} bytes"
        size = headers.get("content-length")
        if size is not None and size.isascii() and size.isdigit() and int(size) > limit:
            await _answer(send, 413, "too-large", too_large, CLOSE)
            return
        kind = headers.get("content-type")
        declared = kind is not None and kind.split(";", 1)[0].strip().lower() in JSON_TYPES
        sized = size is not None and size.strip() not in ("", "0")
        if not declared and (kind is not None or sized
                             or "chunked" in headers.get("transfer-encoding", "")):
            await _answer(send, 415, "not-json",
                          "a request body must be JSON, sent with Content-Type: "
                          f"application/json (not {(kind or 'none')[:60]!r})", CLOSE)
            return
        chunks: list[bytes] = []
        total = 0
        clock = self.config.clock
        until = clock.now() + self.config.limits.body_timeout
        while True:
            msg = await _before(clock, receive(), until)
            if msg is None:     # trickled in a byte at a time, or never sent
                await _answer(send, 408, "too-slow", "the request body did not arrive within "
                              f"{self.config.limits.body_timeout:g} s", CLOSE)
                return
            if msg["type"] == "http.disconnect":
                return
            chunk = msg.get("body", b"")
            total += len(chunk)
            if total > limit:
                await _answer(send, 413, "too-large", too_large, CLOSE)
                return
            chunks.append(chunk)
            if not msg.get("more_body", False):
                break
        body = b"".join(chunks)
        if body and scope.get("path", "").startswith("/api/"):
            try:
                parse_json(decode(body, "the request body"), "the request body")
            except InputError as exc:
                await _answer(send, 400, "bad-json", str(exc))
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


__all__ = ["Guard", "allowed_hosts", "cross_site", "host_allowed", "host_name"]
