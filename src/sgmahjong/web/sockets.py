"""The websocket of a seat or a spectator: its hello, its messages in order, its writer.

Each socket has one task that writes what the table sends it (:class:`WSConn`), so a
slow reader never holds the table up; messages are checked (:func:`parse_client`) and
limited in rate before the table hears of them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from fastapi import FastAPI, WebSocket

from ..game.codec import JSON
from .clock import Clock
from .config import WebConfig
from .core.server import ServerMessage, wire
from .lobby import Lobby
from .protocol import (
    ClientMessage,
    ProtocolError,
    error,
    parse_client,
)
from .security import RateLimit, origin_allowed

log = logging.getLogger("sgmahjong.web")


class WSConn:
    """A websocket as a table sees it: messages are queued and written by one task, so a
    slow reader never holds the table up (a full queue closes the socket)."""

    def __init__(self, ws: WebSocket, limit: int) -> None:
        self.ws = ws
        self.player: int | None = None
        self.queue: asyncio.Queue[JSON | None] = asyncio.Queue(limit)
        self.dead = False
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, message: ServerMessage | JSON) -> None:
        if self.dead:
            return
        try:
            self.queue.put_nowait(wire(message))
        except asyncio.QueueFull:
            self.dead = True

    async def _write(self) -> None:
        while True:
            msg = await self.queue.get()
            if msg is None or self.dead:
                return
            try:
                await self.ws.send_text(json.dumps(msg, separators=(",", ":"),
                                                   ensure_ascii=False))
            except Exception:
                self.dead = True
                return

    async def close(self, code: int = 1000, *, gone: bool = False,
                    reason: str | None = None) -> None:
        """Flush what is queued (unless the client is ``gone``), then close."""
        if not gone:
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.writer, 2)
        self.dead = True
        self.writer.cancel()
        if not gone:
            with contextlib.suppress(Exception):
                await self.ws.close(code, reason)


IDLE_CLOSE = 4408
IDLE_REASON = "nothing heard from you for {:g} s: reconnect"


async def _receive(ws: WebSocket) -> str | bytes | None:
    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        return None
    text = msg.get("text")
    return text if text is not None else msg.get("bytes") or b""


async def _receive_by(ws: WebSocket, clock: Clock, until: float | None) -> str | bytes | None:
    """The next frame (None: the client left), or TimeoutError when ``clock`` reaches
    ``until`` first (None: no limit). Waiting on the table clock, not asyncio's, lets a
    test move time past the limit instead of sleeping through it."""
    if until is None:
        return await _receive(ws)
    frame = asyncio.ensure_future(_receive(ws))
    arrived = asyncio.Event()
    frame.add_done_callback(lambda _f: arrived.set())
    try:
        await clock.wait(arrived, until)
    finally:
        if not frame.done():
            frame.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await frame
    if frame.cancelled():
        raise TimeoutError
    return frame.result()


def _parse(raw: str | bytes, conn: WSConn) -> ClientMessage | None:
    """A client frame checked, or None after an ``error`` telling the client why not: any
    frame that cannot be read is answered, and the socket stays open."""
    try:
        return parse_client(raw)
    except ProtocolError as exc:
        conn.send(error(exc.code, str(exc)))
    except Exception:   # a parser fault must not close the socket without a word
        log.exception("a client frame could not be checked")
        conn.send(error("malformed", "the message could not be read"))
    return None


async def _hello(ws: WebSocket, conn: WSConn, cfg: WebConfig) -> ClientMessage | int | None:
    """Wait for the socket's hello: frames before it that are not one get an ``error`` and
    the client may try again, until ``hello_timeout``. Returns the hello, None if the
    client left, or the close code."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + cfg.hello_timeout
    limit = RateLimit(cfg.rate, cfg.burst)
    while True:
        try:
            raw = await asyncio.wait_for(_receive(ws), max(0.0, deadline - loop.time()))
        except TimeoutError:
            conn.send(error("no-hello", "say hello first"))
            return 4408
        if raw is None:
            return None
        if not limit.allow():
            if limit.refused > cfg.max_refusals:
                return 1008
            conn.send(error("rate-limited", "too many messages: slow down"))
            continue
        msg = _parse(raw, conn)
        if msg is None:
            continue
        if msg.type == "hello":
            return msg
        conn.send(error("no-hello", "the first message must be a hello"))


def add_socket_route(app: FastAPI, lobby: Lobby, cfg: WebConfig) -> None:
    """The websocket route: ``/ws/tables/{id}``."""

    @app.websocket("/ws/tables/{table_id}")
    async def socket(ws: WebSocket, table_id: str) -> None:
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"),
                              cfg.allowed_origins):
            await ws.close(code=4403)
            return
        rt = await lobby.get(table_id)
        if rt is None:
            await ws.close(code=4404)
            return
        await ws.accept()
        conn = WSConn(ws, cfg.send_queue)
        attached = False
        code = 1000
        reason: str | None = None
        gone = False
        try:
            first = await _hello(ws, conn, cfg)
            if first is None:
                gone = True
                return
            if isinstance(first, int):
                code = first
                return
            if first.token is not None:
                conn.player = rt.player_for(first.token)
                if conn.player is None:
                    conn.send(error("bad-token", "that token holds no seat at this table"))
                    code = 4401
                    return
            elif not first.spectate:
                conn.send(error("missing-token", "send your seat token, or spectate: true"))
                code = 4401
                return
            await rt.attach(conn, first.last_seen)
            attached = True
            limit = RateLimit(cfg.rate, cfg.burst)
            idle = cfg.idle_timeout
            while not conn.dead:
                until = cfg.clock.now() + idle if idle > 0 else None
                try:
                    raw = await _receive_by(ws, cfg.clock, until)
                except TimeoutError:
                    code, reason = IDLE_CLOSE, IDLE_REASON.format(idle)
                    break
                if raw is None:
                    gone = True
                    break
                if not limit.allow():
                    if limit.refused > cfg.max_refusals:
                        code = 1008
                        break
                    conn.send(error("rate-limited", "too many messages: slow down"))
                    continue
                msg = _parse(raw, conn)
                if msg is not None:
                    await rt.handle(conn, msg)
        finally:
            if attached:
                await rt.detach(conn)
            await conn.close(code, gone=gone, reason=reason)


__all__ = ["WSConn", "add_socket_route"]
