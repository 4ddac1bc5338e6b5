"""Client messages cross between servers whole: the relay carries a message's own JSON,
so a field (or a whole message type) added later arrives at the table's owner as sent."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from conftest import Player, create_table, fast_config
from fastapi.testclient import TestClient
from test_postgres import pg_admin, pg_url  # noqa: F401 (fixtures)

from sgmahjong.game import Discard
from sgmahjong.store.db import TableStore
from sgmahjong.tiles import Tile
from sgmahjong.web import create_app
from sgmahjong.web.core import HANDLERS, ClientMessage, Outbox, client_from_json
from sgmahjong.web.core.client import (
    ActionMessage,
    Hello,
    HintsMessage,
    Ping,
    ReadyMessage,
    StartMessage,
)

EVERY_KIND = [
    Hello("tok", True, 12), Hello(), ActionMessage(Discard(Tile.parse("5p")), 7, 2),
    ActionMessage(Discard(Tile.parse("1z"))), ReadyMessage(), HintsMessage(),
    StartMessage(), Ping(),
]


@pytest.mark.parametrize("msg", EVERY_KIND, ids=lambda m: m.TYPE)
def test_a_message_reads_back_from_its_relayed_json_unchanged(msg: ClientMessage) -> None:
    wire = json.loads(json.dumps(msg.to_json()))
    assert client_from_json(wire) == msg


def test_every_client_type_is_covered_above() -> None:
    assert {m.TYPE for m in EVERY_KIND} == set(ClientMessage.REGISTRY)


@dataclass(frozen=True)
class Note(ClientMessage):
    """A message type a later version might add: one definition ..."""

    text: str
    count: int | None = None


def _noted(core: Any, conn: int, msg: Note, _inbox: Any, out: Outbox) -> None:
    """... and one handler."""
    out.send([conn], {"type": "noted", "text": msg.text, "count": msg.count,
                      "table": core.id})


@pytest.fixture
def note_type(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(ClientMessage.REGISTRY, "note", Note)
    monkeypatch.setattr(Note, "TYPE", "note")
    monkeypatch.setitem(HANDLERS, Note, _noted)


def test_a_new_message_type_and_its_fields_cross_from_one_server_to_the_owner(
        pg_url: str, note_type: None) -> None:  # noqa: F811
    stores = [TableStore(pg_url), TableStore(pg_url)]
    config = {"shared": True}
    with TestClient(create_app(fast_config(**config), stores[0])) as a, \
            TestClient(create_app(fast_config(**config), stores[1])) as b:
        t = create_table(a)                       # server a plays it
        tid = t["table_id"]
        owner = a.app.state.lobby
        assert tid in owner.epochs
        ann = Player(b, tid, t["token"])          # her socket is at server b
        try:
            ann.until("welcome", timeout=20)
            assert tid not in b.app.state.lobby.epochs    # b relays it
            ann.send({"type": "note", "text": "from b", "count": 3, "later": "dropped"})
            got = ann.until("noted", timeout=20)
        finally:
            ann.close()
    for s in stores:
        s.close()
    assert got == {"type": "noted", "text": "from b", "count": 3, "table": tid}
