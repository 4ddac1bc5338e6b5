"""Abuse campaign against a real ``sgmahjong serve``: is the server still there for others?

Starts ``python -m sgmahjong serve`` in a child process (127.0.0.1, a free port, a
temporary SQLite file, every limit at its default, its log in a file) and, for
``--minutes``, runs at once, each from its own loopback address (so one client's create
limit is not another's):

- ``ledger-flood``: new ledgers from one client past ``ledgers_per_client``
- ``table-flood``: new tables from one client past ``creates_per_client``
- ``slow-headers``: connections that send their headers a byte a second (slowloris)
- ``slow-body``: complete headers, then a body a byte a second
- ``past-cap``: every ``--cap-every`` seconds, bare connections up to the cap and past it
- ``oversized``: bodies over ``max_body``, declared or chunked
- ``bad-body``: a lone surrogate, broken JSON and wrong fields (bad tile text, wrong types)
  to every JSON endpoint
- ``ws-flood``: websockets sending bad frames as fast as ``--frame-rate`` (broken and
  surrogate JSON, bad tiles, unknown types, frames over 4 KiB and over 64 KiB), or
  nothing at all (the hello timeout)

Meanwhile a probe in a process of its own (so the campaign's own work does not delay it)
asks ``GET /api/options`` every 100 ms on a kept-alive connection, opens a fresh
connection for it every second, and pings a legitimate table's websocket, seated, every
100 ms; it runs alone for ``--before`` seconds first, the run's own reference. At the end
each bound is PASS or FAIL (exit status 1 on any FAIL):

- the server is reachable throughout: every kept-alive probe and websocket ping answered;
  a fresh connection refused only while the cap burst holds every connection
- probe p99 (kept-alive HTTP and websocket ping) at most ``--p99-ms`` (250), and at most
  twice its p99 before the campaign
- every refused request answered as docs/web.md says (status and error code, or close
  code), each creation flood held to exactly its limit
- the server's log: no traceback, at most one line per attack kind per minute begun

Progress goes to stderr, the result (one JSON object) to stdout. The machine's other load
counts: say how busy it was when quoting the figures.

    python bench/abuse_web.py --minutes 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from sgmahjong.web.limits import WebLimits

LIMITS = WebLimits()            # serve's defaults: the bounds the campaign pushes past
HOST = "127.0.0.1"
PROBE, LEDGERS, TABLES, BAD, SLOW, FLOOD, CAP = (f"127.0.0.{i}" for i in range(1, 8))
GRACE = 5.0                     # slack for a timeout's answer on a busy machine
WS_CODES = {"malformed", "unknown-type", "bad-action", "too-large", "rate-limited",
            "no-hello", "spectator", "stale", "not-your-turn", "illegal", "no-hand"}
WS_CLOSES = {1008, 1009, 4408}  # too many refusals, frame over 64 KiB, no hello
LONE = '"\\ud800"'


@dataclass
class Tally:
    """What one attack kind sent and how each was answered."""
    sent: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    wrong: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, outcome: str, ok: bool, detail: str = "") -> None:
        self.sent += 1
        self.outcomes[outcome] += 1
        if not ok:
            self.wrong += 1
            if len(self.examples) < 5:
                self.examples.append(f"{outcome}: {detail[:240]}")


@dataclass
class Campaign:
    base: str
    port: int
    deadline: float
    table: dict[str, Any]
    ledger: dict[str, Any]
    tallies: dict[str, Tally] = field(default_factory=dict)
    cap_windows: list[tuple[float, float]] = field(default_factory=list)  # wall clock
    began: float = field(default_factory=time.time)                        # wall clock
    server_cpu: float = 0.0         # the server's CPU seconds when the campaign began
    cap_open: float | None = None

    def tally(self, kind: str) -> Tally:
        return self.tallies.setdefault(kind, Tally())

    def cap_full(self) -> bool:
        return self.cap_open is not None

    def left(self) -> float:
        return self.deadline - time.monotonic()


def refused_kind(exc: BaseException) -> str:
    return type(exc).__name__


def _error_of(r: httpx.Response) -> tuple[str | None, str | None]:
    try:
        body = r.json()
    except ValueError:
        return None, None
    if not isinstance(body, dict):
        return None, None
    message = body.get("message") or body.get("detail")
    return body.get("error"), None if message is None else str(message)


# ------------------------------------------------------------------------ HTTP floods


def client_at(address: str, base: str) -> httpx.AsyncClient:
    """An HTTP client whose connections come from ``address`` (any of 127.0.0.0/8)."""
    transport = httpx.AsyncHTTPTransport(local_address=address, retries=0)
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=GRACE * 4)


async def paced(camp: Campaign, rate: float, step: Callable[[], Awaitable[None]]) -> None:
    """``step`` about ``rate`` times a second until the campaign's end."""
    while camp.left() > 0:
        began = time.monotonic()
        await step()
        await asyncio.sleep(max(0.0, 1 / rate - (time.monotonic() - began)))


