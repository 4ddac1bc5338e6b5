"""``sgmahjong replay FILE``: a match record printed hand by hand, or checked (``--check``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .terminal import HelpFormatter, stdout_console

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import Console

    from ..record import Record, ReplayedHand

EPILOG = """\
examples:
  sgmahjong simulate --games 1 --records out/ && sgmahjong replay out/game-00001.jsonl
  sgmahjong replay out/game-00001.jsonl --check

--check re-derives every wall from the record's seed, re-runs every hand through the
engine with the recorded decisions and exits 1 at the first event that differs.
"""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "replay", help="print a match record hand by hand, or check it against the engine",
        description="Print a match record readably (deal, discards and claims, wins with "
                    "their patterns and tai, payments, final standings), or check it.",
        epilog=EPILOG, formatter_class=HelpFormatter)
    p.add_argument("file", metavar="FILE", help="a match record (JSON Lines)")
    p.add_argument("--check", action="store_true",
                   help="re-derive and replay the record; exit 1 at the first mismatch")
    from .review import add_options
    add_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..record import check_record, read_record

    record = read_record(args.file)
    if getattr(args, "review", False):
        from .review import run as review
        return review(record, args)
    if args.check:
        report = check_record(record)
        print(report)
        return 0 if report.ok else 1
    _print(record)
    return 0


def _seat_name(seat: int) -> str:
    return "ESWN"[seat]


def _print(record: Record) -> None:

    from ..record import replay_record

    console = stdout_console()
    out = console.print
    names = record.players
    quick = " (quick game)" if record.quick else ""
    out(f"[bold]Match record[/bold]{quick}: rules {record.rules.name} "
        f"({record.rules.digest()}), seed {record.seed}")
    out("Players: " + ", ".join(f"{p} {n}" for p, n in enumerate(names)))
    hands = replay_record(record)
    for hand in hands:
        _print_hand(out, record, hand)
    if not hands:
        out("(no hands)")
        return
    last = hands[-1]
    outcome = last.game.outcome()
    if outcome is None:
        out("[yellow]The record ends in the middle of a hand.[/yellow]")
        return
    from ..game.match import next_state
    final = next_state(record.rules, last.match, outcome, quick=record.quick)
    _standings(console, names, final.scores, len(hands))


def _print_hand(say: Callable[[str], None], record: Record, hand: ReplayedHand) -> None:
    from ..game import (
        BaoIncurred,
        BonusExposed,
        Claimed,
        Dealt,
        Discarded,
        HandDrawn,
        HandStarted,
        InstantPayout,
        KongDeclared,
        Settled,
        Won,
    )
    from ..rules import PATTERNS
    from ..tiles import Seat, format_tiles

    ms = hand.match

    def who(seat: int) -> str:
        return f"{_seat_name(seat)}(p{ms.player_at(Seat(seat))})"

    events = hand.game.events
    start = events[0]
    wind = _seat_name(start.round_wind) if isinstance(start, HandStarted) else "?"
    say(f"\n[bold]Hand {hand.number + 1}[/bold] · round {wind} · banker "
        f"p{ms.banker} {record.players[ms.banker]} · line {record.line_of(hand.first)}")
    plays: list[str] = []
    bonus: dict[int, list[str]] = {}
    for e in events:
        if isinstance(e, Dealt):
            say(f"  deal {who(e.seat)}: {format_tiles(e.tiles)}")
        elif isinstance(e, BonusExposed):
            bonus.setdefault(int(e.seat), []).append(e.tile.text)
        elif isinstance(e, Discarded):
            plays.append(f"{_seat_name(e.seat)}:{e.tile.text}")
        elif isinstance(e, Claimed):
            plays.append(f"[cyan]{_seat_name(e.seat)} {e.kind} {e.tile.text}[/cyan]")
        elif isinstance(e, KongDeclared):
            plays.append(f"[cyan]{_seat_name(e.seat)} {e.kind}-kong {e.tile.text}[/cyan]")
        elif isinstance(e, InstantPayout):
            plays.append(f"[magenta]{_seat_name(e.seat)} {e.reason} +{e.amount}×3[/magenta]"
                         if e.amount else f"{_seat_name(e.seat)} {e.reason}")
        elif isinstance(e, BaoIncurred):
            plays.append(f"[red]{_seat_name(e.seat)} bao ({e.case}) for "
                         f"{_seat_name(e.winner)}[/red]")
    if bonus:
        say("  bonus: " + ", ".join(f"{who(s)} {' '.join(t)}"
                                    for s, t in sorted(bonus.items())))
    if plays:
        say("  play: " + " ".join(plays))
    for e in events:
        if isinstance(e, Won):
            how = ("self-drawn" if e.discarder is None
                   else f"on {who(e.discarder)}'s {e.tile.text}")
            extra = f" [{', '.join(e.context)}]" if e.context else ""
            say(f"  [green]{who(e.seat)} {record.players[ms.player_at(e.seat)]} wins[/green] "
                f"with {e.tile.text} {how}{extra}: {e.tai} tai"
                + (f" (raw {e.raw_tai})" if e.raw_tai != e.tai else ""))
            pats = ", ".join(
                f"{PATTERNS[p.id].english if p.id in PATTERNS else p.id}"
                + (f" ×{p.count}" if p.count > 1 else "") + f" {p.tai}"
                for p in e.patterns)
            if pats:
                say(f"    patterns: {pats}")
        elif isinstance(e, Settled):
            for line in e.payments:
                payer = f"{who(line.payer)} pays" if line.payer is not None else "scores"
                say(f"    {payer} {line.amount} to {who(line.payee)} ({line.why})")
        elif isinstance(e, HandDrawn):
            say(f"  [yellow]drawn hand[/yellow] ({e.reason})")
    outcome = hand.game.outcome()
    if outcome is not None:
        by_player = [0, 0, 0, 0]
        for seat in Seat:
            by_player[ms.player_at(seat)] = outcome.deltas[seat]
        say("  points: " + ", ".join(f"p{p} {d:+d}"
                                     for p, d in enumerate(by_player)))


def _standings(console: Console, names: tuple[str, ...], scores: tuple[int, ...],
               hands: int) -> None:
    from rich.table import Table

    table = Table(title=f"Final standings after {hands} hands", title_justify="left")
    table.add_column("rank", justify="right")
    table.add_column("player")
    table.add_column("name")
    table.add_column("points", justify="right")
    order = sorted(range(4), key=lambda p: (-scores[p], p))
    for rank, p in enumerate(order, 1):
        table.add_row(str(rank), f"p{p}", names[p], f"{scores[p]:+d}")
    console.print(table)
