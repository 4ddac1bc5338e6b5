"""The table session both screens use: expected values worked out by hand from the rules
(a quick game is 4 hands unless the preset sets its own; equal scores share a place)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from sgmahjong.agents import make_agent
from sgmahjong.agents.review import Review
from sgmahjong.game import Action, Discard, Game, Match, Pass, PlayerView
from sgmahjong.rules.loading import load_rules
from sgmahjong.session.decisions import FailureNotices, checked, decide, failure_notice
from sgmahjong.session.match import hand_label, match_hand_label, quick_rules, table_rules
from sgmahjong.session.players import (
    DEFAULT_OPPONENTS,
    UnknownPlayer,
    ai_names,
    default_opponents,
    default_standin,
    make_player,
    player_seed,
    unique_names,
)
from sgmahjong.session.reviews import hand_review, match_review, standin_notes
from sgmahjong.session.standings import final_standings
from sgmahjong.tiles import Seat

# ------------------------------------------------------------ standings


def places(scores: Sequence[int]) -> list[tuple[str, int]]:
    return [(s.name, s.place) for s in final_standings(["Ann", "Bob", "Cy", "Di"], scores)]


def test_equal_scores_share_a_place_and_the_next_is_skipped() -> None:
    assert places([10, 10, -5, -15]) == [("Ann", 1), ("Bob", 1), ("Cy", 3), ("Di", 4)]
    assert places([-15, 10, -5, 10]) == [("Bob", 1), ("Di", 1), ("Cy", 3), ("Ann", 4)]
    assert places([5, 0, 0, -5]) == [("Ann", 1), ("Bob", 2), ("Cy", 2), ("Di", 4)]
    assert places([0, 0, 0, 0]) == [("Ann", 1), ("Bob", 1), ("Cy", 1), ("Di", 1)]


def test_a_standing_carries_the_player_score_and_ordinal() -> None:
    rows = final_standings(["Ann", "Bob", "Cy", "Di"], [-4, 8, -4, 0])
    assert [(r.player, r.score, r.ordinal) for r in rows] == [
        (1, 8, "1st"), (3, 0, "2nd"), (0, -4, "3rd"), (2, -4, "3rd")]


# ------------------------------------------------------------ the match


def test_a_quick_game_is_four_hands_unless_the_preset_sets_its_own() -> None:
    standard = load_rules("standard")
    assert standard.match.quick_game_hands == 0
    quick = quick_rules(standard)
    assert quick.match.quick_game_hands == 4
    assert quick.scoring == standard.scoring          # only the match length changes
    garden = load_rules("garden")                      # a preset with its own quick game
    assert quick_rules(garden) is garden
    assert table_rules("standard", quick=True).match.quick_game_hands == 4
    assert table_rules("standard", quick=False).match.quick_game_hands == 0


def test_the_hand_label_counts_from_one_and_says_the_quick_game_length() -> None:
    assert hand_label(1, 4) == "Hand 1 of 4"
    assert hand_label(3) == "Hand 3"
    assert hand_label(12, None) == "Hand 12"


def test_the_label_of_a_match_follows_its_hands() -> None:
    quick = Match(quick_rules(load_rules("standard")), 5, quick=True)
    assert match_hand_label(quick) == "Hand 0 of 4"   # before the first deal
    quick.start_hand()
    assert match_hand_label(quick) == "Hand 1 of 4"
    full = Match(load_rules("standard"), 5)
    full.start_hand()
    assert match_hand_label(full) == "Hand 1"


# ------------------------------------------------------------ players


def test_default_opponents_and_the_newcomers_rung() -> None:
    assert default_opponents() == DEFAULT_OPPONENTS == ("hedgehog", "fox", "owl")
    gentle = ("snail", "rabbit", "hedgehog")
    assert default_opponents("casual", newcomers=gentle) == gentle
    assert default_opponents("standard", newcomers=gentle) == DEFAULT_OPPONENTS
    assert default_opponents("casual") == DEFAULT_OPPONENTS   # a screen without the rung
    assert default_standin() == "hedgehog"


def test_an_unknown_player_is_one_sentence_naming_the_choices() -> None:
    with pytest.raises(UnknownPlayer) as caught:
        make_player("foxx", 1)
    assert caught.value.sentence("opponent").startswith(
        "unknown opponent 'foxx' (did you mean fox?); choose from snail, rabbit,")


def test_an_ai_player_by_name_plays_as_the_registry_seeded_alike() -> None:
    g = Game.new("standard", seed=3)
    seat = next(iter(g.waiting_for()))
    legal = g.legal_actions(seat)
    ours = make_player("fox", player_seed(11, 2)).act(g.view(seat), legal)
    direct = make_agent("fox", player_seed(11, 2)).act(g.view(seat), legal)
    assert ours == direct
    assert len({player_seed(11, p) for p in range(4)}) == 4


def test_repeated_names_are_numbered_seat_by_seat() -> None:
    assert unique_names(["You", "Fox", "Fox", "Owl"]) == ["You", "Fox", "Fox 2", "Owl"]
    assert unique_names(["Fox 2", "Fox", "fox"]) == ["Fox 2", "Fox", "fox 3"]
    assert ai_names(["fox", "fox", "fox"]) == ["Fox", "Fox 2", "Fox 3"]


# ------------------------------------------------------------ decisions


class Raises:
    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        raise RuntimeError("boom")


class Illegal:
    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return Pass()


def turn() -> tuple[PlayerView, list[Action]]:
    """East's first decision of a hand: a turn (East holds 14 tiles)."""
    g = Game.new("standard", seed=7)
    return g.view(Seat.EAST), g.legal_actions(Seat.EAST)


