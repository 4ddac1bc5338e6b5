"""The review on the end-of-hand and end-of-match dialogs (Rich markup lines).

The review itself, "what could you have done better?", is worked out by
:mod:`sgmahjong.agents.review` from the hand's events and the player's own view at each
decision; it takes a fraction of a second per hand, so the table runs it in a worker thread
and the dialog shows it when it is ready. This module only lays it out: each explained
decision with its tiles drawn (yours, then Owl's), each deal-in with the tile dealt.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.markup import escape

from ..agents.review import Review
from ..render.text import markup
from ..session.reviews import hand_review, match_review
from ..tiles import Tile
from .hints import tiles_markup

__all__ = ["HEAD", "MATCH_HEAD", "WORKING", "match_review_lines", "review_lines"]

HEAD = "[b]What could you have done better?[/]"
MATCH_HEAD = "[b]Your play this match, against Owl[/]"
WORKING = "[dim]Owl is looking over your decisions…[/]"


def _drawn(tiles: Sequence[Tile]) -> str:
    """``"2筒 → 4索"``: your tile, then Owl's (one tile: the tile the decision was about)."""
    return " → ".join(markup(t) for t in tiles)


def review_lines(review: Review | None, failed: str | None = None) -> list[str]:
    """The review block of the end-of-hand dialog: ``None`` while it is worked out,
    ``failed`` (the reason) when it could not be."""
    out = [HEAD]
    if failed is not None:
        return [*out, f"[dim]No review this time ({escape(failed)}).[/]"]
    if review is None:
        return [*out, WORKING]
    shown = hand_review(review)
    if shown.head is not None:
        out.append(f"  {tiles_markup(shown.head)}")
    for i, d in enumerate(shown.shown, start=1):
        out.append(f"  {i}. {_drawn(d.tiles)}  {tiles_markup(d.sentence)}")
    for d in shown.deal_ins:
        out.append(f"  [red]✗[/] {markup(d.tile)}  {tiles_markup(d.sentence)}")
    if shown.tally:
        out.append(f"  [dim]{escape(shown.tally)}[/]")
    return out


def match_review_lines(reviews: Mapping[int, Review], hands: int) -> list[str]:
    """The match's review for the final dialog, once the review of each of the ``hands``
    hands is in (until then, a line saying it is being worked out)."""
    out = [MATCH_HEAD]
    if any(n not in reviews for n in range(hands)):
        return [*out, WORKING]
    summary = match_review({n: reviews[n] for n in range(hands)})
    return out + [f"  {tiles_markup(x)}" for x in summary.lines]
