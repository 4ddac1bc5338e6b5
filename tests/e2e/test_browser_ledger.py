"""The evening's ledger in two phones: the scorekeeper enters an evening of hands through the
page (one of them as a full hand in the calculator), a viewer follows it live from the view
link; after every change the totals, each hand's dealer and round wind, and the next dealer
are checked on both phones against an independent reckoning (ledger_model.py, from
RULES.md). Then the settle-up, the exports, and a server restart."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from .conftest import Server
from .ledger_model import reckon

PHONE = {"width": 390, "height": 844}
NAMES = ["Ann", "Bob", "Cy", "Dee"]
POLL_MS = 2000      # ledger.js polls this often; the viewer's clock is driven by the test

EVENING: list[dict[str, Any]] = [
    {"type": "win", "winner": 0, "tai": 3, "from": 1},
    {"type": "drawn"},
    {"type": "win", "winner": 2, "tai": 1, "from": None},
    {"type": "win", "winner": 1, "tai": 7, "from": 3, "liable": 3},
    {"type": "drawn", "instant": [{"player": 0, "reason": "claimed-kong"}]},
    {"type": "win", "winner": 3, "tai": 2, "from": 0,
     "instant": [{"player": 3, "reason": "cat-mouse", "dealt": True},
                 {"player": 1, "reason": "added-kong"}]},
    {"type": "win", "winner": 0, "tai": 8, "from": 2, "thirteen_wonders": True},
    {"type": "drawn", "kong": True},
    {"type": "win", "winner": 1, "tai": 4, "from": None,
     "instant": [{"player": 1, "reason": "four-flowers"}]},
    {"type": "win", "winner": 2, "tai": 2, "from": 1},
    {"type": "win", "winner": 0, "tai": 1, "from": 3},
    {"type": "win", "winner": 3, "tai": 5, "from": 2},
]


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def new_page(browser: Any, clock: bool = False) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if clock:
        page.clock.install()
    return ctx, page, errors


def revision(page: Any) -> int:
    return int(page.evaluate("() => window.sgmjLedger.revision"))


def enter(page: Any, h: dict[str, Any], index: int | None = None) -> None:
    """Fill the hand form as a person would and save (``index``: change that past hand)."""
    before = revision(page)
    if index is not None:
        page.locator(f'[data-testid="hand-row"][data-number="{index + 1}"] '
                     '[data-testid="hand-edit"]').tap()
    page.locator(f'#entry-type button[data-value="{h["type"]}"]').tap()
    if h["type"] == "win":
        page.locator(f'#entry-winner button[data-value="{h["winner"]}"]').tap()
        frm = h.get("from")
        page.locator(f'#entry-from button[data-value="{"null" if frm is None else frm}"]').tap()
        page.get_by_test_id("entry-tai").fill(str(h["tai"]))
        page.get_by_test_id("entry-13").set_checked(bool(h.get("thirteen_wonders")))
        liable = h.get("liable")
        page.locator(f'#entry-liable button[data-value="{"null" if liable is None else liable}"]'
                     ).tap()
    else:
        page.get_by_test_id("entry-kong").set_checked(bool(h.get("kong")))
    while page.get_by_test_id("instant-item").count():
        page.get_by_test_id("instant-item").first.get_by_role("button").tap()
    for p in h.get("instant", []):
        page.get_by_test_id("instant-player").select_option(str(p["player"]))
        page.get_by_test_id("instant-reason").select_option(p["reason"])
        page.get_by_test_id("instant-dealt").set_checked(bool(p.get("dealt")))
        page.get_by_test_id("instant-add").tap()
    page.get_by_test_id("entry-save").tap()
    page.wait_for_function("r => window.sgmjLedger.revision > r", arg=before)


def shows(page: Any, hands: list[dict[str, Any]]) -> None:
    """The page's standings, hand rows and next hand equal the reckoning of ``hands``."""
    want = reckon(hands)
    totals = want[-2]["totals"] if hands else [0, 0, 0, 0]
    rows = page.get_by_test_id("standing")
    got = {int(rows.nth(i).get_attribute("data-player")):
           rows.nth(i).get_by_test_id("standing-points").inner_text() for i in range(4)}
    assert got == {p: signed(totals[p]) for p in range(4)}
    assert [int(r.get_attribute("data-number"))
            for r in page.get_by_test_id("hand-row").all()] == list(range(len(hands), 0, -1))
    for n, w in enumerate(want[:-1], start=1):
        row = page.locator(f'[data-testid="hand-row"][data-number="{n}"]')
        assert row.get_by_test_id("hand-deal").inner_text() == (
            f"{NAMES[w['dealer']]} dealt · {w['round_wind']} round")
        assert [row.get_by_test_id(f"hand-delta-{p}").inner_text() for p in range(4)] == [
            signed(x) for x in w["deltas"]]
    nxt = want[-1]
    assert page.get_by_test_id("next-hand").inner_text() == (
        f"Next: hand {len(hands) + 1}, {NAMES[nxt['dealer']]} deals, "
        f"{nxt['round_wind']} round")


