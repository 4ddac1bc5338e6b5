"""The guided first hand: a fixed deal and a coach who walks a newcomer through a draw, a
discard, a claim, a win and the tai breakdown, one step at a time.

The deal is laid out tile by tile, so the hand goes the same way every time: you sit East
(the banker) with a Red Dragon pong already in hand, throw two lone winds, chow the 3
Circles from the player on your left, throw a tile you drew, and win self-drawn on the
5 Bamboo. The opponents follow the script (they throw what they draw and claim nothing);
at each of your decisions the coach asks for exactly one thing:

- a ``read`` step waits for the player to go on (Space in the terminal, a Next button on
  the web);
- an ``act`` step waits for its one action and refuses any other, saying what it asks for.

The terminal plays the lesson on a live :class:`~sgmahjong.game.Game` with
:func:`opponent` in the other seats; the web page is sent :func:`lesson_steps`, the same
game played through in advance, with East's own view at each step and nothing of the other
seats' concealed tiles.

>>> steps = lesson_steps()
>>> [s["kind"] for s in steps]
['read', 'act', 'act', 'act', 'read', 'act', 'act', 'read']
>>> [s["expect"]["type"] for s in steps if s["expect"]]
['discard', 'chow', 'discard', 'discard', 'win']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..bot.wire import view_json
from ..english import count, tile_name
from ..game import Action, Chow, Discard, Game, Pass, PlayerView, Win
from ..game.events import Claimed, Discarded, Event, Settled, Won
from ..rules.catalog import PATTERNS
from ..scoring.payments import base_points
from ..tiles import ALL_TILES, Seat, Tile, copies_in_set, parse_tiles

__all__ = [
    "LESSON_NAMES",
    "LESSON_RULES",
    "STEPS",
    "LessonStep",
    "breakdown_lines",
    "event_line",
    "lesson_game",
    "lesson_steps",
    "lesson_wall",
    "opponent",
    "play_others",
    "refusal",
]

LESSON_RULES = "standard"
LESSON_NAMES = ("You", "Snail", "Rabbit", "Hedgehog")
"""The players by seat: you East, then South, West and North (on your left)."""

_EAST = "777z45p789s234m5s4z3z"
_DRAWS = "1z9p3p" "2z1p9p" "9m" "1z2z1p" "5s"
"""South, West and North draw and throw these; North's 3 Circles is the one you chow; you
draw 9 Characters, then the 5 Bamboo you win on. None of them is one you could pong or win
on, so no claim is offered that the coach does not ask for."""


def lesson_wall() -> list[Tile]:
    """The lesson's 148 tiles, front first: East's 14, the others' 13 each (filled with
    tiles none of the draws can help), then the draws in order."""
    east = parse_tiles(_EAST)
    draws = parse_tiles(_DRAWS)
    draws.insert(0, east.pop())   # the banker's 14th tile comes after the deal
    left = {t: copies_in_set(t) for t in ALL_TILES}
    for t in [*east, *draws]:
        left[t] -= 1
    playable = [t for t in ALL_TILES if t < 34 for _ in range(left[t])]
    playable = playable[::4] + playable[1::4] + playable[2::4] + playable[3::4]
    bonus = [t for t in ALL_TILES if t >= 34 for _ in range(left[t])]
    others = [playable[i * 13:(i + 1) * 13] for i in range(3)]
    rest = playable[39:]
    mid = len(rest) // 2
    # bonus tiles sit in the middle of the wall, where neither the draws nor the
    # replacements (from the back) reach during the lesson
    return [*east, *others[0], *others[1], *others[2], *draws, *rest[:mid], *bonus,
            *rest[mid:]]


def lesson_game() -> Game:
    """The lesson's hand, dealt and waiting for East's first throw."""
    return Game.new(LESSON_RULES, wall=lesson_wall())


def opponent(view: PlayerView, legal: Sequence[Action]) -> Action:
    """The lesson's opponents: throw the tile just drawn, claim nothing."""
    if view.last_drawn is not None and Discard(view.last_drawn) in legal:
        return Discard(view.last_drawn)
    first = next((a for a in legal if isinstance(a, Discard)), None)
    if first is not None:
        return first
    return Pass() if Pass() in legal else legal[0]


@dataclass(frozen=True)
class LessonStep:
    """One step of the coach: ``expect`` is the one action asked for (None: read and go
    on); ``ask`` says it in a few words, for the reminder when another key is pressed."""

    kind: str
    title: str
    text: str
    expect: Action | None = None
    ask: str = ""


