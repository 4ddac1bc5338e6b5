"""The replay screen and the practice ladder in a real browser."""

from __future__ import annotations

import re
import time
from typing import Any

from .conftest import Server
from .driver import Person
from .test_browser_table import create_table


def _errors(page: Any) -> list[str]:
    out: list[str] = []
    page.on("pageerror", lambda exc: out.append(str(exc)))
    page.on("console", lambda msg: out.append(msg.text) if msg.type == "error" else None)
    return out


def test_the_ladder_starts_a_rung_and_counts_the_stars(browser: Any, server: Server) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    errors = _errors(page)
    page.goto(server.url + "/")
    summary = page.get_by_test_id("ladder-summary")
    summary.wait_for()
    page.wait_for_function("() => document.getElementById('ladder-summary').textContent")
    assert summary.inner_text() == ("Your tables ★ 0/9 · Next goal: win a hand at the "
                                    "Garden gate")
    assert page.get_by_test_id("ladder-rung").count() == 3

    # the form still says casual: a ladder table is tai practice all the same
    assert page.get_by_test_id("create-rules").input_value() == "casual"
    page.locator('[data-rung="lily-pond"]').click()
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    page.get_by_test_id("hand-tile").first.wait_for()      # started at once, no waiting room
    info = server.get("/api/tables/" + page.url.rsplit("/", 1)[1])
    assert info["quick"] and info["rules"] == "standard" and info["status"] == "playing"
    assert [s["name"] for s in info["seats"][1:]] == ["Rabbit", "Hedgehog", "Fox"]

    # what a hand end does with the server's stars: new ones are noted and kept
    note = page.evaluate("() => window.sgmjLadder.award({rung: 'garden-gate', "
                         "earned: ['win', 'ahead']}).textContent")
    assert note == "★ New stars: win a hand, finish a quick game ahead"
    assert page.evaluate("() => window.sgmjLadder.award({rung: 'garden-gate', "
                         "earned: ['win']})") is None
    page.goto(server.url + "/")
    page.wait_for_function("() => document.getElementById('ladder-summary').textContent")
    assert summary.inner_text() == ("Your tables ★ 2/9 · Next goal: win a hand worth 3+ "
                                    "tai at the Garden gate")
    assert page.get_by_test_id("ladder-stars-garden-gate").inner_text() == "★☆★"
    assert not errors, errors
    ctx.close()


def test_a_finished_match_can_be_watched_again_step_by_step(browser: Any,
                                                           server: Server) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    errors = _errors(page)
    invite = create_table(page, server, name="Ann", rules="casual", ai=["greedy"] * 3)
    table_id = invite.rsplit("/", 1)[1]
    page.get_by_test_id("start").click()
    page.get_by_test_id("hand-tile").first.wait_for()
    person = Person(page, "keys")
    deadline = time.monotonic() + 240
    # the last hand's end is covered at once by the final standings, so play until those
    while not page.get_by_test_id("match-end").is_visible():
        assert time.monotonic() < deadline, "the match did not end in time"
        if person.hand_over():
            # in the page, at once: after the last hand the final standings replace the
            # hand's end (and its button) at any moment, which a waiting click would miss
            page.evaluate("() => { const b = document.querySelector("
                          "'[data-testid=\"next-hand\"]'); if (b) b.click(); }")
            time.sleep(0.05)
        elif not person.answer():
            time.sleep(0.05)

    page.get_by_test_id("watch-replay").click()
    page.wait_for_url(re.compile(rf"/t/{table_id}/replay"))
    step = page.get_by_test_id("replay-step")
    page.wait_for_function("() => window.sgmjReplay && window.sgmjReplay.hands[0]")
    assert step.inner_text().startswith("Hand 1 is dealt")
    counts = [int(page.get_by_test_id(f"replay-hand-{s}").get_attribute("data-count"))
              for s in range(4)]
    assert counts[0] >= 14 and all(c >= 13 for c in counts[1:])   # bonus tiles aside
    assert page.get_by_test_id("replay-pos").inner_text().startswith("Step 1 of ")
    page.keyboard.press("ArrowRight")
    assert re.match(r"East (discards|declares|adds|wins)", step.inner_text())
    assert page.get_by_test_id("replay-pos").inner_text().startswith("Step 2 of ")
    assert not page.get_by_test_id("replay-summary").is_visible()
    page.keyboard.press("End")
    page.get_by_test_id("replay-summary").wait_for()
    assert re.search(r"wins|Drawn hand", page.get_by_test_id("replay-summary").inner_text())
    page.keyboard.press("Home")
    assert step.inner_text().startswith("Hand 1 is dealt")
    page.get_by_test_id("replay-hand").select_option("2")
    page.wait_for_function("() => window.sgmjReplay.hand === 2")
    assert step.inner_text().startswith("Hand 3 is dealt")
    page.get_by_test_id("replay-next").click()
    assert page.get_by_test_id("replay-pos").inner_text().startswith("Step 2 of ")

    # the invite link of a finished table offers the replay too
    other = browser.new_context().new_page()
    other.goto(invite)
    other.get_by_test_id("invite-replay").wait_for()
    assert other.get_by_test_id("invite-replay").get_attribute("href") == \
        f"/t/{table_id}/replay"
    assert not errors, errors
    ctx.close()
