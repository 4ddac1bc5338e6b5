"""The ledger over HTTP: open, add, edit, delete, view link versus edit link, polling, export,
bad input, and a server restart. Figures are checked against an independent reckoning."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from conftest import reckon
from fastapi.testclient import TestClient

from sgmahjong.store.tables import ledgers

NAMES = ["Ann", "Bob", "Cy", "Dee"]
# each error status has its own code (docs/web.md, the scorekeeper)
CODES = {400: "bad-request", 403: "forbidden", 404: "not-found", 409: "conflict",
         413: "too-large", 503: "server"}
HANDS = [
    {"type": "win", "winner": 0, "tai": 3, "from": 1},
    {"type": "drawn", "instant": [{"player": 2, "reason": "claimed-kong"}]},
    {"type": "win", "winner": 1, "tai": 6, "from": None},
    {"type": "win", "winner": 3, "tai": 2, "from": 2, "liable": 0},
]


def new(client: TestClient, **kw: object) -> dict:
    body = {"names": NAMES, "rules": "standard", **kw}
    r = client.post("/api/ledgers", json=body)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def agrees(view: dict, hands: list[dict]) -> None:
    want = reckon(hands)
    assert [(h["dealer"], h["round_wind"], h["deltas"], h["totals"]) for h in view["hands"]] == [
        (w["dealer"], w["round_wind"], w["deltas"], w["totals"]) for w in want[:-1]]
    assert view["totals"] == (want[-2]["totals"] if hands else [0, 0, 0, 0])
    assert (view["next"]["dealer"], view["next"]["round_wind"]) == (
        want[-1]["dealer"], want[-1]["round_wind"])
    assert sum(t["points"] for t in view["settle"] if t["payee"] == 0) - sum(
        t["points"] for t in view["settle"] if t["payer"] == 0) == view["totals"][0]
    assert len(view["settle"]) <= 3


def test_a_ledger_from_open_to_export_and_through_a_restart(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    made = new(client, stake="0.10")
    edit, view = made["edit"], made["view"]
    assert edit != view and len(edit) >= 22 and len(view) >= 20
    hands: list[dict] = []
    for h in HANDS:
        r = client.post(f"/api/ledgers/{edit}/hands", json=h)
        assert r.status_code == 201, r.text
        hands.append(h)
        agrees(r.json(), hands)
    rev = r.json()["revision"]
    assert client.get(f"/api/ledgers/{view}?since={rev}").json() == {"revision": rev,
                                                                    "unchanged": True}
    ids = [h["id"] for h in r.json()["hands"]]
    assert len(set(ids)) == len(HANDS)
    hands[0] = {"type": "win", "winner": 2, "tai": 1, "from": 3}
    got = client.put(f"/api/ledgers/{edit}/hands/{ids[0]}", json=hands[0]).json()
    agrees(got, hands)
    del hands[1]
    got = client.delete(f"/api/ledgers/{edit}/hands/{ids[1]}").json()
    agrees(got, hands)
    assert [h["id"] for h in got["hands"]] == [ids[0], *ids[2:]]
    seen = client.get(f"/api/ledgers/{view}?since={rev}").json()
    assert seen["revision"] == rev + 2 and not seen["can_edit"]
    agrees(seen, hands)
    # money at 0.10 a point
    assert seen["money"] == [f"{t / 10:.2f}" for t in seen["totals"]]

    rows = list(csv.reader(io.StringIO(client.get(f"/api/ledgers/{view}/export.csv").text)))
    assert rows[0][:4] == ["hand", "dealer", "round wind", "what happened"]
    assert rows[0][8:] == [f"{n} total" for n in NAMES] + [f"{n} money" for n in NAMES]
    assert [list(map(int, row[8:12])) for row in rows[1:]] == [h["totals"] for h in seen["hands"]]
    assert [row[12:] for row in rows[1:]] == [[f"{t / 10:.2f}" for t in h["totals"]]
                                              for h in seen["hands"]]
    exported = json.loads(client.get(f"/api/ledgers/{view}/export.json").text)
    assert [{k: v for k, v in h.items() if k != "id"} for h in exported["hands"]] == hands

    make_client.shutdown(client)
    again = make_client()
    agrees(again.get(f"/api/ledgers/{edit}").json(), hands)
    assert again.get(f"/api/ledgers/{edit}").json()["can_edit"]


def test_the_view_link_cannot_edit(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    made = new(client)
    view = made["view"]
    for call in (lambda: client.post(f"/api/ledgers/{view}/hands", json=HANDS[0]),
                 lambda: client.put(f"/api/ledgers/{view}/hands/h1", json=HANDS[0]),
                 lambda: client.delete(f"/api/ledgers/{view}/hands/h1"),
                 lambda: client.post(f"/api/ledgers/{view}/hands/h1/restore")):
        r = call()
        assert r.status_code == 403 and "view link" in r.json()["message"]
        assert r.json()["error"] == "forbidden"
    assert client.get(f"/api/ledgers/{view}").json()["hands"] == []
    # nothing in the database gives the edit token away
    with client.app.state.store.engine.connect() as conn:
        row = conn.execute(ledgers.select()).one()
    assert made["edit"] not in json.dumps([str(v) for v in row])


@pytest.mark.parametrize(("path", "method", "body", "status", "words"), [
    ("/api/ledgers", "post", {"names": ["A", "B", "C"]}, 400, "four names"),
    ("/api/ledgers", "post", {"names": NAMES, "rules": "nope"}, 400, "unknown preset 'nope'"),
    ("/api/ledgers", "post", {"names": NAMES, "stake": "lots"}, 400, "not a number"),
    ("/api/ledgers", "post", {"names": NAMES, "house_rules": "[bao]\ncases = 3\n"}, 400,
     "cases"),
    ("/api/ledgers", "post", {"names": NAMES, "colour": 1}, 400, "unknown field 'colour'"),
    ("EDIT/hands", "post", {"type": "win", "winner": 0, "tai": 2, "from": 0}, 400,
     "own win"),
    ("EDIT/hands", "post", {"type": "win", "winner": 9, "tai": 2}, 400, "number 0-3"),
    ("EDIT/hands", "post", {"type": "win", "winner": 0, "tai": "3"}, 400, "'tai'"),
    ("EDIT/hands/h5", "put", {"type": "drawn"}, 404, "no hand 'h5'"),
    ("EDIT/hands/h1", "delete", None, 404, "no hand 'h1'"),
    ("EDIT/hands/h1/restore", "post", None, 404, "no deleted hand 'h1'"),
    ("EDIT/hands/0", "delete", None, 400, "not by their position"),
    ("EDIT/hands/first", "put", {"type": "drawn"}, 400, 'like "h3"'),
    ("EDIT?since=new", "get", None, 400, "must be a whole number"),
    ("/api/ledgers/nosuchledger", "get", None, 404, "no ledger"),
    ("/api/ledgers/nosuchledger/hands", "post", {"type": "drawn"}, 404, "no ledger"),
    ("/api/ledgers/nosuchledger/hands/0", "put", {"type": "drawn"}, 404, "no ledger"),
    ("/api/ledgers/nosuchledger/hands/0", "delete", None, 404, "no ledger"),
    ("/api/ledgers/nosuchledger?since=1", "get", None, 404, "no ledger"),
    ("/api/ledgers/nosuchledger/export.csv", "get", None, 404, "no ledger"),
    ("/api/ledgers/nosuchledger/export.json", "get", None, 404, "no ledger"),
    ("/api/ledgers", "post", {"names": NAMES, "stake": "0.001"}, 400, "whole cents"),
    ("EDIT/hands", "post", {"type": "win", "winner": 0, "from": 1, "tai": 2,
                            "thirteen_wonders": True}, 400,
     "Thirteen Wonders is 8 tai under 'standard'"),
    ("EDIT/hands", "post", {"type": "drawn", "instant": [{"player": 1,
                                                          "reason": "concealed-kong"}]}, 400,
     "a concealed kong pays nothing under 'standard'"),
    ("EDIT/hands", "post", {"type": "drawn", "note": "x" * 70_000}, 413, "too large"),
])
def test_bad_input_gets_a_4xx_naming_it(make_client, path: str, method: str,  # type: ignore[no-untyped-def]
                                        body: object, status: int, words: str) -> None:
    client = make_client()
    edit = new(client)["edit"]
    url = path.replace("EDIT", f"/api/ledgers/{edit}")
    kw = {"json": body} if body is not None else {}
    r = getattr(client, method)(url, **kw) if method != "delete" else client.delete(url)
    assert r.status_code == status, r.text
    assert words in r.json()["message"]
    assert r.json()["error"] == CODES[status]


def test_a_full_hand_and_the_calculator_under_the_ledgers_rules(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    toml = 'extends = "standard"\nname = "our table"\n[scoring.patterns]\ndragon-pong = 2\n'
    made = new(client, rules=None, house_rules=toml)
    edit = made["edit"]
    hand = {"concealed": "123m456p789s777z1m", "win_tile": "1m"}
    score = client.post("/api/score", json={**hand, "seat": "S", "discarder": "N",
                                            "ledger": made["view"]}).json()
    assert (score["rules"], score["tai"]) == ("our table", 2)
    # Bob (South in hand 1) wins on Dee's discard: base 4, Dee 8, Ann and Cy 4 each
    r = client.post(f"/api/ledgers/{edit}/hands",
                    json={"type": "win", "winner": 1, "from": 3, "hand": hand})
    assert r.status_code == 201, r.text
    assert r.json()["totals"] == [-4, 16, -4, -8]


def test_a_version_1_database_gains_the_ledgers_table(tmp_path: Path) -> None:
    from sqlalchemy import create_engine, inspect, select

    from sgmahjong.store.db import TableStore
    from sgmahjong.store.tables import SCHEMA_VERSION, metadata, schema_version

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = create_engine(url)
    with engine.begin() as conn:   # the schema as version 1 made it
        metadata.create_all(conn, tables=[t for t in metadata.sorted_tables
                                          if t.name != "ledgers"])
        conn.execute(schema_version.insert().values(version=1))
    engine.dispose()
    store = TableStore(url)
    try:
        assert inspect(store.engine).has_table("ledgers")
        with store.engine.connect() as conn:
            assert sorted(conn.execute(select(schema_version.c.version)).scalars()) == list(
                range(1, SCHEMA_VERSION + 1))
    finally:
        store.close()


def test_the_laptop_and_the_phones_share_one_ledger_in_the_database(
        make_client, db_url: str, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    """``sgmahjong ledger --db``: the laptop keeps the ledger in the server's database, the
    phones follow it by its view link, and a hand entered on a phone shows on the laptop."""
    from sgmahjong.cli import main

    def cli(*argv: str) -> tuple[int, str, str]:
        code = main(["ledger", *argv])
        out = capsys.readouterr()
        return code, out.out, out.err

    code, out, err = cli("new", "--db", db_url, "--names", ",".join(NAMES))
    assert code == 0, err
    tokens = dict(line.split(": ", 1)[0:2] for line in out.splitlines()
                  if line.startswith(("Edit token", "View token")))
    edit = tokens["Edit token"].split()[0]
    view = tokens["View token"].split()[0]
    assert edit != view
    for argv in (["win", "Ann", "3", "--from", "Bob"],
                 ["drawn", "--instant", "Cy:claimed-kong"]):
        code, _, err = cli("add", edit, "--db", db_url, *argv)
        assert code == 0, err
    client = make_client()
    shown = client.get(f"/api/ledgers/{view}").json()
    agrees(shown, HANDS[:2])
    assert client.post(f"/api/ledgers/{edit}/hands", json=HANDS[2]).status_code == 201
    # the link as the phone shows it names the ledger as well as the bare token
    code, out, err = cli("show", f"http://192.168.1.5:8000/ledger/{view}", "--db", db_url,
                         "--json")
    assert code == 0, err
    agrees(json.loads(out), HANDS[:3])
    # the view token cannot change the ledger, and nothing changes
    code, _, err = cli("delete", view, "--db", db_url, "1")
    assert code == 2 and "view token" in err and len(err.strip().splitlines()) == 1
    code, _, err = cli("show", "no-such-token", "--db", db_url)
    assert code == 2 and "no ledger" in err
    agrees(client.get(f"/api/ledgers/{view}").json(), HANDS[:3])


def test_one_client_may_open_only_so_many_ledgers_per_window(make_client) -> None:  # type: ignore[no-untyped-def]
    from sgmahjong.web.clock import ManualClock
    from sgmahjong.web.config import WebLimits
    clock = ManualClock()
    client = make_client(clock=clock, limits=WebLimits(ledgers_per_client=2,
                                                       create_window=600))
    k = {"Idempotency-Key": "the-same-ledger"}
    for _ in range(3):     # one ledger, asked for three times: counted once
        assert client.post("/api/ledgers", json={"names": NAMES}, headers=k).status_code == 201
    assert client.post("/api/ledgers", json={"names": NAMES}).status_code == 201
    r = client.post("/api/ledgers", json={"names": NAMES})
    assert r.status_code == 429 and r.json()["error"] == "too-many-ledgers"
    assert int(r.headers["Retry-After"]) == 600
    # a malformed request is refused for what it is, and does not count
    assert client.post("/api/ledgers", json={"names": ["A"]}).status_code == 400
    clock.advance(601)
    assert client.post("/api/ledgers", json={"names": NAMES}).status_code == 201


def test_a_conflict_and_a_store_failure_have_their_codes(make_client, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from sgmahjong.store import ledgers as stored
    from sgmahjong.store.db import StoreError

    client = make_client()
    edit = new(client)["edit"]
    for exc, status in ((stored.LedgerConflict("the ledger was changed meanwhile"), 409),
                        (StoreError("the disk is full"), 503)):
        def fail(*args: object, exc: Exception = exc, **kw: object) -> int:
            raise exc
        monkeypatch.setattr(stored.LedgerStore, "save", fail)
        r = client.post(f"/api/ledgers/{edit}/hands", json={"type": "drawn"})
        assert (r.status_code, r.json()["error"]) == (status, CODES[status]), r.text


def test_thirteen_wonders_and_the_payouts_the_rules_pay(make_client) -> None:  # type: ignore[no-untyped-def]
    client = make_client()
    made = new(client)
    assert made["ledger"]["thirteen_wonders_tai"] == 8
    assert "concealed-kong" not in made["ledger"]["instant_reasons"]
    # no tai given: standard's 8, paid at the 5-tai cap (base 32) at the self-drawn rate
    # off Cy's discard: 64 from each of three
    r = client.post(f"/api/ledgers/{made['edit']}/hands",
                    json={"type": "win", "winner": 1, "from": 2, "thirteen_wonders": True})
    assert r.status_code == 201, r.text
    assert r.json()["hands"][0]["deltas"] == [-64, 192, -64, -64]
    assert r.json()["hands"][0]["raw_tai"] == 8
    menqing = new(client, rules="menqing")["ledger"]
    assert "concealed-kong" in menqing["instant_reasons"] and menqing["has_instant"]
    limit = new(client, rules="limit")["ledger"]
    assert (limit["thirteen_wonders_tai"], limit["instant_reasons"], limit["has_instant"]) == (
        5, [], False)
    assert new(client, rules="casual")["ledger"]["thirteen_wonders_tai"] is None


def test_money_the_csv_and_the_download_names(make_client, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from sgmahjong.web import ledgers as served

    # a ledger made before view tokens were kept from starting with "-"
    monkeypatch.setattr(served, "new_tokens", lambda: ("-5CyfK3uXyZ_abcdefghij",
                                                       "edit-token-of-this-test-0123456789"))
    client = make_client()
    made = new(client, stake="1e6")
    view, edit = made["view"], made["edit"]
    assert view.startswith("-") and made["ledger"]["stake"] == "1000000.00"
    for h in HANDS[:2]:
        assert client.post(f"/api/ledgers/{edit}/hands", json=h).status_code == 201
    got = client.get(f"/api/ledgers/{view}").json()
    # 3 tai off Bob, base 8: +32 -16 -8 -8; a claimed kong for Cy: -2 -2 +6 -2
    assert got["totals"] == [30, -18, -2, -10]
    assert got["money"] == ["30000000.00", "-18000000.00", "-2000000.00", "-10000000.00"]
    for ext in ("csv", "json"):
        r = client.get(f"/api/ledgers/{view}/export.{ext}")
        assert r.headers["content-disposition"] == (
            f'attachment; filename="ledger-5CyfK3uX.{ext}"')
    rows = list(csv.reader(io.StringIO(client.get(f"/api/ledgers/{view}/export.csv").text)))
    assert rows[0][-4:] == [f"{n} money" for n in NAMES]
    assert [r[-4:] for r in rows[1:]] == [
        ["32000000.00", "-16000000.00", "-8000000.00", "-8000000.00"],
        ["30000000.00", "-18000000.00", "-2000000.00", "-10000000.00"]]


# ------------------------------------------------------------ a ledger at the cap

def _evening(n: int) -> list[dict]:
    """``n`` hands of a long evening: wins all round the table and some drawn hands."""
    return [{"type": "drawn"} if i % 5 == 4 else
            {"type": "win", "winner": i % 4, "tai": 1 + i % 3, "from": (i + 1) % 4}
            for i in range(n)]


def _combos(hands: list[dict]) -> set[tuple[str, int, str]]:
    """Each hand with who dealt it and its round wind, by the independent reckoning: what
    a hand's payments depend on."""
    return {(json.dumps(h, sort_keys=True), r["dealer"], r["round_wind"])
            for h, r in zip(hands, reckon(hands), strict=False)}


