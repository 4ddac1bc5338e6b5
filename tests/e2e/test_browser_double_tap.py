"""One tap, one change: every button that changes something, tapped twice on a phone on a
slow mobile network (400 ms of latency, taps 200 ms apart), three times, and double-clicked
with no latency at all, changes the ledger, the lobby or the table once (a rung of the
practice ladder makes one table; a throw or a Skip at the table is one answer); and a
request whose answer the network loses is sent again and carried out once. The ledger's
totals are checked against an independent reckoning of the hands the server holds
(ledger_model.py)."""

from __future__ import annotations

import json
import sqlite3
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Server
from .driver import Person
from .test_browser_ledger import shows

PHONE = {"width": 390, "height": 844}
LATENCY_MS = 400
GAP_MS = 200
NAMES = ["Ann", "Bob", "Cy", "Dee"]
HANDS: list[dict[str, Any]] = [
    {"type": "win", "winner": 0, "tai": 3, "from": 1},
    {"type": "drawn"},
    {"type": "win", "winner": 2, "tai": 1, "from": None},
]
MODES = ["two-taps", "three-taps", "double-click"]


# Chromium's network emulation slows HTTP but not a WebSocket's messages: the table's socket
# gets the same latency in the page, each message sent or received that much later, in order
SOCKET_LATENCY_JS = """(() => {
  const Real = window.WebSocket, LATENCY = %d;
  window.WebSocket = class extends Real {
    send(data) {
      setTimeout(() => { if (this.readyState === Real.OPEN) super.send(data); }, LATENCY);
    }
    set onmessage(f) { super.onmessage = (ev) => setTimeout(() => f.call(this, ev), LATENCY); }
    get onmessage() { return super.onmessage; }
  };
})();"""


def open_page(browser: Any, mode: str) -> tuple[Any, Any, list[str]]:
    """A phone on a slow mobile network, or (double-click) a desktop with none."""
    if mode == "double-click":
        ctx = browser.new_context()
        page = ctx.new_page()
    else:
        ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        ctx.add_init_script(SOCKET_LATENCY_JS % LATENCY_MS)
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", {
            "offline": False, "latency": LATENCY_MS, "downloadThroughput": -1,
            "uploadThroughput": -1})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return ctx, page, errors


def hit(page: Any, target: Any, mode: str) -> None:
    """Tap ``target`` as the mode says: at its place on the screen, as a finger does (a
    disabled button there takes no tap), not through Playwright's wait for it."""
    target.wait_for()
    expect(target).to_be_enabled()      # the page is ready for the first tap
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if mode == "double-click":
        page.mouse.dblclick(x, y)
        return
    for i in range(3 if mode == "three-taps" else 2):
        if i:
            page.wait_for_timeout(GAP_MS)   # the user's second tap, not a wait for a timer
        page.touchscreen.tap(x, y)


def settled(page: Any) -> None:
    """No request of the page is still on its way."""
    page.wait_for_function("() => window.sgmjRequest && window.sgmjRequest.inFlight === 0")


def post(server: Server, path: str, body: Any = None, method: str = "POST") -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"{server.url}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def ledger_with(server: Server, hands: list[dict[str, Any]]) -> str:
    made = post(server, "/api/ledgers", {"names": NAMES, "rules": "standard"})
    for h in hands:
        post(server, f"/api/ledgers/{made['edit']}/hands", h)
    return str(made["edit"])


def entries(server: Server, edit: str) -> list[dict[str, Any]]:
    return [h["entry"] for h in server.get(f"/api/ledgers/{edit}")["hands"]]


def rows(server: Server, table: str) -> int:
    with sqlite3.connect(server.db.removeprefix("sqlite:///")) as conn:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def fill_win(page: Any, h: dict[str, Any]) -> None:
    page.locator('#entry-type button[data-value="win"]').click()
    page.locator(f'#entry-winner button[data-value="{h["winner"]}"]').click()
    frm = h["from"]
    page.locator(f'#entry-from button[data-value="{"null" if frm is None else frm}"]').click()
    page.get_by_test_id("entry-tai").fill(str(h["tai"]))


