"""A match: hands in sequence, banker rotation, round wind, match end and running scores.

Players are numbered 0-3; player ``p`` sits at seat ``(p - banker) % 4`` in a hand, so the
banker is always East. Hand seeds derive from the match seed (:func:`derive_seed`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ..errors import SgmahjongError
from ..rules.loading import load_rules
from ..rules.model import Ruleset
from ..tiles import Seat
from .actions import Action
from .engine import Game, HandOutcome
from .events import Event
from .prng import derive_seed
from .state import Phase
from .view import PlayerView

Agent = Callable[[PlayerView, list[Action]], Action]
_ENDED: Final = Phase.ENDED   # (an enum member read through the class is slow in Python 3.11)


@dataclass(frozen=True)
class MatchState:
    """Where a match stands between hands."""

    hands_played: int = 0
    round_index: int = 0       # 0 East round, 1 South ...
    banker: int = 0            # the player sitting East
    deal_passes: int = 0       # times the deal has passed in this round
    hands_in_round: int = 0
    scores: tuple[int, int, int, int] = (0, 0, 0, 0)
    ended: bool = False

    def seat_of(self, player: int) -> Seat:
        return Seat((player - self.banker) % 4)

    def player_at(self, seat: Seat) -> int:
        return (self.banker + seat) % 4


def round_wind(rules: Ruleset, state: MatchState) -> Seat:
    """The round wind of the next hand (RULES.md, 'round wind and match length')."""
    if rules.match.round_wind == "fixed-east":
        return Seat.EAST
    return Seat(state.round_index % 4)


def banker_stays(rules: Ruleset, outcome: HandOutcome) -> bool:
    """RULES.md rows 'banker after a win' and 'banker after a drawn hand'."""
    m = rules.match
    if outcome.wins:
        return m.banker_after_win == "stays-if-banker-won" and Seat.EAST in outcome.winners
    return m.banker_after_draw == "stays" or not outcome.kong_declared


def next_state(rules: Ruleset, state: MatchState, outcome: HandOutcome, *,
               quick: bool = False) -> MatchState:
    """The match after a hand: scores, banker, round wind, and whether the match is over."""
    m = rules.match
    scores = list(state.scores)
    for seat in Seat:
        scores[state.player_at(seat)] += outcome.deltas[seat]
    banker, passes = state.banker, state.deal_passes
    if not banker_stays(rules, outcome):
        banker, passes = (banker + 1) % 4, passes + 1
    hands, in_round, rnd = state.hands_played + 1, state.hands_in_round + 1, state.round_index
    if passes >= 4 or (m.max_hands_per_round and in_round >= m.max_hands_per_round):
        rnd, passes, in_round = rnd + 1, 0, 0
    ended = rnd >= m.rounds or (quick and hands >= m.quick_game_hands)
    return MatchState(hands, rnd, banker, passes, in_round,
                      (scores[0], scores[1], scores[2], scores[3]), ended)


@dataclass(frozen=True)
class WinSummary:
    player: int
    seat: Seat
    tai: int
    raw_tai: int
    patterns: tuple[tuple[str, int], ...]   # (pattern id, tai)


@dataclass(frozen=True)
class HandRecord:
    """One hand of a match: who sat where, who won what, and the payments by player."""

    number: int
    round_wind: Seat
    banker: int
    seed: int
    wins: tuple[WinSummary, ...]
    drawn: str | None
    deltas: tuple[int, int, int, int]       # by player
    events: tuple[Event, ...]


@dataclass(frozen=True)
class MatchResult:
    rules: str
    seed: int
    hands: tuple[HandRecord, ...]
    scores: tuple[int, int, int, int]       # by player


class MatchError(SgmahjongError):
    """A match used out of order (a hand finished before it ended, a match over)."""


class Match:
    """A match under one rule set. ``quick`` plays the preset's quick game (garden: 4 hands)."""

    def __init__(self, rules: str | Ruleset | None = None, seed: int | None = None, *,
                 quick: bool = False) -> None:
        self.rules = load_rules(rules)
        if quick and self.rules.match.quick_game_hands <= 0:
            raise MatchError(f"the {self.rules.name} rules have no quick game")
        self.seed = secrets.randbits(63) if seed is None else seed
        self.quick = quick
        self.state = MatchState()
        self.hands: list[HandRecord] = []
        self.game: Game | None = None

    def start_hand(self) -> Game:
        """Deal the next hand."""
        if self.state.ended:
            raise MatchError("the match is over")
        if self.game is not None and not self.game.ended:
            raise MatchError("the current hand is still being played")
        n = self.state.hands_played
        self.game = Game.new(self.rules, seed=derive_seed(self.seed, n),
                             round_wind=round_wind(self.rules, self.state), hand_number=n)
        return self.game

    def finish_hand(self) -> HandRecord:
        """Record the ended hand and move the match on."""
        g = self.game
        outcome = g.outcome() if g is not None else None
        if g is None or outcome is None:
            raise MatchError("no hand has ended")
        st = self.state
        by_player = [0, 0, 0, 0]
        for seat in Seat:
            by_player[st.player_at(seat)] = outcome.deltas[seat]
        wins = tuple(WinSummary(st.player_at(w.seat), w.seat, w.tai, w.raw_tai,
                                tuple((p.id, p.tai) for p in w.patterns)) for w in outcome.wins)
        record = HandRecord(st.hands_played, g.state.round_wind, st.banker,
                            derive_seed(self.seed, st.hands_played), wins, outcome.drawn,
                            (by_player[0], by_player[1], by_player[2], by_player[3]),
                            tuple(g.events))
        self.hands.append(record)
        self.state = next_state(self.rules, st, outcome, quick=self.quick)
        self.game = None
        return record

    def play(self, agents: Agent | Sequence[Agent]) -> MatchResult:
        """Play to the end with one agent per player (or one for all)."""
        per_player = list(agents) if isinstance(agents, Sequence) else [agents] * 4
        while not self.state.ended:
            game = self.start_hand()
            # The players by seat for this hand (``player_at``), read once: this loop runs
            # at every decision.
            by_seat = [per_player[self.state.player_at(seat)] for seat in Seat]
            table = game.state
            while table.phase is not _ENDED:
                game.ask(by_seat)
            self.finish_hand()
        return self.result()

    def result(self) -> MatchResult:
        return MatchResult(self.rules.name, self.seed, tuple(self.hands), self.state.scores)


__all__ = ["HandRecord", "Match", "MatchError", "MatchResult", "MatchState", "WinSummary",
           "banker_stays", "next_state", "round_wind"]
