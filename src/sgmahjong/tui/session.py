"""A game session for the table: the match, the three AI seats, the human seat, the record.

Holds no rules: it asks the engine (``Match``, ``Game``) what is legal and submits actions.
The human is player 0; AI players see only their own :class:`PlayerView`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import SgmahjongError
from ..game import Action, Event, Game, HandRecord, Match, PlayerView
from ..game.match import round_wind
from ..rules.model import Ruleset
from ..session.decisions import FailureNotices, decide, failure_notice
from ..session.match import match_hand_label, table_rules
from ..session.players import (
    DEFAULT_OPPONENTS,
    UnknownPlayer,
    ai_player_names,
    make_player,
    player_seed,
    unique_names,
)
from ..session.reviews import review_of_hand
from ..store.progress import data_dir
from ..tiles import Seat, Tile

if TYPE_CHECKING:
    from ..agents import Agent
    from ..agents.review import Review


class SetupError(SgmahjongError):
    """Options the table cannot start with (an unknown opponent, a bad rule set)."""


def opponent_names() -> list[str]:
    """The opponents one can pick: the five levels weakest first, then the baselines."""
    return ai_player_names()


def make_opponent(name: str, seed: int) -> Agent:
    """An AI player by name (an unknown one: :class:`SetupError`, naming the choices)."""
    try:
        return make_player(name, seed)
    except UnknownPlayer as exc:
        raise SetupError(exc.sentence("opponent")) from None


@dataclass
class PlayConfig:
    """Everything a table needs to start. ``walls`` is a test hook: the first hands are
    dealt from these walls (tile text, front first) instead of the match seed."""

    rules: str = "standard"
    quick: bool = False
    opponents: tuple[str, str, str] = DEFAULT_OPPONENTS
    seed: int | None = None
    hints: bool = True
    table: str | None = None
    ai_delay: float = 0.35
    claim_timer: float = 0.0  # seconds before an unanswered claim offer is skipped; 0: never
    walls: Sequence[str | Sequence[Tile]] = ()
    record_dir: Path | None = None
    player_name: str = "you"
    tiles: str | None = None  # "chinese" or "latin" tile labels; None: the player's saved choice


class Session:
    """One match at the table: player 0 is the human, players 1-3 the AI opponents."""

    HUMAN = 0

    def __init__(self, config: PlayConfig) -> None:
        self.config = config
        rules: Ruleset = table_rules(config.rules, config.quick)
        self.match = Match(rules, config.seed, quick=config.quick)
        self.rules = self.match.rules
        self.names = unique_names(["You", *(n.title() for n in config.opponents)])
        self.agents: list[Agent | None] = [None] + [
            make_opponent(name, player_seed(self.match.seed, i))
            for i, name in enumerate(config.opponents, start=1)]
        # an AI that fails is told to the player once, then plays safe moves quietly
        self.failures = FailureNotices()
        self.notices: list[str] = []
        self.players = [config.player_name, *config.opponents]
        self.record_path: Path | None = None
        self.hands: list[HandRecord] = []
        # the review of the human's play in each finished hand, by its place in ``hands``
        # (worked out in the background; a hand whose review failed has the reason)
        self.reviews: dict[int, Review] = {}
        self.review_failed: dict[int, str] = {}

    # ------------------------------------------------------------------ the hand

    @property
    def game(self) -> Game:
        g = self.match.game
        if g is None:
            raise SetupError("no hand is being played")
        return g

    @property
    def in_hand(self) -> bool:
        return self.match.game is not None

    def start_hand(self) -> Game:
        """Deal the next hand (from a given wall while the test hook has some)."""
        n = self.match.state.hands_played
        if n < len(self.config.walls):
            self.match.game = Game.new(self.rules, wall=self.config.walls[n],
                                       round_wind=round_wind(self.rules, self.match.state),
                                       hand_number=n)
            return self.match.game
        return self.match.start_hand()

    def seat_of(self, player: int) -> Seat:
        return self.match.state.seat_of(player)

    def player_at(self, seat: Seat) -> int:
        return self.match.state.player_at(seat)

    @property
    def human_seat(self) -> Seat:
        return self.seat_of(self.HUMAN)

    def view(self) -> PlayerView:
        """The human's view of the table."""
        return self.game.view(self.human_seat)

    def human_legal(self) -> list[Action]:
        """What the human may do now (empty when it is not the human's decision)."""
        g = self.game
        seat = self.human_seat
        if g.ended or seat not in g.waiting_for():
            return []
        return g.legal_actions(seat)

    def ai_waiting(self) -> list[Seat]:
        g = self.game
        if g.ended:
            return []
        return sorted(s for s in g.waiting_for() if s != self.human_seat)

    def ai_step(self) -> list[Event]:
        """One AI decision (the first AI seat waiting), from that seat's view only; an AI
        that fails plays the safe fallback, and the player hears of it once
        (:attr:`notices`)."""
        seats = self.ai_waiting()
        if not seats:
            return []
        seat = seats[0]
        player = self.player_at(seat)
        agent = self.agents[player]
        assert agent is not None
        g = self.game
        decision = decide(agent, g.view(seat), g.legal_actions(seat))
        if decision.failure is not None and self.failures.first(player):
            self.notices.append(failure_notice(self.names[player]))
        return g.submit(seat, decision.action)

    def take_notices(self) -> list[str]:
        """What the player should be told since the last call (an AI that failed)."""
        out, self.notices = self.notices, []
        return out

    def submit(self, action: Action) -> list[Event]:
        """The human's action (checked by the engine)."""
        return self.game.submit(self.human_seat, action)

    def review_hand(self, events: Sequence[Event], seat: Seat,
                    names: Sequence[str] | None = None) -> Review:
        """The review of the human, sitting at ``seat``, in the hand ``events``; ``names``
        by seat, the players as the table names them (slow enough to belong in a worker
        thread; reads nothing that changes)."""
        return review_of_hand(events, seat, self.rules, names=names)

    def finish_hand(self) -> HandRecord:
        """Close the ended hand, move the match on and save the record."""
        record = self.match.finish_hand()
        self.hands.append(record)
        self.save_record()
        return record

    @property
    def match_over(self) -> bool:
        return self.match.state.ended

    @property
    def scores(self) -> tuple[int, int, int, int]:
        """Match scores by player (the hand being played not included)."""
        return self.match.state.scores

    def hands_label(self) -> str:
        """``"Hand 2 of 4"`` (quick game) or ``"Hand 2"``: the hand being played."""
        return match_hand_label(self.match)

    # ------------------------------------------------------------------ the record

    def record_file(self) -> Path:
        """Where the game is saved: ``play-<date>-<time>.jsonl`` in the records folder (the
        seed is in the record's header; a name short enough for the command that replays
        it to fit an 80-column line)."""
        if self.record_path is None:
            folder = self.config.record_dir or data_dir() / "records"
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            path = folder / f"play-{stamp}.jsonl"
            n = 1
            while path.exists():   # two games started within the same second
                n += 1
                path = folder / f"play-{stamp}-{n}.jsonl"
            self.record_path = path
        return self.record_path

    def save_record(self, *, unfinished: bool = False) -> Path:
        """Write every finished hand so far as a match record (JSON Lines); with
        ``unfinished``, also the hand being played, up to its latest event (the record
        then ends in the middle of that hand, which ``sgmahjong replay`` shows and says)."""
        path = self.record_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = {"table": self.config.table} if self.config.table else None
        game = self.match.game
        extra = list(game.events) if unfinished and game is not None and not game.ended else []
        write_match_record(path, self.match, self.players, meta, extra)
        return path

    def keep_game(self) -> Path | None:
        """Save the game as it stands, when the player leaves it: the finished hands and the
        hand being played (None: nothing to keep)."""
        if not self.hands and not self.in_hand:
            return None
        return self.save_record(unfinished=True)


def write_match_record(path: Path, match: Match, players: Sequence[str],
                       meta: dict[str, str | None] | None = None,
                       unfinished: Sequence[Event] = ()) -> Path:
    """The match record (:mod:`sgmahjong.record`): the finished hands, then the events of
    the ``unfinished`` hand, if any (the header counts the finished hands only and says
    the match is not complete)."""
    from ..record import record_from_match, write_record

    record = record_from_match(match, players, meta)
    if unfinished:
        record = dataclasses.replace(record, events=record.events + tuple(unfinished))
    return write_record(path, record)
