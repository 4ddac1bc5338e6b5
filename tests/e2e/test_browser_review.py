"""The review in the browser: at the hand end, the player's panel holds the review of their
own play, as the engine gives it from the table's stored log for that seat: the costliest
decisions explained with their tiles drawn, each deal-in with its tile."""

from __future__ import annotations

import re
from typing import Any

from sgmahjong.agents.review import SHOWN, review_hand
from sgmahjong.game import HandStarted
from sgmahjong.tiles import Seat

from .conftest import Server
from .driver import Person, play_until_hand_end
from .test_browser_table import create_table

PANEL_JS = """() => {
  const box = document.querySelector('#overlay-body [data-testid="review"]');
  if (!box) return null;
  const tiles = (li) => [...li.querySelectorAll('svg[data-tile]')].map(s => s.dataset.tile);
  const text = (li) => li.querySelector('.review-text').textContent;
  const one = (id) => { const e = box.querySelector(`[data-testid="${id}"]`);
                        return e ? e.textContent : null; };
  return {
    seat: Number(box.dataset.seat), title: box.querySelector('h3').textContent,
    head: one('review-head'), tally: one('review-tally'),
    items: [...box.querySelectorAll('[data-testid="review-item"]')].map(li =>
      ({tiles: tiles(li), text: text(li)})),
    deal_ins: [...box.querySelectorAll('[data-testid="review-deal-in"]')].map(li =>
      ({tiles: tiles(li), text: text(li)})),
    all: box.innerText};
}"""

NOTATION = re.compile(r"\b\d+[mpszf]\b|\bnull\b|\bundefined\b|\bNone\b")


def test_the_hand_end_shows_the_review_of_your_own_play(browser: Any, server: Server) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    invite = create_table(page, server, name="Ann", rules="standard",
                          ai=["owl", "fox", "hedgehog"])
    table_id = invite.rsplit("/", 1)[1]
    page.get_by_test_id("start").click()
    page.get_by_test_id("hand-tile").first.wait_for()
    # Ann throws whatever she draws and skips every claim: not what Owl would do
    play_until_hand_end([Person(page, "keys")])
    page.get_by_test_id("review").wait_for()
    shown = page.evaluate(PANEL_JS)

    # the engine's account: the table's stored log, the first hand replayed and reviewed
    # for Ann's seat (the creator, player 0, is the first hand's banker: East)
    rules, events = server.stored(table_id)
    starts = [i for i, e in enumerate(events) if isinstance(e, HandStarted)]
    first = events[:starts[1]] if len(starts) > 1 else events
    review = review_hand(first, Seat.EAST, rules)

    assert shown["seat"] == int(Seat.EAST)
    assert shown["title"] == "What could you have done better?"
    costly = review.costly[:SHOWN]
    assert costly, "throwing every drawn tile, Ann made a decision Owl counts as costly"
    assert shown["items"] == [{"tiles": [t.text for t in d.tiles], "text": d.sentence}
                              for d in costly]
    assert all(len(item["tiles"]) >= 1 for item in shown["items"])
    assert shown["deal_ins"] == [{"tiles": [d.tile.text], "text": d.sentence}
                                 for d in review.deal_ins]
    assert shown["head"] is None
    assert shown["tally"] == review.tally
    # each decision shown says its mark and the expected points it gave up, and the tally
    # the hand's agreement with Owl and the points lost, as the engine's review has them
    for d, item in zip(costly, shown["items"], strict=True):
        assert (f"That was a {d.severity}: about {d.cost:.1f} points lost in expectation."
                in item["text"])
    share = round(100 * review.agreement)
    assert f" as Owl would ({share}%); " in shown["tally"]
    assert f"about {review.lost:.1f} points lost in expectation." in shown["tally"]
    assert not NOTATION.search(shown["all"]), shown["all"]
    assert not errors, errors
    ctx.close()
