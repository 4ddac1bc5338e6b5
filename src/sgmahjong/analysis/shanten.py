"""Shanten numbers (tile changes from ready): regular form and Thirteen Wonders, table-driven."""

from __future__ import annotations

import operator
import struct
import time
from collections.abc import Sequence

from ..errors import HandError, TileCountError
from ..tiles import Tile
from . import shanten_tables as _tables

__all__ = ["regular_shanten", "shanten", "thirteen_wonders_shanten"]

# Definition. A hand's distance to a winning hand W is the number of tiles of W the hand
# lacks (W has 3k+2 tiles, k = 4 - declared sets, and at most four copies of any kind, so
# a "wait" on a fifth copy of a tile the hand holds four of does not count). Shanten is
# the fewest such tiles over all W, minus one: -1 complete, 0 ready (a 14-tile hand: one
# discard from ready). It is exact for 3k+1 and 3k+2 concealed tiles alike.
#
# The distance splits over the four groups (three suits, honours) because W does: for
# each group, vec[m] is the fewest tiles missing for m sets there and vec[5 + m] for m
# sets plus the pair. shanten_tables.py builds, for every possible group (all 405,350
# suit patterns, all honour patterns) its class (vector, tile count): 159 for suits, 137
# for honours; then the classes of characters + circles and of bamboo + honours (339 and
# 450), and the regular shanten of every pair of those. That takes a second or two, once:
# the tables are cached on disk and load in milliseconds, on the first call (importing
# the package stays quick).
#
# A call is then: the counts as bytes cut into the four group keys (one bytearray, one
# struct unpack), four dict lookups giving each group's class id and Thirteen Wonders code,
# two pair-table lookups, one final one, and for a hand without declared sets one more
# that takes the lesser of the regular and the Thirteen Wonders shanten. There is no
# per-hand memo: a hand never seen costs the same as one seen before.
#
# The four dicts map a group's counts (as bytes) to its value: they are filled from the
# compact tables the first time the process meets each pattern (the KeyError goes to
# _meet: base-5 key, one table lookup, under a microsecond), so that they hold only the
# patterns in use rather than 405,350 bytes objects. clear_caches() empties them.
#
# Values are ints whose fields add up without carries:
#   _LOW  (characters, bamboo): class * stride | code << 16    _HIGH (circles): class | code
#   << 16    _HON (honours): class | code << 16
# where code = terminals and honours held (distinct kinds) + 16 * (one of them paired).
# So (_LOW[m] + _HIGH[p]) & 0xFFFF indexes _XY, (_LOW[s] + _HON[h]) & 0xFFFF indexes _ZH,
# their values add up to an index of _FINAL (128 * (16 * declared sets + shanten + 1)),
# and adding the codes of all four groups indexes _ANS0: min(regular, Thirteen Wonders).
# A pair over 14 tiles, or a tile count that no number of declared sets fits, leads to
# an index past the end of a table: the IndexError sends the call to the validating slow
# path, as do a count over 4 (not a base-5 digit in _meet) and anything not an int 0-255.

_UNPACK = struct.Struct("9s9s9s7s").unpack
_DIGITS = bytes(48 + i if i < 5 else 120 for i in range(256))  # count -> base-5 digit
_FIELD = 0xFFFF
_CODE_SHIFT = 16
_FINAL_SCALE = 128    # room for the Thirteen Wonders code (< 13 + 16 * 4 = 77) below it
_MELDS_SHIFT = 11     # 16 * _FINAL_SCALE: declared sets in a _FINAL value
_INVALID = 1 << 24    # past the end of _FINAL and of _ANS0, whatever is added to it

_LOW: dict[bytes, int] = {}
_HIGH: dict[bytes, int] = {}
_HON: dict[bytes, int] = {}
_XY: list[int] = []
_ZH: list[int] = []
_FINAL: list[int] = []
_ANS0: list[int] = []
# For meeting a pattern: class id (by base-5 key) and the dict value it gives, for suits
# by class * 25 + 5 * count of the 1 + count of the 9, for honours by entry id.
_SUIT = b""
_HONOUR = b""
_LOW_VALUES: list[int] = []
_HIGH_VALUES: list[int] = []
_HON_VALUES: list[int] = []
_STATUS: dict[str, object] = {}


