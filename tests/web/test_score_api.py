"""``POST /api/score``: the calculator over HTTP, with a preset or an uploaded house-rule file.

Expected figures are worked out from RULES.md: standard base = 2^tai, a discard win costs the
discarder 2×base and the others 1×base; limit base = 2^(tai−1).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient

from sgmahjong.web.scorekeeper import MAX_BODY, MAX_HOUSE_RULES

RED_PONG = {"concealed": "123m456p789s777z1m", "win_tile": "1m", "seat": "S", "discarder": "N"}


@pytest.fixture
def client(make_client) -> TestClient:  # type: ignore[no-untyped-def]
    return make_client()  # type: ignore[no-any-return]


def test_the_answer_is_the_command_lines(client: TestClient) -> None:
    r = client.post("/api/score", json=RED_PONG)
    assert r.status_code == 200, r.text
    got = r.json()
    # a Red Dragon pong: 1 tai, base 2: North discarded (4), East and West 2 each
    assert (got["winning"], got["tai"], got["raw_tai"]) == (True, 1, 1)
    assert got["payments"] == {"E": -2, "S": 8, "W": -2, "N": -4}
    assert [(p["id"], p["tai"]) for p in got["patterns"]] == [("dragon-pong", 1)]
    cli = subprocess.run([sys.executable, "-m", "sgmahjong", "score", "--json"],
                         input=json.dumps(RED_PONG), capture_output=True, text=True, check=True)
    assert got == json.loads(cli.stdout)


def test_a_preset_by_name(client: TestClient) -> None:
    got = client.post("/api/score", json={**RED_PONG, "rules": "limit"}).json()
    # limit: base 2^(1-1) = 1; discarder 2, others 1
    assert got["rules"] == "limit"
    assert got["payments"] == {"E": -1, "S": 4, "W": -1, "N": -2}


def test_an_uploaded_house_rule_file(client: TestClient) -> None:
    toml = 'extends = "standard"\nname = "our table"\n[scoring.patterns]\ndragon-pong = 2\n'
    got = client.post("/api/score", json={**RED_PONG, "house_rules": toml}).json()
    # the dragon pong is worth 2 at this table: base 4, North pays 8, East and West 4
    assert (got["rules"], got["tai"]) == ("our table", 2)
    assert got["payments"] == {"E": -4, "S": 16, "W": -4, "N": -8}


def test_detail_gives_the_cap_the_lines_and_the_instant_payouts(client: TestClient) -> None:
    body = {"concealed": "234m567p789s9s", "melds": ["kong 7777z"], "bonus": "1a2a",
            "win_tile": "9s", "seat": "E", "discarder": "S", "detail": True}
    got = client.post("/api/score", json=body).json()
    # Red kong 1 + Cat 1 + Mouse 1 = 3 tai, base 8: South 16, West and North 8 each = 32
    assert got["tai"] == 3
    assert got["payments"] == {"E": 32, "S": -16, "W": -8, "N": -8}
    d = got["detail"]
    assert d["cap"] == 5
    assert sorted((p["reason"], p["amount"]) for p in d["instant"]) == [
        ("cat-mouse", 2), ("claimed-kong", 2)]
    # instant: 2 + 2 from each of three; with the win East has 32 + 12
    assert d["total"] == {"E": 44, "S": -20, "W": -12, "N": -12}
    assert {(ln["payer"], ln["payee"], ln["amount"]) for ln in d["lines"]} == {
        ("S", "E", 16), ("W", "E", 8), ("N", "E", 8)}
    dealt = client.post("/api/score", json={**body, "bonus_dealt": True}).json()["detail"]
    assert sorted((p["reason"], p["amount"]) for p in dealt["instant"]) == [
        ("cat-mouse", 4), ("claimed-kong", 2)]


@pytest.mark.parametrize(("body", "status", "words"), [
    ({**RED_PONG, "rules": "mine"}, 400, "field 'rules': unknown preset 'mine'"),
    ({**RED_PONG, "house_rules": "extends = [", "rules": None}, 400, "not valid TOML"),
    ({**RED_PONG, "house_rules": "[payments]\nscheme = 'everyone'\n"}, 400, "scheme"),
    ({**RED_PONG, "house_rules": "x" * (MAX_HOUSE_RULES + 1)}, 413, "too large"),
    ({**RED_PONG, "house_rules": "", "rules": "limit"}, 400, "not both"),
    ({"win_tile": "1m", "seat": "S"}, 400, "missing field 'concealed'"),
    ({**RED_PONG, "concealed": "3333m456p789s777z", "win_tile": "3m"}, 400, "5 copies of 3m"),
    ({**RED_PONG, "concealed": "123m456p789s77z"}, 400, "must hold 13 tiles"),
    ({**RED_PONG, "seat": "X"}, 400, "unknown seat 'X'"),
    ({**RED_PONG, "colour": "red"}, 400, "unknown field 'colour'"),
    ({**RED_PONG, "detail": "yes"}, 400, "field 'detail' must be true or false"),
    ([1, 2], 400, "must be a JSON object"),
])
def test_bad_input_is_refused_by_name(client: TestClient, body: object, status: int,
                                      words: str) -> None:
    r = client.post("/api/score", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["message"]


def test_a_body_that_is_not_json_or_too_large(client: TestClient) -> None:
    r = client.post("/api/score", content=b"{not json",
                    headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not valid JSON" in r.json()["message"]
    r = client.post("/api/score", content=b" " * (MAX_BODY + 1))
    assert r.status_code == 413 and "too large" in r.json()["message"]


def test_last_tile_off_a_discard_is_refused_where_no_discard_follows_it(
        client: TestClient) -> None:
    body = {**RED_PONG, "events": ["last-tile"]}
    r = client.post("/api/score", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad-request"
    assert "no discard follows the final playable tile" in r.json()["message"]
    # self-drawn it is a win on the last tile: Red pong 1 + last tile 1 = 2 tai, base 4,
    # 8 from each of three
    got = client.post("/api/score", json={**body, "discarder": None}).json()
    assert got["payments"] == {"E": -8, "S": 24, "W": -8, "N": -8}
    # a house-rule file with a dead wall: the last live tile is discarded, and won
    toml = 'extends = "standard"\nname = "dead wall"\n[wall]\nreplacement = "dead-wall"\n'
    got = client.post("/api/score", json={**body, "house_rules": toml}).json()
    assert got["payments"] == {"E": -4, "S": 16, "W": -4, "N": -8}


@pytest.mark.parametrize(("body", "status", "code"), [
    ({**RED_PONG, "seat": "X"}, 400, "bad-request"),
    ({**RED_PONG, "house_rules": "x" * (MAX_HOUSE_RULES + 1)}, 413, "too-large"),
    ({**RED_PONG, "ledger": "nosuchledger"}, 404, "not-found"),
])
def test_each_error_answer_carries_the_code_of_its_status(client: TestClient, body: object,
                                                          status: int, code: str) -> None:
    r = client.post("/api/score", json=body)
    assert (r.status_code, r.json()["error"]) == (status, code), r.text
    assert r.json()["message"]
