"""The reviews a table shows: a hand's review of one player's play, the stand-in's
decisions left out of it, and the match's review.

The review itself is worked out by :mod:`sgmahjong.agents.review` (slow enough that a
screen runs it off its main thread); here is what every screen shows of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..agents.review import SHOWN, DealIn, Decision, Review, match_summary, review_hand
from ..game import Event
from ..record import STANDIN
from ..rules.model import Ruleset
from ..tiles import Seat

Notes = dict[int, dict[str, Any]]
"""Event notes (a record's ``meta``) by event index."""


def review_of_hand(events: Sequence[Event], seat: Seat, rules: Ruleset,
                   notes: Mapping[int, Mapping[str, Any]] | None = None,
                   names: Sequence[str] | None = None) -> Review:
    """The review of the player at ``seat`` in the hand ``events``; ``notes`` mark the
    stand-in's decisions (left out), ``names`` by seat are the players as the table names
    them. Reads nothing that changes, so it may run in a worker."""
    return review_hand(list(events), seat, rules, notes, names=names)


def standin_notes(standin: Mapping[int, Sequence[int]], first: int = 0,
                  count: int | None = None) -> Notes:
    """The notes marking the stand-in's decisions: ``standin`` holds the seats it decided
    for by the index of the event after; with ``first`` and ``count``, only the events of
    one hand (``first`` its first event's index), indexed within that hand."""
    end = None if count is None else first + count
    return {i - first: {STANDIN: list(seats)} for i, seats in standin.items()
            if i >= first and (end is None or i < end)}


@dataclass(frozen=True)
class HandReview:
    """What a screen shows of a hand's review: ``head``, the sentence said when no decision
    was costly (else None); ``shown``, the costliest decisions; the deal-ins; ``tally``
    (empty when every decision was Owl's); ``standin_line`` (None without a stand-in)."""

    head: str | None
    shown: tuple[Decision, ...]
    deal_ins: tuple[DealIn, ...]
    tally: str
    standin_line: str | None


def hand_review(review: Review) -> HandReview:
    shown = review.costly[:SHOWN]
    return HandReview(None if shown else review.lines[0], shown, review.deal_ins,
                      review.tally, review.standin_line or None)


@dataclass(frozen=True)
class MatchReview:
    """A player's match review: the hands reviewed and the sentences summing them up."""

    hands: tuple[int, ...]
    lines: tuple[str, ...]


def match_review(reviews: Mapping[int, Review | None]) -> MatchReview:
    """The match review from the reviews of a player's hands, by hand index (a hand whose
    review could not be made is None and left out; ``hands`` is empty when none was)."""
    mine = sorted(((h, r) for h, r in reviews.items() if r is not None), key=lambda x: x[0])
    return MatchReview(tuple(h for h, _ in mine), tuple(match_summary(mine)))


__all__ = ["HandReview", "MatchReview", "Notes", "hand_review", "match_review",
           "review_of_hand", "standin_notes"]
