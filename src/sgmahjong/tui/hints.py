"""The hints panel: Rich markup lines rendered from :func:`sgmahjong.agents.hints.hints`.

The hints themselves (what to throw and why, the waits, the tai, each claim, Bao) are worked
out in one place, :mod:`sgmahjong.agents.hints`, from the player's own :class:`PlayerView`.
This module only lays them out for the table (tiles drawn with
:func:`sgmahjong.render.text.markup`) and passes on the suggested discard for the ** marker.
:func:`hint_for` is the one call the table makes for the panel.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich.markup import escape

from ..agents import hints as engine
from ..agents.danger import History
from ..english import chow_name, count, tile_name
from ..game import Action, Chow, Discard, Kong, Pass, Phase, PlayerView, Pong, Win, Won
from ..render.labels import face
from ..render.text import markup
from ..render.words import tai_counted, tai_text
from ..rules.catalog import PATTERNS
from ..tiles import Seat, Tile

__all__ = ["WIN_KEY", "Hint", "bao_warnings", "claim_key", "claim_label", "hint_for", "named",
           "preferred_claim", "render", "tiles_markup", "win_lines"]

SHOWN_TILES = 10     # useful tiles listed after the suggested discard (two lines)
SHOWN_SOURCES = 5    # tai sources listed
WIN_KEY = "W"        # the table's key for Win, named by the win hint

_BY_NAME = {tile_name(t): t for t in Tile}
_TILE_NAME = re.compile(r"(?<![\w-])(" + "|".join(sorted(_BY_NAME, key=len, reverse=True))
                        + r")(?![\w])")


@dataclass
class Hint:
    """Lines of Rich markup for the panel, and the discard suggested (highlighted in hand)."""

    lines: list[str] = field(default_factory=list)
    suggest: Tile | None = None
    prefer: Action | None = None
    """With two claims or more on offer, the one to take (``Pass()``: none of them)."""


def hint_for(view: PlayerView, legal: Sequence[Action],
             history: History | None = None) -> Hint:
    """The panel for this moment: :func:`sgmahjong.agents.hints.hints`, laid out.
    ``history`` is the public order of the hand's discards
    (:func:`sgmahjong.agents.danger.discard_history`): with it the danger reading counts
    the tiles a seat let pass since its own discard as safe against it."""
    try:
        found = engine.hints(view, list(legal), history)
    except Exception as e:  # a hint must never break the table: say so in the panel
        return Hint([f"[red]No hint this time ({escape(type(e).__name__)}: "
                     f"{escape(str(e))}).[/]"])
    return render(found, view, legal)


def render(h: engine.Hints, view: PlayerView, legal: Sequence[Action]) -> Hint:
    """Lay out ``h`` (the hints for ``view``) as panel lines."""
    out: list[str] = []
    can_win = Win() in legal
    if can_win:
        said = h.win.sentence.removesuffix(".") if h.win is not None else "You can win now"
        out.append(f"[b green]{tiles_markup(said)}: press {WIN_KEY}![/]")
    prefer = preferred_claim(view, legal, h.claims)
    out.extend(_claim_lines(h.claims, view, can_win, prefer))
    out.extend(_own_kong_lines(view, legal))
    suggest = None
    on_turn = view.phase is Phase.TURN and view.seat == view.turn
    if h.discard is not None and not can_win:  # no throw to suggest when you can win
        out.extend(_discard_lines(h.discard))
        if Discard(h.discard.tile) in legal:
            suggest = h.discard.tile
    if not (can_win and on_turn):   # the waits after a throw nobody needs to make
        out.extend(_wait_lines(h.waits, view, show_not_ready=h.discard is None))
    out.extend(_tai_lines(h.tai, view, on_turn=h.discard is not None))
    out.extend(f"[b red]Bao:[/] {tiles_markup(w.sentence)}" for w in h.bao)
    out.extend(f"[yellow]{tiles_markup(t.sentence)}[/]" for t in h.threats)
    if not out:
        out.append("Nothing to decide yet.")
    return Hint(out, suggest, prefer)


def named(tile: Tile) -> str:
    """A tile as the panel names it: its label drawn as a tile, then its name."""
    return f"{markup(tile)} ({escape(tile_name(tile))})"


def tiles_markup(sentence: str) -> str:
    """Plain text from the hints module, escaped, with each tile name ("5 Circles",
    "Red Dragon") in the tile's colour."""
    parts = []
    last = 0
    for m in _TILE_NAME.finditer(sentence):
        parts.append(escape(sentence[last:m.start()]))
        parts.append(f"[{face(_BY_NAME[m.group(1)]).style}]{escape(m.group(1))}[/]")
        last = m.end()
    parts.append(escape(sentence[last:]))
    return "".join(parts)


