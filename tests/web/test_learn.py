"""The learning pages and the guided first hand over HTTP: each page for a preset or a
table's own rules, clear errors for a wrong page or rules, and the lesson's steps hold East's
own tiles only."""

from __future__ import annotations

import re

import pytest
from conftest import create_table
from fastapi.testclient import TestClient

from sgmahjong.rules.loading import PRESETS


@pytest.fixture
def client(make_client) -> TestClient:  # type: ignore[no-untyped-def]
    return make_client()  # type: ignore[no-any-return]


def test_every_page_for_every_preset(client: TestClient) -> None:
    for preset in PRESETS:
        for page in ("how-to-play", "rules", "tiles", "tips"):
            r = client.get(f"/learn/{page}?rules={preset}")
            assert r.status_code == 200, (preset, page)
            assert 'data-testid="learn-page"' in r.text
        tai = client.get(f"/learn/tai?rules={preset}")
        assert tai.status_code == (404 if preset == "casual" else 200)


def test_rules_page_html(client: TestClient) -> None:
    html = client.get("/learn/rules?rules=limit").text
    # seed 001's table: base 1-2-4-8-16, discarder 2x, others 1x
    assert "<td>5 or more</td><td>16</td><td>32</td><td>32</td><td>16</td>" in html
    assert "they all win" in html
    assert client.get("/learn").text.count("<h1>How to play</h1>") == 1


def test_tile_guide_draws_every_tile(client: TestClient) -> None:
    html = client.get("/learn/tiles").text
    cards = re.findall(r'data-testid="tile-card" data-tile="(\w\w)"', html)
    assert len(cards) == 46 and len(set(cards)) == 46
    # each card's picture comes from the sprite sheet inlined in the page
    assert '<symbol id="t-1a"' in html and '<use href="#t-1a"/>' in html


def test_a_table_s_own_rules(client: TestClient) -> None:
    t = create_table(client, rules="garden")
    html = client.get(f"/learn/rules?table={t['table_id']}").text
    assert "rules of this table: garden" in html and "Only the winner scores" in html
    assert f'href="/t/{t["table_id"]}"' in html   # back to the table
    data = client.get(f"/api/learn/tai?table={t['table_id']}").json()
    assert data["rules"] == "garden" and data["page"]["title"] == "Tai table"


def test_wrong_addresses_are_named(client: TestClient) -> None:
    r = client.get("/api/learn/rules?rules=nonsense")
    assert r.status_code == 400 and "unknown rules 'nonsense'" in r.json()["message"]
    r = client.get("/api/learn/cards")
    assert r.status_code == 404 and "no page 'cards'" in r.json()["message"]
    r = client.get("/api/learn/tai?rules=casual")
    assert r.status_code == 404 and "count no tai" in r.json()["message"]
    r = client.get("/learn/rules?table=nosuchtable")
    assert r.status_code == 404 and "no table" in r.text


def test_the_lesson(client: TestClient) -> None:
    assert 'data-testid="lesson"' in client.get("/learn/lesson").text
    steps = client.get("/api/lesson").json()["steps"]
    assert [s["expect"]["type"] for s in steps if s["expect"]] == [
        "discard", "chow", "discard", "discard", "win"]
    for s in steps:
        assert set(s["view"]) >= {"concealed", "seats"}
        for seat in s["view"]["seats"]:
            assert "concealed" not in seat


def _content(html: str) -> str:
    """The page's own text: from its title to the way back (not the links around it)."""
    return html[html.index("<h1>"):html.index('<p class="back">')]


def test_a_table_s_pages_hold_its_rules_and_nothing_of_its_hands(client: TestClient) -> None:
    t = create_table(client, rules="garden")
    r = client.post(f"/api/tables/{t['table_id']}/start",
                    headers={"Authorization": f"Bearer {t['token']}"})
    assert r.status_code == 200, r.text
    for page in ("how-to-play", "rules", "tai", "tiles", "tips"):
        during = client.get(f"/learn/{page}?table={t['table_id']}").text
        preset = client.get(f"/learn/{page}?rules=garden").text
        # the same page as the preset's: made from the rules alone, no seat's tiles in it
        assert _content(during) == _content(preset), page


def test_the_served_pages_say_what_the_scorer_does(client: TestClient) -> None:
    """RULES.md, `standard`: a hand of honours only is Full Colour (4); Little Four Winds
    (4) beside a chow of one suit is Half Colour too (2): 6 raw, counted as 5; the final
    playable tile is never followed by a discard, so its win is self-drawn."""
    rules = client.get("/learn/rules?rules=standard").text
    assert "All Honours" not in rules
    assert "A hand of honours only counts as Full Colour: 4 tai." in rules
    tai = client.get("/learn/tai?rules=standard").text
    assert ("It scores 6 tai, counted as 5: Half Colour 2, Little Four Winds 4." in tai)
    assert "<td>4 tai (also a hand of honours only)</td>" in tai
    last = tai[tai.index("<h3>Win on the Last Tile</h3>"):]
    last = last[:last.index("</figure>")]
    assert "self-drawn" in last and "on a discard" not in last
