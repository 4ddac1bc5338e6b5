"""Scenario helpers: build a wall from the hands and draws a test names, and script play.

``build_wall(east=..., south=..., west=..., north=..., draws=..., replacements=...)`` lays
the wall out as the engine deals it: East's 13, South's 13, West's 13, North's 13 from the
front, then East's 14th (the 14th tile of ``east`` if given, else the first of ``draws``),
then the other live draws in order; ``replacements`` are taken from the back, first one
last in the wall. Every other tile fills the middle (bonus tiles in the centre).
"""

from __future__ import annotations

from sgmahjong.game import Game, IllegalAction, Pass
from sgmahjong.game.actions import Action, Discard
from sgmahjong.tiles import ALL_TILES, Seat, Tile, copies_in_set, parse_tiles

E, S, W, N = Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH


def build_wall(east: str = "", south: str = "", west: str = "", north: str = "",
               draws: str = "", replacements: str = "") -> list[Tile]:
    hands = [parse_tiles(h) for h in (east, south, west, north)]
    draw_list = parse_tiles(draws)
    repl = parse_tiles(replacements)
    if len(hands[0]) == 14:
        draw_list.insert(0, hands[0].pop())
    left = {t: copies_in_set(t) for t in ALL_TILES}
    for t in [*hands[0], *hands[1], *hands[2], *hands[3], *draw_list, *repl]:
        left[t] -= 1
        assert left[t] >= 0, f"too many {t.text} in the scenario"
    playable = [t for t in ALL_TILES if t < 34 for _ in range(left[t])]
    bonus = [t for t in ALL_TILES if t >= 34 for _ in range(left[t])]
    filler = iter(playable)
    for h in hands:
        assert len(h) <= 13
        while len(h) < 13:
            h.append(next(filler))
    rest = list(filler)
    mid = len(rest) // 2
    middle = rest[:mid] + bonus + rest[mid:]
    return [*hands[0], *hands[1], *hands[2], *hands[3], *draw_list, *middle, *reversed(repl)]


def new_game(rules: str = "standard", **wall: str) -> Game:
    return Game.new(rules, wall=build_wall(**wall))


def t(text: str) -> Tile:
    return Tile.parse(text)


def discard(g: Game, seat: Seat, tile: str) -> None:
    assert g.pending() == {seat}, f"{seat.name} is not alone to act: {g.pending()}"
    g.submit(seat, Discard(t(tile)))


def answer(g: Game, choices: dict[Seat, Action] | None = None) -> None:
    """Submit the given choices in a claim window; every other waiting seat passes.
    (Does nothing when the window already closed because nobody could claim.)"""
    choices = choices or {}
    if g.state.phase.value == "turn" and not choices:
        return
    for seat, action in choices.items():
        g.submit(seat, action)
    for seat in sorted(g.waiting_for()):
        if seat not in choices:
            g.submit(seat, Pass())


def events_of(g: Game, kind: type) -> list:
    return [e for e in g.events if isinstance(e, kind)]


def step_all(g: Game) -> None:
    """Each waiting seat discards the tile it just drew, else takes its first Discard or Pass."""
    for seat in sorted(g.waiting_for()):
        legal = g.legal_actions(seat)
        drawn = g.view(seat).last_drawn
        if drawn is not None and Discard(drawn) in legal:
            g.submit(seat, Discard(drawn))
        else:
            g.submit(seat, next(a for a in legal if isinstance(a, (Discard, Pass))))


def run_to_end(g: Game) -> None:
    """Everyone passes claims and discards the tile just drawn (or the first legal discard)."""
    while not g.ended:
        for seat in sorted(g.waiting_for()):
            legal = g.legal_actions(seat)
            v = g.view(seat)
            if v.turn == seat and v.phase.value == "turn":
                drawn = v.last_drawn
                choice = Discard(drawn) if drawn is not None and Discard(drawn) in legal else None
                if choice is None:
                    choice = next((a for a in legal if isinstance(a, Discard)), Pass())
                g.submit(seat, choice)
            else:
                g.submit(seat, Pass())


__all__ = [
    "E",
    "IllegalAction",
    "N",
    "S",
    "W",
    "answer",
    "build_wall",
    "discard",
    "events_of",
    "new_game",
    "run_to_end",
    "step_all",
    "t",
]
