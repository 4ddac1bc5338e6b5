"""The review leaves out the decisions the stand-in made for a player whose time ran out:
they are not the player's. The table's log marks them (the event line's ``meta``), so the
review worked out at the hand end, again after a restart, and by ``replay --review`` on
the downloaded record all agree."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import Player, create_table, start

from sgmahjong.agents.review import decision_points
from sgmahjong.cli import main
from sgmahjong.english import tile_name
from sgmahjong.game import Discarded, Event, HandStarted, KongDeclared, Won
from sgmahjong.record import loads_record
from sgmahjong.rules.loading import rules_from_dict
from sgmahjong.tiles import Seat
from sgmahjong.web.clock import ManualClock

LIMIT = 60.0
SEED = 1   # a deal in which Ann's stand-in, playing every turn of hers, deals in


def _claim_offer(req: dict[str, Any]) -> bool:
    types = {a["type"] for a in req["legal"]}
    return "pass" in types and "discard" not in types


def _let_every_turn_run_out(ann: Player, clock: ManualClock) -> tuple[int, dict[str, Any]]:
    """Ann passes every claim offer herself and lets the clock run out on every turn of
    the first hand; returns how many times the stand-in played for her, and the hand end."""
    timeups = 0
    while True:
        msg = ann.recv()
        if msg["type"] == "hand-end":
            return timeups, msg
        if msg["type"] != "request":
            continue
        if _claim_offer(msg):
            ann.send({"type": "action", "id": msg["id"], "action": {"type": "pass"}})
            continue
        clock.advance(LIMIT)
        notice = ann.until("notice")
        assert notice["code"] == "time-up", notice
        timeups += 1


def _first_hand(payloads: list[dict[str, Any]]) -> list[dict[str, Any]]:
    starts = [i for i, p in enumerate(payloads) if p["type"] == "hand-started"]
    return payloads[:starts[1]] if len(starts) > 1 else payloads


def test_the_stand_ins_decisions_are_not_reviewed_as_the_players(
        make_client: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clock = ManualClock()
    c = make_client(turn_limit=LIMIT, clock=clock, next_hand_delay=600.0)
    t = create_table(c, seed=SEED)   # Ann (player 0, East in hand 1) and three AIs, casual
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    timeups, end = _let_every_turn_run_out(ann, clock)
    assert timeups > 0

    # the engine's account of the hand, from the stored log
    row = c.app.state.store.load_table(tid)
    hand = _first_hand(c.app.state.store.load_events(tid))
    rules = rules_from_dict(row.rules)
    events = [Event.from_json({k: v for k, v in p.items() if k != "meta"}) for p in hand]
    assert isinstance(events[0], HandStarted)
    east = Seat.EAST
    # each time-up is marked on the event it made: one of Ann's own turn plays
    marked = [i for i, p in enumerate(hand) if int(east) in p.get("meta", {}).get("standin", [])]
    assert len(marked) == timeups
    for i in marked:
        e = events[i]
        assert isinstance(e, (Discarded, KongDeclared, Won)) and e.seat == east, e
    dealt = [e for e in events if isinstance(e, Won) and e.discarder == east]
    assert dealt, "in this deal the stand-in throws the winning tile"
    points = list(decision_points(events, east, rules))
    assert len(points) > timeups      # her claim passes are hers

    review = end["review"]
    assert review["decisions"] == len(points) - timeups
    assert review["deal_ins"] == [], "the deal-in was the stand-in's"
    assert all("you threw" not in d["text"] for d in review["shown"]), review["shown"]
    line = review["standin_line"]
    assert line.startswith(f"The AI stand-in made {timeups} decisions of this hand for you")
    assert tile_name(dealt[0].tile) in line

    # a server started since works the review out again from the log: the same
    make_client.shutdown(c)
    c2 = make_client(turn_limit=LIMIT, clock=ManualClock(), next_hand_delay=600.0)
    back = Player(c2, tid, t["token"])
    again = back.until("hand-end")
    assert again["review"] == review
    back.send({"type": "ready"})
    back.play()                         # Ann plays the rest of the match herself
    match_review = back.log[-1]
    assert match_review["type"] == "match-end"
    assert any("stand-in" in s for s in match_review["review"]["lines"])

    # the downloaded record keeps the marks, and replay --review agrees with the table
    r = c2.get(f"/api/tables/{tid}/record")
    assert r.status_code == 200
    rec = loads_record(r.text)
    assert sorted(i for i, m in rec.notes.items()
                  if int(east) in m.get("standin", []) and i < len(hand)) == marked
    path = tmp_path / "download.jsonl"
    path.write_text(r.text, encoding="utf-8")
    assert main(["replay", str(path), "--review", "--seat", "0"]) == 0
    out = capsys.readouterr().out
    first = out.split("\nHand 2,")[0].split("\nHand 1, ")[1]
    assert first.startswith(f"sitting East: {review['decisions']} decisions, "
                            f"{review['differ']} where Owl chose differently")
    for d in review["shown"]:
        assert d["text"] in first
    assert line in first
    assert "You dealt in" not in first


def test_the_turns_played_for_a_player_who_is_away_are_marked_too(make_client: Any) -> None:
    grace = 30.0
    clock = ManualClock()
    c = make_client(disconnect_grace=grace, clock=clock, next_hand_delay=600.0)
    t = create_table(c, seed=SEED)
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    req = ann.until("request")                 # East's first turn, the banker's
    assert any(a["type"] == "discard" for a in req["legal"])
    watcher = Player(c, tid, spectate=True)
    watcher.until("welcome")
    ann.close()
    clock.advance(grace)                       # away past the grace: the stand-in plays
    while True:
        msg = watcher.until("event")
        if msg["event"]["type"] == "discarded" and msg["event"]["seat"] == int(Seat.EAST):
            break
    stored = c.app.state.store.load_events(tid)
    assert stored[msg["n"] - 1]["type"] == "discarded"
    assert stored[msg["n"] - 1]["meta"] == {"standin": [int(Seat.EAST)]}
    # what the sockets hear is the engine's event alone
    assert "meta" not in msg["event"]
