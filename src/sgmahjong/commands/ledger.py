"""``sgmahjong ledger``: the evening's ledger, for a laptop at the table.

The same ledger as the web server's (:mod:`sgmahjong.ledger`), kept as a JSON file, or
with ``--db`` in the server's database, where the phones at the table follow it by link.
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
  sgmahjong ledger add tonight.json win Bob --from Cy --thirteen-wonders
  sgmahjong ledger add tonight.json drawn --kong
  sgmahjong ledger edit tonight.json 2 win Bob 4 --from Cy
  sgmahjong ledger delete tonight.json 5
  sgmahjong ledger show tonight.json
  sgmahjong ledger settle tonight.json

  sgmahjong ledger new --db --names Ann,Bob,Cy,Dee      (in the server's database)
  sgmahjong ledger add EDIT-TOKEN --db win Ann 3 --from Bob

Players are named by name (or 0-3, East of the first hand first). A win is by tai, or the
full hand (--hand, --win, --meld, --bonus, --event) scored under the ledger's rules at the
seat the ledger knows. With --db [URL] the ledger lives in the web server's database
(the one 'sgmahjong serve' uses: $SGMAHJONG_DATABASE_URL, else the local SQLite file) and
is named by its edit token or link (its view token or link for show and settle); the
server's /ledger/TOKEN page shows it live. --instant PLAYER:REASON adds an instant payout; reasons:
""" + ", ".join(INSTANT_REASONS) + (" (add :dealt for a pair exposed in the deal; only those "
                                    "the rules pay: under standard a concealed kong pays "
                                    "nothing, so give a drawn hand --kong instead).")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("ledger", help="keep the evening's ledger for a real table",
                       description="The evening's ledger: hands in, running totals, who deals "
                                   "next, the round wind, and the settle-up.",
                       epilog=EPILOG, formatter_class=HelpFormatter)
    acts = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    n = acts.add_parser("new", help="start a ledger (a file, or in the database with --db)")
    n.add_argument("file", nargs="?", metavar="FILE", help="the ledger file to start")
    _db_option(n)
    n.add_argument("--names", required=True, help="four names, East's first: Ann,Bob,Cy,Dee")
    n.add_argument("--rules", default="standard", metavar="PRESET|FILE",
                   help=f"preset ({', '.join(PRESETS)}) or a .toml rule file")
    n.add_argument("--stake", help="money per point in whole cents, e.g. 0.10 (optional)")
    n.add_argument("--force", action="store_true", help="replace an existing file")
    n.set_defaults(func=run_new)

    for name, helptext in (("add", "add a hand"), ("edit", "change hand N")):
        a = acts.add_parser(name, help=helptext)
        _ledger_argument(a)
        if name == "edit":
            a.add_argument("number", type=int, help="the hand's number (1 is the first)")
        a.add_argument("kind", choices=["win", "drawn"])
        a.add_argument("winner", nargs="?", help="who won (win)")
        a.add_argument("tai", nargs="?", type=int,
                       help="the tai (or give --hand; for --thirteen-wonders the rules' value)")
        who = a.add_mutually_exclusive_group()
        who.add_argument("--from", dest="frm", metavar="PLAYER", help="who discarded")
        who.add_argument("--self-drawn", action="store_true", help="the win was self-drawn")
        a.add_argument("--liable", metavar="PLAYER", help="who pays for the table under Bao")
        a.add_argument("--thirteen-wonders", action="store_true",
                       help="Thirteen Wonders (its tai from the rules; paid at the "
                            "self-drawn rate where the rules say)")
        a.add_argument("--kong", action="store_true", help="a kong was declared (drawn hand)")
        a.add_argument("--instant", action="append", default=[], metavar="PLAYER:REASON",
                       help="an instant payout the rules pay (repeatable)")
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
    _ledger_argument(d)
    d.add_argument("number", type=int)
    d.set_defaults(func=run_delete)

    for name, helptext, fn in (("show", "the hands, totals and who deals next", run_show),
                               ("settle", "the standings and who pays whom", run_settle)):
        s = acts.add_parser(name, help=helptext)
        _ledger_argument(s)
        s.add_argument("--json", action="store_true", help="print JSON")
        s.set_defaults(func=fn)


def _db_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", nargs="?", const="", default=None, metavar="URL",
                   help="keep the ledger in the web server's database (default: "
                        "$SGMAHJONG_DATABASE_URL, else the local SQLite file)")


