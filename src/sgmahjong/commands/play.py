"""``sgmahjong play``: a game of Singapore Mahjong against three AI opponents, in the terminal."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..errors import SgmahjongError
from ..render.labels import SCRIPTS
from ..rules.loading import PRESETS
from .terminal import HelpFormatter

if TYPE_CHECKING:
    from ..tui.session import PlayConfig


class PlayOptionError(SgmahjongError):
    """A bad option for ``sgmahjong play``."""


EPILOG = """\
examples:
  sgmahjong play                          the setup screen: pick a table or your own game
  sgmahjong play --quick --opponents snail,rabbit,fox
  sgmahjong play --rules garden --seed 7 --no-hints

At the table: arrow keys move along your tiles, Enter picks and Enter again throws;
W win, P pong, C chow, K kong, S skip, H hints, R the rules pages, ? all keys. T shows
the tiles in letters (5Ci for 5 Circles) when your terminal shows boxes for 萬 筒 索.
New to the game? Press L on the setup screen for a guided first hand. Every game is
saved as a match record (JSON Lines) in your data folder (set SGMAHJONG_DATA_DIR to
change it).
"""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "play", help="play against three AI opponents in the terminal",
        description="Deal a game of Singapore Mahjong against three AI opponents, with "
                    "hints and a practice ladder of three tables.",
        epilog=EPILOG, formatter_class=HelpFormatter)
    p.add_argument("--rules", default="standard", metavar="PRESET|FILE",
                   help=f"preset ({', '.join(PRESETS)}) or a .toml rule file "
                        "(default: standard)")
    p.add_argument("--quick", action="store_true", help="a quick game of 4 hands")
    p.add_argument("--opponents", metavar="A,B,C",
                   help="three opponents, e.g. snail,fox,owl (default: hedgehog,fox,owl)")
    p.add_argument("--seed", type=int, metavar="N", help="deal reproducibly from this seed")
    p.add_argument("--no-hints", action="store_true", help="start with the hints hidden")
    p.add_argument("--delay", type=float, default=0.35, metavar="SECONDS",
                   help="pause after each opponent's move (default 0.35)")
    p.add_argument("--tiles", metavar="chinese|latin",
                   help="label tiles 5筒 E東 (chinese) or 5Ci E (latin, for a terminal "
                        "without Chinese characters); default: the choice saved with T")
    p.add_argument("--claim-timer", type=float, default=0.0, metavar="SECONDS",
                   help="skip a claim offer left unanswered this long (default: no timer)")
    p.set_defaults(func=run)


HELP_HINT = "; see 'sgmahjong play --help'"
"""The end of every option error of ``play``, as argparse's own errors end."""


def config_from_args(args: argparse.Namespace) -> PlayConfig:
    """The table's PlayConfig from the options; a bad option raises PlayOptionError (one
    line, ending with where the options are explained)."""
    try:
        return _config(args)
    except SgmahjongError as exc:
        raise PlayOptionError(f"{exc}{HELP_HINT}") from None


def _config(args: argparse.Namespace) -> PlayConfig:
    from ..rules.loading import load_rules
    from ..session.players import DEFAULT_OPPONENTS
    from ..tui.session import PlayConfig, make_opponent, opponent_names

    load_rules(args.rules)  # a bad preset or rule file: its own clear error
    if args.opponents is None:
        opponents = DEFAULT_OPPONENTS
    else:
        names = [n.strip().lower() for n in args.opponents.split(",") if n.strip()]
        for n in names:
            make_opponent(n, 0)  # unknown names: one clear error listing the known ones
        if len(names) != 3:
            raise PlayOptionError(f"--opponents needs three names separated by commas, "
                                  f"got {args.opponents!r}; choose from "
                                  f"{', '.join(opponent_names())}")
        opponents = (names[0], names[1], names[2])
    if args.seed is not None and args.seed < 0:
        raise PlayOptionError("--seed must be 0 or more")
    if args.delay < 0:
        raise PlayOptionError("--delay must be 0 or more")
    if args.tiles is not None and args.tiles not in SCRIPTS:
        raise PlayOptionError(f"--tiles must be chinese or latin, not {args.tiles!r}")
    if args.claim_timer < 0:
        raise PlayOptionError("--claim-timer must be 0 (no timer) or more")
    return PlayConfig(rules=args.rules, quick=args.quick, opponents=opponents, seed=args.seed,
                      hints=not args.no_hints, ai_delay=args.delay,
                      claim_timer=args.claim_timer, tiles=args.tiles)


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        # the table is drawn with the terminal's escape codes and played with its keys:
        # into a pipe or from a file it would only write codes nobody can read
        raise PlayOptionError("play needs a terminal: run it in a terminal window, with "
                              "neither its input nor its output redirected")
    from ..tui.app import PlayApp

    PlayApp(config).run()
    return 0


__all__ = ["register", "run"]
