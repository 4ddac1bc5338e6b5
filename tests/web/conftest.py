"""Web table test helpers: an app on a SQLite file, and websocket players with timeouts."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from sgmahjong.bot.wire import view_json
from sgmahjong.store.db import TableStore
from sgmahjong.tiles import Seat
from sgmahjong.web import WebConfig, create_app

SEED = 20240607

# The independent reckoning of a ledger that the browser tests use too (tests/e2e is a
# package, tests/web not): reckon(hands) -> dealer, round wind, deltas, totals per hand.
_spec = importlib.util.spec_from_file_location(
    "ledger_model", Path(__file__).parents[1] / "e2e" / "ledger_model.py")
assert _spec is not None and _spec.loader is not None
_ledger_model = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ledger_model)
reckon = _ledger_model.reckon
OPEN: list[Player] = []


def fast_config(**kw: Any) -> WebConfig:
    base: dict[str, Any] = {"ai_delay": 0.0, "disconnect_grace": 60.0, "next_hand_delay": 0.0,
                            "allow_seed": True, "resume_on_startup": False,
                            "rate": 1000.0, "burst": 1000.0,
                            # no clocks unless a test asks: slow CI must not auto-play
                            "claim_window": 0.0, "turn_limit": 0.0,
                            # sockets are not closed for silence: a test moves a manual
                            # clock on by hours while its players wait, as people would
                            # not (tests/web/test_liveness.py sets it)
                            "idle_timeout": 0.0,
                            # the AI in this process's threads (a test may spy on it);
                            # tests/web/test_loop.py drives the process pool
                            "ai_processes": 0,
                            # the name TestClient sends as Host
                            "allowed_hosts": ("testserver", "localhost", "127.0.0.1")}
    base.update(kw)
    return WebConfig(**base)


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


@pytest.fixture
def make_client(db_url: str) -> Iterator[Callable[..., TestClient]]:
    """``make_client(**config)``: a started TestClient on the test's SQLite file."""
    opened: list[tuple[TestClient, TableStore]] = []

    def make(**kw: Any) -> TestClient:
        store = TableStore(db_url)
        client = TestClient(create_app(fast_config(**kw), store))
        client.__enter__()
        opened.append((client, store))
        return client

    def shutdown(client: TestClient) -> None:
        """Stop one app (its players first), as a server restart would."""
        for p in [p for p in OPEN if p.client is client]:
            p.close()
        for i, (c, store) in enumerate(opened):
            if c is client:
                c.__exit__(None, None, None)
                store.close()
                del opened[i]
                assert c.app.state.stuck_at_close is None, c.app.state.stuck_at_close
                return

    make.shutdown = shutdown  # type: ignore[attr-defined]
    yield make
    while OPEN:
        OPEN.pop().close()
    stuck = []
    for client, store in reversed(opened):
        client.__exit__(None, None, None)
        store.close()
        if client.app.state.stuck_at_close is not None:
            stuck.append(client.app.state.stuck_at_close)
    # a server that cannot stop is a fault of its own, whatever the test was about
    assert not stuck, f"the app's tables did not close when it stopped: {stuck}"


