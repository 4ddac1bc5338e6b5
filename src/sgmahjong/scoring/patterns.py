"""The scoring patterns: one pure predicate per pattern id, all with the same signature.

A predicate takes the :class:`HandFacts` of one reading of the hand and returns how many
times the pattern occurs (0 when it does not). Its value, what it replaces and whether it
is a limit hand are data in the rule set; the catalogue of names is
:mod:`sgmahjong.rules.catalog`. Adding a pattern is one function here and one line of TOML.
"""

from __future__ import annotations

from collections.abc import Callable

from ..tiles import BONUS_TILES, DRAGONS, WINDS, Tile
from .facts import HandFacts

Predicate = Callable[[HandFacts], int]
PREDICATES: dict[str, Predicate] = {}


def pattern(pattern_id: str) -> Callable[[Predicate], Predicate]:
    def register(fn: Predicate) -> Predicate:
        PREDICATES[pattern_id] = fn
        return fn
    return register


_FLOWERS = frozenset(BONUS_TILES[0:4])
_SEASONS = frozenset(BONUS_TILES[4:8])
_ANIMALS = frozenset(BONUS_TILES[8:12])
_EIGHT = _FLOWERS | _SEASONS


# --- honour sets (RULES.md: "Each Dragon Pong/Kong 1; a Pong/Kong of one's seat wind 1;
# of the round wind 1 (a wind that is both counts 2)")

@pattern("dragon-pong")
def dragon_pong(f: HandFacts) -> int:
    return f.count_sets(lambda t: t.is_dragon)


@pattern("seat-wind")
def seat_wind(f: HandFacts) -> int:
    return f.count_sets(lambda t: t == f.seat_wind)


@pattern("round-wind")
def round_wind(f: HandFacts) -> int:
    return f.count_sets(lambda t: t == f.round_wind)


# --- bonus tiles: "Each Animal 1; each Flower or Season of one's own seat 1;
# all four Animals +1; all four Flowers +1; all four Seasons +1"

@pattern("animal")
def animal(f: HandFacts) -> int:
    return sum(1 for t in f.bonus if t.is_animal)


@pattern("own-flower")
def own_flower(f: HandFacts) -> int:
    return sum(1 for t in f.bonus if t.is_flower and t.owner == f.ctx.seat)


@pattern("own-season")
def own_season(f: HandFacts) -> int:
    return sum(1 for t in f.bonus if t.is_season and t.owner == f.ctx.seat)


@pattern("four-animals")
def four_animals(f: HandFacts) -> int:
    return int(set(f.bonus) >= _ANIMALS)


@pattern("four-flowers")
def four_flowers(f: HandFacts) -> int:
    return int(set(f.bonus) >= _FLOWERS)


@pattern("four-seasons")
def four_seasons(f: HandFacts) -> int:
    return int(set(f.bonus) >= _SEASONS)


@pattern("eight-flowers")
def eight_flowers(f: HandFacts) -> int:
    return int(set(f.bonus) >= _EIGHT)


@pattern("robbing-the-eighth")
def robbing_the_eighth(f: HandFacts) -> int:
    return int(f.ctx.robbing_eighth and f.rules.scoring.robbing_the_eighth
               and set(f.bonus) >= _EIGHT)


# --- the shape of the hand

def _all_chow_shape(f: HandFacts) -> bool:
    """Four chows; with the preset's conditions, an unvalued eye and a 2+ kind wait."""
    if not f.regular or len(f.sets) != 4 or not all(s.is_chow for s in f.sets):
        return False
    if not f.rules.scoring.all_chow_conditions:
        return True
    eye = f.eye
    if eye is None or eye.is_dragon or f.is_scoring_wind(eye):
        return False
    # RULES.md row "All Chow": off a discard it must have waited on 2+ tile kinds.
    return f.ctx.self_drawn or f.waits_before_win >= 2


@pattern("all-chow")
def all_chow(f: HandFacts) -> int:
    return int(_all_chow_shape(f))


