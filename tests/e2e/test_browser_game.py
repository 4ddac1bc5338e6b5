"""A whole quick game in the browser, every number on the board and every winner's tile in
the hand-end box checked against the engine's own account of the match: the match record,
downloaded from the server and replayed through the engine (not the page's numbers)."""

from __future__ import annotations

import re
import time
import urllib.request
from collections import Counter
from typing import Any

from sgmahjong.agents.review import match_summary, review_record
from sgmahjong.game.wall import KIND
from sgmahjong.record import loads_record, replay_record
from sgmahjong.tiles import Seat

from .conftest import Server
from .driver import Person
from .test_browser_table import create_table

BOARD_JS = """() => [...document.querySelectorAll('#table .board [data-seat]')].map(b => ({
  seat: Number(b.dataset.seat), name: b.querySelector('.name').textContent,
  score: Number(b.querySelector('.score').dataset.score),
  text: b.querySelector('.score').textContent}))"""

BOX_JS = """() => {
  const body = document.getElementById('overlay-body');
  const tiles = (box) => [...box.querySelectorAll('svg[data-tile]')].map(s => s.dataset.tile);
  return {
    title: body.querySelector('[data-testid="hand-end"]').textContent,
    wins: [...body.querySelectorAll('[data-testid="winning-hand"]')].map(w => ({
      player: Number(w.dataset.player),
      concealed: tiles(w.querySelector('[data-testid="winning-concealed"]')),
      melds: [...w.querySelectorAll('[data-testid="winning-meld"]')].map(tiles),
      bonus: [...w.querySelectorAll('[data-testid="winning-bonus"] svg')]
        .map(s => s.dataset.tile)})),
    head: [...body.querySelectorAll('[data-testid="scores"] thead th')].map(th => th.textContent),
    rows: [...body.querySelectorAll('[data-testid="scores"] tbody tr')].map(tr =>
      [...tr.children].map(td => td.textContent)),
    text: body.innerText};
}"""

# Sentences the page composes must not show notation, nothing-values or bad grammar
NOTATION = re.compile(r"\b\d+[mpszf]\b|\b[1-9]+[mpsz]\d|\bnull\b|\bundefined\b|\bNone\b|"
                      r"(?<![\d.])1 points\b|\bYou (pays|scores|wins|throws|takes)\b")
# the hint panel's sentences are the server's; the page must never print a missing part
MISSING = re.compile(r"\bnull\b|\bundefined\b")


def _ids(ids: Any) -> list[str]:
    return [KIND[i].text for i in ids]


def _wait_board_settled(page: Any) -> None:
    """The board drawn from the last view of the hand (the page has had every message)."""
    page.wait_for_function("() => window.sgmj.view && window.sgmj.view.phase === 'ended' "
                           "&& window.sgmj.table && !window.sgmj.table.in_hand")


