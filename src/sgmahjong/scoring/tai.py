"""Tai counting: one generic loop over the readings of a hand and the rule set's patterns.

For each way to read the hand (each split into sets and an eye, Thirteen Wonders, an
automatic win), evaluate every pattern the rules score, drop those replaced by another
present pattern, sum, and keep the reading worth most. A limit hand scores exactly the
rule set's limit value (RULES.md, last decision).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.decompose import Group, decompositions, is_thirteen_wonders
from ..errors import HandError
from ..hand import Hand
from ..rules.catalog import PATTERNS
from ..rules.loading import load_rules
from ..rules.model import Ruleset
from ..tiles import Tile
from .context import WinContext
from .facts import HandFacts, SetFact
from .patterns import PREDICATES


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One pattern of a scored hand: its id, names, how often it occurs and its total tai."""

    id: str
    name: str
    chinese: str
    count: int
    tai: int
    limit: bool = False


@dataclass(frozen=True)
class ScoreResult:
    """The value of a hand: whether it wins, its raw and capped tai, and the items behind them."""

    winning: bool
    complete: bool
    raw_tai: int
    tai: int
    items: tuple[ScoreItem, ...]
    shape: str | None
    reason: str = ""
    facts: HandFacts | None = None

    @property
    def is_limit(self) -> bool:
        return any(i.limit for i in self.items)

    @property
    def thirteen_wonders(self) -> bool:
        return self.shape == "thirteen-wonders"


def score_hand(hand: Hand, ctx: WinContext, rules: Ruleset | str | None = None) -> ScoreResult:
    """Score a completed hand (winning tile included) in its context under a rule set.

    For an Eight Flowers win the winning tile is the eighth bonus tile and the hand holds
    13 playable tiles; otherwise the hand holds 14 (each kong counting three).
    """
    rs = load_rules(rules)
    _check_size(hand, ctx)
    readings = list(_readings(hand, ctx, rs))
    if not readings:
        return ScoreResult(False, False, 0, 0, (), None,
                           reason="the tiles do not form four sets and "
                                  "an eye, Thirteen Wonders or an automatic win")
    if not rs.scoring.counts_tai:
        best = readings[0]
        return ScoreResult(True, True, 0, 0, (), best.shape, facts=best)
    scored = [(_evaluate(f, rs), f) for f in readings]
    (raw, items), facts = max(scored, key=lambda s: s[0][0])
    tai = min(raw, rs.scoring.tai_cap)
    minimum = rs.scoring.minimum_tai
    if raw < minimum:
        reason = (f"worth {raw} tai, below the minimum of {minimum}"
                  if raw else f"a chicken hand (0 tai) cannot win: the minimum is {minimum}")
        return ScoreResult(False, True, raw, tai, items, facts.shape, reason, facts)
    return ScoreResult(True, True, raw, tai, items, facts.shape, facts=facts)


def _check_size(hand: Hand, ctx: WinContext) -> None:
    expected = 13 if ctx.win_tile.is_bonus else 14
    if hand.size != expected:
        raise HandError(f"a winning hand holds {expected} playable tiles (each kong counting "
                        f"three), this one holds {hand.size}")
    if ctx.win_tile.is_bonus:
        if ctx.win_tile not in hand.bonus:
            raise HandError(f"the winning bonus tile {ctx.win_tile.text} is not among the "
                            "hand's bonus tiles")
    elif ctx.win_tile not in hand.concealed:
        raise HandError(f"the winning tile {ctx.win_tile.text} is not among the concealed tiles")


def _readings(hand: Hand, ctx: WinContext, rules: Ruleset) -> list[HandFacts]:
    shared: dict[str, object] = {}
    out: list[HandFacts] = []
    declared = [SetFact(m.is_chow, m.tile, m.is_kong, m.is_concealed) for m in hand.melds]
    if not ctx.win_tile.is_bonus:
        counts = hand.counts
        for d in decompositions(counts):
            found = _concealed_sets(d.groups, d.eye, ctx)
            out.append(HandFacts(hand, ctx, rules, "regular", (*declared, *found), d.eye,
                                 shared))
        if not hand.melds and is_thirteen_wonders(counts):
            out.append(HandFacts(hand, ctx, rules, "thirteen-wonders", _shared=shared))
    if not out:
        auto = _automatic_reading(hand, ctx, rules, declared, shared)
        if auto is not None:
            out.append(auto)
    return out


def _concealed_sets(groups: tuple[Group, ...], eye: Tile, ctx: WinContext) -> list[SetFact]:
    """Sets found in the concealed tiles. Off a discard, the pong the winning tile completes
    counts as claimed (unless the tile can be read as the eye or in a chow)."""
    exposed_pong = None
    w = ctx.win_tile
    if not ctx.self_drawn and eye != w and not any(g.is_chow and g.tile <= w <= g.tile + 2
                                                   for g in groups):
        exposed_pong = w
    out = []
    for g in groups:
        concealed = True
        if not g.is_chow and g.tile == exposed_pong:
            concealed = False
            exposed_pong = None
        out.append(SetFact(g.is_chow, g.tile, False, concealed))
    return out


def _automatic_reading(hand: Hand, ctx: WinContext, rules: Ruleset,
                       declared: list[SetFact], shared: dict[str, object]) -> HandFacts | None:
    """A hand that is not complete may still win automatically where the preset allows:
    all eight flowers and seasons, or Big Three Dragons / Big Four Winds sets."""
    autos = rules.scoring.automatic_wins
    if not autos:
        return None
    counts = hand.counts
    triplets = [SetFact(False, t, False, True) for t in _tiles_with(counts, 3)]
    facts = HandFacts(hand, ctx, rules, "automatic", (*declared, *triplets), None, shared)
    for pid in autos:
        if PREDICATES[pid](facts):
            return facts
    return None


def _tiles_with(counts: list[int], n: int) -> list[Tile]:
    return [Tile(i) for i, c in enumerate(counts) if c >= n]


def _evaluate(facts: HandFacts, rules: Ruleset) -> tuple[int, tuple[ScoreItem, ...]]:
    table = rules.scoring.patterns
    found: dict[str, int] = {}
    for pid in table:
        n = PREDICATES[pid](facts)
        if n:
            found[pid] = n
    if facts.shape == "automatic":
        # An automatic win is worth its own pattern plus the bonus tiles, nothing of a shape.
        keep = set(rules.scoring.automatic_wins) | _BONUS_PATTERNS
        found = {p: n for p, n in found.items() if p in keep}
    replaced = {r for pid in found for r in table[pid].replaces}
    found = {p: n for p, n in found.items() if p not in replaced}
    limits = [p for p in found if table[p].limit]
    if limits:
        pid = min(limits, key=_ORDER.__getitem__)
        item = _item(pid, 1, rules.scoring.limit_tai, limit=True)
        return rules.scoring.limit_tai, (item,)
    items = tuple(_item(p, n, table[p].tai * n) for p, n in
                  sorted(found.items(), key=lambda kv: _ORDER[kv[0]]))
    return sum(i.tai for i in items), items


_ORDER = {pid: i for i, pid in enumerate(PATTERNS)}
_BONUS_PATTERNS = frozenset({"animal", "own-flower", "own-season", "four-animals",
                             "four-flowers", "four-seasons", "eight-flowers",
                             "robbing-the-eighth"})


def _item(pid: str, count: int, tai: int, limit: bool = False) -> ScoreItem:
    name = PATTERNS[pid]
    return ScoreItem(pid, name.english, name.chinese, count, tai, limit)
