"""The observation is read from the seat's own view: nothing hidden from it changes it."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
import pytest

from sgmahjong.env import MahjongEnv, encode, env, unpack
from sgmahjong.env.observation import MAX_DISCARDS, SIZE
from sgmahjong.game.state import TableState
from sgmahjong.game.view import view
from sgmahjong.rules import PRESETS
from sgmahjong.tiles import Seat, Tile, parse_tiles

from .helpers import masked_random


def hidden_changed(state: TableState, seat: Seat) -> TableState:
    """The state with everything ``seat`` cannot see changed: the other seats' concealed
    tiles (all replaced by ids of 1m), their last draws and passed claims, and the wall
    order reversed."""
    other = copy.copy(state)
    other.public_cache = None
    other.seats = [s if n == seat else dataclasses.replace(
        s, concealed=(0,) * len(s.concealed), last_drawn=None, passed=frozenset())
        for n, s in enumerate(state.seats)]
    assert state.wall is not None
    other.wall = dataclasses.replace(state.wall, order=tuple(reversed(state.wall.order)))
    return other


def check_every_seat(e: MahjongEnv, agent: str) -> None:
    assert e.game is not None
    state = e.game.state
    waiting = e.game.waiting_for()
    for a in e.agents:
        seat = e.seat_of(a)
        obs = e.observe(a)["observation"]
        assert obs.shape == (SIZE,)
        st = e.match.state if e.match is not None else None
        scores = None if st is None else [st.scores[st.player_at(s)] for s in Seat]
        # A seat not asked sees no decision fields (tests/env/test_hidden.py).
        asked = seat in waiting
        assert np.array_equal(obs, encode(view(state, seat), scores, asked=asked))
        assert np.array_equal(obs, encode(view(hidden_changed(state, seat), seat), scores,
                                          asked=asked))


@pytest.mark.parametrize("preset", PRESETS)
def test_observation_depends_only_on_the_seats_view(preset: str) -> None:
    for seed in range(2):
        e = env(preset)
        e.reset(seed=seed)
        for _ in masked_random(e, seed, check_every_seat):
            pass


def test_match_observation_depends_only_on_the_seats_view() -> None:
    e = env("garden", mode="match", quick=True)
    e.reset(seed=4)
    steps = sum(1 for _ in masked_random(e, 4, check_every_seat))
    assert steps > 0


def test_the_check_would_see_a_change_of_own_tiles() -> None:
    """Counter-check: the same comparison fails when the seat's own tiles change."""
    e = env()
    e.reset(seed=1)
    state = e.game.state
    mine = dataclasses.replace(state.seats[Seat.EAST], concealed=(0,) * 14)
    changed = copy.copy(state)
    changed.public_cache = None
    changed.seats = [mine, *state.seats[1:]]
    assert not np.array_equal(encode(view(state, Seat.EAST)),
                              encode(view(changed, Seat.EAST)))


def test_fields_read_back_what_the_view_holds() -> None:
    e = env()
    e.reset(seed=11)
    v = e.game.view(Seat.EAST)
    f = unpack(e.observe("player_0")["observation"])
    held = [t for t in v.concealed if t < 34]
    assert f["hand"].sum() == len(held) == 14     # East holds 14 before its first discard
    assert all(f["hand"][t] == held.count(t) for t in set(held))
    assert f["seat_wind"].tolist() == [1, 0, 0, 0]
    assert f["round_wind"].tolist() == [1, 0, 0, 0]
    assert f["turn"].tolist() == [1, 0, 0, 0]          # East (itself) is on turn
    assert f["phase"].tolist() == [1, 0, 0, 0]         # the turn phase
    assert f["concealed_counts"].tolist() == [14, 13, 13, 13]
    assert f["wall"][0] == v.wall_remaining
    # South's view: the same table from the next seat, so East is "on its left" (index 3)
    south = unpack(e.observe("player_1")["observation"])
    assert south["turn"].tolist() == [0, 0, 0, 1]
    assert south["concealed_counts"].tolist() == [13, 13, 13, 14]
    assert south["seat_wind"].tolist() == [0, 1, 0, 0]


def test_discards_are_kept_in_order_as_kind_plus_one() -> None:
    from sgmahjong.env.observation import OFFSET
    from sgmahjong.game.view import PlayerView, SeatView
    e = env()
    e.reset(seed=5)
    v = e.game.view(Seat.EAST)
    tiles = tuple(parse_tiles("1m9p7z"))
    seats = list(v.seats)
    seats[Seat.SOUTH] = dataclasses.replace(seats[Seat.SOUTH], discards=tiles)
    w = dataclasses.replace(v, seats=tuple(seats))
    assert isinstance(w, PlayerView) and isinstance(seats[1], SeatView)
    obs = encode(w)
    at = OFFSET["discards"] + MAX_DISCARDS * 1          # South: the seat on East's right
    assert obs[at:at + 4].tolist() == [Tile.M1 + 1, Tile.P9 + 1, Tile.RED + 1, 0]
