"""The web table in a real browser: two friends at one table, a reconnect, a server restart."""

from __future__ import annotations

import math
import re
import time
from typing import Any

from .conftest import SEED, ClockedServer, Server
from .driver import Person, play_until_hand_end

VIEW_JS = """() => {
  const v = window.sgmj.view;
  return v && {concealed: v.concealed, live: v.live_remaining, turn: v.turn,
               seats: v.seats.map(s => ({discards: s.discards, melds: s.melds.length,
                                         count: s.concealed_count}))};
}"""


def create_table(page: Any, server: Server, *, name: str, rules: str, ai: list[str],
                 seed: int = SEED) -> str:
    """Fill in the lobby form and create the table; returns the invite link."""
    page.goto(server.url + "/")
    page.get_by_test_id("create-name").fill(name)
    page.get_by_test_id("create-rules").select_option(rules)
    for i, level in enumerate(ai, start=1):
        page.get_by_test_id(f"ai-{i}").select_option(level)
    page.get_by_test_id("create-seed").fill(str(seed))
    page.get_by_test_id("create").click()
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    invite = page.get_by_test_id("invite-link")
    invite.wait_for()
    return str(invite.input_value())


def test_two_friends_play_a_hand_to_the_tai_breakdown(browser: Any, server: Server) -> None:
    ann_ctx, bob_ctx = browser.new_context(), browser.new_context()
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    invite = create_table(ann, server, name="Ann", rules="standard", ai=["owl", "fox", "fox"])
    assert invite.startswith(server.url + "/t/")

    # Bob opens the link in another browser (no shared storage) and takes a seat by name
    bob.goto(invite)
    bob.get_by_test_id("join-name").fill("Bob")
    bob.get_by_test_id("join").click()
    ann.get_by_test_id("seats").get_by_text("Bob").wait_for()
    expect_hidden(bob, "start")       # only the creator starts

    ann.get_by_test_id("start").click()
    for page in (ann, bob):
        page.get_by_test_id("table").wait_for()
        page.get_by_test_id("hand-tile").first.wait_for()

    # each sees their own tiles, and of the others only how many they hold
    table_id = invite.rsplit("/", 1)[1]
    info = server.get(f"/api/tables/{table_id}")
    assert [s["name"] for s in info["seats"]][:2] == ["Ann", "Bob"]
    assert [s["kind"] for s in info["seats"]] == ["human", "human", "ai", "ai"]
    for page in (ann, bob):
        v = page.evaluate(VIEW_JS)
        mine = page.evaluate("() => window.sgmj.view.seat")
        held = len(page.locator('[data-testid="hand-tile"]').all())
        assert held == len(v["concealed"].replace(" ", "")) // 2 or held >= 13
        others = page.evaluate("() => window.sgmj.view.seats.filter((s, i) => i !== "
                               "window.sgmj.view.seat).map(s => Object.keys(s))")
        assert all("concealed" not in keys for keys in others), mine
    wall = int(re.search(r"\d+", ann.get_by_test_id("wall-count").inner_text())[0])
    assert 0 < wall <= 148 - 4 * 13

    # hints on request (H), with a suggested discard when it is Ann's turn
    ann.keyboard.press("H")
    ann.get_by_test_id("hints").wait_for()

    people = [Person(ann, "keys"), Person(bob, "clicks")]
    play_until_hand_end(people)
    assert all(p.moves > 0 for p in people)

    for page in (ann, bob):
        title = page.get_by_test_id("hand-end").inner_text()
        assert "wins" in title, title
        breakdown = page.get_by_test_id("tai-breakdown").first
        rows = [r.inner_text() for r in breakdown.locator("tr").all()]
        *items, total = rows
        assert items, "a win lists where its tai came from"
        listed = sum(int(re.search(r"(\d+) tai", r)[1]) for r in items)
        shown = int(re.search(r"(\d+) tai", total)[1])
        # the total is the sum of the items, up to the preset's cap (5 in standard)
        assert shown == min(listed, 5) or "before the cap" in total
        assert shown >= 1           # standard: one tai at least to win
        assert page.locator("#overlay").get_by_text(re.compile(r"pays|scores")).count() > 0
    # both see the same result
    assert ann.get_by_test_id("tai-breakdown").first.inner_text() == \
        bob.get_by_test_id("tai-breakdown").first.inner_text()
    ann_ctx.close()
    bob_ctx.close()


