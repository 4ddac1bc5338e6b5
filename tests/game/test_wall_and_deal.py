"""The wall (ids, seeded shuffle, given walls) and the deal (RULES.md: 13 each, 14th to East,
bonus tiles exposed and replaced from the back, repeatedly, in seat order)."""

from __future__ import annotations

import pytest

from sgmahjong.game import BonusExposed, Dealt, Drew, Game
from sgmahjong.game.prng import Xoshiro256, _shuffle_on_halves, derive_seed, shuffle, splitmix64
from sgmahjong.game.wall import (
    KIND,
    WallError,
    shuffled_wall,
    wall_from_ids,
    wall_from_text,
    wall_text,
)
from sgmahjong.tiles import Tile

from .tables import E, N, S, W, build_wall, events_of, new_game, t


def test_splitmix64_reference_vector() -> None:
    # First output of splitmix64 for seed 1234567 in the reference implementation.
    assert splitmix64(1234567)[0] == 6457827717110365317


def test_xoshiro256starstar_reference_vector() -> None:
    # xoshiro256** from state (1, 2, 3, 4): the reference sequence.
    rng = Xoshiro256(0)
    rng._s = [1, 2, 3, 4]
    assert [rng.next64() for _ in range(6)] == [
        11520, 0, 1509978240, 1215971899390074240, 1216172134540287360, 607988272756665600]


@pytest.mark.parametrize("n", [2, 3, 148, 1000])
def test_both_forms_of_the_shuffle_are_fisher_yates_with_below(n: int) -> None:
    # The plain definition: for i from the end, swap with below(i + 1). The inlined 64-bit
    # form (run as Python) and the one on 32-bit halves (run compiled) give the same order
    # and leave the generator in the same state.
    for seed in range(40):
        plain, rng = list(range(n)), Xoshiro256(seed)
        for i in range(n - 1, 0, -1):
            j = rng.below(i + 1)
            plain[i], plain[j] = plain[j], plain[i]
        fast, fast_rng = list(range(n)), Xoshiro256(seed)
        shuffle(fast, fast_rng)
        halves = list(range(n))
        state = _shuffle_on_halves(halves, Xoshiro256(seed)._s)
        assert fast == plain and halves == plain
        assert fast_rng._s == rng._s and state == rng._s


def test_tile_ids_map_four_copies_then_bonus() -> None:
    assert [KIND[i] for i in (0, 3, 4, 135)] == [Tile.M1, Tile.M1, Tile.M2, Tile.RED]
    assert [KIND[i] for i in range(136, 148)] == list(Tile)[34:]


def test_seeded_wall_is_a_fixed_permutation() -> None:
    wall = shuffled_wall(2024)
    assert sorted(wall) == list(range(148))
    assert wall == shuffled_wall(2024)
    assert wall != shuffled_wall(2025)
    # Pinned so that a change to the PRNG or shuffle cannot pass unnoticed.
    assert wall_text(shuffled_wall(0))[:24] == "3p2m572p96125s2g6p3a3p4g"


def test_derived_seeds_differ_by_index() -> None:
    assert len({derive_seed(5, i) for i in range(100)}) == 100


def test_wall_given_as_text_round_trips() -> None:
    wall = shuffled_wall(9)
    assert wall_from_text(wall_text(wall)) == wall
    assert wall_from_ids(list(wall)) == wall


@pytest.mark.parametrize("text, message", [
    ("1m" * 148, "holds 4 of 1m"),
    ("123m", "148 tiles"),
])
def test_bad_wall_is_rejected(text: str, message: str) -> None:
    with pytest.raises(WallError, match=message):
        wall_from_text(text)


def test_deal_gives_13_each_and_the_14th_to_east() -> None:
    g = new_game(east="19m19p19s1234567z", draws="5m")
    dealt = events_of(g, Dealt)
    assert [d.seat for d in dealt] == [E, S, W, N]
    assert all(len(d.tiles) == 13 for d in dealt)
    assert [len(g.view(s).concealed) for s in (E, S, W, N)] == [14, 13, 13, 13]
    assert g.view(E).last_drawn == t("5m")
    assert g.view(E).wall_remaining == 148 - 53
    assert g.pending() == {E}


def test_deal_bonus_tiles_are_replaced_from_the_back_repeatedly_in_seat_order() -> None:
    g = new_game(east="1f 23m456p789s1234z", south="1a 23p456s789m5677z",
                 replacements="2a 1m 9p", draws="8s")
    bonus_steps = [(type(e).__name__, e.seat, e.tile.text) for e in g.events
                   if isinstance(e, (BonusExposed, Drew))]
    assert bonus_steps == [
        ("BonusExposed", E, "1f"), ("Drew", E, "2a"),   # the replacement is a bonus again
        ("BonusExposed", E, "2a"), ("Drew", E, "1m"),
        ("BonusExposed", S, "1a"), ("Drew", S, "9p"),
        ("Drew", E, "8s"),                              # then East's 14th from the front
    ]
    assert all(d.replacement for d in events_of(g, Drew)[:3])
    assert g.view(E).seats[E].bonus == (t("1f"), t("2a"))
    # Exposed before East's first discard: "initial" for the pair payouts.
    assert {KIND[i].text for i in g.state.initial_bonus} == {"1f", "2a", "1a"}


def test_given_wall_must_be_complete() -> None:
    with pytest.raises(WallError):
        Game.new("standard", wall="123m")


def test_helper_lays_out_hands_draws_and_replacements() -> None:
    wall = build_wall(east="1m" * 3 + "2m" * 3 + "3m" * 3 + "4m" * 3 + "5m", draws="9s",
                      replacements="7z")
    assert [x.text for x in wall[:13]] == ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"]
    assert wall[52].text == "9s" and wall[-1].text == "7z"
    assert len(wall) == 148