def create_table(client: TestClient, **kw: Any) -> dict[str, Any]:
    body = {"name": "Ann", "rules": "casual", "quick": True, "hints": True, "seed": SEED,
            "ai": ["greedy", "greedy", "greedy"]}
    body.update(kw)
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def join(client: TestClient, table_id: str, name: str = "Bob") -> dict[str, Any]:
    r = client.post(f"/api/tables/{table_id}/join", json={"name": name})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def start(client: TestClient, table_id: str, token: str) -> None:
    r = client.post(f"/api/tables/{table_id}/start",
                    headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text


def choose(legal: list[dict[str, Any]], view: dict[str, Any]) -> dict[str, Any]:
    """A simple player: win when it can, else throw the drawn tile, else pass."""
    for a in legal:
        if a["type"] == "win":
            return a
    drawn = view.get("last_drawn")
    for a in legal:
        if a["type"] == "discard" and a["tile"] == drawn:
            return a
    for a in legal:
        if a["type"] == "discard":
            return a
    return next((a for a in legal if a["type"] == "pass"), legal[0])


class Player:
    """A websocket client of one seat (or a spectator); every message is kept in ``log``."""

    def __init__(self, client: TestClient, table_id: str, token: str | None = None, *,
                 spectate: bool = False, last_seen: int | None = None,
                 headers: dict[str, str] | None = None, hello: bool = True) -> None:
        self.client = client
        self.cm = client.websocket_connect(f"/ws/tables/{table_id}", headers=dict(headers or {}))
        self.ws = self.cm.__enter__()
        self.closed = False
        OPEN.append(self)
        self.log: list[dict[str, Any]] = []
        self.last_n = 0
        if hello:
            msg: dict[str, Any] = {"type": "hello"}
            if token is not None:
                msg["token"] = token
            if spectate:
                msg["spectate"] = True
            if last_seen is not None:
                msg["last_seen"] = last_seen
            self.send(msg)

    def send(self, msg: dict[str, Any] | str) -> None:
        self.ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()
        raw = self.ws.portal.call(get)
        if raw["type"] == "websocket.close":
            msg = {"type": "closed", "code": raw.get("code")}
        else:
            msg = json.loads(raw["text"])
        self.log.append(msg)
        if msg["type"] == "event":
            self.last_n = msg["n"]
        return msg

    def until(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        while True:
            msg = self.recv(timeout)
            if msg["type"] == kind:
                return msg
            if msg["type"] == "closed":
                raise AssertionError(f"socket closed while waiting for {kind}: {msg}")

    def play(self, stop: str = "match-end", hands: int | None = None,
             timeout: float = 20.0) -> None:
        """Answer every request with :func:`choose` until ``stop`` (or ``hands`` hand-ends)."""
        ended = 0
        while True:
            msg = self.recv(timeout)
            t = msg["type"]
            if t == "request":
                self.send({"type": "action", "id": msg["id"],
                           "action": choose(msg["legal"], msg["view"])})
            elif t == "hand-end":
                ended += 1
                if hands is not None and ended >= hands:
                    return
                self.send({"type": "ready"})
            elif t == stop or t == "closed":
                return

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):
            self.cm.__exit__(None, None, None)


def play_to(p: Player, want: Callable[[dict[str, Any]], bool],
            limit: int = 400) -> dict[str, Any]:
    """Answer requests with :func:`choose` (and say ready after each hand) until one for
    which ``want(request)`` holds; return it unanswered. ``limit`` counts messages."""
    for _ in range(limit):
        msg = p.recv()
        if msg["type"] == "hand-end":
            p.send({"type": "ready"})
        if msg["type"] != "request":
            continue
        if want(msg):
            return msg
        p.send({"type": "action", "id": msg["id"], "action": choose(msg["legal"], msg["view"])})
    raise AssertionError("no such request came")


def into_second_hand(client: TestClient, table_id: str,
                     answered: int) -> Callable[[dict[str, Any]], bool]:
    """For :func:`play_to`: a request once the first hand is over and ``answered``
    requests have been answered."""
    asked = iter(range(10**6))

    def want(_req: dict[str, Any]) -> bool:
        return (next(asked) >= answered
                and client.app.state.lobby.tables[table_id].match.state.hands_played >= 1)
    return want


def table_state(client: TestClient, table_id: str) -> tuple[Any, ...]:
    """Everything a restart must keep of a live table: events, match, views, who is asked
    what, the seats and the status."""
    rt = client.app.state.lobby.tables[table_id]
    g = rt.game
    return ([e.to_json() for e in rt.events], rt.match.state, rt.bankers, rt.seed,
            [view_json(g.view(s)) for s in Seat], sorted(g.waiting_for()),
            {s: [a.to_json() for a in g.legal_actions(s)] for s in g.waiting_for()},
            [(s.name, s.kind, s.level, s.token_hash) for s in rt.slots], rt.status)


def play_all(players: list[Player], **kw: Any) -> None:
    """Each player plays in its own thread (a request may come to either at any time)."""
    errors: list[BaseException] = []

    def run(p: Player) -> None:
        try:
            p.play(**kw)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(p,)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    if errors:
        raise errors[0]