# ---------------------------------------------------------------- the ledger

@pytest.mark.parametrize("mode", MODES)
def test_add_hand_tapped_twice_adds_one_hand(browser: Any, server: Server, mode: str) -> None:
    edit = ledger_with(server, HANDS[:2])
    ctx, page, errors = open_page(browser, mode)
    page.goto(f"{server.url}/ledger/{edit}")
    page.get_by_test_id("hand-row").nth(1).wait_for()
    new = {"type": "win", "winner": 3, "tai": 2, "from": 0}
    fill_win(page, new)
    hit(page, page.get_by_test_id("entry-save"), mode)
    page.wait_for_function("() => document.querySelectorAll('[data-testid=hand-row]')"
                           ".length === 3")
    settled(page)
    held = entries(server, edit)
    assert held == [*HANDS[:2], new]
    shows(page, held)
    assert page.get_by_test_id("entry-error").is_hidden()
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("mode", MODES)
def test_save_changes_tapped_twice_changes_once(browser: Any, server: Server,
                                                mode: str) -> None:
    edit = ledger_with(server, HANDS)
    before = server.get(f"/api/ledgers/{edit}")["revision"]
    ctx, page, errors = open_page(browser, mode)
    page.goto(f"{server.url}/ledger/{edit}")
    page.locator('[data-testid="hand-row"][data-number="1"] [data-testid="hand-edit"]').click()
    changed = {"type": "win", "winner": 1, "tai": 2, "from": 3}
    fill_win(page, changed)
    hit(page, page.get_by_test_id("entry-save"), mode)
    page.get_by_test_id("entry-save").filter(has_text="Add hand").wait_for()
    settled(page)
    assert server.get(f"/api/ledgers/{edit}")["revision"] == before + 1
    held = entries(server, edit)
    assert held == [changed, *HANDS[1:]]
    shows(page, held)
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("mode", MODES)
def test_delete_tapped_twice_deletes_that_hand_only_and_can_be_undone(
        browser: Any, server: Server, mode: str) -> None:
    edit = ledger_with(server, HANDS)
    ctx, page, errors = open_page(browser, mode)
    page.goto(f"{server.url}/ledger/{edit}")
    delete = page.locator('[data-testid="hand-row"][data-number="2"] '
                          '[data-testid="hand-delete"]')
    hit(page, delete, mode)
    page.get_by_test_id("hand-deleted").wait_for()
    settled(page)
    held = entries(server, edit)
    assert held == [HANDS[0], HANDS[2]]       # not the hand that moved up into its place
    shows(page, held)
    assert page.get_by_test_id("deleted-text").inner_text().startswith("Hand 2 deleted")
    # the struck-out row sits where hand 2 was: between hands 3 (now 2) and 1
    order = page.locator("#hands tr").evaluate_all(
        "rows => rows.map(r => r.dataset.number || 'deleted')")
    assert order == ["2", "deleted", "1"]
    hit(page, page.get_by_test_id("undo-button"), mode)
    page.get_by_test_id("hand-deleted").wait_for(state="detached")
    settled(page)
    held = entries(server, edit)
    assert held == HANDS
    shows(page, held)
    assert errors == []
    ctx.close()


def add_payout(page: Any, player: int, reason: str) -> None:
    page.get_by_test_id("instant-player").select_option(str(player))
    page.get_by_test_id("instant-reason").select_option(reason)


def save_new_hand(page: Any, count: int) -> None:
    """Save the form as a new hand with one plain click, and wait for its row."""
    page.get_by_test_id("entry-save").click()
    page.wait_for_function("(n) => document.querySelectorAll('[data-testid=hand-row]')"
                           ".length === n", arg=count)
    settled(page)


