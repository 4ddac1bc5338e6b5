"""The page keeps its socket alive by itself: a socket that goes silent without closing,
or one that lost an event on the way, is given up and the page comes back from its
``last_seen``, showing "Reconnecting…", with the whole board again.

The server runs in this process (``ClockedServer``) so the test can make the table's
sockets drop what they are sent without closing; the page's timers run on Playwright's
clock, moved on by the test instead of waiting 10 s of silence.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from .conftest import ClockedServer
from .test_browser_table import create_table, wait_for_request

# every text the status line shows, in order, from when this runs
RECORD_STATUS_JS = """() => {
  window.statusSeen = [];
  const s = document.getElementById("status");
  new MutationObserver(() => window.statusSeen.push(s.textContent))
    .observe(s, {childList: true, characterData: true, subtree: true});
}"""

# Ann answers her request through the socket the page has (the page is left waiting)
ANSWER_JS = """() => {
  const S = window.sgmj;
  const a = S.request.legal.find((x) => x.type === "discard") || S.request.legal[0];
  S.ws.send(JSON.stringify({type: "action", id: S.request.id, action: a}));
  return S.request.id;
}"""


@pytest.fixture
def srv(tmp_path: Any) -> Iterator[ClockedServer]:
    s = ClockedServer(tmp_path, next_hand_delay=60.0, disconnect_grace=60.0,
                      claim_window=0.0, turn_limit=0.0)
    s.start()
    yield s
    s.stop()


def _until(ok: Callable[[], bool], what: str, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while not ok():
        assert time.monotonic() < end, what
        time.sleep(0.02)


def _seated(browser: Any, srv: ClockedServer) -> tuple[Any, Any, Any]:
    """Ann at a table with three AIs, her first decision open; the page's clock is
    Playwright's. Returns the context, the page and the table as the server plays it."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.clock.install()
    invite = create_table(page, srv, name="Ann", rules="casual", ai=["greedy"] * 3)
    page.get_by_test_id("start").click()
    wait_for_request(page)
    table = srv.app.state.lobby.tables[invite.rsplit("/", 1)[1]]
    return ctx, page, table


def _moved_on(table: Any, n: int) -> bool:
    """The table played on past event ``n`` and waits on Ann's next decision."""
    slot = table.core.slots[0]
    return table.n > n and slot.request is not None and slot.request[1] == table.n


def _whole(page: Any, table: Any) -> None:
    """The page shows what the server holds: Ann's open request, her tiles, every event
    she may see."""
    from sgmahjong.bot.wire import view_json
    from sgmahjong.web.protocol import redact

    seat = int(table.seat_of(0))
    rid = table.core.slots[0].request[0]
    page.wait_for_function("(id) => window.sgmj.request && window.sgmj.request.id === id",
                           arg=rid, timeout=20_000)
    concealed = view_json(table.game.view(table.seat_of(0)))["concealed"]
    assert page.evaluate("() => window.sgmj.view.concealed") == concealed
    last = max(i + 1 for i, e in enumerate(table.events) if redact(e, seat) is not None)
    assert page.evaluate("() => window.sgmj.seen") == last


def test_a_socket_gone_silent_is_given_up_and_the_page_comes_back_whole(
        browser: Any, srv: ClockedServer) -> None:
    ctx, page, table = _seated(browser, srv)
    assert page.evaluate("() => window.sgmj.reconnects") == 0
    page.evaluate(RECORD_STATUS_JS)
    n = table.n
    # the connection dies without a close: nothing the server sends arrives any more
    for conn in table.sockets():
        conn.send = lambda _message: None
    page.evaluate(ANSWER_JS)
    _until(lambda: _moved_on(table, n), "the AIs did not play on after Ann's move")
    # 5 s pings go unanswered; after 10 s of silence the page gives the socket up, and
    # comes back a second later
    page.clock.run_for(15_000)
    page.wait_for_function("() => window.sgmj.reconnects === 1 && window.sgmj.ws "
                           "&& window.sgmj.ws.readyState === 1", timeout=20_000)
    _whole(page, table)
    seen = page.evaluate("() => window.statusSeen")
    assert "No word from the server: reconnecting in 1 s…" in seen
    assert "Reconnecting…" in seen
    # once back, the status line is the table's again
    page.wait_for_function("() => /Hand 1 of/.test(document.getElementById('status')"
                           ".textContent)", timeout=10_000)
    assert page.evaluate("() => window.sgmj.reconnects") == 1
    ctx.close()


def test_a_pong_naming_an_event_the_page_never_got_brings_it_back(
        browser: Any, srv: ClockedServer) -> None:
    ctx, page, table = _seated(browser, srv)
    n = table.n
    # events are lost on the way; everything else (requests, pongs) arrives
    for conn in table.sockets():
        send = conn.send
        conn.send = lambda m, send=send: None if m.get("type") == "event" else send(m)
    rid = page.evaluate(ANSWER_JS)
    _until(lambda: _moved_on(table, n), "the AIs did not play on after Ann's move")
    # the page has Ann's next request but not the events that led to it
    page.wait_for_function("(id) => window.sgmj.request && window.sgmj.request.id !== id",
                           arg=rid, timeout=20_000)
    assert page.evaluate("() => window.sgmj.seen") <= n
    assert page.evaluate("() => window.sgmj.reconnects") == 0
    # the next ping's pong names the last event handed to the socket: the page comes
    # back from the last it has, and gets the rest
    page.clock.run_for(6_000)
    page.wait_for_function("() => window.sgmj.reconnects === 1 && window.sgmj.ws "
                           "&& window.sgmj.ws.readyState === 1", timeout=20_000)
    _whole(page, table)
    numbers = page.evaluate(
        "() => [...document.querySelectorAll('#log li')].map(li => Number(li.dataset.n))")
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    assert max(numbers) > n
    ctx.close()