def expect_hidden(page: Any, testid: str) -> None:
    assert not page.get_by_test_id(testid).is_visible()


def solo_table(browser: Any, server: Server, moves: int) -> tuple[Any, Any, Person]:
    """One person against three AIs, a few moves into the first hand."""
    ctx = browser.new_context()
    page = ctx.new_page()
    create_table(page, server, name="Ann", rules="casual", ai=["greedy"] * 3)
    page.get_by_test_id("start").click()
    page.get_by_test_id("hand-tile").first.wait_for()
    person = Person(page, "keys")
    play_until_hand_end([person], stop_after=moves)
    return ctx, page, person


def wait_for_request(page: Any, timeout: float = 30_000) -> None:
    page.wait_for_function("() => !!window.sgmj.request", timeout=timeout)


def test_reconnect_gets_what_was_missed_and_play_goes_on(browser: Any, server: Server) -> None:
    server.stop()
    server.ai_delay = 0.1      # slow enough that the AIs are still playing when Ann drops
    server.start()
    ctx, page, person = solo_table(browser, server, moves=3)
    before = page.evaluate("() => window.sgmj.n")
    seen = page.evaluate("() => [...document.querySelectorAll('#log li')].length")
    # drop the connection, and come back only after a few seconds (the page's back-off)
    page.evaluate("() => { window.sgmj.retry = 2; window.sgmj.ws.close(); }")
    page.get_by_test_id("status").get_by_text("Connection lost").wait_for()
    wait_for_request(page)
    after = page.evaluate("() => window.sgmj.n")
    assert after > before, "the AIs played on while Ann was away; she hears of it"
    # the missed events are in the table log, once each, in order
    numbers = page.evaluate(
        "() => [...document.querySelectorAll('#log li')].map(li => Number(li.dataset.n))")
    assert len(numbers) > seen
    assert numbers == sorted(numbers)
    # her hand is what the server holds: she can carry on to the end of the hand
    play_until_hand_end([person])
    assert "Hand 1" in page.get_by_test_id("hand-end").inner_text()
    ctx.close()


def test_a_restarted_server_resumes_the_hand_where_it_was(browser: Any, server: Server) -> None:
    ctx, page, person = solo_table(browser, server, moves=4)
    wait_for_request(page)
    time.sleep(0.3)          # nothing else is due: the table waits for Ann
    before = page.evaluate(VIEW_JS)
    legal = page.evaluate("() => window.sgmj.request.legal")

    server.kill()            # no clean shutdown: the database alone must carry the table
    page.get_by_test_id("status").get_by_text("Connection lost").wait_for()
    server.start()           # same port and database file
    # (between attempts the page holds no socket at all: ws is null)
    page.wait_for_function("() => !!window.sgmj.ws && window.sgmj.ws.readyState === 1 "
                           "&& !!window.sgmj.request",
                           timeout=30_000)
    assert page.evaluate(VIEW_JS) == before
    assert page.evaluate("() => window.sgmj.request.legal") == legal
    play_until_hand_end([person])
    assert page.get_by_test_id("hand-end").is_visible()
    ctx.close()


def test_a_phone_sized_screen_shows_the_whole_hand(browser: Any, server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                              is_mobile=True, device_scale_factor=2)
    page = ctx.new_page()
    create_table(page, server, name="Ann", rules="casual", ai=["greedy"] * 3)
    page.get_by_test_id("start").click()
    wait_for_request(page)
    tiles = page.locator('[data-testid="hand-tile"]').all()
    assert len(tiles) >= 13
    width = page.evaluate("() => window.innerWidth")
    for t in tiles:
        box = t.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
        assert box["width"] >= 20, "a tile must stay big enough to tap"
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width
    # the hand's label ("Hand 1 of 4 · casual") reads on one line under the title, not
    # broken word by word between the title and the buttons
    status = page.get_by_test_id("status")
    assert "Hand 1 of 4" in status.inner_text()
    size = page.evaluate("() => parseFloat(getComputedStyle("
                         "document.getElementById('status')).fontSize)")
    box = status.bounding_box()
    brand = page.locator("header .brand").bounding_box()
    assert box is not None and brand is not None
    # one line is about 1.2 font sizes high, two about 2.4
    assert box["height"] < 1.8 * size and box["y"] >= brand["y"] + brand["height"] - 1
    # and the hand can be played with taps
    play_until_hand_end([Person(page, "clicks")], stop_after=3)
    # a friend opening the invite link on a phone gets the join page, also without
    # scrolling sideways (its seat list names every AI seat to take over)
    friend_ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                     is_mobile=True)
    friend = friend_ctx.new_page()
    friend.goto(page.url)
    friend.get_by_test_id("join-seat").wait_for()
    assert friend.evaluate("() => document.scrollingElement.scrollWidth") <= 390
    friend_ctx.close()
    ctx.close()


