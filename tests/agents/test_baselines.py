"""The baseline players: random is reproducible from its seed, greedy wins when it can and
throws the tile furthest from any set."""

from __future__ import annotations

import dataclasses

import pytest

from sgmahjong.agents import Agent, UnknownAgent, agent_names, make_agent
from sgmahjong.errors import SgmahjongError
from sgmahjong.game import Discard, Game, Match, Pass, Pong, Win
from sgmahjong.game.view import PlayerView
from sgmahjong.tiles import Seat, Tile, parse_tiles


def east_view(concealed: str) -> PlayerView:
    v = Game.new("standard", seed=7).view(Seat.EAST)
    return dataclasses.replace(v, concealed=tuple(parse_tiles(concealed)))


def discards_of(v: PlayerView) -> list[Discard]:
    return [Discard(t) for t in sorted(set(v.concealed))]


def test_registry_has_the_baselines_and_they_are_agents() -> None:
    assert {"random", "greedy"} <= set(agent_names())
    assert isinstance(make_agent("greedy"), Agent)


def test_unknown_player_name_lists_the_known_ones() -> None:
    with pytest.raises(UnknownAgent, match=r"known players: .*greedy.*random") as exc:
        make_agent("owl-9000")
    assert isinstance(exc.value, SgmahjongError)


def test_random_player_is_deterministic_given_its_seed() -> None:
    def play(seed: int) -> tuple[int, ...]:
        agents = [make_agent("random", seed + p).act for p in range(4)]
        return Match("garden", seed=11, quick=True).play(agents).scores

    def actions(seed: int) -> list[object]:
        v = east_view("123m456p789s1z2z3z4z5z")
        a = make_agent("random", seed)
        return [a.act(v, discards_of(v)) for _ in range(20)]

    assert actions(3) == actions(3)
    assert actions(3) != actions(4)
    assert play(5) == play(5)


def test_greedy_takes_a_win_whenever_offered() -> None:
    v = east_view("123m456p789s11z22z3z")
    assert make_agent("greedy").act(v, [Pass(), Pong(), Win()]) == Win()


@pytest.mark.parametrize("concealed, thrown", [
    ("123m456p789s55p4z1z", "4z"),        # isolated unvalued honour first (4z: not E seat)
    ("123m456p789s55p1s4p", "1s"),        # then the isolated terminal
    ("123m456p789s55p5s9m", "9m"),        # terminal before a middle tile with no neighbour
    ("123m456p789s11z3s8m", "8m"),        # a pair of honours is kept
], ids=["honour", "terminal", "terminal-vs-middle", "keeps-honour-pair"])
def test_greedy_discards_the_tile_furthest_from_a_set(concealed: str, thrown: str) -> None:
    v = east_view(concealed)
    assert make_agent("greedy").act(v, discards_of(v)) == Discard(Tile.parse(thrown))


def test_greedy_passes_a_pong_of_an_unvalued_tile() -> None:
    v = dataclasses.replace(east_view("11m456p789s55p123s"), window_tile=Tile.M1)
    assert make_agent("greedy").act(v, [Pong(), Pass()]) == Pass()
