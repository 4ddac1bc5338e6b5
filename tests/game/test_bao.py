"""Bao (RULES.md, 'Bao cases'): the cases one by one on the rule functions, and a played
hand where feeding the third dragon makes the feeder pay the whole table."""

from __future__ import annotations

import pytest

from sgmahjong.game import BaoIncurred, Settled, Won
from sgmahjong.game.actions import Pong, Win
from sgmahjong.game.bao import claim_case, win_case
from sgmahjong.melds import Meld
from sgmahjong.rules import load_rules
from sgmahjong.tiles import Seat, parse_tiles

from .tables import E, N, S, W, answer, discard, events_of, new_game, t

STD, MQ = load_rules("standard"), load_rules("menqing")


def melds(*texts: str) -> list[Meld]:
    return [Meld.parse(x) for x in texts]


def claim(rules, seat, shown, bonus, tile, round_wind=Seat.EAST):
    return claim_case(rules, seat, melds(*shown), parse_tiles(bonus), round_wind, t(tile))


def win(rules, seat, shown, bonus, tile, before, playable="", fresh=False, remaining=50):
    return win_case(rules, seat, melds(*shown), parse_tiles(bonus), Seat.EAST, t(tile), before,
                    parse_tiles(playable), fresh, remaining)


def test_third_dragon_by_pong() -> None:
    assert claim(STD, S, ["pong 555z", "pong 666z"], "", "7z") == "third-dragon"
    assert claim(STD, S, ["pong 555z"], "", "7z") is None


def test_third_dragon_by_win_only_when_it_completes_the_set() -> None:
    shown = ["pong 555z", "kong 6666z"]
    assert win(STD, S, shown, "", "7z", before=2) == "third-dragon"
    assert win(STD, S, shown, "", "7z", before=1) is None        # used as the eye


def test_fourth_wind() -> None:
    shown = ["pong 111z", "pong 222z", "pong 333z"]
    assert claim(STD, N, shown, "", "4z") == "fourth-wind"
    assert claim(STD, N, shown[:2], "", "4z") is None


@pytest.mark.parametrize("shown, bonus, tile, how, expected", [
    # face-up 5 (red pong 1 + four animals 4+1): any Win, Pong or Kong with a valued honour
    (["pong 777z"], "1234a", "5z", "eye", "exposed-limit"),
    # face-up 4: a Pong reaching 5 is liable, a win using the tile as the eye is not
    (["pong 777z"], "123a", "5z", "pong", "exposed-limit"),
    (["pong 777z"], "123a", "5z", "eye", None),
    # face-up 3: a dragon only reaches 4; East's own wind in the East round is worth 2
    (["pong 777z"], "12a", "5z", "pong", None),
    (["pong 777z"], "12a", "1z", "pong", "exposed-limit"),
    # not a valued honour: never
    (["pong 777z"], "1234a", "3z", "pong", None),
])
def test_exposed_limit(shown, bonus, tile, how, expected) -> None:
    if how == "pong":
        got = claim(STD, E, shown, bonus, tile)
    else:
        got = win(STD, E, shown, bonus, tile, before=1)
    assert got == expected


def test_menqing_exposed_limit_needs_a_pong_that_reaches_the_limit() -> None:
    assert claim(MQ, E, ["pong 777z"], "123a", "5z") == "exposed-limit-pong"
    assert win(MQ, E, ["pong 777z"], "1234a", "5z", before=1) is None


def test_full_colour_with_three_sets_shown() -> None:
    shown = ["chow 123p", "pong 555p", "chow 789p"]
    hand = "123555789p" + "4466p"
    assert win(STD, W, shown, "", "4p", before=1, playable=hand) == "full-colour"
    assert win(STD, W, shown[:2], "", "4p", before=1, playable=hand) is None
    assert win(STD, W, shown, "", "4p", before=1, playable="123555789p44p66s") is None


def test_menqing_all_honours_and_all_terminals_count_like_full_colour() -> None:
    honours = ["pong 111z", "pong 222z", "pong 555z"]
    assert win(MQ, W, honours, "", "6z", before=1,
               playable="111222555z666z77z") == "full-colour-or-honours-or-terminals"
    assert win(STD, W, honours, "", "6z", before=1, playable="111222555z666z77z") is None
    terminals = ["pong 111m", "pong 999p", "pong 111s"]
    assert win(MQ, W, terminals, "", "9s", before=1,
               playable="111m999p111s999s99m") == "full-colour-or-honours-or-terminals"


@pytest.mark.parametrize("rules, remaining, expected", [
    (STD, 3, "fresh-tile"), (STD, 4, None), (MQ, 5, "fresh-tile"), (MQ, 6, None)])
def test_fresh_tile_near_the_end(rules, remaining, expected) -> None:
    assert win(rules, W, [], "", "9m", before=1, fresh=True, remaining=remaining) == expected
    assert win(rules, W, [], "", "9m", before=1, fresh=False, remaining=remaining) is None


@pytest.mark.parametrize("rules", ["limit", "casual", "garden"])
def test_no_bao_where_the_table_has_none(rules: str) -> None:
    assert claim(load_rules(rules), S, ["pong 555z", "pong 666z"], "", "7z") is None


# South pongs East's 5z and West's 6z; North feeds the third dragon, 7z; South later
# self-draws 9s for the win. North pays the whole table.
THIRD_DRAGON = dict(
    east="5z258m369p147s1234z", south="55z66z77z123m99s19p", west="6z147m258p369s123z",
    north="7z369m147p258s123z", draws="2s3s4s 5s6s7s 9s")


def test_feeding_the_third_dragon_makes_the_feeder_pay_for_the_win() -> None:
    g = new_game("standard", **THIRD_DRAGON)
    discard(g, E, "5z")
    answer(g, {S: Pong()})
    discard(g, S, "1p")
    answer(g)
    discard(g, W, "6z")
    answer(g, {S: Pong()})
    discard(g, S, "9p")
    answer(g)
    discard(g, W, "3s")
    answer(g)
    discard(g, N, "7z")
    answer(g, {S: Pong()})
    assert [(b.seat, b.winner, b.case) for b in events_of(g, BaoIncurred)] == [
        (N, S, "third-dragon")]
    discard(g, S, "9s")
    for seat, tile in ((W, "5s"), (N, "6s"), (E, "7s")):
        answer(g)
        discard(g, seat, tile)
    answer(g)
    g.submit(S, Win())
    (won,) = events_of(g, Won)
    assert won.seat == S and won.discarder is None and won.tai == 5
    # Self-drawn at the cap: 3 x 64 = 192, all paid by North.
    assert events_of(g, Settled)[0].deltas == (0, 192, 0, -192)
