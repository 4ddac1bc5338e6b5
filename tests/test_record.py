"""Match records: JSON Lines round trip, replay, the check against the engine (which every
kind of tampering fails), read errors naming the line, and redaction for one seat."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from sgmahjong.agents import make_agent
from sgmahjong.errors import SgmahjongError
from sgmahjong.game import (
    ClaimPassed,
    Dealt,
    Discarded,
    Drew,
    Game,
    HandStarted,
    Match,
    Settled,
    view,
)
from sgmahjong.game.events import Payment
from sgmahjong.record import (
    Record,
    RecordError,
    check_record,
    dumps_record,
    iter_states,
    loads_record,
    read_record,
    record_from_match,
    redact_for,
    redact_record_for,
    replay_record,
    write_record,
)
from sgmahjong.tiles import Seat, Tile

PLAYERS = ["greedy", "random", "greedy", "random"]


def play(rules: str = "garden", seed: int = 3, quick: bool = True) -> Match:
    m = Match(rules, seed=seed, quick=quick)
    m.play([make_agent(n, 100 + p).act for p, n in enumerate(PLAYERS)])
    return m


@pytest.fixture(scope="module")
def match() -> Match:
    return play()


@pytest.fixture(scope="module")
def record(match: Match) -> Record:
    return loads_record(dumps_record(record_from_match(match, PLAYERS)))


def tampered(record: Record, index: int, event: object) -> Record:
    events = list(record.events)
    events[index] = event  # type: ignore[call-overload]
    return dataclasses.replace(record, events=tuple(events))


def test_round_trip_write_then_read_gives_the_same_events(match: Match, tmp_path: Path) -> None:
    rec = record_from_match(match, PLAYERS)
    path = write_record(tmp_path / "m.jsonl", rec)
    back = read_record(path)
    assert back.events == rec.events
    assert (back.rules, back.seed, back.players, back.quick) == (
        match.rules, match.seed, tuple(PLAYERS), True)
    assert back.lines[0] == 2 and len(back.lines) == len(back.events)
    header = json.loads(path.read_text().splitlines()[0])
    assert header["format"] == "sgmahjong-record" and header["version"] == 1
    assert header["rules_digest"] == match.rules.digest()


def test_replay_reproduces_every_state(match: Match, record: Record) -> None:
    hands = replay_record(record)
    assert len(hands) == len(match.hands)
    for replayed, live in zip(hands, match.hands, strict=True):
        assert replayed.game.events == list(live.events)
        assert replayed.match.banker == live.banker
    # every intermediate state, against a live game re-run with the same decisions
    live_game = Game.replay(record.rules, [])
    snapshots = {i: [view(s, seat) for seat in Seat] for i, _, s in iter_states(record)}
    for i, e in enumerate(record.events):
        if isinstance(e, HandStarted):
            live_game = Game.replay(record.rules, [])
        live_game = Game.replay(record.rules, [*live_game.events, e])
        assert [live_game.view(seat) for seat in Seat] == snapshots[i]


def test_check_passes_on_a_fresh_record(record: Record) -> None:
    report = check_record(record)
    assert report.ok, str(report)
    assert str(report) == f"record OK: {len(record.hands())} hands, {len(record.events)} events"


def test_check_passes_on_a_standard_match_with_claims_and_payouts() -> None:
    m = Match("standard", seed=2)
    agents = [make_agent("random", p).act for p in range(4)]
    while not m.state.ended and len(m.hands) < 3:
        g = m.start_hand()
        while not g.ended:
            for seat in sorted(g.waiting_for()):
                g.submit(seat, agents[m.state.player_at(seat)](g.view(seat),
                                                                g.legal_actions(seat)))
        m.finish_hand()
    assert check_record(record_from_match(m, ["random"] * 4)).ok


def first(record: Record, kind: type, pred=lambda e: True) -> int:  # type: ignore[no-untyped-def]
    return next(i for i, e in enumerate(record.events) if isinstance(e, kind) and pred(e))


def test_check_fails_on_a_changed_drawn_tile(record: Record) -> None:
    i = first(record, Drew)
    e = record.events[i]
    other = Tile.M1 if e.tile != Tile.M1 else Tile.M2  # type: ignore[attr-defined]
    report = check_record(tampered(record, i, dataclasses.replace(e, tile=other)))
    assert not report.ok and report.line == record.lines[i]
    assert "expected" in (report.problem or "")


def test_check_fails_on_a_discard_of_a_tile_not_held(record: Record) -> None:
    i = first(record, Discarded)
    e = record.events[i]
    hand = Game.replay(record.rules, record.events[:i]).state.seats[e.seat]  # type: ignore[attr-defined]
    held = {int(t) // 4 for t in hand.concealed}
    missing = next(t for t in Tile if t < 34 and t not in held)
    report = check_record(tampered(record, i, Discarded(e.seat, missing)))  # type: ignore[attr-defined]
    assert not report.ok and report.line == record.lines[i]


def test_check_fails_on_reordered_lines(record: Record) -> None:
    i = first(record, Discarded)
    events = list(record.events)
    events[i], events[i + 1] = events[i + 1], events[i]
    report = check_record(dataclasses.replace(record, events=tuple(events)))
    assert not report.ok and report.line == record.lines[i]


def test_check_fails_on_a_changed_payment(record: Record) -> None:
    i = first(record, Settled)
    e = record.events[i]
    deltas = tuple(d * 2 for d in e.deltas)  # type: ignore[attr-defined]
    payments = tuple(Payment(p.payer, p.payee, p.amount * 2, p.why)
                     for p in e.payments)  # type: ignore[attr-defined]
    report = check_record(tampered(record, i, dataclasses.replace(e, deltas=deltas,
                                                                  payments=payments)))
    assert not report.ok and report.line == record.lines[i]


def test_check_fails_on_a_changed_seed(record: Record) -> None:
    report = check_record(dataclasses.replace(record, seed=record.seed + 1))
    assert not report.ok and report.line == 2


def test_check_fails_on_a_truncated_record(record: Record) -> None:
    cut = dataclasses.replace(record, events=record.events[:-5])
    report = check_record(cut)
    assert not report.ok and "ends" in (report.problem or "")


@pytest.mark.parametrize("text, message", [
    ("", "empty"),
    ('{"format": "pgn"}\n', "not a sgmahjong record"),
    ("not json\n", "line 1 is not valid JSON"),
    ("HEADER\n{\"type\": \"hand-drawn\", \"reason\": \"wall\"}\n{oops\n",
     "line 3 is not valid JSON"),
    ("HEADER\n{\"type\": \"teleported\", \"seat\": 0}\n", "line 2: unknown type 'teleported'"),
    ("HEADER\n{\"type\": \"drew\", \"seat\": 0}\n", "line 2: drew: missing field 'tile'"),
], ids=["empty", "foreign", "bad-header-json", "bad-line-json", "unknown-type", "missing-field"])
def test_read_errors_name_the_problem_and_line(record: Record, text: str, message: str) -> None:
    header = dumps_record(record).splitlines()[0]
    with pytest.raises(RecordError, match=message) as exc:
        loads_record(text.replace("HEADER", header))
    assert isinstance(exc.value, SgmahjongError)


@pytest.mark.parametrize("change, message", [
    ({"version": 2}, "unsupported record version 2"),
    ({"rules_digest": "0000"}, "does not match the rules"),
    ({"players": ["greedy"]}, "four names"),
    ({"seed": "one"}, "'seed' must be an integer"),
], ids=["version", "digest", "players", "seed"])
def test_bad_header_fields_are_errors(record: Record, change: dict, message: str) -> None:
    lines = dumps_record(record).splitlines()
    header = {**json.loads(lines[0]), **change}
    with pytest.raises(RecordError, match=message):
        loads_record("\n".join([json.dumps(header), *lines[1:]]))


def test_missing_file_is_a_record_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="does not exist"):
        read_record(tmp_path / "nope.jsonl")


def test_redaction_hides_other_seats_tiles_and_the_wall(record: Record) -> None:
    hand = record.hands()[0][1]
    seen = redact_for(hand, Seat.SOUTH)
    start = seen[0]
    assert start["type"] == "hand-started" and start["wall"] is None and start["seed"] is None
    for raw, red in zip((e for e in hand if not (isinstance(e, ClaimPassed)
                                                 and e.seat != Seat.SOUTH)), seen, strict=True):
        if isinstance(raw, Dealt):
            assert (red["tiles"] is None) == (raw.seat != Seat.SOUTH)
            assert red.get("count", 13) == 13
        if isinstance(raw, Drew):
            assert (red["tile"] is None) == (raw.seat != Seat.SOUTH)
        if isinstance(raw, Discarded):
            assert red == raw.to_json()
    assert not any(d["type"] == "claim-passed" and d["seat"] != 1 for d in seen)


def test_redaction_drops_only_other_seats_claim_passed() -> None:
    events = [ClaimPassed(Seat.WEST, Tile.M5), ClaimPassed(Seat.SOUTH, Tile.M5)]
    assert redact_for(events, Seat.SOUTH) == [{"type": "claim-passed", "seat": 1, "tile": "5m"}]


def test_redacted_record_follows_the_player_as_the_banker_moves(record: Record) -> None:
    header, events = redact_record_for(record, 0)
    assert header["seed"] is None
    visible = [e["seat"] for e in events if e["type"] == "dealt" and e["tiles"] is not None]
    seats = [h.match.seat_of(0) for h in replay_record(record)]
    assert visible == [int(s) for s in seats]


def test_check_passes_when_several_players_win_on_one_discard() -> None:
    m = Match("limit", seed=18)          # limit: every claimant wins ("all")
    m.play([make_agent("greedy").act] * 4)
    assert any(len(h.wins) > 1 for h in m.hands)
    assert check_record(record_from_match(m, ["greedy"] * 4)).ok
