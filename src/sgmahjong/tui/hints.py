"""The hints panel's content: suggested discard and why, waits with counts, tai sources, Bao.

:func:`hint_for` is the one call site the table uses. It reads the player's own
:class:`PlayerView` and legal actions only. The analysis here is a small local version
built on :mod:`sgmahjong.analysis.useful`; when ``sgmahjong.agents.hints`` offers
``hint_lines(view, legal)`` that is used instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..analysis.shanten import shanten
from ..analysis.useful import discard_table, useful_tiles
from ..game import Action, Chow, Discard, Kong, Phase, PlayerView, Pong, Win
from ..render.text import markup
from ..tiles import Tile


@dataclass
class Hint:
    """Lines of Rich markup for the panel, and the discard suggested (highlighted in hand)."""

    lines: list[str] = field(default_factory=list)
    suggest: Tile | None = None


def hint_for(view: PlayerView, legal: Sequence[Action]) -> Hint:
    """The hint for this moment (the table's only entry point to the hints)."""
    try:
        from ..agents import hints as external  # type: ignore[attr-defined]
    except ImportError:
        external = None
    lines_fn = getattr(external, "hint_lines", None)
    if callable(lines_fn):
        try:
            got = lines_fn(view, list(legal))
            suggest = next((a.tile for a in legal if isinstance(a, Discard)
                            and getattr(got, "suggest", None) == a.tile), None)
            return Hint(list(getattr(got, "lines", got)), suggest)
        except Exception:  # a hint must never break the table; fall back to the local one
            pass
    return local_hint(view, legal)


def _counts(view: PlayerView) -> tuple[list[int], list[int]]:
    """Own concealed playable counts and the tiles visible elsewhere (34 kinds each)."""
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
    return counts, visible


def _tiles(useful: dict[Tile, int], limit: int = 8) -> str:
    best = sorted(useful.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    text = " ".join(f"{markup(t)}×{n}" for t, n in best)
    more = len(useful) - len(best)
    return text + (f" (+{more} more)" if more > 0 else "")


def _steps(n: int) -> str:
    if n <= 0:
        return "ready (one tile from winning)"
    return f"{n} tile{'s' if n > 1 else ''} from ready"


def local_hint(view: PlayerView, legal: Sequence[Action]) -> Hint:
    counts, visible = _counts(view)
    melds = len(view.me.melds)
    size = sum(counts) + 3 * melds
    hint = Hint()
    out = hint.lines
    if Win() in legal:
        out.append("[b green]You can win now: press W![/]")
    tile = view.window_tile
    claims = [a for a in legal if isinstance(a, (Chow, Pong, Kong))]
    if tile is not None and claims and view.phase is not Phase.TURN:
        before = shanten(counts, melds) if size == 13 else None
        out.append(f"[b]Claim {markup(tile)}?[/]")
        for a in claims:
            out.append("  " + _claim_line(a, tile, counts, melds, before))
        out.append("  S skips.")
    discards = [a.tile for a in legal if isinstance(a, Discard)]
    if discards and size == 14:
        table = [o for o in discard_table(counts, melds, visible) if o.discard in discards]
        if table:
            best = table[0]
            hint.suggest = best.discard
            out.append(f"[b]Throw {markup(best.discard)}[/]: leaves you {_steps(best.shanten)}, "
                       f"{best.unseen} useful tiles unseen.")
            if best.shanten == 0 and best.useful:
                out.append(f"  Then you wait on {_tiles(best.useful)}")
            elif best.useful:
                out.append(f"  Useful next: {_tiles(best.useful, 6)}")
            for o in table[1:3]:
                if o.shanten == best.shanten:
                    out.append(f"  Also fine: {markup(o.discard)} ({o.unseen} useful)")
            out.extend(_bao_lines(view, best.discard))
    elif size == 13 and not claims:
        n = shanten(counts, melds)
        useful = useful_tiles(counts, melds, visible)
        if n == 0:
            out.append(f"[b]Ready![/] Waiting on {_tiles(useful)}")
        elif n > 0:
            out.append(f"You are {_steps(n)}. Useful: {_tiles(useful, 6)}")
    out.extend(_tai_lines(view, counts))
    if not out:
        out.append("Nothing to decide yet.")
    return hint


def _claim_line(a: Action, tile: Tile, counts: list[int], melds: int,
                before: int | None) -> str:
    c = list(counts)
    if isinstance(a, Pong):
        c[tile] -= 2
        name, key = f"Pong {markup(tile)}×3", "P"
    elif isinstance(a, Kong):
        c[tile] -= 3
        name, key = f"Kong {markup(tile)}×4", "K"
    elif isinstance(a, Chow):
        for k in (a.tile, a.tile + 1, a.tile + 2):
            if k != tile:
                c[k] -= 1
        name = "Chow " + " ".join(markup(Tile(k)) for k in (a.tile, a.tile + 1, a.tile + 2))
        key = "C"
    else:
        return repr(a)
    after_melds = melds + 1
    if isinstance(a, Kong):
        after = shanten(c, after_melds)
    else:
        after = min(shanten([x - (i == d) for i, x in enumerate(c)], after_melds)
                    for d in range(34) if c[d])
    if before is None:
        return f"{key}: {name}"
    verdict = ("gets you closer" if after < before else
               "does not get you closer" if after == before else "sets you back")
    return f"{key}: {name} {verdict} ({_steps(after)})"


def _tai_lines(view: PlayerView, counts: list[int]) -> list[str]:
    try:
        from ..agents.evaluation import tai_plan
    except ImportError:
        return []
    plan = tai_plan(counts, [m.meld for m in view.me.melds], view.me.bonus, view.seat,
                    view.round_wind, view.rules)
    if not plan.sources and not plan.minimum:
        return []
    lines = [f"[b]Tai[/] (you need {plan.minimum}):"]
    for s in plan.sources[:5]:
        mark = "[green]✓[/]" if s.secured else "·"
        lines.append(f"  {mark} {s.text}" + (f" ({s.tai})" if s.secured else ""))
    if not plan.reachable:
        lines.append("  [red]No tai source yet: keep a dragon pair or aim for all chows.[/]")
    return lines


def _bao_lines(view: PlayerView, tile: Tile) -> list[str]:
    try:
        from ..agents.evaluation import bao_dangers
    except ImportError:
        return []
    return [f"  [b red]Bao warning:[/] {d.text}" for d in bao_dangers(view, tile)]


def bao_warnings(view: PlayerView, tile: Tile) -> list[str]:
    """Bao warnings for throwing ``tile`` now (shown when the player picks a tile)."""
    return _bao_lines(view, tile)
