"""Who is connected, told to the table at most once per ``presence_interval``: a crowd of
spectators arriving together costs each socket one "table" message, not one per arrival,
and a player going away or coming back still reaches the others within the interval.

Driven through the core with a clock the test moves (core_harness): no sockets, no sleep.
"""

from __future__ import annotations

from typing import Any

from core_harness import Harness, row

from sgmahjong.web.core import Join, Start, Timing

INTERVAL = 1.0
TIMING = Timing(ai_delay=0.0, disconnect_grace=60.0, next_hand_delay=0.0, claim_window=0.0,
                turn_limit=0.0, presence_interval=INTERVAL)


def tables(h: Harness, conn: int) -> list[dict[str, Any]]:
    return [m["table"] for m in h.take(conn, "table")]


def test_two_hundred_spectators_arriving_within_a_second_cost_each_socket_two_messages() -> None:
    h = Harness(row(), timing=TIMING)
    ann = h.attach(0)
    h.do(Start(0))            # the hand is dealt; the table waits on Ann's first decision
    h.advance(INTERVAL)       # a quiet second: the next change may go out at once
    h.take(ann)
    watchers = []
    for i in range(200):      # one every 4 ms: all 200 within 0.8 s
        watchers.append(h.attach(None))
        if i < 199:
            h.advance(0.004)
    h.advance(INTERVAL)       # the interval after the first arrival has passed
    for conn in [ann, *watchers]:
        got = tables(h, conn)
        # the first arrival (and Ann) were told at once, as the table had said nothing
        # for a second; everyone then by the one broadcast after the interval
        assert len(got) == (2 if conn in (ann, watchers[0]) else 1), (conn, len(got))
        last = got[-1]
        # the last one names everyone there: Ann connected and all 200 watching
        assert last["spectators"] == 200
        assert [s["connected"] for s in last["seats"]] == [True, False, False, False]
    assert h.core.spectators == set(watchers)


def test_the_crowd_costs_the_table_a_message_per_socket_not_per_arrival_squared() -> None:
    h = Harness(row(), timing=TIMING)
    ann = h.attach(0)
    h.do(Start(0))
    h.advance(INTERVAL)
    sent_before = h.sent.get("table", 0)
    for _ in range(200):
        h.attach(None)
        h.advance(0.004)
    h.advance(INTERVAL)
    # one broadcast when the first arrived (Ann and it), one to all 201 sockets after:
    # nowhere near the 20,100 of a broadcast per arrival
    assert h.sent.get("table", 0) - sent_before == 2 + 201
    assert h.core.player_of[ann] == 0


def test_a_player_going_away_and_coming_back_reaches_the_others_within_the_interval() -> None:
    h = Harness(row(), timing=TIMING)
    ann = h.attach(0)
    bob_player = h.do(Join("Bob", "h1"))
    assert bob_player == 1
    bob = h.attach(1)
    h.do(Start(0))
    watcher = h.attach(None)
    h.advance(INTERVAL)
    for c in (ann, bob, watcher):
        h.take(c)
    h.detach(bob)
    h.advance(INTERVAL / 2)
    h.advance(INTERVAL / 2)
    for c in (ann, watcher):
        got = tables(h, c)
        assert got and got[-1]["seats"][1]["connected"] is False, c
    # back within the interval after the last message: told at most an interval later
    h.advance(0.25)
    bob = h.attach(1)
    assert not tables(h, ann)             # not yet: the last was 0.25 s ago
    h.advance(0.75)
    for c in (ann, watcher, bob):
        got = tables(h, c)
        assert len(got) == 1 and got[0]["seats"][1]["connected"] is True, c


def test_a_change_of_the_table_itself_goes_at_once_and_carries_who_is_there() -> None:
    h = Harness(row(), timing=TIMING)
    ann = h.attach(0)
    assert len(tables(h, ann)) == 1   # the first arrival is told at once
    watcher = h.attach(None)          # within the interval of Ann's: waits
    assert not tables(h, ann)
    h.do(Join("Bob", "h1"))           # a seat taken is told at once ...
    for c in (ann, watcher):
        got = tables(h, c)
        assert len(got) == 1
        assert got[0]["seats"][1]["name"] == "Bob" and got[0]["spectators"] == 1
    h.advance(INTERVAL)               # ... and the presence that waited went with it
    assert not tables(h, ann) and not tables(h, watcher)


def test_an_interval_of_zero_tells_every_arrival_at_once() -> None:
    h = Harness(row(), timing=Timing(0.0, 60.0, 0.0, 0.0, 0.0, presence_interval=0.0))
    ann = h.attach(0)
    h.take(ann)
    for k in range(1, 4):
        h.attach(None)
        got = tables(h, ann)
        assert len(got) == 1 and got[0]["spectators"] == k
