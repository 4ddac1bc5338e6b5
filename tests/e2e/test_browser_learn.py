"""Learning in a real browser: the welcome note of a first visit, the pages from the lobby
and from a table (a new tab: the table stays), the guided first hand played to its end by
doing what the coach asks, and the music toggle, remembered by the browser."""

from __future__ import annotations

from typing import Any

from .conftest import Server
from .test_browser_table import create_table


def test_first_visit_offers_the_lesson_and_the_pages(browser: Any, server: Server) -> None:
    page = browser.new_context().new_page()
    page.goto(server.url + "/")
    welcome = page.get_by_test_id("welcome")
    welcome.wait_for()
    assert "guided first hand" in welcome.inner_text()
    page.get_by_test_id("welcome-close").click()
    assert not welcome.is_visible()
    page.reload()
    page.get_by_test_id("create").wait_for()
    assert not page.get_by_test_id("welcome").is_visible()   # said once per browser

    page.get_by_test_id("learn-links").get_by_text("Tile guide").click()
    page.wait_for_url("**/learn/tiles")
    assert page.locator("[data-testid=tile-card]").count() == 46
    east = page.locator("[data-testid=tile-card][data-tile='1z']")
    assert "East Wind" in east.inner_text() and "1z" in east.inner_text()
    # every picture is drawn: the symbol it uses is in the page
    for tile in page.locator("[data-testid=tile-card] svg.tile use").all()[:46:9]:
        ref = tile.get_attribute("href")
        assert page.locator(ref).count() == 1
    page.get_by_test_id("learn-rules").select_option("garden")
    page.get_by_role("button", name="Show").click()
    page.wait_for_url("**/learn/tiles?rules=garden")
    page.get_by_test_id("learn-link-tai").click()
    page.wait_for_url("**/learn/tai?rules=garden")
    assert page.locator("[data-testid=tai-example]").count() == 31
    page.context.close()


def test_rules_from_the_table_open_beside_it(browser: Any, server: Server) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    invite = create_table(page, server, name="Ann", rules="garden", ai=["fox"] * 3)
    table_id = invite.rsplit("/", 1)[1]
    link = page.get_by_test_id("learn")
    assert link.get_attribute("href") == f"/learn?table={table_id}"
    assert link.get_attribute("target") == "_blank"
    with ctx.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    rules.get_by_test_id("learn-link-rules").click()
    rules.wait_for_url(f"**/learn/rules?table={table_id}")
    text = rules.get_by_test_id("learn-page").inner_text()
    assert "rules of this table: garden" in text and "The round wind stays East." in text
    # the table is still there in its own tab
    assert page.url == invite
    assert page.get_by_test_id("invite-link").is_visible()
    ctx.close()


def test_the_guided_first_hand_followed_to_its_end(browser: Any, server: Server) -> None:
    page = browser.new_context().new_page()
    page.goto(server.url + "/learn/lesson")
    page.wait_for_function("() => window.sgmjLesson && window.sgmjLesson.step === 0")
    title = page.get_by_test_id("lesson-title")
    assert title.inner_text() == "Welcome to your first hand"
    # a throw before reading is refused and changes nothing
    page.locator("[data-testid=lesson-tile]").first.click()
    page.locator("[data-testid=lesson-tile]").first.click()
    assert page.get_by_test_id("lesson-message").inner_text() == \
        "Read the coach's note first, then go on."
    assert page.evaluate("window.sgmjLesson.step") == 0
    # Space goes on from a note (the keys work as at the table)
    title.click()
    page.keyboard.press("Space")
    page.wait_for_function("() => window.sgmjLesson.step === 1")
    # a wrong tile at the first throw is refused too
    wrong = page.locator("[data-testid=lesson-tile]:not(.suggested)").first
    wrong.click()
    wrong.click()
    assert "the coach asks you to throw the North Wind" in \
        page.get_by_test_id("lesson-message").inner_text()
    assert page.evaluate("window.sgmjLesson.step") == 1

    seen: list[str] = []
    for _ in range(20):
        state = page.evaluate("window.sgmjLesson")
        seen.append(title.inner_text())
        if state["step"] == state["steps"] - 1:
            break
        if state["kind"] == "read":
            page.get_by_test_id("lesson-next").click()
        elif page.locator("[data-testid=lesson-tile].suggested").count():
            tile = page.locator("[data-testid=lesson-tile].suggested").first
            tile.click()
            tile.click()
        else:
            page.locator("#lesson-actions button.suggested").click()
        page.wait_for_function("(n) => window.sgmjLesson.step === n", arg=state["step"] + 1)
    assert seen == ["Throw a tile", "Claim a chow", "Throw after a claim", "Your draw",
                    "Throw what does not help", "Win", "Where the points came from"]
    assert title.inner_text() == "Where the points came from"
    text = page.get_by_test_id("lesson-text").inner_text()
    # standard: a Red Dragon pong, 1 tai; base 2; self-drawn, the three others pay 4 each
    assert text.startswith("You won self-drawn on 5 Bamboo: 1 tai.")
    assert "In all you collect 12 points." in text
    # the chow is laid out: 3, 4 and 5 Circles
    melds = page.get_by_test_id("lesson-melds").locator("svg.tile")
    assert [m.get_attribute("data-tile") for m in melds.all()] == ["3p", "4p", "5p"]
    page.get_by_test_id("lesson-next").click()   # Finish: back to the lobby
    page.get_by_test_id("create").wait_for()
    assert not page.get_by_test_id("welcome").is_visible()
    page.context.close()


def test_music_is_off_until_chosen_and_remembered(browser: Any, server: Server) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server.url + "/")
    music = page.get_by_test_id("music")
    music.wait_for()
    assert music.get_attribute("aria-pressed") == "false"
    assert page.evaluate("window.sgmjMusic.playing") is False
    # drawn as a path from the sprite sheet, beside the mute button
    assert music.locator("use").get_attribute("href") == "#i-music-off"
    assert page.locator("header #music + #mute").count() == 1
    music.click()
    assert music.get_attribute("aria-pressed") == "true"
    assert music.locator("use").get_attribute("href") == "#i-music-on"
    assert page.evaluate("window.sgmjMusic.playing") is True
    assert page.evaluate("window.sgmjMusic.notes") > 0     # the loop is generated here
    assert page.evaluate("localStorage.getItem('sgmj.music')") == "1"
    page.reload()
    music = page.get_by_test_id("music")
    music.wait_for()
    assert music.get_attribute("aria-pressed") == "true"    # remembered by this browser
    music.click()
    assert page.evaluate("window.sgmjMusic.playing") is False
    assert page.evaluate("localStorage.getItem('sgmj.music')") == "0"
    # another browser starts with it off
    other = browser.new_context().new_page()
    other.goto(server.url + "/")
    other.get_by_test_id("music").wait_for()
    assert other.get_by_test_id("music").get_attribute("aria-pressed") == "false"
    ctx.close()
    other.context.close()
