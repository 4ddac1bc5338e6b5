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


def test_greedy_discard_matches_keep_value_min() -> None:
    """The one-pass discard choice is min(keep_value, ties to the highest tile) over the
    legal discards, and returns the legal list's own Discard object."""
    from sgmahjong.agents.baseline import GreedyAgent, keep_value
    from sgmahjong.game import Game
    from sgmahjong.game.actions import Discard

    agent = GreedyAgent()
    checked = 0
    for seed in range(8):
        g = Game.new("standard", seed=seed)
        while not g.ended:
            for seat in sorted(g.waiting_for()):
                v, legal = g.view(seat), g.legal_actions(seat)
                choice = agent.act(v, legal)
                discards = [a.tile for a in legal if isinstance(a, Discard)]
                if isinstance(choice, Discard):
                    counts = [0] * 34
                    for t in v.concealed:
                        if t < 34:
                            counts[t] += 1
                    want = min(discards, key=lambda t: (keep_value(v, counts, t), -t))
                    assert choice.tile == want
                    assert any(choice is a for a in legal)
                    checked += 1
                g.submit(seat, choice)
    assert checked > 100
