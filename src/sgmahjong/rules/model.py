"""The rule set: frozen dataclasses with one field for each point where tables differ.

Each field's ``doc`` metadata names the row of RULES.md ("Where the presets differ")
it implements. Values come from the TOML presets in ``presets/``; see
:mod:`sgmahjong.rules.loading`.
"""

from __future__ import annotations

import hashlib
import json
import threading
import types
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, Literal

# Bounds of the numeric fields: all a real table could want, and no more, so that a rule
# file cannot make payments negative (a winner paying) or numbers too large to compute.
TAI = (0, 64)
POINTS = (0, 1000)
MULTIPLE = (0, 100)


def doc(text: str, *, bounds: tuple[int, int] | None = None, **kw: Any) -> Any:
    """A dataclass field carrying its documentation (and, for a number, its bounds: the
    loader refuses a value outside them, naming the field)."""
    meta: dict[str, Any] = {"doc": text}
    if bounds is not None:
        meta["bounds"] = bounds
    return field(metadata=meta, **kw)


@dataclass(frozen=True)
class PatternRule:
    """The value of one scoring pattern under a rule set."""

    tai: int = doc("tai per occurrence (a limit hand scores the rule set's limit_tai instead)",
                   bounds=TAI)
    limit: bool = doc("a limit hand: the hand scores exactly limit_tai, nothing else added",
                      default=False)
    replaces: tuple[str, ...] = doc("pattern ids this one replaces when both are present "
                                    "(the 'in total' values of RULES.md)", default=())


@dataclass(frozen=True)
class ScoringRules:
    minimum_tai: int = doc("row 'minimum to win': tai needed to declare a win", default=1,
                           bounds=TAI)
    tai_cap: int = doc("payment is capped at this many tai; the raw total is still shown",
                       default=5, bounds=(1, TAI[1]))
    limit_tai: int = doc("what a limit hand scores", default=5, bounds=(1, TAI[1]))
    counts_tai: bool = doc("False for 'casual': no tai are counted, a complete hand just wins",
                           default=True)
    all_chow_conditions: bool = doc(
        "row 'All Chow': the eye may not be a dragon nor a scoring wind and a discard win "
        "must have waited on 2+ tile kinds (False: 'all sequences' with no such test)",
        default=True)
    honours_only_as_full_colour: bool = doc(
        "row 'honours only': True where an honours-only hand counts as Full Colour", default=True)
    automatic_wins: tuple[str, ...] = doc(
        "rows 'Eight Flowers' and 'automatic win on Big Three Dragons / Big Four Winds': "
        "pattern ids that win even without the regular shape", default=("eight-flowers",))
    robbing_the_eighth: bool = doc(
        "row 'Eight Flowers': the holder of seven may take the eighth when another exposes it",
        default=True)
    patterns: Mapping[str, PatternRule] = doc(
        "every tai row of RULES.md: pattern id -> value; a pattern absent here is not scored",
        default_factory=dict)

    def __reduce__(self) -> tuple[Any, ...]:
        # The loader makes ``patterns`` a read-only MappingProxyType, which neither pickle
        # nor deepcopy can take: it travels as a plain dict and is made read-only again.
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        proxy = isinstance(self.patterns, types.MappingProxyType)
        values["patterns"] = dict(self.patterns)
        return (_scoring_rules, (values, proxy))


def _scoring_rules(values: dict[str, Any], proxy: bool) -> ScoringRules:
    """A :class:`ScoringRules` rebuilt from what its ``__reduce__`` gave."""
    if proxy:
        values = {**values, "patterns": types.MappingProxyType(values["patterns"])}
    return ScoringRules(**values)


@dataclass(frozen=True)
class PaymentRules:
    scheme: Literal["table", "winner-only", "one-point"] = doc(
        "row 'what a win pays': 'table' (losers pay the winner), 'winner-only' (winner's points "
        "only, nobody pays: garden), 'one-point' (winner scores 1, nobody pays: casual)",
        default="table")
    base_offset: int = doc("base = 2^(tai + base_offset): 0 gives 1-2-4-8-16-32, -1 gives the "
                           "limit preset's 1-2-4-8-16 ladder", default=0,
                           bounds=(-16, 16))
    discarder_pays: int = doc("multiple of base the discarder pays on a discard win", default=2,
                              bounds=MULTIPLE)
    others_pay: int = doc("multiple of base each other loser pays on a discard win", default=1,
                          bounds=MULTIPLE)
    self_drawn_pays: int = doc("multiple of base each opponent pays on a self-drawn win "
                               "(winner-only schemes: the winner's points are multiplied by it)",
                               default=2, bounds=MULTIPLE)
    thirteen_wonders_self_drawn_rate: bool = doc(
        "row 'Thirteen Wonders': paid at the self-drawn rate even off a discard", default=True)
    multiple_winners: Literal["nearest", "all"] = doc(
        "row 'several players can win on one discard'", default="nearest")


@dataclass(frozen=True)
class InstantPayouts:
    """Row 'instant payouts': points from each opponent when the condition first holds."""

    enabled: bool = doc("False where the table has no instant payouts", default=True)
    claimed_kong: int = doc("a kong made by claiming a discard", default=2, bounds=POINTS)
    added_kong: int = doc("a kong made by adding to one's own exposed pong", default=2,
                            bounds=POINTS)
    concealed_kong: int = doc("a concealed kong ('menqing': 2, like the other kongs)", default=0,
                               bounds=POINTS)
    bonus_pair: int = doc("Cat+Mouse, Rooster+Centipede, own Flower+own Season", default=2,
                           bounds=POINTS)
    bonus_pair_initial: int = doc("the same pair when both tiles were exposed during the deal",
                                  default=4, bounds=POINTS)
    bonus_set: int = doc("all four Animals, Flowers or Seasons, in addition", default=4,
                         bounds=POINTS)


