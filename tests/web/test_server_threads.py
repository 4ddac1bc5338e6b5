"""A server's threads do not grow with the tables it holds.

Each table in memory had a database pool of its own: a thread or two kept alive per table
(over a hundred in a soak with 60 finished tables held, up to a thousand at
``max_tables``), each with its stack. All tables of a server now share its pools."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from conftest import create_table, start
from fastapi.testclient import TestClient

STORE_POOL = 8      # Workers' database threads (web/workers.py)


def _store_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name.startswith("sgmahjong-store"))


def test_many_tables_share_one_pool_of_database_threads(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    store = client.app.state.store  # type: ignore[attr-defined]
    before = _store_threads()
    ids = []
    for _ in range(12):
        t = create_table(client)
        start(client, t["table_id"], t["token"])
        ids.append(t["table_id"])
    # each table stores its deal through the pool; wait until all twelve have
    deadline = time.monotonic() + 30
    while not all(store.load_events(i) for i in ids):
        assert time.monotonic() < deadline, "the tables' deals were never stored"
        time.sleep(0.05)
    assert len(client.app.state.lobby.tables) == 12  # type: ignore[attr-defined]
    assert _store_threads() - before <= STORE_POOL
