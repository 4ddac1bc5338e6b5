"""The web table's core alone: timers, claim windows, stand-ins, seating, resuming and
failed writes, driven with a clock the test moves (no sockets, no event loop).

Expected times come from the table's timing (a claim window of 10 s is passed at 10 s,
not 9.999); expected states from the engine (a core rebuilt from its log shows every seat
what the original showed it).
"""

from __future__ import annotations

from typing import Any

import pytest
from core_harness import Harness, row

from sgmahjong.game import Action, Game
from sgmahjong.tiles import Seat, Tile
from sgmahjong.web.core import (
    Act,
    Decided,
    Join,
    Ready,
    Start,
    TableError,
    Think,
    Timing,
)


def simple(legal: list[dict[str, Any]], view: dict[str, Any]) -> dict[str, Any]:
    """Win when possible, else throw the drawn tile (or the first), else pass."""
    for a in legal:
        if a["type"] == "win":
            return a
    for a in legal:
        if a["type"] == "discard" and a["tile"] == view.get("last_drawn"):
            return a
    for a in legal:
        if a["type"] == "discard":
            return a
    return next((a for a in legal if a["type"] == "pass"), legal[0])


def claim_offer(req: dict[str, Any]) -> bool:
    types = {a["type"] for a in req["legal"]}
    return "pass" in types and "discard" not in types


def started(timing: Timing, **kw: Any) -> tuple[Harness, int]:
    h = Harness(row(**kw), timing=timing)
    ann = h.attach(0)
    h.do(Start(0))
    return h, ann


def test_a_claim_offer_is_passed_when_the_window_closes_not_before() -> None:
    h, ann = started(Timing(0, 60, 0, claim_window=10.0, turn_limit=0))
    offer = h.play_until(ann, claim_offer, simple)
    assert offer["deadline_ms"] == 10_000
    n = h.core.n
    h.take(ann)
    h.advance(9.999)
    assert h.core.n == n and not h.take(ann)          # still Ann's to decide
    h.advance(0.001)
    got = h.take(ann)
    assert [m["message"] for m in got if m["type"] == "notice"] == [
        "Time's up: passed on the claim."]
    assert {"type": "ack", "id": offer["id"], "action": {"type": "pass"}} in got
    assert h.core.n > n and h.core.slots[0].kind == "human"
    # the pass is marked as the stand-in's on the first event it made
    first_after = h.log[n]
    assert first_after["meta"] == {"standin": [int(h.core.seat_of(0))]}


def test_an_idle_turn_goes_to_the_standin_at_the_limit_and_the_seat_stays() -> None:
    h, ann = started(Timing(0, 600, 0, claim_window=0, turn_limit=30.0))
    req = h.play_until(ann, lambda r: any(a["type"] == "discard" for a in r["legal"]),
                       simple)
    assert req["deadline_ms"] == 30_000
    h.take(ann)
    thinks = len(h.thinks)
    h.advance(29.5)
    assert len(h.thinks) == thinks                     # nothing asked of the AI yet
    h.advance(0.5)
    asked = h.thinks[thinks]
    assert asked.level == "hedgehog"                   # the table's stand-in
    got = h.take(ann)
    notice = next(m for m in got if m["type"] == "notice")
    ack = next(m for m in got if m["type"] == "ack")
    tile = Tile.parse(ack["action"]["tile"])
    assert ack["id"] == req["id"] and ack["action"] in req["legal"]
    assert notice["message"] == f"Time's up: the AI threw {tile.english} for you."
    assert h.core.slots[0].kind == "human"


def test_a_reconnect_gets_the_time_left_and_the_same_request() -> None:
    h, ann = started(Timing(0, 600, 0, claim_window=0, turn_limit=30.0))
    req = h.play_until(ann, lambda r: any(a["type"] == "discard" for a in r["legal"]),
                       simple)
    h.detach(ann)
    h.advance(12.0)
    again = h.attach(0, last_seen=req["n"])
    back = h.last(again, "request")
    assert back is not None
    assert (back["id"], back["n"], back["deadline_ms"]) == (req["id"], req["n"], 18_000)


@pytest.mark.parametrize("zero", ["claim_window", "turn_limit"])
def test_a_limit_of_zero_sends_no_deadline_and_never_acts(zero: str) -> None:
    limits = {"claim_window": 10.0, "turn_limit": 30.0, zero: 0.0}
    h, ann = started(Timing(0, 600, 0, **limits))
    is_claim = zero == "claim_window"
    req = h.play_until(ann, claim_offer if is_claim else
                       (lambda r: any(a["type"] == "discard" for a in r["legal"])), simple)
    assert req["deadline_ms"] == 0
    n = h.core.n
    h.advance(86_400)
    assert h.core.n == n and not h.take(ann, "notice")


