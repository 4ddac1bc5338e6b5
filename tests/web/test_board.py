"""What the table's board and hand-end box are sent, against the engine's own account of
the match (the downloaded record replayed through the engine), and the pages a browser
gets for wrong addresses."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from conftest import Player, create_table, start

from sgmahjong.game import BonusExposed, Claimed, KongDeclared, Won
from sgmahjong.game.wall import KIND
from sgmahjong.record import iter_states, loads_record, replay_record
from sgmahjong.store.ladder import TABLES
from sgmahjong.tiles import Seat, Tile, parse_tiles


def _tiles(text: str) -> list[Tile]:
    return parse_tiles(text) if text else []


@pytest.fixture
def match(make_client) -> dict[str, Any]:
    """A quick casual game (Ann, a watcher and three greedy AIs) played to its end."""
    c = make_client()
    t = create_table(c)
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    watcher = Player(c, tid, spectate=True)
    start(c, tid, t["token"])
    ann.play()
    watcher.until("match-end", timeout=30)
    rec = loads_record(c.get(f"/api/tables/{tid}/record").text)
    return {"client": c, "tid": tid, "ann": ann, "watcher": watcher, "record": rec}


def test_every_view_carries_each_seats_running_match_total(match) -> None:
    """The board shows, for each seat, the standings before the hand plus what the hand has
    paid so far: worked out here from the record, event by event."""
    rec = match["record"]
    hands = replay_record(rec)
    hand_of: dict[int, Any] = {}
    for i, h in enumerate(hands):
        end = hands[i + 1].first if i + 1 < len(hands) else len(rec.events)
        for k in range(h.first, end):
            hand_of[k + 1] = h
    want: dict[int, tuple[list[int], list[int]]] = {}
    for i, _e, state in iter_states(rec):
        ms = hand_of[i + 1].match
        players = [ms.player_at(seat) for seat in Seat]
        want[i + 1] = (players, [ms.scores[players[s]] + state.scores[s] for s in range(4)])
    checked = 0
    for p in (match["ann"], match["watcher"]):
        for m in p.log:
            if m["type"] in ("view", "request"):
                assert (m["players"], m["totals"]) == want[m["n"]], f"message at n={m['n']}"
                checked += 1
    assert checked > 100
    # at each hand's end the board's totals are the standings the hand-end box gives
    ends = [m["hand"] for m in match["ann"].log if m["type"] == "hand-end"]
    assert len(ends) == len(hands) == 4
    for h, end in zip(hands, ends, strict=True):
        last = max(n for n, hh in hand_of.items() if hh is h)
        players, totals = want[last]
        assert [totals[players.index(p)] for p in range(4)] == end["scores"]
    final = next(m for m in match["ann"].log if m["type"] == "match-end")
    assert final["scores"] == list(rec.header["scores"])


def test_the_hand_end_lists_the_winners_whole_hand(match) -> None:
    rec = match["record"]
    hands = replay_record(rec)
    ends = [m["hand"] for m in match["ann"].log if m["type"] == "hand-end"]
    wins = 0
    for h, end in zip(hands, ends, strict=True):
        state = h.game.state
        events = list(h.game.events)
        for w in end["wins"]:
            seat = Seat(w["seat"])
            shown = w["hand"]
            held = Counter(KIND[i] for i in state.seats[seat].concealed)
            assert Counter(_tiles(shown["concealed"])) == held
            assert Tile.parse(w["tile"]) in held              # the winning tile is in it
            # the sets are the ones the winner claimed or declared, the bonus tiles the
            # ones set aside, as the events of the hand say
            made = [e for e in events if isinstance(e, (Claimed, KongDeclared))
                    and e.seat == seat]
            assert len(shown["melds"]) == len([e for e in made if not (
                isinstance(e, KongDeclared) and e.kind == "added")])
            bonus = [e.tile for e in events if isinstance(e, BonusExposed) and e.seat == seat]
            assert Counter(_tiles(shown["bonus"])) == Counter(bonus)
            # a whole hand: 14 tiles, one more for each kong
            kongs = sum(1 for m in shown["melds"] if len(_tiles(m["tiles"])) == 4)
            size = len(_tiles(shown["concealed"])) + sum(
                len(_tiles(m["tiles"])) for m in shown["melds"])
            assert size == 14 + kongs
            assert any(isinstance(e, Won) and e.seat == seat for e in events)
            wins += 1
    assert wins > 0
    # only the winners' hands: no other seat's concealed tiles are in the box
    for end in ends:
        assert _concealed_paths(end) == [f".wins[{i}].hand.concealed"
                                         for i in range(len(end["wins"]))]


def _concealed_paths(obj: Any, path: str = "") -> list[str]:
    if isinstance(obj, dict):
        return [p for k, v in obj.items()
                for p in ([f"{path}.{k}"] if k == "concealed" else [])
                + _concealed_paths(v, f"{path}.{k}")]
    if isinstance(obj, list):
        return [p for i, v in enumerate(obj) for p in _concealed_paths(v, f"{path}[{i}]")]
    return []


def test_casual_tables_get_the_gentlest_rung_unless_other_ai_is_picked(make_client) -> None:
    c = make_client()
    gentle = list(TABLES[0].opponents)
    opts = c.get("/api/options").json()
    assert opts["default_rules"] == "casual"
    assert opts["default_ai"] == gentle
    assert opts["default_ai_by_rules"]["casual"] == gentle
    assert opts["default_ai_by_rules"]["standard"] == ["hedgehog", "fox", "owl"]
    for rules, want in (("casual", gentle), ("standard", ["hedgehog", "fox", "owl"])):
        r = c.post("/api/tables", json={"name": "Ann", "rules": rules})
        assert r.status_code == 201, r.text
        t = r.json()
        start(c, t["table_id"], t["token"])
        seats = c.get(f"/api/tables/{t['table_id']}").json()["seats"]
        assert [s["level"] for s in seats[1:]] == want
        assert [s["name"] for s in seats[1:]] == [w.title() for w in want]
    # a choice of the creator's is kept
    t = create_table(c, ai=["owl", "owl", "fox"])
    start(c, t["table_id"], t["token"])
    seats = c.get(f"/api/tables/{t['table_id']}").json()["seats"]
    assert [s["level"] for s in seats[1:]] == ["owl", "owl", "fox"]


def test_the_table_says_its_rules_and_quick_game_length(make_client) -> None:
    c = make_client()
    t = create_table(c, rules="standard")
    info = c.get(f"/api/tables/{t['table_id']}").json()
    assert (info["preset"], info["quick"], info["quick_hands"]) == ("standard", True, 4)
    assert info["seats"][0]["name"] == "Ann"
    t = create_table(c, rules="garden", quick=False)
    info = c.get(f"/api/tables/{t['table_id']}").json()
    assert (info["preset"], info["quick"], info["quick_hands"]) == ("garden", False, None)


HTML = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


def test_a_browser_gets_a_page_for_an_unknown_address(make_client) -> None:
    c = make_client()
    for path in ("/nowhere", "/t/abc/def", "/static/nothing.js"):
        r = c.get(path, headers=HTML)
        assert r.status_code == 404
        assert r.headers["content-type"].startswith("text/html")
        assert "<h1>Page not found</h1>" in r.text and 'href="/"' in r.text
    # scripts and the API keep their JSON errors
    r = c.get("/nowhere")
    assert r.status_code == 404 and r.json() == {"detail": "Not Found"}
    r = c.get("/api/tables/nosuchtable", headers=HTML)
    assert r.status_code == 404 and r.json() == {"detail": "no such table"}


def test_an_unknown_invite_link_says_there_is_no_table(make_client) -> None:
    c = make_client()
    for path in ("/t/nosuchtable", "/t/nosuchtable/replay"):
        r = c.get(path, headers=HTML)
        assert r.status_code == 404
        assert "<h1>No table here</h1>" in r.text and 'href="/"' in r.text
    t = create_table(c)
    assert c.get(f"/t/{t['table_id']}", headers=HTML).status_code == 200

