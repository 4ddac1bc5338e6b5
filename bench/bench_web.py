"""Web table load: N concurrent tables of websocket bots against uvicorn on loopback.

Starts the app in-process (uvicorn in a thread, 127.0.0.1, a free port, a temporary SQLite
file), then for each N in ``--tables`` opens N tables, seats ``--humans`` websocket bots at
each (the server's AI plays the other seats), plays ``--hands`` hands per table and
reports messages per second and action latency (an action sent until its ``ack`` arrives:
checked by the engine, stored, broadcast) at p50 / p90 / p99. Stops by itself.

    python bench/bench_web.py --tables 1,4,16,32 --hands 1

With ``--servers N`` it runs 1, 2 ... N ``sgmahjong serve`` processes instead, all on one
PostgreSQL database (a new one per step, made on the server ``--database-url`` names,
default ``$SGMAHJONG_TEST_DATABASE_URL``), and spreads the requests and sockets over
them in turn as a round-robin load balancer would (a table is played by the process it
was made on; sockets at the others are relayed). It reports the most tables with p99
under 100 ms at each number of processes, and the ratio to one process:

    python bench/bench_web.py --servers 3 --tables 4,8,12,16,24 --humans 1

With ``--reference REV`` it compares the server at revision ``REV`` with the current one,
setup by setup (one process on SQLite, 1-3 on PostgreSQL), each table one bot and three
Owls: the most tables each holds at p99 <= 100 ms (see ``web_compare.py``):

    python bench/bench_web.py --reference 51e4021 --hands 2 --limit 90 --repeat 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
import uvicorn
from sqlalchemy.pool import NullPool
from web_load import choose, run_level, start_servers, stop_servers  # noqa: F401 (soak_web)

from sgmahjong.store.db import TableStore, database_url
from sgmahjong.web import WebConfig, create_app
from sgmahjong.web.limits import WebLimits


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def report(r: dict[str, Any]) -> None:
    print(f"{r['tables']:4d} tables: {r['msgs_per_s']:6d} msgs/s, {r['actions_per_s']:5d} "
          f"actions/s, latency p50 {r['p50_ms']:7.2f} ms  p90 {r['p90_ms']:7.2f} ms"
          f"  p99 {r['p99_ms']:7.2f} ms  ({r['actions']} actions, "
          f"{r['seconds']} s{', TIMED OUT' if r['timed_out'] else ''})", flush=True)


def best(results: list[dict[str, Any]]) -> int:
    ok = [r["tables"] for r in results if r["p99_ms"] < 100 and not r["timed_out"]]
    return max(ok or [0])


def scale_out(args: argparse.Namespace, levels: list[int]) -> int:
    """1..N server processes on PostgreSQL, each step on a new database."""
    admin_url = args.database_url or os.environ.get("SGMAHJONG_TEST_DATABASE_URL", "")
    if not admin_url:
        raise SystemExit("--servers needs PostgreSQL: --database-url or "
                         "$SGMAHJONG_TEST_DATABASE_URL")
    admin = sa.create_engine(database_url(admin_url), isolation_level="AUTOCOMMIT",
                             poolclass=NullPool)
    tmp = Path(tempfile.mkdtemp(prefix="sgmj-bench-"))
    summary = []
    for k in range(1, args.servers + 1):
        name = f"sgmahjong_bench_{os.getpid()}_{k}"
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}"'))
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        url = admin.url.set(database=name).render_as_string(hide_password=False)
        procs, bases = start_servers(url, k, tmp)
        results = []
        try:
            if not args.json:
                load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
                print(f"-- {k} server process{'es' if k > 1 else ''} ({os.cpu_count()} cores, "
                      f"load average {load} before the step)", flush=True)
            for n in levels:
                r = asyncio.run(run_level(bases, n, args.humans, args.hands, args.limit,
                                          args.think, args.ai))
                results.append(r)
                if not args.json:
                    report(r)
        finally:
            stop_servers(procs)
            with admin.connect() as conn:
                conn.execute(sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                     "WHERE datname = :d AND pid <> pg_backend_pid()"),
                             {"d": name})
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}"'))
        summary.append({"servers": k, "results": results, "max_tables_p99_under_100ms":
                        best(results)})
    admin.dispose()
    one = summary[0]["max_tables_p99_under_100ms"]
    top = summary[0]["results"][-1]["actions_per_s"] or 1
    for s in summary:
        # None when one process met the target at no level: no ratio to speak of
        s["ratio"] = round(s["max_tables_p99_under_100ms"] / one, 2) if one else None
        # the actions per second at the largest level: what the processes carry when full
        s["actions_per_s_at_most"] = s["results"][-1]["actions_per_s"]
        s["throughput_ratio"] = round(s["actions_per_s_at_most"] / top, 2)
    if args.json:
        print(json.dumps({"servers": summary}))
    else:
        for s in summary:
            ratio = "-" if s["ratio"] is None else f"{s['ratio']:.2f}x"
            print(f"{s['servers']} process{'es' if s['servers'] > 1 else '  '}: "
                  f"{s['max_tables_p99_under_100ms']:4d} tables with p99 < 100 ms ({ratio} "
                  f"one process); {s['actions_per_s_at_most']} actions/s at {levels[-1]} "
                  f"tables ({s['throughput_ratio']:.2f}x)")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", default="1,4,8,16,32", help="comma list of table counts")
    ap.add_argument("--humans", type=int, choices=range(1, 5),
                    help="websocket bots per table (the server's AI plays the rest; "
                         "default 4, with --reference 1)")
    ap.add_argument("--ai", metavar="LEVEL",
                    help="the level of the server's AI seats (default greedy, with "
                         "--reference owl)")
    ap.add_argument("--hands", type=int, default=1, help="hands per table (quick game: <= 4)")
    ap.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                    help="each bot's pause before answering a request (people think)")
    ap.add_argument("--limit", type=float, default=120.0, help="seconds per level at most")
    ap.add_argument("--servers", type=int, default=0, metavar="N",
                    help="run 1..N serve processes on one PostgreSQL database in turn "
                         "(default: one server in this process, on SQLite)")
    ap.add_argument("--database-url", metavar="URL",
                    help="with --servers: the PostgreSQL server to make the databases on "
                         "(default $SGMAHJONG_TEST_DATABASE_URL)")
    ap.add_argument("--reference", metavar="REV",
                    help="compare with this revision: the most tables each holds at p99 <= "
                         "100 ms, setup by setup (e.g. 51e4021)")
    ap.add_argument("--setups", default="sqlite,pg1,pg2,pg3",
                    help="with --reference: which of sqlite (one process), pg1, pg2, pg3 "
                         "(1-3 processes on PostgreSQL)")
    ap.add_argument("--repeat", type=int, default=1, metavar="N",
                    help="with --reference: run every setup N times, report medians")
    ap.add_argument("--most-tables", type=int, default=64, metavar="N",
                    help="with --reference: the search's upper bound")
    ap.add_argument("--ai-processes", type=int, metavar="N",
                    help="with --reference: the current tree's serve --ai-processes "
                         "(default its own: one per core)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.reference:
        from web_compare import compare

        args.humans = args.humans or 1
        args.ai = args.ai or "owl"
        return compare(args)
    args.humans = args.humans or 4
    args.ai = args.ai or "greedy"
    levels = [int(x) for x in args.tables.split(",")]
    if args.servers > 0:
        return scale_out(args, levels)

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
        for n in levels:
            r = asyncio.run(run_level([base], n, args.humans, args.hands, args.limit,
                                      args.think, args.ai))
            results.append(r)
            if not args.json:
                report(r)
    finally:
        server.should_exit = True
        thread.join(10)
        store.close()
    if args.json:
        print(json.dumps({"results": results, "max_tables_p99_under_100ms": best(results)}))
    else:
        print(f"most concurrent tables with p99 < 100 ms: {best(results)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
