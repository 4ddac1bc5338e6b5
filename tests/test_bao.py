"""Bao liability (RULES.md, "Bao cases"), through the pure functions and the calculator."""

import pytest

from sgmahjong.melds import Meld
from sgmahjong.rules import load_rules
from sgmahjong.scoring.bao import claim_liability, exposed_tai
from sgmahjong.scoring.request import score_request
from sgmahjong.tiles import Seat, Tile, parse_tiles

E, S, W, N = Seat
STD = load_rules("standard")
MQ = load_rules("menqing")


def melds(*texts):
    return [Meld.parse(t) for t in texts]


def test_exposed_tai_counts_honour_sets_and_bonus_tiles():
    # East in the East round: East pong 2, Red pong 1, Cat 1, own flower 1f 1.
    shown = melds("pong 111z", "pong 777z", "chow 234s")
    assert exposed_tai(shown, parse_tiles("1a1f"), E, E, STD) == 5
    assert exposed_tai(shown, [], S, E, STD) == 2  # for South, East is only the round wind


def test_third_dragon_fed_for_a_pong_makes_the_discarder_liable():
    got = claim_liability(STD, melds("pong 555z", "pong 666z"), [], S, E, Tile.RED, W)
    assert (got.seat, got.case) == (W, "third-dragon")


def test_a_dragon_fed_to_a_player_showing_one_dragon_set_is_no_bao():
    assert claim_liability(STD, melds("pong 555z", "chow 234m"), [], S, E, Tile.RED, W) is None


def test_fourth_wind_fed_for_a_kong_makes_the_discarder_liable():
    got = claim_liability(STD, melds("pong 111z", "pong 222z", "pong 333z"), [], S, E,
                          Tile.NORTH, E)
    assert (got.seat, got.case) == (E, "fourth-wind")


@pytest.mark.parametrize(("shown", "bonus", "tile", "liable"), [
    # at 5 exposed tai any dragon or valued wind set
    (("pong 111z", "pong 555z"), "1a2a", Tile.GREEN, True),
    # at 4, a pong that reaches 5
    (("pong 111z", "pong 555z"), "1a", Tile.GREEN, True),
    # at 3, a single-value dragon only reaches 4
    (("pong 555z",), "1a2a", Tile.GREEN, False),
    # at 3, the wind that is both seat and round wind (2 tai) reaches 5
    (("pong 555z",), "1a2a", Tile.EAST, True),
    # a wind that scores nothing for the claimer is never this case
    (("pong 111z", "pong 555z"), "1a2a", Tile.NORTH, False),
])
def test_exposed_limit_case_at_5_4_and_3_tai(shown, bonus, tile, liable):
    got = claim_liability(STD, melds(*shown), parse_tiles(bonus), E, E, tile, N)
    assert (got is not None and got.case == "exposed-limit") is liable


def test_menqing_exposed_limit_only_when_the_pong_takes_the_tai_to_the_limit():
    at4 = claim_liability(MQ, melds("pong 111z", "pong 555z"), parse_tiles("1a"), E, E,
                          Tile.GREEN, N)
    assert at4 is not None and at4.case == "exposed-limit-pong"
    at5 = claim_liability(MQ, melds("pong 111z", "pong 555z"), parse_tiles("1a2a"), E, E,
                          Tile.GREEN, N)
    assert at5 is None


def test_presets_without_bao_never_make_anyone_liable():
    for name in ("limit", "casual", "garden"):
        rules = load_rules(name)
        assert claim_liability(rules, melds("pong 555z", "pong 666z"), [], S, E,
                               Tile.RED, W) is None


def win(rules="standard", **request):
    request.setdefault("seat", "S")
    return score_request(request, rules)


def test_win_completing_the_third_dragon_set_off_a_discard_is_bao():
    out = win(concealed="234m11p77z", melds=["pong 555z", "pong 666z"], win_tile="7z",
              discarder="N")
    # Big Three Dragons 7 raw, paid at 5: base 32; the discarder pays 64 + 32 + 32.
    assert out["bao"] == {"seat": "N", "case": "third-dragon"}
    assert out["payments"] == {"E": 0, "S": 128, "W": 0, "N": -128}


def test_third_dragon_used_as_the_eye_is_no_bao():
    out = win(concealed="234m567p7z", melds=["pong 555z", "pong 666z"], win_tile="7z",
              discarder="N")
    assert "bao" not in out
    assert out["payments"] == {"E": -8, "S": 32, "W": -8, "N": -16}


