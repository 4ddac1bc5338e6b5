"""The web table's hint gives the deal-in chance the engine reads from the player's view."""

from __future__ import annotations

import time
from typing import Any

from sgmahjong.agents.danger import discard_history
from sgmahjong.agents.dealin import dealin, dealin_label, in_words
from sgmahjong.agents.hints import suggest_discard
from sgmahjong.english import tile_name
from sgmahjong.game import Discard, Pass, Win
from sgmahjong.tiles import parse_tiles
from sgmahjong.tui.session import PlayConfig, Session

from .conftest import Server
from .driver import Person
from .test_browser_table import create_table

HINT_JS = """() => { const p = document.querySelector('#hints [data-kind="discard"]');
  return p ? p.textContent : null; }"""


def test_the_hint_says_the_chance_of_a_deal_in_that_the_engine_reads(
        browser: Any, server: Server) -> None:
    """Ann plays seed 29 against three Foxes, throwing what she draws and skipping every
    claim; the same deal is played alongside in the engine (the table's seed and the AIs'
    seeds are the match's). By her eighth throw a Fox looks ready, and the tile the Owl
    suggests (it keeps away from the dangerous ones while her hand is slow) carries some
    risk: the page's hint gives its chance as the engine reads it from her view and the
    order of the discards."""
    ctx = browser.new_context()
    page = ctx.new_page()
    create_table(page, server, name="Ann", rules="standard", ai=["fox", "fox", "fox"], seed=29)
    page.get_by_test_id("start").click()
    page.get_by_test_id("hand-tile").first.wait_for()
    page.keyboard.press("H")
    twin = Session(PlayConfig(rules="standard", quick=True, seed=29,
                              opponents=("fox", "fox", "fox"), ai_delay=0.0))
    twin.start_hand()
    person = Person(page, "keys")
    deadline = time.monotonic() + 120
    found = None
    while found is None:
        assert time.monotonic() < deadline, "no risky suggestion came up in time"
        assert not person.hand_over(), "the hand ended before a risky suggestion"
        req = person.pending()
        if req is None:
            time.sleep(0.05)
            continue
        while not twin.game.ended and not twin.human_legal():
            twin.ai_step()
        legal = twin.human_legal()
        kinds = {a["type"] for a in req["legal"]}
        assert ("discard" in kinds) == any(isinstance(a, Discard) for a in legal)
        if "discard" in kinds and "win" not in kinds:
            view = twin.view()
            shown = page.evaluate("() => window.sgmj.view.concealed")
            assert sorted(parse_tiles(shown)) == sorted(view.concealed), "the same deal"
            history = discard_history(twin.game.events)
            tip = suggest_discard(view, history)
            assert tip is not None
            if tip.danger is not None:
                found = (view, history, tip.tile)
                break
            drawn = view.last_drawn
            assert drawn is not None
            twin.submit(Discard(drawn))
        else:
            twin.submit(Win() if Win() in legal else Pass())
        person.answer()
    view, history, tile = found
    p = dealin(view, tile, history=history).probability
    assert dealin_label(p) == "some risk"
    want = f"{tile_name(tile)} carries some risk ({in_words(p)} that someone wins on it)"
    page.wait_for_function("(want) => { const p = document.querySelector("
                           "'#hints [data-kind=\"discard\"]'); "
                           "return !!p && p.textContent.includes(want); }", arg=want,
                           timeout=10_000)
    text = page.evaluate(HINT_JS)
    assert text.startswith(f"Throw {tile_name(tile)}: ")
    ctx.close()