STEPS: tuple[LessonStep, ...] = (
    LessonStep("read", "Welcome to your first hand",
               "You sit East, so you are the banker: you start with 14 tiles and throw "
               "first. The aim is four sets and a pair. You already hold three Red Dragons "
               "(a pong, worth 1 tai: a win needs at least 1), 7-8-9 Bamboo and 2-3-4 "
               "Characters. The coach waits for you at each step."),
    LessonStep("act", "Throw a tile",
               "Each turn you throw one tile. A lone wind that is not yours scores nothing: "
               "throw the North Wind. Move along your tiles with ← and →, press Enter to pick "
               "it and Enter again to throw it (or click it twice).",
               Discard(Tile.NORTH), "throw the North Wind"),
    LessonStep("act", "Claim a chow",
               "Hedgehog, on your left, threw 3 Circles. With your 4 and 5 Circles it makes "
               "a chow, three in a row. You may chow only from the player on your left. "
               "Press C (or the Chow button).",
               Chow(Tile.P3), "chow the 3 Circles (C)"),
    LessonStep("act", "Throw after a claim",
               "Your chow is laid out face up. After a claim you throw a tile, as on any "
               "turn: throw the West Wind.",
               Discard(Tile.WEST), "throw the West Wind"),
    LessonStep("read", "Your draw",
               "Each turn starts with a draw from the wall. You drew 9 Characters: it is set "
               "apart at the right end of your hand. Your sets are nearly done: you need "
               "a second 5 Bamboo for the pair."),
    LessonStep("act", "Throw what does not help",
               "9 Characters does not fit any of your sets. Throw it.",
               Discard(Tile.M9), "throw the 9 Characters"),
    LessonStep("act", "Win",
               "You drew the 5 Bamboo: with it you have four sets and a pair. Press W (or "
               "the Win button) to win.",
               Win(), "win (W)"),
    LessonStep("read", "Where the points came from", ""),
)


def refusal(step: LessonStep) -> str:
    """What the coach says when the player does something else."""
    if step.expect is None:
        return "Read the coach's note first, then go on."
    return f"Not yet: the coach asks you to {step.ask}."


def breakdown_lines(game: Game, names: Sequence[str] = LESSON_NAMES) -> list[str]:
    """The last step: the win's tai, pattern by pattern, and who paid what."""
    won = next(e for e in game.events if isinstance(e, Won))
    settled = next(e for e in game.events if isinstance(e, Settled))
    who = names[won.seat]
    lines = [f"{who} won self-drawn on {tile_name(won.tile)}: {count(won.tai, 'tai')}."
             if won.discarder is None else
             f"{who} won on {tile_name(won.tile)}: {count(won.tai, 'tai')}."]
    for p in won.patterns:
        name = PATTERNS[p.id].english if p.id in PATTERNS else p.id
        lines.append(f"{name}: {count(p.tai, 'tai')}.")
    pay = game.rules.payments
    base = base_points(min(won.tai, game.rules.scoring.tai_cap), game.rules)
    lines.append(f"{count(won.tai, 'tai')} makes a base of {count(base, 'point')}; on a "
                 f"self-drawn win each other player pays {pay.self_drawn_pays} × the base:"
                 if won.discarder is None else "Payments:")
    for line in settled.payments:
        if line.payer is not None:
            lines.append(f"{names[line.payer]} pays you {count(line.amount, 'point')}.")
    total = settled.deltas[won.seat]
    lines.append(f"In all you collect {count(total, 'point')}. That is a whole hand: the Tai "
                 "table and the Rules pages show the rest.")
    return lines


def event_line(e: Event, names: Sequence[str] = LESSON_NAMES) -> str | None:
    """An opponent's move in words, for the log under the coach."""
    if isinstance(e, Discarded):
        return f"{names[e.seat]} threw {tile_name(e.tile)}."
    if isinstance(e, Claimed):
        return f"{names[e.seat]}: {e.kind} on {tile_name(e.tile)}."
    return None


def lesson_steps(names: Sequence[str] = LESSON_NAMES) -> list[dict[str, Any]]:
    """The whole lesson played through for a front end that draws it step by step: each
    step's coach text, the action it asks for (JSON, or None), East's own view at that
    moment, East's legal actions and the moves the others made since the step before."""
    game = lesson_game()
    out: list[dict[str, Any]] = []
    mark = len(game.events)
    for step in STEPS:
        play_others(game)
        log = [line for e in game.events[mark:]
               if e.seat != Seat.EAST and (line := event_line(e, names))]  # type: ignore[attr-defined]
        text = " ".join(breakdown_lines(game, names)) if step is STEPS[-1] else step.text
        legal = [] if game.ended else game.legal_actions(Seat.EAST)
        out.append({"kind": step.kind, "title": step.title, "text": text,
                    "expect": None if step.expect is None else step.expect.to_json(),
                    "ask": step.ask, "view": view_json(game.view(Seat.EAST)),
                    "legal": [a.to_json() for a in legal], "log": log})
        if step.expect is not None:
            if step.expect not in legal:   # the deal and the script disagree: a bug
                raise AssertionError(f"lesson step {step.title!r}: {step.expect} not legal")
            game.submit(Seat.EAST, step.expect)
        mark = len(game.events)
    return out


def play_others(game: Game,
                play: Callable[[PlayerView, Sequence[Action]], Action] = opponent) -> None:
    """Let the other seats move until East must decide or the hand ends."""
    while not game.ended and Seat.EAST not in game.waiting_for():
        seat = min(game.waiting_for())
        game.submit(seat, play(game.view(seat), game.legal_actions(seat)))