def prepare_tables(rebuild: bool = False) -> dict[str, object]:
    """Load (or build) the tables now rather than on the first call.

    Returns where they came from (``"cache"``, ``"built"``, ``"built, not cached"``) and
    the seconds it took. ``rebuild=True`` builds them afresh and rewrites the cache.
    """
    global _SUIT, _HONOUR
    if _FINAL and not rebuild:
        return dict(_STATUS)
    start = time.perf_counter()
    if rebuild:
        tables = _tables.build_tables()
        path = _tables.cache_path()
        cached = path is not None and _tables.write_cache(path, tables)
        source = "built" if cached else "built, not cached"
    else:
        tables, source = _tables.load_tables()
    stride, n_zh = tables.stride, tables.n_zh
    # Shared int objects: a list of 152,550 fresh ints would take 4 MB more.
    xy_values = [i * n_zh for i in range(tables.n_xy)]
    final_values = [e * _FINAL_SCALE for e in range(255)] + [_INVALID]
    low, high = [], []
    for cid in range(stride):
        for terminals in range(25):
            one, nine = divmod(terminals, 5)
            code = (one > 0) + (nine > 0) + 16 * (one > 1 or nine > 1)
            low.append(cid * stride + (code << _CODE_SHIFT))
            high.append(cid + (code << _CODE_SHIFT))
    entries = tables.honour_entries
    honours = [entries[i] + (entries[i + 1] << _CODE_SHIFT) for i in range(0, len(entries), 2)]
    answers = []
    for e in range(16):                   # 16 * 0 declared sets + regular shanten + 1
        for code in range(_FINAL_SCALE):  # kinds of terminals/honours held + 16 * paired
            distinct, paired = code & 15, code >> 4
            answers.append(min(e - 1, 13 - distinct - (paired > 0)))
    _clear_patterns()
    _XY[:] = [xy_values[i] if i != _tables.NO_PAIR else _INVALID for i in tables.xy]
    _ZH[:] = [i if i != _tables.NO_PAIR else _INVALID for i in tables.zh]
    _FINAL[:] = map(final_values.__getitem__, tables.final)
    _ANS0[:] = answers
    _LOW_VALUES[:], _HIGH_VALUES[:], _HON_VALUES[:] = low, high, honours
    _SUIT, _HONOUR = tables.suit, tables.honour
    _STATUS.clear()
    _STATUS.update(source=source, seconds=time.perf_counter() - start)
    return dict(_STATUS)


def _clear_patterns() -> None:
    _LOW.clear()
    _HIGH.clear()
    _HON.clear()


def patterns_met() -> int:
    """How many group patterns the lookup dicts hold (what :func:`clear_caches` forgets)."""
    return len(_LOW) + len(_HIGH) + len(_HON)


def clear_caches(tables: bool = False) -> None:
    """Forget the group patterns met so far (results do not change; for measuring the cost
    of meeting them the first time). ``tables=True`` also drops the loaded tables: the
    next call loads them again (from the disk cache, or by building them)."""
    global _SUIT, _HONOUR
    _clear_patterns()
    if tables:
        for table in (_XY, _ZH, _FINAL, _ANS0, _LOW_VALUES, _HIGH_VALUES, _HON_VALUES):
            table.clear()
        _SUIT = _HONOUR = b""
        _STATUS.clear()


def _meet(m: bytes, p: bytes, s: bytes, h: bytes, melds: int, regular_only: bool) -> int:
    """The shanten of a hand one of whose group patterns is not in the dicts yet: put them
    there, then look the hand up as the call path does. Raises ValueError or IndexError if
    the groups or the tile count are not valid (the caller then validates)."""
    if not _FINAL:
        prepare_tables()
    # A count over 4 is not a base-5 digit (ValueError); a pattern over 14 tiles has class
    # NO_CLASS, past the end of the value lists (IndexError).
    vm = _LOW.get(m)
    if vm is None:
        vm = _LOW[m] = _LOW_VALUES[_SUIT[int(m.translate(_DIGITS), 5)] * 25 + m[0] * 5 + m[8]]
    vp = _HIGH.get(p)
    if vp is None:
        vp = _HIGH[p] = _HIGH_VALUES[_SUIT[int(p.translate(_DIGITS), 5)] * 25 + p[0] * 5 + p[8]]
    vs = _LOW.get(s)
    if vs is None:
        vs = _LOW[s] = _LOW_VALUES[_SUIT[int(s.translate(_DIGITS), 5)] * 25 + s[0] * 5 + s[8]]
    vh = _HON.get(h)
    if vh is None:
        vh = _HON[h] = _HON_VALUES[_HONOUR[int(h.translate(_DIGITS), 5)]]
    a = vm + vp
    b = vs + vh
    e = _FINAL[_XY[a & _FIELD] + _ZH[b & _FIELD]]
    if melds == 0 and not regular_only:
        return _ANS0[e + ((a + b) >> _CODE_SHIFT)]
    e -= melds << _MELDS_SHIFT
    if e >> _MELDS_SHIFT:
        raise IndexError("the tile count does not fit the declared sets")
    return (e >> 7) - 1


