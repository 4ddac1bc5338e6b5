"""Walls and opponents for the table tests: a wall laid out from the hands and draws a test
names, and a passive opponent (throws what it draws, never claims, never wins; the eager one also
takes every win), so that a hand goes exactly as the test says whatever the real levels
would do."""

from __future__ import annotations

from collections.abc import Sequence

from sgmahjong.agents import register_agent
from sgmahjong.game import Action, Discard, Pass, PlayerView, Win
from sgmahjong.tiles import ALL_TILES, Tile, copies_in_set, parse_tiles


def build_wall(east: str = "", south: str = "", west: str = "", north: str = "",
               draws: str = "") -> list[Tile]:
    """East's 13 (+ the 14th), South's, West's and North's 13 from the front, then the live
    draws in order; every other tile fills the middle (bonus tiles in the centre)."""
    hands = [parse_tiles(h) for h in (east, south, west, north)]
    draw_list = parse_tiles(draws)
    if len(hands[0]) == 14:
        draw_list.insert(0, hands[0].pop())
    left = {t: copies_in_set(t) for t in ALL_TILES}
    for t in [*hands[0], *hands[1], *hands[2], *hands[3], *draw_list]:
        left[t] -= 1
        assert left[t] >= 0, f"too many {t.text} in the scenario"
    playable = [t for t in ALL_TILES if t < 34 for _ in range(left[t])]
    # spread the filler so that the opponents' hands hold few pairs
    playable = playable[::4] + playable[1::4] + playable[2::4] + playable[3::4]
    bonus = [t for t in ALL_TILES if t >= 34 for _ in range(left[t])]
    filler = iter(playable)
    for h in hands:
        while len(h) < 13:
            h.append(next(filler))
    rest = list(filler)
    mid = len(rest) // 2
    return [*hands[0], *hands[1], *hands[2], *hands[3], *draw_list,
            *rest[:mid], *bonus, *rest[mid:]]


class Passive:
    """Throws the tile it drew (or its first legal discard); passes every claim."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if view.last_drawn is not None and Discard(view.last_drawn) in legal:
            return Discard(view.last_drawn)
        first = next((a for a in legal if isinstance(a, Discard)), None)
        if first is not None:
            return first
        return Pass() if Pass() in legal else legal[0]


class Eager(Passive):
    """Plays as :class:`Passive`, but wins whenever it can (on a discard or self-drawn)."""

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return Win() if Win() in legal else super().act(view, legal)


register_agent("passive", Passive)
register_agent("eager", Eager)
PASSIVE = ("passive", "passive", "passive")
