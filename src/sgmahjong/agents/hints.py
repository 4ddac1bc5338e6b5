"""Hints for a learner, from the view alone: what to throw and why, waits, tai, claims, Bao."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..english import and_list, chow_name, count, sentence, tile_list, tile_name
from ..game.actions import Action, Chow, Discard, Kong, Pong, Win
from ..game.events import Won
from ..game.legal import legal_actions
from ..game.state import Phase
from ..game.view import PlayerView
from ..game.winning import win_score
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
           "WinHint", "WinNowHint", "bao_warnings", "claim_hints", "claim_name",
           "current_waits", "hints", "suggest_discard", "tai_hint", "win_hint", "win_now"]


def _away(s: int) -> str:
    return ("complete" if s < 0 else "ready" if s == 0
            else f"{count(s, 'tile')} away from ready")


@dataclass(frozen=True, slots=True)
class DiscardHint:
    """The suggested discard and why (``reason``: the sentence after "Throw X: ")."""

    tile: Tile
    sentence: str
    shanten: int
    useful: dict[Tile, int]
    remaining: int
    plan: str
    safety: str
    reason: str = ""


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
class WinNowHint:
    """A win on offer now: on which tile (None: not known from the view) and its tai
    (None: the rules count no tai). The front end adds its key for Win."""

    tile: Tile | None
    tai: int | None
    sentence: str


@dataclass(frozen=True, slots=True)
class Hints:
    """Everything the hint panel shows for one view."""

    discard: DiscardHint | None
    waits: WaitsHint
    tai: TaiHint
    claims: tuple[ClaimHint, ...]
    bao: tuple[BaoWarning, ...]
    win: WinNowHint | None = None


def _on_turn(view: PlayerView) -> bool:
    return view.phase is Phase.TURN and view.seat == view.turn


def _counts_tai(view: PlayerView) -> bool:
    return view.rules.scoring.counts_tai


def tai_hint(view: PlayerView) -> TaiHint:
    """Where the tai can come from: "no tai yet: keep the Red pair or aim for all chows"."""
    plan = view_plan(view)
    secured = [s for s in plan.sources if s.secured]
    potential = [s for s in plan.sources if not s.secured]
    if not _counts_tai(view):
        # These rules count no tai: nothing about tai to say, only what wins.
        return TaiHint((), 0, 0, True, "Any complete hand wins under these rules.")
    if plan.secured >= plan.minimum:
        sentence_ = (f"{count(plan.secured, 'tai')} already certain "
                     f"({'; '.join(s.text for s in secured)}), enough for the minimum of "
                     f"{plan.minimum}.")
    elif potential:
        ways = " or ".join(("keep " if s.kind == "honour-pair" else "aim for ") + s.text
                           for s in potential[:3])
        head = ("no tai yet" if plan.secured == 0
                else f"only {count(plan.secured, 'tai')} so far")
        sentence_ = f"{head.capitalize()}: {ways}."
    else:
        sentence_ = (f"No tai and no way to {plan.minimum} in sight: this hand cannot win as "
                     "it stands; keep honour pairs, bonus tiles or a chow-only shape.")
    return TaiHint(plan.sources, plan.secured, plan.minimum, plan.reachable, sentence_)


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
    helps = _drawable(opt.after, sit.melds, opt.useful)
    useful = {t: sit.unseen[t] for t in helps}
    remaining = sum(useful.values())
    plan = view_plan(view, opt.after, sit.melds)
    plan_text = tai_hint_from(plan.sources, plan.secured, plan.minimum)
    if opt.shanten == 0:
        worth = _wait_tai(view, opt.after, sit.melds, helps)
        best = max(worth.values(), default=-1)
        plan_text = (f"a win is worth up to {count(best, 'tai')}" if best >= 0
                     else "but no wait gives enough tai to win yet")
    if not _counts_tai(view):
        plan_text = ""
    threats = ready_looking(view)
    safety = ""
    if threats:
        names = [s.name.title() for s in threats]
        who = and_list(names)
        verb = "looks" if len(names) == 1 else "look"
        if danger(view, tile, threats, sit) == 0:
            safety = f"it is safe against {who}, who {verb} ready"
        else:
            safety = f"careful, {who} {verb} ready"
    if opt.shanten == 0:
        what = (f"you are ready, waiting on {tile_list(helps, 'or')} ({remaining} left)"
                if helps else "you are ready, but only on tiles you hold all four of")
    else:
        what = (f"it leaves you {_away(opt.shanten)} with {count(len(helps), 'kind')} "
                f"of useful tile ({remaining} left unseen)")
    reason = "; ".join(p for p in (what, plan_text, safety) if p) + "."
    return DiscardHint(tile, f"Throw {tile_name(tile)}: {reason}", opt.shanten, useful,
                       remaining, plan_text, safety, reason)


def tai_hint_from(sources: Sequence[TaiSource], secured: int, minimum: int) -> str:
    if secured >= minimum:
        return f"your {count(secured, 'tai')} {'is' if secured == 1 else 'are'} safe"
    pot = [s.text for s in sources if not s.secured]
    return f"tai from {pot[0]}" if pot else "but the hand has no tai source left"


def _drawable(counts: Sequence[int], melds: Sequence[Meld], waits: Sequence[Tile]
              ) -> list[Tile]:
    """The waits that can still come: not a kind the hand holds all four of, concealed or
    in its own sets (a concealed kong of 6 Characters is no wait on a fifth)."""
    return [t for t in waits
            if counts[t] + sum(1 for m in melds for x in m.tiles if x == t) < 4]


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


def _wait_notes(worth: dict[Tile, int]) -> str:
    """What a win on each wait is worth: "1 tai each", or wait by wait."""
    values = set(worth.values())
    if len(values) == 1:
        [n] = values
        if n < 0:
            return "too few tai to win" if len(worth) == 1 else "too few tai to win on any"
        return count(n, "tai") if len(worth) == 1 else f"{count(n, 'tai')} each"
    return ", ".join(f"{tile_name(t)}: {count(n, 'tai') if n >= 0 else 'too few tai to win'}"
                     for t, n in worth.items())


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
    waits = {t: sit.unseen[t] for t in _drawable(counts, sit.melds, [Tile(k) for k in kinds])}
    if not waits:
        return WaitsHint({}, "Ready, but only on tiles you hold all four of.")
    left = sum(waits.values())
    on = tile_list(list(waits), "or")
    if not left:
        return WaitsHint(waits, f"Waiting on {on}, but every copy is visible.")
    if not _counts_tai(view):
        return WaitsHint(waits, f"Waiting on {on}: {left} unseen.")
    worth = _wait_tai(view, counts, sit.melds, list(waits))
    return WaitsHint(waits, f"Waiting on {on}: {left} unseen ({_wait_notes(worth)}).", worth)


def claim_name(action: Action, tile: Tile | None) -> str:
    """A claim in words: ``"Chow 3-4-5 Circles with your 3 and 5 Circles"``,
    ``"Pong of Red Dragon"``, ``"Kong of 5 Circles"`` (``tile``: the tile on offer)."""
    if isinstance(action, Chow):
        run = [Tile(action.tile + i) for i in range(3)]
        if tile is not None and tile in run:
            run.remove(tile)
        return f"Chow {chow_name(action.tile)} with your {tile_list(run)}"
    if isinstance(action, Kong):
        return f"Kong of {tile_name(action.tile)}"
    if isinstance(action, Pong):
        return "Pong" if tile is None else f"Pong of {tile_name(tile)}"
    return type(action).__name__


def claim_hints(view: PlayerView, legal: Sequence[Action] | None = None
                ) -> tuple[ClaimHint, ...]:
    """For every Chow, Pong or Kong on offer: take it or not, and why."""
    legal = legal_actions(view) if legal is None else legal
    tile = view.window_tile
    tai = _counts_tai(view)
    out = []
    before = view_plan(view)
    for opt in claim_options(view, legal):
        plan = view_plan(view, opt.counts, opt.melds)
        what = claim_name(opt.action, tile)
        if tai and not plan.reachable:
            out.append(ClaimHint(opt.action, False,
                                 f"Skip the {what}: the hand would have no tai and could not "
                                 "win."))
        elif opt.lowers:
            gain = ("" if not tai or plan.secured <= before.secured
                    else f" and gives {count(plan.secured - before.secured, 'tai')}")
            out.append(ClaimHint(opt.action, True,
                                 f"Take the {what}: it brings you from {_away(opt.before)} "
                                 f"to {_away(opt.after)}{gain}."))
        elif tai and isinstance(opt.action, (Pong, Kong)) and plan.secured > before.secured \
                and opt.after <= opt.before:
            out.append(ClaimHint(opt.action, True,
                                 f"Take the {what}: it secures {count(plan.secured, 'tai')} "
                                 "at no cost."))
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
                                  f"Careful with {tile_name(t)}: {d.text}."))
    return tuple(out)


def win_hint(won: Won, *, counts_tai: bool = True) -> WinHint:
    """Where a win's tai came from, from the Won event's patterns (``counts_tai`` False:
    rules that count no tai, where any complete hand wins)."""
    items = tuple((p.id, p.tai) for p in won.patterns)
    if not counts_tai:
        return WinHint(items, won.tai, "A complete hand wins.")
    parts = [f"{PATTERNS[p.id].english if p.id in PATTERNS else p.id}"
             f"{f' ×{p.count}' if p.count > 1 else ''} ({count(p.tai, 'tai')})"
             for p in won.patterns]
    raw = f" ({won.raw_tai} before the cap)" if won.raw_tai != won.tai else ""
    head = f"{count(won.tai, 'tai')}{raw}"
    return WinHint(items, won.tai, f"{head}: " + ", ".join(parts) + "."
                   if parts else f"{head}: a complete hand.")


_WIN_SOURCE = {Phase.CLAIMS: "discard", Phase.ROB_KONG: "rob-kong",
               Phase.EXPOSED: "rob-eighth"}


def win_now(view: PlayerView, legal: Sequence[Action] | None = None) -> WinNowHint | None:
    """"You can win now on 8 Circles (3 tai)." when Win is among the legal actions."""
    legal = legal_actions(view) if legal is None else legal
    if Win() not in legal:
        return None
    if _on_turn(view):
        tile, source = view.last_drawn, "self"
    else:
        tile, source = view.window_tile, _WIN_SOURCE.get(view.phase, "discard")
    tai = None
    if tile is not None and _counts_tai(view):
        r = win_score(view, tile, source)
        tai = r.tai if r is not None and r.winning else None
    on = "" if tile is None else f" on {tile_name(tile)}"
    worth = "" if tai is None else f" ({count(tai, 'tai')})"
    return WinNowHint(tile, tai, sentence(f"You can win now{on}{worth}"))


def hints(view: PlayerView, legal: Sequence[Action] | None = None) -> Hints:
    """All the hints for ``view``. When a win is on offer it comes first, and no discard is
    suggested (the suggestion is to win)."""
    legal = legal_actions(view) if legal is None else list(legal)
    on_turn = _on_turn(view)
    win = win_now(view, legal)
    discard = suggest_discard(view) if on_turn and win is None else None
    return Hints(discard, current_waits(view), tai_hint(view),
                 () if on_turn else claim_hints(view, legal),
                 bao_warnings(view) if on_turn else (), win)