def _rows(items: Sequence[str], per_row: int) -> list[str]:
    """Items laid out ``per_row`` to a line, indented (the panel is 34 columns wide)."""
    return ["  " + " ".join(items[i:i + per_row]) for i in range(0, len(items), per_row)]


def _tile_rows(tiles: dict[Tile, int], limit: int = SHOWN_TILES) -> list[str]:
    """``5萬×3 6萬×4 …``: the kinds with the most copies unseen first, five to a line."""
    best = sorted(tiles.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    items = [f"{markup(t)}×{n}" for t, n in best]
    more = len(tiles) - len(best)
    if more > 0:
        items.append(f"[dim](+{more} more)[/]")
    return _rows(items, 5)


def _sentence(text: str) -> str:
    """A clause from the hints module as a sentence of its own, tiles drawn."""
    text = text.removeprefix("but ").strip()
    return tiles_markup(text[:1].upper() + text[1:] + ("" if text.endswith(".") else "."))


def _discard_lines(d: engine.DiscardHint) -> list[str]:
    head = f"[b]Throw {markup(d.tile)}[/] ({escape(tile_name(d.tile))})"
    if d.shanten <= 0:
        out = [f"{head}: leaves you ready."]
    else:
        out = [f"{head}: leaves you {count(d.shanten, 'tile')} from ready, "
               f"{count(len(d.useful), 'kind')} help ({d.remaining} unseen):"]
        out.extend(_tile_rows(d.useful))
    if d.plan and d.shanten > 0:  # when ready, the waits below show the tai of each win
        bad = d.plan.startswith("but ")
        out.append(f"  [red]{_sentence(d.plan)}[/]" if bad else f"  {_sentence(d.plan)}")
    if d.safety:
        colour = ("green" if d.danger == "safe" else "red" if d.danger == "dangerous"
                  else "yellow")
        out.append(f"  [{colour}]{_sentence(d.safety)}[/]")
    return out


def _wait_lines(w: engine.WaitsHint, view: PlayerView, show_not_ready: bool) -> list[str]:
    if not w.waits:
        return [tiles_markup(w.sentence)] if show_not_ready and w.sentence else []
    left = sum(w.waits.values())
    out = [f"[b]Waiting on[/] {count(len(w.waits), 'kind')}, {left} unseen:"]
    none_win = bool(w.tai) and all(n < 0 for n in w.tai.values())
    items = []
    for t, n in sorted(w.waits.items(), key=lambda kv: (-kv[1], kv[0])):
        tai = w.tai.get(t)
        worth = ("" if tai is None or none_win else " [red](too few tai)[/]" if tai < 0
                 else f" ({tai} tai)")
        items.append(f"{markup(t)}×{n}{worth}")
    out.extend(_rows(items, 5 if none_win or not w.tai else 2))
    if none_win:
        need = view.rules.scoring.minimum_tai
        out.append(f"  [red]Too few tai: a win here would not reach the {count(need, 'tai')} "
                   "you need.[/]")
    if not left:
        out.append("  [red]Every copy is visible: this wait cannot come.[/]")
    return out


def _tai_lines(t: engine.TaiHint, view: PlayerView, on_turn: bool) -> list[str]:
    """The tai block. On your turn the advice is the suggested discard's plan (the tai of
    the hand after that throw), so only the sources already held are listed here."""
    if not view.rules.scoring.counts_tai:
        return [f"[dim]{tiles_markup(t.sentence)}[/]"]
    enough = t.secured >= t.minimum
    mark = " [green]✓[/]" if enough else ""
    out = [f"[b]Tai[/]: {t.secured} certain, {t.minimum} needed{mark}"]
    shown = [s for s in t.sources if s.secured or enough][:SHOWN_SOURCES]
    for s in shown:
        worth = "" if "tai" in s.text else f" ({s.tai} tai)"
        tick = "[green]✓[/]" if s.secured else "·"
        out.append(f"  {tick} {tiles_markup(s.text)}{worth}")
    if not enough and not on_turn:
        colour = "yellow" if t.reachable else "red"
        out.append(f"  [{colour}]{tiles_markup(t.sentence)}[/]")
    return out


_CLAIM_KEYS = ((Chow, "C"), (Kong, "K"), (Pong, "P"))


def claim_key(action: Action) -> str:
    """The table's key for a claim: ``"P"`` for a Pong."""
    if isinstance(action, Win):
        return WIN_KEY
    return next((k for kind, k in _CLAIM_KEYS if isinstance(action, kind)), "S")


def claim_label(action: Action) -> str:
    """A claim with its key, tersely (the tile on offer heads the block): ``"P Pong"``,
    ``"C Chow 3-4-5 Circles"``."""
    name = (f"Chow {chow_name(action.tile)}" if isinstance(action, Chow)
            else type(action).__name__)
    return f"{claim_key(action)} {name}"


def preferred_claim(view: PlayerView, legal: Sequence[Action],
                    claims: Sequence[engine.ClaimHint]) -> Action | None:
    """With two claims or more on offer (a win counts as one), the one to take: a win
    before anything (it scores the hand now, a claim only brings it closer); else the one
    claim the hints say to take, or of several the one Owl values most; ``Pass()`` when
    none is worth taking. None with fewer than two on offer: there is nothing to prefer."""
    offered = [a for a in legal if isinstance(a, (Win, Pong, Chow, Kong))]
    if len(offered) < 2 or view.phase is Phase.TURN:
        return None
    if Win() in offered:
        return Win()
    takes = [c for c in claims if c.take]
    if not takes:
        return Pass()
    # the figures the hints already worked out: nothing is evaluated twice
    return max(takes, key=lambda c: -math.inf if c.expected is None else c.expected).action


def _claim_lines(claims: Sequence[engine.ClaimHint], view: PlayerView, can_win: bool,
                 prefer: Action | None) -> list[str]:
    if not claims:
        return []
    tile = view.window_tile
    out = [f"[b]Claim {named(tile)}?[/]" if tile is not None else "[b]Claims[/]"]
    # claims with the same reason share a line: two lines saying the same thing would
    # leave the player to guess which claim they were about
    said: dict[str, list[str]] = {}
    for c in claims:
        who = claim_label(c.action)
        if can_win:
            line = f"[b yellow]win instead[/] ({WIN_KEY}): a win scores the hand now."
        else:
            verdict = "[b green]take[/]" if c.take else "[b yellow]skip[/]"
            if prefer is not None and c.take and c.action != prefer:
                verdict = f"[b yellow]take, but {claim_label(prefer)} is better[/]"
            elif prefer is not None and c.action == prefer:
                verdict = "[b green]take: the best claim here[/]"
            why = c.sentence.split(": ", 1)[1] if ": " in c.sentence else c.sentence
            line = f"{verdict}: {tiles_markup(why)}"
        said.setdefault(line, []).append(who)
    out.extend(f"  {', '.join(who)} → {line}" for line, who in said.items())
    out.append("  S skips.")
    return out


def _own_kong_lines(view: PlayerView, legal: Sequence[Action]) -> list[str]:
    """Kongs from your own hand on your turn (the hints module leaves these to the player)."""
    if view.phase is not Phase.TURN:
        return []
    how = {"concealed": "four in hand", "added": "add to your pong"}
    return [f"K: you may kong {named(a.tile)}, {how.get(a.kind, a.kind)}; "
            "a replacement tile follows." for a in legal if isinstance(a, Kong)]


def bao_warnings(view: PlayerView, tile: Tile) -> list[str]:
    """Bao warnings for throwing ``tile`` now (shown when the player picks a tile)."""
    return [f"[b red]Bao warning:[/] {tiles_markup(w.sentence)}"
            for w in engine.bao_warnings(view) if w.tile == tile]


def win_lines(won: Won, name: Callable[[Seat], str], *,
              counts_tai: bool | None = None) -> list[str]:
    """After a win, where its tai came from (:func:`sgmahjong.agents.hints.win_hint`);
    nothing about tai under rules that count none (``counts_tai``, read from the win when
    not given: :func:`sgmahjong.render.words.tai_counted`)."""
    if counts_tai is None:
        counts_tai = tai_counted(won)
    hint = engine.win_hint(won, counts_tai=counts_tai)
    head = f"[b]{escape(name(won.seat))} won[/] on {named(won.tile)}"
    if not counts_tai:
        return [f"{head}: {escape(hint.sentence)}"]
    out = [f"{head}: [b]{tai_text(hint.tai, won.raw_tai)}[/]"]
    for (pid, tai), hit in zip(hint.items, won.patterns, strict=True):
        p = PATTERNS.get(pid)
        times = f" ×{hit.count}" if hit.count > 1 else ""
        out.append(f"  · {escape(p.english if p else pid)}{times}: {count(tai, 'tai')}")
    if not hint.items:
        out.append(f"  {tiles_markup(hint.sentence)}")
    return out
