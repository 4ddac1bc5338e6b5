"""An AI seat whose player raises does not stop the web table: the core plays a safe move
for it, the hand goes on, and everyone at the table is told once (as at the terminal)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import ClassVar

from core_harness import Harness, row
from test_core import simple

from sgmahjong import agents
from sgmahjong.agents.baseline import GreedyAgent
from sgmahjong.game import Action, Discard, Discarded, Pass, Phase, PlayerView
from sgmahjong.web.core import Act, Start, Timing

NOTICE = "Flaky's AI ran into a problem"


class Flaky(GreedyAgent):
    """Raises at its first decision (its view and choices kept), then plays greedily."""

    first: ClassVar[list[tuple[PlayerView, list[Action]]]] = []

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if not Flaky.first:
            Flaky.first.append((view, list(legal)))
            raise RuntimeError("the model file is missing")
        return super().act(view, legal)


@contextmanager
def flaky_registered() -> Iterator[None]:
    """``flaky`` is a player while the test runs (by hand, not a fixture: the PostgreSQL
    suite runs this test again without this module's fixtures)."""
    Flaky.first = []
    agents.register_agent("flaky", Flaky)
    try:
        yield
    finally:
        agents._REGISTRY.pop("flaky", None)


def test_an_ai_that_raises_plays_safe_and_the_table_is_told_once() -> None:
    with flaky_registered():
        _play_a_hand_with_flaky()


def _play_a_hand_with_flaky() -> None:
    h = Harness(row(ai=("flaky", "greedy", "greedy")), timing=Timing(
        ai_delay=0.0, disconnect_grace=60.0, next_hand_delay=0.0, claim_window=0.0,
        turn_limit=0.0))
    ann = h.attach(0)
    watcher = h.attach(None)
    h.do(Start(0))
    for _ in range(400):                       # Ann plays on until the first hand ends
        if h.core.match.state.hands_played >= 1:
            break
        req = h.last(ann, "request")
        assert req is not None, "the table waits for Ann alone"
        h.inbox[ann] = [m for m in h.inbox[ann] if m["type"] != "request"]
        h.do(Act(ann, Action.from_json(simple(req["legal"], req["view"])), req["id"]))
    assert h.core.match.state.hands_played >= 1, "the hand went on to its end"
    assert Flaky.first, "Flaky was asked"
    view, legal = Flaky.first[0]
    # its first decision was played for it: a pass on a claim offer, else its drawn tile
    if view.phase is Phase.TURN:
        assert view.last_drawn is not None
        after = [e for e in h.core.match.hands[0].events
                 if isinstance(e, Discarded) and e.seat == view.seat]
        assert after and after[0].tile == view.last_drawn
    else:
        assert Pass() in legal and not any(isinstance(a, Discard) for a in legal)
    for conn in (ann, watcher):
        told = [m for m in h.take(conn, "notice") if m.get("code") == "ai-failed"]
        assert len(told) == 1 and told[0]["message"].startswith(NOTICE)