@pytest.mark.parametrize("mode", MODES)
def test_add_this_payout_tapped_twice_adds_one_payout(browser: Any, server: Server,
                                                      mode: str) -> None:
    edit = ledger_with(server, HANDS[:1])
    ctx, page, errors = open_page(browser, mode)
    page.goto(f"{server.url}/ledger/{edit}")
    page.get_by_test_id("hand-row").first.wait_for()
    new = {"type": "win", "winner": 3, "tai": 2, "from": 0,
           "instant": [{"player": 1, "reason": "claimed-kong"}]}
    fill_win(page, new)
    add_payout(page, 1, "claimed-kong")
    # scrolled down to the button, the list of payouts above the screen, as on a phone: the
    # payout added there does not move the button (the browser keeps what is in view where
    # it was), so a second tap lands on it again
    page.evaluate("() => window.scrollBy(0, document.getElementById('instant-list')"
                  ".getBoundingClientRect().bottom)")
    hit(page, page.get_by_test_id("instant-add"), mode)
    expect(page.get_by_test_id("instant-item")).to_have_count(1)
    save_new_hand(page, 2)
    held = entries(server, edit)
    assert held == [HANDS[0], new]
    shows(page, held)           # the totals are the reckoning's of the hands held
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("mode", MODES)
def test_remove_a_payout_tapped_twice_removes_that_payout_only(browser: Any, server: Server,
                                                               mode: str) -> None:
    edit = ledger_with(server, HANDS[:1])
    ctx, page, errors = open_page(browser, mode)
    page.goto(f"{server.url}/ledger/{edit}")
    page.get_by_test_id("hand-row").first.wait_for()
    payouts = [{"player": 0, "reason": "claimed-kong"}, {"player": 2, "reason": "added-kong"},
               {"player": 3, "reason": "four-flowers"}]
    new = {"type": "win", "winner": 3, "tai": 2, "from": 0}
    fill_win(page, new)
    for p in payouts:
        add_payout(page, p["player"], p["reason"])
        page.get_by_test_id("instant-add").click()
    expect(page.get_by_test_id("instant-item")).to_have_count(3)
    page.wait_for_timeout(1000)     # the adds are three taps, not one: the next is a new one
    # the middle one goes; the third must not take its place under the finger
    hit(page, page.get_by_test_id("instant-item").nth(1).get_by_role("button"), mode)
    expect(page.get_by_test_id("instant-item")).to_have_count(2)
    assert page.get_by_test_id("instant-item").all_inner_texts() == [
        "Ann: a claimed kong remove", "Dee: all four Flowers remove"]
    save_new_hand(page, 2)
    held = entries(server, edit)
    assert held == [HANDS[0], {**new, "instant": [payouts[0], payouts[2]]}]
    shows(page, held)
    assert errors == []
    ctx.close()


def test_delete_sits_apart_from_edit_on_a_phone(browser: Any, server: Server) -> None:
    edit = ledger_with(server, HANDS)
    ctx, page, _ = open_page(browser, "two-taps")
    page.goto(f"{server.url}/ledger/{edit}")
    row = page.locator('[data-testid="hand-row"][data-number="1"]')
    e, d = (row.get_by_test_id(t).bounding_box() for t in ("hand-edit", "hand-delete"))
    assert e is not None and d is not None
    gap = max(d["x"] - (e["x"] + e["width"]), d["y"] - (e["y"] + e["height"]))
    assert gap >= 12    # px: a finger aimed at Edit does not touch Delete
    ctx.close()


