"""Learning in a real browser: the welcome note of a first visit, the pages from the lobby
and from a table (a new tab: the table stays), the guided first hand played to its end by
doing what the coach asks, the music toggle, remembered by the browser, and every text of
the pages readable against what is behind it."""

from __future__ import annotations

from typing import Any

from sgmahjong.render.pages import page_ids
from sgmahjong.rules.loading import load_rules

from .conftest import Server
from .test_browser_table import create_table

AA = 4.5
"""WCAG 2 level AA: the least contrast for body text."""

CONTRAST_JS = """(el) => {
  // The colour the text is drawn in, over the colour behind it: every ancestor's
  // background composited from the page (white canvas) down, opacity included.
  const rgba = (c) => {
    const m = c.match(/rgba?\\(([^)]*)\\)/);
    if (!m) throw new Error("unexpected colour " + c);
    const v = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
  };
  const over = (top, under) => {
    const a = top[3] + under[3] * (1 - top[3]);
    const mix = [0, 1, 2].map((i) => (top[i] * top[3] + under[i] * under[3] * (1 - top[3])) / a);
    return [...mix, a];
  };
  const chain = [];
  for (let e = el; e; e = e.parentElement) chain.unshift(e);
  let behind = [255, 255, 255, 1];
  let opacity = 1;
  for (const e of chain) {
    const cs = getComputedStyle(e);
    opacity *= Number(cs.opacity);
    const bg = rgba(cs.backgroundColor);
    bg[3] *= opacity;
    if (bg[3] > 0) behind = over(bg, behind);
  }
  const fg = rgba(getComputedStyle(el).color);
  fg[3] *= opacity;
  const shown = over(fg, behind);
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((x) => {
      x /= 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(shown), lum(behind)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""

LOW_CONTRAST_JS = """(least) => {
  const ratio = CONTRAST;
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("svg") || !el.checkVisibility()) continue;
    const own = [...el.childNodes].filter((n) => n.nodeType === 3)
      .map((n) => n.textContent.trim()).join(" ").trim();
    if (!own) continue;
    const r = ratio(el);
    const name = `${el.tagName.toLowerCase()}.${el.className}`;
    if (r < least) out.push(`${name}: "${own.slice(0, 40)}" ${r.toFixed(2)}`);
  }
  return out;
}""".replace("CONTRAST", CONTRAST_JS)


def contrast(page: Any, selector: str) -> float:
    """The contrast ratio of an element's text against what is drawn behind it."""
    return float(page.locator(selector).evaluate(CONTRAST_JS))


def low_contrast(page: Any) -> list[str]:
    """Every visible text on the page drawn below AA contrast."""
    return list(page.evaluate(LOW_CONTRAST_JS, AA))


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


def test_every_text_of_the_learn_pages_is_readable(browser: Any, server: Server) -> None:
    """Every page of every preset, the guided hand and the page for a wrong address, on a
    device without a Chinese font (so the note saying so shows too)."""
    page = browser.new_context().new_page()
    seen: dict[str, list[str]] = {}
    for preset in ("standard", "garden", "casual"):
        for pid in page_ids(load_rules(preset)):
            page.goto(f"{server.url}/learn/{pid}?rules={preset}")
            page.get_by_test_id("learn-page").wait_for()
            seen[f"{preset}/{pid}"] = low_contrast(page)
    assert page.get_by_test_id("no-cjk-note").is_visible()
    page.goto(server.url + "/learn/nosuchpage")
    seen["not-found"] = low_contrast(page)
    page.goto(server.url + "/learn/lesson")
    page.wait_for_function("() => window.sgmjLesson && window.sgmjLesson.step === 0")
    tile = page.locator("[data-testid=lesson-tile]").first
    tile.click()
    tile.click()            # refused: the coach's message shows, in red on the paper
    assert page.get_by_test_id("lesson-message").inner_text()
    seen["lesson"] = low_contrast(page)
    assert {k: v for k, v in seen.items() if v} == {}
    page.context.close()
