"""An independent reckoning of a ledger under the standard preset, straight from RULES.md,
for checking what the ledger (page, API, command) shows.

standard: base = 2^tai, capped at 5 tai; on a discard the discarder pays 2×base and the
others 1×base; self-drawn (and Thirteen Wonders) 2×base from each; under Bao the liable
player pays all of it. Instant payouts: a claimed or added kong 2 from each opponent, a
concealed kong nothing; a bonus pair 2 (4 if exposed in the deal); a set of four 4. The
deal passes after any win, and after a drawn hand only if a kong was declared; the round
wind moves on each time the deal has gone round the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

WINDS = ["East", "South", "West", "North"]
INSTANT = {"claimed-kong": 2, "added-kong": 2, "concealed-kong": 0, "cat-mouse": 2,
           "rooster-centipede": 2, "own-flower-season": 2, "four-animals": 4,
           "four-flowers": 4, "four-seasons": 4}


def reckon(hands: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each hand: its dealer and round wind, the points by player and the totals after;
    and a last item for the next hand (dealer and round wind only)."""
    dealer, passes, rnd = 0, 0, 0
    totals = [0, 0, 0, 0]
    out = []
    for h in hands:
        d = [0, 0, 0, 0]
        kong = bool(h.get("kong"))
        if h["type"] == "win":
            w, frm = h["winner"], h.get("from")
            base = 2 ** min(h["tai"], 5)
            payers = [p for p in range(4) if p != w]
            if frm is None or h.get("thirteen_wonders"):
                shares = {p: 2 * base for p in payers}
            else:
                shares = {p: 2 * base if p == frm else base for p in payers}
            if h.get("liable") is not None:
                shares = {h["liable"]: sum(shares.values())}
            for p, a in shares.items():
                d[p] -= a
                d[w] += a
        for i in h.get("instant", []):
            amount = INSTANT[i["reason"]]
            if i.get("dealt"):
                amount *= 2
            kong = kong or i["reason"].endswith("kong")
            for p in range(4):
                d[p] += 3 * amount if p == i["player"] else -amount
        totals = [t + x for t, x in zip(totals, d, strict=True)]
        out.append({"dealer": dealer, "round_wind": WINDS[rnd % 4], "deltas": d,
                    "totals": list(totals)})
        if h["type"] == "win" or kong:
            dealer, passes = (dealer + 1) % 4, passes + 1
            if passes == 4:
                rnd, passes = rnd + 1, 0
    out.append({"dealer": dealer, "round_wind": WINDS[rnd % 4]})
    return out
