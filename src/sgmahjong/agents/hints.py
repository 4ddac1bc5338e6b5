"""Hints for a learner, from the view alone: what to throw and why, waits, tai, claims, Bao."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..game.actions import Action, Discard, Kong, Pong
from ..game.events import Won
from ..game.legal import legal_actions
from ..game.state import Phase
from ..game.view import PlayerView
from ..hand import Hand
from ..melds import Meld
from ..rules.catalog import PATTERNS
from ..scoring import WinContext, score_hand
from ..tiles import Seat, Tile
from .evaluation import (
    TaiSource,
    bao_dangers,
    claim_options,
    danger,
    discard_options,
    ready_looking,
    situation,
    useful_kinds,
    view_plan,
)
from .owl import Owl

__all__ = ["BaoWarning", "ClaimHint", "DiscardHint", "Hints", "TaiHint", "WaitsHint",
           "WinHint", "bao_warnings", "claim_hints", "current_waits", "hints",
           "suggest_discard", "tai_hint", "win_hint"]


def _names(tiles: Sequence[Tile]) -> str:
    return ", ".join(t.text for t in tiles)


def _away(s: int) -> str:
    return "complete" if s < 0 else "ready" if s == 0 else f"{s} away from ready"


@dataclass(frozen=True, slots=True)
class DiscardHint:
    """The suggested discard and why."""

    tile: Tile
    sentence: str
    shanten: int
    useful: dict[Tile, int]
    remaining: int
    plan: str
    safety: str


@dataclass(frozen=True, slots=True)
class WaitsHint:
    """The tiles a ready hand waits on, with unseen copies (empty when not ready)."""

    waits: dict[Tile, int]
    sentence: str
    tai: dict[Tile, int] = field(default_factory=dict)   # tai of a win on each wait


@dataclass(frozen=True, slots=True)
class TaiHint:
    """Where the hand's tai can come from and whether it can reach the minimum."""

    sources: tuple[TaiSource, ...]
    secured: int
    minimum: int
    reachable: bool
    sentence: str


@dataclass(frozen=True, slots=True)
class ClaimHint:
    """One claim on offer: take it or not, and why."""

    action: Action
    take: bool
    sentence: str


@dataclass(frozen=True, slots=True)
class BaoWarning:
    """A discard that could make the player pay for the whole table."""

    tile: Tile
    seat: Seat
    case: str
    sentence: str


@dataclass(frozen=True, slots=True)
class WinHint:
    """After a win: where its tai came from."""

    items: tuple[tuple[str, int], ...]
    tai: int
    sentence: str


@dataclass(frozen=True, slots=True)
class Hints:
    """Everything the hint panel shows for one view."""

    discard: DiscardHint | None
    waits: WaitsHint
    tai: TaiHint
    claims: tuple[ClaimHint, ...]
    bao: tuple[BaoWarning, ...]


def _on_turn(view: PlayerView) -> bool:
    return view.phase is Phase.TURN and view.seat == view.turn


def tai_hint(view: PlayerView) -> TaiHint:
    """Where the tai can come from: "no tai yet: keep the Red pair or aim for all chows"."""
    plan = view_plan(view)
    secured = [s for s in plan.sources if s.secured]
    potential = [s for s in plan.sources if not s.secured]
    if not view.rules.scoring.counts_tai:
        sentence = "These rules count no tai: any complete hand wins."
    elif plan.secured >= plan.minimum:
        sentence = (f"{plan.secured} tai already certain ({'; '.join(s.text for s in secured)})"
                    f", enough for the minimum of {plan.minimum}.")
    elif potential:
        ways = " or ".join(("keep " if s.kind == "honour-pair" else "aim for ") + s.text
                           for s in potential[:3])
        head = "no tai yet" if not plan.secured else f"only {plan.secured} tai so far"
        sentence = f"{head.capitalize()}: {ways}."
    else:
        sentence = (f"No tai and no way to {plan.minimum} in sight: this hand cannot win as it "
                    "stands; keep honour pairs, bonus tiles or a chow-only shape.")
    return TaiHint(plan.sources, plan.secured, plan.minimum, plan.reachable, sentence)


def suggest_discard(view: PlayerView) -> DiscardHint | None:
    """The discard the Owl would make, explained (None when it is not this seat's discard)."""
    legal = legal_actions(view)
    tiles = [a.tile for a in legal if isinstance(a, Discard)]
    if not _on_turn(view) or not tiles:
        return None
    sit = situation(view)
    owl = Owl(0)
    tile = owl.discard(view, tiles, sit)
    opt = next(o for o in discard_options(sit, [tile]))
    useful = {t: sit.unseen[t] for t in opt.useful}
    remaining = sum(useful.values())
    plan = view_plan(view, opt.after, sit.melds)
    plan_text = tai_hint_from(plan.sources, plan.secured, plan.minimum)
    if opt.shanten == 0:
        worth = _wait_tai(view, opt.after, sit.melds, opt.useful)
        best = max(worth.values(), default=-1)
        plan_text = (f"a win is worth up to {best} tai" if best >= 0
                     else "but no wait gives enough tai to win yet")
    threats = ready_looking(view)
    safety = ""
    if threats:
        names = [s.name.title() for s in threats]
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        verb = "looks" if len(names) == 1 else "look"
        if danger(view, tile, threats, sit) == 0:
            safety = f"it is safe against {who}, who {verb} ready"
        else:
            safety = f"careful, {who} {verb} ready"
    if opt.shanten == 0:
        what = f"you are ready, waiting on {_names(opt.useful)} ({remaining} left)"
    else:
        what = (f"it leaves you {_away(opt.shanten)} with {len(opt.useful)} kinds of useful "
                f"tile ({remaining} left unseen)")
    parts = [f"Throw {tile.text} ({tile.english}): {what}", plan_text]
    if safety:
        parts.append(safety)
    return DiscardHint(tile, "; ".join(parts) + ".", opt.shanten, useful, remaining,
                       plan_text, safety)