async def request(camp: Campaign, kind: str, http: httpx.AsyncClient, method: str, url: str,
                  check: Callable[[httpx.Response], bool], **kw: Any) -> httpx.Response | None:
    """One request, its answer judged by ``check``; a connection refused while the cap
    burst holds every connection is the cap's documented answer, else a fault."""
    tally = camp.tally(kind)
    try:
        r = await http.request(method, url, **kw)
    except httpx.TransportError as exc:
        tally.add("refused-at-cap" if camp.cap_full() else refused_kind(exc),
                  camp.cap_full(), f"{method} {url}: {exc!r}")
        return None
    code, _message = _error_of(r)
    tally.add(f"{r.status_code} {code or ''}".strip(), check(r) or (
        r.status_code == 503 and camp.cap_full()), f"{method} {url}: {r.text}")
    return r


async def creation_flood(camp: Campaign, kind: str, address: str, url: str,
                         body: dict[str, Any], code: str, limit: int, rate: float) -> None:
    created = [0]

    def check(r: httpx.Response) -> bool:
        if r.status_code == 201:
            created[0] += 1
            return created[0] <= limit
        err, message = _error_of(r)
        return (r.status_code == 429 and err == code and bool(message)
                and r.headers.get("retry-after", "").isdigit())

    async with client_at(address, camp.base) as http:
        await paced(camp, rate, lambda: request(camp, kind, http, "POST", url, check,
                                                json=body))
    camp.tally(kind).outcomes["created"] = created[0]


def bad_bodies(camp: Campaign) -> list[tuple[str, str, bytes, set[int], str | None]]:
    """(method, path, body, statuses, error code) for each JSON endpoint: a lone
    surrogate and broken JSON (400 ``bad-json``), then a wrong field (the route's own
    400, or FastAPI's 422 naming the field)."""
    tid, edit = camp.table["table_id"], camp.ledger["edit"]
    hand = f"/api/ledgers/{edit}/hands/{camp.ledger['hand']}"
    endpoints = [
        ("POST", "/api/tables", b'{"name": "Ann", "ai": ["snail", "9z", "owl"]}'),
        ("POST", "/api/tables", b'{"name": "Ann", "rules": "\xc2\xb2"}'),
        ("POST", f"/api/tables/{tid}/join", b'{"name": ["Bob"]}'),
        ("POST", f"/api/tables/{tid}/join", b'{"name": "Bob", "player": 9}'),
        ("POST", f"/api/tables/{tid}/start", None),
        ("POST", "/api/score", b'{"concealed": "123m456p789s11q", "win_tile": "1q"}'),
        ("POST", "/api/score", b'{"concealed": "123m456p789s1\xc2\xb2z", "win_tile": "1z"}'),
        ("POST", "/api/ledgers", b'{"names": ["A"]}'),
        ("POST", f"/api/ledgers/{edit}/hands", b'{"type": "win", "winner": 9, "tai": 2}'),
        ("PUT", hand, b'{"type": "win", "winner": 0, "from": 1, "tai": "\xc2\xb2"}'),
        ("POST", f"{hand}/restore", None),
        ("DELETE", hand, None),
    ]
    out: list[tuple[str, str, bytes, set[int], str | None]] = []
    for method, path, wrong in endpoints:
        out.append((method, path, ('{"name": ' + LONE + '}').encode(), {400}, "bad-json"))
        out.append((method, path, b'{"name": "Ann", ', {400}, "bad-json"))
        if wrong is not None:
            out.append((method, path, wrong, {400, 422}, None))
    return out