def test_an_away_players_turns_go_to_the_standin_after_the_grace_only() -> None:
    h, ann = started(Timing(0, disconnect_grace=20.0, next_hand_delay=0, claim_window=0,
                            turn_limit=0))
    h.play_until(ann, lambda r: any(a["type"] == "discard" for a in r["legal"]), simple)
    n = h.core.n
    h.detach(ann)
    h.advance(19.9)
    assert h.core.n == n
    assert not h.core.info()["seats"][0]["standin"]
    h.advance(0.1)
    assert h.core.n > n                                # the stand-in played on
    assert h.standins[-1] == "hedgehog"
    assert h.core.info()["seats"][0]["standin"]


def test_an_ai_is_asked_once_per_decision_and_a_late_answer_is_dropped() -> None:
    h = Harness(row(), answer_ai=False)
    h.attach(0)
    h.do(Start(0))
    g = h.core.game
    assert g is not None
    # East (the banker) is Ann's; until she throws, no AI is asked
    assert h.thinks == []
    ann_req = h.core.slots[0].request
    assert ann_req is not None
    h.do(Act(1, Action.from_json(simple(
        [a.to_json() for a in g.legal_actions(h.core.seat_of(0))],
        {"last_drawn": None})), ann_req[0]))
    asked = list(h.thinks)
    assert asked, "a claim window or the next turn asks an AI"
    h.advance(5)
    h.advance(5)
    assert h.thinks == asked                           # ticks ask nobody again
    n = h.core.n
    h.do(Decided(asked[0].job + 100, asked[0].legal[0]))   # nobody asked that
    assert h.core.n == n and len(h.thinks) == len(asked)
    h.do(Decided(asked[0].job, None))                  # a failed AI: a safe default
    assert h.core.n > n or len(h.thinks) > len(asked)


def test_the_next_hand_waits_for_the_delay_or_for_everyone_ready() -> None:
    timing = Timing(0, 600, next_hand_delay=30.0, claim_window=0, turn_limit=0)
    h, ann = started(timing)
    while h.core.game is not None:
        req = h.last(ann, "request")
        assert req is not None
        h.inbox[ann] = []
        h.do(Act(ann, Action.from_json(simple(req["legal"], req["view"])), req["id"]))
    end = [m for m in h.inbox[ann] if m["type"] == "hand-end"][-1]
    assert end["next_in_ms"] == 30_000
    h.advance(29.0)
    assert h.core.game is None
    h.do(Ready(ann))                                   # the only person here: deal now
    assert h.core.game is not None and h.core.match.state.hands_played == 1


def test_a_newcomer_takes_an_ai_chair_between_hands_only() -> None:
    timing = Timing(0, 600, next_hand_delay=45.0, claim_window=0, turn_limit=0)
    h, ann = started(timing)
    with pytest.raises(TableError) as mid:
        h.do(Join("Cat", "hc", 2))
    assert mid.value.code == "mid-hand"
    assert h.core.slots[2].kind == "ai"
    while h.core.game is not None:
        req = h.last(ann, "request")
        assert req is not None
        h.inbox[ann] = []
        h.do(Act(ann, Action.from_json(simple(req["legal"], req["view"])), req["id"]))
    h.advance(20)
    assert h.do(Join("Cat", "hc", 2)) == 2
    slot = h.core.slots[2]
    assert (slot.name, slot.kind, slot.human_from) == ("Cat", "human", 1)
    assert h.seats[-1].name == "Cat" and h.seats[-1].kind == "human"
    # the newcomer gets the whole delay from joining to connect and read the summary
    h.do(Ready(ann))
    assert h.core.game is None
    h.advance(44.9)
    assert h.core.game is None
    h.advance(0.1)
    assert h.core.game is not None
    with pytest.raises(TableError) as dup:
        h.do(Join("cat", "hd"))
    assert dup.value.code in ("name-taken", "mid-hand")


