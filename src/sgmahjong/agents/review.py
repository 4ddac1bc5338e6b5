"""A review of one seat's play in a hand: "what could I have done better?"

The hand's events are replayed through the engine's reducer; at every decision the seat
made, the Owl is asked what it would have done from that seat's own :func:`view` at that
moment (and the public order of the discards so far): nothing hidden, no later tile. Where
the Owl chose differently, the cost is measured by the Owl's own evaluation (10 is one
shanten, counting two draws ahead and the tai plan) and told in the terms a player knows:
shanten, useful tiles, tai sources, danger. The three costliest are explained in a
sentence each, and a deal-in names the tile and what made it dangerous.

>>> from sgmahjong.agents.levels import Owl
>>> from sgmahjong.game import Game
>>> g = Game.new("standard", seed=5)
>>> owl = Owl(0)
>>> while not g.ended:
...     for s in sorted(g.waiting_for()):
...         _ = g.submit(s, owl.act(g.view(s), g.legal_actions(s)))
>>> r = review_hand(g.events, Seat.EAST, "standard")
>>> r.items, r.lines[0]
((), 'You made every decision of this hand as Owl would.')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..english import count, tile_name
from ..game.actions import Action, Chow, Discard, Kong, Pass, Pong, Win
from ..game.events import (
    BaoIncurred,
    Claimed,
    ClaimPassed,
    Discarded,
    Event,
    HandDrawn,
    InstantPayout,
    KongDeclared,
    Settled,
    Won,
)
from ..game.machine import step
from ..game.state import Phase, TableState, apply
from ..game.view import PlayerView, view
from ..game.winning import win_score
from ..rules.loading import load_rules
from ..rules.model import Ruleset
from ..tiles import Seat, Tile
from .danger import discard_danger, discard_history, read_threats
from .dealin import in_words
from .evaluation import (
    Situation,
    claim_options,
    discard_options,
    situation,
    useful_kinds,
    view_plan,
)
from .expected import Evaluation, close_margin, evaluate_pass, serious_margin, win_payments
from .hints import away_text, claim_name, claim_values, given_up_text, gives_up
from .owl import Owl

if TYPE_CHECKING:
    from ..record import Record

__all__ = [
    "DealIn",
    "Decision",
    "DecisionPoint",
    "Review",
    "decision_points",
    "match_summary",
    "review_hand",
    "review_record",
    "severity",
    "standin_indices",
    "tally_text",
]

# A decision that differs from the Owl's is marked by the expected points it gives up,
# against what a typical win pays at the table (expected.close_margin and serious_margin,
# docs/ai.md "The review"): under the first a close call (the hints call two choices
# that near "a close call" too), from the second a serious mistake, between them a mistake.
SHOWN = 3             # the costliest decisions explained in a sentence


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """One decision of the seat: the event index it produced, its own view then, the
    legal actions, the public discards so far, and what it chose."""

    index: int
    view: PlayerView
    legal: tuple[Action, ...]
    history: tuple[tuple[Seat, Tile], ...]
    chosen: Action


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision where the Owl chose differently, with its cost (10 is one shanten by the
    Owl's count; 0: no measurable difference) and the sentence that explains it."""

    index: int
    turn: int                   # the seat's turn number (its draws so far) at the decision
    kind: str                   # "discard", "claim", "win" or "kong"
    chosen: Action
    owl: Action
    cost: float
    shanten: tuple[int, int]    # after the seat's choice, after the Owl's
    useful: tuple[int, int]     # unseen useful tiles after each
    given_up: tuple[str, ...]   # tai sources the seat's choice gave up and the Owl's kept
    danger: tuple[str | None, str | None]
    sentence: str
    brief: str = ""             # one line for a list: the two choices and the cost
    tiles: tuple[Tile, ...] = ()  # the tiles to draw beside the sentence (yours, Owl's)

    severity: str = "close"     # "close", "mistake" or "serious mistake" (by its cost)

    @property
    def costly(self) -> bool:
        return self.severity != "close"


@dataclass(frozen=True, slots=True)
class DealIn:
    """The seat's discard another seat won on: the tile, the winner, how it was labelled
    when thrown and why."""

    index: int
    tile: Tile
    winner: Seat
    tai: int
    label: str | None
    reasons: tuple[str, ...]
    sentence: str
    winner_name: str = ""       # as the review names the winner (the seat, or a name given)