async def bad_body_flood(camp: Campaign, rate: float) -> None:
    cases = bad_bodies(camp)
    turn = [0]
    async with client_at(BAD, camp.base) as http:
        async def step() -> None:
            method, path, body, statuses, code = cases[turn[0] % len(cases)]
            turn[0] += 1

            def check(r: httpx.Response) -> bool:
                err, message = _error_of(r)
                return (r.status_code in statuses and bool(message)
                        and (code is None or err == code))
            await request(camp, "bad-body", http, method, path, check, content=body,
                          headers={"content-type": "application/json"})
        await paced(camp, rate, step)


async def oversized_flood(camp: Campaign, rate: float) -> None:
    big = b'{"name": "' + b"x" * (LIMITS.max_body + 1024) + b'"}'

    async def chunks() -> Any:
        for i in range(0, len(big), 4096):
            yield big[i:i + 4096]

    def check(r: httpx.Response) -> bool:
        return r.status_code == 413 and _error_of(r)[0] == "too-large"
    turn = [0]
    async with client_at(BAD, camp.base) as http:
        async def step() -> None:
            turn[0] += 1
            body = big if turn[0] % 2 else chunks()     # declared, or chunked
            await request(camp, "oversized", http, "POST", "/api/tables", check,
                          content=body, headers={"content-type": "application/json"})
        await paced(camp, rate, step)


# ------------------------------------------------------------------------ slow senders


async def _answer(reader: asyncio.StreamReader, until: float) -> bytes:
    """What the server sends before it closes, or before ``until`` (monotonic)."""
    got = b""
    while True:
        try:
            chunk = await asyncio.wait_for(reader.read(4096),
                                           max(0.01, until - time.monotonic()))
        except (TimeoutError, ConnectionError):
            return got
        if not chunk:
            return got
        got += chunk


async def slow_sender(camp: Campaign, kind: str, head: bytes, trickle: bytes,
                      timeout: float, code: str | None) -> None:
    """One connection that sends ``head`` at once and ``trickle`` a byte a second; the
    server must answer 408 (with ``code``, for a body) and close within ``timeout``."""
    tally = camp.tally(kind)
    began = time.monotonic()
    at_cap = camp.cap_full()
    try:
        reader, writer = await asyncio.open_connection(HOST, camp.port,
                                                       local_addr=(SLOW, 0))
    except OSError as exc:
        tally.add("refused-at-cap" if at_cap else refused_kind(exc), at_cap, repr(exc))
        return
    answer = asyncio.create_task(_answer(reader, began + timeout + GRACE * 3))
    try:
        writer.write(head)
        for byte in trickle:
            if answer.done():
                break
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.wait([answer], timeout=1.0)
    except ConnectionError:
        pass
    got = await answer
    took = time.monotonic() - began
    writer.close()
    status = got.split(b" ", 2)[1].decode("latin-1", "replace") if got.count(b" ") >= 2 else ""
    if not got:
        at_cap = at_cap or camp.cap_full()
        tally.add("refused-at-cap" if at_cap else "closed-silently", at_cap,
                  f"after {took:.1f} s")
        return
    body_code = None
    if code is not None and b"\r\n\r\n" in got:
        with contextlib.suppress(ValueError):
            body_code = json.loads(got.split(b"\r\n\r\n", 1)[1]).get("error")
    ok = status == "408" and took <= timeout + GRACE and (code is None or body_code == code)
    tally.add(f"408 {body_code or ''}".strip() if status == "408" else status or "?", ok,
              f"{got[:200]!r} after {took:.1f} s")
    tally.outcomes["slowest_answer_s"] = max(tally.outcomes["slowest_answer_s"],
                                             math.ceil(took))


