"""A fast test of a complete hand (four sets and an eye, or Thirteen Wonders) for the engine's
hot path: each suit's 9 counts are judged once and memoised.

Same answer as :func:`sgmahjong.analysis.decompose.is_complete` (tests check this); only
the speed differs. A suit splits into sets alone or into sets plus the eye; honours must be
0 or 3 each, or 2 for the eye; exactly one part holds the eye.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from ..analysis.decompose import is_thirteen_wonders


@cache
def _sets(c: tuple[int, ...]) -> bool:
    i = 0
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        return True
    if c[i] >= 3 and _sets((*c[:i], c[i] - 3, *c[i + 1:])):
        return True
    if i <= 6 and c[i + 1] and c[i + 2]:
        return _sets((*c[:i], c[i] - 1, c[i + 1] - 1, c[i + 2] - 1, *c[i + 3:]))
    return False


@cache
def _sets_and_eye(c: tuple[int, ...]) -> bool:
    return any(c[i] >= 2 and _sets((*c[:i], c[i] - 2, *c[i + 1:])) for i in range(9))


def is_complete(counts: Sequence[int], no_melds: bool = True) -> bool:
    """True when 34-kind concealed counts form a winning shape (Thirteen Wonders only when
    there are no declared sets)."""
    eye = 0
    for n in counts[27:34]:
        if n == 2:
            eye += 1
        elif n not in (0, 3):
            return no_melds and is_thirteen_wonders(counts)
    for base in (0, 9, 18):
        part = tuple(counts[base:base + 9])
        r = sum(part) % 3
        if r == 0:
            ok = _sets(part)
        elif r == 2:
            eye += 1
            ok = _sets_and_eye(part)
        else:
            ok = False
        if not ok:
            return no_melds and is_thirteen_wonders(counts)
    return eye == 1 or (no_melds and is_thirteen_wonders(counts))