@dataclass(frozen=True)
class Review:
    """The review of one seat in one hand: ``items``, every decision where the Owl chose
    differently (costliest first); ``lines``, the sentences to show (the costliest three
    explained, then any deal-in)."""

    seat: Seat
    decisions: int
    items: tuple[Decision, ...]
    deal_ins: tuple[DealIn, ...]
    lines: tuple[str, ...]
    # the decisions an AI stand-in made for the seat (its time ran out, or it was away):
    # how many, left out of all the above, and the line that says so (also in ``lines``)
    standin: int = 0
    standin_line: str = ""

    @property
    def costly(self) -> tuple[Decision, ...]:
        return tuple(d for d in self.items if d.costly)

    @property
    def agreement(self) -> float:
        """The share of the seat's decisions that were the Owl's (1.0 with none)."""
        return 1.0 - len(self.items) / self.decisions if self.decisions else 1.0

    @property
    def lost(self) -> float:
        """The expected points the seat's decisions gave up against the Owl's."""
        return sum(d.cost for d in self.items)

    @property
    def tally(self) -> str:
        """``"24 decisions, 19 as Owl would (79%); of the other 5: 3 close calls, 1
        mistake, 1 serious mistake; about 2.4 points lost in expectation."``; empty when
        Owl chose as the seat did everywhere (the first line says so)."""
        if not self.items:
            return ""
        return tally_text(self.decisions, list(self.items))


def severity(cost: float, rules: Ruleset) -> str:
    """How a decision that gave up ``cost`` expected points is marked at a table of
    ``rules``: ``"close"``, ``"mistake"`` or ``"serious mistake"``."""
    return ("close" if cost < close_margin(rules) else
            "serious mistake" if cost >= serious_margin(rules) else "mistake")


def _points(x: float) -> str:
    """Expected points as the review says them: "about 2.4 points", "under 0.1 points"."""
    return "under 0.1 points" if x < 0.05 else f"about {x:.1f} points"


def tally_text(decisions: int, items: Sequence[Decision]) -> str:
    """How many decisions were the Owl's, how the others were marked and what they cost."""
    same = decisions - len(items)
    marks = [d.severity for d in items]
    kinds = [count(marks.count(k), "close call" if k == "close" else k)
             for k in ("close", "mistake", "serious mistake") if marks.count(k)]
    share = round(100 * same / decisions) if decisions else 100
    return (f"{count(decisions, 'decision')}, {same} as Owl would ({share}%); of the other "
            f"{len(items)}: {', '.join(kinds)}; {_points(sum(d.cost for d in items))} lost "
            "in expectation.")


# ---------------------------------------------------------------- the decisions

_WINDOW = (ClaimPassed, BaoIncurred, Won, Settled, InstantPayout)
_RANK = {Win: 3, Kong: 2, Pong: 2, Chow: 1}


def _rank(a: Action) -> int:
    return _RANK.get(type(a), 0)


def _turn_choice(e: Event, seat: Seat) -> Action | None:
    if isinstance(e, Discarded) and e.seat == seat:
        return Discard(e.tile)
    if isinstance(e, KongDeclared) and e.seat == seat:
        return Kong(e.tile, e.kind)
    if isinstance(e, Won) and e.seat == seat:
        return Win()
    if isinstance(e, HandDrawn) and e.reason == "final-tile":
        return Pass()
    return None


def _window_choice(events: Sequence[Event], i: int, seat: Seat,
                   legal: Sequence[Action]) -> Action | None:
    """What ``seat`` chose in the claim window whose events start at ``i``; None when the
    events do not tell (another seat's claim outranked whatever it chose)."""
    taker: Action | None = None
    for e in events[i:]:
        if isinstance(e, Won):
            if e.seat == seat:
                return Win()
            taker = taker or Win()
        elif isinstance(e, Claimed):
            if e.seat == seat:
                return (Chow(e.low) if e.kind == "chow" else
                        Pong() if e.kind == "pong" else Kong(e.tile, "claimed"))
            taker = Chow(e.low) if e.kind == "chow" else Pong()
            break
        elif not isinstance(e, _WINDOW):
            break
    if taker is None:
        return Pass()   # nobody took the tile: every seat passed
    options = [a for a in legal if not isinstance(a, Pass)]
    if options and all(_rank(a) > _rank(taker) for a in options):
        return Pass()   # anything it chose would have outranked the taker
    return None