def test_a_whole_quick_game_shows_the_engines_totals_and_the_winners_tiles(
        browser: Any, server: Server, tmp_path: Any) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    invite = create_table(page, server, name="Ann", rules="standard",
                          ai=["rabbit", "hedgehog", "fox"], seed=11)
    table_id = invite.rsplit("/", 1)[1]
    page.get_by_test_id("start").click()
    page.get_by_test_id("hand-tile").first.wait_for()
    # every text the hint panel shows, kept as it changes
    page.keyboard.press("H")
    page.evaluate("""() => { window.hintTexts = [];
      new MutationObserver(() => window.hintTexts.push(document.getElementById('hints').innerText))
        .observe(document.getElementById('hints'), {childList: true, subtree: true}); }""")
    person = Person(page, "keys")
    shown: list[dict[str, Any]] = []
    deadline = time.monotonic() + 300
    while not page.get_by_test_id("match-end").is_visible():
        assert time.monotonic() < deadline, "the match did not end in time"
        # the human plays by keys in one hand and by clicks in the next
        person.style = "keys" if len(shown) % 2 == 0 else "clicks"
        if not person.hand_over():
            if not person.answer():
                time.sleep(0.05)
            continue
        _wait_board_settled(page)
        board = page.evaluate(BOARD_JS)
        box = page.evaluate(BOX_JS)
        shown.append({"board": board, "box": box,
                      "centre": page.get_by_test_id("turn").inner_text()})
        if len(shown) == 1:
            page.screenshot(path=str(tmp_path / "hand-end.png"))
        if person.style == "keys":
            page.keyboard.press("Enter")
        else:
            page.get_by_test_id("next-hand").click()
        page.wait_for_function("() => document.getElementById('overlay').hidden || "
                               "!document.querySelector('[data-testid=\"hand-end\"]')")
    # the last hand's result stays until asked for the standings
    assert len(shown) == 4 and "Final standings" in shown[-1]["box"]["text"]
    standings = [li.inner_text() for li in page.get_by_test_id("standings").locator("li").all()]
    places = page.get_by_test_id("standings").locator("li").evaluate_all(
        "lis => lis.map(li => li.value)")     # the number the list shows: equal scores share it
    match_review = [p.inner_text() for p in page.get_by_test_id("match-review").locator("p").all()]
    centre = page.get_by_test_id("turn").inner_text()
    log = page.evaluate("() => [...document.querySelectorAll('#log li')].map(li => li.textContent)")
    hints = page.evaluate("() => window.hintTexts")
    buttons_seen = page.evaluate("() => document.getElementById('actions').innerText")

    # the engine's account: the record replayed hand by hand
    with urllib.request.urlopen(f"{server.url}/api/tables/{table_id}/record", timeout=10) as r:
        rec = loads_record(r.read().decode("utf-8"))
    hands = replay_record(rec)
    names = list(rec.players)
    assert len(hands) == len(shown) == 4, "a quick game is four hands"
    wins = 0
    for k, (h, seen) in enumerate(zip(hands, shown, strict=True)):
        outcome = h.game.outcome()
        assert outcome is not None
        after = list(h.match.scores)
        for seat in Seat:
            after[h.match.player_at(seat)] += outcome.deltas[seat]
        # every total the board shows is the engine's standing after this hand
        board = {b["name"]: b["score"] for b in seen["board"]}
        assert board == {names[p]: after[p] for p in range(4)}, f"hand {k + 1}"
        for b in seen["board"]:
            assert b["text"] == f"{b['score']} point{'' if abs(b['score']) == 1 else 's'}"
        # the box's table: headed, this hand's result and the total per player
        box = seen["box"]
        assert box["head"] == ["Player", "This hand", "Total"]
        deltas = [after[p] - h.match.scores[p] for p in range(4)]
        assert box["rows"] == [[names[p], f"{'+' if deltas[p] > 0 else ''}{deltas[p]}",
                                str(after[p])] for p in range(4)]
        # the winners' whole hands, as the engine holds them at the end of the hand
        winners = [w.seat for w in outcome.wins]
        assert [w["player"] for w in box["wins"]] == [h.match.player_at(s) for s in winners]
        for w, seat in zip(box["wins"], winners, strict=True):
            st = h.game.state.seats[seat]
            assert Counter(w["concealed"]) == Counter(_ids(st.concealed))
            assert sorted(Counter(m).most_common() for m in w["melds"]) == sorted(
                Counter(_ids(m.ids)).most_common() for m in st.melds)
            assert Counter(w["bonus"]) == Counter(_ids(st.bonus))
            wins += 1
        assert seen["centre"] == ("Match over" if k == 3 else "Hand over")
        assert not NOTATION.search(box["text"]), box["text"]
    assert wins > 0, "the deal was chosen for a game with at least one win"

    # the final standings are the engine's, best first
    final = list(rec.header["scores"])
    order = sorted(range(4), key=lambda p: -final[p])
    assert standings == [f"{names[p]}: {final[p]} point{'' if abs(final[p]) == 1 else 's'}"
                         for p in order]
    assert places == [1 + sum(1 for q in final if q > final[p]) for p in order]
    assert centre == "Match over"
    # the summary of Ann's play, from the engine's review of the record for player 0
    assert match_review == match_summary(
        [(n, r) for n, (_, _, r) in enumerate(review_record(rec, 0))])
    for text in [*log, buttons_seen]:
        assert not NOTATION.search(text), text
    for text in hints:
        assert not MISSING.search(text), text
    assert hints, "the hint panel was shown"
    assert not errors, errors
    ctx.close()
