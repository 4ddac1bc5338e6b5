"""Shared hand evaluation for the levels and the hints, read from a PlayerView alone."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..analysis.decompose import is_complete
from ..analysis.shanten import shanten
from ..english import suit_name, tile_name
from ..game.actions import Action, Chow, Discard, Kong, Pass, Pong, Win
from ..game.prng import Xoshiro256
from ..game.state import Phase
from ..game.view import PlayerView
from ..hand import Hand
from ..melds import Meld, MeldKind
from ..rules.model import Ruleset
from ..scoring import WinContext, score_hand
from ..scoring.bao import exposed_tai as _exposed_tai
from ..tiles import DRAGONS, WINDS, Seat, Tile

__all__ = [
    "BaoDanger", "ClaimOption", "DiscardOption", "LevelAgent", "Situation", "TaiPlan",
    "TaiSource", "WaitValue", "bao_dangers", "claim_live", "claim_options", "claimed", "danger",
    "discard_options", "keep_score", "lookahead", "ready_looking", "ready_waits",
    "safe_default", "situation", "tai_plan", "useful_kinds", "view_plan",
]



# ---------------------------------------------------------------- counting tiles

@dataclass(frozen=True, slots=True)
class Situation:
    """What a seat knows about the tiles: own counts, declared sets, visible and unseen."""

    counts: tuple[int, ...]      # own concealed playable tiles, 34 kinds
    melds: tuple[Meld, ...]      # own declared sets
    visible: tuple[int, ...]     # discards on the table and every declared set, 34 kinds
    unseen: tuple[int, ...]      # copies neither held nor visible

    @property
    def n_melds(self) -> int:
        return len(self.melds)

    @property
    def total_unseen(self) -> int:
        return max(1, sum(self.unseen))


def situation(view: PlayerView) -> Situation:
    """Count the tiles of ``view``: nothing but what the seat can see."""
    counts = [0] * 34
    for t in view.concealed:
        if t < 34:
            counts[t] += 1
    visible = [0] * 34
    for s in view.seats:
        for t in s.discards:
            visible[t] += 1
        for m in s.melds:
            for t in m.meld.tiles:
                visible[t] += 1
    unseen = tuple(max(0, 4 - counts[i] - visible[i]) for i in range(34))
    return Situation(tuple(counts), tuple(m.meld for m in view.me.melds), tuple(visible),
                     unseen)


@lru_cache(maxsize=262144)
def useful_kinds(counts: tuple[int, ...], melds: int) -> tuple[int, tuple[int, ...]]:
    """Shanten of a hand between turns and the kinds whose draw lowers it (memoised)."""
    base = shanten(counts, melds)
    c = list(counts)
    out = []
    for t in range(34):
        if c[t] >= 4:
            continue
        c[t] += 1
        if shanten(c, melds) < base:
            out.append(t)
        c[t] -= 1
    return base, tuple(out)


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One discard: the shanten after it, the tiles that then help, and their copies."""

    tile: Tile
    shanten: int
    useful: tuple[Tile, ...]
    live: int        # unseen copies of the useful tiles (what a counting player sees)
    raw: int         # copies not in the hand (what a player who counts nothing assumes)
    after: tuple[int, ...]


def discard_options(sit: Situation, tiles: Sequence[Tile] | None = None) -> list[DiscardOption]:
    """Every distinct discard of a hand after its draw (or only ``tiles``), best first by
    shanten and unseen useful tiles."""
    c = list(sit.counts)
    kinds = sorted({t for t in tiles if t < 34}) if tiles is not None else \
        [i for i in range(34) if c[i]]
    out = []
    for d in kinds:
        c[d] -= 1
        after = tuple(c)
        s, useful = useful_kinds(after, sit.n_melds)
        live = sum(sit.unseen[k] for k in useful)
        raw = sum(4 - after[k] for k in useful)
        out.append(DiscardOption(Tile(d), s, tuple(Tile(k) for k in useful), live, raw, after))
        c[d] += 1
    out.sort(key=lambda o: (o.shanten, -o.live, o.tile))
    return out


