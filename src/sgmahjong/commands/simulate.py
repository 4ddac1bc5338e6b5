"""``sgmahjong simulate``: headless full matches between registered players, summarised."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from ..rules.loading import PRESETS
from .progress import progress_bar
from .terminal import HelpFormatter, stdout_console

if TYPE_CHECKING:
    from ..simulate import Summary

EPILOG = """\
examples:
  sgmahjong simulate --games 100 --workers 4
  sgmahjong simulate --rules garden --quick --players random,greedy,greedy,greedy --json
  sgmahjong simulate --games 5 --records out/      # one match record per game
  sgmahjong simulate --games 10000 --ray           # on a local Ray cluster
  sgmahjong simulate --games 10000 --ray auto      # on the Ray cluster this node is in

Statistics are per match player (0-3, in --players order), not per seat wind: the banker,
and with it every seat wind, rotates during a match. Game i is seeded from --seed and i
with the project's PRNG, so the results are the same for any --workers, and with --ray.
--ray needs Ray (pip install "sgmahjong[ray]") on this machine and every node.
"""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "simulate", help="play full matches between computer players and summarise them",
        description="Play full matches headless under a rule set and summarise the points, "
                    "wins and scoring patterns of each player.",
        epilog=EPILOG, formatter_class=HelpFormatter)
    p.add_argument("--games", type=int, default=10, metavar="N",
                   help="number of full matches (default 10)")
    p.add_argument("--rules", default="standard", metavar="PRESET|FILE",
                   help=f"preset ({', '.join(PRESETS)}) or a .toml rule file "
                        "(default: standard)")
    p.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    p.add_argument("--players", default="greedy,greedy,greedy,greedy", metavar="A,B,C,D",
                   help="four player names, comma-separated, for match players 0-3 "
                        "from the registry (random, greedy, snail, rabbit, hedgehog, fox, owl; "
                        "default greedy for all; an unknown name lists the known ones), or "
                        "cmd:COMMAND for an outside bot program (docs/protocol.md), or "
                        "model:PATH for a policy saved by examples/train.py (docs/env.md)")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="worker processes (default 1)")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="play the games on a Ray cluster: ADDRESS as ray.init takes it "
                        "('auto', 'HOST:6379', 'ray://HOST:10001'); none starts a local "
                        "cluster (of --workers CPUs if given, else all)")
    p.add_argument("--records", metavar="DIR",
                   help="write one match record (JSON Lines) per game into DIR")
    p.add_argument("--quick", action="store_true",
                   help="quick games, where the rules have them (e.g. garden: 4 hands)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON summary on stdout (no progress bar)")
    p.set_defaults(func=run)


def parse_players(text: str) -> list[str]:
    """Four registry names from ``"a,b,c,d"`` (one name means all four)."""
    from ..simulate import SimulateError, check_player

    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) == 1:
        names *= 4
    for n in names:
        check_player(n)             # UnknownAgent lists the known names
    if len(names) != 4:
        raise SimulateError(f"--players needs four names (or one for all), got {len(names)}")
    return names


def run(args: argparse.Namespace) -> int:
    from ..simulate import SimulateError, simulate

    players = parse_players(args.players)
    if args.games < 0:
        raise SimulateError("--games cannot be negative")
    if args.workers < 1:
        raise SimulateError("--workers must be at least 1")
    with progress_bar("games", args.games, quiet=args.json) as progress:
        if args.ray is not None:
            from ..cluster import simulate_on_ray

            summary = simulate_on_ray(args.rules, players, games=args.games, seed=args.seed,
                                      quick=args.quick, records=args.records,
                                      address=args.ray or None,
                                      cpus=args.workers if args.workers > 1 else None,
                                      progress=progress)
        else:
            summary = simulate(args.rules, players, games=args.games, seed=args.seed,
                               workers=args.workers, quick=args.quick,
                               records=args.records, progress=progress)
    if args.json:
        from ..fast import engine
        print(json.dumps({**summary.to_json(), "engine": engine()}, ensure_ascii=False))
    else:
        _print(summary)
    if summary.interrupted:
        print(f"sgmahjong simulate: interrupted after {summary.games} games", file=sys.stderr)
        return 130
    return 0


def _print(s: Summary) -> None:
    from rich.table import Table

    from ..simulate import pattern_names

    console = stdout_console()
    mode = "quick games" if s.quick else "full matches"
    console.print(f"[bold]{s.games} {mode}[/bold] under {s.rules} (rules {s.rules_digest}), "
                  f"seed {s.seed}: {s.hands} hands, {s.draws} drawn, "
                  f"{s.hands_per_second:.0f} hands/s with {s.workers} worker(s)")
    table = Table(title="Results by match player", title_justify="left")
    for col, just in (("player", "left"), ("name", "left"), ("points", "right"),
                      ("per hand", "right"), ("±95%", "right"), ("wins", "right"),
                      ("win %", "right")):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for p in s.seats:
        rate = 100 * p.wins / s.hands if s.hands else 0.0
        table.add_row(str(p.index), p.player, f"{p.points_total:+d}",
                      f"{p.points_per_hand_mean:+.2f}", f"{p.ci95:.2f}", str(p.wins),
                      f"{rate:.1f}")
    console.print(table)
    if s.patterns:
        won = sum(p.wins for p in s.seats)
        pt = Table(title="Patterns in winning hands", title_justify="left")
        pt.add_column("pattern")
        pt.add_column("id", style="dim")
        pt.add_column("hands", justify="right")
        pt.add_column("% of wins", justify="right")
        for pid, name, n in pattern_names(s.patterns):
            pt.add_row(name, pid, str(n), f"{100 * n / won:.1f}" if won else "-")
        console.print(pt)
