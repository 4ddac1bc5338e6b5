"""The pages around the table in a real browser: wrong links, the join page, the lobby's
AI defaults, and the hint panel's sentences."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from playwright.sync_api import expect

from .conftest import Server
from .test_browser_table import create_table, wait_for_request


def _post(server: Server, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(server.url + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())  # type: ignore[no-any-return]


def test_wrong_links_say_so_and_lead_back_to_the_lobby(browser: Any, server: Server) -> None:
    page = browser.new_context().new_page()
    r = page.goto(server.url + "/t/nosuchtable")
    assert r.status == 404
    assert page.locator("h1").inner_text() == "No table here"
    page.get_by_test_id("back-to-lobby").click()
    page.get_by_test_id("create").wait_for()          # the lobby's form
    assert page.url == server.url + "/"

    r = page.goto(server.url + "/somewhere/else")
    assert r.status == 404
    assert page.locator("h1").inner_text() == "Page not found"
    assert page.get_by_test_id("back-to-lobby").get_attribute("href") == "/"
    page.context.close()


def test_the_join_page_names_the_host_and_the_rules_and_a_full_table(
        browser: Any, server: Server) -> None:
    host = browser.new_context().new_page()
    invite = create_table(host, server, name="Ann", rules="standard", ai=["fox"] * 3)
    table_id = invite.rsplit("/", 1)[1]

    guest = browser.new_context().new_page()
    guest.goto(invite)
    guest.get_by_test_id("join-name").wait_for()
    assert guest.get_by_test_id("join-title").inner_text() == "Ann invites you to a table"
    assert guest.get_by_test_id("join-rules").inner_text() == \
        "Rules: standard (Singapore tai) · quick game (4 hands)"

    # three friends take the free seats; the game has not started
    for name in ("Bob", "Cat", "Dan"):
        _post(server, f"/api/tables/{table_id}/join", {"name": name})
    fifth = browser.new_context().new_page()
    fifth.goto(invite)
    fifth.get_by_test_id("watch").wait_for()
    assert fifth.get_by_test_id("status").inner_text() == "This table is full: you can watch."
    assert not fifth.get_by_test_id("join").is_visible()
    for p in (host, guest, fifth):
        p.context.close()


def test_a_second_player_with_the_hosts_name_in_other_capitals_is_refused_on_the_join_page(
        browser: Any, server: Server) -> None:
    made = _post(server, "/api/tables", {"name": "Ann Lee", "rules": "standard"})
    table_id = made["table_id"]
    guest = browser.new_context().new_page()
    errors: list[str] = []
    guest.on("pageerror", lambda exc: errors.append(str(exc)))
    guest.goto(made["invite"])
    guest.get_by_test_id("join-name").fill("  aNN   lee ")
    guest.get_by_test_id("join").click()
    status = guest.get_by_test_id("status")
    expect(status).to_have_text("Ann Lee is already at this table: pick another name "
                                "(names must differ, whatever their capitals)")
    # no seat was taken: the form stays for another name, and that one is taken at once
    seats = server.get(f"/api/tables/{table_id}")["seats"]
    assert [s["name"] for s in seats if s["kind"] == "human"] == ["Ann Lee"]
    expect(guest.get_by_test_id("join")).to_be_enabled()
    guest.get_by_test_id("join-name").fill("Anne")
    guest.get_by_test_id("join").click()
    guest.get_by_test_id("join").wait_for(state="hidden")
    seats = server.get(f"/api/tables/{table_id}")["seats"]
    assert [s["name"] for s in seats if s["kind"] == "human"] == ["Ann Lee", "Anne"]
    assert errors == []
    guest.context.close()


def test_casual_scoring_brings_the_gentlest_opponents_until_the_user_picks(
        browser: Any, server: Server) -> None:
    page = browser.new_context().new_page()
    page.goto(server.url + "/")
    levels = page.locator(".ai-level")
    page.get_by_test_id("create").wait_for()
    page.wait_for_function("() => document.querySelectorAll('.ai-level option').length > 0")

    def shown() -> list[str]:
        return [levels.nth(i).input_value() for i in range(3)]

    assert page.get_by_test_id("create-rules").input_value() == "casual"
    assert shown() == ["snail", "rabbit", "hedgehog"]     # the ladder's first rung
    page.get_by_test_id("create-rules").select_option("standard")
    assert shown() == ["hedgehog", "fox", "owl"]
    page.get_by_test_id("create-rules").select_option("casual")
    assert shown() == ["snail", "rabbit", "hedgehog"]
    # once the user picks an AI, changing the scoring leaves the picks alone
    page.get_by_test_id("ai-2").select_option("owl")
    page.get_by_test_id("create-rules").select_option("standard")
    assert shown() == ["snail", "owl", "hedgehog"]
    page.get_by_test_id("create").click()
    page.get_by_test_id("start").click()
    page.get_by_test_id("hand-tile").first.wait_for()
    info = json.loads(urllib.request.urlopen(
        server.url + "/api/tables/" + page.url.rsplit("/", 1)[1], timeout=10).read())
    assert [s["level"] for s in info["seats"][1:]] == ["snail", "owl", "hedgehog"]
    page.context.close()


def test_the_hint_panel_leaves_out_missing_parts_and_offers_the_win(
        browser: Any, server: Server) -> None:
    page = browser.new_context().new_page()
    create_table(page, server, name="Ann", rules="casual", ai=["greedy"] * 3)
    page.get_by_test_id("start").click()
    wait_for_request(page)
    page.keyboard.press("H")
    page.get_by_test_id("hints").wait_for()
    # the server's messages as the socket delivers them: a win offer, then its hints with
    # parts that are absent this time (the panel above already has the real ones)
    page.evaluate("""() => {
      const S = window.sgmj;
      S.ws.send = () => {};     // this page asks the server nothing more: no real hints
      const deliver = (msg) => S.ws.onmessage({data: JSON.stringify(msg)});
      deliver({type: "request", id: 999, n: S.n, seat: S.view.seat, deadline_ms: 0,
               legal: [{type: "win"}, {type: "pass"}], view: S.view,
               players: S.board.players, totals: S.board.totals});
      deliver({type: "hints", n: S.n, hints: {discard: null, waits: null, tai: "",
               claims: [{action: {type: "win"}, take: true, text: null}], bao: [],
               extra: "A sentence the server added."}});
    }""")
    text = page.get_by_test_id("hints").inner_text()
    assert "null" not in text and "undefined" not in text
    assert text.splitlines()[0] == "You can win: press W."
    assert "A sentence the server added." in text
    assert page.get_by_test_id("action-win").inner_text() == "Win (W)"
    # the server's own list of sentences, shown in its order, its win line not doubled
    page.evaluate("""() => window.sgmj.ws.onmessage({data: JSON.stringify({type: "hints",
      n: window.sgmj.n, hints: {lines: [
        {kind: "win", text: "You can win now on 8 Circles (3 tai): press W."},
        {kind: "waits", text: null}, {kind: "tai", text: "3 tai already certain."}]}})})""")
    assert page.get_by_test_id("hints").inner_text().splitlines() == [
        "You can win now on 8 Circles (3 tai): press W.", "", "3 tai already certain."]
    page.context.close()