def test_a_rebuilt_core_shows_every_seat_what_the_original_showed() -> None:
    h, ann = started(Timing(0, 600, 0, claim_window=0, turn_limit=0))
    for _ in range(15):
        req = h.last(ann, "request")
        assert req is not None
        h.inbox[ann] = []
        h.do(Act(ann, Action.from_json(simple(req["legal"], req["view"])), req["id"]))
    g = h.core.game
    assert g is not None
    table = row()
    table.status = "playing"
    again = Harness(table, log=list(h.log), timing=h.core.timing)
    g2 = again.core.game
    assert g2 is not None
    assert again.core.n == h.core.n
    for seat in Seat:
        assert g2.view(seat) == g.view(seat)
    assert g2.waiting_for() == g.waiting_for()
    replayed = Game.replay(again.core.rules, again.core.events)
    assert replayed.view(Seat.EAST) == g.view(Seat.EAST)


def test_a_failed_write_changes_nothing_and_a_fresh_request_follows_the_error() -> None:
    h, ann = started(Timing(0, 600, 0, claim_window=0, turn_limit=0))
    req = h.play_until(ann, lambda r: any(a["type"] == "discard" for a in r["legal"]),
                       simple)
    stored = list(h.log)
    h.inbox[ann] = []
    h.fail_writes = 1
    h.do(Act(ann, Action.from_json(simple(req["legal"], req["view"])), req["id"]))
    assert h.log == stored and h.core.n == len(stored)
    kinds = [m["type"] for m in h.inbox[ann] if m["type"] in ("error", "request")]
    errors = [m for m in h.inbox[ann] if m["type"] == "error"]
    assert [e["code"] for e in errors] == ["unsaved"]
    assert kinds[0] == "error" and kinds[-1] == "request"
    fresh = h.last(ann, "request")
    assert fresh is not None and fresh["n"] == req["n"] and fresh["id"] != req["id"]
    # the fresh request is answerable and the move is stored once
    h.do(Act(ann, Action.from_json(simple(fresh["legal"], fresh["view"])), fresh["id"]))
    assert len(h.log) > len(stored)


def test_when_the_log_cannot_be_read_back_nothing_is_played_until_it_can() -> None:
    h, ann = started(Timing(0, 600, 0, claim_window=0, turn_limit=0))
    req = h.play_until(ann, lambda r: any(a["type"] == "discard" for a in r["legal"]),
                       simple)
    stored = list(h.log)
    h.fail_writes, h.fail_reads = 1, 1
    h.do(Act(ann, Action.from_json(simple(req["legal"], req["view"])), req["id"]))
    assert h.core.stale and h.log == stored
    h.inbox[ann] = []
    h.do(Act(ann, Action.from_json(simple(req["legal"], req["view"])), req["id"]))
    assert [m["code"] for m in h.inbox[ann] if m["type"] == "error"] == ["unsaved"]
    assert h.log == stored
    h.advance(1.0)                                     # the retry (0.5 s after 1 failure)
    assert not h.core.stale
    assert h.last(ann, "request") is not None


def test_a_spectator_sees_no_concealed_tiles_and_cannot_act() -> None:
    h, ann = started(Timing(0, 600, 0, claim_window=0, turn_limit=0))
    spy = h.attach(None)
    views = [m for m in h.inbox[spy] if m["type"] == "view"]
    assert views and all("concealed" not in m["view"] or not m["view"]["concealed"]
                         for m in views)
    req = h.last(ann, "request")
    assert req is not None
    h.inbox[spy] = []
    h.do(Act(spy, Action.from_json(req["legal"][0]), req["id"]))
    assert [m["type"] for m in h.inbox[spy]] == ["error"]


def test_only_the_creator_starts_and_only_once() -> None:
    h = Harness(row())
    h.attach(0)
    with pytest.raises(TableError) as exc:
        h.do(Start(1))
    assert exc.value.code == "not-creator"
    h.do(Start(0))
    assert h.statuses == ["playing"]
    assert [s.name for s in h.core.slots] == ["Ann", "Greedy", "Greedy 2", "Greedy 3"]
    with pytest.raises(TableError) as again:
        h.do(Start(0))
    assert again.value.code == "started"


def test_thinks_carry_only_the_seats_own_view() -> None:
    h = Harness(row(), answer_ai=False)
    h.attach(0)
    h.do(Start(0))
    while not h.thinks:
        req = h.last(1, "request")
        assert req is not None
        h.inbox[1] = []
        h.do(Act(1, Action.from_json(simple(req["legal"], req["view"])), req["id"]))
    job: Think = h.thinks[0]
    g = h.core.game
    assert g is not None
    assert job.view == g.view(job.view.seat)
