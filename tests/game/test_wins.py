"""Wins and their settlement: self-drawn and discard payments, Heavenly and Earthly hands,
casual and garden scoring, the automatic Eight Flowers win, Robbing the Eighth and the
automatic Big Three Dragons win."""

from __future__ import annotations

from sgmahjong.game import InstantPayout, Settled, Win, Won

from .tables import E, S, W, answer, discard, events_of, new_game
from .test_claims import WIN_OVER_PONG

HEAVENLY = dict(east="123m456p789s111z77z")


def test_self_drawn_win_each_opponent_pays_double() -> None:
    g = new_game("standard", **HEAVENLY)
    g.submit(E, Win())
    (won,) = events_of(g, Won)
    # 111z: East's seat wind and the round wind, 2 tai; Heavenly Hand is not scored here.
    assert won.tai == 2 and "heavenly" in won.context
    assert events_of(g, Settled)[0].deltas == (24, -8, -8, -8)


def test_heavenly_hand_is_a_limit_hand_in_garden() -> None:
    g = new_game("garden", **HEAVENLY)
    g.submit(E, Win())
    (won,) = events_of(g, Won)
    assert won.tai == 5 and [p.id for p in won.patterns] == ["heavenly-hand"]
    # winner-only points: 2^5 = 32, doubled when self-drawn; nobody pays.
    assert events_of(g, Settled)[0].deltas == (64, 0, 0, 0)


def test_earthly_hand_is_a_win_on_the_banker_first_discard() -> None:
    g = new_game("garden", **WIN_OVER_PONG)
    discard(g, E, "7z")
    answer(g, {W: Win()})
    (won,) = events_of(g, Won)
    assert "earthly" in won.context and won.tai == 5
    assert events_of(g, Settled)[0].deltas == (0, 0, 32, 0)


def test_casual_any_complete_hand_wins_one_point() -> None:
    g = new_game("casual", east="123m456p789s234s5s5s")
    g.submit(E, Win())
    assert events_of(g, Settled)[0].deltas == (1, 0, 0, 0)


def test_chicken_hand_cannot_win_in_standard() -> None:
    g = new_game("standard", east="123m456p999s345s22z")
    assert Win() not in g.legal_actions(E)


# East is dealt all eight flowers and seasons: an automatic win as soon as they are replaced.
EIGHT = dict(east="1234f1234g258m", replacements="369p147s")


def test_eight_flowers_wins_automatically() -> None:
    g = new_game("standard", **EIGHT)
    assert g.ended and not g.pending()
    (won,) = events_of(g, Won)
    assert won.seat == E and won.discarder is None and won.shape == "automatic"
    assert (won.raw_tai, won.tai) == (12, 5)
    # Paid as self-drawn at the cap: 2 x 32 from each; the bonus payouts came first.
    assert events_of(g, Settled)[0].deltas == (192, -64, -64, -64)
    assert sorted(p.reason for p in events_of(g, InstantPayout)) == [
        "four-flowers", "four-seasons", "own-flower-season"]


def test_eight_flowers_is_no_automatic_win_in_garden() -> None:
    g = new_game("garden", **EIGHT)
    assert not g.ended and g.pending() == {E}


# South is dealt seven; East's 14th tile is the eighth, 4g: South may rob it.
ROB_EIGHTH = dict(east="258m369p147s1234z4g", south="1234f123g369m", replacements="9s8s7s")


def test_robbing_the_eighth() -> None:
    g = new_game("standard", **ROB_EIGHTH)
    assert g.pending() == {S} and g.legal_actions(S) == [Win(), _pass()]
    g.submit(S, Win())
    (won,) = events_of(g, Won)
    assert won.seat == S and won.discarder == E and "robbing-eighth" in won.context
    assert (won.raw_tai, won.tai) == (10, 5)
    # A discard win by the exposer at the cap (base 32): East 64, the others 32 each.
    assert events_of(g, Settled)[0].deltas == (-64, 128, -32, -32)
    assert "four-seasons" in [p.reason for p in events_of(g, InstantPayout) if p.seat == S]


def test_robbing_the_eighth_may_be_passed() -> None:
    g = new_game("standard", **ROB_EIGHTH)
    g.submit(S, _pass())
    assert not g.ended and g.pending() == {E}


def test_big_three_dragons_wins_without_the_regular_shape_in_automatic() -> None:
    hand = dict(east="555z666z777z1m4p7s2z9s")
    assert Win() not in new_game("standard", **hand).legal_actions(E)
    g = new_game("automatic", **hand)
    g.submit(E, Win())
    (won,) = events_of(g, Won)
    assert won.shape == "automatic" and won.tai == 5
    assert events_of(g, Settled)[0].deltas == (192, -64, -64, -64)


def _pass():
    from sgmahjong.game import Pass
    return Pass()
