"""Reading danger from what is face up: who looks ready and why, which tiles are safe
against them, and how dangerous a discard is.

Everything here reads a :class:`PlayerView` (and, optionally, the public order of the
discards, which a view does not keep): never another seat's concealed tiles or the wall.

A seat *looks ready* from three signs: the sets it shows, middle tiles (3 to 7) among its
latest discards (a hand still building keeps them), and a sudden change of discards (from
honours and ends to middle tiles). A tile is *safe* against such a seat when the seat threw
that kind itself (genbutsu: it rarely waits on a tile it let go) or when the tile was
thrown by someone since the seat's own latest discard and the seat did not win on it (the
passed-claim rule bars a win on another copy until its next draw). How dangerous a
discard is gets a score here and a label (safe, some risk, dangerous) read from the deal-in
probability of :mod:`sgmahjong.agents.dealin`.

>>> from sgmahjong.tiles import Tile
>>> label_of(0.0), label_of(0.3), label_of(0.7)
('safe', 'some risk', 'dangerous')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..english import and_list, tile_list
from ..game.events import Discarded, Event
from ..game.view import PlayerView
from ..game.wall import KIND
from ..rules.model import Ruleset
from ..scoring.payments import settle_win
from ..tiles import Seat, Tile

__all__ = ["DANGEROUS", "READY", "SAFE", "DiscardDanger", "History", "Threat", "bao_cost",
           "discard_danger", "discard_history", "in_sight", "label_of", "read_threats",
           "safe_in_hand", "threat_sentence", "tile_danger"]

# label_of's bands for the score alone; the hints and the review label a discard from its
# deal-in probability instead (dealin.SAFE, dealin.DANGEROUS)
DANGEROUS = 0.45   # a danger score at or above this is "dangerous"
SAFE = 0.1         # below this, "safe"
READY = 0.5        # a seat whose readiness reaches this looks ready

_SETS_LEVEL = (0.05, 0.2, 0.45, 0.85, 0.95)

History = Sequence[tuple[Seat, Tile]]


def discard_history(events: Iterable[Event]) -> list[tuple[Seat, Tile]]:
    """The public order of the discards of one hand (claimed ones too), from its events.
    Only discards are read, which every seat saw."""
    return [(e.seat, e.tile) for e in events if isinstance(e, Discarded)]


@dataclass(frozen=True, slots=True)
class Threat:
    """Another seat, read from the table: how ready it looks (0 to 1), why, and the tiles
    that are safe against it."""

    seat: Seat
    level: float
    reasons: tuple[str, ...]
    own: frozenset[Tile]       # kinds it threw itself (genbutsu)
    passed: frozenset[Tile]    # kinds thrown since its latest discard, not won on

    @property
    def ready(self) -> bool:
        return self.level >= READY

    @property
    def safe(self) -> frozenset[Tile]:
        return self.own | self.passed

    @property
    def name(self) -> str:
        return self.seat.name.title()

    @property
    def why(self) -> str:
        """``"two sets out and middle tiles thrown late"``."""
        return and_list(list(self.reasons))

    @property
    def why_not(self) -> str:
        """Why the seat does not look ready, the right way round: ``"one set out, no late
        middle tiles"``, or ``"no set out; middle tiles thrown late, not enough on its
        own"``."""
        sets = next((r for r in self.reasons if r.endswith("out")), "no set out")
        late = next((r for r in self.reasons if "middle tiles" in r), None)
        if late is None:
            return f"{sets}, no late middle tiles"
        return f"{sets}; {late}, not enough on its own"


def _middle(t: Tile) -> bool:
    return t.is_suited and 2 <= t % 9 <= 6


def _end(t: Tile) -> bool:
    return t.is_honour or (t.is_suited and t % 9 in (0, 8))


_NUMBER_WORDS = ("no", "one", "two", "three", "four")


def _own_discards(view: PlayerView, seat: Seat, history: History | None) -> list[Tile]:
    if history is not None:
        return [t for s, t in history if s == seat]
    return list(view.seats[seat].discards)


def read_threats(view: PlayerView, history: History | None = None) -> list[Threat]:
    """Every other seat as a :class:`Threat`, most ready first. ``history`` is the public
    order of the hand's discards (:func:`discard_history`); without it no tile counts as
    passed since, as a view keeps no order across seats."""
    out = []
    for sv in view.seats:
        if sv.seat == view.seat:
            continue
        n = len(sv.melds)
        level = _SETS_LEVEL[min(n, 4)]
        reasons = []
        if n:
            reasons.append(f"{_NUMBER_WORDS[min(n, 4)]} {'set' if n == 1 else 'sets'} out")
        mine = _own_discards(view, sv.seat, history)
        late = mine[-3:]
        early = mine[:-2]
        if len(mine) >= 6 and sum(map(_middle, late)) >= 2:
            if (all(map(_middle, mine[-2:])) and early
                    and sum(map(_end, early)) * 3 >= 2 * len(early)):
                level += 0.3
                reasons.append("a sudden change from honours and ends to middle tiles")
            else:
                level += 0.25
                reasons.append("middle tiles thrown late")
        if n and view.live_remaining < 30:
            level += 0.1
            reasons.append("the wall running short")
        level = min(level, 0.95)
        own = set(sv.discards)
        for other in view.seats:
            for m in other.melds:   # its discards that others claimed are still its own
                if m.claimed_from == sv.seat and m.claimed is not None:
                    own.add(KIND[m.claimed])
        passed: set[Tile] = set()
        if history is not None:
            last = max((i for i, (s, _) in enumerate(history) if s == sv.seat), default=None)
            if last is not None:
                passed = {t for s, t in history[last + 1:] if s != sv.seat}
            own |= set(mine)
        out.append(Threat(sv.seat, level, tuple(reasons), frozenset(own), frozenset(passed)))
    out.sort(key=lambda t: (-t.level, t.seat))
    return out


