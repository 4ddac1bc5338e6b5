"""The replay of a finished table: frames built by the engine, served only after the end."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import Any

import pytest
from conftest import Player, create_table, start

from sgmahjong.game import (
    BonusExposed,
    Claimed,
    Discarded,
    Game,
    InstantPayout,
    Settled,
    Won,
)
from sgmahjong.record import loads_record
from sgmahjong.tiles import Seat, Tile, parse_tiles
from sgmahjong.web.replay import describe, hand_steps, replay_hands

DEAD_WALL = 15          # casual plays with a dead wall of 15 tiles
DEALT = 4 * 13 + 1      # thirteen each, then East's fourteenth from the front


def _count(text: str) -> int:
    return len(parse_tiles(text)) if text else 0


def _seat_tiles(seat: dict[str, Any]) -> list[Tile]:
    out = parse_tiles(seat["concealed"]) if seat["concealed"] else []
    for m in seat["melds"]:
        out += parse_tiles(m["tiles"])
    for key in ("bonus", "discards"):
        if seat[key]:
            out += parse_tiles(seat[key])
    return out


def _playable(seat: dict[str, Any]) -> int:
    """Concealed playable tiles (a bonus tile not yet set aside does not count)."""
    tiles = parse_tiles(seat["concealed"]) if seat["concealed"] else []
    return sum(1 for t in tiles if not t.is_bonus)


@pytest.fixture
def finished(make_client) -> dict[str, Any]:
    """A quick casual game (Ann and three greedy AIs) played to its end."""
    c = make_client()
    t = create_table(c)
    tid = t["table_id"]
    before = c.get(f"/api/tables/{tid}/replay")
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    playing = c.get(f"/api/tables/{tid}/replay")
    ann.play()
    ends = [m for m in ann.log if m["type"] == "hand-end"]
    match_end = ann.log[-1]
    ann.close()
    return {"client": c, "tid": tid, "ends": ends, "match_end": match_end,
            "before": before, "playing": playing}


def test_no_replay_before_the_end_or_for_an_unknown_table(finished) -> None:
    for r in (finished["before"], finished["playing"]):
        assert r.status_code == 409 and r.json()["error"] == "not-finished"
    c = finished["client"]
    assert c.get("/api/tables/nosuchtable/replay").status_code == 404
    r = c.get(f"/api/tables/{finished['tid']}/replay?hand=99")
    assert r.status_code == 400 and "hand 99" in r.json()["message"]


def test_the_index_lists_every_hand_and_the_match_end_links_the_replay(finished) -> None:
    c, tid = finished["client"], finished["tid"]
    idx = c.get(f"/api/tables/{tid}/replay").json()
    assert [h["number"] for h in idx["hands"]] == [0, 1, 2, 3]      # a 4-hand quick game
    assert idx["players"][0] == "Ann" and idx["scores"] == finished["match_end"]["scores"]
    assert finished["match_end"]["replay"] == f"/t/{tid}/replay"
    assert c.get(f"/t/{tid}/replay").status_code == 200


def test_each_hand_starts_from_the_deal_and_ends_on_the_stored_result(finished) -> None:
    c, tid = finished["client"], finished["tid"]
    for k, end in enumerate(finished["ends"]):
        hand = c.get(f"/api/tables/{tid}/replay?hand={k}").json()
        # the same summary; the table's also lays open each winner's hand, which the
        # replay shows on its last step
        live = {**end["hand"], "wins": [{k: v for k, v in w.items() if k != "hand"}
                                        for w in end["hand"]["wins"]]}
        assert hand["summary"] == live
        last = hand["steps"][-1]["seats"]
        for w in end["hand"]["wins"]:
            mine = last[w["seat"]]
            assert sorted(parse_tiles(w["hand"]["concealed"])) == sorted(
                parse_tiles(mine["concealed"]))
            assert w["hand"]["melds"] == mine["melds"] and w["hand"]["bonus"] == mine["bonus"]
        players = hand["players"]
        assert players == [(hand["banker"] + s) % 4 for s in range(4)]
        first, last = hand["steps"][0], hand["steps"][-1]
        # after the deal East holds 14 playable tiles, the others 13, nothing thrown yet
        assert [_playable(s) for s in first["seats"]] == [14, 13, 13, 13]
        assert all(not s["discards"] and not s["melds"] for s in first["seats"])
        assert first["turn"] == 0 and first["phase"] == "turn"
        bonus = sum(_count(s["bonus"]) for s in first["seats"])
        assert first["wall"] == 148 - DEAD_WALL - DEALT      # live draws left
        assert first["wall_tiles"] == 148 - DEALT - bonus    # each bonus tile replaced
        # the last step is the hand's result: the scores after it, by seat
        assert [last["scores"][s] for s in range(4)] == [end["hand"]["scores"][p]
                                                         for p in players]
        if end["hand"]["wins"]:
            w = end["hand"]["wins"][-1]
            won = next(s for s in reversed(hand["steps"]) if " wins on " in s["text"])
            assert won["text"].startswith(f"{['East', 'South', 'West', 'North'][w['seat']]}"
                                          f" wins on {Tile.parse(w['tile']).english}")
            ws = won["seats"][w["seat"]]
            assert parse_tiles(w["tile"])[0] in parse_tiles(ws["concealed"])
            # a complete hand: fourteen tiles, each declared set counting three
            assert _playable(ws) + 3 * len(ws["melds"]) == 14
        else:
            assert last["text"].startswith("The hand is drawn")


def test_tiles_are_conserved_and_each_step_follows_its_event(finished) -> None:
    c, tid = finished["client"], finished["tid"]
    last_n = 0
    for k in range(len(finished["ends"])):
        steps = c.get(f"/api/tables/{tid}/replay?hand={k}").json()["steps"]
        for prev, step in pairwise(steps):
            assert step["n"] > prev["n"]
            seat = step["text"].split()[0]
            n = ["East", "South", "West", "North"].index(seat) if seat in (
                "East", "South", "West", "North") else None
            if " discards " in step["text"]:
                assert step["seats"][n]["discards"].endswith(step["tile"])
                assert _count(step["seats"][n]["concealed"]) == _count(
                    prev["seats"][n]["concealed"]) - 1
            if " draws " in step["text"]:
                assert step["seats"][n]["drawn"] == step["tile"]
                assert _count(step["seats"][n]["concealed"]) == _count(
                    prev["seats"][n]["concealed"]) + 1
        for step in steps:
            tiles = [t for s in step["seats"] for t in _seat_tiles(s)]
            assert len(tiles) + step["wall_tiles"] == 148
            counts = Counter(tiles)
            assert all(n <= (1 if t.is_bonus else 4) for t, n in counts.items())
        assert steps[0]["n"] > last_n
        last_n = steps[-1]["n"]
    rec = loads_record(c.get(f"/api/tables/{tid}/record").text)
    assert last_n == len(rec.events)          # every event is in some step


def test_frames_come_from_the_record_alone(finished) -> None:
    c, tid = finished["client"], finished["tid"]
    rec = loads_record(c.get(f"/api/tables/{tid}/record").text)
    names = c.get(f"/api/tables/{tid}").json()["seats"]
    hands = replay_hands(rec, [s["name"] for s in names])
    assert hands[1] == c.get(f"/api/tables/{tid}/replay?hand=1").json()


def test_steps_read_as_sentences() -> None:
    assert describe(Discarded(Seat.SOUTH, Tile.P5)) == "South discards 5 Circles"
    assert describe(Discarded(Seat.EAST, Tile.EAST)) == "East discards East Wind"
    assert describe(Claimed(Seat.WEST, "pong", Tile.S7, Tile.S7, Seat.SOUTH)) == (
        "West pongs 7 Bamboo")
    assert describe(Claimed(Seat.SOUTH, "chow", Tile.M4, Tile.M3, Seat.EAST)) == (
        "South chows 4 Characters, making 3-4-5 Characters")
    assert describe(BonusExposed(Seat.NORTH, Tile.CHRYSANTHEMUM)) == (
        "North sets aside the bonus tile Chrysanthemum")
    assert describe(Won(Seat.NORTH, Tile.M3, Seat.EAST, (), 4, 4, (), "regular")) == (
        "North wins on 3 Characters: 4 tai (from East)")
    assert describe(InstantPayout(Seat.WEST, "concealed-kong", 1, (-1, -1, 3, -1))) == (
        "West collects 1 point from each player for a concealed kong")
    assert describe(Settled(Seat.SOUTH, (0, 1, 0, 0), ())) == "South collects 1 point"


def test_a_win_under_rules_that_count_no_tai_says_no_tai() -> None:
    # casual: any complete hand wins and the scorer gives it no tai
    assert describe(Won(Seat.SOUTH, Tile.M6, None, (), 0, 0, (), "regular")) == (
        "South wins on 6 Characters (self-drawn)")


def test_the_deal_names_the_bonus_tiles_set_aside() -> None:
    playing = [t for t in Tile if t < 34 for _ in range(4)]
    others = [t for t in Tile if t.is_bonus and t not in (Tile.PLUM, Tile.CHRYSANTHEMUM)]
    wall = [Tile.PLUM, Tile.CHRYSANTHEMUM, *playing[:60], *others, *playing[60:]]
    g = Game.new("standard", wall=wall)
    [deal] = hand_steps(g.rules, g.events, [0, 0, 0, 0])[:1]
    assert deal["text"].endswith("bonus tiles set aside: Plum and Chrysanthemum by East")
