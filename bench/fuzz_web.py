"""Fuzz campaign for the web's way in: websocket frames and HTTP bodies, for a given time.

The contract (as ``tests/web/test_hostile_properties.py``, which runs a few dozen cases in
CI): a frame the server cannot use is answered with an ``error`` and the socket stays
open (the ping after it gets its pong); a body gets a success or a 4xx whose JSON names
the fault, never a 5xx. Inputs are valid messages and bodies mutated (fields dropped,
retyped, nested thousands deep, giant numbers, bytes flipped, cut short, not UTF-8) and
random JSON. Runs in-process (FastAPI's TestClient on a temporary SQLite file).

    python bench/fuzz_web.py --minutes 10 --kind frames
    python bench/fuzz_web.py --minutes 10 --kind bodies
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from sgmahjong.store.db import TableStore
from sgmahjong.web import WebConfig, create_app
from sgmahjong.web.limits import WebLimits
from sgmahjong.web.protocol import ProtocolError, parse_client

FRAMES: list[Any] = [
    {"type": "ping"}, {"type": "ready"}, {"type": "hints"}, {"type": "hello", "spectate": True},
    {"type": "action", "id": 1, "action": {"type": "discard", "tile": "5p"}},
    {"type": "action", "id": 2, "seat": 0, "action": {"type": "chow", "tiles": ["3s", "4s"]}},
    {"type": "action", "action": {"type": "pass"}}, {"type": "hello", "last_seen": 3},
]
BODIES: list[tuple[str, Any]] = [
    ("/api/tables", {"name": "Ann", "rules": "casual", "quick": True, "hints": True}),
    ("/api/tables", {"name": "Ann", "rules": "standard", "ai": ["snail", "fox", "owl"]}),
    ("/api/score", {"concealed": "123m456p789s11z", "melds": [], "win_tile": "1z",
                    "self_drawn": True}),
    ("/api/score", {"concealed": "123m", "house_rules": "[scoring]\ntai_cap = 5"}),
    ("/api/ledgers", {"names": ["A", "B", "C", "D"], "stake": 1}),
    ("/api/tables/{id}/join", {"name": "Bob", "player": 2}),
    ("/api/ledgers/{edit}/hands", {"type": "win", "winner": 0, "from": 1, "tai": 2}),
    ("/api/ledgers/{edit}/hands", {"type": "drawn", "kong": True}),
]
ODD = [None, True, False, 0, -1, 2**31, 10**40, 1.5, "", "x" * 300, "²", [], {}, [[[]]],
       {"type": "ping"}, "\u0000", "\ud7ff"]


def mutate(value: Any, rng: random.Random, depth: int = 0) -> Any:
    """A value changed in one random place (or left as it is)."""
    roll = rng.random()
    if isinstance(value, dict) and value and roll < 0.6 and depth < 6:
        key = rng.choice(list(value))
        out = dict(value)
        if rng.random() < 0.2:
            del out[key]
        else:
            out[key] = mutate(out[key], rng, depth + 1)
        if rng.random() < 0.1:
            out[rng.choice(["type", "extra", "id", "seat", "rules"])] = rng.choice(ODD)
        return out
    if isinstance(value, list) and value and roll < 0.5 and depth < 6:
        out = list(value)
        i = rng.randrange(len(out))
        out[i] = mutate(out[i], rng, depth + 1)
        return out
    return rng.choice(ODD) if roll < 0.9 else value


def to_text(value: Any, rng: random.Random) -> str | bytes:
    """A value as the bytes or text a hostile client might send."""
    text = json.dumps(value, ensure_ascii=rng.random() < 0.5)
    roll = rng.random()
    if roll < 0.1:
        d = rng.randrange(30, 3000)
        return "[" * d + text + "]" * d
    if roll < 0.15:
        return text.replace("1", "9" * rng.randrange(40, 5000), 1)
    if roll < 0.25:
        cut = rng.randrange(len(text) + 1)
        return text[:cut]
    if roll < 0.35:
        raw = bytearray(text.encode())
        for _ in range(rng.randrange(1, 4)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        return bytes(raw)
    return text


def fuzz_frames(client: TestClient, table: dict[str, Any], deadline: float,
                rng: random.Random) -> tuple[int, list[str]]:
    broken: list[str] = []
    n = 0
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": table["token"]}))
        while time.monotonic() < deadline and len(broken) < 20:
            frame = to_text(mutate(rng.choice(FRAMES), rng), rng)
            n += 1
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            try:
                kind = parse_client(frame).type
            except ProtocolError:
                kind = None
            ws.send_text('{"type": "ping"}')
            pongs = 2 if kind == "ping" else 1
            errors = 0
            while pongs:
                msg = ws.receive()
                if msg["type"] == "websocket.close":
                    broken.append(f"closed after {frame!r:.300}")
                    return n, broken
                data = json.loads(msg["text"])
                pongs -= data["type"] == "pong"
                errors += data["type"] == "error"
            if kind is None and not errors:
                broken.append(f"no error for {frame!r:.300}")
    return n, broken


def fuzz_bodies(client: TestClient, table: dict[str, Any], ledger: dict[str, Any],
                deadline: float, rng: random.Random) -> tuple[int, list[str]]:
    broken: list[str] = []
    n = 0
    while time.monotonic() < deadline and len(broken) < 20:
        path, body = rng.choice(BODIES)
        url = path.format(id=table["table_id"], edit=ledger["edit"])
        content = to_text(mutate(body, rng), rng)
        n += 1
        r = client.post(url, content=content, headers={"content-type": "application/json"})
        if r.status_code >= 500:
            broken.append(f"{r.status_code} for {url} {content!r:.300}")
        elif r.status_code >= 400:
            try:
                answer = r.json()
            except ValueError:
                answer = {}
            if not (answer.get("message") or answer.get("detail")):
                broken.append(f"{r.status_code} without a message for {content!r:.300}")
    return n, broken


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=1.0)
    ap.add_argument("--kind", choices=("frames", "bodies"), default="frames")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    rng = random.Random(seed)
    limits = WebLimits(creates_per_client=10**9, max_waiting=10**6, max_tables=10**6)
    cfg = WebConfig(ai_delay=0.0, next_hand_delay=0.0, resume_on_startup=False, rate=10**6,
                    burst=10**6, claim_window=0, turn_limit=0, limits=limits,
                    allowed_hosts=("testserver",))
    with tempfile.TemporaryDirectory() as tmp:
        store = TableStore(f"sqlite:///{Path(tmp) / 'fuzz.sqlite3'}")
        with TestClient(create_app(cfg, store), raise_server_exceptions=False) as client:
            table = client.post("/api/tables", json={"name": "Ann"}).json()
            ledger = client.post("/api/ledgers", json={"names": ["A", "B", "C", "D"]}).json()
            deadline = time.monotonic() + args.minutes * 60
            started = time.monotonic()
            n, broken = 0, []
            while time.monotonic() < deadline and len(broken) < 20:
                if args.kind == "frames":
                    k, b = fuzz_frames(client, table, deadline, rng)
                else:
                    k, b = fuzz_bodies(client, table, ledger, deadline, rng)
                n, broken = n + k, broken + b
        store.close()
    took = time.monotonic() - started
    print(json.dumps({"kind": args.kind, "seed": seed, "cases": n,
                      "per_second": round(n / max(took, 1e-9), 1), "broken": len(broken),
                      "examples": broken[:5]}))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