def keep_score(counts: Sequence[int], tile: Tile) -> float:
    """How much a tile that does not change the shanten is still worth keeping, for the
    shapes it may grow into: a lone honour least, then terminals, then middle tiles, plus
    one for every tile of the hand within two of it in its suit."""
    if tile >= 27:
        return 0.5 * (counts[tile] - 1)
    n = tile % 9
    base = tile - n
    near = sum(counts[base + k] for k in range(max(0, n - 2), min(8, n + 2) + 1) if k != n)
    return 1.0 + 0.5 * min(n, 8 - n) + near + (counts[tile] - 1)


def lookahead(after: tuple[int, ...], melds: int, unseen: Sequence[int]) -> float:
    """Expected standing of a 13-tile hand two draws ahead, lower is better.

    For each first draw (weighted by its unseen copies) the best discard is kept, and the
    hand it leaves is valued by its shanten less the chance that the second draw helps.
    Draws that do not lower the shanten are thrown back, leaving the hand as it is.
    """
    total = max(1, sum(unseen))
    base, useful = useful_kinds(after, melds)
    stay = base - sum(unseen[k] for k in useful) / total
    if base < 0:
        return -2.0
    value = 0.0
    weight_useful = 0
    c = list(after)
    for t in useful:
        u = unseen[t]
        if not u:
            continue
        weight_useful += u
        c[t] += 1
        best = stay
        for d in range(34):
            if not c[d] or d == t:
                continue
            c[d] -= 1
            s, use2 = useful_kinds(tuple(c), melds)
            v = -2.0 if s < 0 else s - sum(unseen[k] for k in use2 if k != t) / total
            if v < best:
                best = v
            c[d] += 1
        c[t] -= 1
        value += u * best
    return (value + (total - weight_useful) * stay) / total


# ---------------------------------------------------------------- claims

@dataclass(frozen=True, slots=True)
class ClaimOption:
    """A claim and the hand it leaves: shanten before and after (after the best discard)."""

    action: Action
    before: int
    after: int
    counts: tuple[int, ...]
    melds: tuple[Meld, ...]

    @property
    def lowers(self) -> bool:
        return self.after < self.before


def claim_options(view: PlayerView, legal: Sequence[Action], sit: Situation | None = None
                  ) -> list[ClaimOption]:
    """The Chow, Pong and Kong claims in ``legal`` with the shanten each leads to."""
    sit = sit or situation(view)
    tile = view.window_tile
    if tile is None:
        return []
    before = shanten(sit.counts, sit.n_melds)
    out = []
    for a in legal:
        taken = claimed(sit, tile, a)
        if taken is None:
            continue
        c, melds = taken.counts, taken.melds
        if isinstance(a, Kong):
            after = shanten(c, len(melds))
        else:
            after = min(useful_kinds(_minus(c, d), len(melds))[0] for d in range(34) if c[d])
        out.append(ClaimOption(a, before, after, c, melds))
    return out


def claimed(sit: Situation, tile: Tile, action: Action) -> Situation | None:
    """The hand after claiming ``tile`` with ``action`` (None for anything else, or for
    tiles the hand does not hold)."""
    c = list(sit.counts)
    if isinstance(action, Pong):
        c[tile] -= 2
        meld = Meld(MeldKind.PONG, tile)
    elif isinstance(action, Kong) and action.kind == "claimed":
        c[tile] -= 3
        meld = Meld(MeldKind.KONG, tile)
    elif isinstance(action, Chow):
        for k in (action.tile, action.tile + 1, action.tile + 2):
            if k != tile:
                c[k] -= 1
        meld = Meld(MeldKind.CHOW, action.tile)
    else:
        return None
    if min(c) < 0:
        return None
    return Situation(tuple(c), (*sit.melds, meld), sit.visible, sit.unseen)


def claim_live(opt: ClaimOption, sit: Situation) -> int:
    """Unseen copies of the tiles the hand needs after a claim (and its best discard)."""
    if not sum(opt.counts):
        return 0
    after = Situation(opt.counts, opt.melds, sit.visible, sit.unseen)
    return discard_options(after)[0].live