@pytest.fixture
def full(make_client, monkeypatch):  # type: ignore[no-untyped-def]
    """A ledger of 499 hands (written to the database directly: quick), and a count of
    the hands scored."""
    from collections import OrderedDict

    from sgmahjong import ledger as ledger_module
    from sgmahjong.ledger import Ledger
    from sgmahjong.store.ledgers import LedgerStore

    monkeypatch.setattr(ledger_module, "_SCORED", OrderedDict())   # nothing met before
    scored: list[int] = []
    score = Ledger._score

    def counted(self, h, banker, wind, number):  # type: ignore[no-untyped-def]
        scored.append(number)
        return score(self, h, banker, wind, number)
    monkeypatch.setattr(Ledger, "_score", counted)
    client = make_client()
    made = new(client)
    hands = _evening(499)
    data = client.get(f"/api/ledgers/{made['view']}/export.json").json()
    data.update(hands=[{"id": f"h{i + 1}", **h} for i, h in enumerate(hands)],
                next_id=500)
    LedgerStore(client.app.state.store).save(made["view"], 1, data)
    return client, made, hands, scored


def test_a_full_ledger_scores_only_the_hands_that_changed(full) -> None:  # type: ignore[no-untyped-def]
    client, made, hands, scored = full
    edit, view = made["edit"], made["view"]
    seen: set[tuple[str, int, str]] = set()

    def scores(request, now: list[dict]) -> int:  # type: ignore[no-untyped-def]
        """Hands scored by ``request``; what it should be: the hands whose entry, dealer
        and round wind no request met before."""
        scored.clear()
        r = request()
        assert r.status_code in (200, 201), r.text
        agrees(r.json(), now)
        want = len(_combos(now) - seen)
        seen.update(_combos(now))
        assert len(scored) == want
        return want

    # the first read scores each kind of hand once (not each of the 499)
    assert scores(lambda: client.get(f"/api/ledgers/{view}"), hands) < 60
    assert scores(lambda: client.get(f"/api/ledgers/{view}"), hands) == 0
    # the 500th hand: that one alone
    hands.append({"type": "win", "winner": 2, "tai": 5, "from": None})
    assert scores(lambda: client.post(f"/api/ledgers/{edit}/hands", json=hands[-1]),
                  hands) == 1
    # the first hand changed (still a win: the deal passes as before): it alone again,
    # though every total after it changes
    hands[0] = {"type": "win", "winner": 0, "tai": 3, "from": 2}
    assert scores(lambda: client.put(f"/api/ledgers/{edit}/hands/h1", json=hands[0]),
                  hands) == 1
    r = client.post(f"/api/ledgers/{edit}/hands", json={"type": "drawn"})
    assert r.status_code == 400 and "at most 500 hands" in r.json()["message"]
    scored.clear()
    rows = list(csv.reader(io.StringIO(client.get(f"/api/ledgers/{view}/export.csv").text)))
    assert len(client.get(f"/api/ledgers/{view}/export.json").json()["hands"]) == 500
    assert len(rows) == 501 and scored == []


