"""Bao (pay-all) liability: the cases of RULES.md, "Bao cases", as pure functions.

Liability is incurred by a discard that another player claims (Pong or Kong) or wins
with. A claim's liability carries to that player's eventual win in the same hand; a
win's liability applies to that win. Bao changes who pays, never what a hand is worth.

The one implementation: the calculator (:mod:`.request`) and the game engine
(:mod:`sgmahjong.game.machine`) both call :func:`claim_liability` and :func:`win_liability`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..hand import Hand
from ..melds import Meld
from ..rules.model import Ruleset
from ..tiles import DRAGONS, WINDS, Seat, Tile
from .context import WinContext
from .facts import HandFacts, SetFact
from .patterns import PREDICATES

# The patterns a player shows face up: sets of honours and bonus tiles.
_FACE_UP = ("dragon-pong", "seat-wind", "round-wind", "big-three-dragons", "big-four-winds",
            "animal", "own-flower", "own-season", "four-animals", "four-flowers",
            "four-seasons", "eight-flowers")


@dataclass(frozen=True, slots=True)
class Liability:
    """A seat liable for a winner's whole payment, and the case that made it so."""

    seat: Seat
    case: str


def exposed_tai(melds: Sequence[Meld], bonus: Sequence[Tile], seat: Seat, round_wind: Seat,
                rules: Ruleset) -> int:
    """The tai a player shows face up: declared honour sets (every declared set, a concealed
    kong included) and bonus tiles, scored by the rule set's patterns as a hand would be:
    a total "in total" replaces the per-set tai it describes (three dragon sets shown are
    Big Three Dragons, 7 in ``standard``, not 3), and a face-up limit pattern is the limit."""
    hand = Hand((), tuple(melds), tuple(bonus))
    ctx = WinContext(seat=seat, win_tile=Tile.M1, self_drawn=True, round_wind=round_wind)
    sets = tuple(SetFact(m.is_chow, m.tile, m.is_kong, m.is_concealed) for m in melds)
    facts = HandFacts(hand, ctx, rules, "automatic", sets)
    table = rules.scoring.patterns
    found = {p: PREDICATES[p](facts) for p in _FACE_UP if p in table}
    found = {p: n for p, n in found.items() if n}
    replaced = {r for p in found for r in table[p].replaces}
    found = {p: n for p, n in found.items() if p not in replaced}
    if any(table[p].limit for p in found):
        return rules.scoring.limit_tai
    return sum(table[p].tai * n for p, n in found.items())


def _honour_value(tile: Tile, seat: Seat, round_wind: Seat, rules: Ruleset) -> int:
    """Tai a set of this tile is worth by itself, at the rule set's values: a dragon
    (``dragon-pong``), the seat wind and the round wind (a wind that is both counts both)."""
    table = rules.scoring.patterns

    def tai(pid: str) -> int:
        p = table.get(pid)
        return 0 if p is None or p.limit else p.tai

    if tile.is_dragon:
        return tai("dragon-pong")
    return tai("seat-wind") * (tile == seat.wind) + tai("round-wind") * (tile == round_wind.wind)


def _completes_group(melds: Sequence[Meld], tile: Tile, group: tuple[Tile, ...],
                     shown: int) -> bool:
    have = {m.tile for m in melds if m.is_pong_or_kong and m.tile in group}
    return tile in group and tile not in have and len(have) == shown


def claim_liability(rules: Ruleset, melds: Sequence[Meld], bonus: Sequence[Tile],
                    seat: Seat, round_wind: Seat, tile: Tile, discarder: Seat) -> Liability | None:
    """Liability incurred when ``seat`` (showing ``melds`` and ``bonus`` before the claim)
    claims ``discarder``'s ``tile`` for a Pong or Kong (cases 1-3)."""
    cases = rules.bao.cases
    if "third-dragon" in cases and _completes_group(melds, tile, DRAGONS, 2):
        return Liability(discarder, "third-dragon")
    if "fourth-wind" in cases and _completes_group(melds, tile, WINDS, 3):
        return Liability(discarder, "fourth-wind")
    value = _honour_value(tile, seat, round_wind, rules)
    if value and ("exposed-limit" in cases or "exposed-limit-pong" in cases):
        before = exposed_tai(melds, bonus, seat, round_wind, rules)
        limit = rules.scoring.tai_cap
        # Seed 000 case 3: at the limit any such set; at 4 one that reaches 5; at 3 only
        # a double wind. Seed 004: a Pong that takes the face-up tai to the limit.
        if "exposed-limit" in cases and before + value >= limit:
            return Liability(discarder, "exposed-limit")
        if "exposed-limit-pong" in cases and before < limit <= before + value:
            return Liability(discarder, "exposed-limit-pong")
    return None