@pattern("ping-hu")
def ping_hu(f: HandFacts) -> int:
    return int(_all_chow_shape(f) and not f.bonus)


@pattern("all-pong")
def all_pong(f: HandFacts) -> int:
    return int(f.regular and len(f.sets) == 4 and all(s.is_pong_or_kong for s in f.sets))


@pattern("half-colour")
def half_colour(f: HandFacts) -> int:
    return int(f.regular and len(f.suits) == 1 and f.has_honours)


@pattern("full-colour")
def full_colour(f: HandFacts) -> int:
    if not f.regular:
        return 0
    if len(f.suits) == 1 and not f.has_honours:
        return 1
    # RULES.md row "honours only": in standard it counts as Full Colour.
    return int(not f.suits and f.rules.scoring.honours_only_as_full_colour)


@pattern("all-honours")
def all_honours(f: HandFacts) -> int:
    return int(f.regular and not f.suits)


@pattern("half-terminals")
def half_terminals(f: HandFacts) -> int:
    kinds = f.kinds
    return int(f.regular and all(t.is_terminal_or_honour for t in kinds)
               and any(t.is_terminal for t in kinds) and f.has_honours)


@pattern("all-terminals")
def all_terminals(f: HandFacts) -> int:
    return int(f.regular and all(t.is_terminal for t in f.kinds))


def _honour_sets(f: HandFacts, group: tuple[Tile, ...]) -> int:
    return f.count_sets(lambda t: t in group)


@pattern("little-three-dragons")
def little_three_dragons(f: HandFacts) -> int:
    return int(f.eye is not None and f.eye.is_dragon and _honour_sets(f, DRAGONS) == 2)


@pattern("big-three-dragons")
def big_three_dragons(f: HandFacts) -> int:
    return int(_honour_sets(f, DRAGONS) == 3)


@pattern("little-four-winds")
def little_four_winds(f: HandFacts) -> int:
    return int(f.eye is not None and f.eye.is_wind and _honour_sets(f, WINDS) == 3)


@pattern("big-four-winds")
def big_four_winds(f: HandFacts) -> int:
    return int(_honour_sets(f, WINDS) == 4)


@pattern("thirteen-wonders")
def thirteen_wonders(f: HandFacts) -> int:
    return int(f.shape == "thirteen-wonders")


@pattern("nine-gates")
def nine_gates(f: HandFacts) -> int:
    """1112345678999 of one suit, concealed, plus any tile of that suit."""
    if not f.regular or f.hand.melds or len(f.suits) != 1 or f.has_honours:
        return 0
    base = min(f.suits) * 9
    c = f.playable[base:base + 9]
    need = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    return int(all(have >= n for have, n in zip(c, need, strict=True)))


@pattern("four-concealed-pongs")
def four_concealed_pongs(f: HandFacts) -> int:
    return int(f.regular and len(f.sets) == 4
               and all(s.is_pong_or_kong and s.concealed for s in f.sets))


@pattern("four-kongs")
def four_kongs(f: HandFacts) -> int:
    return int(sum(1 for m in f.hand.melds if m.is_kong) == 4)


@pattern("heavenly-hand")
def heavenly_hand(f: HandFacts) -> int:
    return int(f.ctx.heavenly)


@pattern("earthly-hand")
def earthly_hand(f: HandFacts) -> int:
    return int(f.ctx.earthly)


# --- how the win happened

@pattern("men-qing-zi-mo")
def men_qing_zi_mo(f: HandFacts) -> int:
    """No claimed set (concealed kongs allowed) and self-drawn."""
    return int(f.ctx.self_drawn and all(m.is_concealed for m in f.hand.melds))


@pattern("replacement-win")
def replacement_win(f: HandFacts) -> int:
    return int(f.ctx.replacement)


@pattern("last-tile")
def last_tile(f: HandFacts) -> int:
    return int(f.ctx.last_tile)


@pattern("robbing-the-kong")
def robbing_the_kong(f: HandFacts) -> int:
    return int(f.ctx.robbing_kong)