def follow(viewer: Any, editor: Any, hands: list[dict[str, Any]]) -> None:
    """The viewer's next poll brings the editor's change."""
    viewer.clock.run_for(POLL_MS)
    viewer.wait_for_function("r => window.sgmjLedger.revision === r", arg=revision(editor))
    shows(viewer, hands)


def test_an_evening_in_two_phones(browser: Any, server: Server) -> None:
    ectx, editor, eerrors = new_page(browser)
    editor.goto(server.url + "/ledger")
    for i, n in enumerate(NAMES):
        editor.get_by_test_id(f"open-name-{i}").fill(n)
    editor.get_by_test_id("open-rules").select_option("standard")
    editor.get_by_test_id("open-submit").tap()
    editor.get_by_test_id("hand-row").first.wait_for(state="detached")
    editor.get_by_test_id("next-hand").wait_for()
    view_link = editor.get_by_test_id("view-link").input_value()
    edit_link = editor.get_by_test_id("edit-link").input_value()
    assert view_link != edit_link and edit_link == editor.url

    vctx, viewer, verrors = new_page(browser, clock=True)
    viewer.goto(view_link)
    viewer.get_by_test_id("next-hand").wait_for()
    assert viewer.get_by_test_id("entry").is_hidden()
    assert viewer.get_by_test_id("mode").inner_text().startswith("You are watching")
    shows(viewer, [])

    hands: list[dict[str, Any]] = []
    for h in EVENING:
        enter(editor, h)
        hands.append(h)
        shows(editor, hands)
        follow(viewer, editor, hands)
    assert viewer.get_by_test_id("hand-edit").count() == 0

    # a full hand through the calculator: Ann shows White and Green, Cy feeds the Red
    editor.get_by_test_id("full-hand").tap()
    editor.get_by_test_id("pick-1m").wait_for()
    editor.get_by_test_id("ledger-note").wait_for()
    seat = {p: s for s, p in enumerate(
        [(reckon(hands)[-1]["dealer"] + i) % 4 for i in range(4)])}
    editor.locator(f'#seat button[data-value="{seat[0]}"]').tap()
    editor.locator(f'#how button[data-value="{seat[2]}"]').tap()
    editor.locator('#modes button[data-value="set"]').tap()
    editor.locator('#kinds button[data-value="pong"]').tap()
    for t in ("5z", "6z"):
        editor.get_by_test_id(f"pick-{t}").tap()
    editor.locator('#modes button[data-value="hand"]').tap()
    for t in ("7z", "7z", "1m", "2m", "3m", "9p", "9p", "7z"):
        editor.get_by_test_id(f"pick-{t}").tap()
    # the headline comes back from the scorer over HTTP: wait for it, then read it
    editor.get_by_test_id("outcome").wait_for()
    assert editor.get_by_test_id("headline").inner_text() == "Ann wins: 5 tai"
    editor.get_by_test_id("to-ledger").tap()
    editor.wait_for_url(edit_link)
    editor.get_by_test_id("next-hand").wait_for()
    # Big Three Dragons, 7 tai; Bao for the third dragon: Cy pays it all
    hands.append({"type": "win", "winner": 0, "tai": 7, "from": 2, "liable": 2})
    shows(editor, hands)
    follow(viewer, editor, hands)
    assert editor.locator('[data-testid="hand-row"][data-number="13"] '
                          '[data-testid="hand-text"]').inner_text() == (
        "Ann won 7 tai, from Cy (Bao: Cy pays)")

    # the drawn second hand was a win after all; then the fifth hand goes
    hands[1] = {"type": "win", "winner": 1, "tai": 2, "from": 0}
    enter(editor, hands[1], index=1)
    shows(editor, hands)
    follow(viewer, editor, hands)
    before = revision(editor)
    editor.locator('[data-testid="hand-row"][data-number="5"] [data-testid="hand-delete"]').tap()
    editor.wait_for_function("r => window.sgmjLedger.revision > r", arg=before)
    del hands[4]
    shows(editor, hands)
    follow(viewer, editor, hands)

    # settle-up: at most three transfers that bring every total to zero
    totals = reckon(hands)[-2]["totals"]
    transfers = viewer.get_by_test_id("transfer").all_inner_texts()
    assert 1 <= len(transfers) <= 3
    bal = dict(zip(NAMES, totals, strict=True))
    for t in transfers:
        payer, _, payee, points = t.split(" ")
        bal[payer] += int(points)
        bal[payee] -= int(points)
    assert set(bal.values()) == {0}

    with urllib.request.urlopen(server.url + viewer.get_by_test_id("export-json")
                                .get_attribute("href"), timeout=5) as r:
        exported = json.loads(r.read())
    assert len(exported["hands"]) == len(hands)

    # a restart: the ledger is in the database
    server.stop()
    server.start()
    viewer.reload()
    viewer.get_by_test_id("next-hand").wait_for()
    shows(viewer, hands)
    editor.reload()
    editor.get_by_test_id("next-hand").wait_for()
    shows(editor, hands)
    assert not eerrors and not verrors, (eerrors, verrors)
    ectx.close()
    vctx.close()


