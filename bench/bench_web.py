"""Web table load: N concurrent tables of websocket bots against uvicorn on loopback.

Starts the app in-process (uvicorn in a thread, 127.0.0.1, a free port, a temporary SQLite
file), then for each N in ``--tables`` opens N tables, seats ``--humans`` websocket bots at
each (the server's AI plays the other seats), plays ``--hands`` hands per table and
reports messages per second and action latency (an action sent until its ``ack`` arrives:
checked by the engine, stored, broadcast) at p50 / p90 / p99. Stops by itself.

    python bench/bench_web.py --tables 1,4,16,32 --hands 1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets

from sgmahjong.store.db import TableStore
from sgmahjong.web import WebConfig, create_app
from sgmahjong.web.limits import WebLimits


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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


async def one_table(base: str, humans: int, hands: int, stats: Stats,
                    deadline: float, seed: int, think: float) -> None:
    url = base.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        r = await http.post("/api/tables", json={
            "name": "Bot 1", "rules": "casual", "quick": True, "hints": False,
            "seed": seed, "ai": ["greedy", "greedy", "greedy"]})
        r.raise_for_status()
        t = r.json()
        tokens = [t["token"]]
        for i in range(1, humans):
            j = await http.post(f"/api/tables/{t['table_id']}/join", json={"name": f"Bot {i + 1}"})
            j.raise_for_status()
            tokens.append(j.json()["token"])
        ready = [asyncio.Event() for _ in tokens]
        tasks = [asyncio.create_task(bot(url, t["table_id"], tok, hands, stats, deadline, ev,
                                         think))
                 for tok, ev in zip(tokens, ready, strict=True)]
        await asyncio.gather(*(e.wait() for e in ready))
        await asyncio.sleep(0.05)
        (await http.post(f"/api/tables/{t['table_id']}/start",
                         headers={"Authorization": f"Bearer {t['token']}"})).raise_for_status()
        await asyncio.gather(*tasks)


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] * 1000


async def run_level(base: str, n: int, humans: int, hands: int, limit: float,
                    think: float) -> dict[str, Any]:
    stats = Stats()
    deadline = time.monotonic() + limit
    t0 = time.perf_counter()
    await asyncio.gather(*(one_table(base, humans, hands, stats, deadline, 1000 + i, think)
                           for i in range(n)))
    elapsed = (stats.last or time.perf_counter()) - t0   # to the last message received
    return {"tables": n, "seconds": round(elapsed, 2), "messages": stats.messages,
            "msgs_per_s": round(stats.messages / elapsed), "actions": len(stats.latencies),
            "actions_per_s": round(len(stats.latencies) / elapsed),
            "p50_ms": round(pct(stats.latencies, 50), 2),
            "p90_ms": round(pct(stats.latencies, 90), 2),
            "p99_ms": round(pct(stats.latencies, 99), 2),
            "mean_ms": round(statistics.fmean(stats.latencies) * 1000, 2)
            if stats.latencies else None,
            "errors": stats.errors, "timed_out": time.monotonic() >= deadline}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", default="1,4,8,16,32", help="comma list of table counts")
    ap.add_argument("--humans", type=int, default=4, choices=range(1, 5),
                    help="websocket bots per table (the server's AI plays the rest)")
    ap.add_argument("--hands", type=int, default=1, help="hands per table (quick game: <= 4)")
    ap.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                    help="each bot's pause before answering a request (people think)")
    ap.add_argument("--limit", type=float, default=120.0, help="seconds per level at most")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    tmp = Path(tempfile.mkdtemp(prefix="sgmj-bench-"))
    store = TableStore(f"sqlite:///{tmp / 'bench.sqlite3'}")
    cfg = WebConfig(ai_delay=0.0, next_hand_delay=0.0, allow_seed=True, rate=1000, burst=1000,
                    resume_on_startup=False,
                    limits=WebLimits(max_tables=100_000, max_waiting=100_000,
                                     creates_per_client=10**9))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(cfg, store), host="127.0.0.1",
                                           port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    results = []
    try:
        for n in (int(x) for x in args.tables.split(",")):
            r = asyncio.run(run_level(base, n, args.humans, args.hands, args.limit,
                                      args.think))
            results.append(r)
            if not args.json:
                print(f"{n:4d} tables: {r['msgs_per_s']:6d} msgs/s, {r['actions_per_s']:5d} "
                      f"actions/s, latency p50 {r['p50_ms']:7.2f} ms  p90 {r['p90_ms']:7.2f} ms"
                      f"  p99 {r['p99_ms']:7.2f} ms  ({r['actions']} actions, "
                      f"{r['seconds']} s{', TIMED OUT' if r['timed_out'] else ''})",
                      flush=True)
    finally:
        server.should_exit = True
        thread.join(10)
        store.close()
    ok = [r["tables"] for r in results if r["p99_ms"] < 100 and not r["timed_out"]]
    if args.json:
        print(json.dumps({"results": results, "max_tables_p99_under_100ms": max(ok or [0])}))
    else:
        print(f"most concurrent tables with p99 < 100 ms: {max(ok or [0])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
