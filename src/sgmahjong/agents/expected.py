"""Expected points of a decision, read from one seat's :class:`PlayerView`.

Every candidate discard, claim or pass is valued by what it is worth at the end of the
hand, in the table's own points::

    expected = (1 - dealt) * win * (value + spared) - sum(chance[o] * cost[o])

- ``win``: the chance that the hand left (13 tiles waiting for a draw) wins, from a
  logistic model over the Owl's count of it (its speed two draws ahead and its tai plan),
  the wall left and the table (fitted by ``bench/fit_points.py``);
- ``value``: the points a win would bring, paid by the table's own settlement
  (:func:`sgmahjong.scoring.payments.settle_win`: base, cap, discarder and self-drawn
  rates): a ready hand by the exact tai of each wait, a hand further away by the tai it
  has secured (a source not yet secured counts at the model's ``realise`` chance, which
  the shipped model sets to nothing: valuing it made the Owl chase it, docs/ai.md);
  ``spared``: what the seat would otherwise pay for another seat's win;
- ``dealt``, ``chance[o]``: the chance that seat ``o`` wins on this very discard (the
  calibrated model of :mod:`sgmahjong.agents.dealin`), and ``cost[o]`` what that costs
  over what the seat would pay ``o`` anyway: the discarder's share of ``o``'s likely hand
  (its tai shown plus the fitted spread of what it hides), the whole table's payment when
  the discard would make the seat liable (Bao).

Every payment comes from the rules, so the same numbers hold under every preset: where
the discarder pays nothing extra (``garden``, ``casual``) a deal-in costs nothing over
another seat's win, and only speed and value count.

The hints, the review and the Owl all read these figures: the Owl plays the best, the
hint suggests it and says why in these terms, and the review's cost of a decision is the
difference in expected points.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..game.actions import Action, Discard, Kong, Pass
from ..game.view import PlayerView
from ..melds import Meld
from ..rules.model import Ruleset
from ..scoring.bao import exposed_tai
from ..scoring.payments import settle_win
from ..tiles import Seat, Tile
from .danger import History, Threat, read_threats
from .dealin import dealin
from .evaluation import (
    Situation,
    _wait_tai,
    bao_dangers,
    claimed,
    discard_options,
    keep_score,
    lookahead,
    ready_waits,
    useful_kinds,
    view_plan,
)
from .fox import DEAD_READY, SECURED, plan_value

__all__ = [
    "CLOSE_SHARE",
    "DEEP",
    "SERIOUS_SHARE",
    "WIN_FEATURES",
    "Evaluation",
    "PointsModel",
    "best_claim",
    "close_margin",
    "evaluate_claim",
    "evaluate_discards",
    "evaluate_pass",
    "hand_inputs",
    "load_points_model",
    "owl_count",
    "serious_margin",
    "typical_win",
    "win_features",
    "win_payments",
]

DEEP = 8          # candidates valued two draws ahead; the rest by shanten and live tiles
TIE = 0.002       # points per unit of keep_score: only breaks ties between equal discards
SHAPE = 0.015     # share of the win's worth lost per unit of keep_score of the tile thrown

WIN_FEATURES = (
    "bias", "count", "count x wall", "wall left", "wall left squared", "sets",
    "others ready",
)


@dataclass(frozen=True, slots=True)
class PointsModel:
    """The fitted parts of the evaluation (``points_model.json``, written by
    ``bench/fit_points.py``).

    ``win``: logistic coefficients over :data:`WIN_FEATURES`; ``self_drawn``: the share of
    wins that are self-drawn; ``realise``: by distance from ready (0-3), the chance that a
    hand that wins reaches its best tai source not yet secured; ``extra``: the spread of a
    winner's tai over what it showed (0, 1, 2, 3 or more tai more); ``win_tai``: the spread
    of the tai of a win (0 to 6 or more; for what another seat's win costs); ``others``:
    the chance that another seat wins a hand this seat does not; ``anyway``: of an
    opponent's hand that this seat would deal in to, the share it would pay that opponent
    even without dealing in (a later win)."""

    win: tuple[float, ...]
    self_drawn: float
    realise: tuple[float, ...]
    extra: tuple[float, ...]
    win_tai: tuple[float, ...]
    others: float
    anyway: float
    about: str = ""

    def win_chance(self, x: Sequence[float]) -> float:
        z = sum(c * v for c, v in zip(self.win, x, strict=True))
        return 1 / (1 + math.exp(-z)) if z > -40 else 0.0


@cache
def load_points_model() -> PointsModel:
    """The shipped model (``points_model.json``)."""
    raw = json.loads(resources.files(__package__).joinpath("points_model.json").read_text())
    return model_of(raw)


def model_of(raw: dict[str, object]) -> PointsModel:
    """A :class:`PointsModel` from its JSON form (as written by ``bench/fit_points.py``)."""
    win = raw["win"]
    assert isinstance(win, dict)
    if tuple(win) != WIN_FEATURES:
        raise ValueError("points_model.json does not match the features of this version: "
                         "refit it with bench/fit_points.py")

    def floats(key: str) -> tuple[float, ...]:
        v = raw[key]
        assert isinstance(v, list)
        return tuple(float(x) for x in v)

    return PointsModel(tuple(float(win[n]) for n in WIN_FEATURES),
                       float(raw["self_drawn"]), floats("realise"), floats("extra"),  # type: ignore[arg-type]
                       floats("win_tai"), float(raw["others"]), float(raw["anyway"]),  # type: ignore[arg-type]
                       str(raw.get("about", "")))


# ---------------------------------------------------------------- payments by the rules

_PAY: dict[int, tuple[Ruleset, dict[tuple[int, bool, int], tuple[int, int, int]]]] = {}


def win_payments(rules: Ruleset, tai: int, self_drawn: bool, liable: bool = False
                 ) -> tuple[int, int, int]:
    """For a win of ``tai`` under ``rules``: (what the winner collects, what the discarder
    pays (self-drawn: what each pays), what another loser pays). ``liable``: the
    discarder pays for the whole table (Bao)."""
    key = id(rules)
    hit = _PAY.get(key)
    if hit is None or hit[0] is not rules:
        if len(_PAY) > 64:
            _PAY.clear()
        hit = (rules, {})
        _PAY[key] = hit
    table = hit[1]
    k = (tai, self_drawn, int(liable))
    out = table.get(k)
    if out is None:
        d = settle_win(rules, Seat.EAST, tai, self_drawn, None if self_drawn else Seat.SOUTH,
                       liable=Seat.SOUTH if liable and not self_drawn else None).deltas
        out = (d[Seat.EAST], -d[Seat.SOUTH], -d[Seat.WEST])
        table[k] = out
    return out


def _minimum(rules: Ruleset) -> int:
    return rules.scoring.minimum_tai if rules.scoring.counts_tai else 0


def _collect(rules: Ruleset, tai: int, m: PointsModel) -> float:
    """Expected points collected by a win of ``tai`` (self-drawn at the fitted share)."""
    return (m.self_drawn * win_payments(rules, tai, True)[0]
            + (1 - m.self_drawn) * win_payments(rules, tai, False)[0])


def spared(rules: Ruleset, m: PointsModel) -> float:
    """What this seat expects to pay for a hand it does not win (another seat's win, not on
    its own discard): a win of the hand avoids it."""
    total = 0.0
    for tai, p in enumerate(m.win_tai):
        own = win_payments(rules, tai, True)[1]
        other = win_payments(rules, tai, False)[2]
        total += p * (m.self_drawn * own + (1 - m.self_drawn) * other)
    return m.others * total


# How far apart two choices must be, in expected points, before the hints and the review
# call one better: shares of what a typical win pays at this table (the fitted spread of
# the tai of wins, paid by its rules), so that they mean the same under every preset. Under
# standard (a typical win 25 points) a close call is under 0.5 points, a serious mistake
# from 2 (docs/ai.md, "The review").
CLOSE_SHARE = 0.02
SERIOUS_SHARE = 0.08


def typical_win(rules: Ruleset, model: PointsModel | None = None) -> float:
    """What a win pays its winner at this table, on average over the fitted tai of wins."""
    m = load_points_model() if model is None else model
    return sum(p * _collect(rules, min(tai, rules.scoring.tai_cap), m)
               for tai, p in enumerate(m.win_tai))


def close_margin(rules: Ruleset) -> float:
    """Choices within this many expected points of each other are a close call."""
    return CLOSE_SHARE * typical_win(rules)


def serious_margin(rules: Ruleset) -> float:
    """A decision that gives up this many expected points or more is a serious mistake."""
    return SERIOUS_SHARE * typical_win(rules)


# ---------------------------------------------------------------- one candidate

@dataclass(frozen=True, slots=True)
class Evaluation:
    """One candidate's expected points and the figures they come from.

    ``win`` is the chance that the hand left wins and ``value`` the points such a win
    would bring; ``dealin`` the chance that the discard is won on now (``by_seat``: each
    other seat's part: its chance, what such a win would cost over what the seat pays
    anyway, and what the seat would pay for it); ``expected`` the whole, in points."""

    action: Action
    tile: Tile | None        # the discard (after a claim: the discard that follows it)
    shanten: int
    live: int                # unseen copies of the tiles that bring the hand closer
    win: float
    value: float
    dealin: float
    by_seat: tuple[tuple[Seat, float, float, float], ...]   # (seat, chance, cost, paid)
    expected: float
    bao: bool = False
    instant: float = 0.0     # points paid at once (a claimed kong)

    @property
    def risk(self) -> float:
        """Expected points lost to a win on this discard."""
        return sum(p * c for _, p, c, _ in self.by_seat)

    @property
    def threat(self) -> tuple[Seat, float, float] | None:
        """The seat this discard is likeliest to cost the most against: (seat, chance,
        what the seat would pay it)."""
        if not self.by_seat:
            return None
        seat, p, _, paid = max(self.by_seat, key=lambda r: (r[1] * r[2], -r[0]))
        return seat, p, paid


def win_features(view: PlayerView, count: float, melds: Sequence[Meld], others_ready: int
                 ) -> tuple[float, ...]:
    """The win model's inputs, in the order of :data:`WIN_FEATURES`: the Owl's count of
    the hand (``count``, tens per shanten, see :func:`owl_count`), the wall left, the sets
    the seat shows and how many other seats look ready."""
    wall = view.live_remaining / 100
    c = count / 10
    return (1.0, c, c * wall, wall, wall * wall, len(melds) / 4, float(others_ready))


def _ready_value(view: PlayerView, after: tuple[int, ...], melds: Sequence[Meld],
                 unseen: Sequence[int], m: PointsModel) -> float:
    """The points a win of a ready hand brings, averaged over the waits that can win by
    their unseen copies (0 when none can)."""
    rules = view.rules
    waits = _wait_tai(after, tuple(melds), tuple(view.me.bonus), view.seat,
                      view.round_wind, rules)
    winning = 0
    total = 0.0
    for t, tai in waits:
        if tai >= 0:
            winning += unseen[t]
            total += unseen[t] * _collect(rules, min(tai, rules.scoring.tai_cap), m)
    return total / winning if winning else 0.0


def _plan_value(view: PlayerView, after: tuple[int, ...], melds: Sequence[Meld], s: int,
                m: PointsModel) -> float:
    """The points a win of a hand not yet ready would bring."""
    rules = view.rules
    plan = view_plan(view, after, melds)
    cap = rules.scoring.tai_cap
    low = min(max(plan.secured, _minimum(rules)), cap)
    pot = max((src.tai for src in plan.sources if not src.secured), default=0)
    value = _collect(rules, low, m)
    if pot:
        # the tai it can expect, the best source not yet secured counted at the fitted
        # chance of reaching it: valued as a hand of that many tai, between the two whole
        # numbers geometrically (as base points grow), not as a gamble on the higher one,
        # which made the Owl chase a source at any cost in speed (docs/ai.md)
        q = m.realise[min(s, len(m.realise) - 1)]
        tai = min(low + q * max(0, min(plan.secured + pot, cap) - low), cap)
        lo = int(tai)
        frac = tai - lo
        value = _collect(rules, lo, m)
        if frac:
            value *= (_collect(rules, lo + 1, m) / max(value, 1e-9)) ** frac
    return value


def owl_count(view: PlayerView, sit: Situation, after: tuple[int, ...],
              melds: Sequence[Meld], s: int, live: int, deep: bool) -> float:
    """The Owl's count of a 13-tile hand waiting for a draw, higher is better: minus ten
    for each step it expects to be from ready two draws ahead (draws weighted by unseen
    copies; waits too cheap to win count as none), plus its tai plan (each tai already
    certain, a tenth of its best source not yet secured, most of a step off when it cannot
    reach the minimum tai, more when a ready hand's every wait is too cheap to win).
    ``deep``: count two draws ahead, else by shanten and live tiles alone."""
    unseen: Sequence[int] = sit.unseen
    if s == 0:
        w = ready_waits(view, after, melds, sit.unseen)
        tai = SECURED * min(w.tai, 5) if w.winning else -DEAD_READY
        if w.dead_kinds:
            unseen = [0 if k in w.dead_kinds else n for k, n in enumerate(sit.unseen)]
            live = w.winning
    else:
        tai = plan_value(view_plan(view, after, melds))
    speed = lookahead(after, len(melds), unseen) if deep else s - live / sit.total_unseen + 0.3
    return -10.0 * speed + tai


def hand_inputs(view: PlayerView, sit: Situation, after: tuple[int, ...],
                melds: Sequence[Meld], s: int, live: int, deep: bool, others_ready: int,
                m: PointsModel) -> tuple[tuple[float, ...], float]:
    """The win model's inputs for the 13-tile hand ``after`` + ``melds`` waiting for a
    draw, and the points a win of it would bring."""
    value = (_ready_value(view, after, melds, sit.unseen, m) if s == 0
             else _plan_value(view, after, melds, s, m))
    count = owl_count(view, sit, after, melds, s, live, deep)
    return win_features(view, count, melds, others_ready), value


def _hand(view: PlayerView, sit: Situation, after: tuple[int, ...], melds: Sequence[Meld],
          s: int, live: int, deep: bool, others_ready: int, m: PointsModel
          ) -> tuple[float, float]:
    """(chance to win, points of a win) for the 13-tile hand ``after`` + ``melds``."""
    x, value = hand_inputs(view, sit, after, melds, s, live, deep, others_ready, m)
    return m.win_chance(x), value


def _costs(view: PlayerView, tile: Tile, threats: Sequence[Threat], history: History | None,
           m: PointsModel
           ) -> tuple[float, tuple[tuple[Seat, float, float, float], ...], bool]:
    """The chance that ``tile`` is won on now and, per seat, (seat, chance, cost over what
    the seat would pay anyway, what it would pay)."""
    rules = view.rules
    chance = dealin(view, tile, threats, history)
    bao = {b.seat for b in bao_dangers(view, tile)}
    anyone = view.seat in bao   # a fresh tile near the end: liable whoever wins on it
    out = []
    for seat, p in sorted(chance.by_seat.items()):
        sv = view.seats[seat]
        shown = exposed_tai([d.meld for d in sv.melds], sv.bonus, seat, view.round_wind, rules)
        low = max(shown, _minimum(rules))
        liable = anyone or seat in bao
        if seat in bao:
            # a Bao case is a limit hand in the making (the third dragon, the fourth wind,
            # a full colour): paid as one at the cap, as the hints' Bao warning says
            low = rules.scoring.tai_cap
        paid = anyway = 0.0
        for k, q in enumerate(m.extra):
            tai = min(low + k, rules.scoring.tai_cap)
            paid += q * win_payments(rules, tai, False, liable)[1]
            anyway += q * (m.self_drawn * win_payments(rules, tai, True)[1]
                           + (1 - m.self_drawn) * win_payments(rules, tai, False)[2])
        out.append((seat, p, max(0.0, paid - m.anyway * anyway), paid))
    return chance.probability, tuple(out), bool(bao)


def _others_ready(threats: Sequence[Threat]) -> int:
    return sum(1 for t in threats if t.ready)


def evaluate_discards(view: PlayerView, sit: Situation, tiles: Sequence[Tile] | None = None,
                      history: History | None = None, threats: Sequence[Threat] | None = None,
                      model: PointsModel | None = None, deep: int = DEEP,
                      action: Action | None = None, instant: float = 0.0
                      ) -> list[Evaluation]:
    """Every distinct discard of ``tiles`` (default: every tile in hand) from the hand of
    ``sit``, best first by expected points. ``deep``: how many of the quickest are valued
    two draws ahead. ``action``: the claim these discards follow (its evaluations carry
    it; default the discard itself)."""
    m = load_points_model() if model is None else model
    threats = read_threats(view, history) if threats is None else threats
    ready = _others_ready(threats)
    give = spared(view.rules, m)
    out = []
    for i, o in enumerate(discard_options(sit, tiles)):
        win, value = _hand(view, sit, o.after, sit.melds, o.shanten, o.live, i < deep, ready, m)
        p, by_seat, bao = _costs(view, o.tile, threats, history, m)
        # A tile with neighbours is a shape the hand may still grow into: throwing it
        # costs a share of the win rather than flat points, so it weighs little in a hand
        # that is folding and much in one that is pushing.
        keep = keep_score(sit.counts, o.tile)
        ev = ((1 - p) * win * (value + give) * (1 - SHAPE * keep)
              - sum(q * c for _, q, c, _ in by_seat) + instant - TIE * keep)
        out.append(Evaluation(action or Discard(o.tile), o.tile, o.shanten, o.live, win,
                              value, p, by_seat, ev, bao, instant))
    out.sort(key=lambda e: (-e.expected, e.tile))
    return out


def evaluate_pass(view: PlayerView, sit: Situation, history: History | None = None,
                  threats: Sequence[Threat] | None = None,
                  model: PointsModel | None = None) -> Evaluation:
    """Letting a discard pass: the 13-tile hand as it stands, waiting for a draw."""
    m = load_points_model() if model is None else model
    threats = read_threats(view, history) if threats is None else threats
    s, useful = useful_kinds(sit.counts, sit.n_melds)
    live = sum(sit.unseen[k] for k in useful)
    win, value = _hand(view, sit, sit.counts, sit.melds, s, live, True,
                       _others_ready(threats), m)
    ev = win * (value + spared(view.rules, m))
    return Evaluation(Pass(), None, s, live, win, value, 0.0, (), ev)


def evaluate_claim(view: PlayerView, sit: Situation, action: Action,
                   history: History | None = None, threats: Sequence[Threat] | None = None,
                   model: PointsModel | None = None, *, dead: bool = False
                   ) -> Evaluation | None:
    """Taking the discard on offer with ``action`` (a Chow, Pong or claimed Kong), valued
    with the best discard that follows it (a kong: the hand as it stands before its
    replacement draw, plus the kong's instant payout). A chow or pong that leaves the hand
    no way to the minimum tai is no choice (None), unless ``dead``: then, as such a kong,
    it is valued as a hand that cannot win (what a review says such a claim cost)."""
    tile = view.window_tile
    if tile is None:
        return None
    after = claimed(sit, tile, action)
    if after is None:
        return None
    m = load_points_model() if model is None else model
    # With no way to the minimum tai a chow or pong is no choice; a kong still pays its
    # instant payout, and a bonus tile drawn later may yet bring a tai (the Owl's count
    # marks the hand as most of a step further from winning).
    if not isinstance(action, Kong) and not view_plan(view, after.counts,
                                                      after.melds).reachable:
        if not dead:
            return None
        m = dataclasses.replace(m, win=(-50.0, *(0.0 for _ in m.win[1:])))
    threats = read_threats(view, history) if threats is None else threats
    if isinstance(action, Kong):
        rules = view.rules
        pay = rules.instant.claimed_kong if rules.instant.enabled else 0
        s, useful = useful_kinds(after.counts, after.n_melds)
        live = sum(after.unseen[k] for k in useful)
        win, value = _hand(view, after, after.counts, after.melds, s, live, True,
                           _others_ready(threats), m)
        # the replacement draw is one more chance to draw a helpful tile
        win = min(1.0, win * (1 + live / after.total_unseen))
        instant = 3.0 * pay
        ev = win * (value + spared(rules, m)) + instant
        return Evaluation(action, None, s, live, win, value, 0.0, (), ev, instant=instant)
    if not sum(after.counts):
        return None
    best = evaluate_discards(view, after, None, history, threats, m, action=action)
    return best[0] if best else None


def best_claim(view: PlayerView, sit: Situation, claims: Sequence[Action],
               history: History | None = None, model: PointsModel | None = None
               ) -> tuple[Evaluation, list[Evaluation]]:
    """Letting the discard pass and every claim of ``claims``, valued; the best first."""
    threats = read_threats(view, history)
    skip = evaluate_pass(view, sit, history, threats, model)
    takes = [e for a in claims
             if (e := evaluate_claim(view, sit, a, history, threats, model)) is not None]
    ranked = sorted([skip, *takes], key=lambda e: -e.expected)
    return ranked[0], ranked
