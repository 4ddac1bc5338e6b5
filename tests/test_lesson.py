"""The guided first hand, as the coach scripts it: the deal goes the same way every time,
each step's action is legal when it is asked for, the win scores as the rules say, and
the steps sent to a browser hold East's own tiles only."""

from __future__ import annotations

from sgmahjong.game import Chow, Discard, Win
from sgmahjong.render.lesson import STEPS, lesson_steps, refusal
from sgmahjong.tiles import Tile


def test_the_coach_asks_for_a_throw_a_claim_a_draw_and_a_win() -> None:
    asked = [s.expect for s in STEPS if s.expect is not None]
    assert asked == [Discard(Tile.NORTH), Chow(Tile.P3), Discard(Tile.WEST),
                     Discard(Tile.M9), Win()]
    assert STEPS[0].kind == "read" and STEPS[-1].kind == "read"
    assert refusal(STEPS[2]) == "Not yet: the coach asks you to chow the 3 Circles (C)."


def test_steps_follow_the_deal() -> None:
    steps = lesson_steps()
    assert len(steps) == len(STEPS)
    for s in steps:
        if s["expect"] is not None:
            assert s["expect"] in s["legal"]
    # the chow is offered on Hedgehog's (North's, on East's left) 3 Circles
    assert steps[2]["log"][-1] == "Hedgehog threw 3 Circles."
    assert {"type": "pass"} in steps[2]["legal"]
    # the draw step shows the drawn 9 Characters
    assert steps[4]["view"]["last_drawn"] == "9m"
    # before the win: the chow laid out, the 5 Bamboo drawn
    me = steps[6]["view"]["seats"][0]
    assert me["melds"] == [{"kind": "chow", "tiles": "345p"}]
    assert steps[6]["view"]["last_drawn"] == "5s"


def test_the_breakdown_is_the_rules_own_sums() -> None:
    text = lesson_steps()[-1]["text"]
    # standard: a Red Dragon pong is 1 tai; base 2^1 = 2; self-drawn, each of the three
    # others pays 2 x 2 = 4, 12 in all
    assert text.startswith("You won self-drawn on 5 Bamboo: 1 tai. Dragon Pong: 1 tai.")
    for who in ("Snail", "Rabbit", "Hedgehog"):
        assert f"{who} pays you 4 points." in text
    assert "In all you collect 12 points." in text


def test_steps_show_no_other_seats_tiles() -> None:
    for s in lesson_steps():
        view = s["view"]
        assert "wall" not in view and "seed" not in view
        for seat in view["seats"]:
            assert "concealed" not in seat
            assert set(seat) == {"seat", "melds", "bonus", "discards", "concealed_count",
                                 "score"}