@pytest.mark.parametrize("mode", MODES)
def test_open_the_ledger_tapped_twice_opens_one(browser: Any, server: Server,
                                                mode: str) -> None:
    ctx, page, errors = open_page(browser, mode)
    page.goto(f"{server.url}/ledger")
    for i, n in enumerate(NAMES):
        page.get_by_test_id(f"open-name-{i}").fill(n)
    hit(page, page.get_by_test_id("open-submit"), mode)
    page.get_by_test_id("next-hand").wait_for()
    settled(page)
    assert rows(server, "ledgers") == 1
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("mode", MODES)
def test_add_to_the_ledger_from_the_calculator_tapped_twice_adds_one_hand(
        browser: Any, server: Server, mode: str) -> None:
    edit = ledger_with(server, [])
    ctx, page, errors = open_page(browser, mode)
    page.goto(f"{server.url}/score?ledger={edit}")
    page.get_by_test_id("ledger-note").wait_for()
    # Ann (East, the dealer) wins on Cy's Red Dragon: White and Green shown, Red concealed
    page.locator('#seat button[data-value="0"]').click()
    page.locator('#how button[data-value="2"]').click()
    page.locator('#modes button[data-value="set"]').click()
    page.locator('#kinds button[data-value="pong"]').click()
    for t in ("5z", "6z"):
        page.get_by_test_id(f"pick-{t}").click()
    page.locator('#modes button[data-value="hand"]').click()
    for t in ("7z", "7z", "1m", "2m", "3m", "9p", "9p", "7z"):
        page.get_by_test_id(f"pick-{t}").click()
    page.get_by_test_id("to-ledger").wait_for()
    hit(page, page.get_by_test_id("to-ledger"), mode)
    page.wait_for_url(f"**/ledger/{edit}")
    page.get_by_test_id("hand-row").first.wait_for()
    settled(page)
    held = server.get(f"/api/ledgers/{edit}")["hands"]
    assert len(held) == 1
    # Big Three Dragons, the third on Cy's discard: 7 tai (as the scorer counts them) and
    # Cy liable (Bao); what that pays, hand row and standings, is the reckoning's to say
    h = held[0]
    assert (h["entry"]["winner"], h["entry"]["from"], h["raw_tai"], h["liable"]) == (0, 2, 7, 2)
    shows(page, [{"type": "win", "winner": 0, "from": 2, "tai": h["raw_tai"],
                  "liable": h["liable"]}])
    assert errors == []
    ctx.close()


def test_a_change_whose_answer_is_lost_is_sent_again_and_made_once(
        browser: Any, server: Server) -> None:
    edit = ledger_with(server, HANDS[:1])
    ctx, page, errors = open_page(browser, "double-click")
    lost: list[str] = []

    def lose_the_first_answer(route: Any) -> None:
        if route.request.method == "POST" and not lost:
            route.fetch()           # the server gets it and adds the hand ...
            lost.append(route.request.headers.get("idempotency-key", ""))
            route.abort("connectionreset")   # ... but its answer never arrives
            return
        route.continue_()
    page.route("**/api/ledgers/*/hands", lose_the_first_answer)
    page.goto(f"{server.url}/ledger/{edit}")
    page.get_by_test_id("hand-row").first.wait_for()
    new = {"type": "win", "winner": 1, "tai": 2, "from": None}
    fill_win(page, new)
    page.get_by_test_id("entry-save").click()
    page.wait_for_function("() => document.querySelectorAll('[data-testid=hand-row]')"
                           ".length === 2")
    settled(page)
    assert lost and lost[0]
    held = entries(server, edit)
    assert held == [HANDS[0], new]
    shows(page, held)
    assert page.get_by_test_id("entry-error").is_hidden()
    assert errors == []
    ctx.close()


# ---------------------------------------------------------------- the lobby