def _engine_hint_lines(server: Server, table_id: str) -> list[str]:
    """The hint sentences the engine gives Ann (player 0, East in the first hand) for the
    decision she has open, from the table's stored log."""
    from sgmahjong.agents.danger import discard_history
    from sgmahjong.game import Game
    from sgmahjong.tiles import Seat
    from sgmahjong.web.protocol import hints_json

    rules, events = server.stored(table_id)
    game = Game.replay(rules, events)
    assert Seat.EAST in game.waiting_for()
    legal = game.legal_actions(Seat.EAST)
    data = hints_json(game.view(Seat.EAST), legal, discard_history(game.events))
    assert data is not None
    return [line["text"] for line in data["lines"]]


def test_hints_turned_on_stay_on_when_the_tab_is_reopened(browser: Any, server: Server) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    invite = create_table(page, server, name="Ann", rules="standard", ai=["greedy"] * 3)
    table_id = invite.rsplit("/", 1)[1]
    page.get_by_test_id("start").click()
    wait_for_request(page)
    expect_hidden(page, "hints")
    page.get_by_test_id("toggle-hints").click()
    page.get_by_test_id("hints").wait_for()
    page.close()

    # the same browser opens the table again: the hints are on without asking
    again = ctx.new_page()
    again.goto(invite)
    wait_for_request(again)
    again.get_by_test_id("hints").wait_for()
    assert again.get_by_test_id("toggle-hints").get_attribute("aria-pressed") == "true"
    want = _engine_hint_lines(server, table_id)
    assert want, "a turn always has a hint to show"
    shown = again.eval_on_selector_all("#hints p", "ps => ps.map(p => p.textContent)")
    assert all(line in shown for line in want), (want, shown)

    # turned off, they stay off the next time
    again.get_by_test_id("toggle-hints").click()
    expect_hidden(again, "hints")
    again.close()
    third = ctx.new_page()
    third.goto(invite)
    wait_for_request(third)
    assert third.get_by_test_id("toggle-hints").get_attribute("aria-pressed") == "false"
    expect_hidden(third, "hints")
    # another browser has its own setting: off
    other_ctx = browser.new_context()
    other = other_ctx.new_page()
    other.goto(invite)
    other.get_by_test_id("watch").click()
    other.get_by_test_id("table").wait_for()
    assert other.evaluate("() => localStorage.getItem('sgmj.hints')") is None
    other_ctx.close()
    ctx.close()


def _engine_review(srv: ClockedServer, table_id: str) -> Any:
    """The engine's review of Ann (East) in the first hand, from the stored log and the
    stand-in marks on its lines."""
    from sgmahjong.agents.review import review_hand
    from sgmahjong.game import Event
    from sgmahjong.rules.loading import rules_from_dict
    from sgmahjong.tiles import Seat

    stored = srv.events(table_id)
    starts = [i for i, p in enumerate(stored) if p["type"] == "hand-started"]
    hand = stored[:starts[1]] if len(starts) > 1 else stored
    events = [Event.from_json({k: v for k, v in p.items() if k != "meta"}) for p in hand]
    notes = {i: p["meta"] for i, p in enumerate(hand) if "meta" in p}
    row = srv.store.load_table(table_id)
    assert row is not None and notes
    return review_hand(events, Seat.EAST, rules_from_dict(row.rules), notes)


# whether a tap at the middle of the element reaches it (and not a box drawn over it)
REACHABLE_JS = """(sel) => {
  const e = document.querySelector(sel);
  if (!e) return false;
  const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (hit === e || e.contains(hit));
}"""


