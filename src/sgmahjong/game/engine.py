"""The ``Game`` facade for one hand: ``pending()``, ``legal_actions(seat)``, ``submit()``,
``advance()``; every change goes through :func:`apply`, so ``Game.replay(events)`` rebuilds it.

>>> from sgmahjong.game.actions import Discard
>>> g = Game.new("standard", seed=7)
>>> g.pending()
{Seat.EAST}
>>> east = g.legal_actions(Seat.EAST)
>>> new = g.submit(Seat.EAST, next(a for a in east if isinstance(a, Discard)))
>>> new[0].TYPE
'discarded'
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..errors import SgmahjongError
from ..rules.loading import load_rules
from ..rules.model import Ruleset
from ..tiles import Seat, Tile
from .actions import Action
from .events import Event, HandStarted, Won
from .legal import why_illegal
from .machine import Decisions, resolve, step
from .state import TableState, apply
from .view import PlayerView, view
from .wall import KIND, shuffled_ids, wall_from_ids, wall_from_kinds, wall_from_text


class IllegalAction(SgmahjongError):
    """An action the rules do not allow now; the message names the rule. The game is unchanged."""


@dataclass(frozen=True)
class HandOutcome:
    """How a hand ended: its wins (in order), whether it was drawn, kongs, and the deltas."""

    wins: tuple[Won, ...]
    drawn: str | None
    kong_declared: bool
    deltas: tuple[int, int, int, int]

    @property
    def winners(self) -> tuple[Seat, ...]:
        return tuple(w.seat for w in self.wins)


def _all_tiles(items: Sequence[object]) -> bool:
    # Typed ``object``, not ``int``: compiled (sgmahjong.fast), a value typed ``int`` is a
    # machine integer, and a Tile read through one is no longer a Tile.
    return all(isinstance(t, Tile) for t in items)


class Game:
    """One hand of Singapore Mahjong. East is the banker; seats are named by their wind."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.state = TableState.empty(rules)
        self.events: list[Event] = []
        self._decisions: Decisions | None = None
        self._choices: dict[Seat, Action] = {}

    @classmethod
    def new(cls, rules: str | Ruleset | None = None, *, seed: int | None = None,
            wall: str | Sequence[int] | Sequence[Tile] | None = None,
            round_wind: Seat = Seat.EAST, hand_number: int = 0) -> Game:
        """Deal a new hand: from a seeded shuffle, or from a wall given in full (tile text,
        148 ids or 148 tiles, front first). Plays on to the first decision."""
        rs = load_rules(rules)
        if wall is None:
            if seed is None:
                seed = secrets.randbits(63)
            # The event names kinds only, so the shuffled ids need no renumbering
            # (``shuffled_wall``'s canonical order has the same kinds in the same places).
            order: Sequence[int] = shuffled_ids(seed)
        else:
            seed = None
            if isinstance(wall, str):
                order = wall_from_text(wall)
            elif _all_tiles(wall):
                order = wall_from_kinds(list(wall))  # type: ignore[arg-type]
            else:
                order = wall_from_ids(list(wall))
        game = cls(rs)
        game._emit(HandStarted(round_wind, hand_number, seed, tuple(map(KIND.__getitem__, order))))
        game.advance()
        return game

    def __reduce__(self) -> tuple[object, ...]:
        # A game is its rules and its events (the state is their reduction) plus the
        # answers already given in an open claim window. Said this way it pickles and
        # deep-copies alike as Python and compiled (sgmahjong.fast), where a native class
        # has no __dict__ for pickle to fill in.
        return (_restored, (self.rules, tuple(self.events), dict(self._choices)))

    @classmethod
    def replay(cls, rules: str | Ruleset | None, events: Iterable[Event]) -> Game:
        """The game these events describe (each applied in turn; nothing else runs)."""
        game = cls(load_rules(rules))
        for e in events:
            game._emit(e)
        return game

    def _emit(self, event: Event) -> None:
        apply(self.state, event)
        self.events.append(event)
        self._decisions = None

    def _pending(self) -> Decisions:
        dec = self._decisions
        if dec is None:
            events, dec = step(self.state)
            if events:
                return {}  # automatic events are due: advance() plays them
            self._decisions = dec
        return dec

    @property
    def ended(self) -> bool:
        return self.state.ended

    def pending(self) -> set[Seat]:
        """The seats that must act before the game can go on."""
        return set(self._pending())

    def waiting_for(self) -> set[Seat]:
        """Pending seats that have not yet submitted."""
        return self._pending().keys() - self._choices.keys()

    def legal_actions(self, seat: Seat) -> list[Action]:
        """What ``seat`` may submit now (empty when it has nothing to decide)."""
        return list(self._pending().get(seat, []))

    def view(self, seat: Seat) -> PlayerView:
        return view(self.state, seat)

    def submit(self, seat: Seat, action: Action) -> list[Event]:
        """Submit ``seat``'s action. Claims are stored until every pending seat has answered;
        then they are resolved and play goes on. Returns the events that produced."""
        dec = self._pending()
        if seat in self._choices:
            raise IllegalAction(f"{seat.name.title()} has already answered "
                                f"({self._choices[seat]!r})")
        legal = dec.get(seat, ())
        for a in legal:  # an action taken from the legal list: found by identity, no __eq__
            if a is action:
                break
        else:
            if action not in legal:
                reason = why_illegal(view(self.state, seat), action)
                raise IllegalAction(
                    reason or f"{action!r} is not legal for {seat.name.title()} now")
        self._choices[seat] = action
        return self.advance()

    def ask(self, agents: Sequence[Callable[[PlayerView, list[Action]], Action]]) -> None:
        """Ask each seat still to answer, in seat order, for its agent's action
        (``agents[seat]``, given the seat's view and a copy of its legal actions) and submit
        it: :meth:`waiting_for`, :meth:`view`, :meth:`legal_actions` and :meth:`submit` for
        every waiting seat, with the pending decisions read once (a match does this at every
        decision; they do not change until the last seat has answered)."""
        dec = self._pending()
        choices = self._choices
        waiting = [s for s in dec if s not in choices]
        if len(waiting) > 1:
            waiting.sort()
        state = self.state
        for seat in waiting:
            self.submit(seat, agents[seat](view(state, seat), list(dec[seat])))

    def step(self, actions: Mapping[Seat, Action]) -> list[Event]:
        """Submit several seats' actions at once (all checked before any is stored)."""
        dec = self._pending()
        for seat, action in actions.items():
            if action not in dec.get(seat, ()):
                reason = why_illegal(view(self.state, seat), action)
                raise IllegalAction(reason or f"{action!r} is not legal for {seat.name} now")
        out: list[Event] = []
        for seat, action in actions.items():
            out.extend(self.submit(seat, action))
        return out

    def advance(self) -> list[Event]:
        """Play every automatic step, resolving claims once all pending seats answered; stop
        at the next decision or the end of the hand. Returns the new events."""
        new: list[Event] = []
        while True:
            if self._decisions is not None:  # still valid: no event since it was computed
                events: list[Event] = []
                dec = self._decisions
            else:
                events, dec = step(self.state)
            if not events:
                self._decisions = dec
                # submit() stores only pending seats' answers: the choices are a subset
                if not dec or len(self._choices) < len(dec):
                    break
                events = resolve(self.state, dec, self._choices)
                self._choices = {}
            for e in events:
                self._emit(e)
                new.append(e)
        return new

    def outcome(self) -> HandOutcome | None:
        """How the hand ended (None while it is being played)."""
        s = self.state
        if not s.ended:
            return None
        deltas = (s.scores[0], s.scores[1], s.scores[2], s.scores[3])
        return HandOutcome(tuple(s.wins), s.drawn, s.kong_declared, deltas)


def _restored(rules: Ruleset, events: tuple[Event, ...], choices: dict[Seat, Action]) -> Game:
    """The game ``Game.__reduce__`` describes: its events replayed, its answers given."""
    game = Game.replay(rules, events)
    game._choices = dict(choices)
    return game