def _check(counts: Sequence[int], melds: object) -> tuple[int, ...]:
    """Validate (on the slow path only) and return the counts as a tuple."""
    try:
        if isinstance(counts, int):
            raise TypeError
        t = tuple(bytes(counts))  # quick for the usual case: every count an int in 0-255
    except (TypeError, ValueError):
        try:
            t = tuple(operator.index(c) for c in counts)
        except TypeError:
            raise HandError("counts must be 34 integers (one per playing tile kind)") from None
    if len(t) != 34:
        raise HandError(f"counts must have 34 entries (one per playing tile kind), not {len(t)}")
    if type(melds) is not int or not 0 <= melds <= 4:
        raise HandError(f"declared sets must be 0-4, not {melds!r}")
    if t and (min(t) < 0 or max(t) > 4):
        for i, c in enumerate(t):
            if c < 0:
                raise HandError(f"negative count {c} for {Tile(i).text}")
            if c > 4:
                raise TileCountError(f"the hand holds {c} copies of {Tile(i).text}; the set "
                                     "has only 4")
    n = sum(t)
    if n + 3 * melds not in (13, 14):
        want = f"{13 - 3 * melds} or {14 - 3 * melds}"
        raise HandError(f"the hand has {n} concealed tiles; with {melds} declared "
                        f"set{'s' if melds != 1 else ''} it needs {want}")
    return t


def _slow(counts: Sequence[int], melds: int, regular_only: bool) -> int:
    t = _check(counts, melds)
    # _check has validated the counts and matched the tile count to melds.
    m, p, s, h = _UNPACK(bytes(t))
    return _meet(m, p, s, h, melds, regular_only)


def shanten(counts: Sequence[int], melds: int = 0) -> int:
    """Shanten of a hand: the least of the regular form and (without melds) Thirteen Wonders.

    ``counts`` holds the 34 playing-kind counts of the concealed tiles (bonus tiles are
    never part of the analysis); ``melds`` is the number of declared sets, so the
    concealed tiles number 13 - 3*melds (between turns) or 14 - 3*melds (after a draw).
    -1 means complete, 0 ready. Raises :class:`~sgmahjong.errors.HandError` or
    :class:`~sgmahjong.errors.TileCountError` for impossible input.

    >>> from sgmahjong import Hand
    >>> shanten(Hand.parse("123m456p789s11z234m").counts)
    -1
    >>> shanten(Hand.parse("19m19p19s1234567z").counts)
    0
    >>> shanten(Hand.parse("2m, pong 111z, pong 222z, chow 789s, kong 5555p").counts, 4)
    0
    >>> shanten(Hand.parse("123m456p789s11z234m").counts, 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sgmahjong.errors.HandError: the hand has 14 concealed tiles; with 1 declared set it needs ...
    """
    try:
        m, p, s, h = _UNPACK(bytearray(counts))
        a = _LOW[m] + _HIGH[p]
        b = _LOW[s] + _HON[h]
        if melds == 0:
            return _ANS0[_FINAL[_XY[a & 0xFFFF] + _ZH[b & 0xFFFF]] + ((a + b) >> 16)]
        e = _FINAL[_XY[a & 0xFFFF] + _ZH[b & 0xFFFF]] - (melds << 11)
        if not e >> 11:  # the tile count fits this many declared sets
            return (e >> 7) - 1
    except KeyError:
        # A group pattern met for the first time (or bad input, which _meet finds).
        try:
            return _meet(m, p, s, h, melds, False)
        except (TypeError, ValueError, IndexError):
            pass
    except (TypeError, ValueError, IndexError, struct.error):
        pass
    return _slow(counts, melds, False)


def regular_shanten(counts: Sequence[int], melds: int = 0) -> int:
    """Shanten of the regular form only (four sets and a pair, counting declared sets).

    >>> from sgmahjong import Hand
    >>> regular_shanten(Hand.parse("19m19p19s1234567z").counts)
    8
    """
    try:
        m, p, s, h = _UNPACK(bytearray(counts))
        a = _LOW[m] + _HIGH[p]
        b = _LOW[s] + _HON[h]
        e = _FINAL[_XY[a & 0xFFFF] + _ZH[b & 0xFFFF]] - (melds << 11)
        if not e >> 11:
            return (e >> 7) - 1
    except KeyError:
        try:
            return _meet(m, p, s, h, melds, True)
        except (TypeError, ValueError, IndexError):
            pass
    except (TypeError, ValueError, IndexError, struct.error):
        pass
    return _slow(counts, melds, True)


_WONDERS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def thirteen_wonders_shanten(counts: Sequence[int]) -> int:
    """Shanten of Thirteen Wonders (each terminal and honour once, one of them twice).

    Only a hand without declared sets can be Thirteen Wonders, so the counts hold 13 or 14
    tiles.

    >>> from sgmahjong import Hand
    >>> thirteen_wonders_shanten(Hand.parse("19m19p19s1234567z7z").counts)
    -1
    """
    t = _check(counts, 0)
    distinct = sum(1 for i in _WONDERS if t[i])
    paired = any(t[i] >= 2 for i in _WONDERS)
    return 13 - distinct - paired
