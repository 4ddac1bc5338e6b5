"""Web server soak: tables starting and finishing for a given time; memory must stay flat.

Starts the server in a child process (uvicorn on 127.0.0.1, a free port, a temporary
SQLite file, the default limits except the per-client create limit, which the bots would
hit), then keeps ``--tables`` tables in play: each is created, its ``--humans`` websocket
bots take their seats (the server's AI plays the rest), it is played to the end of its
quick game, its record is downloaded, and a new table takes its place. Finished tables
stay in the database and leave the server's memory once nobody watches them
(``finished_idle``).

Every minute it prints one JSON line: the server's resident memory (RSS, from /proc), that
of its AI worker processes (its children, summed), tables finished, actions and errors so
far. At the end: each RSS after the warm-up minute (``--warmup``) against the last, the
action latency (an action sent until its ``ack``) at p50 / p99, errors, and whether a
finished table long gone from memory still loads (its record downloads). ``--trace
FILE`` runs the server under tracemalloc and writes, every minute, the allocations that
grew most since the warm-up.

    nice -n 5 python bench/soak_web.py --minutes 30 --tables 8
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import websockets
from bench_web import choose  # the same instant bot as the web bench (bench/ is on the path)
from mem_probe import rss_kib

if TYPE_CHECKING:
    from sgmahjong.web.memory import MemoBounds

# ---------------------------------------------------------------------------- server


def serve(port: int, db: str, trace: str | None, warmup: float,
          finished_idle: float, probe: bool = False) -> None:
    """The child process: the web app on 127.0.0.1:port."""
    from sgmahjong.web.memory import limit_malloc_arenas
    limit_malloc_arenas()     # as `sgmahjong serve` does, before any thread starts
    if probe:
        from sgmahjong.web import workers
        workers._start_worker = _probing_worker    # type: ignore[assignment]
        threading.Thread(target=_probes, args=("server",), daemon=True).start()
    if trace:
        import tracemalloc
        tracemalloc.start(12)
    import uvicorn

    from sgmahjong.store.db import TableStore
    from sgmahjong.web import WebConfig, create_app
    from sgmahjong.web.limits import WebLimits

    limits = WebLimits(creates_per_client=10**9, finished_idle=finished_idle,
                       sweep_every=min(60.0, finished_idle))
    cfg = WebConfig(ai_delay=0.0, next_hand_delay=0.0, resume_on_startup=False,
                    rate=1000, burst=1000, claim_window=0, turn_limit=0, limits=limits)
    if trace:
        threading.Thread(target=_tracer, args=(trace, warmup), daemon=True).start()
    app = create_app(cfg, TableStore(f"sqlite:///{db}"))
    threading.Thread(target=_holdings, args=(app,), daemon=True).start()
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning",
                ws_max_size=64 * 1024)


def _holdings(app: Any) -> None:
    """Every minute, on stderr: what the server holds (tables, the memo tables)."""
    from sgmahjong.web.memory import memo_sizes
    while True:
        time.sleep(60)
        tables = list(app.state.lobby.tables.values())
        print(json.dumps({"server_tables": len(tables),
                          "finished_in_memory": sum(t.status == "finished" for t in tables),
                          **memo_sizes(),
                          # SQLAlchemy's compiled statements, kept up to 500
                          "compiled_statements": len(app.state.store.engine._compiled_cache)}),
              file=sys.stderr, flush=True)


def _probing_worker(parent: int, bounds: MemoBounds) -> None:
    """An AI worker's start (spawned: this module is its main), reporting like the server."""
    from sgmahjong.web.workers import _start_worker
    _start_worker(parent, bounds)
    threading.Thread(target=_probes, args=("worker",), daemon=True).start()


def _probes(role: str) -> None:
    """Every minute, on stderr: what this process's memory is made of (``mem_probe``)."""
    from mem_probe import probe
    while True:
        time.sleep(60)
        print(json.dumps({"probe": role, **probe()}), file=sys.stderr, flush=True)