def decision_points(events: Sequence[Event], seat: Seat,
                    rules: str | Ruleset | None = None) -> Iterator[DecisionPoint]:
    """Every decision ``seat`` made in the hand ``events`` (one hand, from hand-started),
    with that seat's :func:`view` just before it: the engine's state is rebuilt event by
    event and only the view is handed on."""
    rs = load_rules(rules)
    state = TableState.empty(rs)
    window = None
    for i, e in enumerate(events):
        # A claim window stays open over its claim-passed events: one decision per window.
        here = (state.phase, state.turn, state.discard_count, state.sets_declared,
                state.window_tile)
        if state.phase in (Phase.TURN, Phase.CLAIMS, Phase.ROB_KONG, Phase.EXPOSED) and (
                state.phase is Phase.TURN or here != window):
            window = here
            auto, dec = step(state)
            legal = dec.get(seat) if not auto else None
            if legal:
                if state.phase is Phase.TURN:
                    chosen = _turn_choice(e, seat)
                else:
                    chosen = _window_choice(events, i, seat, legal)
                if chosen is not None:
                    yield DecisionPoint(i, view(state, seat), tuple(legal),
                                        tuple(discard_history(events[:i])), chosen)
        apply(state, e)


# ---------------------------------------------------------------- weighing one decision

def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _action_text(a: Action, v: PlayerView, done: bool) -> str:
    """"threw 5 Circles" (``done``), or what the Owl "would have" done: "thrown 5 Circles",
    "taken the Pong of 2 Characters"."""
    if isinstance(a, Discard):
        return f"{'threw' if done else 'thrown'} {tile_name(a.tile)}"
    if isinstance(a, Win):
        return "won"
    if isinstance(a, Pass):
        if v.phase is Phase.TURN:
            return "ended the hand"
        return "let the tile pass" if done else "let it pass"
    if isinstance(a, Kong) and a.kind != "claimed":
        return f"declared a kong of {tile_name(a.tile)}"
    return f"{'took' if done else 'taken'} the {claim_name(a, v.window_tile)}"


_LABEL_WORDS = {"dangerous": "was dangerous", "some risk": "carried some risk",
                "safe": "looked safe", None: "looked safe"}


Namer = Callable[[Seat], str]
"""How the review names another seat: its wind by default, or the player sitting there."""


def _wind(seat: Seat) -> str:
    return seat.name.title()


def _discard_facts(p: DecisionPoint, mine: Tile, owls: Tile, owl: Owl, name: Namer = _wind
                   ) -> tuple[float, str, tuple[int, int], tuple[int, int], tuple[str, ...],
                              tuple[str | None, str | None]]:
    v = p.view
    sit = situation(v)
    tiles = [a.tile for a in p.legal if isinstance(a, Discard)]
    evals = {e.tile: e for e in owl.evaluations(v, tiles, sit)}
    cost = evals[owls].expected - evals[mine].expected
    opts = {o.tile: o for o in discard_options(sit, tiles)}
    a, b = opts[mine], opts[owls]
    threats = read_threats(v, p.history)
    da, db = discard_danger(v, mine, threats), discard_danger(v, owls, threats)
    tai = v.rules.scoring.counts_tai
    before = view_plan(v)
    lost_a = gives_up(before, view_plan(v, a.after, sit.melds)) if tai else []
    lost_b = gives_up(before, view_plan(v, b.after, sit.melds)) if tai else []
    lost = [s for s in lost_a if s not in lost_b]
    mine_n, owls_n = tile_name(mine), tile_name(owls)
    why = []
    if a.shanten > b.shanten:
        why.append(f"{mine_n} left you {away_text(a.shanten)}, {owls_n} "
                   f"{away_text(b.shanten)}")
    elif a.shanten < b.shanten:
        why.append(f"{mine_n} left you {away_text(a.shanten)} but with only "
                   f"{count(a.live, 'useful tile')} unseen; {owls_n} left you "
                   f"{away_text(b.shanten)} with {b.live}, likelier to get ready soon")
    elif b.live - a.live >= 2:
        why.append(f"{owls_n} kept {count(b.live, 'useful tile')} unseen against your "
                   f"{a.live}")
    if lost:
        why.append(f"{mine_n} gave up {given_up_text(lost)}")
    order = {None: 0, "safe": 0, "some risk": 1, "dangerous": 2}
    if order[da.label] > order[db.label]:
        who = "; ".join([*(f"{name(t.seat)}: {t.why}" for t in da.against),
                         f"{in_words(da.chance)} that someone would win on it"])
        why.append(f"{mine_n} {_LABEL_WORDS[da.label]} ({who})"
                   + (f" and {owls_n} was safe" if db.label == "safe" else ""))
    ea, eb = evals[mine], evals[owls]
    if eb.value >= 1.2 * ea.value and eb.win > 0.01:
        why.append(f"a win after {owls_n} would have been worth about "
                   f"{count(round(eb.value), 'point')}, after {mine_n} about "
                   f"{round(ea.value)}")
    if not why:
        why.append(f"{owls_n} left you {in_words(eb.win)} to win this hand, {mine_n} "
                   f"{in_words(ea.win)}")
    return (cost, "; ".join(why), (a.shanten, b.shanten), (a.live, b.live),
            tuple(s.text for s in lost), (da.label, db.label))