def _minus(c: Sequence[int], d: int) -> tuple[int, ...]:
    out = list(c)
    out[d] -= 1
    return tuple(out)


# ---------------------------------------------------------------- where the tai come from

@dataclass(frozen=True, slots=True)
class TaiSource:
    """One place the hand's tai can come from; ``secured`` when it is already certain."""

    kind: str
    tai: int
    secured: bool
    text: str
    tiles: tuple[Tile, ...] = ()


@dataclass(frozen=True, slots=True)
class TaiPlan:
    """The tai sources of a hand and whether it can reach the preset's minimum."""

    sources: tuple[TaiSource, ...]
    secured: int
    minimum: int

    @property
    def reachable(self) -> bool:
        return self.secured >= self.minimum or any(not s.secured for s in self.sources)

    @property
    def strength(self) -> float:
        """A rough worth of the plan: secured tai plus a share of the best potential."""
        pot = max((s.tai for s in self.sources if not s.secured), default=0)
        return self.secured + 0.4 * min(pot, 4)


def _pattern_tai(rules: Ruleset, pid: str) -> int:
    p = rules.pattern(pid)
    if p is None:
        return 0
    return rules.scoring.limit_tai if p.limit else p.tai


_BONUS_TAI: dict[tuple[int, tuple[Tile, ...], Seat, Seat], tuple[Ruleset, int]] = {}


def _bonus_tai(bonus: tuple[Tile, ...], seat: Seat, round_wind: Seat, rules: Ruleset) -> int:
    """The tai of the bonus tiles alone (memoised; the rules object is kept with it)."""
    key = (id(rules), bonus, seat, round_wind)
    hit = _BONUS_TAI.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    value = _exposed_tai((), bonus, seat, round_wind, rules)
    if len(_BONUS_TAI) > 4096:
        _BONUS_TAI.clear()
    _BONUS_TAI[key] = (rules, value)
    return value


def honour_set_tai(tile: Tile, seat: Seat, round_wind: Seat, rules: Ruleset) -> int:
    """The tai a pong or kong of ``tile`` is worth by itself (dragon, seat and round wind)."""
    if tile.is_dragon:
        return _pattern_tai(rules, "dragon-pong")
    value = 0
    if tile == seat.wind:
        value += _pattern_tai(rules, "seat-wind")
    if tile == round_wind.wind:
        value += _pattern_tai(rules, "round-wind")
    return value