async def slow_flood(camp: Campaign, kind: str, parallel: int) -> None:
    host = f"Host: {HOST}:{camp.port}\r\n".encode()
    if kind == "slow-headers":
        head, trickle = b"GET /api/options HTTP/1.1\r\n" + host, b"X-Slow: " + b"a" * 200
        timeout, code = LIMITS.header_timeout, None
    else:
        head = (b"POST /api/score HTTP/1.1\r\n" + host + b"Content-Type: application/json"
                b"\r\nContent-Length: 300\r\n\r\n")
        trickle, timeout, code = b'{"concealed": "' + b"1" * 280, LIMITS.body_timeout, "too-slow"

    async def one_after_another() -> None:
        while camp.left() > timeout + GRACE:
            await slow_sender(camp, kind, head, trickle, timeout, code)
    await asyncio.gather(*(one_after_another() for _ in range(parallel)))


# ------------------------------------------------------------------------ the cap


async def _fate(reader: asyncio.StreamReader, until: float) -> tuple[str, float]:
    """How a bare connection ends: ``refused`` (closed with no answer), ``408`` (held
    until its header timeout) or ``hung``, and when (monotonic)."""
    try:
        first = await asyncio.wait_for(reader.read(64), max(0.01, until - time.monotonic()))
    except TimeoutError:
        return "hung", time.monotonic()
    except ConnectionError:
        return "refused", time.monotonic()
    if not first:
        return "refused", time.monotonic()
    return ("408" if first.startswith(b"HTTP/1.1 408 ") else repr(first[:20])), time.monotonic()


async def cap_burst(camp: Campaign, extra: int) -> None:
    """Bare connections up to the cap and ``extra`` past it. Each is either closed with
    no answer (past the cap) or held until its header timeout, then answered 408; from
    the 408s' times, the most held at once (each from its answer less the timeout) must
    not pass the cap. A busy server accepts slowly: those it takes after the first ones
    timed out fit under the cap again, so fewer than ``extra`` may be refused."""
    tally = camp.tally("past-cap")
    camp.cap_open = time.time()
    conns: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    refused = 0
    for _ in range(LIMITS.max_connections + extra):
        try:
            conns.append(await asyncio.open_connection(HOST, camp.port, local_addr=(CAP, 0)))
        except OSError:
            refused += 1
    until = time.monotonic() + LIMITS.header_timeout * 3 + GRACE * 2
    fates = await asyncio.gather(*(_fate(r, until) for r, _w in conns))
    for _r, writer in conns:
        writer.close()
    ends = sorted(at for what, at in fates if what == "408")
    # held at once: the timed-out connections whose spans [end - timeout, end] overlap
    timeout = LIMITS.header_timeout
    most = max((sum(1 for e in ends if a <= e <= a + timeout) for a in ends), default=0)
    kinds = Counter(what for what, _at in fates)
    refused += kinds.pop("refused", 0)
    ok = most <= LIMITS.max_connections and refused > 0 and set(kinds) <= {"408"}
    tally.add("burst", ok, f"most held at once {most}, refused {refused}, others {kinds}")
    tally.outcomes["most_held_at_once"] = max(tally.outcomes["most_held_at_once"], most)
    tally.outcomes["refused"] += refused
    tally.outcomes["timed_out_408"] += kinds.get("408", 0)
    await asyncio.sleep(1.0)          # the server sees them go
    camp.cap_windows.append((camp.cap_open, time.time()))
    camp.cap_open = None


async def cap_loop(camp: Campaign, every: float, extra: int) -> None:
    await asyncio.sleep(min(every / 2, max(0.0, camp.left() / 2)))
    while camp.left() > LIMITS.header_timeout + GRACE:
        await cap_burst(camp, extra)
        await asyncio.sleep(min(every, max(0.0, camp.left())))


