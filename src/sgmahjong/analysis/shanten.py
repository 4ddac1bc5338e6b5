"""Shanten numbers (tile changes from ready): regular form and Thirteen Wonders, table-driven."""

from __future__ import annotations

import operator
import struct
from collections.abc import Sequence

from ..errors import HandError, TileCountError
from ..tiles import Tile

__all__ = ["regular_shanten", "shanten", "thirteen_wonders_shanten"]

# Definition. A hand's distance to a winning hand W is the number of tiles of W the hand
# lacks (W has 3k+2 tiles, k = 4 - declared sets, and at most four copies of any kind, so
# a "wait" on a fifth copy of a tile the hand holds four of does not count). Shanten is
# the fewest such tiles over all W, minus one: -1 complete, 0 ready (a 14-tile hand: one
# discard from ready). It is exact for 3k+1 and 3k+2 concealed tiles alike.
#
# The distance splits over the four groups (three suits, honours) because W does: for
# each group, vec[m] is the fewest tiles missing for m sets there and vec[5 + m] for
# m sets plus the pair. A group's vector depends only on its counts, so it is computed
# once per distinct group (lazily: building all 405,350 suit keys up front takes most of
# a minute in pure Python, so a process only pays for the patterns it meets) and reduced
# to a small class id: all suit keys share 159 classes (vector, tile count), so the
# combinations of classes are memoised too and stay few. A call is then four group
# lookups and three memo lookups, whatever the hand looks like.

_SUIT_SIZE = 9

# ---- one group's vector: dynamic programming over the nine positions of a suit ----
#
# The DP maximises the overlap (tiles of the group used by the target) for every
# (pair, sets) combination at once, packed as ten 6-bit fields in one int so that a
# transition is a few int operations instead of a loop over ten values. Bit 5 of each
# field is a guard bit for the branch-free field-wise maximum. Values are biased by 16 so
# that a combination made unreachable by a shift (stored as 0, plus at most 14 of gain)
# always loses to a reachable one.
_W = 6
_NFIELDS = 10
_ONES = sum(1 << (_W * f) for f in range(_NFIELDS))
_GUARDS = _ONES << (_W - 1)
_LOWS = _ONES * ((1 << (_W - 1)) - 1)
_FULL = (1 << _W) - 1
_NO_PAIR_HALF = sum(_FULL << (_W * f) for f in range(5))
_KEEP_AFTER_SET = sum(_FULL << (_W * f) for f in (1, 2, 3, 4, 6, 7, 8, 9))
_PAIR_SHIFT = 5 * _W
_BIAS = 16


def _vmax(x: int, y: int) -> int:
    g = ((x | _GUARDS) - y) & _GUARDS
    mask = g - (g >> (_W - 1))
    return (x & mask) | (y & (_LOWS ^ mask))


def _unpack(best: int) -> tuple[int, ...]:
    gains = [((best >> (_W * f)) & 31) - _BIAS for f in range(_NFIELDS)]
    out: list[int] = []
    # Padding sets (and the pair) that use none of the group's tiles always fit, so the
    # best overlap for m sets is the best over m' <= m.
    run = -1
    for m in range(5):
        run = max(run, gains[m])
        out.append(3 * m - run)
    run = -1
    for m in range(5):
        run = max(run, gains[5 + m], gains[m])
        out.append(3 * m + 2 - run)
    return tuple(out)