def claim_offer() -> tuple[PlayerView, list[Action]]:
    """The first claim offer of a greedy game: Pass among the choices, no discard."""
    g = Game.new("standard", seed=7)
    agents = [make_agent("greedy", s) for s in range(4)]
    for _ in range(500):
        if not g.waiting_for():
            g.advance()
            continue
        for seat in sorted(g.waiting_for()):
            legal = g.legal_actions(seat)
            if Pass() in legal and not any(isinstance(a, Discard) for a in legal):
                return g.view(seat), legal
        seat = min(g.waiting_for())
        g.submit(seat, agents[seat].act(g.view(seat), g.legal_actions(seat)))
    raise AssertionError("no claim offer in the game")


def test_an_ai_that_raises_throws_the_tile_it_drew_on_its_turn() -> None:
    view, legal = turn()
    assert view.last_drawn is not None
    d = decide(Raises(), view, legal)
    assert d.action == Discard(view.last_drawn)
    assert d.failure == "RuntimeError: boom"


def test_an_ai_that_raises_passes_a_claim_offer() -> None:
    view, legal = claim_offer()
    d = decide(Raises(), view, legal)
    assert d.action == Pass() and d.failure is not None


def test_an_illegal_answer_is_replaced_and_said() -> None:
    view, legal = turn()
    assert Pass() not in legal
    d = decide(Illegal(), view, legal)
    assert d.action == Discard(view.last_drawn) and "illegal" in (d.failure or "")
    # an answer from elsewhere (a worker): none at all, or a legal one kept as it is
    assert checked(view, legal, None, "the pool broke").failure == "the pool broke"
    own = next(a for a in legal if a != Discard(view.last_drawn))
    assert checked(view, legal, own) == type(d)(own, None)


def test_a_failing_seat_is_told_once() -> None:
    told = FailureNotices()
    assert [told.first(p) for p in (2, 2, 3, 2)] == [True, False, True, False]
    assert failure_notice("Fox").startswith("Fox's AI ran into a problem")


# ------------------------------------------------------------ reviews


def test_standin_notes_of_one_hand_are_indexed_within_it() -> None:
    standin = {5: [1], 12: [2, 0], 19: [3], 20: [1]}
    # the hand's events are 10 to 19: events 12 and 19 are its 3rd and 10th
    assert standin_notes(standin, 10, 10) == {2: {"standin": [2, 0]}, 9: {"standin": [3]}}
    assert standin_notes({4: [1]}) == {4: {"standin": [1]}}


def review(lines: tuple[str, ...] = ("Every decision was Owl's.",)) -> Review:
    return Review(Seat.SOUTH, 20, (), (), lines)


def test_a_review_without_a_costly_decision_says_its_head_line() -> None:
    shown = hand_review(review())
    assert shown.head == "Every decision was Owl's."
    assert shown.shown == () and shown.tally == "" and shown.standin_line is None


def test_the_match_review_leaves_out_hands_not_reviewed() -> None:
    assert match_review({}).hands == ()
    assert match_review({}).lines == ("No hand was reviewed.",)
    got = match_review({2: review(), 0: review(), 1: None})
    assert got.hands == (0, 2)
    assert got.lines[0] == "Over 2 hands you made 40 decisions, every one as Owl would have."


# ------------------------------------------------------------ the end of a hand


def test_a_hand_end_names_each_payment_and_payout_by_seat() -> None:
    from sgmahjong.game import BaoIncurred, HandDrawn, InstantPayout, Settled, Won
    from sgmahjong.game.events import Payment
    from sgmahjong.session.summaries import BaoLine, PayoutLine, hand_end
    from sgmahjong.tiles import Tile

    names = {Seat.EAST: "You", Seat.SOUTH: "Fox", Seat.WEST: "Owl", Seat.NORTH: "Hen"}
    red = Tile.RED
    events = [
        InstantPayout(Seat.WEST, "concealed-kong", 2, (-2, -2, 6, -2)),
        BaoIncurred(Seat.SOUTH, Seat.EAST, "third-dragon", red),
        Won(Seat.EAST, red, Seat.SOUTH, (), 3, 3, (), "standard"),
        Settled(Seat.EAST, (16, -16, 0, 0),
                (Payment(Seat.SOUTH, Seat.EAST, 16, "Bao: pays for everyone"),)),
    ]
    end = hand_end(events, names.__getitem__)
    assert [w.seat for w in end.wins] == [Seat.EAST]
    assert [(p.payer, p.payee, p.amount, p.text) for p in end.payments] == [
        (Seat.SOUTH, Seat.EAST, 16, "Fox pays you 16 points (Bao: pays for everyone).")]
    assert end.along == (
        PayoutLine(Seat.WEST, 2, "concealed-kong",
                   "Owl collects 2 points from each player for a concealed kong."),
        BaoLine(Seat.SOUTH, Seat.EAST, "third-dragon", red,
                "Fox fed the third dragon set (Red Dragon) and pays for your win."))
    assert end.drawn is None and end.drawn_text is None
    drawn = hand_end([HandDrawn("replacement")], names.__getitem__)
    assert drawn.wins == () and drawn.payments == []
    assert drawn.drawn_text == "The hand is drawn: no replacement tile was left to draw."
