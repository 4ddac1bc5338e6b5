"""``sgmahjong ledger``: the evening's ledger in a local file, for a laptop at the table.

The same ledger as the web server's (:mod:`sgmahjong.ledger`), kept as a JSON file.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..errors import SgmahjongError
from ..inputs import MAX_LEDGER_BYTES, InputError, parse_json, read_file
from ..ledger import INSTANT_REASONS, Ledger, LedgerError
from ..rules.loading import PRESETS
from .terminal import HelpFormatter

EPILOG = """\
examples:
  sgmahjong ledger new tonight.json --names Ann,Bob,Cy,Dee --rules standard --stake 0.10
  sgmahjong ledger add tonight.json win Ann 3 --from Bob
  sgmahjong ledger add tonight.json win Cy 2 --self-drawn --instant Cy:cat-mouse
  sgmahjong ledger add tonight.json win Dee --from Ann --hand 77z123m99p --win 7z \\
      --meld "pong 555z" --meld "pong 666z"
  sgmahjong ledger add tonight.json drawn --kong
  sgmahjong ledger edit tonight.json 2 win Bob 4 --from Cy
  sgmahjong ledger delete tonight.json 5
  sgmahjong ledger show tonight.json
  sgmahjong ledger settle tonight.json

Players are named by name (or 0-3, East of the first hand first). A win is by tai, or the
full hand (--hand, --win, --meld, --bonus, --event) scored under the ledger's rules at the
seat the ledger knows. --instant PLAYER:REASON adds an instant payout; reasons:
""" + ", ".join(INSTANT_REASONS) + " (add :dealt for a pair exposed in the deal)."


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("ledger", help="keep the evening's ledger for a real table in a file",
                       description="The evening's ledger: hands in, running totals, who deals "
                                   "next, the round wind, and the settle-up.",
                       epilog=EPILOG, formatter_class=HelpFormatter)
    acts = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    n = acts.add_parser("new", help="start a ledger file")
    n.add_argument("file", type=Path)
    n.add_argument("--names", required=True, help="four names, East's first: Ann,Bob,Cy,Dee")
    n.add_argument("--rules", default="standard", metavar="PRESET|FILE",
                   help=f"preset ({', '.join(PRESETS)}) or a .toml rule file")
    n.add_argument("--stake", help="money per point (optional)")
    n.add_argument("--force", action="store_true", help="replace an existing file")
    n.set_defaults(func=run_new)

    for name, helptext in (("add", "add a hand"), ("edit", "change hand N")):
        a = acts.add_parser(name, help=helptext)
        a.add_argument("file", type=Path)
        if name == "edit":
            a.add_argument("number", type=int, help="the hand's number (1 is the first)")
        a.add_argument("kind", choices=["win", "drawn"])
        a.add_argument("winner", nargs="?", help="who won (win)")
        a.add_argument("tai", nargs="?", type=int, help="the tai (or give --hand)")
        who = a.add_mutually_exclusive_group()
        who.add_argument("--from", dest="frm", metavar="PLAYER", help="who discarded")
        who.add_argument("--self-drawn", action="store_true", help="the win was self-drawn")
        a.add_argument("--liable", metavar="PLAYER", help="who pays for the table under Bao")
        a.add_argument("--thirteen-wonders", action="store_true",
                       help="Thirteen Wonders (paid at the self-drawn rate where the rules say)")
        a.add_argument("--kong", action="store_true", help="a kong was declared (drawn hand)")
        a.add_argument("--instant", action="append", default=[], metavar="PLAYER:REASON",
                       help="an instant payout (repeatable)")
        a.add_argument("--hand", metavar="TILES", help="the concealed tiles without the "
                                                       "winning tile")
        a.add_argument("--win", metavar="TILE", help="the winning tile (with --hand)")
        a.add_argument("--meld", action="append", default=[], metavar="MELD",
                       help='a declared set, e.g. "pong 777z" (repeatable)')
        a.add_argument("--bonus", default="", metavar="TILES", help="bonus tiles, e.g. 1a2f")
        a.add_argument("--event", action="append", default=[], metavar="EVENT",
                       help="last-tile, replacement, robbing-kong ... (repeatable)")
        a.set_defaults(func=run_add if name == "add" else run_edit)

    d = acts.add_parser("delete", help="remove hand N")
    d.add_argument("file", type=Path)
    d.add_argument("number", type=int)
    d.set_defaults(func=run_delete)

    for name, helptext, fn in (("show", "the hands, totals and who deals next", run_show),
                               ("settle", "the standings and who pays whom", run_settle)):
        s = acts.add_parser(name, help=helptext)
        s.add_argument("file", type=Path)
        s.add_argument("--json", action="store_true", help="print JSON")
        s.set_defaults(func=fn)


# ---------------------------------------------------------------- file

def load(path: Path) -> Ledger:
    if not path.exists():
        raise LedgerError(f"no ledger file {str(path)!r}: start one with "
                          "'sgmahjong ledger new'")
    try:
        text = read_file(path, MAX_LEDGER_BYTES, f"ledger file {str(path)!r}")
        data = parse_json(text, f"ledger file {str(path)!r}")
    except InputError as exc:
        raise LedgerError(str(exc)) from None
    return Ledger.from_dict(data)


def save(path: Path, led: Ledger) -> None:
    """Write the whole file at once, so a crash never leaves half a ledger."""
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=".ledger-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(led.dumps() + "\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# ---------------------------------------------------------------- actions

def run_new(args: argparse.Namespace) -> int:
    if args.file.exists() and not args.force:
        raise LedgerError(f"{args.file} exists already: choose another name or add --force")
    names = [n.strip() for n in args.names.split(",")]
    led = Ledger.new(names, args.rules, args.stake)
    save(args.file, led)
    print(f"New ledger {args.file}: {', '.join(led.names)}; {led.rules.name} rules"
          + (f", {led.stake} a point" if led.stake is not None else "") + ".")
    _next(led)
    return 0


def entry(args: argparse.Namespace) -> dict[str, Any]:
    """The hand entry the command line describes."""
    out: dict[str, Any] = {"type": args.kind}
    if args.kind == "win":
        if args.winner is None:
            raise LedgerError("say who won: 'win NAME TAI --from NAME' (or --self-drawn)")
        if args.frm is None and not args.self_drawn:
            raise LedgerError("say who discarded the winning tile (--from NAME) or "
                              "--self-drawn")
        out.update(winner=args.winner, **{"from": args.frm})
        if args.hand is not None or args.win is not None:
            if args.tai is not None:
                raise LedgerError("give the tai or the full hand (--hand, --win), not both")
            if args.hand is None or args.win is None:
                raise LedgerError("a full hand needs --hand TILES and --win TILE")
            out["hand"] = {"concealed": args.hand, "win_tile": args.win, "melds": args.meld,
                           "bonus": args.bonus, "events": args.event}
        elif args.tai is None:
            raise LedgerError("give the tai ('win NAME TAI') or the full hand (--hand, --win)")
        else:
            out["tai"] = args.tai
        if args.liable is not None:
            out["liable"] = args.liable
        if args.thirteen_wonders:
            out["thirteen_wonders"] = True
    else:
        extra = [f for f, v in (("a winner", args.winner), ("--from", args.frm),
                                ("--liable", args.liable), ("--hand", args.hand))
                 if v is not None]
        if extra or args.self_drawn:
            raise LedgerError(f"a drawn hand has no {(extra or ['--self-drawn'])[0]}")
        if args.kong:
            out["kong"] = True
    instant = []
    for item in args.instant:
        parts = item.split(":")
        if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] != "dealt"):
            raise LedgerError(f"--instant {item!r}: expected PLAYER:REASON or "
                              "PLAYER:REASON:dealt")
        p: dict[str, Any] = {"player": parts[0], "reason": parts[1]}
        if len(parts) == 3:
            p["dealt"] = True
        instant.append(p)
    if instant:
        out["instant"] = instant
    return out


def _number(led: Ledger, number: int) -> int:
    if not 1 <= number <= len(led.hands):
        raise LedgerError(f"there is no hand {number}: the ledger has "
                          + (f"hands 1-{len(led.hands)}" if led.hands else "no hands yet"))
    return number - 1


def run_add(args: argparse.Namespace) -> int:
    led = load(args.file).add(entry(args))
    save(args.file, led)
    _report(led, len(led.hands) - 1)
    return 0


def run_edit(args: argparse.Namespace) -> int:
    led = load(args.file)
    i = _number(led, args.number)
    led = led.edit(i, entry(args))
    save(args.file, led)
    _report(led, i)
    return 0


def run_delete(args: argparse.Namespace) -> int:
    led = load(args.file)
    i = _number(led, args.number)
    led = led.delete(i)
    save(args.file, led)
    print(f"Hand {args.number} deleted.")
    _totals(led)
    _next(led)
    return 0


def run_show(args: argparse.Namespace) -> int:
    led = load(args.file)
    if args.json:
        print(json.dumps(led.summary(), ensure_ascii=False))
        return 0
    print(f"{', '.join(led.names)} · {led.rules.name} rules"
          + (f" · {led.stake} a point" if led.stake is not None else ""))
    width = max(len(n) for n in led.names)
    for r in led.results():
        print(f"{r.number:>3}. {r.text}  [{led.names[r.dealer]} dealt, "
              f"{r.round_wind.name.title()} round]")
        print("     " + "  ".join(f"{n:>{width}} {d:+d}" for n, d in
                                  zip(led.names, r.deltas, strict=True)))
    if not led.hands:
        print("No hands yet.")
    _totals(led)
    _next(led)
    return 0


def run_settle(args: argparse.Namespace) -> int:
    led = load(args.file)
    s = led.summary()
    if args.json:
        print(json.dumps({"standings": s["standings"], "settle": s["settle"]},
                         ensure_ascii=False))
        return 0
    print("Standings:")
    for st in s["standings"]:
        money = f" ({led.money(st['points'])})" if led.stake is not None else ""
        print(f"  {st['place']}. {st['name']} {st['points']:+d}{money}")
    if not s["pays"]:
        print("Nobody pays at this table: the points are each player's score.")
    else:
        print("To settle up:" if s["settle"] else "Nobody owes anybody.")
    for t in s["settle"]:
        print(f"  {t['text']}" + (f" ({t['money']})" if t["money"] is not None else ""))
    return 0


def _report(led: Ledger, i: int) -> None:
    r = led.results()[i]
    print(f"Hand {r.number}: {r.text}  [{led.names[r.dealer]} dealt, "
          f"{r.round_wind.name.title()} round]")
    for line in r.lines:
        print(f"  {line}")
    _totals(led)
    _next(led)


def _totals(led: Ledger) -> None:
    print("Totals: " + ", ".join(f"{n} {t:+d}" for n, t in
                                 zip(led.names, led.totals(), strict=True)))


def _next(led: Ledger) -> None:
    n = led.next_hand()
    print(f"Next: hand {n['number']}, {n['dealer_name']} deals, {n['round_wind']} round"
          + (" (the full match is over)" if n["match_over"] else ""))


__all__ = ["SgmahjongError", "register"]