def api(server: Server, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server.url + path, data, {"Content-Type": "application/json"},
                                 method=method)
    with urllib.request.urlopen(req, timeout=5) as r:
        return json.loads(r.read())


def test_thirteen_wonders_and_only_the_payouts_the_rules_pay(browser: Any,
                                                            server: Server) -> None:
    made = api(server, "POST", "/api/ledgers", {"names": NAMES, "rules": "standard"})
    ctx, page, errors = new_page(browser)
    page.goto(made["edit_url"])
    page.get_by_test_id("next-hand").wait_for()
    # standard: a concealed kong pays nothing at once, so it is not offered
    reasons = page.get_by_test_id("instant-reason").locator("option").evaluate_all(
        "os => os.map(o => o.value)")
    assert reasons == ["claimed-kong", "added-kong", "cat-mouse", "rooster-centipede",
                       "own-flower-season", "four-animals", "four-flowers", "four-seasons"]
    # Thirteen Wonders needs no tai typed: the rules' 8
    page.locator('#entry-winner button[data-value="0"]').tap()
    page.locator('#entry-from button[data-value="1"]').tap()
    page.get_by_test_id("entry-13").check()
    assert page.get_by_test_id("entry-tai").input_value() == "8"
    assert "8 tai under standard" in page.get_by_test_id("entry-13-note").inner_text()
    page.get_by_test_id("entry-save").tap()
    page.get_by_test_id("hand-row").first.wait_for()
    # 8 raw, paid at the cap of 5 (base 32) at the self-drawn rate off Bob's discard:
    # 64 from each of three
    row = page.locator('[data-testid="hand-row"][data-number="1"]')
    assert [row.get_by_test_id(f"hand-delta-{p}").inner_text() for p in range(4)] == [
        "+192", "-64", "-64", "-64"]
    assert row.get_by_test_id("hand-text").inner_text() == (
        "Ann won 8 tai, from Bob (Thirteen Wonders)")
    ctx.close()
    made = api(server, "POST", "/api/ledgers", {"names": NAMES, "rules": "menqing"})
    ctx, page, more = new_page(browser)
    page.goto(made["edit_url"])
    page.get_by_test_id("next-hand").wait_for()
    # menqing: a concealed kong pays 2 from each, like the other kongs
    assert page.get_by_test_id("instant-reason").locator(
        'option[value="concealed-kong"]').count() == 1
    ctx.close()
    assert not errors and not more, (errors, more)


