"""End-of-hand and end-of-match texts, read from the hand's events (Rich markup lines)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..game import BaoIncurred, Game, HandDrawn, InstantPayout, Settled, Won
from ..render.text import hand_text, markup
from ..render.words import BAO_NAMES, CONTEXT_NAMES, DRAWN_WHY, PAYOUT_NAMES
from ..rules.catalog import PATTERNS
from ..tiles import Seat


def pattern_name(pid: str) -> str:
    p = PATTERNS.get(pid)
    return f"{p.english} {p.chinese}" if p else pid


def hand_lines(game: Game, name: Callable[[Seat], str]) -> list[str]:
    """Who won, the winning hand, each tai source, total and cap, and who paid what."""
    out: list[str] = []
    events = game.events
    cap = game.rules.scoring.tai_cap
    for e in events:
        if isinstance(e, Won):
            whose = "your" if name(e.discarder or e.seat) == "You" else (
                f"{name(e.discarder or e.seat)}'s")
            how = "self-drawn" if e.discarder is None else f"on {whose} discard"
            extra = ", ".join(CONTEXT_NAMES.get(c, c) for c in e.context)
            out.append(f"[b]{name(e.seat)} won[/] with {markup(e.tile)}, {how}"
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
                who = name(p.payer) if p.payer is not None else "Nobody"
                verb = "pay" if who == "You" else "pays"
                out.append(f"    {who} {verb} {name(p.payee)} {p.amount} ({p.why})")
        elif isinstance(e, HandDrawn):
            out.append(f"[b]Drawn hand[/]: {DRAWN_WHY.get(e.reason, e.reason)}. "
                       "Nobody scores.")
    extras = [e for e in events if isinstance(e, (InstantPayout, BaoIncurred))]
    if extras:
        out.append("[b]Along the way[/]:")
        for x in extras:
            if isinstance(x, InstantPayout):
                out.append(f"  {name(x.seat)} collected {x.amount} from each player for "
                           f"{PAYOUT_NAMES.get(x.reason, x.reason)}.")
            else:
                out.append(f"  [red]Bao[/]: {name(x.seat)} {BAO_NAMES.get(x.case, x.case)} "
                           f"({markup(x.tile)}) and pays for {name(x.winner)}'s win.")
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
