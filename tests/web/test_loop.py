"""Nothing slow runs on the server's event loop: database writes go to threads, the AI to
its pool, and a table that waits on either holds no other table up."""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

import pytest
from conftest import SEED, Player, create_table, fast_config, start
from fastapi.testclient import TestClient

from sgmahjong.agents import make_agent, register_agent
from sgmahjong.agents.baseline import GreedyAgent
from sgmahjong.game import Game
from sgmahjong.store.db import TableStore
from sgmahjong.web import create_app
from sgmahjong.web.workers import Workers, think

WRITE = 0.05      # seconds each write of the slow store takes
THINK = 0.2       # seconds the slow AI thinks


class SlowStore(TableStore):
    """A store whose every write takes ``WRITE`` seconds, and which notes any call made
    on a thread that runs an event loop (where it would stop every table)."""

    on_loop: list[str]

    def _check(self, what: str) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        self.on_loop.append(what)

    def append_events(self, *args: Any, **kw: Any) -> None:
        self._check("append_events")
        time.sleep(WRITE)
        super().append_events(*args, **kw)

    def save_seat(self, *args: Any, **kw: Any) -> None:
        self._check("save_seat")
        time.sleep(WRITE)
        super().save_seat(*args, **kw)

    def set_status(self, *args: Any, **kw: Any) -> bool:
        self._check("set_status")
        time.sleep(WRITE)
        return super().set_status(*args, **kw)

    def create_table(self, *args: Any, **kw: Any) -> None:
        self._check("create_table")
        time.sleep(WRITE)
        super().create_table(*args, **kw)

    def load_table(self, *args: Any, **kw: Any) -> Any:
        self._check("load_table")
        return super().load_table(*args, **kw)

    def load_events(self, *args: Any, **kw: Any) -> Any:
        self._check("load_events")
        return super().load_events(*args, **kw)

    def table_ids(self, *args: Any, **kw: Any) -> Any:
        self._check("table_ids")
        return super().table_ids(*args, **kw)


class Sleepy(GreedyAgent):
    """Greedy, after thinking ``THINK`` seconds."""

    def act(self, view: Any, legal: Any) -> Any:
        time.sleep(THINK)
        return super().act(view, legal)


register_agent("sleepy-test", lambda seed: Sleepy(seed))


def _pings(p: Player, count: int) -> list[float]:
    """Round trips of ``count`` pings 20 ms apart, in seconds."""
    out = []
    for _ in range(count):
        t0 = time.perf_counter()
        p.send({"type": "ping"})
        p.until("pong")
        out.append(time.perf_counter() - t0)
        time.sleep(0.02)
    return out


def test_a_table_waiting_on_slow_writes_holds_no_other_table_up(db_url: str) -> None:
    store = SlowStore(db_url)
    store.on_loop = []
    with TestClient(create_app(fast_config(disconnect_grace=0.0), store)) as c:
        # a table of AI (its creator never comes: the stand-in plays) writing all the time
        busy = create_table(c, seed=SEED)
        start(c, busy["table_id"], busy["token"])
        quiet = create_table(c, seed=SEED + 1)
        ann = Player(c, quiet["table_id"], quiet["token"])
        try:
            ann.until("welcome")
            time.sleep(0.3)                # the busy table is writing by now
            rt = c.app.state.lobby.tables[busy["table_id"]]
            n0 = rt.n
            trips = _pings(ann, 30)
            assert rt.n > n0, "the busy table wrote events meanwhile"
        finally:
            ann.close()
    assert store.on_loop == []             # no database call ran on the loop
    # a blocked loop would hold most pings for part of a 50 ms write
    assert statistics.median(trips) < 0.02, trips


def test_pings_on_other_tables_are_answered_while_an_ai_thinks(db_url: str) -> None:
    store = TableStore(db_url)
    with TestClient(create_app(fast_config(disconnect_grace=0.0), store)) as c:
        slow = create_table(c, seed=SEED, ai=["sleepy-test"] * 3)
        start(c, slow["table_id"], slow["token"])
        quiet = create_table(c, seed=SEED + 1)
        ann = Player(c, quiet["table_id"], quiet["token"])
        try:
            ann.until("welcome")
            trips = _pings(ann, 20)
        finally:
            ann.close()
    store.close()
    assert statistics.median(trips) < 0.02, trips
    assert max(trips) < THINK, trips


