"""The web benches' load: websocket bots at tables made over HTTP, their action latency,
and ``sgmahjong serve`` processes to point them at (bench_web.py and web_compare.py)."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

# What makes a server's own work the thing measured: no pause after an AI move, no pause
# between hands, no clocks that would play for a bot, no limits a bench meets.
SERVE_ARGS = ["--ai-delay", "0", "--next-hand-delay", "0", "--claim-window", "0",
              "--turn-limit", "0", "--allow-seed", "--rate", "1000",
              "--tables-per-client", "1000000"]


def choose(legal: list[dict[str, Any]], view: dict[str, Any]) -> dict[str, Any]:
    for a in legal:
        if a["type"] == "win":
            return a
    for a in legal:
        if a["type"] == "discard" and a["tile"] == view.get("last_drawn"):
            return a
    for a in legal:
        if a["type"] == "discard":
            return a
    return next((a for a in legal if a["type"] == "pass"), legal[0])


@dataclass
class Stats:
    messages: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    last: float = 0.0       # perf_counter of the last message received
    failures: list[str] = field(default_factory=list)   # tables that could not be played


async def bot(url: str, table_id: str, token: str, hands: int, stats: Stats,
              deadline: float, started: asyncio.Event, think: float = 0.0) -> None:
    # close_timeout: the close handshake is not part of what is measured
    async with websockets.connect(f"{url}/ws/tables/{table_id}", max_size=2**20,
                                  close_timeout=0.2) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        started.set()
        sent_at: float | None = None
        ended = 0
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                return
            now = time.perf_counter()
            stats.last = max(stats.last, now)
            stats.messages += 1
            msg = json.loads(raw)
            t = msg["type"]
            if t == "ack" and sent_at is not None:
                stats.latencies.append(now - sent_at)
                sent_at = None
            elif t == "request":
                if think:
                    await asyncio.sleep(think)
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "id": msg["id"],
                                          "action": choose(msg["legal"], msg["view"])}))
            elif t == "error":
                stats.errors += 1
            elif t == "hand-end":
                ended += 1
                if ended >= hands:
                    return
                await ws.send(json.dumps({"type": "ready"}))
            elif t == "match-end":
                return


class Spread:
    """The servers in turn, as a round-robin load balancer without sticky sessions."""

    def __init__(self, bases: list[str]) -> None:
        self._next = itertools.cycle(bases)

    def __call__(self) -> str:
        return next(self._next)


async def one_table(spread: Spread, humans: int, hands: int, stats: Stats,
                    deadline: float, seed: int, think: float, ai: str = "greedy") -> None:
    base = spread()
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        r = await http.post("/api/tables", json={
            "name": "Bot 1", "rules": "casual", "quick": True, "hints": False,
            "seed": seed, "ai": [ai, ai, ai]})
        r.raise_for_status()
        t = r.json()
        tokens = [t["token"]]
        for i in range(1, humans):
            for _attempt in range(3):    # "busy" (503): asked again, as a page would
                j = await http.post(f"{spread()}/api/tables/{t['table_id']}/join",
                                    json={"name": f"Bot {i + 1}"})
                if j.status_code != 503:
                    break
            j.raise_for_status()
            tokens.append(j.json()["token"])
        ready = [asyncio.Event() for _ in tokens]
        tasks = [asyncio.create_task(bot(spread().replace("http://", "ws://"), t["table_id"],
                                         tok, hands, stats, deadline, ev, think))
                 for tok, ev in zip(tokens, ready, strict=True)]
        await asyncio.gather(*(e.wait() for e in ready))
        await asyncio.sleep(0.05)
        # a relayed start can be "busy" (503) when the table's server is slow to answer:
        # asked again with the same key, as the page does (a server without keys ignores it)
        key = {"Authorization": f"Bearer {t['token']}", "Idempotency-Key": uuid.uuid4().hex}
        for _attempt in range(3):
            s = await http.post(f"{spread()}/api/tables/{t['table_id']}/start", headers=key)
            if s.status_code != 503:
                break
        s.raise_for_status()
        await asyncio.gather(*tasks)


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] * 1000


async def run_level(bases: list[str], n: int, humans: int, hands: int, limit: float,
                    think: float, ai: str = "greedy") -> dict[str, Any]:
    stats = Stats()
    deadline = time.monotonic() + limit
    t0 = time.perf_counter()
    spread = Spread(bases)

    async def table(i: int) -> None:
        try:
            await one_table(spread, humans, hands, stats, deadline, 1000 + i, think, ai)
        except (OSError, httpx.HTTPError, websockets.WebSocketException) as e:
            # a refused request or a dropped socket: this level was not held
            stats.failures.append(f"{type(e).__name__}: {e}"[:200])

    await asyncio.gather(*(table(i) for i in range(n)))
    elapsed = (stats.last or time.perf_counter()) - t0   # to the last message received
    return {"tables": n, "seconds": round(elapsed, 2), "messages": stats.messages,
            "msgs_per_s": round(stats.messages / elapsed), "actions": len(stats.latencies),
            "actions_per_s": round(len(stats.latencies) / elapsed),
            "p50_ms": round(pct(stats.latencies, 50), 2),
            "p90_ms": round(pct(stats.latencies, 90), 2),
            "p99_ms": round(pct(stats.latencies, 99), 2),
            "mean_ms": round(statistics.fmean(stats.latencies) * 1000, 2)
            if stats.latencies else None,
            "errors": stats.errors, "failed_tables": len(stats.failures),
            "failure": stats.failures[0] if stats.failures else None,
            "timed_out": time.monotonic() >= deadline}


def held(r: dict[str, Any]) -> bool:
    """The level's tables were held: every action acknowledged within 100 ms at the 99th
    percentile, every table played to its end within the time given."""
    return (r["actions"] > 0 and r["p99_ms"] <= 100 and not r["timed_out"]
            and not r["failed_tables"])


def start_servers(url: str, k: int, logs: Path, *, src: Path | None = None,
                  extra: list[str] | None = None, name: str = "server"
                  ) -> tuple[list[subprocess.Popen[str]], list[str]]:
    """``k`` ``sgmahjong serve`` processes on one database, on free ports, once each
    answers. ``src``: the folder the ``sgmahjong`` package is imported from (another
    revision's copy), else this process's own path."""
    env = {**os.environ, "SGMAHJONG_DATA_DIR": str(logs)}
    if src is not None:
        env["PYTHONPATH"] = str(src)
    procs = []
    for i in range(k):
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "sgmahjong", "serve", "--database-url", url, "--port", "0",
             *SERVE_ARGS, *(extra or [])],
            stdout=subprocess.PIPE, stderr=open(logs / f"{name}{i}.log", "a"),  # noqa: SIM115
            text=True, env=env, cwd=logs))
    bases = []
    for p in procs:
        assert p.stdout is not None
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", p.stdout.readline())
        if m is None:
            stop_servers(procs)
            raise SystemExit(f"a server did not start: see {logs}")
        bases.append(f"http://127.0.0.1:{m.group(1)}")
    for base in bases:
        # the address is printed before the app has started: wait until it answers
        for _ in range(600):
            try:
                if httpx.get(f"{base}/", timeout=5).status_code < 500:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        else:
            stop_servers(procs)
            raise SystemExit(f"a server did not answer: see {logs}")
    return procs, bases


def stop_servers(procs: list[subprocess.Popen[str]]) -> None:
    for p in procs:
        p.send_signal(signal.SIGTERM)   # uvicorn stops gracefully on it
    for p in procs:
        try:
            p.wait(15)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
