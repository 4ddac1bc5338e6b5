"""Hints for a learner, from the view alone: what to throw and why, waits, tai, claims, Bao."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..english import and_list, chow_name, count, sentence, tile_list, tile_name
from ..game.actions import Action, Chow, Discard, Kong, Pass, Pong, Win
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
from .danger import (
    DiscardDanger,
    History,
    Threat,
    bao_cost,
    discard_danger,
    read_threats,
    threat_sentence,
)
from .dealin import DANGEROUS, in_words
from .evaluation import (
    ClaimOption,
    DiscardOption,
    Situation,
    TaiPlan,
    TaiSource,
    bao_dangers,
    claim_options,
    discard_options,
    situation,
    useful_kinds,
    view_plan,
)
from .expected import Evaluation, best_claim, close_margin, evaluate_claim, evaluate_pass
from .owl import Owl

__all__ = ["BaoWarning", "ClaimHint", "DiscardHint", "Hints", "TaiHint",
           "ThreatHint", "WaitsHint", "WinHint", "WinNowHint", "away_text", "bao_warnings",
           "claim_hints", "claim_name", "claim_values", "current_waits", "given_up_text",
           "gives_up", "hints", "suggest_discard", "tai_hint", "threat_hints", "win_hint",
           "win_now"]


def away_text(s: int) -> str:
    """``"ready"``, ``"1 tile away from ready"``... for a shanten."""
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
    danger: str | None = None      # "safe", "some risk", "dangerous"; None: nobody looks ready
    safer: Tile | None = None      # a safe tile offered instead of a dangerous one
    close: Tile | None = None      # another discard about as good
    given_up: tuple[str, ...] = ()  # tai sources the discard gives up
    chance: float | None = None    # its deal-in probability, when the hint says it
    safer_chance: float | None = None  # the deal-in probability of ``safer``
    win: float = 0.0               # the Owl's chance that the hand kept wins
    value: float = 0.0             # the points such a win would bring
    expected: float = 0.0          # the discard's expected points (the Owl's figure)


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
    """One claim on offer: take it or not, and why (``close``: taking and skipping are
    about as good; ``given_up``: the tai sources it gives up)."""

    action: Action
    take: bool
    sentence: str
    close: bool = False
    given_up: tuple[str, ...] = ()
    expected: float | None = None      # the Owl's expected points of taking it
    skip_expected: float | None = None  # ... and of letting the tile pass


@dataclass(frozen=True, slots=True)
class ThreatHint:
    """A seat that looks ready: why, and the tiles in hand that are safe against it."""

    seat: Seat
    reasons: tuple[str, ...]
    safe: tuple[Tile, ...]
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
    threats: tuple[ThreatHint, ...] = ()


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


def _source_key(src: TaiSource) -> tuple[str, tuple[Tile, ...]]:
    return src.kind, src.tiles


def gives_up(before: TaiPlan, after: TaiPlan) -> list[TaiSource]:
    """The tai sources of ``before`` that ``after`` no longer has (a pair that became a
    set is not given up)."""
    kept = {_source_key(s) for s in after.sources}
    grown = {s.tiles for s in after.sources if s.kind == "honour-set"}
    return [s for s in before.sources if _source_key(s) not in kept
            and not (s.kind == "honour-pair" and s.tiles in grown)]


def given_up_text(lost: Sequence[TaiSource]) -> str:
    """The tai sources given up, each with its tai: ``"ping hu (4 tai)"``."""
    return and_list([s.text if "tai" in s.text else f"{s.text} ({count(s.tai, 'tai')})"
                     for s in lost])


def _worth(plan: TaiPlan) -> str:
    """What the hand is worth after a choice, for a trade-off sentence."""
    if plan.secured:
        return f"your hand would be worth {count(plan.secured, 'tai')}"
    pot = [s.text for s in plan.sources if not s.secured]
    if pot:
        return f"your hand would have no tai yet, only {pot[0]} to aim for"
    return "your hand would have no tai at all"


def suggest_discard(view: PlayerView, history: History | None = None) -> DiscardHint | None:
    """The discard the Owl would make, explained (None when it is not this seat's discard):
    what it leaves, what it gives up, whether another is about as good, and how
    dangerous it is against the seats that look ready (``history``: the public order of
    the hand's discards, see :func:`sgmahjong.agents.danger.discard_history`)."""
    legal = legal_actions(view)
    tiles = [a.tile for a in legal if isinstance(a, Discard)]
    if not _on_turn(view) or not tiles:
        return None
    sit = situation(view)
    evals = Owl(0).evaluations(view, tiles, sit)
    scored = [(e.expected, e.tile) for e in evals if e.tile is not None]
    best, tile = scored[0]
    chosen = evals[0]
    opts = {o.tile: o for o in discard_options(sit, tiles)}
    opt = opts[tile]
    helps = _drawable(opt.after, sit.melds, opt.useful)
    useful = {t: sit.unseen[t] for t in helps}
    remaining = sum(useful.values())
    tai = _counts_tai(view)
    plan = view_plan(view, opt.after, sit.melds)
    plan_text = tai_hint_from(plan.sources, plan.secured, plan.minimum)
    if opt.shanten == 0:
        worth = _wait_tai(view, opt.after, sit.melds, helps)
        top = max(worth.values(), default=-1)
        plan_text = (f"a win is worth up to {count(top, 'tai')}" if top >= 0
                     else "but no wait gives enough tai to win yet")
    lost = gives_up(view_plan(view), plan) if tai else []
    trade = ""
    if lost:
        trade = f"it gives up {given_up_text(lost)}; {_worth(plan)}"
    if not tai:
        plan_text = ""
    close = next((t for v, t in scored[1:] if best - v < close_margin(view.rules)), None)
    close_text = ""
    if close is not None:
        other = opts[close]
        kept = [s for s in lost if s not in gives_up(view_plan(view),
                                                     view_plan(view, other.after, sit.melds))]
        if other.shanten != opt.shanten:
            why = f", though it leaves you {away_text(other.shanten)}"
        elif kept:
            why = f" and keeps {given_up_text(kept)}"
        else:
            why = ""
        close_text = f"a close call: {tile_name(close)} is about as good{why}"
    threats = read_threats(view, history)
    dd = discard_danger(view, tile, threats)
    safety, safer, safer_chance = _safety(view, dd, threats, scored, opts)
    if opt.shanten == 0:
        what = (f"you are ready, waiting on {tile_list(helps, 'or')} ({remaining} left)"
                if helps else "you are ready, but only on tiles you hold all four of")
    else:
        what = (f"it leaves you {away_text(opt.shanten)} with {count(len(helps), 'kind')} "
                f"of useful tile ({remaining} left unseen)")
    odds = _odds_text(view, chosen)
    faster = _faster_text(evals)
    reason = "; ".join(p for p in (what, odds, plan_text, trade, faster, close_text, safety)
                       if p) + "."
    return DiscardHint(tile, f"Throw {tile_name(tile)}: {reason}", opt.shanten, useful,
                       remaining, plan_text, safety, reason, dd.label, safer, close,
                       tuple(s.text for s in lost), dd.chance if safety else None,
                       safer_chance, chosen.win, chosen.value, chosen.expected)


def _odds_text(view: PlayerView, e: Evaluation) -> str:
    """The Owl's count of the hand kept: "about 1 in 4 that you win this hand, a win worth
    about 24 points"."""
    if e.win < 0.01:
        return "little chance to win this hand"
    worth = round(e.value)
    return (f"{in_words(e.win)} that you win this hand, a win worth about "
            f"{count(worth, 'point')}")


def _faster_text(evals: Sequence[Evaluation]) -> str:
    """When a quicker discard was passed over for its risk: "5 Circles is the faster tile
    but about 1 in 8 that South wins on it, and that would cost you 32 points"."""
    best = evals[0]
    fast = max(evals, key=lambda e: (e.win, -e.risk))
    threat = fast.threat
    if fast.tile is None or fast is best or fast.win < best.win + 0.005 or threat is None \
            or fast.risk <= best.risk:
        return ""
    seat, p, paid = threat
    return (f"{tile_name(fast.tile)} is the faster tile but {in_words(p)} that "
            f"{seat.name.title()} wins on it, and that would cost you "
            f"{count(round(paid), 'point')}")


def _chance_text(p: float) -> str:
    return f"{in_words(p)} that someone wins on it"


def _safety(view: PlayerView, dd: DiscardDanger, threats: Sequence[Threat],
            scored: Sequence[tuple[float, Tile]], opts: dict[Tile, DiscardOption]
            ) -> tuple[str, Tile | None, float | None]:
    """How dangerous the suggested discard is, with its deal-in probability, and a safer
    tile to throw instead of a dangerous one (the Owl's best among the safe ones, else the
    least likely to be won on when that is at most half as likely), with its probability.
    Nothing is said while nobody looks ready unless the probability is notable."""
    ready = [t for t in threats if t.ready]
    name = tile_name(dd.tile)
    if dd.label is None:
        if dd.chance >= DANGEROUS:
            return (f"nobody looks ready, but {name} is not safe: "
                    f"{_chance_text(dd.chance)}", None, None)
        return "", None, None
    names = [t.name for t in ready]
    who = and_list(names)
    verb_ = "looks" if len(names) == 1 else "look"
    odds = _chance_text(dd.chance)
    if dd.label == "safe":
        how = f" ({and_list(list(dd.safe_by))})" if dd.safe_by else ""
        return f"it is safe against {who}, who {verb_} ready{how}: {odds}", None, None
    against = dd.against
    if against:
        # name only the seats it is not safe against: the threat lines list every one
        whys = (against[0].why if len(against) == 1
                else "; ".join(f"{t.name}: {t.why}" for t in against))
        verb_ = "looks" if len(against) == 1 else "look"
        head = f"careful, {and_list([t.name for t in against])} {verb_} ready ({whys})"
    else:   # safe against every seat that looks ready, yet likely enough to be won on
        head = f"careful, though {and_list(list(dd.safe_by))}"
    if dd.label == "some risk":
        return f"{head}: {name} carries some risk ({odds})", None, None
    others = {t: discard_danger(view, t, threats) for _, t in scored if t != dd.tile}
    safe = [t for t, o in others.items() if o.label == "safe"]
    lowest = min(others, key=lambda t: (others[t].chance, t), default=None)
    if safe:
        alt, word = safe[0], "safe"
    elif lowest is not None and others[lowest].chance <= dd.chance / 2:
        alt, word = lowest, "safer"
    else:
        return (f"{head}: {name} is dangerous ({odds}), and nothing in your hand is safe",
                None, None)
    a, b = opts[alt], opts[dd.tile]
    cost = ""
    if a.shanten > b.shanten:
        cost = f", though it leaves you {away_text(a.shanten)}"
    why = "; ".join(p for p in (and_list(list(others[alt].safe_by)),
                                in_words(others[alt].chance)) if p)
    return (f"{head}: {name} is dangerous ({odds}); {tile_name(alt)} is {word} ({why}){cost}",
            alt, others[alt].chance)


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
        return WaitsHint({}, f"Not ready yet: {away_text(s)}.")
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


def claim_values(view: PlayerView, opt: ClaimOption, sit: Situation | None = None
                 ) -> tuple[float, float]:
    """The Owl's expected points of taking the claim (with its best discard after it) and
    of skipping it (the hand as it is, waiting for a draw)."""
    sit = situation(view) if sit is None else sit
    threats = read_threats(view)
    skip = evaluate_pass(view, sit, threats=threats).expected
    take = evaluate_claim(view, sit, opt.action, threats=threats, dead=True)
    return (take.expected if take is not None else 0.0), skip


def _points(x: float) -> str:
    """Expected points as the hints say them: "3.2 points", "-0.4 points"."""
    return f"{x:.1f} points"


def claim_hints(view: PlayerView, legal: Sequence[Action] | None = None
                ) -> tuple[ClaimHint, ...]:
    """For every Chow, Pong or Kong on offer: take it or not, as the Owl would (the one
    worth the most expected points, or none when letting the tile pass is worth more),
    and why: what it gains, what tai source it gives up and what the hand would then be
    worth, the expected points of taking and of skipping, and when they are within
    :func:`~sgmahjong.agents.expected.close_margin`, that it is a close call."""
    legal = legal_actions(view) if legal is None else legal
    tile = view.window_tile
    tai = _counts_tai(view)
    out = []
    sit = situation(view)
    before = view_plan(view)
    opts = claim_options(view, legal, sit)
    if not opts:
        return ()
    best, ranked = best_claim(view, sit, [o.action for o in opts])
    values = {e.action: e.expected for e in ranked}
    skip_v = values[Pass()]
    for opt in opts:
        plan = view_plan(view, opt.counts, opt.melds)
        what = claim_name(opt.action, tile)
        lost = gives_up(before, plan) if tai else []
        lost_text = given_up_text(lost)
        take_v = values.get(opt.action)
        if take_v is None:
            out.append(ClaimHint(opt.action, False,
                                 f"Skip the {what}: the hand would have no tai and could not "
                                 "win.", False, tuple(s.text for s in lost)))
            continue
        take = best.action == opt.action
        close = abs(take_v - skip_v) < close_margin(view.rules)
        gain = ("" if not tai or plan.secured <= before.secured
                else f" and gives {count(plan.secured - before.secured, 'tai')}")
        if take:
            if opt.lowers:
                text = (f"Take the {what}: it brings you from {away_text(opt.before)} "
                        f"to {away_text(opt.after)}{gain}")
            elif gain:
                text = f"Take the {what}: it secures {count(plan.secured, 'tai')}"
            else:
                text = f"Take the {what}: it keeps you {away_text(opt.after)}"
            if lost:
                text += f", but it gives up {lost_text}; {_worth(plan)}"
        elif opt.lowers:
            text = (f"Skip the {what}: it would bring you to {away_text(opt.after)}"
                    + (f", but it gives up {lost_text}" if lost else ", but not by enough"))
        else:
            text = (f"Skip the {what}: it does not bring you closer "
                    f"({away_text(opt.before)} either way)")
            if lost:
                text += f" and it would give up {lost_text}"
        text += (f". Expected points: {_points(take_v)} taking it, {_points(skip_v)} "
                 "skipping")
        if close:
            text += (". A close call: skipping it is about as good" if take
                     else ". A close call: taking it is about as good")
        out.append(ClaimHint(opt.action, take, text + ".", close,
                             tuple(s.text for s in lost), take_v, skip_v))
    return tuple(out)


def threat_hints(view: PlayerView, history: History | None = None
                 ) -> tuple[ThreatHint, ...]:
    """Every other seat that looks ready: why, and the tiles in hand safe against it."""
    out = []
    for th in read_threats(view, history):
        if not th.ready:
            continue
        safe = tuple(sorted({t for t in view.concealed if t < 34 and t in th.safe}))
        out.append(ThreatHint(th.seat, th.reasons, safe, threat_sentence(th, view)))
    return tuple(out)


def bao_warnings(view: PlayerView) -> tuple[BaoWarning, ...]:
    """Warnings for every tile in hand whose discard could make this seat liable (Bao)."""
    out = []
    for t in sorted(set(view.concealed)):
        for d in bao_dangers(view, t):
            cost = bao_cost(view.rules, d.seat, view.seat)
            risk = (f": if {d.seat.name.title()} wins on it, you pay for the whole table "
                    f"(up to {count(cost, 'point')})" if cost and d.seat != view.seat else "")
            out.append(BaoWarning(t, d.seat, d.case,
                                  f"Careful with {tile_name(t)}: {d.text}{risk}."))
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


def hints(view: PlayerView, legal: Sequence[Action] | None = None,
          history: History | None = None) -> Hints:
    """All the hints for ``view``. When a win is on offer it comes first, and no discard is
    suggested (the suggestion is to win). ``history``, the public order of the hand's
    discards (:func:`sgmahjong.agents.danger.discard_history`), lets the danger reading
    count the tiles a seat let pass since its own discard as safe."""
    legal = legal_actions(view) if legal is None else list(legal)
    on_turn = _on_turn(view)
    win = win_now(view, legal)
    discard = suggest_discard(view, history) if on_turn and win is None else None
    return Hints(discard, current_waits(view), tai_hint(view),
                 () if on_turn else claim_hints(view, legal),
                 bao_warnings(view) if on_turn else (), win,
                 threat_hints(view, history) if on_turn else ())