def test_the_ai_pool_thinks_in_other_processes_and_answers_as_this_one_would() -> None:
    g = Game.new("standard", seed=7)
    seat = next(iter(g.waiting_for()))
    view, legal = g.view(seat), tuple(g.legal_actions(seat))
    workers = Workers(2)

    async def ask() -> tuple[int, Any]:
        pid = await workers.cpu(os.getpid)
        return pid, await workers.cpu(think, make_agent("snail", 11), view, legal)

    try:
        pid, (action, after, failure) = asyncio.run(ask())
    finally:
        workers.close()
    assert pid != os.getpid()
    assert failure is None                 # the AI's own action, no fallback
    # the worker's player is this process's, generator and all: it decides alike now and
    # at the next decision
    here = make_agent("snail", 11)
    assert action == here.act(view, list(legal))
    assert after.act(view, list(legal)) == here.act(view, list(legal))
    assert threading.current_thread() is threading.main_thread()


WORKERS_THEN_DIE = """
import asyncio, os
from sgmahjong.web.workers import Workers

async def pids():
    w = Workers(2)
    # both workers: the second call lands on the other while the first sleeps
    import time
    got = await asyncio.gather(w.cpu(time.sleep, 0.5), w.cpu(os.getpid), w.cpu(os.getpid))
    return sorted({p for p in got if p})

print(*asyncio.run(pids()), flush=True)
os._exit(0)     # as a kill -9 would: nothing shut down
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_the_ai_workers_leave_when_their_server_dies() -> None:
    out = subprocess.run([sys.executable, "-c", WORKERS_THEN_DIE], capture_output=True,
                         text=True, timeout=120, check=True)
    pids = [int(p) for p in out.stdout.split()]
    assert pids and os.getpid() not in pids
    deadline = time.monotonic() + 30
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in pids if _alive(p)]


async def _sweep(lobby: Any) -> int:
    return await lobby.sweep()  # type: ignore[no-any-return]


def test_creating_loading_and_expiring_tables_runs_no_database_call_on_the_loop(
        db_url: str) -> None:
    from sgmahjong.web.clock import ManualClock

    store = SlowStore(db_url)
    store.on_loop = []
    clock = ManualClock()
    cfg = fast_config(disconnect_grace=0.0, clock=clock, resume_on_startup=True)
    with TestClient(create_app(cfg, store)) as c:
        played = create_table(c, seed=SEED)
        start(c, played["table_id"], played["token"])
        waiting = create_table(c, seed=SEED + 1)
        lobby = c.app.state.lobby
        lobby.tables.pop(played["table_id"]).retire()     # as if let go: loaded again
        assert c.get(f"/api/tables/{played['table_id']}").status_code == 200
        clock.advance(lobby.limits.waiting_expiry)
        c.portal.call(_sweep, lobby)
        assert waiting["table_id"] not in lobby.tables
        assert c.get(f"/api/tables/{waiting['table_id']}").status_code == 404
    assert store.on_loop == []
    # and a restart resumes the playing table without a call on the loop either
    with TestClient(create_app(cfg, store)) as c:
        assert played["table_id"] in c.app.state.lobby.tables
    assert store.on_loop == []
    store.close()


def test_a_finished_tables_record_and_replay_are_worked_out_off_the_loop(
        make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import sgmahjong.web.app as web_app

    on_loop: list[str] = []

    def spy(fn: Any) -> Any:
        def called(*args: Any, **kw: Any) -> Any:
            try:
                asyncio.get_running_loop()
                on_loop.append(fn.__name__)
            except RuntimeError:
                pass
            return fn(*args, **kw)
        return called

    monkeypatch.setattr(web_app, "table_replay", spy(web_app.table_replay))
    monkeypatch.setattr(web_app, "dumps_record", spy(web_app.dumps_record))
    c = make_client()
    t = create_table(c)
    ann = Player(c, t["table_id"], t["token"])
    start(c, t["table_id"], t["token"])
    ann.play()
    base = f"/api/tables/{t['table_id']}"
    assert c.get(f"{base}/record").status_code == 200
    index = c.get(f"{base}/replay").json()
    assert index["hands"], index
    assert c.get(f"{base}/replay", params={"hand": 0}).json()["steps"]
    assert on_loop == []