def in_sight(view: PlayerView, tile: Tile) -> int:
    """Copies of ``tile`` the seat of ``view`` can see: in its hand, in any declared set,
    among the discards (at most 4)."""
    n = view.concealed.count(tile)
    for s in view.seats:
        n += s.discards.count(tile)
        for m in s.melds:
            n += m.meld.tiles.count(tile)
    return min(n, 4)


def _shape(view: PlayerView, tile: Tile) -> float:
    """How easily a hidden hand can wait on ``tile``. An honour only completes a pair or a
    pong, so every copy in sight (thrown, in a set, in hand) makes it safer, and with all
    four accounted for nobody can use it; a suited tile also completes runs, whatever
    its own copies, so copies in sight lower it less; ends are safer than middle tiles."""
    seen = in_sight(view, tile)
    if tile.is_honour:
        return (1.0, 0.8, 0.4, 0.05, 0.0)[seen]
    n = tile % 9
    base = 0.55 if n in (0, 8) else 0.8 if n in (1, 7) else 1.0
    return base * (1.0, 0.9, 0.8, 0.7, 0.6)[seen]


def tile_danger(view: PlayerView, tile: Tile, threats: Sequence[Threat]) -> float:
    """How likely a discard of ``tile`` is to feed a seat that looks ready (0 to 1)."""
    shape = _shape(view, tile)
    safe = 1.0
    for th in threats:
        if th.ready and tile not in th.safe:
            safe *= 1.0 - th.level * shape
    return 1.0 - safe


def label_of(danger: float) -> str:
    """``"safe"``, ``"some risk"`` or ``"dangerous"`` for a danger score (the score's own
    bands; :func:`discard_danger` labels from the deal-in probability)."""
    if danger < SAFE:
        return "safe"
    return "dangerous" if danger >= DANGEROUS else "some risk"


@dataclass(frozen=True, slots=True)
class DiscardDanger:
    """A discard read against the seats that look ready (``label`` None: none does).
    ``chance`` is the deal-in probability (:mod:`sgmahjong.agents.dealin`), whoever looks
    ready; the label is read from it."""

    tile: Tile
    danger: float
    label: str | None
    against: tuple[Threat, ...]     # the ready-looking seats it is not safe against
    safe_by: tuple[str, ...]        # why it is safe against the others
    chance: float = 0.0


def discard_danger(view: PlayerView, tile: Tile, threats: Sequence[Threat] | None = None,
                   history: History | None = None) -> DiscardDanger:
    """How dangerous throwing ``tile`` is now: the danger score against the seats that
    look ready, and the deal-in probability, whose label it carries (safe, some risk or
    dangerous; None while nobody looks ready)."""
    # dealin reads the threats of this module: imported here, not at the top
    from .dealin import dealin, dealin_label

    threats = read_threats(view, history) if threats is None else threats
    chance = dealin(view, tile, threats).probability
    ready = [t for t in threats if t.ready]
    if not ready:
        return DiscardDanger(tile, 0.0, None, (), (), chance)
    d = tile_danger(view, tile, ready)
    against = tuple(t for t in ready if tile not in t.safe)
    why = []
    for t in ready:
        if tile in t.own:
            why.append(f"{t.name} threw it")
        elif tile in t.passed:
            why.append(f"{t.name} let it pass")
    label = dealin_label(chance)
    if label == "safe" and not why:
        why.append("hardly a copy of it is left to wait on" if _shape(view, tile) < 0.5
                   else "nothing face up points to it")
    return DiscardDanger(tile, d, label, against, tuple(why), chance)


def safe_in_hand(view: PlayerView, threats: Sequence[Threat]) -> list[Tile]:
    """The kinds in hand that are safe against every seat that looks ready."""
    ready = [t for t in threats if t.ready]
    kinds = sorted({t for t in view.concealed if t < 34})
    return [k for k in kinds if tile_danger(view, k, ready) < SAFE]


def threat_sentence(th: Threat, view: PlayerView) -> str:
    """``"West looks ready (two sets out and middle tiles thrown late); safe against West:
    9 Bamboo and East Wind."``"""
    held = sorted({t for t in view.concealed if t < 34 and t in th.safe})
    head = f"{th.name} looks ready ({th.why})"
    if held:
        return f"{head}; safe against {th.name} in your hand: {tile_list(held)}."
    # not "nothing is safe": a tile can still be unlikely to be won on (its deal-in chance)
    return f"{head}; {th.name} has not thrown or let pass any tile in your hand."


def bao_cost(rules: Ruleset, winner: Seat, me: Seat) -> int:
    """What ``me`` would pay, under Bao, for a win at the tai cap by ``winner`` on ``me``'s
    discard: every payer's share."""
    st = settle_win(rules, winner, rules.scoring.tai_cap, False, me, liable=me)
    return max(0, -st.deltas[me])