def win_liability(rules: Ruleset, facts: HandFacts, *, fresh: bool = False,
                  tiles_left: int | None = None) -> Liability | None:
    """Liability incurred by the discard a player wins with (cases 1-5).

    ``facts`` is the reading the win was scored on. ``fresh`` says the tile had not been
    seen in the discards; ``tiles_left`` is how many playable tiles remained.
    """
    ctx = facts.ctx
    if ctx.self_drawn or ctx.discarder is None or ctx.robbing_kong or ctx.robbing_eighth:
        return None
    cases = rules.bao.cases
    tile, melds, discarder = ctx.win_tile, facts.hand.melds, ctx.discarder
    completes_pong = _completes_pong(facts)
    if completes_pong:
        if "third-dragon" in cases and _completes_group(melds, tile, DRAGONS, 2):
            return Liability(discarder, "third-dragon")
        if "fourth-wind" in cases and _completes_group(melds, tile, WINDS, 3):
            return Liability(discarder, "fourth-wind")
    value = _honour_value(tile, ctx.seat, ctx.round_wind, rules)
    if value:
        before = exposed_tai(melds, facts.bonus, ctx.seat, ctx.round_wind, rules)
        limit = rules.scoring.tai_cap
        if "exposed-limit" in cases and (before >= limit
                                         or (completes_pong and before + value >= limit)):
            return Liability(discarder, "exposed-limit")
        if ("exposed-limit-pong" in cases and completes_pong
                and before < limit <= before + value):
            return Liability(discarder, "exposed-limit-pong")
    if "full-colour" in cases and _shows_one_suit(melds, tile, 3) and _full_colour_win(facts):
        return Liability(discarder, "full-colour")
    if "full-colour-or-honours-or-terminals" in cases and _menqing_colour(facts, melds, tile):
        return Liability(discarder, "full-colour-or-honours-or-terminals")
    if ("fresh-tile" in cases and fresh and tiles_left is not None
            and tiles_left <= rules.bao.fresh_tile_max_remaining):
        return Liability(discarder, "fresh-tile")
    return None


def _completes_pong(facts: HandFacts) -> bool:
    """Whether the winning discard completes a pong (not the eye, not a chow) in this
    reading. A regular reading marks that pong as not concealed; an automatic win (Big
    Three Dragons / Big Four Winds without the regular shape) reads every three of a kind as
    a set, so there the discard completes one when it is the third copy held."""
    tile = facts.ctx.win_tile
    if facts.shape == "automatic":
        return facts.hand.concealed.count(tile) == 3
    found = facts.sets[len(facts.hand.melds):]
    return any(s.is_pong_or_kong and s.tile == tile and not s.concealed for s in found)


def _shows_one_suit(melds: Sequence[Meld], tile: Tile, at_least: int) -> bool:
    """Every declared set is of ``tile``'s numbered suit, and there are enough of them."""
    if not tile.is_suited or len(melds) < at_least:
        return False
    return all(m.tile.is_suited and m.tile // 9 == tile // 9 for m in melds)


def _full_colour_win(facts: HandFacts) -> bool:
    return len(facts.suits) == 1 and not facts.has_honours


def _menqing_colour(facts: HandFacts, melds: Sequence[Meld], tile: Tile) -> bool:
    """Seed 004: a discard that wins a Full Colour, All Honours or All Terminals hand for a
    player showing three sets of it."""
    if _shows_one_suit(melds, tile, 3) and _full_colour_win(facts):
        return True
    if (len(melds) >= 3 and all(m.tile.is_honour for m in melds) and tile.is_honour
            and not facts.suits):
        return True
    return (len(melds) >= 3 and all(m.is_pong_or_kong and m.tile.is_terminal for m in melds)
            and tile.is_terminal and all(t.is_terminal for t in facts.kinds))
