"""A small sgmahjong bot (standard library only): wins when it can, discards its loneliest tile.

Run a table with it:  python -c "from sgmahjong.bot import ProcessAgent; ..."  (see
docs/protocol.md). It reads JSON Lines requests on stdin and answers on stdout.
"""

from __future__ import annotations

import json
import re
import sys

PROTOCOL = 1


def parse_tiles(text: str) -> list[str]:
    """"123m5p" -> ["1m", "2m", "3m", "5p"]."""
    out = []
    for digits, suit in re.findall(r"(\d+)([mpszfga])", text or ""):
        out.extend(d + suit for d in digits)
    return out


def loneliness(tile: str, hand: list[str]) -> int:
    """Lower is lonelier: copies held count most, then suited neighbours within two."""
    n, suit = int(tile[0]), tile[1]
    score = 10 * (hand.count(tile) - 1)
    if suit in "mps":
        for d, w in ((1, 4), (2, 2)):
            for m in (n - d, n + d):
                if 1 <= m <= 9 and f"{m}{suit}" in hand:
                    score += w
        score += 1 if n in (1, 9) else 2
    return score


def decide(req: dict) -> dict:
    legal = req["legal"]
    for a in legal:
        if a["type"] == "win":
            return a
    discards = [a for a in legal if a["type"] == "discard"]
    if discards:
        hand = parse_tiles(req["view"]["concealed"])
        return min(discards, key=lambda a: (loneliness(a["tile"], hand), a["tile"]))
    return next((a for a in legal if a["type"] == "pass"), legal[0])


def main() -> None:
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            reply = {"type": "hello", "protocol": PROTOCOL, "name": "loneliest-tile"}
        elif msg["type"] == "request":
            reply = {"type": "action", "id": msg["id"], "action": decide(msg)}
        else:
            continue  # events: this bot keeps no memory
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
