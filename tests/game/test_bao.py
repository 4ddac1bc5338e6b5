"""Bao (RULES.md, 'Bao cases') played end to end: given walls, scripted actions, and the
payments worked out by hand from RULES.md. The cases themselves are
:mod:`sgmahjong.scoring.bao` (the engine and the calculator share it; see tests/test_bao.py).

Standard payments: base = 2^tai (tai capped at 5, base 32); a discard win costs the
discarder 2 x base and the others 1 x base each; self-drawn, each of three pays 2 x base.
Under Bao the liable player pays all of it."""

from __future__ import annotations

import pytest

from sgmahjong.game import BaoIncurred, Settled, Won
from sgmahjong.game.actions import Pong, Win
from sgmahjong.tiles import ALL_TILES, Tile, copies_in_set, format_tiles, parse_tiles

from .tables import E, N, S, W, answer, discard, events_of, new_game, step_all


def baos(g) -> list[tuple]:
    return [(b.seat, b.winner, b.case, b.tile.text) for b in events_of(g, BaoIncurred)]


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


# South pongs East's 1z, West's 2z and 3z, then North's 4z: the fourth wind, North liable.
# East later discards 9s and South wins on it (Big Four Winds, at the cap).
FOURTH_WIND = dict(
    east="1z258m369p147s9s567z", south="11223344z19m19p9s", west="23z147m258p369s56z",
    north="4z369m147p258s567z", draws="2m 3p 4s 5m 6p 7s 8m")


def test_feeding_the_fourth_wind_makes_the_feeder_pay_for_a_later_discard_win() -> None:
    g = new_game("standard", **FOURTH_WIND)
    discard(g, E, "1z")
    answer(g, {S: Pong()})
    discard(g, S, "1m")
    answer(g)
    discard(g, W, "2z")
    answer(g, {S: Pong()})
    discard(g, S, "9m")
    answer(g)
    discard(g, W, "3z")
    answer(g, {S: Pong()})
    discard(g, S, "1p")
    answer(g)
    discard(g, W, "4s")
    answer(g)
    assert baos(g) == []
    discard(g, N, "4z")
    answer(g, {S: Pong()})
    assert baos(g) == [(N, S, "fourth-wind", "4z")]
    discard(g, S, "9p")
    for seat, tile in ((W, "6p"), (N, "7s"), (E, "9s")):
        answer(g)
        discard(g, seat, tile)
    answer(g, {S: Win()})
    (won,) = events_of(g, Won)
    assert won.seat == S and won.discarder == E and won.tai == 5
    # Normally East 64, West 32, North 32; North pays all 128, East nothing.
    assert events_of(g, Settled)[0].deltas == (0, 128, 0, -128)
    assert baos(g) == [(N, S, "fourth-wind", "4z")]  # no second liability at the win


# North is dealt all four animals (4 x 1 + 1 for the set: 5 face-up tai) and waits on 5z
# for the eye. West feeds it: a Dragon to a player already at 5, used for a Win.
EXPOSED_LIMIT = dict(
    east="147m258p369s1234z6z", south="369m147p258s1234z", west="5z147m258p369s777z",
    north="1234a123m456p789s", replacements="2s3s4s5z", draws="8m 8p")


def test_a_dragon_fed_to_a_player_at_five_face_up_tai_is_bao_even_as_the_eye() -> None:
    g = new_game("standard", **EXPOSED_LIMIT)
    discard(g, E, "6z")
    answer(g)
    discard(g, S, "8m")
    answer(g)
    discard(g, W, "5z")
    answer(g, {N: Win()})
    (won,) = events_of(g, Won)
    assert won.seat == N and won.tai == 5
    assert baos(g) == [(W, N, "exposed-limit", "5z")]
    # Normally West 64, East and South 32 each: West pays all 128.
    assert events_of(g, Settled)[0].deltas == (0, 0, -128, 128)


# West pongs 1s (East), 5s (North) and 9s (East): three bamboo sets shown. South's 7s
# completes West's Full Colour (4 tai, base 16).
FULL_COLOUR = dict(
    east="1s9s147m258p1234z3m6m", south="7s369m147p1234z5p8p", west="11s55s99s68s22s567z",
    north="5s258m369p3s4s567z4z", draws="1p1p2p2p3p3p")


def test_a_suit_tile_completing_full_colour_for_three_shown_sets_is_bao() -> None:
    g = new_game("standard", **FULL_COLOUR)
    discard(g, E, "1s")
    answer(g, {W: Pong()})
    discard(g, W, "5z")
    answer(g)
    discard(g, N, "5s")
    answer(g, {W: Pong()})
    discard(g, W, "6z")
    answer(g)
    discard(g, N, "1p")
    answer(g)
    discard(g, E, "9s")
    answer(g, {W: Pong()})
    discard(g, W, "7z")
    for seat, tile in ((N, "2p"), (E, "3p"), (S, "7s")):
        answer(g)
        discard(g, seat, tile)
    answer(g, {W: Win()})
    (won,) = events_of(g, Won)
    assert won.seat == W and won.tai == 4
    assert [p.id for p in won.patterns] == ["full-colour"]
    assert baos(g) == [(S, W, "full-colour", "7s")]
    # Normally South 32, East and North 16 each: South pays all 64.
    assert events_of(g, Settled)[0].deltas == (0, -64, 64, 0)


# Everyone discards what they draw; North waits on 5s (Red pong: 1 tai, base 2), which
# nobody discards until the draw ``at`` (0 is East's 14th tile). After live draw k,
# 80 - k playable tiles are left; the fresh-tile case needs fewer than 4 at the discard.
FRESH = dict(east="123456z19m19p19s2m", south="123456z28m28p28s3m",
             west="123456z37m37p37s4m", north="123m456p789s777z5s")


def _fresh_draws(at: int) -> str:
    used = parse_tiles("".join(FRESH.values()))
    left = {t: copies_in_set(t) for t in ALL_TILES}
    for x in used:
        left[x] -= 1
    left[Tile.S5] = left[Tile.RED] = 0   # North's wait stays fresh; no kong for North
    pool = [t for t in ALL_TILES if t < 34 for _ in range(left[t])]
    draws = pool[:80]
    draws.insert(at, Tile.S5)
    return format_tiles(draws, sort=False)


@pytest.mark.parametrize("at, discarder, liable, deltas", [
    (76, E, None, (-4, -2, -2, 8)),      # 4 playable tiles left: no Bao
    (77, S, S, (0, -8, 0, 8)),           # 3 left: the discarder pays all 8
])
def test_a_fresh_tile_that_wins_near_the_end_of_the_wall(at, discarder, liable,
                                                          deltas) -> None:
    g = new_game("standard", draws=_fresh_draws(at), **FRESH)
    while Win() not in g.legal_actions(N):
        assert not g.ended
        step_all(g)
    assert g.state.turn == discarder and g.view(N).window_tile == Tile.S5
    answer(g, {N: Win()})
    (won,) = events_of(g, Won)
    assert won.seat == N and won.discarder == discarder and won.tai == 1
    assert baos(g) == ([] if liable is None else [(liable, N, "fresh-tile", "5s")])
    assert events_of(g, Settled)[0].deltas == deltas