def _claim_facts(p: DecisionPoint, mine: Action, owls: Action
                 ) -> tuple[float, str, tuple[int, int], tuple[str, ...]]:
    v = p.view
    sit = situation(v)
    opts = {o.action: o for o in claim_options(v, p.legal, sit)}
    base = useful_kinds(sit.counts, sit.n_melds)[0]

    def value(a: Action) -> tuple[float, int]:
        opt = opts.get(a)
        if opt is None:   # a pass
            return evaluate_pass(v, sit).expected, base
        return claim_values(v, opt, sit)[0], opt.after

    (va, sa), (vb, sb) = value(mine), value(owls)
    why = []
    if sa != sb:
        why.append(f"it would have left you {away_text(sb)} instead of {away_text(sa)}")
    lost: list[str] = []
    if v.rules.scoring.counts_tai:
        before = view_plan(v)
        plan_of = {a: view_plan(v, o.counts, o.melds) for a, o in opts.items()}
        lost_a = gives_up(before, plan_of[mine]) if mine in plan_of else []
        lost_b = gives_up(before, plan_of[owls]) if owls in plan_of else []
        gone = [s for s in lost_a if s not in lost_b]
        sec_a = plan_of[mine].secured if mine in plan_of else before.secured
        sec_b = plan_of[owls].secured if owls in plan_of else before.secured
        if sec_b > sec_a:
            why.append(f"it would have made {count(sec_b, 'tai')} certain instead of "
                       f"{sec_a}")
        if gone:
            why.append(f"yours gave up {given_up_text(gone)}")
            lost = [s.text for s in gone]
        if mine in plan_of and not plan_of[mine].reachable:
            why.append("it left the hand no tai to win with")
    if not why:
        why.append(f"taking it was worth about {vb - va:.1f} points more in expectation"
                   if isinstance(mine, Pass) else
                   f"letting it pass was worth about {vb - va:.1f} points more in "
                   "expectation" if isinstance(owls, Pass) else
                   f"it was worth about {vb - va:.1f} points more in expectation")
    return vb - va, "; ".join(why), (sa, sb), tuple(lost)


def _weigh(p: DecisionPoint, owl_choice: Action, turn: int, owl: Owl,
           name: Namer = _wind) -> Decision:
    v, mine = p.view, p.chosen
    when = f"On your {_ordinal(turn)} turn" if v.phase is Phase.TURN else (
        f"After your {_ordinal(turn)} turn" if turn else "Before your first turn")
    if v.window_tile is not None and v.phase is not Phase.TURN:
        when += f", on {name(v.turn)}'s {tile_name(v.window_tile)}"
    comma = "," if v.window_tile is not None and v.phase is not Phase.TURN else ""
    head = (f"{when}{comma} you {_action_text(mine, v, True)}; Owl would have "
            f"{_action_text(owl_choice, v, False)}")
    shanten = useful = (0, 0)
    given: tuple[str, ...] = ()
    danger: tuple[str | None, str | None] = (None, None)
    if isinstance(owl_choice, Win):
        kind = "win"
        tile = v.last_drawn if v.phase is Phase.TURN else v.window_tile
        cost = _win_worth(v, tile)
        why = (f"you passed up a win{'' if tile is None else ' on ' + tile_name(tile)}, "
               f"worth {count(round(cost), 'point')}")
    elif isinstance(mine, Discard) and isinstance(owl_choice, Discard):
        kind = "discard"
        cost, why, shanten, useful, given, danger = _discard_facts(p, mine.tile,
                                                                    owl_choice.tile, owl, name)
    elif v.phase is Phase.TURN:
        kind, cost, why = "kong", 0.0, "a kong on your turn is a matter of taste here"
        if isinstance(owl_choice, Kong):
            why = "the kong costs no step and brings a replacement tile and its payment"
    else:
        kind = "claim"
        cost, why, shanten, given = _claim_facts(p, mine, owl_choice)
    cost = max(0.0, cost)
    level = severity(cost, v.rules)
    mark = {"close": "a close call", "mistake": "a mistake",
            "serious mistake": "a serious mistake"}[level]
    return Decision(p.index, turn, kind, mine, owl_choice, cost, shanten, useful,
                    given, danger,
                    f"{head}: {why}. That was {mark}: {_points(cost)} lost in expectation.",
                    _brief(when, mine, owl_choice, v, cost, shanten, useful, given, danger),
                    _tiles_of(p, owl_choice), level)