@pytest.mark.parametrize("mode", MODES)
def test_create_table_tapped_twice_makes_one_table(browser: Any, server: Server,
                                                   mode: str) -> None:
    ctx, page, errors = open_page(browser, mode)
    page.goto(server.url + "/")
    page.get_by_test_id("create-name").fill("Quinn")
    hit(page, page.get_by_test_id("create"), mode)
    page.wait_for_url("**/t/*")
    page.get_by_test_id("start").wait_for()
    settled(page)
    assert rows(server, "game_tables") == 1
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("mode", MODES)
def test_a_ladder_rung_tapped_twice_makes_and_starts_one_table(browser: Any, server: Server,
                                                              mode: str) -> None:
    ctx, page, errors = open_page(browser, mode)
    page.goto(server.url + "/")
    hit(page, page.locator('[data-testid="ladder-rung"][data-rung="lily-pond"]'), mode)
    page.wait_for_url("**/t/*")
    page.get_by_test_id("hand-tile").first.wait_for()
    settled(page)
    assert rows(server, "game_tables") == 1
    table_id = page.url.rsplit("/", 1)[1]
    info = server.get(f"/api/tables/{table_id}")
    assert info["status"] == "playing"
    assert [s["name"] for s in info["seats"][1:]] == ["Rabbit", "Hedgehog", "Fox"]
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("mode", MODES)
def test_take_a_seat_tapped_twice_takes_one_seat(browser: Any, server: Server,
                                                 mode: str) -> None:
    made = post(server, "/api/tables", {"name": "Ann", "rules": "casual", "seed": 3})
    ctx, page, errors = open_page(browser, mode)
    page.goto(made["invite"])
    page.get_by_test_id("join-name").fill("Quinn")
    hit(page, page.get_by_test_id("join"), mode)
    page.get_by_test_id("join").wait_for(state="hidden")
    settled(page)
    seats = server.get(f"/api/tables/{made['table_id']}")["seats"]
    assert sorted(s["name"] for s in seats if s["kind"] == "human") == ["Ann", "Quinn"]
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("mode", MODES)
def test_start_tapped_twice_starts_once_and_says_nothing_is_wrong(
        browser: Any, server: Server, mode: str) -> None:
    ctx, page, errors = open_page(browser, mode)
    page.goto(server.url + "/")
    page.get_by_test_id("create-name").fill("Quinn")
    page.get_by_test_id("create").click()
    page.wait_for_url("**/t/*")
    hit(page, page.get_by_test_id("start"), mode)
    page.get_by_test_id("start").wait_for(state="hidden")
    settled(page)
    table_id = page.url.rsplit("/", 1)[1]
    assert server.get(f"/api/tables/{table_id}")["status"] == "playing"
    assert "started" not in page.locator("#status").inner_text()
    assert errors == []
    ctx.close()


@pytest.mark.parametrize(("path", "button", "options"), [
    ("/ledger", "open-submit", "**/api/score/options"),
    ("/", "create", "**/api/options")])
def test_a_tap_before_the_page_is_ready_sends_nothing(browser: Any, server: Server, path: str,
                                                      button: str, options: str) -> None:
    """On a slow network the button shows before the page's script is ready: it is
    disabled, and the form is never sent by the browser itself (which reloaded the page
    with the names in its address and lost them)."""
    ctx, page, errors = open_page(browser, "double-click")
    held: list[Any] = []
    page.route(options, lambda route: held.append(route))   # the answer is late
    with page.expect_request(lambda r: r.url.endswith(options.removeprefix("**"))):
        page.goto(server.url + path)
    target = page.get_by_test_id(button)
    expect(target).to_be_disabled()
    target.click(force=True)
    page.keyboard.press("Enter")
    assert page.url == server.url + path
    for route in held:
        route.continue_()
    expect(target).to_be_enabled()
    assert page.url == server.url + path and errors == []
    ctx.close()


# ---------------------------------------------------------------- the table

STATUS_JS = """() => { window.statusSeen = [];
  new MutationObserver(() => window.statusSeen.push(document.getElementById('status').textContent))
    .observe(document.getElementById('status'), {childList: true, characterData: true,
                                                 subtree: true}); }"""


def start_ann_at_a_table(page: Any, server: Server, seed: int = 3) -> str:
    """Ann makes a table (the deal of ``seed``, the AI in the other seats) and starts it;
    its id."""
    page.goto(server.url + "/")
    page.get_by_test_id("create-name").fill("Ann")
    page.get_by_test_id("create-seed").fill(str(seed))
    page.get_by_test_id("create").click()
    page.wait_for_url("**/t/*")
    table_id = page.url.rsplit("/", 1)[1]
    page.get_by_test_id("start").click()
    return table_id


