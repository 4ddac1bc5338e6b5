"""A crowd arriving at a table: what 200 spectators joining within a second or two cost.

A server (``sgmahjong.web`` under uvicorn, in a child process of its own on loopback and a
temporary SQLite file) plays a full match of four websocket bots; while they play
(answering each request after ``--think`` seconds), ``--spectators`` sockets connect at
once and stay. It counts the "table" (presence) messages the sockets received and the
bots' worst and median ack latency (action sent until its ``ack``) for actions sent
while the crowd arrived (from the first connect until a second after the last welcome),
and how long the crowd took to be welcomed (``arrival_s``).

Each run measures presence_interval 0 (every arrival broadcast at once to every socket:
the server's behaviour before presence was coalesced) and the default 1 s, alternately,
``--runs`` times, and prints the medians and the ratio of the second to the first:

    python bench/bench_presence.py --spectators 200 --runs 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(port: int, presence: float, folder: str) -> None:
    """The server (child process): the web app with ``presence_interval`` = ``presence``."""
    import uvicorn

    from sgmahjong.store.db import TableStore
    from sgmahjong.web import WebConfig, create_app

    store = TableStore(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
    cfg = WebConfig(ai_delay=0.0, next_hand_delay=0.0, allow_seed=True, rate=1000,
                    burst=1000, resume_on_startup=False, presence_interval=presence,
                    ai_processes=0)
    uvicorn.run(create_app(cfg, store), host="127.0.0.1", port=port, log_level="warning")


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
class Run:
    acks: list[tuple[float, float]] = field(default_factory=list)   # (sent at, latency)
    tables: int = 0            # "table" messages received by the spectators
    messages: int = 0          # every message received by the spectators
    most_tables: int = 0       # the most "table" messages one spectator received
    first_connect: float = 0.0
    welcomed: int = 0
    last_welcome: float = 0.0
    ended: bool = False        # the match ended under way (the run tells nothing)


async def player(url: str, token: str, think: float, stop: asyncio.Event, run: Run,
                 playing: asyncio.Event) -> None:
    async with websockets.connect(url, max_size=2**22, close_timeout=0.2) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent: float | None = None
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            msg = json.loads(raw)
            t = msg["type"]
            if t == "ack" and sent is not None:
                run.acks.append((sent, time.perf_counter() - sent))
                sent = None
            elif t == "request":
                playing.set()
                await asyncio.sleep(think)
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "id": msg["id"],
                                          "action": choose(msg["legal"], msg["view"])}))
            elif t == "hand-end":
                await ws.send(json.dumps({"type": "ready"}))
            elif t == "match-end":
                run.ended = True
                return


async def spectator(url: str, stop: asyncio.Event, run: Run) -> None:
    async with websockets.connect(url, max_size=2**22, close_timeout=0.2,
                                  open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "spectate": True}))
        tables = 0
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            msg = json.loads(raw)
            run.messages += 1
            if msg["type"] == "welcome":
                run.welcomed += 1
                run.last_welcome = max(run.last_welcome, time.perf_counter())
            elif msg["type"] == "table":
                tables += 1
        run.tables += tables
        run.most_tables = max(run.most_tables, tables)


async def crowd(base: str, spectators: int, think: float) -> Run:
    run = Run()
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        r = await http.post("/api/tables", json={
            "name": "Bot", "rules": "casual", "quick": False, "hints": False, "seed": 7,
            "ai": ["greedy", "greedy", "greedy"]})
        r.raise_for_status()
        t = r.json()
        tokens = [t["token"]]
        for i in range(3):
            j = await http.post(f"/api/tables/{t['table_id']}/join", json={"name": f"Bot{i}"})
            j.raise_for_status()
            tokens.append(j.json()["token"])
        ws_url = f"{base.replace('http://', 'ws://')}/ws/tables/{t['table_id']}"
        stop, playing = asyncio.Event(), asyncio.Event()
        bots = [asyncio.create_task(player(ws_url, tok, think, stop, run, playing))
                for tok in tokens]
        await asyncio.sleep(0.3)
        (await http.post(f"/api/tables/{t['table_id']}/start",
                         headers={"Authorization": f"Bearer {t['token']}"})).raise_for_status()
        await asyncio.wait_for(playing.wait(), 30)
        await asyncio.sleep(1.5)      # the bot plays alone a while: a quiet table
        run.first_connect = time.perf_counter()
        watchers = [asyncio.create_task(spectator(ws_url, stop, run))
                    for _ in range(spectators)]
        # everyone in, then a few seconds for the presence still due to arrive
        deadline = time.monotonic() + 120
        while run.welcomed < spectators and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        await asyncio.sleep(3.0)
        stop.set()
        await asyncio.gather(*watchers, return_exceptions=True)
        for bot in bots:
            bot.cancel()
        await asyncio.gather(*bots, return_exceptions=True)
    return run


def measure(presence: float, spectators: int, think: float) -> dict[str, Any]:
    port = free_port()
    folder = tempfile.mkdtemp(prefix="sgmj-presence-")
    # the server's log (asyncio's "socket.send() raised exception." as the crowd leaves)
    # goes to a file in its folder, not between the figures
    log = (Path(folder) / "server.log").open("wb")
    child = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(port), "--presence", str(presence),
         "--folder", folder], env=dict(os.environ), stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{base}/api/options", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline or child.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        run = asyncio.run(crowd(base, spectators, think))
    finally:
        child.terminate()
        try:
            child.wait(10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(10)
        log.close()
    window_end = run.last_welcome + 1.0
    during = [lat for at, lat in run.acks if run.first_connect <= at <= window_end]
    return {"presence_interval": presence, "welcomed": run.welcomed, "ended": run.ended,
            "table_messages": run.tables,
            "most_per_socket": run.most_tables, "messages": run.messages,
            "arrival_s": round(run.last_welcome - run.first_connect, 2),
            "acks_during": len(during),
            "worst_ack_ms": round(max(during) * 1000, 1) if during else None,
            "median_ack_ms": round(statistics.median(during) * 1000, 1) if during else None}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spectators", type=int, default=200)
    ap.add_argument("--runs", type=int, default=3, help="runs of each setting, alternated")
    ap.add_argument("--think", type=float, default=0.05, metavar="SECONDS",
                    help="the bot's pause before answering each request")
    ap.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--presence", type=float, default=1.0, help=argparse.SUPPRESS)
    ap.add_argument("--folder", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve:
        serve(args.serve, args.presence, args.folder)
        return 0
    print(f"load average at the start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
          flush=True)
    results: dict[float, list[dict[str, Any]]] = {0.0: [], 1.0: []}
    for _ in range(args.runs):
        for presence in (0.0, 1.0):
            r = measure(presence, args.spectators, args.think)
            results[presence].append(r)
            print(json.dumps(r), flush=True)

    def med(presence: float, key: str) -> float:
        return float(statistics.median(r[key] for r in results[presence]
                                       if r[key] is not None and not r["ended"]))

    for key in ("table_messages", "most_per_socket", "messages", "arrival_s",
                "acks_during", "worst_ack_ms", "median_ack_ms"):
        before, after = med(0.0, key), med(1.0, key)
        ratio = after / before if before else float("nan")
        print(f"{key:16s} every arrival at once {before:9.1f}   coalesced (1 s) "
              f"{after:9.1f}   ratio {ratio:.3f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