def test_the_next_hand_is_seen_when_the_result_box_is_left_open(
        browser: Any, tmp_path: Any) -> None:
    """On a phone, Ann lets her first turn run out (her review at the hand end says the
    stand-in played it), then leaves the first hand's result box open. The sound and Rules
    buttons stay within reach; when the next-hand delay has passed (the server's clock is
    moved on, nobody waits) the next hand starts, the box makes way, and Ann sees her
    first decision of it with all its time and makes it herself: no stand-in plays it."""
    delay, limit, window = 30.0, 30.0, 10.0
    srv = ClockedServer(tmp_path, next_hand_delay=delay, turn_limit=limit,
                        claim_window=window, disconnect_grace=60.0)
    srv.start()
    try:
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        invite = create_table(page, srv, name="Ann", rules="casual", ai=["greedy"] * 3)
        table_id = invite.rsplit("/", 1)[1]
        page.get_by_test_id("start").click()
        page.get_by_test_id("hand-tile").first.wait_for()
        # Ann (East, the first hand's banker) lets her first turn run out: the stand-in
        # plays it, and her review says so rather than reviewing it as hers
        wait_for_request(page)
        assert any(a["type"] == "discard"
                   for a in page.evaluate("() => window.sgmj.request.legal"))
        srv.clock.advance(limit)
        page.get_by_test_id("status").get_by_text("Time's up").wait_for()
        play_until_hand_end([Person(page, "clicks")])
        # the page counts the delay down on its own (real) clock from the hand's end
        hand_ended = time.monotonic()
        assert page.get_by_test_id("hand-end").inner_text().startswith("Hand 1: ")
        page.get_by_test_id("review-standin").wait_for()
        assert page.get_by_test_id("review-standin").inner_text() == _engine_review(
            srv, table_id).standin_line
        assert page.get_by_test_id("overlay").is_visible()
        assert srv.get(f"/api/tables/{table_id}")["in_hand"] is False

        # the result box leaves the sound and Rules buttons within reach
        for testid in ("mute", "music"):
            button = page.get_by_test_id(testid)
            before = button.get_attribute("aria-pressed")
            button.click(timeout=5_000)
            assert button.get_attribute("aria-pressed") != before, testid
            button.click(timeout=5_000)
            assert button.get_attribute("aria-pressed") == before, testid
        page.get_by_test_id("learn").click(trial=True, timeout=5_000)
        assert page.evaluate(REACHABLE_JS, '[data-testid="learn"]')
        # and says when the next hand starts (the server's delay)
        said = page.get_by_test_id("next-hand-in").inner_text()
        gone = math.ceil(time.monotonic() - hand_ended)
        left = re.search(r"starts in (\d+) s", said)
        assert left, said
        # the server's delay, less what has passed here (a second's slack for the page
        # having had the hand's end a moment before this test saw it)
        assert delay - gone - 1 <= int(left.group(1)) <= delay, (said, gone)

        # nobody presses Next hand; the delay passes on the server's clock
        srv.clock.advance(delay)
        page.wait_for_function("() => !!window.sgmj.request", timeout=30_000)
        info = srv.get(f"/api/tables/{table_id}")
        assert info["in_hand"] is True and info["hands_played"] == 1
        first_of_hand = max(i for i, e in enumerate(srv.events(table_id))
                            if e["type"] == "hand-started")
        expect_hidden(page, "overlay")
        assert page.evaluate(REACHABLE_JS, '[data-testid="hand-tile"]')
        assert "Hand 2 of 4" in page.get_by_test_id("centre").inner_text()
        req = page.evaluate("() => window.sgmj.request")
        # all of its time: the request's clock started when it was sent, none has passed
        kinds = {a["type"] for a in req["legal"]}
        full = limit if "discard" in kinds else window
        assert req["deadline_ms"] == full * 1000
        page.get_by_test_id("countdown").wait_for()
        shown = page.get_by_test_id("countdown").inner_text()
        # counted down on the page's clock since the request came: at most a moment gone
        assert re.fullmatch(r"\D*(\d+) s", shown.strip()), shown
        assert full - 2 <= int(re.findall(r"\d+", shown)[-1]) <= full, shown

        # Ann makes the decision herself, with taps
        person = Person(page, "clicks")
        assert person.answer()
        hand = srv.events(table_id)[first_of_hand:]
        assert not [e for e in hand if "standin" in e.get("meta", {})]
        assert "Time's up" not in page.get_by_test_id("status").inner_text()

        # the last hand's result can still be read, and put away again
        page.get_by_test_id("last-hand").click()
        assert page.get_by_test_id("hand-end").inner_text().startswith("Hand 1: ")
        page.get_by_test_id("close-result").click()
        expect_hidden(page, "overlay")
        assert not errors, errors
        ctx.close()
    finally:
        srv.stop()