def _tracer(path: str, warmup: float) -> None:
    """Every minute: the 25 allocation sites that grew most since the warm-up."""
    import gc
    import tracemalloc
    time.sleep(warmup)
    gc.collect()
    base = tracemalloc.take_snapshot()
    minute = 0
    while True:
        time.sleep(60)
        minute += 1
        gc.collect()
        snap = tracemalloc.take_snapshot()
        stats = snap.compare_to(base, "traceback")[:25]
        with open(path, "a", encoding="utf-8") as f:
            total = sum(s.size for s in snap.statistics("filename"))
            f.write(f"=== {minute} min after warm-up: traced {total / 2**20:.1f} MiB\n")
            for s in stats:
                f.write(f"{s.size_diff / 1024:+9.1f} KiB {s.count_diff:+7d} blocks\n")
                for line in s.traceback.format()[-8:]:
                    f.write(f"      {line}\n")
            f.flush()


def workers_rss_kib(pid: int) -> int:
    """Resident memory of a process's children (the server's AI worker processes)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text(encoding="ascii")
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                total += rss_kib(int(entry.name))
    return total

# ---------------------------------------------------------------------------- bots


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    finished: int = 0
    actions: int = 0
    first_table: str | None = None


async def seat_bot(url: str, table_id: str, token: str, stats: Stats, think: float,
                   ready: asyncio.Event, deadline: float) -> None:
    async with websockets.connect(f"{url}/ws/tables/{table_id}", max_size=2**22,
                                  close_timeout=0.5) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                ready.set()     # nobody waits for a bot that never got in
                return          # the soak is over; the table is left unfinished
            msg = json.loads(raw)
            t = msg["type"]
            if t == "welcome":
                ready.set()
            elif t == "ack" and sent_at is not None:
                stats.latencies.append(time.perf_counter() - sent_at)
                stats.actions += 1
                sent_at = None
            elif t == "request":
                if think:
                    await asyncio.sleep(think * random.random() * 2)
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "id": msg["id"],
                                          "action": choose(msg["legal"], msg["view"])}))
            elif t == "error":
                stats.errors.append(f"{msg.get('code')}: {msg.get('message')}")
            elif t == "hand-end":
                await ws.send(json.dumps({"type": "ready"}))
            elif t == "match-end":
                return


async def table_loop(base: str, humans: int, ai: list[str], think: float, stats: Stats,
                     deadline: float) -> None:
    url = base.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while time.monotonic() < deadline:
            try:
                r = await http.post("/api/tables", json={
                    "name": "Bot 1", "rules": "casual", "quick": True, "hints": False,
                    "ai": ai})
                r.raise_for_status()
                t = r.json()
                tid = t["table_id"]
                stats.first_table = stats.first_table or tid
                tokens = [t["token"]]
                for i in range(1, humans):
                    j = await http.post(f"/api/tables/{tid}/join", json={"name": f"Bot {i + 1}"})
                    j.raise_for_status()
                    tokens.append(j.json()["token"])
                ready = [asyncio.Event() for _ in tokens]
                bots = [asyncio.create_task(seat_bot(url, tid, tok, stats, think, ev,
                                                     deadline))
                        for tok, ev in zip(tokens, ready, strict=True)]
                await asyncio.wait([asyncio.ensure_future(e.wait()) for e in ready],
                                   timeout=max(1.0, deadline - time.monotonic() + 5))
                if time.monotonic() >= deadline:
                    await asyncio.gather(*bots, return_exceptions=True)
                    return
                s = await http.post(f"/api/tables/{tid}/start",
                                    headers={"Authorization": f"Bearer {t['token']}"})
                s.raise_for_status()
                await asyncio.gather(*bots)
                if time.monotonic() >= deadline:
                    return
                rec = await http.get(f"/api/tables/{tid}/record")
                rec.raise_for_status()
                stats.finished += 1
            except Exception as exc:   # counted and reported, the soak goes on
                stats.errors.append(f"{type(exc).__name__}: {exc}"[:200])
                await asyncio.sleep(1)


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


async def soak(args: argparse.Namespace, base: str, pid: int) -> dict[str, Any]:
    stats = Stats()
    start = time.monotonic()
    deadline = start + args.minutes * 60
    loops = [asyncio.create_task(table_loop(base, args.humans, args.ai, args.think, stats,
                                            deadline)) for _ in range(args.tables)]
    samples: list[tuple[float, int]] = []
    workers: list[tuple[float, int]] = []
    while time.monotonic() < deadline:
        await asyncio.sleep(min(60.0, max(0.0, deadline - time.monotonic())))
        minute = round((time.monotonic() - start) / 60, 2)
        rss = rss_kib(pid)
        samples.append((minute, rss))
        workers.append((minute, workers_rss_kib(pid)))
        lat = stats.latencies[-5000:]
        print(json.dumps({"minute": minute, "rss_mib": round(rss / 1024, 1),
                          "workers_rss_mib": round(workers[-1][1] / 1024, 1),
                          "finished": stats.finished, "actions": stats.actions,
                          "errors": len(stats.errors),
                          "p50_ms": round(pct(lat, 50) * 1000, 1),
                          "p99_ms": round(pct(lat, 99) * 1000, 1)}), flush=True)
    await asyncio.gather(*loops, return_exceptions=True)
    reloaded = None
    if stats.first_table is not None:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            r = await http.get(f"/api/tables/{stats.first_table}/record")
            reloaded = r.status_code == 200 and r.text.count("\n") > 1
    after = [rss for m, rss in samples if m >= args.warmup]
    warm = after[0] if after else None
    end = samples[-1][1] if samples else None
    return {
        "minutes": args.minutes, "tables": args.tables, "humans": args.humans,
        "ai": args.ai, "think": args.think, "finished": stats.finished,
        "actions": stats.actions, "errors": len(stats.errors),
        "first_errors": stats.errors[:5],
        "p50_ms": round(pct(stats.latencies, 50) * 1000, 1),
        "p99_ms": round(pct(stats.latencies, 99) * 1000, 1),
        "rss_mib": [round(r / 1024, 1) for _, r in samples],
        "rss_warm_mib": None if warm is None else round(warm / 1024, 1),
        "rss_end_mib": None if end is None else round(end / 1024, 1),
        "growth_after_warmup": None if not warm or end is None else round(end / warm - 1, 4),
        "rss_max_after_warmup_mib": round(max(after) / 1024, 1) if after else None,
        "first_table_reloaded": reloaded,
        # the AI worker processes (one per core) hold the AI's memos: measured apart
        "workers_rss_mib": [round(r / 1024, 1) for _, r in workers],
        "workers_growth_after_warmup": _growth(workers, args.warmup),
    }


def _growth(samples: list[tuple[float, int]], warmup: float) -> float | None:
    after = [rss for m, rss in samples if m >= warmup]
    return round(after[-1] / after[0] - 1, 4) if after and after[0] else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--tables", type=int, default=8, help="tables in play at once")
    ap.add_argument("--humans", type=int, default=1, help="websocket bots per table (1-4)")
    ap.add_argument("--ai", nargs=3, default=["snail", "rabbit", "hedgehog"],
                    help="the server's AI levels for the other seats")
    ap.add_argument("--think", type=float, default=0.02,
                    help="mean seconds a bot waits before answering")
    ap.add_argument("--warmup", type=int, default=5,
                    help="the minute whose RSS the end is compared with")
    ap.add_argument("--finished-idle", type=float, default=120.0,
                    help="seconds before a finished, unwatched table leaves memory")
    ap.add_argument("--trace", metavar="FILE",
                    help="run the server under tracemalloc; growth report to FILE")
    ap.add_argument("--probe", action="store_true",
                    help="every minute, on stderr, what the server's and each worker's "
                         "memory is made of (bench/mem_probe.py)")
    ap.add_argument("--serve", nargs=2, metavar=("PORT", "DB"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(int(args.serve[0]), args.serve[1], args.trace, args.warmup * 60,
              args.finished_idle, args.probe)
        return 0
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "soak.sqlite3")
        cmd = [sys.executable, __file__, "--serve", str(port), db,
               "--warmup", str(args.warmup), "--finished-idle", str(args.finished_idle)]
        if args.trace:
            cmd += ["--trace", args.trace]
        if args.probe:
            cmd.append("--probe")
        child = subprocess.Popen(cmd, env=dict(os.environ))
        try:
            base = f"http://127.0.0.1:{port}"
            up = time.monotonic() + 120
            while time.monotonic() < up:
                try:
                    if httpx.get(f"{base}/api/options", timeout=5).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.2)
            result = asyncio.run(soak(args, base, child.pid))
        finally:
            child.terminate()
            try:
                child.wait(10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
