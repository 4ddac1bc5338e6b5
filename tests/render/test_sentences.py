"""Every sentence the table can show reads as English: tiles by name, never notation.

Seeded games under all six presets are played by AI players through the engine; at the
decisions (turns, claim offers, win offers) the hints are built as each front end builds
them (the hints module, the web's hints payload, the terminal's panel), and each hand's end
is said as the web table, the terminal (its hints panel and hand-end text) and the replay
say it. A few hand ends the games
may not reach (every instant payout, every Bao case, every way a hand is drawn, a player
named "You") are built from their events directly. Each sentence is checked for notation
("1z", "8p", "43f"), a leaked ``null`` / ``undefined`` / ``None``, "1 points", "You pays",
and, under rules that count no tai, any talk of tai.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from rich.text import Text

from sgmahjong.agents import hints as engine
from sgmahjong.agents import make_agent
from sgmahjong.agents.danger import discard_history
from sgmahjong.agents.review import Review, match_summary, review_hand
from sgmahjong.game import (
    Action,
    BaoIncurred,
    Chow,
    Discard,
    HandDrawn,
    InstantPayout,
    Kong,
    Match,
    Pass,
    Pong,
    Settled,
    Win,
    Won,
)
from sgmahjong.game.events import PatternScore, Payment
from sgmahjong.game.match import HandRecord
from sgmahjong.render.words import BAO_NAMES, CONTEXT_NAMES, DRAWN_WHY, PAYOUT_NAMES
from sgmahjong.rules import load_rules, rules_from_dict
from sgmahjong.scoring.payments import settle_win
from sgmahjong.tiles import Seat, Tile
from sgmahjong.tui import hints as panel
from sgmahjong.tui import review as review_panel
from sgmahjong.tui import summary
from sgmahjong.web import protocol
from sgmahjong.web.replay import describe, hand_steps

PRESETS = ("standard", "casual", "limit", "garden", "menqing", "automatic")
SEEDS = (10,)
HANDS = 3                    # hands played per match (garden's quick game has 4)
NAMES = ["You", "Rabbit", "Snail", "Hedgehog"]

NOTATION = re.compile(r"\b\d*[1-9][mpsz]\b|\b\d*[1-4][fga]\b")
LEAKS = re.compile(r"\b(null|undefined|None|NaN)\b")
SINGULAR = re.compile(r"(?<![\d.])-?1 (points|tiles|kinds|copies|players)\b")
TAIS = re.compile(r"\btais\b")
YOU_THIRD = re.compile(r"\b[Yy]ou (pays|collects|wins|scores|is|has|does|looks)\b")
TAI = re.compile(r"\btai\b", re.IGNORECASE)

# payload fields that carry codes or notation for the page's own use, not sentences
CODE_KEYS = {"tile", "tiles", "action", "kind", "drawn", "context", "shape", "reason", "case",
             "id", "safer"}


def problems(text: str, counts_tai: bool) -> list[str]:
    found = [f"notation {m.group()!r}" for m in NOTATION.finditer(text)]
    found += [f"leaked {m.group()!r}" for m in LEAKS.finditer(text)]
    found += [f"plural after 1: {m.group()!r}" for m in SINGULAR.finditer(text)]
    found += ["'tais'" for _ in TAIS.finditer(text)]
    found += [f"verb after You: {m.group()!r}" for m in YOU_THIRD.finditer(text)]
    if not counts_tai:
        found += ["tai under rules that count no tai" for _ in TAI.finditer(text)]
    return found


def strings(data: Any) -> Iterator[str]:
    """Every text in a payload, codes and notation fields left out."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for k, v in data.items():
            if k not in CODE_KEYS:
                yield from strings(v)
    elif isinstance(data, list):
        for v in data:
            yield from strings(v)


def plain(lines: list[str]) -> list[str]:
    return [Text.from_markup(x).plain for x in lines]


class Said:
    """The sentences collected, each with where it came from."""

    def __init__(self) -> None:
        self.bad: list[str] = []
        self.count = 0

    def check(self, where: str, texts: Any, counts_tai: bool) -> None:
        for text in texts:
            self.count += 1
            for p in problems(text, counts_tai):
                self.bad.append(f"{where}: {p} in {text!r}")


def hint_texts(h: engine.Hints) -> list[str]:
    out = [h.waits.sentence, h.tai.sentence]
    if h.discard is not None:
        out += [h.discard.sentence, h.discard.reason, h.discard.plan, h.discard.safety]
    if h.win is not None:
        out.append(h.win.sentence)
    out += [c.sentence for c in h.claims] + [b.sentence for b in h.bao]
    out += [t.sentence for t in h.threats]
    return out


