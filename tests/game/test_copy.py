"""Rule sets and games survive pickle and deepcopy, and a copied game plays on exactly as
its original (multiprocessing, search over copies and checkpoints need it)."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from sgmahjong.game.engine import Game
from sgmahjong.rules import PRESETS, Ruleset, load_rules
from sgmahjong.rules.loading import rules_from_dict
from sgmahjong.tiles import Seat

COPIES: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda x: pickle.loads(pickle.dumps(x)),
    "deepcopy": copy.deepcopy,
}


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("preset", PRESETS)
def test_a_ruleset_round_trips(preset: str, how: str) -> None:
    rules = load_rules(preset)
    again = COPIES[how](rules)
    assert again == rules
    assert again.digest() == rules.digest()
    # Still read-only, as the loader made it.
    with pytest.raises(TypeError):
        again.scoring.patterns["dragon-pong"] = None  # type: ignore[index]


@pytest.mark.parametrize("how", COPIES)
def test_a_ruleset_built_directly_round_trips(how: str) -> None:
    rules = Ruleset()   # a plain dict of patterns, not the loader's read-only one
    assert COPIES[how](rules) == rules


def test_an_unpickled_ruleset_is_the_equal_one_already_met() -> None:
    # a server's AI worker receives the table's rules with every job: one object for all
    # of them keeps the memos keyed on the rules object warm and holding one copy
    standard, casual = load_rules("standard"), load_rules("casual")
    first = pickle.loads(pickle.dumps(standard))
    assert pickle.loads(pickle.dumps(standard)) is first
    other = pickle.loads(pickle.dumps(casual))
    assert other is not first and other == casual
    # a house rule changes the rules: never served another table's
    house = rules_from_dict({"extends": "standard", "scoring": {"minimum_tai": 2}})
    again = pickle.loads(pickle.dumps(house))
    assert again is not first and again.scoring.minimum_tai == 2


def _first_legal(g: Game) -> None:
    """Play one decision: each waiting seat its first legal action."""
    for seat in sorted(g.waiting_for()):
        g.submit(seat, g.legal_actions(seat)[0])


@pytest.mark.parametrize("how", COPIES)
def test_a_copied_game_plays_on_like_its_original(how: str) -> None:
    g = Game.new("standard", seed=5)
    for _ in range(15):
        _first_legal(g)
    twin = COPIES[how](g)
    assert twin.state.rules == g.state.rules
    while not g.ended:
        assert twin.waiting_for() == g.waiting_for()
        for seat in Seat:
            assert twin.view(seat) == g.view(seat)
            assert twin.legal_actions(seat) == g.legal_actions(seat)
        _first_legal(g)
        _first_legal(twin)
    assert twin.ended
    assert twin.events == g.events
    assert twin.outcome() == g.outcome()