def tai_plan(counts: Sequence[int], melds: Sequence[Meld], bonus: Sequence[Tile], seat: Seat,
             round_wind: Seat, rules: Ruleset) -> TaiPlan:
    """Where a hand's tai can come from: bonus tiles and valued honour sets (secured),
    valued honour pairs, all chows (ping hu), one suit, all pongs (potential)."""
    minimum = rules.scoring.minimum_tai if rules.scoring.counts_tai else 0
    sources: list[TaiSource] = []
    secured = 0
    bonus_tai = _bonus_tai(tuple(bonus), seat, round_wind, rules)
    if bonus_tai:
        secured += bonus_tai
        sources.append(TaiSource("bonus", bonus_tai, True,
                                 f"{bonus_tai} tai from bonus tiles", tuple(bonus)))
    for m in melds:
        if m.is_pong_or_kong and m.tile.is_honour:
            v = honour_set_tai(m.tile, seat, round_wind, rules)
            if v:
                secured += v
                sources.append(TaiSource("honour-set", v, True,
                                         f"the {tile_name(m.tile)} set", (m.tile,)))
    for t in range(27, 34):
        n = counts[t]
        if n >= 2:
            v = honour_set_tai(Tile(t), seat, round_wind, rules)
            if v:
                if n >= 3:
                    secured += v
                    sources.append(TaiSource("honour-set", v, True,
                                             f"the {tile_name(Tile(t))} set", (Tile(t),)))
                else:
                    sources.append(TaiSource("honour-pair", v, False,
                                             f"the {tile_name(Tile(t))} pair", (Tile(t),)))
    if not any(m.is_pong_or_kong for m in melds):
        pid = "all-chow" if bonus else "ping-hu"
        v = _pattern_tai(rules, pid) or _pattern_tai(rules, "all-chow")
        odd = sum(counts[27:34]) - max((2 for t in range(27, 34) if counts[t] == 2
                                        and not honour_set_tai(Tile(t), seat, round_wind,
                                                               rules)), default=0)
        triplets = sum(1 for t in range(27) if counts[t] >= 3)
        if v and odd <= 2 and triplets <= 1:
            label = "ping hu" if pid == "ping-hu" else "all chows"
            sources.append(TaiSource(pid, v, False, f"{label} ({v} tai)"))
    suits = [sum(counts[9 * s:9 * s + 9]) for s in range(3)]
    meld_suits = {m.tile // 9 for m in melds if m.tile.is_suited}
    if len(meld_suits) <= 1:
        main = max(range(3), key=lambda s: (s in meld_suits, suits[s]))
        off = sum(suits) - suits[main]
        if not meld_suits or main in meld_suits:
            honours = sum(counts[27:34]) + sum(1 for m in melds if m.tile.is_honour)
            if off <= 1 and honours == 0 and _pattern_tai(rules, "full-colour"):
                v = _pattern_tai(rules, "full-colour")
                sources.append(TaiSource("full-colour", v, False,
                                         f"one suit ({suit_name(Tile(9 * main))}, {v} tai)"))
            elif off <= 3 and _pattern_tai(rules, "half-colour"):
                v = _pattern_tai(rules, "half-colour")
                sources.append(TaiSource(
                    "half-colour", v, False,
                    f"one suit with honours ({suit_name(Tile(9 * main))}, {v} tai)"))
    if not any(m.is_chow for m in melds):
        pairs = sum(1 for c in counts if c >= 2)
        if pairs >= 4 - len(melds) and _pattern_tai(rules, "all-pong"):
            v = _pattern_tai(rules, "all-pong")
            sources.append(TaiSource("all-pong", v, False, f"all pongs ({v} tai)"))
    return TaiPlan(tuple(sources), secured, minimum)


def view_plan(view: PlayerView, counts: Sequence[int] | None = None,
              melds: Sequence[Meld] | None = None) -> TaiPlan:
    """:func:`tai_plan` for the seat of ``view`` (optionally for other tiles or sets)."""
    if counts is None or melds is None:
        sit = situation(view)
        counts = sit.counts if counts is None else counts
        melds = sit.melds if melds is None else melds
    return tai_plan(counts, melds, view.me.bonus, view.seat, view.round_wind, view.rules)


# ---------------------------------------------------------------- what a ready hand is worth

@dataclass(frozen=True, slots=True)
class WaitValue:
    """The waits of a ready hand: unseen copies of the tiles it can win on (with the
    preset's minimum tai), of those that complete it but score too little, and the average
    tai of a win on a discard (weighted by unseen copies)."""

    winning: int
    dead: int
    tai: float
    dead_kinds: tuple[Tile, ...] = ()


_WAITS: dict[tuple[object, ...], tuple[Ruleset, tuple[tuple[int, int], ...]]] = {}


def waits_met() -> int:
    """Ready hands whose waits are memoised (a server bounds it: ``web.memory``)."""
    return len(_WAITS)


def clear_waits() -> None:
    _WAITS.clear()


def _wait_tai(counts: tuple[int, ...], melds: tuple[Meld, ...], bonus: tuple[Tile, ...],
              seat: Seat, round_wind: Seat, rules: Ruleset) -> tuple[tuple[int, int], ...]:
    """(kind, tai or -1 when the completed hand cannot win) for each completing kind."""
    key = (id(rules), counts, melds, bonus, seat, round_wind)
    hit = _WAITS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    out = []
    c = list(counts)
    shown = [0] * 34
    for m in melds:
        for t in m.tiles:
            shown[t] += 1
    for t in range(34):
        if c[t] + shown[t] >= 4:
            continue   # no fifth copy to wait on
        c[t] += 1
        if is_complete(c, melds):
            concealed = tuple(Tile(k) for k in range(34) for _ in range(c[k]))
            ctx = WinContext(seat=seat, win_tile=Tile(t), self_drawn=False,
                             round_wind=round_wind, discarder=seat.next)
            res = score_hand(Hand(concealed, melds, bonus), ctx, rules)
            out.append((t, res.tai if res.winning else -1))
        c[t] -= 1
    if len(_WAITS) > 65536:
        _WAITS.clear()
    value = tuple(out)
    _WAITS[key] = (rules, value)
    return value


def ready_waits(view: PlayerView, counts: Sequence[int], melds: Sequence[Meld],
                unseen: Sequence[int]) -> WaitValue:
    """What the ready 13-tile hand ``counts`` + ``melds`` of ``view``'s seat waits on:
    scored exactly by the preset, so a wait that would make a 0-tai hand counts as dead."""
    waits = _wait_tai(tuple(counts), tuple(melds), tuple(view.me.bonus), view.seat,
                      view.round_wind, view.rules)
    winning = dead = 0
    tai = 0.0
    dead_kinds = []
    for t, v in waits:
        n = unseen[t]
        if v < 0:
            dead += n
            dead_kinds.append(Tile(t))
        else:
            winning += n
            tai += n * v
    return WaitValue(winning, dead, tai / winning if winning else 0.0, tuple(dead_kinds))


# ---------------------------------------------------------------- safety and Bao

@dataclass(frozen=True, slots=True)
class BaoDanger:
    """A discard that would make this seat liable (Bao) if ``seat`` used it."""

    tile: Tile
    seat: Seat
    case: str
    text: str


def bao_dangers(view: PlayerView, tile: Tile) -> list[BaoDanger]:
    """The Bao cases a discard of ``tile`` could trigger now, from what is face up."""
    cases = view.rules.bao.cases
    if not cases or tile >= 34:
        return []
    out = []
    held = view.concealed.count(tile)
    visible = sum(1 for s in view.seats for t in s.discards if t == tile) + sum(
        1 for s in view.seats for m in s.melds for t in m.meld.tiles if t == tile)
    others_may_hold = 4 - held - visible
    for s in view.seats:
        if s.seat == view.seat:
            continue
        who = s.seat.name.title()
        melds = [m.meld for m in s.melds]
        pongs = {m.tile for m in melds if m.is_pong_or_kong}
        if ("third-dragon" in cases and tile.is_dragon and tile not in pongs
                and len(pongs & set(DRAGONS)) == 2 and others_may_hold >= 2):
            out.append(BaoDanger(tile, s.seat, "third-dragon",
                                 f"{who} shows two dragon sets; the third dragon is Bao"))
        if ("fourth-wind" in cases and tile.is_wind and tile not in pongs
                and len(pongs & set(WINDS)) == 3 and others_may_hold >= 2):
            out.append(BaoDanger(tile, s.seat, "fourth-wind",
                                 f"{who} shows three wind sets; the fourth wind is Bao"))
        if "exposed-limit" in cases and tile.is_honour:
            value = honour_set_tai(tile, s.seat, view.round_wind, view.rules)
            shown = _exposed_tai(melds, s.bonus, s.seat, view.round_wind, view.rules)
            if value and shown + value >= view.rules.scoring.tai_cap:
                out.append(BaoDanger(tile, s.seat, "exposed-limit",
                                     f"{who} shows {shown} tai; {tile_name(tile)} would reach "
                                     "the limit"))
        if ("full-colour" in cases and tile.is_suited and len(melds) >= 3
                and all(m.tile.is_suited and m.tile // 9 == tile // 9 for m in melds)):
            out.append(BaoDanger(tile, s.seat, "full-colour",
                                 f"{who} shows {len(melds)} sets of {suit_name(tile)}; that suit "
                                 "is Bao for a full colour"))
    if ("fresh-tile" in cases and view.seen[tile] == 0
            and view.live_remaining <= view.rules.bao.fresh_tile_max_remaining + 1):
        out.append(BaoDanger(tile, view.turn, "fresh-tile",
                             "a fresh tile this near the end of the wall is Bao if it wins"))
    return out


def ready_looking(view: PlayerView) -> list[Seat]:
    """Other seats that look ready: three or more sets out, or two late in the hand."""
    out = []
    for s in view.seats:
        if s.seat == view.seat:
            continue
        n = len(s.melds)
        if n >= 3 or (n >= 2 and view.live_remaining < 25):
            out.append(s.seat)
    return out


def danger(view: PlayerView, tile: Tile, threats: Sequence[Seat], sit: Situation) -> float:
    """How likely a discard is to feed a ready-looking seat (0 safe ... 1 or more risky)."""
    total = 0.0
    for seat in threats:
        if tile in view.seats[seat].discards:
            continue  # genbutsu: that player threw it, so cannot win on it
        seen = sit.visible[tile] + sit.counts[tile]
        if tile.is_honour:
            base = (1.0, 0.8, 0.4, 0.05, 0.0)[min(seen, 4)]
        else:
            n = tile % 9
            base = 0.55 if n in (0, 8) else 0.8 if n in (1, 7) else 1.0
            base *= (1.0, 0.85, 0.7, 0.5, 0.0)[min(seen, 4)]
        total += base
    return total


# ---------------------------------------------------------------- the common agent shell

class LevelAgent:
    """Common play for the levels: always win, then kongs, discards and claims by the hooks.

    Callable as ``agent(view, legal)`` (what :meth:`Match.play` wants) and via ``act``.
    """

    name = "level"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = Xoshiro256(seed)

    def __call__(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return self.act(view, legal)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"

    def chance(self, p: float) -> bool:
        """True with probability ``p`` (from the agent's own seeded generator)."""
        return self.rng.below(1 << 30) < p * (1 << 30)

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if not legal:
            return Pass()
        if Win() in legal:
            return Win()
        if view.phase is Phase.TURN and view.seat == view.turn:
            choice = self.turn(view, legal)
        else:
            claims = [a for a in legal if isinstance(a, (Chow, Pong, Kong))]
            choice = self.claim(view, claims) if claims else Pass()
        if choice in legal:
            return choice
        return safe_default(view, legal)

    def turn(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        sit = situation(view)
        discards = [a.tile for a in legal if isinstance(a, Discard)]
        for k in (a for a in legal if isinstance(a, Kong)):
            if self.take_kong(view, k, sit):
                return k
        if not discards:
            return Pass() if Pass() in legal else legal[0]
        return Discard(self.discard(view, discards, sit))

    def take_kong(self, view: PlayerView, kong: Kong, sit: Situation) -> bool:
        """Declare a kong on one's turn when it does not cost shanten."""
        c = list(sit.counts)
        best = min(o.shanten for o in discard_options(sit)) if sum(c) else 8
        if kong.kind == "concealed":
            c[kong.tile] -= 4
            return shanten(c, sit.n_melds + 1) <= best
        c[kong.tile] -= 1
        return shanten(c, sit.n_melds) <= best

    def discard(self, view: PlayerView, tiles: list[Tile], sit: Situation) -> Tile:
        raise NotImplementedError

    def claim(self, view: PlayerView, claims: Sequence[Action]) -> Action:
        return Pass()


def safe_default(view: PlayerView, legal: Sequence[Action]) -> Action:
    """Pass on claims; on one's turn the drawn tile (or the first legal discard)."""
    if Pass() in legal and not (view.phase is Phase.TURN and any(isinstance(a, Discard)
                                                                 for a in legal)):
        return Pass()
    if view.last_drawn is not None and Discard(view.last_drawn) in legal:
        return Discard(view.last_drawn)
    first = next((a for a in legal if isinstance(a, Discard)), None)
    if first is not None:
        return first
    return legal[0] if legal else Pass()
