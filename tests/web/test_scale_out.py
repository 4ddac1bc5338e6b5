"""Several ``sgmahjong serve`` processes on one PostgreSQL database, and one on SQLite.

Three real servers (uvicorn, free ports) share a database; players of one table sit at
different servers; the server playing a table is killed (``kill -9``) in the middle of a
hand, and another must play on within 5 s, every seat's numbered event stream whole
(nothing missed, nothing twice) and the record valid for ``replay --check``.

Needs PostgreSQL: ``SGMAHJONG_TEST_DATABASE_URL`` (``bash .ci/postgres.sh`` starts one);
skipped without it unless ``SGMAHJONG_REQUIRE_POSTGRES=1``.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import websockets
from sqlalchemy.pool import NullPool

from sgmahjong.cli import main
from sgmahjong.store.db import database_url
from sgmahjong.store.leases import SingleServerLock

URL_ENV = "SGMAHJONG_TEST_DATABASE_URL"
REQUIRE_ENV = "SGMAHJONG_REQUIRE_POSTGRES"
ADDRESS = re.compile(r"http://127\.0\.0\.1:(\d+)/")


def serve_many(url: str, tmp: Path,
               names: list[str]) -> list[tuple[subprocess.Popen[str], str]]:
    """``sgmahjong serve`` processes on free ports, started together; each with its base
    URL."""
    procs = []
    for name in names:
        env = {**os.environ, "SGMAHJONG_DATA_DIR": str(tmp / name), "PYTHONUNBUFFERED": "1"}
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "sgmahjong", "serve", "--database-url", url, "--port", "0",
             "--ai-delay", "0", "--next-hand-delay", "0", "--claim-window", "0",
             "--turn-limit", "0", "--disconnect-grace", "60", "--allow-seed",
             "--rate", "1000"],
            stdout=subprocess.PIPE, stderr=open(tmp / f"{name}.log", "w"),  # noqa: SIM115
            text=True, env=env))
    out = []
    for name, proc in zip(names, procs, strict=True):
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = ADDRESS.search(line)
        if m is None:
            for p in procs:
                p.kill()
            raise AssertionError(f"{name} did not start: {line!r} "
                                 f"{(tmp / f'{name}.log').read_text()}")
        out.append((proc, f"http://127.0.0.1:{m.group(1)}"))
    return out


def serve(url: str, tmp: Path, name: str) -> tuple[subprocess.Popen[str], str]:
    return serve_many(url, tmp, [name])[0]


@pytest.fixture
def pg_url() -> Iterator[str]:
    url = os.environ.get(URL_ENV, "")
    if not url:
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"{REQUIRE_ENV}=1 but {URL_ENV} is not set", pytrace=False)
        pytest.skip(f"no PostgreSQL: set {URL_ENV} (bash .ci/postgres.sh starts one)")
    admin = sa.create_engine(database_url(url), isolation_level="AUTOCOMMIT",
                             poolclass=NullPool)
    name = f"sgmahjong_s_{uuid.uuid4().hex[:16]}"
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    yield admin.url.set(database=name).render_as_string(hide_password=False)
    with admin.connect() as conn:
        conn.execute(sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             "WHERE datname = :name AND pid <> pg_backend_pid()"),
                     {"name": name})
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}"'))
    admin.dispose()


@pytest.fixture
def servers(pg_url: str, tmp_path: Path) -> Iterator[list[tuple[subprocess.Popen[str], str]]]:
    procs = serve_many(pg_url, tmp_path, ["server0", "server1", "server2"])
    yield procs
    for p, _ in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)   # uvicorn stops gracefully on it
    for p, _ in procs:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    for kind in ("win", "discard", "pass"):
        for a in legal:
            if a["type"] == kind:
                return a
    return legal[0]


class Seat:
    """A player's websocket client: answers every request at once (unless held), says
    ready after each hand, and on losing its server connects to the next one with
    ``last_seen``. Keeps every event it was sent, in order."""

    def __init__(self, table: str, token: str, bases: list[str]) -> None:
        self.table = table
        self.token = token
        self.bases = bases                  # the servers to try, in turn
        self.events: list[tuple[int, Any]] = []
        self.errors: list[str] = []
        self.hold_from: int | None = None   # stop answering requests from this event on
        self.held: dict[str, Any] | None = None
        self.released = asyncio.Event()
        self.over = asyncio.Event()
        self.reconnects = 0
        self.ws: Any = None

    @property
    def n(self) -> int:
        return self.events[-1][0] if self.events else 0

    async def _answer(self, request: dict[str, Any]) -> None:
        await self.ws.send(json.dumps({"type": "action", "id": request["id"],
                                       "action": choose(request["legal"])}))

    async def run(self) -> None:
        i = 0
        while not self.over.is_set():
            base = self.bases[i % len(self.bases)]
            hello: dict[str, Any] = {"type": "hello", "token": self.token}
            if self.events:
                hello["last_seen"] = self.n
            try:
                async with websockets.connect(
                        base.replace("http", "ws") + f"/ws/tables/{self.table}",
                        close_timeout=0.2) as ws:
                    self.ws = ws
                    await ws.send(json.dumps(hello))
                    async for raw in ws:
                        await self._on(json.loads(raw))
                        if self.over.is_set():
                            return
            except (OSError, websockets.ConnectionClosed):
                pass
            self.reconnects += 1
            i += 1
            await asyncio.sleep(0.05)

    async def _on(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "event":
            self.events.append((msg["n"], msg["event"]))
        elif kind == "request":
            if self.hold_from is not None and msg["n"] >= self.hold_from:
                self.held = msg
                self.hold_from = None
                await self.released.wait()
                self.held = None      # answer the old request: it must not count twice
            await self._answer(msg)
        elif kind == "hand-end":
            await self.ws.send(json.dumps({"type": "ready"}))
        elif kind == "match-end":
            self.over.set()
        elif kind == "error":
            self.errors.append(msg["code"])


async def create(base: str, seed: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        r = await http.post("/api/tables", json={"name": "Ann", "rules": "casual",
                                                 "quick": True, "hints": False, "seed": seed,
                                                 "ai": ["greedy", "greedy", "greedy"]})
        r.raise_for_status()
        return r.json()


async def join(base: str, table: str) -> str:
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        r = await http.post(f"/api/tables/{table}/join", json={"name": "Bob"})
        r.raise_for_status()
        return str(r.json()["token"])


async def start(base: str, table: str, token: str) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        r = await http.post(f"/api/tables/{table}/start",
                            headers={"Authorization": f"Bearer {token}"})
        r.raise_for_status()


async def fresh_stream(base: str, table: str, token: str) -> list[tuple[int, Any]]:
    """Every event the seat may see, as a socket saying ``last_seen: 0`` is sent them."""
    out: list[tuple[int, Any]] = []
    async with websockets.connect(base.replace("http", "ws") + f"/ws/tables/{table}",
                                  close_timeout=0.2) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "last_seen": 0}))
        async for raw in ws:
            msg = json.loads(raw)
            if msg["type"] == "event":
                out.append((msg["n"], msg["event"]))
            elif msg["type"] == "match-end":
                return out
    return out


async def wait_until(check: Any, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"waited {timeout} s for {what}")
        await asyncio.sleep(0.02)


def lease_owner(url: str, table: str) -> tuple[str | None, int]:
    engine = sa.create_engine(database_url(url), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            row = conn.execute(sa.text("SELECT owner, epoch FROM table_leases "
                                       "WHERE table_id = :t"), {"t": table}).one()
            return row.owner, int(row.epoch)
    finally:
        engine.dispose()


def test_three_servers_play_on_when_the_owner_of_a_table_is_killed(
        servers: list[tuple[subprocess.Popen[str], str]], pg_url: str,
        tmp_path: Path) -> None:
    (pa, a), (_pb, b), (_pc, c) = servers

    async def scenario() -> list[tuple[str, str, list[Seat]]]:
        # table 1 is made (so played) on A; its two players sit at B and C
        t1 = await create(a, 11)
        bob1 = await join(b, t1["table_id"])     # joined through B: asked of A
        s1 = [Seat(t1["table_id"], t1["token"], [b, c]), Seat(t1["table_id"], bob1, [c, b])]
        # table 2 is made on B; one player sits at A (which will die), one at C
        t2 = await create(b, 22)
        bob2 = await join(c, t2["table_id"])
        s2 = [Seat(t2["table_id"], t2["token"], [a, c]), Seat(t2["table_id"], bob2, [c, b])]
        owner1 = lease_owner(pg_url, t1["table_id"])
        async with httpx.AsyncClient(timeout=10) as http:
            # the table's facts and its rules page, from a server that does not play it
            info = (await http.get(f"{c}/api/tables/{t1['table_id']}")).json()
            assert [x["name"] for x in info["seats"]][:2] == ["Ann", "Bob"]
            assert info["seats"][1]["kind"] == "human" and info["status"] == "waiting"
            page = await http.get(f"{c}/learn?table={t1['table_id']}")
            assert page.status_code == 200 and "casual" in page.text
        s1[0].hold_from = 40          # Ann stops answering in the middle of hand 1
        tasks = [asyncio.create_task(s.run()) for s in s1 + s2]
        await wait_until(lambda: all(s.ws is not None for s in s1 + s2), 10, "sockets")
        # who sits connected is known where the table is played (A), and every other server
        # shows the same: Ann and Bob are connected through B and C, the AI seats are not
        async with httpx.AsyncClient(timeout=10) as http:
            async def connected(base: str) -> list[bool]:
                seats = (await http.get(f"{base}/api/tables/{t1['table_id']}")).json()["seats"]
                return [x["connected"] for x in seats]
            want = [True, True, False, False]
            end = time.monotonic() + 10
            while await connected(a) != want and time.monotonic() < end:
                await asyncio.sleep(0.05)     # the relayed hellos reach A
            assert await connected(a) == want
            assert await connected(b) == want and await connected(c) == want
        await start(c, t1["table_id"], t1["token"])   # started through C
        await start(a, t2["table_id"], t2["token"])
        t0 = time.monotonic()
        await wait_until(lambda: s1[0].held is not None, 20, "the hand to reach Ann")
        print(f"held after {time.monotonic() - t0:.2f} s", file=sys.stderr)
        held_n = s1[0].held["n"]
        assert held_n >= 40
        pa.send_signal(signal.SIGKILL)       # the owner of table 1 dies mid-hand
        pa.wait()
        killed = time.monotonic()
        s1[0].released.set()                 # her answer goes to a dead server
        await wait_until(lambda: max(s.n for s in s1) > held_n, 5.0,
                         "another server to play table 1 on")
        took = time.monotonic() - killed
        # her answer to the dead server's request was refused, not lost or applied late:
        # she answered the new owner's request instead
        await wait_until(lambda: "stale" in s1[0].errors, 5.0, "the stale answer's refusal")
        owner, epoch = lease_owner(pg_url, t1["table_id"])
        assert owner != owner1[0] and epoch > owner1[1]
        print(f"table 1 played on {took:.2f} s after its server was killed", file=sys.stderr)
        await asyncio.wait_for(asyncio.gather(*(s.over.wait() for s in s1 + s2)), 90)
        print(f"over after {time.monotonic() - t0:.2f} s", file=sys.stderr)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert s2[0].reconnects >= 1         # table 2's player at A came back through C
        return [(t1["table_id"], t1["token"], s1), (t2["table_id"], t2["token"], s2)]

    tables = asyncio.run(scenario())
    for table, _token, seats in tables:
        for seat in seats:
            whole = asyncio.run(fresh_stream(c, table, seat.token))
            numbers = [n for n, _ in seat.events]
            assert numbers == sorted(set(numbers)), "an event came twice or out of order"
            assert seat.events == whole, "the stream differs from the stored log"
        record = httpx.get(f"{b}/api/tables/{table}/record", timeout=10)
        assert record.status_code == 200
        path = tmp_path / f"{table}.jsonl"
        path.write_text(record.text)
        lines = [json.loads(x) for x in record.text.splitlines()]
        started = sum(1 for x in lines[1:] if x.get("type") == "hand-started")
        assert lines[0]["hands"] == started == 4     # the casual quick game: four hands
        assert main(["replay", str(path), "--check"]) == 0


def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    first, _ = serve(url, tmp_path, "first")
    try:
        second = subprocess.run(
            [sys.executable, "-m", "sgmahjong", "serve", "--database-url", url, "--port", "0"],
            capture_output=True, text=True, timeout=30,
            env={**os.environ, "SGMAHJONG_DATA_DIR": str(tmp_path)})
        assert second.returncode != 0
        assert "already served by sgmahjong serve (process" in second.stderr
        assert f"process {first.pid})" in second.stderr
        assert "PostgreSQL" in second.stderr
        assert "Traceback" not in second.stderr
    finally:
        first.send_signal(signal.SIGTERM)
        first.wait(10)
    # once the first has stopped, the file is free again
    lock = SingleServerLock(url)
    lock.acquire()
    lock.release()


@pytest.mark.parametrize("rate", ["0", "-3"])
def test_a_rate_that_lets_nothing_through_is_refused(
        rate: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    assert main(["serve", "--database-url", url, "--port", "0", "--rate", rate]) == 2
    err = capsys.readouterr().err
    assert err == f"sgmahjong serve: error: --rate must be above 0, not {float(rate)}\n"
    assert not (tmp_path / "web.sqlite3").exists()        # nothing was started