@pytest.mark.parametrize("mode", MODES)
def test_a_throw_and_a_skip_tapped_twice_are_sent_once_and_say_nothing_is_wrong(
        browser: Any, server: Server, mode: str) -> None:
    """Ann throws with the Throw button and skips a claim with Skip, each tapped twice (or
    three times, or double-clicked): the page sends one answer to each request, the server
    takes it, and the status line never says the decision was not hers or no longer open."""
    ctx, page, errors = open_page(browser, mode)
    sent: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on(
        "framesent", lambda payload: sent.append(json.loads(payload))))
    # the deal of seed 9 offers Ann a pong after one other answer (seed 3: after sixteen, each
    # a round trip on the slow network, which made this the slowest test of the suite)
    table_id = start_ann_at_a_table(page, server, seed=9)
    page.get_by_test_id("hand-tile").first.wait_for()
    page.evaluate(STATUS_JS)
    person = Person(page, "clicks")
    tapped: dict[str, int] = {}        # the kind of decision -> the request answered by taps
    while len(tapped) < 2:
        assert not person.hand_over(), f"the hand ended first; tapped {tapped}"
        req = person.pending()
        if req is None:
            page.wait_for_timeout(50)
            continue
        kinds = {a["type"] for a in req["legal"]}
        if "discard" in kinds and "win" not in kinds and "discard" not in tapped:
            drawn = req["drawn"]
            page.locator(f'[data-testid="hand-tile"][data-tile="{drawn}"]').last.click()  # pick
            hit(page, page.get_by_test_id("action-discard"), mode)
            tapped["discard"] = req["id"]
        elif kinds == {"pass", "pong"} | (kinds & {"chow", "kong"}) and "pass" not in tapped:
            hit(page, page.get_by_test_id("action-pass"), mode)
            tapped["pass"] = req["id"]
        else:
            person.answer()
            continue
        page.wait_for_function("(id) => !window.sgmj.request || window.sgmj.request.id !== id",
                               arg=req["id"])
    page.wait_for_timeout(1500)     # any answer to a second copy has come back by now
    actions = [m for m in sent if m.get("type") == "action"]
    for kind, rid in tapped.items():
        mine = [m for m in actions if m.get("id") == rid]
        assert len(mine) == 1 and mine[0]["action"]["type"] == kind, (kind, mine)
    seen = page.evaluate("() => window.statusSeen")
    assert not [t for t in seen if "not your decision" in t or "no longer open" in t], seen
    # the server took each once: Ann's throws in its log are the throws she answered
    _, events = server.stored(table_id)
    throws = [e for e in events if type(e).__name__ == "Discarded" and e.seat == 0]
    assert len(throws) == sum(1 for m in actions if m["action"]["type"] == "discard")
    assert errors == []
    ctx.close()


def test_a_tap_is_taken_when_the_hand_is_drawn_again_between_press_and_release(
        browser: Any, server: Server) -> None:
    """A hint or a move can arrive while a finger is on a tile, and the page draws the hand
    again. The tap (press, then release) must still pick the tile, and the second tap throw
    it: had the drawing put new buttons in the hand, the browser would have had no button
    to send the click to, and the tap would be lost."""
    ctx, page, errors = open_page(browser, "two-taps")
    table_id = start_ann_at_a_table(page, server)
    # Ann is East: her first request is her first throw
    page.wait_for_function("() => window.sgmj.request && "
                           "window.sgmj.request.legal.some((a) => a.type === 'discard')")
    req = Person(page, "clicks").pending()
    assert req is not None
    tiles = page.eval_on_selector_all('[data-testid="hand-tile"]',
                                      "els => els.map(e => e.dataset.tile)")
    index = 2
    box = page.locator(f'[data-testid="hand-tile"][data-index="{index}"]').bounding_box()

    def tap_with_a_drawing_between() -> None:
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.keyboard.press("ArrowRight")       # moves the cursor: the hand is drawn again
        page.mouse.up()

    tap_with_a_drawing_between()
    assert page.evaluate("() => window.sgmj.picked") == index
    tap_with_a_drawing_between()
    page.wait_for_function("(id) => !window.sgmj.request || window.sgmj.request.id !== id",
                           arg=req["id"])
    # the server took the throw of the tile tapped
    _, events = server.stored(table_id)
    throws = [e for e in events if type(e).__name__ == "Discarded" and e.seat == 0]
    assert [e.tile.text for e in throws] == [tiles[index]]
    assert errors == []
    ctx.close()
