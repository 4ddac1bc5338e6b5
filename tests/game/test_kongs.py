"""The three kongs (RULES.md): concealed and added kongs on one's turn with a replacement
draw, the added tile robbed for a win (Robbing the Kong), and their instant payouts."""

from __future__ import annotations

from sgmahjong.game import InstantPayout, KongDeclared, Settled, Won
from sgmahjong.game.actions import Kong, Pong, Win
from sgmahjong.tiles import Tile

from .tables import E, N, S, W, answer, discard, events_of, new_game, t

CONCEALED = dict(east="1111m258p369s2467z", replacements="9s")


def test_concealed_kong_draws_a_replacement_and_pays_nothing_in_standard() -> None:
    g = new_game("standard", **CONCEALED)
    assert Kong(Tile.M1, "concealed") in g.legal_actions(E)
    g.submit(E, Kong(Tile.M1, "concealed"))
    assert [(k.kind, k.tile) for k in events_of(g, KongDeclared)] == [("concealed", Tile.M1)]
    assert not events_of(g, InstantPayout)
    v = g.view(E)
    assert v.last_drawn == t("9s") and v.draw_replacement
    assert v.seats[E].melds[0].meld.text == "concealed-kong 1111m"
    assert g.pending() == {E}


def test_concealed_kong_pays_two_from_each_in_menqing() -> None:
    g = new_game("menqing", **CONCEALED)
    g.submit(E, Kong(Tile.M1, "concealed"))
    (pay,) = events_of(g, InstantPayout)
    assert (pay.reason, pay.deltas) == ("concealed-kong", (6, -2, -2, -2))


# East pongs South's 5p, later draws the last 5p and adds it. West waits on 5p (46p).
ADDED = dict(east="55p258m369s14s23z6z9m", south="5p134m79p258s3457z",
             draws="8m 8p 2s 7s 5p", replacements="3s")




def test_added_kong_pays_once_nobody_robs_it() -> None:
    g = new_game("standard", west="123m789s111z99m1p9p", **ADDED)
    discard(g, E, "9m")
    answer(g)
    discard(g, S, "5p")
    answer(g, {E: Pong()})
    discard(g, E, "2z")
    answer(g)
    # South, West and North each discard what they draw; then East draws the last 5p
    for seat, tile in ((S, "8p"), (W, "2s"), (N, "7s")):
        discard(g, seat, tile)
        answer(g)
    assert g.view(E).last_drawn == t("5p")
    g.submit(E, Kong(Tile.P5, "added"))
    assert [p.reason for p in events_of(g, InstantPayout)] == ["added-kong"]
    assert events_of(g, InstantPayout)[0].deltas == (6, -2, -2, -2)
    assert g.view(E).last_drawn == t("3s") and g.view(E).seats[E].melds[0].meld.text == \
        "kong 5555p"


def test_robbing_the_kong_wins_on_the_added_tile_before_the_replacement() -> None:
    g = new_game("standard", west="46p123m789s111z99m", **ADDED)
    discard(g, E, "9m")
    answer(g)
    discard(g, S, "5p")
    answer(g, {E: Pong()})   # West passes a Win on 5p here ...
    discard(g, E, "2z")
    answer(g)
    for seat, tile in ((S, "8p"), (W, "2s"), (N, "7s")):
        discard(g, seat, tile)  # ... and West's draw lifts the passed-claim restriction
        answer(g)
    g.submit(E, Kong(Tile.P5, "added"))
    assert g.pending() == {W} and Win() in g.legal_actions(W)
    g.submit(W, Win())
    (won,) = events_of(g, Won)
    assert won.seat == W and won.discarder == E and "robbing-kong" in won.context
    # round wind pong 1 + robbing the kong 1 = 2 tai, base 4, paid as a discard by East.
    assert won.tai == 2
    assert events_of(g, Settled)[0].deltas == (-8, -4, 16, -4)
    assert not events_of(g, InstantPayout)             # a robbed kong pays nothing
    assert g.state.seats[E].melds[0].kind.value == "pong"
