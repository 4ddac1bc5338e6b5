"""What a table says about itself: its public facts, hand and match ends, and reviews.

The read-only half of :class:`~sgmahjong.web.core.table.TableCore`: every message here is
built from the match and the seats as they are, and changes nothing but the reviews it
asks for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ...bot.wire import view_json
from ...game import Event, Game, HandRecord, Match
from ...game.codec import JSON
from ...record import Record, record_from_match
from ...rules.model import Ruleset
from ...session.match import match_hand_label
from ...session.reviews import match_review, standin_notes
from ...tiles import Seat
from ..ladder import hand_ladder, match_ladder
from ..protocol import HandSummary, hand_summary, review_json, standings
from .messages import Outbox, ReviewHand, SetStatus
from .seating import TableError
from .seats import Slot, TableChoices, Timing
from .server import Board, HandEnd, MatchEnd, TableChanged

if TYPE_CHECKING:
    from ...agents.review import Review


class Summaries:
    """The facts and summaries of a table (mixed into the core, whose state it reads)."""

    id: str
    rules: Ruleset
    preset: str
    status: str
    quick: bool
    hints: bool
    options: TableChoices
    slots: list[Slot]
    spectators: set[int]
    player_of: dict[int, int | None]
    match: Match
    events: list[Event]
    event_hand: list[int]
    bankers: list[int]
    last_summary: HandSummary | None
    hand_end_due: bool
    reviews: dict[tuple[int, int], Review | None]
    reviewing: set[tuple[int, int]]
    deferred: dict[int, list[str]]
    standin: dict[int, list[int]]
    next_hand_at: float | None
    timing: Timing
    now: float

    def away(self, slot: Slot) -> bool: ...
    def all_conns(self) -> list[int]: ...

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.slots]

    @property
    def game(self) -> Game | None:
        return self.match.game

    @property
    def n(self) -> int:
        """The number of the last event (0 before the first)."""
        return len(self.events)

    def seat_of(self, player: int, hand: int | None = None) -> Seat:
        h = len(self.bankers) - 1 if hand is None else hand
        banker = self.bankers[h] if self.bankers else self.match.state.banker
        return Seat((player - banker) % 4)

    def hand_label(self) -> str:
        return match_hand_label(self.match)

    def info(self) -> JSON:
        """The table as the lobby shows it (public)."""
        g = self.game
        in_hand = g is not None
        return {
            "id": self.id, "status": self.status, "rules": self.rules.name,
            "preset": self.preset, "description": self.rules.description,
            "quick": self.quick, "hints": self.hints,
            "quick_hands": self.rules.match.quick_game_hands if self.quick else None,
            "hands_played": self.match.state.hands_played, "hand_label": self.hand_label(),
            "in_hand": in_hand, "scores": list(self.match.state.scores),
            "round_wind": int(g.state.round_wind) if g is not None else None,
            "seats": [{"player": s.player, "name": s.name, "kind": s.kind,
                       "level": s.level if s.kind == "ai" else None,
                       "connected": bool(s.conns),
                       "standin": s.kind == "human" and self.away(s),
                       "wind": int(self.seat_of(s.player)) if in_hand else None}
                      for s in self.slots],
            "spectators": len(self.spectators),
            "n": self.n,
        }

    def record(self) -> Record:
        """The match record (every finished hand); the table must be finished."""
        if self.status != "finished":
            raise TableError("not-finished", "the record can be downloaded once the match "
                                             "is over")
        return record_from_match(self.match, self.names, {"table": self.id},
                                 notes=standin_notes(self.standin))

    def _board(self) -> Board:
        """Who sits at each seat of the hand being played and their match total so far
        (the standings before the hand plus what the hand has paid yet), by seat: the page
        shows these as they are, so it never adds a hand's result to a total twice."""
        st = self.match.state
        g = self.game
        players = [st.player_at(seat) for seat in Seat]
        hand = g.state.scores if g is not None else [0, 0, 0, 0]
        return {"players": players,
                "totals": [st.scores[p] + hand[seat] for seat, p in enumerate(players)]}

    def _summary(self, rec: HandRecord, game: Game) -> HandSummary:
        """The hand-end summary, each win with the winner's whole hand: a win lays it open
        to the table (tiles in hand, the winning one among them, declared sets, bonus
        tiles), as in the terminal."""
        out = hand_summary(rec, self.names, self.match.state.scores)
        for w in out["wins"]:
            v = view_json(game.view(Seat(w["seat"])))
            mine = v["seats"][w["seat"]]
            w["hand"] = {"concealed": v["concealed"], "melds": mine["melds"],
                         "bonus": mine["bonus"]}
        return out

    # ------------------------------------------------------------ reviews

    def _ask_review(self, player: int, hand: int, out: Outbox) -> None:
        """Ask for the review of ``player``'s play in ``hand`` unless it is kept or coming
        (or the hand was an AI's before the player took the chair)."""
        key = (hand, player)
        if hand < self.slots[player].human_from or key in self.reviews or key in self.reviewing:
            return
        self.reviewing.add(key)
        events = tuple(self.match.hands[hand].events)
        first = self.event_hand.index(hand)
        notes = standin_notes(self.standin, first, len(events))
        by_seat = {self.seat_of(p, hand): self.names[p] for p in range(4)}
        out.add(ReviewHand(hand, player, events, self.seat_of(player, hand), self.rules,
                           notes, [by_seat[s] for s in Seat]))

    def _reviews_wanted(self, player: int | None = None) -> bool:
        """Whether reviews (of ``player``, or anyone) are still being worked out."""
        return any(player is None or p == player for _h, p in self.reviewing)

    def _send_deferred(self, out: Outbox) -> None:
        """The hand-end and match-end a socket waits for, once its player's reviews are in."""
        for conn, ends in list(self.deferred.items()):
            player = self.player_of.get(conn)
            if player is not None and self._reviews_wanted(player):
                continue
            del self.deferred[conn]
            for end in ends:
                out.send([conn], self._hand_end(player) if end == "hand-end"
                         else self._match_end(player))

    def _send_hand_end(self, out: Outbox) -> None:
        """Every socket hears the hand end (with its player's review); at the last hand,
        the match end."""
        self.hand_end_due = False
        ended = self.match.state.ended
        # set before the hand-end is sent, which says when the next hand starts
        self.next_hand_at = None if ended else self.now + self.timing.next_hand_delay
        for conn in self.all_conns():
            self.deferred.pop(conn, None)
            out.send([conn], self._hand_end(self.player_of.get(conn)))
        if ended:
            self.status = "finished"
            out.add(SetStatus("finished"))
            for conn in self.all_conns():
                out.send([conn], self._match_end(self.player_of.get(conn)))
        out.send(self.all_conns(), TableChanged(self.info()))

    def _hand_end(self, player: int | None = None) -> HandEnd:
        """The hand-end message for a socket: with ``player``'s review of the hand, when
        there is one (a human's); a spectator gets none."""
        next_in_ms = None
        if self.next_hand_at is not None and not self.match.state.ended:
            # the longest wait: the next hand starts sooner when every player is ready
            next_in_ms = max(0, round((self.next_hand_at - self.now) * 1000))
        stars = hand_ladder(self.options, self.match.hands[-1]) if self.match.hands else None
        review = None
        if player is not None:
            mine = self.reviews.get((len(self.match.hands) - 1, player))
            review = None if mine is None else review_json(mine)
        # the summary's and the stars' TypedDicts are JSON objects
        return HandEnd(cast(JSON, self.last_summary), next_in_ms, cast(JSON | None, stars),
                       review)

    def _match_end(self, player: int | None = None) -> MatchEnd:
        """The match-end message for a socket: with ``player``'s review of the match (the
        hands reviewed for them as they ended), when there is one."""
        scores = self.match.state.scores
        review: JSON | None = None
        if player is not None:
            mine = match_review({h: r for (h, p), r in self.reviews.items() if p == player})
            if mine.hands:
                review = {"hands": list(mine.hands), "lines": list(mine.lines)}
        return MatchEnd(tuple(scores), tuple(standings(self.names, scores)),
                        f"/api/tables/{self.id}/record", f"/t/{self.id}/replay",
                        cast(JSON | None, match_ladder(self.options, self.match)), review)


__all__ = ["Summaries"]