# ------------------------------------------------------------------------ websockets


def bad_frames(n: int) -> list[str | bytes]:
    frames: list[str | bytes] = [
        '{"type": "ping", "x": ' + LONE + '}', '{"type": ', b'\xff\xfe{"type": "ping"}',
        '{"type": "action", "id": 1, "action": {"type": "discard", "tile": "9z"}}',
        '{"type": "action", "id": 1, "action": {"type": "discard", "tile": "\u00b2p"}}',
        '{"type": "dance"}', '{"type": "ping", "pad": "' + "x" * 5000 + '"}',
        "[" * 2040 + "]" * 2040, '{"type": "hello", "last_seen": ' + "9" * 60 + "}",
    ]
    return [frames[i % len(frames)] for i in range(n)]


async def ws_attacker(camp: Campaign, turn: int, frame_rate: float) -> None:
    """One socket: bad frames at ``frame_rate`` until the server closes it (after the
    burst its refusals are rate-limited, then it is closed 1008); one in five ends on a
    frame over 64 KiB (closed 1009), one in ten says nothing (closed 4408)."""
    tally = camp.tally("ws-flood")
    url = camp.base.replace("http://", "ws://") + f"/ws/tables/{camp.table['table_id']}"
    at_cap = camp.cap_full()
    try:
        ws = await websockets.connect(url, local_addr=(FLOOD, 0), max_size=2**22,
                                      open_timeout=GRACE * 2, close_timeout=1)
    except (OSError, websockets.WebSocketException) as exc:
        at_cap = at_cap or camp.cap_full()
        tally.add("refused-at-cap" if at_cap else refused_kind(exc), at_cap, repr(exc))
        return
    codes: Counter[str] = Counter()

    async def read() -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in ws:
                msg = json.loads(raw)
                if msg.get("type") == "error":
                    codes[msg.get("code", "?")] += 1
    reader = asyncio.create_task(read())
    silent = turn % 10 == 9
    try:
        if silent:
            await asyncio.wait([reader], timeout=LIMITS.header_timeout + GRACE * 2)
        else:
            if turn % 2:
                await ws.send('{"type": "hello", "spectate": true}')
            frames = bad_frames(LIMITS.max_connections)
            if turn % 5 == 4:
                frames[60] = '{"type": "ping", "pad": "' + "x" * 70_000 + '"}'
            for frame in frames:
                if reader.done():
                    break
                await ws.send(frame)
                await asyncio.sleep(1 / frame_rate)
            await asyncio.wait([reader], timeout=GRACE * 2)
    except websockets.ConnectionClosed:
        pass
    await asyncio.wait([reader], timeout=GRACE)
    reader.cancel()
    close = ws.close_code
    await ws.close()
    for code, n in codes.items():
        for _ in range(n):
            tally.add(f"error {code}", code in WS_CODES, f"turn {turn}")
    tally.add(f"close {close}", close in WS_CLOSES, f"turn {turn}, errors {dict(codes)}")


async def ws_flood(camp: Campaign, sockets: int, frame_rate: float) -> None:
    async def one_after_another(first: int) -> None:
        n = first
        while camp.left() > LIMITS.header_timeout + GRACE * 2:
            await ws_attacker(camp, n, frame_rate)
            n += sockets
    await asyncio.gather(*(one_after_another(i) for i in range(sockets)))


# ------------------------------------------------------------------------ the probe


