"""End-of-hand and end-of-match texts, read from the hand's events (Rich markup lines)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..game import BaoIncurred, Game, HandDrawn, InstantPayout, Settled, Won
from ..render.text import hand_text
from ..render.words import BAO_NAMES, CONTEXT_NAMES, DRAWN_WHY, PAYOUT_NAMES
from ..rules.catalog import PATTERNS
from ..tiles import Seat
from .widgets import name_markup


def pattern_name(pid: str) -> str:
    p = PATTERNS.get(pid)
    return f"{p.english} {p.chinese}" if p else pid


def points(n: int) -> str:
    """``"1 point"``, ``"4 points"``."""
    return f"{n} point{'' if abs(n) == 1 else 's'}"


def _verb(who: str, verb: str) -> str:
    """``"You pay"`` but ``"Rabbit pays"``."""
    return f"{who} {verb}" if who == "You" else f"{who} {verb}s"


def hand_lines(game: Game, name: Callable[[Seat], str]) -> list[str]:
    """Who won, the winning hand, each tai source, total and cap, and who paid what."""
    out: list[str] = []
    events = game.events
    cap = game.rules.scoring.tai_cap
    for e in events:
        if isinstance(e, Won):
            # the discarder is a seat, and East is seat 0: never `discarder or seat`
            if e.discarder is None:
                how = "self-drawn"
            else:
                thrower = name(e.discarder)
                how = "on your discard" if thrower == "You" else f"on {thrower}'s discard"
            extra = ", ".join(CONTEXT_NAMES.get(c, c) for c in e.context)
            out.append(f"[b]{name(e.seat)} won[/] with {name_markup(e.tile)}, {how}"
                       + (f" ({extra})" if extra else "") + ".")
            out.append("  Hand: " + hand_text(game.view(e.seat).hand, styled=True))
            for p in e.patterns:
                count = f" ×{p.count}" if p.count > 1 else ""
                out.append(f"  {pattern_name(p.id)}{count}: {p.tai} tai")
            if game.rules.scoring.counts_tai:
                capped = (f", paid as {e.tai} (the cap is {cap})" if e.raw_tai > e.tai
                          else f" (the cap is {cap})")
                out.append(f"  [b]Total: {e.raw_tai} tai[/]{capped}")
        elif isinstance(e, Settled):
            out.append("  Payments:")
            for p in e.payments:
                if p.payer is None:  # points from nobody: the winner just scores them
                    out.append(f"    {_verb(name(p.payee), 'score')} {points(p.amount)} "
                               f"({p.why})")
                else:
                    out.append(f"    {_verb(name(p.payer), 'pay')} {name(p.payee)} "
                               f"{points(p.amount)} ({p.why})")
        elif isinstance(e, HandDrawn):
            out.append(f"[b]Drawn hand[/]: {DRAWN_WHY.get(e.reason, e.reason)}. "
                       "Nobody scores.")
    extras = [e for e in events if isinstance(e, (InstantPayout, BaoIncurred))]
    if extras:
        out.append("[b]Along the way[/]:")
        for x in extras:
            if isinstance(x, InstantPayout):
                out.append(f"  {name(x.seat)} collected {points(x.amount)} from each player "
                           f"for {PAYOUT_NAMES.get(x.reason, x.reason)}.")
            else:
                pays = "pay" if name(x.seat) == "You" else "pays"
                out.append(f"  [red]Bao[/]: {name(x.seat)} {BAO_NAMES.get(x.case, x.case)} "
                           f"({name_markup(x.tile)}) and {pays} for {name(x.winner)}'s win.")
    outcome = game.outcome()
    if outcome is not None:
        out.append("[b]This hand[/]: " + ", ".join(
            f"{name(s)} {outcome.deltas[s]:+d}" for s in Seat))
    return out


def standings_lines(names: Sequence[str], scores: Sequence[int]) -> list[str]:
    """The players by score, best first."""
    order = sorted(range(len(names)), key=lambda p: (-scores[p], p))
    medals = ["1st", "2nd", "3rd", "4th"]
    return [f"  {medals[i]}  {names[p]:<10} {scores[p]:+d}" for i, p in enumerate(order)]
