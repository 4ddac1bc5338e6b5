"""The JSON form of actions and events: stable, symmetric, and strict on input."""

from __future__ import annotations

import pytest

from sgmahjong.game import Action, Event, Game, Pass
from sgmahjong.game.actions import Chow, Discard, Kong
from sgmahjong.game.codec import MessageError
from sgmahjong.game.events import Discarded, Drew
from sgmahjong.tiles import Seat, Tile


def test_event_json_is_the_documented_form() -> None:
    assert Discarded(Seat.EAST, Tile.EAST).to_json() == {"type": "discarded", "seat": 0,
                                                          "tile": "1z"}
    assert Drew(Seat.SOUTH, Tile.P5, True).to_json() == {
        "type": "drew", "seat": 1, "tile": "5p", "replacement": True}


@pytest.mark.parametrize("action", [Discard(Tile.M1), Chow(Tile.S7), Kong(Tile.RED, "added"),
                                    Pass()])
def test_actions_round_trip(action: Action) -> None:
    assert Action.from_json(action.to_json()) == action


def test_every_event_of_a_hand_round_trips() -> None:
    g = Game.new("standard", seed=12)
    while not g.ended:
        for seat in sorted(g.waiting_for()):
            g.submit(seat, g.legal_actions(seat)[0])
    for e in g.events:
        assert Event.from_json(e.to_json()) == e


@pytest.mark.parametrize("data, message", [
    ({"type": "discarded", "seat": 0}, "missing field 'tile'"),
    ({"type": "discarded", "seat": 5, "tile": "1z"}, "seat"),
    ({"type": "nope"}, "unknown type"),
    ({"type": "discarded", "seat": 0, "tile": "1z", "x": 1}, "unknown field"),
])
def test_bad_messages_are_rejected(data: dict, message: str) -> None:
    with pytest.raises(MessageError, match=message):
        Event.from_json(data)


def test_an_action_is_not_an_event() -> None:
    with pytest.raises(MessageError):
        Event.from_json({"type": "pass"})