def test_full_colour_completed_for_a_player_showing_three_sets_of_the_suit():
    out = win(concealed="2345m", melds=["pong 111m", "chow 234m", "pong 999m"],
              win_tile="5m", discarder="W")
    # Full Colour 4: base 16; W pays 32 + 16 + 16 alone.
    assert out["bao"] == {"seat": "W", "case": "full-colour"}
    assert out["payments"] == {"E": 0, "S": 64, "W": -64, "N": 0}


def test_a_suit_tile_that_wins_half_colour_is_no_full_colour_bao():
    out = win(concealed="23m11z", melds=["pong 111m", "chow 234m", "pong 999m"],
              win_tile="4m", discarder="W")
    assert "bao" not in out


@pytest.mark.parametrize(("rules", "left", "liable"), [
    ("standard", 3, True), ("standard", 4, False), ("menqing", 5, True), ("menqing", 6, False),
])
def test_fresh_tile_near_the_end_of_the_wall(rules, left, liable):
    out = win(rules, concealed="234m567p678s5s", melds=["pong 777z"], win_tile="5s",
              discarder="E", fresh=True, tiles_left=left)
    assert ("bao" in out) is liable
    if liable:
        assert out["payments"] == {"E": -8, "S": 8, "W": 0, "N": 0}


def test_a_seen_tile_near_the_end_is_no_fresh_tile_bao():
    out = win(concealed="234m567p678s5s", melds=["pong 777z"], win_tile="5s",
              discarder="E", fresh=False, tiles_left=1)
    assert "bao" not in out


def test_menqing_all_honours_won_for_a_player_showing_three_honour_sets():
    out = win("menqing", concealed="333z4z", melds=["pong 555z", "pong 666z", "pong 111z"],
              win_tile="4z", discarder="N", seat="W")
    assert out["bao"]["case"] == "full-colour-or-honours-or-terminals"


def test_liability_from_an_earlier_pong_applies_to_a_self_drawn_win():
    out = win(concealed="234m77p11z", melds=["pong 555z", "pong 666z"], win_tile="7p",
              self_drawn=True, liable="W")
    # Two dragon pongs 2 tai, base 4, self-drawn: 8 from each, all paid by West.
    assert out["payments"] == {"E": 0, "S": 24, "W": -24, "N": 0}


# The engine and the calculator share these functions; the decisions below are where the
# engine's former copy differed (docs/engine.md, "Bao").


def test_exposed_tai_counts_a_total_in_place_of_the_sets_it_describes():
    # Three dragon sets shown are Big Three Dragons, 7 "in total" in standard, not 3 x 1.
    shown = melds("pong 555z", "pong 666z", "kong 7777z")
    assert exposed_tai(shown, [], S, E, STD) == 7
    # ... so South's own wind fed for a Pong is Bao: the face-up tai are already past 5.
    got = claim_liability(STD, shown, [], S, E, Tile.SOUTH, W)
    assert (got.seat, got.case) == (W, "exposed-limit")


def test_a_set_is_worth_the_rule_sets_value(tmp_path):
    path = tmp_path / "double-dragons.toml"
    path.write_text('extends = "standard"\n[scoring.patterns]\ndragon-pong = 2\n')
    rules = load_rules(path)
    # 555z shown (2) + four animals (4 + 1) = 7; at 3 (one dragon set, one animal), a
    # dragon pong worth 2 reaches 5.
    assert exposed_tai(melds("pong 555z"), parse_tiles("1234a"), S, E, rules) == 7
    got = claim_liability(rules, melds("pong 555z"), parse_tiles("1a"), S, E, Tile.RED, W)
    assert got is not None and got.case == "exposed-limit"
    assert claim_liability(STD, melds("pong 555z"), parse_tiles("1a"), S, E, Tile.RED,
                           W) is None


def test_an_automatic_big_three_dragons_completed_by_the_discard_is_bao():
    # No regular shape: the automatic preset's Big Three Dragons (limit 5, base 32) won on
    # North's 7z, the third copy: North pays 64 + 32 + 32.
    out = win("automatic", concealed="77z1m5p9s2m6p", melds=["pong 555z", "pong 666z"],
              win_tile="7z", discarder="N")
    assert out["bao"] == {"seat": "N", "case": "third-dragon"}
    assert out["payments"] == {"E": 0, "S": 128, "W": 0, "N": -128}
