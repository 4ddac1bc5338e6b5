"""The end of the wall (RULES.md row 'replacement draws come from, and the end of the wall'):
same-wall (every draw counts, the final playable tile is the draw leaving 15, nothing follows
it) and dead-wall (the last 15 tiles only feed replacements)."""

from __future__ import annotations

import pytest

from sgmahjong.game import Discard, HandDrawn, Kong, Pass, Settled, Win, Won
from sgmahjong.game.wall import NUM_TILES, WallState
from sgmahjong.rules import load_rules
from sgmahjong.tiles import ALL_TILES, Tile, copies_in_set, format_tiles, parse_tiles

from .tables import E, events_of, new_game, run_to_end, step_all

# All twelve bonus tiles are dealt (flowers and animals to North, seasons to South), so the
# deal takes 53 tiles from the front and 12 replacements from the back: 83 remain.
# East waits on 7z for the eye (111z: round wind).
EAST = "123m456p789s111z7z9m"
NORTH = "1234f1234a"
SOUTH = "1234g"


def _junk_draws(n: int, last: str) -> str:
    """``n`` live draws, the last one ``last``; the others are tiles nobody here uses."""
    used = parse_tiles(EAST + NORTH + SOUTH + last)
    left = {t: copies_in_set(t) for t in ALL_TILES}
    for x in used:
        left[x] -= 1
    left[Tile.RED] = 0
    pool = [t for t in ALL_TILES if t < 34 for _ in range(left[t])]
    return format_tiles(pool[:n - 1], sort=False) + last


def _same_wall_game(rules: str = "standard"):
    # 83 - 15 = 68 live draws: South first, so the 68th goes to East.
    return new_game(rules, east=EAST, south=SOUTH, north=NORTH, draws=_junk_draws(68, "7z"))


def _play_to_final_tile(g) -> None:
    while not (g.view(E).draw_final and g.pending() == {E}):
        assert not g.ended
        step_all(g)


def test_same_wall_final_tile_may_win_but_not_be_discarded() -> None:
    g = _same_wall_game()
    _play_to_final_tile(g)
    assert g.view(E).wall_remaining == 15
    legal = g.legal_actions(E)
    assert Win() in legal and Pass() in legal
    assert not any(isinstance(a, Discard) for a in legal)
    g.submit(E, Win())
    (won,) = events_of(g, Won)
    assert "last-tile" in won.context
    # 111z is East's seat wind and the round wind (2) + last tile 1 = 3 tai;
    # self-drawn: each pays 2 x base 8.
    assert won.tai == 3 and events_of(g, Settled)[0].deltas == (48, -16, -16, -16)


def test_same_wall_hand_is_drawn_after_the_final_tile() -> None:
    g = _same_wall_game()
    _play_to_final_tile(g)
    g.submit(E, Pass())
    assert events_of(g, HandDrawn)[0].reason == "final-tile"
    assert g.state.wall.remaining == 15


def test_same_wall_draw_due_with_15_left_is_a_draw() -> None:
    g = new_game("standard", south=SOUTH, north=NORTH)
    run_to_end(g)
    assert g.ended and g.state.wall.remaining == 15
    assert events_of(g, HandDrawn)[0].reason in ("final-tile", "replacement")


def test_dead_wall_live_draws_stop_at_the_dead_wall() -> None:
    g = new_game("limit", east=EAST, south=SOUTH, north=NORTH)
    run_to_end(g)
    w = g.state.wall
    assert events_of(g, HandDrawn)[0].reason == "wall"
    assert w.front == NUM_TILES - 15 and w.replacements_remaining == 15 - 12


def test_dead_wall_last_live_tile_is_followed_by_a_discard() -> None:
    g = new_game("limit", east=EAST, south=SOUTH, north=NORTH, draws=_junk_draws(80, "9p"))
    while g.state.wall.live_remaining > 0:
        assert not g.ended
        step_all(g)
    assert g.view(E).draw_final
    assert any(isinstance(a, Discard) for a in g.legal_actions(E))


@pytest.mark.parametrize("mode, front, back, live, replacement", [
    ("same-wall", 100, 116, True, True),      # 16 left: one more draw of either kind
    ("same-wall", 100, 115, False, False),    # 15 left: nothing more
    ("dead-wall", 132, 148, True, True),
    ("dead-wall", 133, 148, False, True),     # live wall empty, dead wall full
    ("dead-wall", 120, 133, True, False),     # dead wall used up
])
def test_which_draws_are_possible(mode: str, front: int, back: int, live: bool,
                                  replacement: bool) -> None:
    rules = load_rules("standard" if mode == "same-wall" else "limit")
    w = WallState.new(tuple(range(NUM_TILES)), rules.wall)
    w.front, w.back = front, back
    assert (w.can_draw(False), w.can_draw(True)) == (live, replacement)


def test_dead_wall_replacement_due_with_the_dead_wall_empty_is_a_draw() -> None:
    # The twelve bonus tiles dealt to South and North take 12 of the 15 dead-wall tiles.
    # East's first turn: four concealed kongs. The first three take the last three
    # replacements (each a 4m, making the fourth kong); the fourth finds the dead wall empty.
    g = new_game("limit", east="1111m2222m3333m4m5z", south=SOUTH, north=NORTH,
                 replacements="5p6p7p8p 5s6s7s8s 6z6z6z7z 4m4m4m")
    assert g.state.wall.replacements_remaining == 3
    for tile in ("1m", "2m", "3m", "4m"):
        assert not g.ended
        assert Kong(Tile.parse(tile), "concealed") in g.legal_actions(E)
        g.submit(E, Kong(Tile.parse(tile), "concealed"))
    assert g.ended and events_of(g, HandDrawn)[0].reason == "replacement"
    assert g.state.wall.replacements_remaining == 0
    assert g.state.wall.live_remaining == NUM_TILES - 15 - 53  # no live draw was taken
    assert g.outcome().kong_declared and g.outcome().deltas == (0, 0, 0, 0)