def _block_vector(s: Sequence[int]) -> tuple[int, ...]:
    """Fewest missing tiles for m sets (without / with the pair) on a run of positions."""
    n = len(s)
    s = [*s, 0, 0]
    # State: (chow tiles already demanded at this position, at the next one) -> packed
    # best overlaps. A new block is only tried where it can use a tile of the group:
    # blocks that use none are the padding of _unpack.
    states = {(0, 0): _ONES * _BIAS}
    guards, lows = _GUARDS, _LOWS
    for i in range(n):
        si, s1, s2 = s[i], s[i + 1], s[i + 2]
        chows_here = i < n - 2 and (si or s1 or s2)
        nxt: dict[tuple[int, int], int] = {}
        if not chows_here and not si:
            for (_, b), vec in states.items():
                old = nxt.get((b, 0))
                nxt[(b, 0)] = vec if old is None else _vmax(vec, old)
            states = nxt
            continue
        for (a, b), vec in states.items():
            for pong in (0, 1):
                if pong:
                    # A pong must use a tile here and fit under four copies.
                    if si <= a or a > 1:
                        break
                    vp = (vec << _W) & _KEEP_AFTER_SET
                else:
                    vp = vec
                for pair in (0, 1):
                    base = a + 3 * pong
                    if pair:
                        if si <= base or base > 2:
                            break
                        base += 2
                        vq = (vp & _NO_PAIR_HALF) << _PAIR_SHIFT
                    else:
                        vq = vp
                    # The c-th chow from here must be able to use a tile at one of its
                    # three positions, or padding would do as well.
                    cmax = max(si - base, s1 - b, s2) if chows_here else 0
                    if cmax > 4 - base:
                        cmax = 4 - base
                    vc = vq
                    c = 0
                    while True:
                        t = base + c
                        nv = vc + (si if si < t else t) * _ONES
                        key = (b + c, c)
                        old = nxt.get(key)
                        if old is None:
                            nxt[key] = nv
                        else:  # _vmax inlined: this line runs a hundred times per pattern
                            g = ((nv | guards) - old) & guards
                            g -= g >> (_W - 1)
                            nxt[key] = (nv & g) | (old & (lows ^ g))
                        if c >= cmax:  # also ends a negative bound after c = 0
                            break
                        c += 1
                        vc = (vc << _W) & _KEEP_AFTER_SET
                        if not vc:
                            break
        states = nxt
    return _unpack(states[(0, 0)])


_EMPTY_VECTOR = (0, 3, 6, 9, 12, 2, 5, 8, 11, 14)
_block_vectors: dict[tuple[tuple[int, ...], int, int], tuple[int, ...]] = {}


def _suit_vector(s: Sequence[int]) -> tuple[int, ...]:
    """Fewest missing tiles for m sets (without / with the pair) within one suit.

    The suit splits at every run of two or more empty positions: no set can use tiles on
    both sides, and the chows that reach into the gap from either side are at most four,
    so they always fit under four copies. Each piece (with up to two empty positions
    either side for its chows, fewer at the ends of the suit) is solved once and
    memoised; pieces combine like groups. Checked against the undivided DP on all
    405,350 suit patterns.
    """
    vec = _EMPTY_VECTOR
    i = 0
    while i < _SUIT_SIZE:
        if not s[i]:
            i += 1
            continue
        j = i
        while True:
            if j + 1 < _SUIT_SIZE and s[j + 1]:
                j += 1
            elif j + 2 < _SUIT_SIZE and s[j + 2]:
                j += 2
            else:
                break
        left, right = min(i, 2), min(_SUIT_SIZE - 1 - j, 2)
        key = (tuple(s[i:j + 1]), left, right)
        piece = _block_vectors.get(key)
        if piece is None:
            piece = _block_vectors[key] = _block_vector(
                [0] * left + list(key[0]) + [0] * right)
        vec = _combine(vec, piece)
        i = j + 1
    return vec


def _honour_vector(h: Sequence[int]) -> tuple[int, ...]:
    """Fewest missing tiles for m sets (without / with the pair) among the honours."""
    # Honours cannot chow, so each kind is a pong, the pair, or neither (not both: five
    # copies); a tiny DP over the seven kinds.
    best = {(0, 0): 0}
    for c in h:
        if not c:
            continue
        nxt = dict(best)
        for (m, q), g in best.items():
            for dm, dq, gain in ((1, 0, min(c, 3)), (0, 1, min(c, 2))):
                key = (m + dm, q + dq)
                if key[0] <= 4 and key[1] <= 1 and nxt.get(key, -1) < g + gain:
                    nxt[key] = g + gain
        best = nxt
    out: list[int] = []
    for q in (0, 1):
        for m in range(5):
            g = max(v for (mm, qq), v in best.items() if mm <= m and qq <= q)
            out.append(3 * m + 2 * q - g)
    return tuple(out)


