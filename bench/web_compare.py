"""``bench_web.py --reference REV``: the most tables each tree's server holds, side by side.

For each setup (one ``serve`` process on SQLite, then 1, 2 and 3 processes on one
PostgreSQL database) it starts the reference revision's servers and the current tree's,
each on a database of its own, and searches for the most tables each holds: every action
acknowledged within 100 ms at the 99th percentile (action sent until its ``ack``), every
table's hands played to their end within ``--limit`` seconds. The search doubles the
tables from 1 until a level is not held, then halves the gap between the most held and
the fewest not held. Its levels alternate between the two trees (reference, current,
reference, ...), so that other work on the machine weighs on both alike. ``--repeat``
does it all again and the summary gives medians.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from reference import REPO, RevisionError, reference_source
from sqlalchemy.pool import NullPool
from web_load import held, run_level, start_servers, stop_servers

from sgmahjong.store.db import database_url

# setup name: (database, serve processes, what the table calls it)
SETUPS = {"sqlite": ("sqlite", 1, "1 process, SQLite"),
          "pg1": ("postgres", 1, "1 process, PostgreSQL"),
          "pg2": ("postgres", 2, "2 processes, PostgreSQL"),
          "pg3": ("postgres", 3, "3 processes, PostgreSQL")}


@dataclass
class Tree:
    label: str              # "reference" or "current"
    src: Path               # the folder its sgmahjong package is imported from
    extra: list[str]        # serve options only this tree has


class Search:
    """The most tables held, up to ``most``: doubling, then bisecting."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.lo = 0                 # the most tables held so far
        self.hi = most + 1          # the fewest tables not held so far
        self.coming: int | None = 1
        self.levels: list[dict[str, Any]] = []

    def next(self) -> int | None:
        return self.coming if self.hi - self.lo > 1 else None

    def record(self, r: dict[str, Any]) -> None:
        n = r["tables"]
        self.levels.append(r)
        if held(r):
            self.lo = max(self.lo, n)
        else:
            self.hi = min(self.hi, n)
        if self.hi > self.most:     # nothing failed yet: double
            self.coming = min(2 * self.lo, self.most) if self.lo < self.most else None
        else:
            self.coming = (self.lo + self.hi) // 2


@contextmanager
def database(kind: str, admin: sa.Engine | None, tmp: Path, name: str) -> Iterator[str]:
    """A new, empty database's URL, dropped afterwards."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp / (name + '.sqlite3')}"
        return
    assert admin is not None
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}"'))
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin.url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                 "WHERE datname = :d AND pid <> pg_backend_pid()"), {"d": name})
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}"'))


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def level_line(setup: str, tree: str, r: dict[str, Any]) -> str:
    verdict = "held" if held(r) else "not held"
    extra = ", TIMED OUT" if r["timed_out"] else ""
    if r["failed_tables"]:
        extra += f", {r['failed_tables']} tables failed ({r['failure']})"
    return (f"[{setup} {tree:9s}] {r['tables']:3d} tables: p50 {r['p50_ms']:7.1f} ms  "
            f"p99 {r['p99_ms']:7.1f} ms  {r['actions']} actions, {r['actions_per_s']}/s, "
            f"{r['seconds']} s{extra}: {verdict}")


def run_setup(args: argparse.Namespace, setup: str, trees: list[Tree], admin: sa.Engine | None,
              tmp: Path, rep: int) -> dict[str, list[dict[str, Any]]]:
    """Both trees' searches on ``setup``, their levels alternating."""
    kind, k, _ = SETUPS[setup]
    searches = {t.label: Search(args.most_tables) for t in trees}
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    progress(f"-- {SETUPS[setup][2]}, run {rep + 1} ({os.cpu_count()} cores, load average "
             f"{load})")
    names = {t.label: f"sgmahjong_bench_{os.getpid()}_{setup}_{rep}_{t.label}" for t in trees}
    with database(kind, admin, tmp, names[trees[0].label]) as url0, \
            database(kind, admin, tmp, names[trees[1].label]) as url1:
        running = []
        try:
            for tree, url in zip(trees, (url0, url1), strict=True):
                procs, bases = start_servers(url, k, tmp, src=tree.src, extra=tree.extra,
                                             name=f"{setup}-{rep}-{tree.label}-")
                running.append((tree, procs, bases))
            while True:
                ran = False
                for tree, _procs, bases in running:
                    n = searches[tree.label].next()
                    if n is None:
                        continue
                    r = asyncio.run(run_level(bases, n, args.humans, args.hands, args.limit,
                                              args.think, args.ai))
                    searches[tree.label].record(r)
                    progress(level_line(setup, tree.label, r))
                    ran = True
                if not ran:
                    break
        finally:
            for _tree, procs, _bases in running:
                stop_servers(procs)
    return {label: s.levels for label, s in searches.items()}


