"""``sgmahjong shanten``: how far a hand is from ready, and which tiles help (or a batch)."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from ..analysis.shanten import shanten
from ..analysis.useful import DiscardOption, discard_table, unseen_counts, useful_tiles
from ..errors import HandError, SgmahjongError
from ..hand import Hand
from ..inputs import MAX_BATCH_LINE_BYTES, InputError, iter_lines
from ..tiles import counts34, parse_tiles
from .terminal import HelpFormatter, stdout_console

EPILOG = """\
examples:
  sgmahjong shanten "123m456p789s1122z"
  sgmahjong shanten "23m456p789s11z, pong 777z" --detail
  sgmahjong shanten "1239m456p789s1122z" --detail --seen 1z4m
  printf '123m456p789s1122z\\n19m19p19s1234567z\\n' | sgmahjong shanten --batch

Shanten counts tile changes from ready: -1 complete, 0 ready, 1 one tile away, ...
The hand holds 13 tiles between turns or 14 after a draw, each declared set counting
as three (hand notation: concealed tiles, then ", pong 777z", ", kong 2222s", ...,
", bonus 1a2f"; bonus tiles are ignored). Unseen counts leave out the hand's own tiles,
its declared sets and the --seen tiles (and, for a discard, the discarded tile).
"""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "shanten", help="shanten of a hand, useful tiles per discard, or a batch of hands",
        description="Print how many tile changes a hand is from ready (shanten), and with "
                    "--detail the useful tiles for each discard (or for the hand, between "
                    "turns) with their unseen copies. Singapore rules: no Seven Pairs; "
                    "Thirteen Wonders counts when no set is declared.",
        epilog=EPILOG, formatter_class=HelpFormatter)
    p.add_argument("hand", nargs="?", help="hand notation, 13 or 14 tiles (quote it)")
    p.add_argument("--detail", action="store_true",
                   help="list useful tiles with unseen copies, for each discard of a 14-tile "
                        "hand or for a 13-tile hand")
    p.add_argument("--seen", default="", metavar="TILES",
                   help="tiles seen elsewhere (discards, others' sets), for unseen counts")
    p.add_argument("--batch", action="store_true",
                   help="read one hand per line on stdin, write one shanten per line")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.batch:
        if args.hand or args.detail or args.seen:
            raise HandError("--batch reads the hands from stdin; it takes no hand, --detail "
                            "or --seen")
        return run_batch(sys.stdin, sys.stdout, sys.stderr)
    if not args.hand:
        raise HandError("give a hand, e.g. sgmahjong shanten \"123m456p789s1122z\" "
                        "(or --batch); see 'sgmahjong shanten --help'")
    hand = read_hand(args.hand)
    value = shanten(hand.counts, len(hand.melds))
    if not args.detail:
        print(f"{hand.text}: shanten {value} ({describe(value)})")
        return 0
    visible = visible_counts(hand, args.seen)
    unseen_counts(hand.counts, visible)  # reject impossible --seen before printing
    _print_detail(hand, value, visible)
    return 0


def read_hand(text: str) -> Hand:
    """Parse hand notation and check it holds 13 or 14 tiles (a declared set counts three)."""
    hand = Hand.parse(text)
    if hand.size not in (13, 14):
        raise HandError(f"the hand holds {hand.size} tile{'s' if hand.size != 1 else ''} "
                        "(declared sets count three each); shanten needs 13 (between turns) "
                        "or 14 (after a draw)")
    return hand


def shanten_of(text: str) -> int:
    """Shanten of a hand written in hand notation."""
    hand = read_hand(text)
    return shanten(hand.counts, len(hand.melds))


def describe(value: int) -> str:
    if value < 0:
        return "complete"
    if value == 0:
        return "ready"
    return f"{value} from ready"


def visible_counts(hand: Hand, seen: str) -> list[int]:
    """Tiles the player sees outside the concealed hand: own declared sets plus ``seen``."""
    tiles = [t for m in hand.melds for t in m.tiles]
    tiles.extend(parse_tiles(seen))
    return counts34(tiles)


def run_batch(stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """One hand per input line, one shanten per output line (empty for a bad line).

    A bad line gets an error on stderr naming its line number; the exit code is then 2.
    """
    bad = 0
    for number, line in iter_lines(stdin, MAX_BATCH_LINE_BYTES, "stdin"):
        try:
            if isinstance(line, InputError):
                raise line
            text = line.strip()
            if not text:
                raise HandError("empty line")
            value = shanten_of(text)
        except InputError as exc:   # names the line itself
            bad += 1
            stdout.write("\n")
            stderr.write(f"sgmahjong shanten: {exc}\n")
            continue
        except SgmahjongError as exc:
            bad += 1
            stdout.write("\n")
            stderr.write(f"sgmahjong shanten: line {number}: {exc}\n")
            continue
        stdout.write(f"{value}\n")
    if bad:
        stderr.write(f"sgmahjong shanten: {bad} bad line{'s' if bad != 1 else ''}\n")
        return 2
    return 0


def _tiles_text(useful: dict) -> str:
    return " ".join(f"{t.text}×{n}" for t, n in useful.items()) or "-"


def _print_detail(hand: Hand, value: int, visible: list[int]) -> None:
    from rich.table import Table

    console = stdout_console()
    melds = len(hand.melds)
    console.print(f"[bold]{hand.text}[/bold]: shanten {value} ({describe(value)})")
    if hand.size == 13:
        useful = useful_tiles(hand.counts, melds, visible)
        label = "waits" if value == 0 else "useful tiles"
        total = sum(useful.values())
        console.print(f"{label}: {_tiles_text(useful)}  ({total} unseen)")
        return
    options: list[DiscardOption] = discard_table(hand.counts, melds, visible)
    table = Table(show_header=True, header_style="bold")
    table.add_column("discard")
    table.add_column("shanten", justify="right")
    table.add_column("useful tiles (unseen copies)")
    table.add_column("unseen", justify="right")
    for o in options:
        style = "green" if o.shanten == options[0].shanten else None
        table.add_row(o.discard.text, str(o.shanten), _tiles_text(o.useful), str(o.unseen),
                      style=style)
    console.print(table)


__all__ = ["register", "run", "run_batch", "shanten_of"]
