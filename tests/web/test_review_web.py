"""The review at the web table: each human gets, with the hand-end message, the review of
their own play in the hand, the same as the engine's record gives; nobody else gets it.
And the hints read danger with the public order of the hand's discards."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from conftest import Player, create_table, join, play_all, play_to, start

from sgmahjong.agents import hints as hints_module
from sgmahjong.agents.review import match_summary, review_hand, review_record
from sgmahjong.game import Claimed, Dealt, Discarded, Drew
from sgmahjong.record import dumps_record, loads_record, record_from_match, replay_record
from sgmahjong.tiles import Seat, Tile
from sgmahjong.web.protocol import review_json


def hand_ends(p: Player) -> list[dict[str, Any]]:
    return [m for m in p.log if m["type"] == "hand-end"]


def test_each_player_gets_the_review_of_their_own_play_and_nobody_elses(
        make_client: Any) -> None:
    c = make_client(next_hand_delay=600.0)   # the table waits after each hand
    t = create_table(c, rules="garden")
    tid = t["table_id"]
    b = join(c, tid)
    ann = Player(c, tid, t["token"])
    bob = Player(c, tid, b["token"])
    watcher = Player(c, tid, spectate=True)
    start(c, tid, t["token"])
    play_all([ann, bob], hands=1)
    for p in (ann, bob):
        p.send({"type": "ready"})
    play_all([ann, bob], hands=1)
    for _ in range(2):
        watcher.until("hand-end")
    # the engine's record of the two hands played
    rt = c.app.state.lobby.tables[tid]
    record = loads_record(dumps_record(record_from_match(rt.match, rt.names)))
    hands = replay_record(record)
    assert len(hands) == 2
    for player, p in ((0, ann), (1, bob)):
        ends = hand_ends(p)
        assert len(ends) == len(hands)
        for end, hand in zip(ends, hands, strict=True):
            seat = hand.match.seat_of(player)
            # the review of this player's seat in this hand, from the engine's record, the
            # others named as the table names them (Seat order: the seat each holds)
            names = [record.players[hand.match.player_at(s)] for s in Seat]
            expected = review_hand(hand.game.events, seat, record.rules, names=names)
            got = end["review"]
            assert got == review_json(expected)
            assert got["seat"] == int(seat) and got["decisions"] == expected.decisions
            discards = sum(1 for e in hand.game.events
                           if isinstance(e, Discarded) and e.seat == seat)
            assert got["decisions"] >= discards > 0
            # no tile in it that the player did not see: their own, or one thrown
            seen = Counter[Tile]()
            for e in hand.game.events:
                if isinstance(e, Dealt) and e.seat == seat:
                    seen.update(e.tiles)
                elif ((isinstance(e, Drew) and e.seat == seat)
                      or isinstance(e, (Discarded, Claimed))):
                    seen[e.tile] += 1
            shown = [Tile.parse(x) for d in got["shown"] for x in d["tiles"]]
            shown += [Tile.parse(d["tile"]) for d in got["deal_ins"]]
            assert all(seen[x] for x in shown), shown
    # the greedy-throwing humans are not Owl: somewhere a costly decision is explained
    assert any(e["review"]["shown"] for p in (ann, bob) for e in hand_ends(p))
    # a spectator gets the hand ends, never a review
    assert len(hand_ends(watcher)) == len(hands)
    assert all("review" not in e for e in hand_ends(watcher))


@pytest.mark.parametrize("restart", [False, True])
def test_a_player_back_between_hands_gets_the_hand_end_with_their_review(
        make_client: Any, restart: bool) -> None:
    c = make_client(next_hand_delay=600.0)
    t = create_table(c)
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    ann.play(hands=1)
    first = hand_ends(ann)[0]
    assert first["review"]["seat"] == 0      # Ann sits East in the first hand
    ann.close()
    # back on the same server, or on one started afresh from the stored log (which
    # works the review out again from the events)
    back = Player(make_client(next_hand_delay=600.0) if restart else c, tid, t["token"])
    again = back.until("hand-end")
    assert again["review"] == first["review"]
    back.close()


def test_the_hints_read_danger_with_the_order_of_the_discards(
        make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[object] = []
    real = hints_module.hints

    def spy(view: Any, legal: Any = None, history: Any = None) -> Any:
        asked.append(history)
        return real(view, legal, history)

    monkeypatch.setattr(hints_module, "hints", spy)
    c = make_client()
    t = create_table(c)
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    # a turn of Ann's after some discards: the public order of them, from her own log
    req = play_to(ann, lambda m: any(e["type"] == "discard" for e in m["legal"])
                  and len([x for x in ann.log if x["type"] == "event"
                           and x["event"]["type"] == "discarded"]) >= 6)
    ann.send({"type": "hints"})
    ann.until("hints")
    hand = [x["event"] for x in ann.log if x["type"] == "event"]
    start_at = max(i for i, e in enumerate(hand) if e["type"] == "hand-started")
    order = [(Seat(e["seat"]), Tile.parse(e["tile"])) for e in hand[start_at:]
             if e["type"] == "discarded"]
    assert req["type"] == "request" and len(order) >= 6
    assert asked and list(asked[-1]) == order    # type: ignore[call-overload]
    ann.close()


def test_the_match_end_sums_up_the_players_reviews(make_client: Any) -> None:
    c = make_client()
    t = create_table(c)
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    watcher = Player(c, tid, spectate=True)
    start(c, tid, t["token"])
    ann.play()
    end = ann.log[-1]
    assert end["type"] == "match-end"
    record = loads_record(c.get(f"/api/tables/{tid}/record").text)
    reviews = review_record(record, 0)
    assert end["review"]["hands"] == list(range(len(reviews))) and len(reviews) == 4
    assert end["review"]["lines"] == match_summary(
        [(n, r) for n, (_, _, r) in enumerate(reviews)])
    assert end["review"]["lines"][0].startswith("Over 4 hands")
    assert "review" not in watcher.until("match-end")
    # back after the end, on a server started afresh: the same summary, worked out again
    back = Player(make_client(), tid, t["token"])
    assert back.until("match-end")["review"] == end["review"]


def test_a_player_who_takes_over_an_ai_seat_is_not_given_the_ais_review(
        make_client: Any) -> None:
    c = make_client(next_hand_delay=600.0)
    t = create_table(c)
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    ann.play(hands=1)
    b = join(c, tid)                    # between hands: Bob takes over an AI seat
    bob = Player(c, tid, b["token"])
    first = bob.until("hand-end")
    assert first["hand"]["number"] == 0 and "review" not in first   # that hand was the AI's
    for p in (ann, bob):
        p.send({"type": "ready"})
    play_all([ann, bob], hands=1)
    second = hand_ends(bob)[-1]
    assert second["hand"]["number"] == 1
    rt = c.app.state.lobby.tables[tid]
    assert second["review"]["seat"] == int(rt.seat_of(b["player"], 1))
