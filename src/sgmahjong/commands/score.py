"""``sgmahjong score``: the hand calculator for a real table (readable or JSON)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import SgmahjongError
from ..inputs import MAX_REQUEST_BYTES, parse_json, read_stream
from ..rules.loading import PRESETS
from ..scoring.request import RequestError, ScoredWin, answer, score_win
from ..tiles import Seat
from .terminal import HelpFormatter, stdout_console

EPILOG = """\
examples:
  sgmahjong score "123m456p789s777z1m" --win 1m --discarder N --seat S
  sgmahjong score "1m234p567s789s" --meld "pong 777z" --bonus 1a --win 1m --self-drawn
  echo '{"concealed": "123m456p789s777z1m", "win_tile": "1m", "seat": "S",
         "discarder": "N"}' | sgmahjong score --json

The hand is the concealed tiles without the winning tile. Tiles: 1m-9m Characters,
1p-9p Circles, 1s-9s Bamboo, 1z-7z East South West North White Green Red (or E S W N
Wh G R), 1f-4f flowers, 1g-4g seasons, 1a-4a Cat Mouse Rooster Centipede.
"""


# What the command line calls each request field, so errors name the option typed.
OPTION_LABELS = {"concealed": "the hand", "win_tile": "--win", "melds": "--meld",
                 "bonus": "--bonus", "seat": "--seat", "round": "--round",
                 "discarder": "--discarder", "self_drawn": "--self-drawn",
                 "events": "--event"}


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "score", help="score a winning hand: tai, patterns and payments",
        description="Score a winning hand under a preset or a rule file: each pattern with "
                    "its tai, the raw and capped total, and who pays what.",
        epilog=EPILOG, formatter_class=HelpFormatter)
    p.add_argument("hand", nargs="?", help="concealed tiles without the winning tile")
    p.add_argument("--rules", default="standard", metavar="PRESET|FILE",
                   help=f"preset ({', '.join(PRESETS)}) or a .toml rule file "
                        "(default: standard)")
    p.add_argument("--json", action="store_true",
                   help="read one JSON request on stdin, print one JSON answer")
    p.add_argument("--win", metavar="TILE", help="the winning tile")
    p.add_argument("--meld", action="append", default=[], metavar="MELD",
                   help='a declared set, e.g. "pong 777z", "chow 234s", "kong 2222s", '
                        '"concealed-kong 1111m" (repeatable)')
    p.add_argument("--bonus", default="", metavar="TILES", help="exposed bonus tiles, e.g. 1a2f")
    p.add_argument("--seat", default="E", help="the winner's seat: E S W N (default E)")
    p.add_argument("--round", default="E", help="the round wind: E S W N (default E)")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--discarder", metavar="SEAT", help="the seat that discarded the tile")
    who.add_argument("--self-drawn", action="store_true",
                     help="the winning tile was self-drawn (the default without --discarder)")
    p.add_argument("--event", action="append", default=[], metavar="EVENT",
                   choices=["replacement", "last-tile", "robbing-kong", "robbing-eighth",
                            "heavenly", "earthly"],
                   help="a circumstance of the win: replacement, last-tile, robbing-kong, "
                        "robbing-eighth, heavenly, earthly (repeatable)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.json:
        if args.hand or args.win:
            raise RequestError("with --json the hand is read from stdin, not the command line")
        text = read_stream(sys.stdin, MAX_REQUEST_BYTES, "stdin")
        request = parse_json(text, "stdin")
        scored = score_win(request, args.rules)
        print(json.dumps(answer(scored), ensure_ascii=False))
        return 0
    if not args.hand or not args.win:
        raise RequestError("give the concealed tiles and --win TILE (or use --json); "
                           "see 'sgmahjong score --help'")
    request: dict[str, Any] = {
        "concealed": args.hand, "win_tile": args.win, "melds": args.meld,
        "bonus": args.bonus, "seat": args.seat, "round": args.round,
        "discarder": args.discarder, "self_drawn": args.discarder is None,
        "events": args.event,
    }
    scored = score_win(request, args.rules, OPTION_LABELS)
    _print(scored)
    return 0


def _print(scored: ScoredWin) -> None:
    from rich.table import Table

    console = stdout_console()
    r, ctx, hand = scored.result, scored.ctx, scored.hand
    how = "self-drawn" if ctx.self_drawn else f"on {ctx.discarder.letter}'s discard"  # type: ignore[union-attr]
    shown = hand if ctx.win_tile.is_bonus else hand.without_tile(ctx.win_tile)
    console.print(f"[bold]{shown.text}[/bold] + [bold]{ctx.win_tile.text}[/bold] "
                  f"({ctx.win_tile.english}, {how})")
    console.print(f"Seat {ctx.seat.letter}, round {ctx.round_wind.letter}, "
                  f"rules: {scored.rules.name}")
    if r.items:
        table = Table(show_header=True, header_style="bold")
        table.add_column("pattern")
        table.add_column("", style="dim")
        table.add_column("tai", justify="right")
        for item in r.items:
            label = item.name + (f" ×{item.count}" if item.count > 1 else "")
            table.add_row(label, item.chinese, "limit" if item.limit else str(item.tai))
        console.print(table)
    cap = scored.rules.scoring.tai_cap
    capped = f" (paid as {r.tai}, the cap is {cap})" if r.raw_tai > r.tai else ""
    if scored.rules.scoring.counts_tai:
        console.print(f"Total: [bold]{r.raw_tai} tai[/bold]{capped}")
    if not r.winning:
        console.print(f"[red]Not a win:[/red] {r.reason}")
        return
    console.print("[green]Winning hand.[/green]")
    deltas = scored.settlement.deltas
    for line in scored.settlement.lines:
        payer = f"{line.payer.letter} pays" if line.payer is not None else "scores"
        console.print(f"  {payer} {line.amount}  ({line.why})")
    console.print("Payments: " + ", ".join(f"{s.letter} {deltas[s]:+d}" for s in Seat))


__all__ = ["SgmahjongError", "register", "run"]