def _combine(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The vector of two groups taken together: a min-plus convolution over sets, with
    the pair in either group (unrolled: it runs for every new class combination)."""
    a0, a1, a2, a3, a4, p0, p1, p2, p3, p4 = a
    b0, b1, b2, b3, b4, q0, q1, q2, q3, q4 = b
    return (a0 + b0,
            min(a0 + b1, a1 + b0),
            min(a0 + b2, a1 + b1, a2 + b0),
            min(a0 + b3, a1 + b2, a2 + b1, a3 + b0),
            min(a0 + b4, a1 + b3, a2 + b2, a3 + b1, a4 + b0),
            min(p0 + b0, a0 + q0),
            min(p0 + b1, p1 + b0, a0 + q1, a1 + q0),
            min(p0 + b2, p1 + b1, p2 + b0, a0 + q2, a1 + q1, a2 + q0),
            min(p0 + b3, p1 + b2, p2 + b1, p3 + b0, a0 + q3, a1 + q2, a2 + q1, a3 + q0),
            min(p0 + b4, p1 + b3, p2 + b2, p3 + b1, p4 + b0,
                a0 + q4, a1 + q3, a2 + q2, a3 + q1, a4 + q0))


# ---- classes and memo tables ----
#
# Table values are small ints whose bit fields add up without carries into the next
# memo's key, and every key stays below 2**30 so CPython adds and hashes it as a
# one-digit int. Fields: a group's class id (all valid groups make 225 classes, so 8
# bits) and its Thirteen Wonders code (distinct terminals or honours held, doubled, plus
# one if one of them is paired).
#   _LOW  (characters, bamboo): id | tw << 16       _HIGH (circles): id << 8 | tw << 19
#   _HON  (honours):            id << 8 | tw << 19
#   _XY[low + high] and _ZH[low + hon] give a combined class id (482 classes: 10 bits) at
#   bit 0 or 10, plus (distinct * 4 + paired) << 20; their sum plus melds << 26 keys
#   _FULL_MEMO and _REG_MEMO, which hold the shanten.
_GROUP_ID_BITS = 8
_PAIR_ID_BITS = 10
_TW_SHIFT = 20
_MELDS_SHIFT = 26

_group_classes: dict[tuple[tuple[int, ...], int], int] = {}
_group_info: list[tuple[tuple[int, ...], int]] = []
_pair_classes: dict[tuple[tuple[int, ...], int], int] = {}
_pair_info: list[tuple[tuple[int, ...], int]] = []
_suit_vectors: dict[bytes, tuple[int, ...]] = {}
_honour_vectors: dict[tuple[int, ...], tuple[int, ...]] = {}

# Group keys are the counts as bytes. bytearray(list) is the cheapest way from a list of
# ints to a buffer, and one struct unpack cuts it into the four keys in a single C call
# (a quarter faster than decoding and slicing). Counts outside 0-255 or a wrong length
# raise, other bad counts miss the tables: all reach the validating slow path.
_LOW: dict[bytes, int] = {}
_HIGH: dict[bytes, int] = {}
_HON: dict[bytes, int] = {}
_XY: dict[int, int] = {}
_ZH: dict[int, int] = {}
_FULL_MEMO: dict[int, int] = {}
_REG_MEMO: dict[int, int] = {}
_UNPACK = struct.Struct("9s9s9s7s").unpack


def clear_caches() -> None:
    """Forget every table and memo (for measuring the cold cost; results do not change)."""
    for table in (_group_classes, _group_info, _pair_classes, _pair_info, _suit_vectors,
                  _honour_vectors, _block_vectors, _LOW, _HIGH, _HON, _XY, _ZH, _FULL_MEMO,
                  _REG_MEMO):
        table.clear()


def _intern(classes: dict, info: list, item: tuple[tuple[int, ...], int], bits: int) -> int:
    cid = classes.get(item)
    if cid is None:
        cid = len(info)
        if cid >= 1 << bits:  # cannot happen for valid hands; guards the bit layout
            raise RuntimeError("shanten class table overflow")
        classes[item] = cid
        info.append(item)
    return cid


def _group_value(table: dict[bytes, int], key: bytes, counts: tuple[int, ...],
                 honours: bool, high: bool) -> int:
    value = table.get(key)
    if value is not None:
        return value
    if honours:
        # An honour group's vector depends only on its counts in any order.
        shape = tuple(sorted(counts))
        vec = _honour_vectors.get(shape)
        if vec is None:
            vec = _honour_vectors[shape] = _honour_vector(shape)
        distinct = sum(1 for c in counts if c)
        paired = any(c >= 2 for c in counts)
    else:
        vec = _suit_vectors.get(key)
        if vec is None:
            vec = _suit_vectors[key] = _suit_vector(counts)
        distinct = (counts[0] > 0) + (counts[8] > 0)
        paired = counts[0] >= 2 or counts[8] >= 2
    cid = _intern(_group_classes, _group_info, (vec, sum(counts)), _GROUP_ID_BITS)
    tw = distinct * 2 + paired
    value = (cid << 8 | tw << 19) if high else (cid | tw << 16)
    table[key] = value
    return value


def _pair_value(memo: dict[int, int], key: int, first: int, second: int, high: bool) -> int:
    value = memo.get(key)
    if value is not None:
        return value
    mask = (1 << _GROUP_ID_BITS) - 1
    vec1, n1 = _group_info[first & mask]
    vec2, n2 = _group_info[(second >> 8) & mask]
    tw1, tw2 = (first >> 16) & 7, (second >> 19) & 15
    distinct = (tw1 >> 1) + (tw2 >> 1)
    paired = (tw1 | tw2) & 1
    cid = _intern(_pair_classes, _pair_info, (_combine(vec1, vec2), n1 + n2), _PAIR_ID_BITS)
    value = (cid << _PAIR_ID_BITS if high else cid) | (distinct * 4 + paired) << _TW_SHIFT
    memo[key] = value
    return value


def _final_values(key: int) -> tuple[int, int, int] | None:
    """(declared sets, shanten, regular-form shanten) for a memo key, or None if no
    number of declared sets fits the tile count."""
    mask = (1 << _PAIR_ID_BITS) - 1
    vec1, n1 = _pair_info[key & mask]
    vec2, n2 = _pair_info[(key >> _PAIR_ID_BITS) & mask]
    n = n1 + n2
    melds = (14 - n) // 3
    if n % 3 == 0 or not 0 <= melds <= 4:
        return None
    k = 4 - melds
    regular = _combine(vec1, vec2)[5 + k] - 1
    if melds:
        return melds, regular, regular
    tw = key >> _TW_SHIFT
    wonders = 13 - (tw >> 2) - (1 if tw & 3 else 0)
    return melds, min(regular, wonders), regular


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
    m, p, s, h = _UNPACK(bytes(t))
    low_m = _group_value(_LOW, m, t[0:9], False, False)
    high_p = _group_value(_HIGH, p, t[9:18], False, True)
    low_s = _group_value(_LOW, s, t[18:27], False, False)
    hon = _group_value(_HON, h, t[27:34], True, True)
    xy = _pair_value(_XY, low_m + high_p, low_m, high_p, False)
    zh = _pair_value(_ZH, low_s + hon, low_s, hon, True)
    found = _final_values(xy + zh)
    # _check has matched the tile count to melds, so an entry exists for this melds.
    assert found is not None and found[0] == melds
    key = xy + zh + (melds << _MELDS_SHIFT)
    _FULL_MEMO[key] = found[1]
    _REG_MEMO[key] = found[2]
    return found[2] if regular_only else found[1]


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
        key = _XY[_LOW[m] + _HIGH[p]] + _ZH[_LOW[s] + _HON[h]]
        return _FULL_MEMO[key] if melds == 0 else _FULL_MEMO[key + (melds << _MELDS_SHIFT)]
    except (KeyError, TypeError, ValueError, struct.error):
        # Not yet in the tables, or bad input: the slow path validates and fills them.
        return _slow(counts, melds, False)


def regular_shanten(counts: Sequence[int], melds: int = 0) -> int:
    """Shanten of the regular form only (four sets and a pair, counting declared sets).

    >>> from sgmahjong import Hand
    >>> regular_shanten(Hand.parse("19m19p19s1234567z").counts)
    8
    """
    try:
        m, p, s, h = _UNPACK(bytearray(counts))
        return _REG_MEMO[_XY[_LOW[m] + _HIGH[p]] + _ZH[_LOW[s] + _HON[h]]
                         + (melds << _MELDS_SHIFT)]
    except (KeyError, TypeError, ValueError, struct.error):
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