def _win_worth(v: PlayerView, tile: Tile | None) -> float:
    """The points a win the seat passed up would have collected (at least one)."""
    source = "self" if v.phase is Phase.TURN else (
        "rob-kong" if v.phase is Phase.ROB_KONG else "discard")
    res = win_score(v, tile, source) if tile is not None else None
    if res is None or not res.winning:
        return 1.0
    return float(max(1, win_payments(v.rules, res.tai, source == "self")[0]))


def _tiles_of(p: DecisionPoint, owls: Action) -> tuple[Tile, ...]:
    """The tiles a decision is about, to draw beside its sentence: the two discards, or the
    tile on offer (a claim, a win on a discard), or the tile drawn (a self-drawn win), or
    the kong's."""
    v, mine = p.view, p.chosen
    if isinstance(mine, Discard) and isinstance(owls, Discard):
        return (mine.tile, owls.tile)
    if v.phase is not Phase.TURN and v.window_tile is not None:
        return (v.window_tile,)
    kong = next((a for a in (owls, mine) if isinstance(a, Kong)), None)
    if kong is not None:
        return (kong.tile,)
    if isinstance(owls, Win) and v.last_drawn is not None:
        return (v.last_drawn,)
    return ()


def _short(a: Action, v: PlayerView) -> str:
    if isinstance(a, Discard):
        return tile_name(a.tile)
    if isinstance(a, Pass):
        return "pass"
    if isinstance(a, Win):
        return "win"
    if isinstance(a, Kong) and a.kind != "claimed":
        return f"kong of {tile_name(a.tile)}"
    return claim_name(a, v.window_tile).split(" with ")[0]




def _brief(when: str, mine: Action, owls: Action, v: PlayerView, cost: float,
           shanten: tuple[int, int], useful: tuple[int, int], given: Sequence[str],
           danger: tuple[str | None, str | None]) -> str:
    """"On your 3rd turn: 4 Characters, Owl West Wind; 2 tiles away from ready against 1;
    64 useful tiles against 84; costs about 0.6 points"."""
    parts = [f"{when}: {_short(mine, v)}, Owl {_short(owls, v)}"]
    if shanten[0] != shanten[1]:
        parts.append(f"{away_text(shanten[0])} against {away_text(shanten[1])}")
    if useful != (0, 0) and useful[0] != useful[1]:
        parts.append(f"{count(useful[0], 'useful tile')} against {useful[1]}")
    if given:
        parts.append(f"gave up {', '.join(given)}")
    if danger[0] != danger[1] and danger[0] in ("dangerous", "some risk"):
        parts.append(f"{danger[0]} against {danger[1] or 'safe'}")
    parts.append("a passed win" if isinstance(owls, Win) and not isinstance(mine, Win)
                 else f"costs {_points(cost)}")
    return "; ".join(parts)


# ---------------------------------------------------------------- the review

class _Owl(Owl):
    """The Owl, keeping the evaluations of its latest discard so the review weighs the
    alternatives without working them out twice (kept with the view they belong to)."""

    _last: tuple[PlayerView, tuple[Tile, ...], list[Evaluation]] | None = None

    def evaluations(self, view: PlayerView, tiles: Sequence[Tile], sit: Situation
                    ) -> list[Evaluation]:
        last = self._last
        if last is not None and last[0] is view and last[1] == tuple(tiles):
            return last[2]
        out = super().evaluations(view, tiles, sit)
        self._last = (view, tuple(tiles), out)
        return out