BaoCase = Literal[
    "third-dragon", "fourth-wind", "exposed-limit", "exposed-limit-pong",
    "full-colour", "full-colour-or-honours-or-terminals", "fresh-tile",
]


@dataclass(frozen=True)
class BaoRules:
    """Row 'Bao' and the section 'Bao cases' of RULES.md."""

    cases: tuple[BaoCase, ...] = doc(
        "which liability cases apply: third-dragon, fourth-wind, exposed-limit (seed 000 case 3), "
        "exposed-limit-pong (seed 004), full-colour (seed 000 case 4), "
        "full-colour-or-honours-or-terminals (seed 004), fresh-tile",
        default=("third-dragon", "fourth-wind", "exposed-limit", "full-colour", "fresh-tile"))
    fresh_tile_max_remaining: int = doc(
        "the fresh-tile case applies when at most this many playable tiles remain "
        "(standard: fewer than 4, so 3; menqing: 5 or fewer)", default=3, bounds=(0, 100))


@dataclass(frozen=True)
class ClaimRules:
    passed_claim: bool = doc("row 'passed claim': after passing a Win or Pong on a tile, no Win "
                             "or Pong on another copy until one's next draw or declared set",
                             default=True)
    own_discard: Literal["kong-only", "none"] = doc(
        "row 'a copy of one's own latest discard': 'kong-only' (no Win, Pong or Chow on it) or "
        "'none' (may not be claimed at all)", default="kong-only")


@dataclass(frozen=True)
class WallRules:
    end_tiles: int = doc("tiles left unplayed at the end of the wall", default=15,
                         bounds=(0, 40))
    replacement: Literal["same-wall", "dead-wall"] = doc(
        "row 'replacement draws come from': 'same-wall' (back of the same wall, every draw counts "
        "toward the 15-tile end) or 'dead-wall' (the last 15 tiles are a dead wall that only "
        "replacements draw from)", default="same-wall")


@dataclass(frozen=True)
class MatchRules:
    banker_after_win: Literal["passes", "stays-if-banker-won"] = doc(
        "row 'banker after a win'", default="passes")
    banker_after_draw: Literal["stays", "stays-unless-kong"] = doc(
        "row 'banker after a drawn hand'", default="stays-unless-kong")
    round_wind: Literal["advances", "fixed-east"] = doc(
        "row 'round wind': advances after each full turn of the deal, or stays East",
        default="advances")
    rounds: int = doc("rounds in a full match (East to North is 4)", default=4, bounds=(1, 16))
    quick_game_hands: int = doc("hands in a quick game (0: no quick game)", default=0,
                                bounds=(0, 64))
    max_hands_per_round: int = doc("a round ends after this many hands (0: no limit)", default=0,
                                   bounds=(0, 100))


@dataclass(frozen=True)
class Ruleset:
    """A complete rule set. Build one with :func:`sgmahjong.rules.load_rules`."""

    name: str = doc("the preset or house-rule name", default="standard")
    description: str = doc("one line saying what table this is", default="")
    scoring: ScoringRules = doc("what a hand is worth", default_factory=ScoringRules)
    payments: PaymentRules = doc("who pays what for a win", default_factory=PaymentRules)
    instant: InstantPayouts = doc("payouts during the hand", default_factory=InstantPayouts)
    bao: BaoRules = doc("pay-all liability", default_factory=BaoRules)
    claims: ClaimRules = doc("claim restrictions", default_factory=ClaimRules)
    wall: WallRules = doc("the wall and its end", default_factory=WallRules)
    match: MatchRules = doc("banker, round wind and match length", default_factory=MatchRules)

    def to_dict(self) -> dict[str, Any]:
        """The canonical plain form (what records store and TOML files can override)."""
        return _plain(self)

    def digest(self) -> str:
        """A short hash of the rules (not the name), so records say exactly what was played."""
        body = self.to_dict()
        body.pop("name")
        body.pop("description")
        text = json.dumps(body, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def pattern(self, pattern_id: str) -> PatternRule | None:
        return self.scoring.patterns.get(pattern_id)

    # A rule set is immutable all the way down (frozen dataclasses, tuples, a read-only
    # mapping), so a copy may be itself: a deep-copied game or environment keeps sharing it,
    # and the caches keyed on the rules object (agents' evaluation) stay warm for copies.
    def __copy__(self) -> Ruleset:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Ruleset:
        return self

    # For the same reason a rule set unpickled is the equal one this process already has:
    # the server's AI workers receive the table's rules with every job, and a fresh copy
    # each time left the caches keyed on the rules object cold and holding thousands of
    # copies (7.5 KiB each), a slow climb in every worker's memory.
    def __reduce__(self) -> tuple[Any, ...]:
        return (_ruleset, ({f.name: getattr(self, f.name) for f in fields(self)},))


_KNOWN: list[Ruleset] = []   # the rule sets unpickled lately, newest last
_KNOWN_MAX = 32
_KNOWN_LOCK = threading.Lock()   # the server unpickles in several threads


def _ruleset(values: dict[str, Any]) -> Ruleset:
    """A :class:`Ruleset` from what its ``__reduce__`` gave: an equal one already met if
    there is one."""
    rules = Ruleset(**values)
    with _KNOWN_LOCK:
        for i, known in enumerate(_KNOWN):
            if known == rules:
                _KNOWN.append(_KNOWN.pop(i))
                return known
        _KNOWN.append(rules)
        del _KNOWN[:-_KNOWN_MAX]
    return rules


def _plain(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        if isinstance(value, PatternRule):
            return {"tai": value.tai, "limit": value.limit, "replaces": list(value.replaces)}
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in sorted(value.items())}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value