def request_kind(view_turn: bool, legal: list[Action]) -> set[str]:
    kinds = {"turn"} if view_turn else {"claim-offer"}
    if Win() in legal:
        kinds.add("self-drawn-win" if view_turn else "win-on-a-discard")
    if sum(isinstance(a, Chow) for a in legal) > 1:
        kinds.add("chows")
    if any(isinstance(a, (Pong, Kong)) for a in legal) and not view_turn:
        kinds.add("pong-or-kong")
    return kinds


def check_decision(said: Said, seen: Counter[str], where: str, game: Any, seat: Seat) -> None:
    view, legal = game.view(seat), game.legal_actions(seat)
    tai = game.rules.scoring.counts_tai
    on_turn = any(isinstance(a, Discard) for a in legal) or view.seat == view.turn
    seen.update(request_kind(on_turn, legal))
    history = discard_history(game.events)
    h = engine.hints(view, legal, history)
    said.check(f"{where} hints", hint_texts(h), tai)
    shown = plain(panel.render(h, view, legal).lines)
    said.check(f"{where} terminal panel", shown, tai)
    if Win() in legal and not shown[0].startswith("You can win now"):
        said.bad.append(f"{where}: a win is on offer and the panel starts {shown[0]!r}")
    data = protocol.hints_json(view, legal, history)
    assert data is not None
    said.check(f"{where} web hints", strings(data), tai)
    lines = data.get("lines")
    if not isinstance(lines, list) or not all(
            isinstance(x, dict) and isinstance(x.get("text"), str) and x["text"]
            for x in lines):
        said.bad.append(f"{where}: the web hints carry no list of ready sentences: {data}")
        return
    texts = [x["text"] for x in lines]
    if Win() in legal and not any("You can win" in t and "press W" in t for t in texts):
        said.bad.append(f"{where}: a win is on offer and no hint says so: {texts}")
    claims = [x["text"] for x in data["claims"]]
    if len(set(claims)) != len(claims):
        said.bad.append(f"{where}: two claims read the same: {claims}")


def play(rules: str, seed: int, said: Said, seen: Counter[str]) -> None:
    match = Match(rules, seed, quick=rules == "garden")
    agents = [make_agent("greedy", seed * 4 + p) for p in range(4)]
    counts_tai = match.rules.scoring.counts_tai
    reviews: list[tuple[int, Review]] = []
    while not match.state.ended and len(match.hands) < HANDS:
        game = match.start_hand()
        players = [match.state.player_at(s) for s in Seat]
        base = [match.state.scores[p] for p in players]
        step = 0
        while not game.ended:
            for seat in sorted(game.waiting_for()):
                legal = game.legal_actions(seat)
                # every turn of the player at seat 0, every claim and win offer to anyone
                if seat == Seat.EAST or Win() in legal or any(
                        isinstance(a, (Chow, Pong, Kong)) for a in legal):
                    check_decision(said, seen, f"{rules} seed {seed} hand "
                                   f"{len(match.hands) + 1} step {step} {seat.name}",
                                   game, seat)
                game.submit(seat, agents[match.state.player_at(seat)].act(
                    game.view(seat), legal))
                step += 1
        events = list(game.events)
        rec = match.finish_hand()
        where = f"{rules} seed {seed} hand {rec.number + 1}"
        said.check(f"{where} replay", [s["text"] for s in hand_steps(
            match.rules, events, base)], counts_tai)
        said.check(f"{where} web hand end", strings(protocol.hand_summary(
            rec, NAMES, match.state.scores)), counts_tai)
        r = review_hand(events, Seat.EAST, match.rules)
        said.check(f"{where} review", [*r.lines, *(d.sentence for d in r.items),
                                       *(d.brief for d in r.items), r.tally], counts_tai)
        said.check(f"{where} web review", strings(protocol.review_json(r)), counts_tai)
        said.check(f"{where} terminal review", plain(review_panel.review_lines(r)), counts_tai)
        reviews.append((rec.number, r))
        names = {s: NAMES[players[s]] for s in Seat}
        said.check(f"{where} terminal hand end", plain(summary.hand_lines(
            game, names.__getitem__)), counts_tai)
        for e in events:
            if isinstance(e, Won):
                said.check(f"{where} terminal win", plain(panel.win_lines(e, names.__getitem__)),
                           counts_tai)
    said.check(f"{rules} seed {seed} match review", [
        *match_summary(reviews),
        *plain(review_panel.match_review_lines(dict(reviews), len(reviews)))], counts_tai)


@cache
def scan(rules: str) -> tuple[Said, Counter[str]]:
    said, seen = Said(), Counter[str]()
    for seed in SEEDS:
        play(rules, seed, said, seen)
    return said, seen


@pytest.mark.parametrize("rules", PRESETS)
def test_seeded_games_say_every_sentence_in_words(rules: str) -> None:
    said, seen = scan(rules)
    assert said.count > 50
    assert not said.bad, "\n".join(said.bad[:20])
    assert seen["turn"] and seen["claim-offer"], seen


