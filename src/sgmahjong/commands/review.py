"""``sgmahjong replay FILE --review --seat N``: what one player could have done better, hand
by hand (:mod:`sgmahjong.agents.review`)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..record import Record


def add_options(p: argparse.ArgumentParser) -> None:
    """The review options of ``replay``."""
    p.add_argument("--review", action="store_true",
                   help="review one player's decisions against Owl's, hand by hand "
                        "(with --seat)")
    p.add_argument("--seat", type=int, metavar="N", default=None,
                   help="the player to review: 0-3, as numbered in the record's players "
                        "(p0-p3 in the printout; the wind seat moves with the banker)")


def run(record: Record, args: argparse.Namespace) -> int:
    """Print the review of ``args.seat`` (a bad or missing seat is a one-line error)."""
    from ..agents.expected import close_margin, serious_margin
    from ..agents.review import Decision, review_record, tally_text
    from ..errors import SgmahjongError

    seat = args.seat
    if seat is None or not 0 <= seat <= 3:
        got = "" if seat is None else f", not {seat}"
        raise SgmahjongError(f"--review needs --seat N, a player number 0-3{got}")
    name = record.players[seat]
    print(f"Review of p{seat} {name} against Owl (rules {record.rules.name})")
    hands = review_record(record, seat)
    total = dealt = 0
    items: list[Decision] = []
    for number, wind, r in hands:
        total += r.decisions
        items.extend(r.items)
        dealt += len(r.deal_ins)
        print(f"\nHand {number + 1}, sitting {wind.name.title()}: {r.decisions} decisions, "
              f"{len(r.items)} where Owl chose differently")
        for line in r.lines:
            print(f"  {line}")
        if r.items:
            print(f"  {r.tally}")
            rs = record.rules
            print(f"  Every difference, costliest first (the expected points it gave up: a "
                  f"close call under {close_margin(rs):.2g}, a serious mistake from "
                  f"{serious_margin(rs):.2g}):")
            for d in r.items:
                print(f"  - {d.severity}: {d.brief}")
    if not hands:
        print("(no hands)")
    summary = (tally_text(total, items) if items else
               f"{total} decisions, every one as Owl would have.")
    print(f"\nIn all: {summary} {dealt} deal-ins.")
    return 0