def _deal_in(won: Won, i: int, last: DecisionPoint | None, counts_tai: bool,
             name: Namer = _wind) -> DealIn:
    """The deal-in ``won`` at event ``i``, read from the view before the discard."""
    tile = won.tile
    winner = name(won.seat)
    worth = f" ({count(won.tai, 'tai')})" if counts_tai else ""
    head = f"You dealt in {tile_name(tile)} to {winner}{worth}"
    if "robbing-kong" in won.context:
        return DealIn(i, tile, won.seat, won.tai, None, (),
                      f"{winner} robbed your kong of {tile_name(tile)}{worth}.", winner)
    if last is None:
        return DealIn(i, tile, won.seat, won.tai, None, (), head + ".", winner)
    threats = read_threats(last.view, last.history)
    d = discard_danger(last.view, tile, threats)
    th = next((t for t in threats if t.seat == won.seat), None)
    reasons = th.reasons if th is not None else ()
    if th is not None and th.ready:
        why = (f"{winner} looked ready ({th.why}), and {tile_name(tile)} "
               f"{_LABEL_WORDS[d.label]} ({in_words(d.chance)} that someone would win on "
               "it)")
        safe = sorted({t for t in last.view.concealed if t < 34 and t in th.safe})
        if safe:
            why += f"; {tile_name(safe[0])} was safe against {winner}"
    elif th is not None:
        why = (f"{winner} did not look ready: {th.why_not}; little face up marked "
               f"{tile_name(tile)} as dangerous")
    else:
        why = "nothing face up marked it as dangerous"
    return DealIn(i, tile, won.seat, won.tai, d.label, reasons, f"{head}: {why}.", winner)


def standin_indices(notes: Mapping[int, Mapping[str, Any]] | None,
                    seat: Seat | int) -> frozenset[int]:
    """The indices of the events (of one hand) whose notes say that ``seat``'s decision
    just before them was a stand-in's (``meta`` ``{"standin": [seats]}``, docs/records.md)."""
    from ..record import STANDIN

    out = set()
    for i, meta in (notes or {}).items():
        seats = meta.get(STANDIN) if isinstance(meta, Mapping) else None
        if isinstance(seats, list) and int(seat) in seats:
            out.add(i)
    return frozenset(out)


def _standin_line(n: int, dealt: Sequence[Tile]) -> str:
    """"The AI stand-in made 3 decisions of this hand for you ...": empty when none."""
    if not n:
        return ""
    text = (f"The AI stand-in made {count(n, 'decision')} of this hand for you (your time "
            f"ran out, or you were away): {'it is' if n == 1 else 'they are'} left out of "
            "this review")
    if dealt:
        text += f", and so is its deal-in of {', '.join(tile_name(t) for t in dealt)}"
    return text + "."


def review_hand(record_or_events: Record | Sequence[Event], seat: Seat | int,
                rules: str | Ruleset | None = None,
                notes: Mapping[int, Mapping[str, Any]] | None = None, *,
                names: Sequence[str] | None = None) -> Review:
    """Review ``seat``'s play in one hand: the hand's events (from its hand-started), or a
    :class:`~sgmahjong.record.Record` holding one hand (its first hand is reviewed; use
    :func:`review_record` for a whole match). ``rules`` defaults to the record's.
    ``notes`` (the event lines' ``meta`` by index in the hand; a record's own by default)
    marks the decisions a stand-in made for the seat: they are not reviewed.
    ``names``, by seat, are the players' names for the other seats as the front end
    shows them ("on Fox's 5 Bamboo", "You dealt in ... to Owl"); without them a seat is
    named by its wind."""
    if isinstance(record_or_events, Sequence):
        events = list(record_or_events)
    else:
        hands = record_or_events.hands()
        events = list(hands[0][1]) if hands else []
        rules = record_or_events.rules if rules is None else rules
        if notes is None and hands:
            notes = record_or_events.hand_notes(hands[0][0], len(events))
    rs = load_rules(rules)
    me = Seat(seat)
    stood = standin_indices(notes, me)
    name: Namer = _wind if names is None else (lambda s: names[s])
    owl = _Owl(0)
    items: list[Decision] = []
    turn = 0
    n = 0
    discards: list[DecisionPoint] = []
    mine: list[DecisionPoint] = []     # every decision, the stand-in's too
    for p in decision_points(events, me, rs):
        if p.view.phase is Phase.TURN:
            turn += 1      # the turns keep their numbers in the hand, whoever played them
        mine.append(p)
        if isinstance(p.chosen, Discard):
            discards.append(p)
        if p.index in stood:
            continue
        n += 1
        choice = owl.act(p.view, list(p.legal))
        if choice == p.chosen:
            continue
        items.append(_weigh(p, choice, turn, owl, name))
    items.sort(key=lambda d: (-d.cost, d.index))
    deal_ins = []
    standin_dealt: list[Tile] = []
    for i, e in enumerate(events):
        if isinstance(e, Won) and e.discarder == me:
            # the throw (or kong) it was won on is the seat's last decision before it
            last = next((p for p in reversed(mine) if p.index < i), None)
            if last is not None and last.index in stood:
                standin_dealt.append(e.tile)
                continue
            prior = next((p for p in reversed(discards) if p.index < i), None)
            deal_ins.append(_deal_in(e, i, prior, rs.scoring.counts_tai, name))
    costly = [d for d in items if d.costly][:SHOWN]
    lines = [d.sentence for d in costly]
    lines.extend(d.sentence for d in deal_ins)
    if not costly:
        head = ("You made no decision of this hand yourself." if not n and stood
                else "You made every decision of this hand as Owl would." if not items
                else f"Owl chose differently {count(len(items), 'time')}, each a close "
                     "call: no mistake.")
        lines.insert(0, head)
    left_out = sum(1 for p in mine if p.index in stood)
    note = _standin_line(left_out, standin_dealt)
    if note:
        lines.append(note)
    return Review(me, n, tuple(items), tuple(deal_ins), tuple(lines), left_out, note)