async def probe(base: str, table: str, token: str, seconds: float) -> dict[str, Any]:
    """Runs in a process of its own: the unrelated requests, timed, until SIGTERM (or
    ``seconds`` at most). Says ``ready`` on stdout once its first request is answered."""
    end = time.monotonic() + seconds
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)

    async def ends() -> None:
        await stop.wait()
        nonlocal end
        end = time.monotonic()
    watcher = asyncio.create_task(ends())
    http_ms: list[tuple[float, float]] = []     # (wall time, milliseconds)
    ws_ms: list[tuple[float, float]] = []
    failed: list[tuple[float, str]] = []       # (wall time, what), kept-alive and socket
    fresh: list[tuple[float, str | None]] = []

    async def keep_alive() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            while time.monotonic() < end:
                t = time.perf_counter()
                try:
                    r = await http.get("/api/options")
                    if r.status_code == 200 and not http_ms:
                        print("ready", flush=True)
                    if r.status_code == 200:
                        http_ms.append((time.time(), (time.perf_counter() - t) * 1000))
                    else:
                        failed.append((time.time(), f"http {r.status_code}"))
                except httpx.HTTPError as exc:
                    failed.append((time.time(), f"http {exc!r}"))
                await asyncio.sleep(0.1)

    async def fresh_connections() -> None:
        while time.monotonic() < end:
            try:
                async with httpx.AsyncClient(base_url=base, timeout=10) as http:
                    r = await http.get("/api/options")
                fresh.append((time.time(), None if r.status_code == 200 else
                              f"{r.status_code}"))
            except httpx.HTTPError as exc:
                fresh.append((time.time(), repr(exc)))
            await asyncio.sleep(1.0)

    async def pings() -> None:
        url = base.replace("http://", "ws://") + f"/ws/tables/{table}"
        while time.monotonic() < end:
            try:
                async with websockets.connect(url, close_timeout=1) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": token}))
                    while time.monotonic() < end:
                        t = time.perf_counter()
                        await ws.send('{"type": "ping"}')
                        while json.loads(await asyncio.wait_for(ws.recv(), 10))[
                                "type"] != "pong":
                            pass
                        ws_ms.append((time.time(), (time.perf_counter() - t) * 1000))
                        await asyncio.sleep(0.1)
            except (OSError, TimeoutError, websockets.WebSocketException) as exc:
                failed.append((time.time(), f"ws {exc!r}"))
                await asyncio.sleep(0.5)
    await asyncio.gather(keep_alive(), fresh_connections(), pings())
    watcher.cancel()
    return {"http_ms": http_ms, "ws_ms": ws_ms, "failed": failed, "fresh": fresh}


