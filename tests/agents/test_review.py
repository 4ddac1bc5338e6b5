"""The review of a hand: the seat's decisions replayed through the Owl from its own view,
the costly ones named with their cost, deal-ins with what made the tile dangerous."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from sgmahjong.agents import review as review_module
from sgmahjong.agents.danger import discard_history
from sgmahjong.agents.dealin import dealin, in_words
from sgmahjong.agents.evaluation import situation
from sgmahjong.agents.expected import close_margin, serious_margin
from sgmahjong.agents.levels import Owl, Rabbit
from sgmahjong.agents.review import decision_points, review_hand, review_record
from sgmahjong.analysis.shanten import shanten
from sgmahjong.game import Discard, Event, Game, Match, Won
from sgmahjong.game.state import Phase
from sgmahjong.game.view import PlayerView
from sgmahjong.record import dumps_record, loads_record, record_from_match
from sgmahjong.rules.loading import load_rules
from sgmahjong.tiles import Seat, Tile

E, S = Seat.EAST, Seat.SOUTH


def _shanten_after(v: PlayerView, tile: Tile) -> int:
    counts = [0] * 34
    for t in v.concealed:
        if t < 34:
            counts[t] += 1
    counts[tile] -= 1
    return shanten(counts, len(v.me.melds))


def play(seed: int, seat: Seat, bad_turn: int | None = None, agents: Sequence[object] = ()
         ) -> tuple[list[Event], int | None, Tile | None, int, int]:
    """A seeded hand of Owls; ``seat`` follows the Owl everywhere except, on its
    ``bad_turn``-th turn, the discard that leaves the most shanten. Returns the events,
    the index of that discard's event, its tile, and the shanten it and the Owl's left."""
    g = Game.new("standard", seed=seed)
    owl = Owl(0)
    players = list(agents) or [owl] * 4
    turns = 0
    bad = None
    tile = None
    mine = owls = 0
    while not g.ended:
        for s in sorted(g.waiting_for()):
            v, legal = g.view(s), g.legal_actions(s)
            a = players[s].act(v, legal)  # type: ignore[attr-defined]
            if s == seat and v.phase is Phase.TURN:
                turns += 1
                if turns == bad_turn and isinstance(a, Discard):
                    tiles = [x.tile for x in legal if isinstance(x, Discard)]
                    worst = max(tiles, key=lambda t: (_shanten_after(v, t), -t))
                    mine, owls = _shanten_after(v, worst), _shanten_after(v, a.tile)
                    if mine > owls:
                        bad, tile, a = len(g.events), worst, Discard(worst)
            g.submit(s, a)
    return list(g.events), bad, tile, mine, owls


def test_a_hand_played_as_owl_plays_shows_no_costly_decision() -> None:
    events, *_ = play(11, S)
    r = review_hand(events, S, "standard")
    assert r.decisions > 5
    assert r.items == () and r.costly == () and r.agreement == 1.0 and r.lost == 0.0
    assert r.lines == ("You made every decision of this hand as Owl would.",
                       *(d.sentence for d in r.deal_ins))


@pytest.mark.parametrize("seed", [11, 12])
def test_a_worse_discard_is_named_with_its_cost_in_shanten(seed: int) -> None:
    events, bad, tile, mine, owls = play(seed, S, bad_turn=3)
    assert bad is not None and tile is not None and mine > owls
    r = review_hand(events, S, "standard")
    # South followed the Owl everywhere else, so this is the one decision that differs
    [d] = r.items
    assert d.index == bad and d.kind == "discard" and d.chosen == Discard(tile)
    assert d.turn == 3 and d.shanten == (mine, owls) and d.costly
    assert d.sentence.startswith(f"On your 3rd turn you threw {tile.english}")
    assert f"left you {mine} tiles away from ready" in d.sentence
    assert r.lines[0] == d.sentence


def test_the_review_sees_only_the_seats_own_view(monkeypatch: pytest.MonkeyPatch) -> None:
    events, *_ = play(12, S, bad_turn=3)
    seen: list[PlayerView] = []
    act = review_module.Owl.act

    def spy(self: Owl, view: PlayerView, legal: list[object]) -> object:
        seen.append(view)
        return act(self, view, legal)  # type: ignore[arg-type]

    monkeypatch.setattr(review_module.Owl, "act", spy)
    review_hand(events, S, "standard")
    points = list(decision_points(events, S, "standard"))
    assert seen == [p.view for p in points] and len(points) > 5
    for p in points:
        # the view is exactly what the engine's view() gives that seat at that moment
        assert p.view == Game.replay("standard", events[:p.index]).view(S)
        assert p.view.seat == S


def test_a_deal_in_names_the_tile_and_what_made_it_dangerous() -> None:
    # Rabbit sits East among Owls; on this wall it throws 3 Bamboo into South, who shows
    # three sets and has been throwing middle tiles.
    events, *_ = play(9, E, agents=[Rabbit(1), Owl(0), Owl(0), Owl(0)])
    [won] = [e for e in events if isinstance(e, Won)]
    assert won.discarder == E and won.seat == S and won.tile == Tile.S3
    r = review_hand(events, E, "standard")
    [d] = r.deal_ins
    before = Game.replay("standard", events[:max(i for i, e in enumerate(events)
                                                  if e.TYPE == "discarded"
                                                  and e.seat == E)])  # type: ignore[attr-defined]
    sets = len(before.view(E).seats[S].melds)
    assert sets == 3
    assert d.tile == Tile.S3 and d.winner == S and d.label == "dangerous"
    assert d.sentence.startswith(f"You dealt in 3 Bamboo to South ({won.tai} tai): South "
                                 "looked ready (three sets out")
    assert "3 Bamboo was dangerous" in d.sentence
    # the deal-in chance the engine read from East's view just before the discard
    p = dealin(before.view(E), Tile.S3, history=discard_history(before.events)).probability
    assert f"3 Bamboo was dangerous ({in_words(p)} that someone would win on it)" in d.sentence
    assert d.sentence in r.lines


def test_a_match_record_is_reviewed_hand_by_hand_for_one_player() -> None:
    m = Match("garden", seed=3, quick=True)
    owl = Owl(0)
    m.play([owl.act] * 4)
    rec = loads_record(dumps_record(record_from_match(m, ["owl"] * 4)))
    reviews = review_record(rec, 2)
    assert len(reviews) == len(m.hands)
    for (number, seat, r), hand in zip(reviews, m.hands, strict=True):
        # player 2 sits two seats after the banker, who sits East
        assert number == hand.number and r.seat == seat == Seat((2 - hand.banker) % 4)
        assert r.items == ()


def test_one_decision_per_claim_window_even_after_a_passed_claim() -> None:
    # A seat that passes a Pong gets a claim-passed event; the window is still open while
    # it is applied, and once counted the decision was weighed (and told) twice.
    from sgmahjong.agents import make_agent
    from sgmahjong.game import ClaimPassed

    m = Match("garden", seed=3, quick=True)
    m.play([make_agent(n, p).act for p, n in enumerate(["owl", "rabbit", "owl", "hedgehog"])])
    passed = 0
    for hand in m.hands:
        for seat in Seat:
            passed += sum(1 for e in hand.events if isinstance(e, ClaimPassed) and e.seat == seat)
            windows = [p.view.discard_count for p in decision_points(hand.events, seat, m.rules)
                       if p.view.phase is not Phase.TURN]
            assert len(windows) == len(set(windows))
    assert passed > 0


def _after_claim(v: PlayerView, action: object) -> int:
    """Shanten after the claim and the best discard, worked out from the tiles."""
    from sgmahjong.game import Chow, Kong, Pong

    counts = [0] * 34
    for t in v.concealed:
        if t < 34:
            counts[t] += 1
    tile = v.window_tile
    assert tile is not None
    if isinstance(action, Pong):
        counts[tile] -= 2
    elif isinstance(action, Kong):
        counts[tile] -= 3
        return shanten(counts, len(v.me.melds) + 1)
    else:
        assert isinstance(action, Chow)
        for k in range(action.tile, action.tile + 3):
            if k != tile:
                counts[k] -= 1
    best = 9
    for d in range(34):
        if counts[d]:
            counts[d] -= 1
            best = min(best, shanten(counts, len(v.me.melds) + 1))
            counts[d] += 1
    return best


@pytest.mark.parametrize("seed", [1, 2])
def test_a_claim_let_pass_is_named_with_its_cost(seed: int) -> None:
    # Owls everywhere; South lets pass the first claim the Owl would take that makes it
    # closer to ready.
    from sgmahjong.game import Pass, Win

    g = Game.new("standard", seed=seed)
    owl = Owl(0)
    bad = None
    want = before = 0
    claim = None
    while not g.ended:
        for s in sorted(g.waiting_for()):
            v, legal = g.view(s), g.legal_actions(s)
            a = owl.act(v, legal)
            if (s == S and bad is None and v.phase is Phase.CLAIMS
                    and not isinstance(a, (Pass, Win))):
                counts = [0] * 34
                for t in v.concealed:
                    counts[t] += 1
                before, want = shanten(counts, len(v.me.melds)), _after_claim(v, a)
                if want < before:
                    bad, claim, a = len(g.events), a, Pass()
            g.submit(s, a)
    assert bad is not None and claim is not None
    r = review_hand(g.events, S, "standard")
    [d] = r.items
    assert d.kind == "claim" and d.chosen == Pass() and d.owl == claim and d.costly
    assert d.shanten == (before, want)
    assert " you let the tile pass; Owl would have taken the " in d.sentence
    def away(n: int) -> str:
        return "ready" if n == 0 else f"{n} tile{'s' if n != 1 else ''} away from ready"

    assert f"it would have left you {away(want)} instead of {away(before)}" in d.sentence


def test_a_costly_discard_carries_both_tiles_and_is_counted() -> None:
    events, _, tile, *_ = play(11, S, bad_turn=3)
    assert tile is not None
    r = review_hand(events, S, "standard")
    [d] = r.items
    # the tiles drawn beside the sentence: South's discard, then the one Owl would throw
    assert isinstance(d.owl, Discard) and d.tiles == (tile, d.owl.tile) and d.owl.tile != tile
    # its cost is the difference of the Owl's expected points of the two discards, read
    # from South's view then, and it is marked by the thresholds of docs/ai.md
    p = next(p for p in decision_points(events, S, "standard") if p.index == d.index)
    tiles = [a.tile for a in p.legal if isinstance(a, Discard)]
    values = {t: v for v, t in Owl(0).scored(p.view, tiles, situation(p.view))}
    assert d.cost == pytest.approx(values[d.owl.tile] - values[tile])
    # standard: a typical win pays about 25 points, a close call is under 2% of it and a
    # serious mistake from 8%
    rules = load_rules("standard")
    assert 0.4 < close_margin(rules) < 0.6 and 1.6 < serious_margin(rules) < 2.4
    mark = ("close call" if d.cost < close_margin(rules) else
            "serious mistake" if d.cost >= serious_margin(rules) else "mistake")
    assert d.severity == mark.replace(" call", "")
    n = r.decisions
    assert r.tally == (f"{n} decisions, {n - 1} as Owl would ({round(100 * (n - 1) / n)}%); "
                       f"of the other 1: 1 {mark}; about {d.cost:.1f} points lost in "
                       "expectation.")
    assert r.agreement == (n - 1) / n and r.lost == d.cost
    owl_only = review_hand(play(11, S)[0], S, "standard")
    assert owl_only.tally == ""


def test_the_match_summary_counts_every_hand_and_names_the_costliest() -> None:
    from sgmahjong.agents.review import match_summary

    worse, *_ = play(11, S, bad_turn=3)
    same, *_ = play(12, S)
    a, b = review_hand(worse, S, "standard"), review_hand(same, S, "standard")
    [d] = a.items
    lines = match_summary([(0, b), (1, a)])
    total = a.decisions + b.decisions
    # the deal-ins, from the hands' own win events
    dealt = [(n, e) for n, evs in ((0, same), (1, worse)) for e in evs
             if isinstance(e, Won) and e.discarder == S]
    said = ("You dealt in no winning tile." if not dealt else
            "You dealt in once: " if len(dealt) == 1 else f"You dealt in {len(dealt)} times: ")
    if dealt:
        said += ", ".join(f"{e.tile.english} to {e.seat.name.title()} in hand {n + 1}"
                          for n, e in dealt) + "."
    assert lines == [
        f"Over 2 hands: {total} decisions, {total - 1} as Owl would "
        f"({round(100 * (total - 1) / total)}%); of the other 1: 1 {d.severity}; "
        f"about {d.cost:.1f} points lost in expectation.",
        said,
        f"The costliest, in hand 2: {d.sentence}",
        "No mistake in 1 hand of 2.",
    ]
    assert match_summary([(0, b)])[0] == (
        f"Over 1 hand you made {b.decisions} decisions, every one as Owl would have.")
