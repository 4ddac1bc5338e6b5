"""Sockets kept honest both ways: the server closes a socket that has said nothing for
``idle_timeout`` (4408, with a reason), on the table clock a test moves by hand; a pong
carries the last event handed to that socket, so a page can tell it missed one.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import anyio
import pytest
from conftest import Player, create_table, start

from sgmahjong.web.clock import ManualClock
from sgmahjong.web.limits import WebLimits

IDLE = 30.0


def _deadline_set(clock: ManualClock, at: float, seconds: float = 10.0) -> None:
    """Wait (in real time) until something waits on the clock for ``at``: the socket's
    read is armed, so moving the clock past it is seen."""
    end = time.monotonic() + seconds
    while not any(abs(t - at) < 1e-6 for t in clock.pending()):
        assert time.monotonic() < end, f"nothing waits for {at} (waits: {clock.pending()})"
        time.sleep(0.005)


def _frame(p: Player, timeout: float = 10.0) -> dict[str, Any]:
    """The next thing the socket gets, a close included (with its code and reason)."""
    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await p.ws._send_rx.receive()
    return p.ws.portal.call(get)  # type: ignore[no-any-return]


def _pong(p: Player) -> dict[str, Any]:
    p.send({"type": "ping"})
    return p.until("pong")


def test_a_silent_socket_is_closed_at_the_idle_timeout_and_a_talking_one_never(
        make_client) -> None:
    clock = ManualClock()
    c = make_client(clock=clock, idle_timeout=IDLE)
    t = create_table(c)
    ann = Player(c, t["table_id"], t["token"])
    assert ann.until("welcome")["player"] == 0
    heard = clock.now()
    # pinging now and then keeps it open however long the table waits
    for _ in range(3):
        _deadline_set(clock, heard + IDLE)
        clock.advance(IDLE - 1)
        assert _pong(ann)["type"] == "pong"
        heard = clock.now()
    # then silence: open until the limit, closed at it
    _deadline_set(clock, heard + IDLE)
    clock.advance(IDLE - 0.5)
    assert _pong(ann)["type"] == "pong"
    heard = clock.now()
    _deadline_set(clock, heard + IDLE)
    clock.advance(IDLE)
    while (got := _frame(ann))["type"] != "websocket.close":
        pass
    assert got["code"] == 4408
    assert got["reason"] == "nothing heard from you for 30 s: reconnect"
    # the server no longer counts it: Ann shows as away
    end = time.monotonic() + 10
    while c.get(f"/api/tables/{t['table_id']}").json()["seats"][0]["connected"]:
        assert time.monotonic() < end
        time.sleep(0.01)


def test_an_idle_timeout_of_zero_never_closes(make_client) -> None:
    clock = ManualClock()
    c = make_client(clock=clock, idle_timeout=0.0)
    t = create_table(c)
    ann = Player(c, t["table_id"], t["token"])
    ann.until("welcome")
    clock.advance(10 * 3600)
    assert _pong(ann)["n"] == 0


@pytest.fixture
def gated_store(make_client):  # type: ignore[no-untyped-def]
    """A client whose table's event writes wait for ``gate`` (``entered`` is set when
    one is waiting)."""
    c = make_client()
    t = create_table(c)
    tid = t["table_id"]
    rt = c.app.state.lobby.tables[tid]
    gate, entered = threading.Event(), threading.Event()
    write = rt.store.append_events

    def held(*args: Any, **kw: Any) -> None:
        entered.set()
        assert gate.wait(20), "the test never let the write through"
        write(*args, **kw)

    yield c, t, rt, gate, entered, held
    gate.set()


def test_a_pong_names_the_last_event_handed_to_that_socket_not_the_table_s(
        gated_store) -> None:
    c, t, rt, gate, entered, held = gated_store
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    req = ann.until("request")
    watcher = Player(c, tid, spectate=True)
    # what the watcher has is what its pong says
    pong = _pong(watcher)
    assert pong["n"] == watcher.last_n > 0
    rt.store.append_events = held
    ann.send({"type": "action", "id": req["id"], "action": req["legal"][0]})
    assert entered.wait(10)
    # Ann's move is played in memory, not yet stored nor sent: the watcher has none of it
    assert rt.n > watcher.last_n
    pong = _pong(watcher)
    assert pong["n"] == watcher.last_n < rt.n
    gate.set()
    assert watcher.until("event")["n"] > req["n"]    # the move reaches the watcher ...
    pong = _pong(watcher)
    assert pong["n"] == watcher.last_n               # ... and its pong says so


def test_a_pong_after_resuming_names_last_seen(make_client) -> None:
    c = make_client()
    t = create_table(c)
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    ann.until("request")
    n = ann.last_n
    assert n > 0
    ann.close()
    back = Player(c, tid, t["token"], last_seen=n)
    back.until("request")
    # nothing was missed, so nothing was sent again; the pong says the socket has n
    assert back.last_n == 0
    assert _pong(back)["n"] == n


def test_serve_asks_uvicorn_to_ping_every_socket() -> None:
    from sgmahjong.web.connections import server_config

    limits = WebLimits(ws_ping_interval=7.0, ws_ping_timeout=3.0)
    cfg = server_config(object(), limits, ManualClock())
    assert (cfg.ws_ping_interval, cfg.ws_ping_timeout) == (7.0, 3.0)
    d = WebLimits()
    # the documented defaults (docs/web.md, "Limits")
    assert (d.ws_ping_interval, d.ws_ping_timeout) == (10.0, 10.0)