@dataclass
class Outcome:
    setup: str
    runs: list[dict[str, int]] = field(default_factory=list)     # tables held per tree
    levels: list[dict[str, list[dict[str, Any]]]] = field(default_factory=list)

    def median(self, label: str) -> float:
        return statistics.median(r[label] for r in self.runs)

    def ratio(self) -> float | None:
        ref = self.median("reference")
        return round(self.median("current") / ref, 2) if ref else None

    def as_json(self) -> dict[str, Any]:
        return {"setup": self.setup, "label": SETUPS[self.setup][2],
                "reference_tables": self.median("reference"),
                "current_tables": self.median("current"), "ratio": self.ratio(),
                "runs": self.runs, "levels": self.levels}


def most_held(levels: list[dict[str, Any]]) -> int:
    return max((r["tables"] for r in levels if held(r)), default=0)


def compare(args: argparse.Namespace) -> int:
    setups = [s.strip() for s in args.setups.split(",")]
    unknown = [s for s in setups if s not in SETUPS]
    if unknown:
        raise SystemExit(f"--setups: unknown {', '.join(unknown)}; choose from "
                         f"{', '.join(SETUPS)}")
    admin = None
    if any(SETUPS[s][0] == "postgres" for s in setups):
        admin_url = args.database_url or os.environ.get("SGMAHJONG_TEST_DATABASE_URL", "")
        if not admin_url:
            raise SystemExit("the PostgreSQL setups need a server to make databases on: "
                             "--database-url or $SGMAHJONG_TEST_DATABASE_URL")
        admin = sa.create_engine(database_url(admin_url), isolation_level="AUTOCOMMIT",
                                 poolclass=NullPool)
    tmp = Path(tempfile.mkdtemp(prefix="sgmj-bench-"))
    try:
        ref_src = reference_source(args.reference, tmp / "reference")
    except RevisionError as e:
        raise SystemExit(str(e)) from None
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    progress(f"reference {args.reference}, current tree (HEAD {head}); server logs in {tmp}")
    ai_procs = [] if args.ai_processes is None else ["--ai-processes", str(args.ai_processes)]
    trees = [Tree("reference", ref_src, []),
             Tree("current", REPO / "src", ai_procs)]
    outcomes = {s: Outcome(s) for s in setups}
    try:
        for rep in range(args.repeat):
            for s in setups:
                levels = run_setup(args, s, trees, admin, tmp, rep)
                outcomes[s].levels.append(levels)
                outcomes[s].runs.append({k: most_held(v) for k, v in levels.items()})
    finally:
        if admin is not None:
            admin.dispose()
    if args.json:
        print(json.dumps({"reference": args.reference, "current": head, "ai": args.ai,
                          "humans": args.humans, "hands": args.hands, "limit": args.limit,
                          "repeat": args.repeat, "cores": os.cpu_count(),
                          "setups": [o.as_json() for o in outcomes.values()]}))
        return 0
    plural = lambda n, word: f"{n} {word}{'s' if n != 1 else ''}"  # noqa: E731
    print(f"most tables held at p99 <= 100 ms ({plural(args.humans, 'bot')} + "
          f"{4 - args.humans} {args.ai} per table, {plural(args.hands, 'hand')}; medians of "
          f"{plural(args.repeat, 'run')}, each run's in brackets)")
    print(f"{'setup':26s} {'reference ' + args.reference:>22s} {'current ' + head:>22s}  ratio")
    for o in outcomes.values():
        ref = ", ".join(str(r["reference"]) for r in o.runs)
        cur = ", ".join(str(r["current"]) for r in o.runs)
        ratio = "-" if o.ratio() is None else f"{o.ratio():.2f}x"
        print(f"{SETUPS[o.setup][2]:26s} {o.median('reference'):>8g} ({ref:>11s}) "
              f"{o.median('current'):>8g} ({cur:>11s})  {ratio}")
    return 0