def test_ledger_work_runs_off_the_event_loop(full, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Reading, scoring and storing a ledger, and writing its answer, happen in worker
    threads: meanwhile the server answers everyone else."""
    import asyncio
    import threading

    from sgmahjong.ledger import Ledger
    from sgmahjong.store.ledgers import LedgerStore
    from sgmahjong.web import ledgers as web_ledgers
    from sgmahjong.web import scorekeeper

    client, made, _hands, _scored = full
    calls: list[tuple[str, bool]] = []

    def on_loop() -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return True

    def watch(owner, name: str, static: bool = False) -> None:  # type: ignore[no-untyped-def]
        fn = getattr(owner, name)

        def watched(*a, **k):  # type: ignore[no-untyped-def]
            calls.append((name, on_loop()))
            return fn(*a, **k)
        monkeypatch.setattr(owner, name, staticmethod(watched) if static else watched)

    for name in ("load", "save", "create"):
        watch(LedgerStore, name)
    for name in ("summary", "csv_rows", "dumps", "_score"):
        watch(Ledger, name)
    watch(web_ledgers, "answer_bytes")
    watch(scorekeeper, "score_body")
    edit, view = made["edit"], made["view"]
    for method, url, body in (
            ("POST", "/api/ledgers", {"names": NAMES}),
            ("GET", f"/api/ledgers/{view}", None),
            ("GET", f"/api/ledgers/{view}?since=1", None),
            ("POST", f"/api/ledgers/{edit}/hands", HANDS[0]),
            ("PUT", f"/api/ledgers/{edit}/hands/h2", HANDS[1]),
            ("DELETE", f"/api/ledgers/{edit}/hands/h3", None),
            ("POST", f"/api/ledgers/{edit}/hands/h3/restore", None),
            ("GET", f"/api/ledgers/{view}/export.csv", None),
            ("GET", f"/api/ledgers/{view}/export.json", None),
            ("POST", "/api/score", {"ledger": view, "concealed": "123m456p789s1z",
                                    "melds": ["pong 555z"], "win_tile": "1z",
                                    "seat": "E", "round": "E", "self_drawn": True})):
        calls.clear()
        r = client.request(method, url, json=body)
        assert r.status_code in (200, 201), (url, r.text)
        assert calls and not [c for c in calls if c[1]], (method, url, calls)
        if not url.endswith((".csv", ".json", "/api/score")):
            # the answer is made in the worker too (a dict returned is encoded on the loop)
            assert ("answer_bytes", False) in calls, (method, url, calls)

    # a reader held inside a ledger's summary does not hold up another request
    inside, release = threading.Event(), threading.Event()
    summary = Ledger.summary

    def slow(self):  # type: ignore[no-untyped-def]
        inside.set()
        release.wait(30)        # a safety net only: the test releases it at once
        return summary(self)
    monkeypatch.setattr(Ledger, "summary", slow)
    reader = threading.Thread(target=lambda: client.get(f"/api/ledgers/{view}"))
    reader.start()
    try:
        assert inside.wait(30)
        assert client.get("/api/options").status_code == 200
        assert not release.is_set() and reader.is_alive()
    finally:
        release.set()
        reader.join(30)


def test_a_ledger_left_unchanged_past_the_expiry_is_deleted(make_client) -> None:  # type: ignore[no-untyped-def]
    import time

    from sqlalchemy import update

    from sgmahjong.web.clock import ManualClock
    from sgmahjong.web.config import WebLimits
    clock = ManualClock()
    day = 24 * 3600.0
    client = make_client(clock=clock, limits=WebLimits(ledger_expiry=30 * day,
                                                       sweep_every=60.0))
    old, kept = new(client), new(client)
    assert client.post(f"/api/ledgers/{kept['edit']}/hands", json=HANDS[0]).status_code == 201
    engine = client.app.state.store.engine

    def last_changed(ledger: dict, days_ago: float) -> None:
        with engine.begin() as conn:
            conn.execute(update(ledgers).where(ledgers.c.id == ledger["view"])
                         .values(updated_at=time.time() - days_ago * day))
    last_changed(old, 31)
    last_changed(kept, 29)
    # past the expiry the links answer as for no ledger, before anything is deleted
    for url in (f"/api/ledgers/{old['view']}", f"/api/ledgers/{old['edit']}?since=1",
                f"/api/ledgers/{old['view']}/export.csv"):
        r = client.get(url)
        assert r.status_code == 404, r.text
        assert r.json()["message"] == ("no ledger has this link (a ledger unchanged for "
                                       "30 days is deleted)")
    r = client.post(f"/api/ledgers/{old['edit']}/hands", json=HANDS[0])
    assert r.status_code == 404
    assert client.get(f"/api/ledgers/{kept['view']}").status_code == 200

    def rows() -> set[str]:
        with engine.connect() as conn:
            return {r.id for r in conn.execute(ledgers.select())}
    assert old["view"] in rows()
    clock.advance(60)           # the sweep is due: the next ledger opened deletes it
    third = new(client)
    assert rows() == {kept["view"], third["view"]}
    # a change keeps a ledger: changed 29 days ago, then now, it has 30 days again
    assert client.post(f"/api/ledgers/{kept['edit']}/hands", json=HANDS[1]).status_code == 201
    with engine.connect() as conn:
        changed = conn.execute(ledgers.select().where(ledgers.c.id == kept["view"])).one()
    assert time.time() - changed.updated_at < day
