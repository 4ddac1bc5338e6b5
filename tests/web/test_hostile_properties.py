"""Properties of the web's way in, over generated frames and bodies (a small budget here;
``bench/fuzz_web.py`` runs the same contract for as long as it is given).

The contract: a websocket frame that cannot be used is answered with an ``error`` naming
the fault and the socket stays open (a ping still gets its pong); an HTTP body is answered
with a success or a 4xx whose JSON names the fault, never a 5xx.
"""

from __future__ import annotations

import json
from typing import Any

from conftest import Player, create_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgmahjong.web.protocol import ProtocolError, parse_client

BUDGET = settings(max_examples=25, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture,
                                         HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=20)

KEYS = st.sampled_from(["type", "action", "id", "seat", "token", "last_seen", "spectate",
                        "tile", "name", "rules", "quick", "ai", "hints", "seed", "names"])
TYPES = st.sampled_from(["hello", "action", "ready", "hints", "start", "ping", "discard",
                         "pass", "chow", "win", ""])
messages = st.dictionaries(KEYS, json_values | TYPES, max_size=5)


frames = st.one_of(
    st.text(max_size=300),
    json_values.map(json.dumps),
    messages.map(json.dumps),
    st.integers(1, 3000).map(lambda d: "[" * d + "]" * d),
    st.integers(1, 900).map(lambda d: '{"type":' * d + '"ping"' + "}" * d),
    st.integers(30, 200).map(lambda n: '{"type": "hello", "last_seen": ' + "9" * n + "}"),
)


def _parsed(frame: str | bytes) -> str | None:
    """The type of a frame the server takes, None for one it refuses."""
    try:
        return parse_client(frame).type
    except ProtocolError:
        return None


def test_any_frame_is_answered_and_the_socket_stays_open(make_client) -> None:
    c = make_client()
    t = create_table(c)
    ann = Player(c, t["table_id"], t["token"])
    ann.until("welcome")

    @BUDGET
    @given(frame=st.one_of(frames, st.binary(max_size=200)))
    def check(frame: str | bytes) -> None:
        if isinstance(frame, bytes):
            ann.ws.send_bytes(frame)
        else:
            ann.send(frame)
        ann.send({"type": "ping"})
        kind = _parsed(frame)
        pongs = 2 if kind == "ping" else 1
        seen: list[dict[str, Any]] = []
        while pongs:
            msg = ann.recv()
            assert msg["type"] != "closed", f"socket closed after {frame!r:.200}"
            pongs -= msg["type"] == "pong"
            seen.append(msg)
        if kind is None:
            assert any(m["type"] == "error" and m["message"] for m in seen), frame

    check()
    ann.close()


bodies = st.one_of(
    json_values.map(lambda v: json.dumps(v).encode()),
    messages.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=200),
    st.integers(1, 3000).map(lambda d: b"[" * d + b"]" * d),
    st.integers(30, 6000).map(lambda n: b'{"seed": ' + b"7" * n + b"}"),
)
PATHS = ["/api/tables", "/api/score", "/api/ledgers", "/api/tables/{id}/join",
         "/api/ledgers/{edit}/hands"]


def test_any_body_is_answered_with_a_success_or_a_named_4xx(make_client) -> None:
    c = make_client()
    t = create_table(c)
    led = c.post("/api/ledgers", json={"names": ["A", "B", "C", "D"]}).json()

    @BUDGET
    @given(body=bodies, path=st.sampled_from(PATHS))
    def check(body: bytes, path: str) -> None:
        url = path.format(id=t["table_id"], edit=led["edit"])
        r = c.post(url, content=body, headers={"content-type": "application/json"})
        assert r.status_code < 500, (url, body[:200], r.text[:300])
        if r.status_code >= 400:
            answer = r.json()
            assert answer.get("message") or answer.get("detail"), r.text

    check()