def review_record(record: Record, player: int) -> list[tuple[int, Seat, Review]]:
    """Review ``player`` (0-3, as in the record's players; the seat moves with the banker)
    in every hand of a match record: ``(hand number, seat held, review)`` per hand. The
    other players are named as the record names them."""
    from ..record import replay_record

    out = []
    for hand in replay_record(record):
        seat = hand.match.seat_of(player)
        events = hand.game.events
        notes = record.hand_notes(hand.first, len(events))
        names = [record.players[hand.match.player_at(s)] for s in Seat]
        out.append((hand.number, seat, review_hand(events, seat, record.rules, notes,
                                                   names=names)))
    return out


def match_summary(reviews: Sequence[tuple[int, Review]]) -> list[str]:
    """Sentences that sum up one player's reviews over a match, ``(hand number, review)``
    per hand played: the decisions, how many Owl would have made otherwise and how many of
    those were costly, the deal-ins, and the costliest decision of the match.

    >>> match_summary([])
    ['No hand was reviewed.']
    """
    if not reviews:
        return ["No hand was reviewed."]
    decisions = sum(r.decisions for _, r in reviews)
    items = [d for _, r in reviews for d in r.items]
    differ = len(items)
    costly = [(n, d) for n, r in reviews for d in r.costly]
    dealt = [(n, d) for n, r in reviews for d in r.deal_ins]
    hands = count(len(reviews), "hand")
    if not differ:
        out = [f"Over {hands} you made {count(decisions, 'decision')}, every one as Owl "
               "would have."]
    else:
        out = [f"Over {hands}: {tally_text(decisions, items)}"]
    if not dealt:
        out.append("You dealt in no winning tile.")
    else:
        tiles = ", ".join(f"{tile_name(d.tile)} to {d.winner_name or _wind(d.winner)} in hand "
                          f"{n + 1}"
                          for n, d in dealt)
        times = "once" if len(dealt) == 1 else f"{len(dealt)} times"
        out.append(f"You dealt in {times}: {tiles}.")
    if costly:
        n, worst = max(costly, key=lambda nd: (nd[1].cost, -nd[0], -nd[1].index))
        out.append(f"The costliest, in hand {n + 1}: {worst.sentence}")
        clean = [k for k, r in reviews if not r.costly]
        if clean:
            out.append(f"No mistake in {count(len(clean), 'hand')} of {len(reviews)}.")
    elif differ:
        out.append("Each difference was a close call: no mistake.")
    standin = sum(r.standin for _, r in reviews)
    if standin:
        out.append(f"The AI stand-in made {count(standin, 'decision')} for you (your time "
                   "ran out, or you were away): they are not counted here."
                   if standin > 1 else
                   "The AI stand-in made 1 decision for you (your time ran out, or you "
                   "were away): it is not counted here.")
    return out