def tai_hint_from(sources: Sequence[TaiSource], secured: int, minimum: int) -> str:
    if secured >= minimum:
        return f"your {secured} tai are safe"
    pot = [s.text for s in sources if not s.secured]
    return f"tai from {pot[0]}" if pot else "but the hand has no tai source left"


def _wait_tai(view: PlayerView, counts: Sequence[int], melds: Sequence[Meld],
              waits: Sequence[Tile]) -> dict[Tile, int]:
    """The tai of a win on each wait off a discard (-1: below the minimum)."""
    concealed = [Tile(k) for k in range(34) for _ in range(counts[k])]
    worth: dict[Tile, int] = {}
    for t in waits:
        ctx = WinContext(view.seat, t, False, view.round_wind, discarder=view.seat.next)
        r = score_hand(Hand((*concealed, t), tuple(melds), view.me.bonus), ctx, view.rules)
        worth[t] = r.raw_tai if r.winning else -1
    return worth


def current_waits(view: PlayerView) -> WaitsHint:
    """The waits of the hand (after the suggested discard when it is this seat's turn)."""
    sit = situation(view)
    counts = sit.counts
    if sum(counts) + 3 * sit.n_melds == 14:
        d = suggest_discard(view)
        if d is None:
            return WaitsHint({}, "")
        c = list(counts)
        c[d.tile] -= 1
        counts = tuple(c)
    if sum(counts) + 3 * sit.n_melds != 13:
        return WaitsHint({}, "")
    s, kinds = useful_kinds(tuple(counts), sit.n_melds)
    if s != 0:
        return WaitsHint({}, f"Not ready yet: {_away(s)}.")
    waits = {Tile(k): sit.unseen[k] for k in kinds}
    left = sum(waits.values())
    worth = _wait_tai(view, counts, sit.melds, list(waits))
    notes = ", ".join(f"{t.text} {n} tai" if n >= 0 else f"{t.text} too few tai to win"
                      for t, n in worth.items())
    sentence = (f"Waiting on {_names(list(waits))}: {left} unseen ({notes})."
                if left else f"Waiting on {_names(list(waits))}, but every copy is visible.")
    return WaitsHint(waits, sentence, worth)


def claim_hints(view: PlayerView, legal: Sequence[Action] | None = None
                ) -> tuple[ClaimHint, ...]:
    """For every Chow, Pong or Kong on offer: take it or not, and why."""
    legal = legal_actions(view) if legal is None else legal
    tile = view.window_tile
    out = []
    before = view_plan(view)
    for opt in claim_options(view, legal):
        plan = view_plan(view, opt.counts, opt.melds)
        name = type(opt.action).__name__
        what = f"{name} {tile.text if tile else ''}".strip()
        if not plan.reachable:
            out.append(ClaimHint(opt.action, False,
                                 f"Skip the {what}: the hand would have no tai and could not "
                                 "win."))
        elif opt.lowers:
            gain = ("" if plan.secured <= before.secured
                    else f" and gives {plan.secured - before.secured} tai")
            out.append(ClaimHint(opt.action, True,
                                 f"Take the {what}: it brings you from {_away(opt.before)} "
                                 f"to {_away(opt.after)}{gain}."))
        elif isinstance(opt.action, (Pong, Kong)) and plan.secured > before.secured \
                and opt.after <= opt.before:
            out.append(ClaimHint(opt.action, True,
                                 f"Take the {what}: it secures {plan.secured} tai at no cost."))
        else:
            out.append(ClaimHint(opt.action, False,
                                 f"Skip the {what}: it does not bring you closer "
                                 f"({_away(opt.before)} either way)."))
    return tuple(out)


def bao_warnings(view: PlayerView) -> tuple[BaoWarning, ...]:
    """Warnings for every tile in hand whose discard could make this seat liable (Bao)."""
    out = []
    for t in sorted(set(view.concealed)):
        for d in bao_dangers(view, t):
            out.append(BaoWarning(t, d.seat, d.case,
                                  f"Careful with {t.text} ({t.english}): {d.text}."))
    return tuple(out)


def win_hint(won: Won) -> WinHint:
    """Where a win's tai came from, from the Won event's patterns."""
    items = tuple((p.id, p.tai) for p in won.patterns)
    parts = [f"{PATTERNS[p.id].english if p.id in PATTERNS else p.id}"
             f"{f' x{p.count}' if p.count > 1 else ''} {p.tai}" for p in won.patterns]
    raw = f" ({won.raw_tai} before the cap)" if won.raw_tai != won.tai else ""
    sentence = (f"{won.tai} tai{raw}: " + ", ".join(parts) + "."
                if parts else f"{won.tai} tai: a complete hand.")
    return WinHint(items, won.tai, sentence)


def hints(view: PlayerView, legal: Sequence[Action] | None = None) -> Hints:
    """All the hints for ``view``."""
    on_turn = _on_turn(view)
    return Hints(suggest_discard(view) if on_turn else None, current_waits(view),
                 tai_hint(view), () if on_turn else claim_hints(view, legal),
                 bao_warnings(view) if on_turn else ())
