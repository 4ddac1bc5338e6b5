"""``sgmahjong rate``: a player's strength against the ladder, duplicate-dealt on fixed walls."""

from __future__ import annotations

import argparse
import json

from ..rules.loading import PRESETS
from .progress import progress_bar
from .terminal import HelpFormatter

EPILOG = """\
examples:
  sgmahjong rate --players model:examples/policy.npz
  sgmahjong rate --bot "python examples/bot.py" --procs 2
  sgmahjong rate --players owl --rules garden --walls 50 --json
  sgmahjong rate --players fox --ladder snail,greedy,rabbit,hedgehog --walls 20
  sgmahjong rate --players model:policy.npz --ray auto     # on a Ray cluster

The players rated join the ladder (snail, greedy, rabbit, hedgehog, fox, owl). Every
table of four of them plays each wall four times, the players rotated through the seats,
so all are compared on the same deals. Intervals are 95%, clustered by wall; the
differences are paired wall by wall. The default walls (200 from seed 2024) are the same
in every run, so figures quoted from different places compare; the same run with
python bench/bench_strength.py and the same --players order gives the same numbers.
"""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from ..rating import DEFAULT_SEED, DEFAULT_WALLS, LADDER

    p = sub.add_parser(
        "rate", help="rate a player (level, saved policy or bot) against the ladder",
        description="Rate players against the ladder's levels: a duplicate-dealt round robin "
                    "on a fixed set of walls, with points per hand and their 95% intervals "
                    "clustered by wall, win and deal-in rates, the paired difference with "
                    "each level, and where each player stands on the ladder.",
        epilog=EPILOG, formatter_class=HelpFormatter)
    p.add_argument("--players", default="", metavar="A[,B...]",
                   help="the players to rate, comma-separated: a registered name (random, "
                        "greedy, snail, rabbit, hedgehog, fox, owl), model:PATH for a policy "
                        "saved by examples/train.py, or cmd:COMMAND for a bot program")
    p.add_argument("--bot", action="append", default=[], metavar="CMD",
                   help="a bot program to rate, speaking the bot protocol "
                        "(docs/protocol.md) on stdin and stdout, e.g. "
                        "\"python examples/bot.py\" (may be given more than once)")
    p.add_argument("--rules", default="standard", metavar="PRESET|FILE",
                   help=f"preset ({', '.join(PRESETS)}) or a .toml rule file "
                        "(default: standard)")
    p.add_argument("--walls", type=int, default=DEFAULT_WALLS, metavar="N",
                   help=f"walls to play (default {DEFAULT_WALLS}: keep it to compare with "
                        "figures quoted elsewhere)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED,
                   help=f"seed of the walls (default {DEFAULT_SEED})")
    p.add_argument("--ladder", default=",".join(LADDER), metavar="A,B,...",
                   help=f"the levels to rate against (default {','.join(LADDER)})")
    p.add_argument("--procs", type=int, default=1, metavar="N",
                   help="worker processes (default 1)")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="play the walls on a Ray cluster: ADDRESS as ray.init takes it "
                        "('auto', 'HOST:6379'); none starts a local cluster (of --procs "
                        "CPUs if given, else all). Needs Ray: pip install \"sgmahjong[ray]\"")
    p.add_argument("--json", action="store_true",
                   help="print the rating as one JSON object (no progress bar), with "
                        "every player's points per hand on each wall")
    p.set_defaults(func=run)


def names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def run(args: argparse.Namespace) -> int:
    from ..rating import RateError
    from ..rating.play import CMD_PREFIX, rate
    from ..rating.stats import text

    rated = names(args.players) + [f"{CMD_PREFIX}{cmd}" for cmd in args.bot]
    if not rated:
        raise RateError("name a player to rate: --players NAME (a level, model:PATH) or "
                        "--bot CMD")
    with progress_bar("walls", args.walls, quiet=args.json) as progress:
        result = rate(rated, rules=args.rules, ladder=names(args.ladder), walls=args.walls,
                      seed=args.seed, procs=args.procs, ray=args.ray, progress=progress)
    if args.json:
        from ..fast import engine
        print(json.dumps({**result.to_json(), "engine": engine()}, ensure_ascii=False))
    else:
        print(text(result))
    return 0
