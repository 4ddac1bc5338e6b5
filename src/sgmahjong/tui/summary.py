"""End-of-hand and end-of-match texts, read from the hand's events (Rich markup lines)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..game import BaoIncurred, Game, HandDrawn, InstantPayout, Settled, Won
from ..render.text import hand_text
from ..render.words import CONTEXT_NAMES, DRAWN_WHY, bao_text, payment_text, payout_text
from ..rules.catalog import PATTERNS
from ..session.standings import final_standings
from ..tiles import Seat
from .hints import tiles_markup
from .widgets import name_markup


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
            # the sentences the web table and the replay say (render.words): "Fox pays you
            # 4 points", points from nobody: "You score 1 point"
            out.append("  Payments:")
            for p in e.payments:
                payer = None if p.payer is None else name(p.payer)
                line = payment_text(payer, name(p.payee), p.amount, p.why)
                out.append(f"    {tiles_markup(line)}")
        elif isinstance(e, HandDrawn):
            out.append(f"[b]Drawn hand[/]: {DRAWN_WHY.get(e.reason, e.reason)}. "
                       "Nobody scores.")
    extras = [e for e in events if isinstance(e, (InstantPayout, BaoIncurred))]
    if extras:
        out.append("[b]Along the way[/]:")
        for x in extras:
            if isinstance(x, InstantPayout):
                # "You collect ... for your own flower and season": whose is said as the
                # web table and the replay say it
                out.append(f"  {tiles_markup(payout_text(name(x.seat), x.amount, x.reason))}")
            else:
                out.append("  [red]Bao[/]: " + tiles_markup(
                    bao_text(name(x.seat), x.case, name(x.winner), x.tile)))
    outcome = game.outcome()
    if outcome is not None:
        out.append("[b]This hand[/]: " + ", ".join(
            f"{name(s)} {outcome.deltas[s]:+d}" for s in Seat))
    return out


def standings_lines(names: Sequence[str], scores: Sequence[int]) -> list[str]:
    """The final standings (:func:`sgmahjong.session.standings.final_standings`: equal
    points share a place, "1st, 1st, 3rd"), a line each."""
    return [f"  {s.ordinal:<4} {s.name:<10} {s.score:+d}"
            for s in final_standings(names, scores)]
