"""``sgmahjong dataset``: match records made into arrays for imitation or offline learning."""

from __future__ import annotations

import argparse
import importlib
import json
from pathlib import Path
from typing import Any

from ..errors import SgmahjongError
from .progress import progress_bar
from .terminal import HelpFormatter

EPILOG = """\
examples:
  sgmahjong simulate --games 50 --players owl --records games/
  sgmahjong dataset games/ --seat all --out owl.npz
  sgmahjong dataset play-20250101-193000.jsonl sgmahjong-t1.jsonl --seat 0 --out mine.npz

Each row is one decision where the seat had more than one legal action: the observation,
action mask and action index of sgmahjong.env (docs/env.md), the points the player went on
to win or lose in the hand (reward_to_go), and where it came from (record, hand, player,
seat; standin marks the web table's stand-in decisions). --seat is the match player
(0-3, as numbered in the record's players), whose wind seat moves with the banker. Every
record is checked as 'sgmahjong replay --check' does; a hand the record ends in the middle
of is left out. Needs the env extra: pip install "sgmahjong[env]".
"""

# numpy lives in sgmahjong.env only: the command finds the module by name when it runs.
DATASET_MODULE = "sgmahjong.env.dataset"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "dataset", help="turn match records into arrays for imitation or offline learning",
        description="Turn match records (from simulate --records, the terminal game or the "
                    "web table) into a .npz of observations, action masks, actions taken "
                    "and rewards-to-go, in the encoding of sgmahjong.env.",
        epilog=EPILOG, formatter_class=HelpFormatter)
    p.add_argument("records", nargs="+", metavar="RECORD",
                   help="record files (JSON Lines), or folders of them (*.jsonl)")
    p.add_argument("--seat", default="all", metavar="N|all",
                   help="the match player whose decisions to keep, 0-3, or all (default)")
    p.add_argument("--out", required=True, metavar="FILE",
                   help="the .npz file to write")
    p.add_argument("--json", action="store_true",
                   help="print what was written as one JSON object (no progress bar)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        module: Any = importlib.import_module(DATASET_MODULE)
    except ImportError as e:
        raise SgmahjongError(str(e)) from None
    seat = module.player_of(args.seat)
    folder = Path(args.out).parent
    if not folder.is_dir():
        raise SgmahjongError(f"--out {args.out}: no such folder {str(folder)!r}")
    files = module.record_files(args.records)
    with progress_bar("records", len(files), quiet=args.json) as progress:
        data = module.from_records(files, seat=seat, progress=progress)
    data.save(args.out)
    hands = len({(int(f), int(h)) for f, h in zip(data["record"], data["hand"], strict=True)})
    summary = {"out": args.out, "files": len(files), "hands": hands, "decisions": len(data),
               "seat": args.seat}
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(f"{len(data)} decisions from {hands} hands of {len(files)} records "
              f"(seat {args.seat}) written to {args.out}")
    return 0
