"""``sgmahjong replay FILE --review --seat N``: one player's decisions against the Owl's,
hand by hand; a missing or bad seat is a one-line error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sgmahjong.agents import make_agent
from sgmahjong.cli import main
from sgmahjong.game import Discarded, Match, Won
from sgmahjong.record import read_record, record_from_match, replay_record, write_record

NOTATION = re.compile(r"\b\d*[1-9][mpsz]\b|\b\d*[1-4][fga]\b")


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    names = ["owl", "rabbit", "owl", "owl"]
    m = Match("garden", seed=3, quick=True)
    m.play([make_agent(n, p).act for p, n in enumerate(names)])
    return write_record(tmp_path_factory.mktemp("rec") / "m.jsonl",
                        record_from_match(m, names))


def check_review(path: Path, player: int, out: str) -> None:
    """Every hand is there, with the seat the engine puts the player in and at least one
    decision per discard it made; every line reads as English."""
    record = read_record(path)
    hands = replay_record(record)
    heads = re.findall(r"^Hand (\d+), sitting (\w+): (\d+) decisions", out, re.M)
    assert len(heads) == len(hands)
    for (number, wind, decisions), hand in zip(heads, hands, strict=True):
        seat = hand.match.seat_of(player)
        assert int(number) == hand.number + 1 and wind == seat.name.title()
        discards = sum(1 for e in hand.game.events if isinstance(e, Discarded)
                       and e.seat == seat)
        assert int(decisions) >= discards > 0
    assert not NOTATION.findall(out), NOTATION.findall(out)


def test_review_of_a_player_who_is_not_the_owl_names_costly_decisions(
        record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record_file), "--review", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Review of p1 rabbit against Owl (rules garden)")
    check_review(record_file, 1, out)
    assert "; Owl would have thrown " in out and "costs " in out
    # the whole record's agreement and expected points lost, as the review computes them
    from sgmahjong.agents.review import review_record, tally_text
    reviews = review_record(read_record(record_file), 1)
    items = [d for _, _, r in reviews for d in r.items]
    total = sum(r.decisions for _, _, r in reviews)
    dealt = sum(len(r.deal_ins) for _, _, r in reviews)
    assert f"In all: {tally_text(total, items)} {dealt} deal-ins." in out
    for d in items:
        assert f"  - {d.severity}: {d.brief}" in out


def test_review_of_an_owl_shows_no_costly_decision(
        record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record_file), "--review", "--seat", "0"]) == 0
    out = capsys.readouterr().out
    check_review(record_file, 0, out)
    hands = replay_record(read_record(record_file))
    assert out.count("You made every decision of this hand as Owl would.") == len(hands)
    # an Owl can still deal in: the review counts the wins the engine says it paid for
    dealt = sum(1 for h in hands for e in h.game.events
                if isinstance(e, Won) and e.discarder == h.match.seat_of(0))
    assert re.search(rf"In all: \d+ decisions, every one as Owl would have\. {dealt} deal-ins\.",
                     out)


@pytest.mark.parametrize("extra, said", [
    ([], "--review needs --seat N, a player number 0-3"),
    (["--seat", "4"], "--review needs --seat N, a player number 0-3, not 4"),
])
def test_a_missing_or_bad_seat_is_one_line(record_file: Path, extra: list[str], said: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record_file), "--review", *extra]) == 2
    err = capsys.readouterr().err
    assert err == f"sgmahjong replay: error: {said}\n"
