"""Claims on a discard (RULES.md): Win > Kong > Pong > Chow, chow only by the next player,
claims collected from every seat before any is resolved, several winners, the passed-claim
rule and the own-discard rule."""

from __future__ import annotations

import pytest

from sgmahjong.game import (
    Chow,
    Claimed,
    ClaimPassed,
    Discard,
    IllegalAction,
    InstantPayout,
    Kong,
    Pass,
    Pong,
    Settled,
    Win,
    Won,
)

from .tables import E, N, S, W, answer, discard, events_of, new_game, t

# East discards 7z first. South holds 77z, West waits on 7z for the eye (111z = round wind).
WIN_OVER_PONG = dict(
    east="7z258m369p1468s236z", south="77z147m258p259s46z",
    west="123m456p789s111z7z", north="369m147p379s2345z")


def test_claims_are_collected_before_any_is_resolved() -> None:
    g = new_game(**WIN_OVER_PONG)
    discard(g, E, "7z")
    assert g.pending() == {S, W}
    assert g.submit(S, Pong()) == []          # stored, nothing happens yet
    assert g.waiting_for() == {W}
    new = g.submit(W, Win())
    assert [type(e) for e in new] == [Won, Settled]


def test_win_beats_pong() -> None:
    g = new_game(**WIN_OVER_PONG)
    discard(g, E, "7z")
    answer(g, {S: Pong(), W: Win()})
    (won,) = events_of(g, Won)
    assert won.seat == W and won.discarder == E and won.tai == 1
    assert not events_of(g, Claimed)
    # standard, 1 tai: base 2; the discarder pays 2x base, the others 1x base.
    assert events_of(g, Settled)[0].deltas == (-4, -2, 8, -2)


# East discards 3p: South (next) can chow 12p, West holds 33p, North 333p in the kong case.
CHOW_VS_PONG = dict(
    east="3p258m69p1468s2367z", south="12p147m9m258s4567z",
    west="33p123m456s789s11z", north="369m478p379s1235z")
CHOW_VS_KONG = dict(
    east="3p258m69p1468s2367z", south="12p147m9m258s4567z",
    west="123m456s789s11z49p", north="333p69m47p379s123z", replacements="5s")


def test_pong_beats_chow() -> None:
    g = new_game(**CHOW_VS_PONG)
    discard(g, E, "3p")
    assert g.pending() == {S, W}
    assert Chow(t("1p")) in g.legal_actions(S)
    answer(g, {S: Chow(t("1p")), W: Pong()})
    (claim,) = events_of(g, Claimed)
    assert (claim.seat, claim.kind, claim.tile) == (W, "pong", t("3p"))
    # After a Pong the claimer discards: only discards are legal.
    assert g.pending() == {W}
    assert all(isinstance(a, Discard) for a in g.legal_actions(W))


def test_kong_beats_chow_and_draws_a_replacement_from_the_back() -> None:
    g = new_game(**CHOW_VS_KONG)
    discard(g, E, "3p")
    answer(g, {S: Chow(t("1p")), N: Kong(t("3p"), "claimed")})
    (claim,) = events_of(g, Claimed)
    assert (claim.seat, claim.kind) == (N, "kong")
    v = g.view(N)
    assert v.last_drawn == t("5s") and v.draw_replacement
    assert g.pending() == {N}


def test_chow_goes_through_when_nobody_claims_higher() -> None:
    g = new_game(**CHOW_VS_PONG)
    discard(g, E, "3p")
    answer(g, {S: Chow(t("1p"))})
    (claim,) = events_of(g, Claimed)
    assert (claim.seat, claim.kind, claim.low) == (S, "chow", t("1p"))
    assert g.view(S).seats[S].melds[0].meld.text == "chow 123p"


def test_chow_only_by_the_next_player() -> None:
    g = new_game(**CHOW_VS_PONG)
    discard(g, E, "3p")
    before = len(g.events)
    with pytest.raises(IllegalAction, match="only South may"):
        g.submit(W, Chow(t("1p")))
    assert len(g.events) == before and g.waiting_for() == {S, W}


def test_unclaimed_discard_passes_the_turn_to_the_next_player() -> None:
    g = new_game(**CHOW_VS_PONG)
    discard(g, E, "3p")
    answer(g)
    assert g.pending() == {S} and g.view(S).phase.value == "turn"
    assert len(g.view(S).concealed) == 14


# West and North both wait on 7z for the eye.
TWO_WINNERS = dict(
    east="7z258m369p1468s236z", south="147m258p259s4466z",
    west="123m456p789s111z7z", north="234m567p678s555z7z")


def test_several_winners_nearest_to_the_discarder_wins() -> None:
    g = new_game("standard", **TWO_WINNERS)
    discard(g, E, "7z")
    answer(g, {W: Win(), N: Win()})
    assert [w.seat for w in events_of(g, Won)] == [W]
    assert g.state.scores == [-4, -2, 8, -2]


def test_several_winners_all_win_and_only_losers_pay() -> None:
    g = new_game("limit", **TWO_WINNERS)
    discard(g, E, "7z")
    answer(g, {W: Win(), N: Win()})
    assert [w.seat for w in events_of(g, Won)] == [W, N]
    # limit: 1 tai = base 1; discarder pays each winner 2, South pays each 1, winners nothing.
    assert [s.deltas for s in events_of(g, Settled)] == [(-2, -1, 3, 0), (-2, -1, 0, 3)]
    assert sum(g.state.scores) == 0


# West passes a Pong on East's 5p; South then draws and discards another 5p.
PASSED = dict(
    east="5p258m39p1468s2367z", south="147m128p259s4466z",
    west="55p46p123m789s111z", north="369m478p379s2345z", draws="5p")


def test_passed_claim_bars_a_pong_on_another_copy_until_the_next_draw() -> None:
    g = new_game(**PASSED)
    discard(g, E, "5p")
    assert Pong() in g.legal_actions(W)
    answer(g)  # West passes
    assert [(p.seat, p.tile) for p in events_of(g, ClaimPassed)] == [(W, t("5p"))]
    discard(g, S, "5p")
    assert g.legal_actions(W) == [Chow(t("4p")), Pass()]
    with pytest.raises(IllegalAction, match="passed-claim rule"):
        g.submit(W, Pong())
    answer(g)
    discard(g, W, "1m")
    assert g.view(W).passed == frozenset()   # cleared by West's next draw


# South discards 5p keeping 55p; West draws the last 5p and discards it; North could chow it.
OWN_DISCARD = dict(
    east="258m39p1468s2367z9m", south="147m25558p259s46z",
    west="123m19p789s11177z", north="369m679p379s2345z", draws="6s5p")


@pytest.mark.parametrize("rules", ["standard", "menqing"])
def test_own_discard_cannot_be_ponged(rules: str) -> None:
    g = new_game(rules, **OWN_DISCARD)
    discard(g, E, "9m")
    answer(g)
    discard(g, S, "5p")
    answer(g)
    discard(g, W, "5p")
    assert g.pending() == {N}
    assert g.legal_actions(S) == []
    with pytest.raises(IllegalAction, match="own-discard rule"):
        g.submit(S, Pong())


def test_claimed_kong_pays_two_from_each_opponent() -> None:
    g = new_game(**CHOW_VS_KONG)
    discard(g, E, "3p")
    answer(g, {N: Kong(t("3p"), "claimed")})
    (pay,) = events_of(g, InstantPayout)
    assert (pay.seat, pay.reason, pay.deltas) == (N, "claimed-kong", (-2, -2, -2, 6))