def _ledger_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="LEDGER",
                   help="the ledger file, or with --db its token or link")
    _db_option(p)


# ---------------------------------------------------------------- where it is kept

class LedgerFile:
    """A ledger kept in a JSON file."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)

    def load(self) -> Ledger:
        return load(self.path)

    def save(self, led: Ledger) -> None:
        save(self.path, led)


class LedgerRow:
    """A ledger in the web server's database, named by its edit or view token."""

    def __init__(self, url: str, token: str) -> None:
        from ..store.db import TableStore
        from ..store.ledgers import LedgerStore

        self.store = TableStore(url or None)
        self.rows = LedgerStore(self.store)
        self.token = token_of(token)

    def load(self) -> Ledger:
        stored = self.rows.load(self.token)
        if stored is None:
            raise LedgerError(f"no ledger in {_shown(self.store.url)} has the token "
                              f"{self.token[:70]!r}")
        self.stored = stored      # the revision a save writes over
        return Ledger.from_dict(stored.data)

    def save(self, led: Ledger) -> None:
        from ..store.ledgers import LedgerConflict

        if not self.stored.can_edit:
            raise LedgerError("this is the ledger's view token: it cannot change the "
                              "ledger (use the edit token)")
        try:
            self.rows.save(self.stored.id, self.stored.revision, led.to_dict())
        except LedgerConflict as exc:
            raise LedgerError(str(exc)) from None


def token_of(text: str) -> str:
    """The token in a ledger link (``http://host:8000/ledger/TOKEN``) or the token itself."""
    text = text.strip().rstrip("/")
    return text.rsplit("/", 1)[-1] if "/ledger/" in text else text


def _shown(url: str) -> str:
    from ..store.db import database_url

    return database_url(url).render_as_string(hide_password=True)


def _open(args: argparse.Namespace) -> LedgerFile | LedgerRow:
    if args.db is not None:
        return LedgerRow(args.db, args.file)
    return LedgerFile(args.file)


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
    if args.db is None and args.file is None:
        raise LedgerError("name the ledger file to start (or add --db to keep it in the "
                          "server's database)")
    if args.db is not None and args.file is not None:
        raise LedgerError("a ledger in the database (--db) is named by the token it gets: "
                          f"leave out {args.file!r}")
    if args.file is not None and Path(args.file).exists() and not args.force:
        raise LedgerError(f"{args.file} exists already: choose another name or add --force")
    names = [n.strip() for n in args.names.split(",")]
    led = Ledger.new(names, args.rules, args.stake)
    about = (f"{', '.join(led.names)}; {led.rules.name} rules"
             + (f", {led.stake_text} a point" if led.stake is not None else "") + ".")
    if args.db is not None:
        from ..store.db import TableStore
        from ..store.ledgers import LedgerStore

        store = TableStore(args.db or None)
        view, edit = LedgerStore(store).create(led.to_dict())
        print(f"New ledger in {_shown(store.url)}: {about}")
        print(f"Edit token: {edit}  (changes it; the server shows it at /ledger/{edit})")
        print(f"View token: {view}  (for the others: /ledger/{view})")
        _next(led)
        return 0
    path = Path(args.file)
    save(path, led)
    print(f"New ledger {path}: {about}")
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
        elif args.tai is not None:
            out["tai"] = args.tai
        elif not args.thirteen_wonders:    # Thirteen Wonders: the rules give its tai
            raise LedgerError("give the tai ('win NAME TAI') or the full hand (--hand, --win)")
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
    place = _open(args)
    led = place.load().add(entry(args))
    place.save(led)
    _report(led, len(led.hands) - 1)
    return 0


def run_edit(args: argparse.Namespace) -> int:
    place = _open(args)
    led = place.load()
    i = _number(led, args.number)
    led = led.edit(i, entry(args))
    place.save(led)
    _report(led, i)
    return 0


def run_delete(args: argparse.Namespace) -> int:
    place = _open(args)
    led = place.load()
    i = _number(led, args.number)
    led = led.delete(i)
    place.save(led)
    print(f"Hand {args.number} deleted.")
    _totals(led)
    _next(led)
    return 0


def run_show(args: argparse.Namespace) -> int:
    led = _open(args).load()
    if args.json:
        print(json.dumps(led.summary(), ensure_ascii=False))
        return 0
    print(f"{', '.join(led.names)} · {led.rules.name} rules"
          + (f" · {led.stake_text} a point" if led.stake is not None else ""))
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
    led = _open(args).load()
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
