"""The hand calculator (/score) on a phone-sized screen: hands tapped in, their tai and who
pays whom in words.

Expected figures come from RULES.md (standard): base = 2^tai, capped at 5 tai; a discard
win costs the discarder 2×base and the others 1×base, a self-drawn one 2×base from each;
Thirteen Wonders is paid at the self-drawn rate; under Bao the liable player pays every
share; a claimed kong and Cat+Mouse each pay 2 from every opponent at once. Each is then
checked against the scorer's answer over HTTP as well.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from .conftest import Server

PHONE = {"width": 390, "height": 844}
NAMES = ["Ann", "Bob", "Cy", "Dee"]   # East, South, West, North


@pytest.fixture
def page(browser: Any, server: Server) -> Any:
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    pg = ctx.new_page()
    pg.errors = []
    pg.on("pageerror", lambda exc: pg.errors.append(str(exc)))
    pg.goto(server.url + "/score")
    pg.get_by_test_id("pick-1m").wait_for()
    pg.locator("summary", has_text="Players' names").tap()
    for i, name in enumerate(NAMES):
        pg.get_by_test_id(f"name-{i}").fill(name)
    yield pg
    assert not pg.errors, pg.errors
    ctx.close()


def tap(page: Any, *tiles: str) -> None:
    for t in tiles:
        page.get_by_test_id(f"pick-{t}").tap()


def choose(page: Any, group: str, value: str) -> None:
    page.locator(f'#{group} button[data-value="{value}"]').tap()


def shown(page: Any) -> dict[str, Any]:
    page.get_by_test_id("outcome").wait_for()
    return {
        "headline": page.get_by_test_id("headline").inner_text(),
        "patterns": page.get_by_test_id("pattern").all_inner_texts(),
        "total": page.get_by_test_id("total").inner_text(),
        "payments": page.get_by_test_id("payment").all_inner_texts(),
        "net": page.get_by_test_id("net").inner_text(),
    }


def scorer(server: Server, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(f"{server.url}/api/score", json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=5) as r:
        return json.loads(r.read())  # type: ignore[no-any-return]


def net_words(payments: dict[str, int]) -> str:
    def signed(v: int) -> str:
        return f"{v:+d}" if v != 0 else "0"
    return "In all: " + ", ".join(f"{n} {signed(payments[s])}" for n, s in zip(NAMES, "ESWN",
                                                                                strict=True))


def test_thirteen_wonders_tapped_in(page: Any, server: Server) -> None:
    choose(page, "seat", "1")          # Bob (South) wins
    choose(page, "how", "3")           # on Dee's discard
    tap(page, "1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z")
    assert page.get_by_test_id("problem").inner_text() == "14 tiles needed, 12 given"
    tap(page, "7z")
    assert page.get_by_test_id("problem").inner_text() == (
        "14 tiles needed, 13 given: now tap the winning tile")
    tap(page, "1m")                    # the page has moved on to the winning tile
    got = shown(page)
    # 8 tai raw, paid at the cap of 5: base 32, at the self-drawn rate 2 x 32 from each
    assert got["headline"] == "Bob wins: 5 tai"
    assert got["patterns"] == ["Thirteen Wonders\n8 tai"]
    assert got["total"] == "8 tai in all, paid as 5: the cap is 5."
    assert got["payments"] == ["Ann pays Bob 64", "Cy pays Bob 64", "Dee pays Bob 64"]
    want = {"E": -64, "S": 192, "W": -64, "N": -64}
    assert got["net"] == net_words(want)
    api = scorer(server, {"concealed": "19m19p19s1234567z", "win_tile": "1m", "seat": "S",
                          "discarder": "N"})
    assert (api["tai"], api["raw_tai"], api["payments"]) == (5, 8, want)
    assert page.get_by_test_id("typed").input_value() == "19m19p19s1234567z win 1m"
    assert page.get_by_test_id("summary").inner_text().startswith("Bob wins: 5 tai")


def test_a_bao_hand_tapped_in(page: Any, server: Server) -> None:
    choose(page, "how", "2")           # Ann (East) wins on Cy's discard
    choose(page, "modes", "set")
    choose(page, "kinds", "pong")
    tap(page, "5z", "6z")              # White and Green shown
    choose(page, "modes", "hand")
    tap(page, "7z", "7z", "1m", "2m", "3m", "9p", "9p")
    tap(page, "7z")                    # the third dragon, fed by Cy
    got = shown(page)
    # Big Three Dragons: 7 in total, paid as 5: base 32. Cy's share 64, Bob and Dee 32
    # each: under Bao Cy pays all 128 (RULES.md case 1, the missing third Dragon)
    assert got["headline"] == "Ann wins: 5 tai"
    assert got["patterns"] == ["Big Three Dragons\n7 tai"]
    assert got["total"] == "7 tai in all, paid as 5: the cap is 5."
    assert page.get_by_test_id("bao-line").inner_text() == (
        "Bao: Cy pays for the whole table (third dragon).")
    assert got["payments"] == ["Cy pays Ann 128"]
    want = {"E": 128, "S": 0, "W": -128, "N": 0}
    assert got["net"] == net_words(want)
    api = scorer(server, {"concealed": "77z123m99p", "melds": ["pong 555z", "pong 666z"],
                          "win_tile": "7z", "seat": "E", "discarder": "W"})
    assert api["payments"] == want and api["bao"] == {"seat": "W", "case": "third-dragon"}


def test_a_hand_with_instant_payouts_tapped_in(page: Any, server: Server) -> None:
    choose(page, "how", "1")           # Ann (East) wins on Bob's discard
    choose(page, "modes", "set")
    choose(page, "kinds", "kong")
    tap(page, "7z")                    # a claimed kong of Red
    choose(page, "modes", "bonus")
    tap(page, "1a", "2a")              # Cat and Mouse
    choose(page, "modes", "hand")
    tap(page, "2m", "3m", "4m", "5p", "6p", "7p", "7s", "8s", "9s", "9s", "9s")
    got = shown(page)
    # Red kong 1 + Cat 1 + Mouse 1 = 3 tai, base 8: Bob 16, Cy and Dee 8 each. At once:
    # the kong and Cat+Mouse, 2 + 2 from each opponent.
    assert got["headline"] == "Ann wins: 3 tai"
    assert sorted(got["patterns"]) == ["Animal ×2\n2 tai", "Dragon Pong\n1 tai"]
    assert got["payments"] == [
        "Bob pays Ann 16", "Cy pays Ann 8", "Dee pays Ann 8",
        "Bob, Cy, Dee each pay Ann 2 for a kong",
        "Bob, Cy, Dee each pay Ann 2 for Cat and Mouse"]
    assert got["net"] == net_words({"E": 44, "S": -20, "W": -12, "N": -12})
    api = scorer(server, {"concealed": "234m567p789s9s", "melds": ["kong 7777z"],
                          "bonus": "1a2a", "win_tile": "9s", "seat": "E", "discarder": "S",
                          "detail": True})
    assert api["payments"] == {"E": 32, "S": -16, "W": -8, "N": -8}
    assert api["detail"]["total"] == {"E": 44, "S": -20, "W": -12, "N": -12}


def test_an_impossible_hand_says_what_is_wrong(page: Any) -> None:
    tap(page, "3m", "3m", "3m", "3m")
    assert page.get_by_test_id("problem").inner_text() == "14 tiles needed, 4 given"
    tap(page, "3m")
    assert page.get_by_test_id("problem").inner_text() == (
        "a fifth 3 Characters (3m): the set has only four")
    assert page.get_by_test_id("outcome").is_hidden()
    page.get_by_test_id("hand-tile").first.tap()      # take one out again
    assert page.get_by_test_id("problem").inner_text() == "14 tiles needed, 4 given"
    # typed: a complete shape worth no tai, so no win under standard (minimum 1)
    typed = page.get_by_test_id("typed")
    typed.fill("222m456p789s234s5p win 5p")
    got = shown(page)
    assert got["headline"].startswith("Not a win:")
    typed.fill("123m456p789s234s5x")
    assert page.get_by_test_id("problem").inner_text() == (
        'cannot read "5x": a tile is a number and a suit letter (m, p, s, z, f, g or a)')


def test_a_house_rule_file_uploaded(page: Any) -> None:
    page.get_by_test_id("rules").select_option("house")
    page.get_by_test_id("house-file").set_input_files({
        "name": "ours.toml", "mimeType": "text/plain",
        "buffer": b'extends = "standard"\nname = "our table"\n[scoring.patterns]\n'
                  b'dragon-pong = 2\n'})
    choose(page, "seat", "1")          # Bob wins on Dee's discard
    choose(page, "how", "3")
    page.get_by_test_id("typed").fill("123m456p789s777z1m win 1m")
    got = shown(page)
    # a Red pong worth 2 at this table: base 4, Dee 8, Ann and Cy 4 each
    assert got["headline"] == "Bob wins: 2 tai"
    assert got["payments"] == ["Ann pays Bob 4", "Cy pays Bob 4", "Dee pays Bob 8"]
    page.get_by_test_id("house-file").set_input_files({
        "name": "bad.toml", "mimeType": "text/plain", "buffer": b"[payments]\nscheme = 3\n"})
    page.get_by_test_id("problem").wait_for()
    assert "scheme" in page.get_by_test_id("problem").inner_text()


def test_the_last_tile_off_a_discard_is_refused_under_standard(page: Any) -> None:
    choose(page, "seat", "1")          # Bob (South) wins on Dee's discard
    choose(page, "how", "3")
    page.get_by_test_id("typed").fill("123m456p789s777z1m win 1m")
    assert shown(page)["headline"] == "Bob wins: 1 tai"
    page.locator("summary", has_text="Events").tap()
    page.get_by_test_id("event-last-tile").check()
    # standard: no discard follows the final playable tile, so this cannot happen
    problem = page.get_by_test_id("problem")
    problem.wait_for()
    assert "no discard follows the final playable tile" in problem.inner_text()
    assert page.get_by_test_id("outcome").is_hidden()
    choose(page, "how", "null")        # self-drawn on the last tile it is
    got = shown(page)
    # Red pong 1 + last tile 1 = 2 tai, base 4: 8 from each of three
    assert got["headline"] == "Bob wins: 2 tai"
    assert "Win on the Last Tile\n1 tai" in got["patterns"]
    assert got["payments"] == ["Ann pays Bob 8", "Cy pays Bob 8", "Dee pays Bob 8"]


def test_the_calculator_from_a_view_link_does_not_offer_the_ledger(browser: Any,
                                                                   server: Server) -> None:
    req = urllib.request.Request(f"{server.url}/api/ledgers",
                                 json.dumps({"names": NAMES, "rules": "standard"}).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=5) as r:
        made = json.loads(r.read())
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    for token, offered in ((made["view"], False), (made["edit"], True)):
        pg.goto(f"{server.url}/score?ledger={token}")
        pg.get_by_test_id("ledger-note").wait_for()
        choose(pg, "how", "1")         # Ann (East, the first dealer) wins on Bob's discard
        pg.get_by_test_id("typed").fill("123m456p789s777z1m win 1m")
        got = shown(pg)
        assert got["headline"] == "Ann wins: 1 tai"
        note = pg.get_by_test_id("ledger-note").inner_text()
        assert pg.get_by_test_id("to-ledger").is_visible() is offered
        if not offered:
            assert "view link" in note and "edit link" in note
        else:
            assert "view link" not in note
    assert not errors, errors
    ctx.close()