LONG = ["Alexandrina Wong Mei Lin", "Bartholomew Tan Kok Seng", "Christabel Lim Siew Hoon",
        "Desmondaloysiusngboonxyz"]
LONG_HANDS: list[dict[str, Any]] = [
    {"type": "win", "winner": 0, "tai": 3, "from": 1},
    {"type": "drawn", "instant": [{"player": 2, "reason": "claimed-kong"}]},
    {"type": "win", "winner": 3, "tai": 2, "from": None,
     "instant": [{"player": 3, "reason": "cat-mouse"}]},
]


def test_hand_rows_say_why_and_the_running_total(browser: Any, server: Server) -> None:
    made = api(server, "POST", "/api/ledgers", {"names": NAMES, "rules": "standard"})
    for h in LONG_HANDS:
        api(server, "POST", f"/api/ledgers/{made['edit']}/hands", h)
    want = reckon(LONG_HANDS)
    ctx, page, errors = new_page(browser)
    page.goto(made["view_url"])
    page.get_by_test_id("hand-row").first.wait_for()
    lines = {n: sorted(page.locator(f'[data-testid="hand-row"][data-number="{n}"] '
                                    '[data-testid="hand-line"]').all_inner_texts())
             for n in (1, 2, 3)}
    # 3 tai off Bob: base 8, Bob 16, Cy and Dee 8; a claimed kong: 2 from each; Dee
    # self-drawn 2 tai: base 4, 8 from each, and Cat and Mouse 2 from each
    assert lines == {1: ["Bob pays Ann 16", "Cy pays Ann 8", "Dee pays Ann 8"],
                     2: ["the others each pay Cy 2 for a kong"],
                     3: ["Ann pays Dee 8", "Bob pays Dee 8", "Cy pays Dee 8",
                         "the others each pay Dee 2 for Cat and Mouse"]}
    for n, w in enumerate(want[:-1], start=1):
        row = page.locator(f'[data-testid="hand-row"][data-number="{n}"]')
        assert [row.get_by_test_id(f"hand-total-{p}").inner_text() for p in range(4)] == [
            f"= {signed(t)}" if t else "= 0" for t in w["totals"]]
    assert not errors, errors
    ctx.close()


def test_long_names_fit_a_phone(browser: Any, server: Server) -> None:
    made = api(server, "POST", "/api/ledgers", {"names": LONG, "rules": "standard",
                                                "stake": "0.10"})
    for h in LONG_HANDS:
        api(server, "POST", f"/api/ledgers/{made['edit']}/hands", h)
    for link in (made["edit_url"], made["view_url"]):
        ctx, page, errors = new_page(browser)
        page.goto(link)
        page.get_by_test_id("hand-row").first.wait_for()
        # (a phone widens its layout viewport to what overflows: measure against 390 px)
        wide = page.evaluate("""(width) => [...document.querySelectorAll('body *')]
          .filter(e => e.getClientRects().length)
          .map(e => [e.tagName + (e.dataset.testid ? '#' + e.dataset.testid : ''),
                     e.getBoundingClientRect()])
          .filter(([, r]) => r.left < -0.5 || r.right > width + 0.5)
          .map(([n, r]) => `${n} ${Math.round(r.left)}-${Math.round(r.right)}`)""",
                             PHONE["width"])
        assert wide == [], wide
        assert page.evaluate("() => innerWidth") == PHONE["width"]
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        for testid in ("hand-edit", "hand-delete"):
            buttons = page.get_by_test_id(testid)
            assert buttons.count() == (len(LONG_HANDS) if link == made["edit_url"] else 0)
            for i in range(buttons.count()):
                box = buttons.nth(i).bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (testid, box)
        assert not errors, errors
        ctx.close()