def test_the_games_reach_win_offers_pongs_and_two_chows_at_once() -> None:
    # the scan above is only as good as the decisions it meets: check it meets them all
    seen = sum((scan(rules)[1] for rules in PRESETS), Counter[str]())
    assert {"turn", "claim-offer", "self-drawn-win", "win-on-a-discard", "chows",
            "pong-or-kong"} <= set(seen), seen


def _record(events: list[Any], drawn: str | None = None) -> HandRecord:
    return HandRecord(0, Seat.EAST, 0, 0, (), drawn, (0, 0, 0, 0), tuple(events))


def _hand_end_texts(rec: HandRecord) -> list[str]:
    texts = list(strings(protocol.hand_summary(rec, NAMES, [0, 0, 0, 0])))
    texts += [describe(e) for e in rec.events]
    return texts


@pytest.mark.parametrize("rules", PRESETS)
def test_every_kind_of_hand_end_reads_as_words(rules: str) -> None:
    """Each instant payout, Bao case, way of drawing, win context and a 1-point payment,
    to a player named "You" and paid by them: events the seeded games may not reach."""
    counts_tai = load_rules(rules).scoring.counts_tai
    tai, pats = (3, (PatternScore("dragon-pong", 1, 1), PatternScore("animal", 2, 2))) \
        if counts_tai else (0, ())
    events: list[Any] = []
    for i, reason in enumerate(PAYOUT_NAMES):
        events.append(InstantPayout(Seat(i % 4), reason, 1 + i % 2, (0, 0, 0, 0)))
    for i, case in enumerate(BAO_NAMES):
        events.append(BaoIncurred(Seat(i % 4), Seat((i + 1) % 4), case, Tile(27 + i % 7)))
    for i, ctx in enumerate(CONTEXT_NAMES):
        events.append(Won(Seat(i % 4), Tile(i * 7), None if i % 2 else Seat((i + 3) % 4),
                          (ctx,), tai, tai + i % 2 if counts_tai else 0, pats, "regular"))
    events.append(Settled(Seat.SOUTH, (-1, 3, -1, -1), (
        Payment(Seat.EAST, Seat.SOUTH, 1, "discarder: 1 × base 1"),
        Payment(Seat.WEST, Seat.SOUTH, 2, "other player: 2 × base 1"),
        Payment(None, Seat.SOUTH, 1, "one point for the win"))))
    texts = _hand_end_texts(_record(events))
    for reason in DRAWN_WHY:
        texts += _hand_end_texts(_record([HandDrawn(reason)], reason))
    said = Said()
    said.check(rules, texts, counts_tai)
    assert not said.bad, "\n".join(said.bad)
    summary = protocol.hand_summary(_record(events), NAMES, [0, 0, 0, 0])
    # the ready-made sentences sit beside the fields the page already reads
    assert all({"payer", "payee", "amount", "why", "text"} <= set(p)
               for p in summary["payments"])
    assert [p["text"] for p in summary["payments"]] == [
        "You pay Rabbit 1 point (discarder: 1 × base 1).",
        "Snail pays Rabbit 2 points (other player: 2 × base 1).",
        "Rabbit scores 1 point (one point for the win)."]


def test_the_time_up_notice_names_the_tile() -> None:
    assert protocol.time_up_text(Discard(Tile.P5)) == (
        "Time's up: the AI threw 5 Circles for you.")
    assert protocol.time_up_text(Pass()) == "Time's up: passed on the claim."
    said = Said()
    said.check("notice", [protocol.time_up_text(Discard(t)) for t in Tile if t < 34], True)
    assert not said.bad, said.bad


def test_the_scan_finds_what_it_looks_for() -> None:
    # the checks themselves: each fault it is meant to catch, and sentences it must pass
    for bad in ("Throw 1z (East)", "West discards 5z", "East 43f", "Waiting on 123m",
                "South collects 1 points", "You pays Rabbit 4", "null", "4 tais"):
        assert problems(bad, True), bad
    assert problems("No tai yet", False)
    for good in ("Throw East Wind: it leaves you 1 tile away from ready.",
                 "Rabbit pays you 4 points (discarder: 2 × base 2).", "3 tai each",
                 "You pay Rabbit 1 point.", "Chow 3-4-5 Circles with your 3 and 5 Circles"):
        assert not problems(good, True), good


def test_a_winner_only_payment_of_1_point_says_point() -> None:
    # winner-only points with base 2^(tai - 1): 1 tai pays 1 point
    data = load_rules("garden").to_dict()
    data["payments"]["base_offset"] = -1
    [line] = settle_win(rules_from_dict(data), Seat.SOUTH, 1, False, Seat.EAST).lines
    assert (line.amount, line.why) == (1, "1 tai: 1 point")
