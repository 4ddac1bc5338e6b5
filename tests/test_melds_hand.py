"""Declared sets and hands: notation and shape checks."""

import pytest

from sgmahjong.errors import HandError, MeldError, TileCountError
from sgmahjong.hand import Hand
from sgmahjong.melds import Meld, MeldKind
from sgmahjong.tiles import Tile


@pytest.mark.parametrize(("text", "kind", "first"), [
    ("chow 234s", MeldKind.CHOW, Tile.S2), ("chow 789m", MeldKind.CHOW, Tile.M7),
    ("pong 777z", MeldKind.PONG, Tile.RED), ("kong 2222s", MeldKind.KONG, Tile.S2),
    ("concealed-kong 1111m", MeldKind.CONCEALED_KONG, Tile.M1), ("pong EEE", MeldKind.PONG,
                                                                Tile.EAST),
])
def test_meld_notation(text, kind, first):
    m = Meld.parse(text)
    assert (m.kind, m.tile) == (kind, first)
    assert Meld.parse(m.text) == m


@pytest.mark.parametrize(("text", "why"), [
    ("chow 124s", "consecutive"), ("chow 891m", "consecutive"), ("chow 123z", "consecutive"),
    ("pong 776z", "identical"), ("kong 222s", "4 tiles"), ("pong 1a1a1a", "bonus"),
    ("triple 111m", "unknown meld kind"), ("pong", "expected"), ("chow 12m3p", "consecutive"),
])
def test_bad_melds_are_rejected_with_the_reason(text, why):
    with pytest.raises(MeldError, match=why):
        Meld.parse(text)


def test_only_a_concealed_kong_is_concealed():
    assert Meld.parse("concealed-kong 1111m").is_concealed
    assert not Meld.parse("kong 1111m").is_concealed
    assert not Meld.parse("pong 111m").is_concealed


def test_hand_notation_round_trip():
    h = Hand.parse("123m456p1z, pong 777z, concealed-kong 2222s, bonus 1a2f")
    assert h.size == 13
    assert Hand.parse(h.text) == h
    assert h.bonus == (Tile.ORCHID, Tile.CAT)


def test_bonus_tiles_among_concealed_tiles_are_set_aside():
    h = Hand.parse("123m1a")
    assert h.concealed == (Tile.M1, Tile.M2, Tile.M3)
    assert h.bonus == (Tile.CAT,)


def test_hand_counts_tiles_in_melds_too():
    with pytest.raises(TileCountError, match="6 copies of 7z"):
        Hand.parse("77z, kong 7777z")


def test_hand_rejects_a_fifth_meld():
    with pytest.raises(HandError, match="at most 4"):
        Hand.parse("1m, pong 111p, pong 222p, pong 333p, pong 444p, pong 555p")