# ------------------------------------------------------------------------ running it


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def rss_mib(pid: int) -> float:
    with contextlib.suppress(OSError), open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used (Linux /proc)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def setup(base: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The legitimate table (its creator is the probe) and a ledger with one hand."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        t = (await http.post("/api/tables", json={"name": "Probe"})).raise_for_status().json()
        led = (await http.post("/api/ledgers", json={"names": ["A", "B", "C", "D"]})
               ).raise_for_status().json()
        h = (await http.post(f"/api/ledgers/{led['edit']}/hands", json={
            "type": "win", "winner": 0, "from": 1, "tai": 2})).raise_for_status().json()
        led["hand"] = h["hands"][-1]["id"]
    return t, led


async def progress(camp: Campaign) -> None:
    while camp.left() > 0:
        await asyncio.sleep(min(15.0, max(0.1, camp.left())))
        print(json.dumps({"left_s": round(max(0.0, camp.left())), **{
            k: t.sent for k, t in sorted(camp.tallies.items())}, "wrong": sum(
            t.wrong for t in camp.tallies.values())}), file=sys.stderr, flush=True)


async def campaign(args: argparse.Namespace, base: str, port: int, table: dict[str, Any],
                   ledger: dict[str, Any], pid: int) -> Campaign:
    await asyncio.sleep(args.before)       # the probe alone: the machine's own latency
    camp = Campaign(base, port, time.monotonic() + args.minutes * 60, table, ledger,
                    server_cpu=cpu_seconds(pid))
    rate = args.rate
    await asyncio.gather(
        creation_flood(camp, "ledger-flood", LEDGERS, "/api/ledgers",
                       {"names": ["A", "B", "C", "D"]}, "too-many-ledgers",
                       LIMITS.ledgers_per_client, rate),
        creation_flood(camp, "table-flood", TABLES, "/api/tables", {"name": "Flood"},
                       "too-many-tables", LIMITS.creates_per_client, rate),
        bad_body_flood(camp, rate), oversized_flood(camp, rate / 5),
        slow_flood(camp, "slow-headers", args.slow), slow_flood(camp, "slow-body", args.slow),
        cap_loop(camp, args.cap_every, args.cap_extra),
        ws_flood(camp, args.ws_sockets, args.frame_rate), progress(camp))
    return camp


def judge(camp: Campaign, probed: dict[str, Any], log: list[str], minutes: float,
          p99_ms: float) -> dict[str, Any]:
    def in_cap(at: float) -> bool:
        return any(a - 1 <= at <= b + 1 for a, b in camp.cap_windows)
    quiet = [ms for t, ms in probed["http_ms"] + probed["ws_ms"] if t < camp.began]
    for key in ("http_ms", "ws_ms", "fresh"):
        probed[key] = [x for x in probed[key] if x[0] >= camp.began]
    fresh_bad = [f for f in probed["fresh"] if f[1] is not None and not in_cap(f[0])]
    kinds = len(camp.tallies)
    log_bound = kinds * math.ceil(minutes)
    tracebacks = [line for line in log if line.startswith("Traceback")]
    http = [ms for _t, ms in probed["http_ms"]]
    ws = [ms for _t, ms in probed["ws_ms"]]
    calm = [ms for t, ms in probed["http_ms"] + probed["ws_ms"] if not in_cap(t)]
    http_p99, ws_p99 = pct(http, 99), pct(ws, 99)
    created = {k: camp.tally(k).outcomes["created"] for k in ("ledger-flood", "table-flood")}
    bounds = {
        "reachable: every kept-alive probe and ping answered": not probed["failed"],
        "reachable: fresh connections refused only at the cap": not fresh_bad,
        f"probe HTTP p99 <= {p99_ms:g} ms": http_p99 <= p99_ms,
        f"probe websocket ping p99 <= {p99_ms:g} ms": ws_p99 <= p99_ms,
        "probe p99 <= 2 x its p99 before the campaign (this run)":
            pct(http + ws, 99) <= 2 * pct(quiet, 99),
        "every refused request answered as documented":
            not any(t.wrong for t in camp.tallies.values()),
        "creation floods held to their limit": created == {
            "ledger-flood": LIMITS.ledgers_per_client, "table-flood": LIMITS.creates_per_client},
        "no traceback in the log": not tracebacks,
        f"log lines <= {log_bound} (one per attack kind per minute)": len(log) <= log_bound,
    }
    return {
        "bounds": {k: "PASS" if v else "FAIL" for k, v in bounds.items()},
        "probe": {"http": len(http), "http_p50_ms": round(pct(http, 50), 1),
            "http_p99_ms": round(http_p99, 1), "http_max_ms": round(max(http, default=0), 1),
            "ws_pings": len(ws), "ws_p50_ms": round(pct(ws, 50), 1),
            "ws_p99_ms": round(ws_p99, 1), "ws_max_ms": round(max(ws, default=0), 1),
            "p99_outside_cap_bursts_ms": round(pct(calm, 99), 1),
            "before_the_campaign": {"probes": len(quiet), "p50_ms": round(pct(quiet, 50), 1),
                                    "p99_ms": round(pct(quiet, 99), 1)},
            "p50_ratio_to_before": round(pct(http + ws, 50) / pct(quiet, 50), 2),
            "p99_ratio_to_before": round(pct(http + ws, 99) / pct(quiet, 99), 2),
            "failed": len(probed["failed"]), "failed_first": probed["failed"][:5],
            "fresh": len(probed["fresh"]), "fresh_refused_at_cap": sum(
                f[1] is not None for f in probed["fresh"]) - len(fresh_bad),
            "fresh_refused_otherwise": fresh_bad[:5]},
        "attacks": {k: {"sent": t.sent, "outcomes": dict(t.outcomes), "wrong": t.wrong,
                        "examples": t.examples} for k, t in sorted(camp.tallies.items())},
        "cap_bursts": len(camp.cap_windows),
        "log_lines": len(log), "log_first": log[:8], "tracebacks": len(tracebacks),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=2.0)
    ap.add_argument("--rate", type=float, default=40.0,
                    help="requests a second of each HTTP flood (oversized: a fifth)")
    ap.add_argument("--slow", type=int, default=20, help="slow connections of each kind")
    ap.add_argument("--cap-every", type=float, default=40.0, help="seconds between bursts")
    ap.add_argument("--cap-extra", type=int, default=50, help="connections past the cap")
    ap.add_argument("--ws-sockets", type=int, default=2)
    ap.add_argument("--frame-rate", type=float, default=200.0, help="bad frames a second")
    ap.add_argument("--p99-ms", type=float, default=250.0)
    ap.add_argument("--before", type=float, default=30.0,
                    help="seconds the probe runs alone first (the reference)")
    ap.add_argument("--keep", metavar="FILE", help="keep the server's log here")
    ap.add_argument("--priority", type=int, default=None, metavar="NICE",
                    help="the server's and the probe's scheduling priority (a diagnosis "
                         "on a busy machine: -10 gives them the CPU before the campaign)")
    ap.add_argument("--probe", nargs=4, metavar=("BASE", "TABLE", "TOKEN", "SECONDS"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.probe:
        base, table, token, seconds = args.probe
        print(json.dumps(asyncio.run(probe(base, table, token, float(seconds)))))
        return 0
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)     # the cap burst's sockets
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    port = free_port()
    base = f"http://{HOST}:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "serve.log"
        with open(log_path, "wb") as log_file:
            server = subprocess.Popen(
                [sys.executable, "-m", "sgmahjong", "serve", "--host", HOST, "--port",
                 str(port), "--database-url", f"sqlite:///{Path(tmp) / 'abuse.sqlite3'}"],
                stdout=subprocess.DEVNULL, stderr=log_file, env=dict(os.environ))
        try:
            up = time.monotonic() + 120
            while time.monotonic() < up:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{base}/api/options", timeout=5).status_code == 200:
                        break
                time.sleep(0.2)
            rss_start = rss_mib(server.pid)
            table, ledger = asyncio.run(setup(base))
            prober = subprocess.Popen(
                [sys.executable, __file__, "--probe", base, table["table_id"], table["token"],
                 str(args.before + args.minutes * 60 + 300)], stdout=subprocess.PIPE,
                env=dict(os.environ))
            assert prober.stdout is not None and prober.stdout.readline() == b"ready\n"
            if args.priority is not None:
                for pid in (server.pid, prober.pid):
                    os.setpriority(os.PRIO_PROCESS, pid, args.priority)
            own = time.process_time()
            camp = asyncio.run(campaign(args, base, port, table, ledger, server.pid))
            took = time.time() - camp.began
            cpu = (cpu_seconds(server.pid) - camp.server_cpu) / took
            own = (time.process_time() - own) / took
            prober.terminate()
            out, _ = prober.communicate(timeout=120)
            probed = json.loads(out)
            alive = server.poll() is None
            rss_end = rss_mib(server.pid)
        finally:
            server.terminate()
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        log = log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        if args.keep:
            Path(args.keep).write_text("\n".join(log) + "\n", encoding="utf-8")
    result = judge(camp, probed, log, args.minutes, args.p99_ms)
    result["bounds"]["server alive at the end"] = "PASS" if alive else "FAIL"
    result.update(minutes=args.minutes, rss_start_mib=rss_start, rss_end_mib=rss_end,
                  server_cpu_share_of_a_core=round(cpu, 2),
                  campaign_cpu_share_of_a_core=round(own, 2), load_average=os.getloadavg(),
                  priority=args.priority)
    print(json.dumps(result, indent=1))
    failed = [k for k, v in result["bounds"].items() if v == "FAIL"]
    for k, v in result["bounds"].items():
        print(f"{v} {k}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
