"""End-of-hand and end-of-match texts, read from the hand's events (Rich markup lines)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..game import Game
from ..render.text import hand_text
from ..render.words import CONTEXT_NAMES, DRAWN_WHY
from ..rules.catalog import PATTERNS
from ..session.standings import final_standings
from ..session.summaries import PayoutLine, hand_end
from ..tiles import Seat
from .hints import tiles_markup
from .widgets import name_markup


def pattern_name(pid: str) -> str:
    p = PATTERNS.get(pid)
    return f"{p.english} {p.chinese}" if p else pid


def hand_lines(game: Game, name: Callable[[Seat], str]) -> list[str]:
    """Who won, the winning hand, each tai source, total and cap, and who paid what."""
    out: list[str] = []
    end = hand_end(game.events, name)
    cap = game.rules.scoring.tai_cap
    for e in end.wins:
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
    # the sentences the web table and the replay say (render.words, through the table
    # session): "Fox pays you 4 points", points from nobody: "You score 1 point"
    for payments in end.settlements:
        out.append("  Payments:")
        out.extend(f"    {tiles_markup(p.text)}" for p in payments)
    if end.drawn is not None:
        out.append(f"[b]Drawn hand[/]: {DRAWN_WHY.get(end.drawn, end.drawn)}. "
                   "Nobody scores.")
    if end.along:
        out.append("[b]Along the way[/]:")
        for x in end.along:
            if isinstance(x, PayoutLine):
                out.append(f"  {tiles_markup(x.text)}")
            else:
                out.append(f"  [red]Bao[/]: {tiles_markup(x.text)}")
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
