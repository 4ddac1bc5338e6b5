"""The tables behind :mod:`sgmahjong.analysis.shanten`: built eagerly, cached on disk.

Every suit pattern (nine counts of 0-4, at most 14 tiles: 405,350 of them) and every
honour pattern gets a small class id. A class is the group's vector (``vec[m]``: fewest
tiles missing for m sets within the group, ``vec[5 + m]``: for m sets and the pair) and its
tile count; suits make 159 classes, honours 137. Pair tables then give the class of two
groups taken together (339 for characters with circles, 450 for bamboo with honours), and
a final table the regular-form shanten of the whole hand, so that a shanten call is only
lookups (see shanten.py for the call path).

Building takes a second or two in pure Python, without a per-pattern search:

* f_k(p), the largest overlap of pattern p with any target of type k (k = m sets, or m
  sets and the pair, within the suit, at most four copies of a tile), is |p| if p is
  contained in some target of type k, and otherwise the best f_k(p - t) over the tiles t
  of p. So a 10-bit feasibility mask is marked on every target and pushed down to every
  sub-pattern (patterns in decreasing order of their base-5 key: p - t comes later), then
  all ten f_k are computed at once per pattern in increasing key order, packed as ten 6-bit
  fields in one int (a field-wise maximum with guard bits, ``_vmax``), and the fields whose
  feasibility bit is set are overwritten with |p|. The vector is size(target_k) - f_k.
* Targets of m sets exist for every m <= 4 (four sets and a pair use 14 of the suit's 36
  tiles, so a set always fits), so the best overlap never needs "fewer sets, plus
  padding".

The dynamic programme the tables replaced (``suit_vector_dp``) stays here as the
reference: the eager table equals it on all 405,350 suit patterns (checked once in full,
and on a seeded sample by the tests).

The built tables are written to ``$SGMAHJONG_CACHE_DIR`` or else
``$XDG_CACHE_HOME/sgmahjong`` (``~/.cache/sgmahjong``), atomically, with a format version,
lengths and a CRC; loading them takes milliseconds. Any problem reading or writing the
cache (absent, corrupt, stale, unwritable) just means building them in memory again.
"""

from __future__ import annotations

import contextlib
import os
import struct
import tempfile
import zlib
from collections.abc import Iterable, Sequence
from itertools import combinations_with_replacement, product
from pathlib import Path

__all__ = ["CACHE_ENV", "FORMAT_VERSION", "Tables", "build_tables", "cache_path",
           "honour_vector", "load_tables", "suit_key", "suit_vector_dp", "suit_vectors"]

FORMAT_VERSION = 2
CACHE_ENV = "SGMAHJONG_CACHE_DIR"
_MAGIC = b"SGMJSHT\x00"
_HEADER = struct.Struct("<8sIII")  # magic, format version, payload length, CRC-32

SUIT_SIZE = 9
HONOURS = 7
SUIT_PATTERNS = 5 ** SUIT_SIZE     # table slots: base-5 key, tile 0 the leading digit
HONOUR_PATTERNS = 5 ** HONOURS
NO_CLASS = 255                     # a slot that is not a pattern (more than 14 tiles)
NO_PAIR = 0xFFFF                   # a pair of groups with more than 14 tiles
NO_HAND = 255                      # a tile count no number of declared sets fits

# ---- packed fields: ten 6-bit overlaps in one int ----
#
# Bit 5 of each field is a guard bit for the branch-free field-wise maximum.
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

Vector = tuple[int, ...]


def _vmax(x: int, y: int) -> int:
    g = ((x | _GUARDS) - y) & _GUARDS
    mask = g - (g >> (_W - 1))
    return (x & mask) | (y & (_LOWS ^ mask))


# ---- the eager suit table ----

def _half(digits: int, scale: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """(key, tiles, key steps of the tiles held) for every pattern of ``digits`` positions,
    in increasing key order; the leading position is the most significant base-5 digit."""
    out = []
    weights = [5 ** (digits - 1 - i) * scale for i in range(digits)]
    for counts in product(range(5), repeat=digits):
        key = sum(c * w for c, w in zip(counts, weights, strict=True))
        out.append((key, sum(counts), tuple(w for c, w in zip(counts, weights, strict=True)
                                            if c)))
    return out


def _suit_patterns() -> list[tuple[int, int, tuple[int, ...]]]:
    """Every suit pattern of at most 14 tiles as (key, tiles, steps), keys increasing."""
    low = _half(5, 1)          # tiles 5-9: the low five digits
    high = _half(4, 5 ** 5)    # tiles 1-4
    return [(hk + lk, hn + ln, hs + ls)
            for hk, hn, hs in high for lk, ln, ls in low if hn + ln <= 14]


def _target_masks() -> dict[int, int]:
    """Key -> feasibility bits (bit m: m sets, bit 5 + m: m sets and the pair) of every
    target: every multiset of m <= 4 sets (and a pair) within one suit, <= 4 copies."""
    sets = [(t, t, t) for t in range(SUIT_SIZE)] + [(t, t + 1, t + 2) for t in range(7)]
    weights = [5 ** (SUIT_SIZE - 1 - t) for t in range(SUIT_SIZE)]
    marks: dict[int, int] = {}
    for m in range(5):
        for combo in combinations_with_replacement(sets, m):
            c = [0] * SUIT_SIZE
            for block in combo:
                for t in block:
                    c[t] += 1
            if max(c) > 4:
                continue
            key = sum(n * w for n, w in zip(c, weights, strict=True))
            marks[key] = marks.get(key, 0) | 1 << m
            for t in range(SUIT_SIZE):
                if c[t] <= 2:
                    paired = key + 2 * weights[t]
                    marks[paired] = marks.get(paired, 0) | 1 << (5 + m)
    return marks


def _overlaps(patterns: list[tuple[int, int, tuple[int, ...]]]) -> list[int]:
    """Packed f_k (the best overlap with a target of each type) per key, as described in
    the module docstring."""
    mask = [0] * SUIT_PATTERNS
    for key, bits in _target_masks().items():
        mask[key] = bits
    for key, _, steps in reversed(patterns):
        bits = mask[key]
        if bits:
            for step in steps:
                mask[key - step] |= bits
    field_masks = [sum(_FULL << (_W * f) for f in range(_NFIELDS) if bits >> f & 1)
                   for bits in range(1 << _NFIELDS)]
    best_of = [0] * SUIT_PATTERNS
    guards, lows, ones = _GUARDS, _LOWS, _ONES
    for key, size, steps in patterns:
        best = 0
        for step in steps:  # _vmax inlined: this runs 2.4 million times
            y = best_of[key - step]
            g = ((best | guards) - y) & guards
            g -= g >> (_W - 1)
            best = (best & g) | (y & (lows ^ g))
        fm = field_masks[mask[key]]
        best_of[key] = (best & ~fm) | (size * ones & fm)
    return best_of


def _vector_of_overlaps(packed: int) -> Vector:
    f = [(packed >> (_W * k)) & _FULL for k in range(_NFIELDS)]
    return tuple([3 * m - f[m] for m in range(5)] + [3 * m + 2 - f[5 + m] for m in range(5)])


def suit_vectors(keys: Iterable[int] | None = None) -> dict[int, Vector]:
    """Base-5 key -> vector by the eager method, for ``keys`` or for every suit pattern
    (all 405,350: for checks; the tables keep only class ids)."""
    patterns = _suit_patterns()
    best_of = _overlaps(patterns)
    if keys is None:
        keys = [key for key, _, _ in patterns]
    return {key: _vector_of_overlaps(best_of[key]) for key in keys}


def suit_key(counts: Sequence[int]) -> int:
    """The base-5 key of a suit pattern (tile 1 the leading digit), as the tables use."""
    key = 0
    for c in counts:
        key = key * 5 + c
    return key


# ---- honours: no chows, so a tiny search per sorted shape ----

def honour_vector(h: Sequence[int]) -> Vector:
    """Fewest missing tiles for m sets (without / with the pair) among the honours."""
    # Each kind is a pong, the pair, or neither (not both: five copies).
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


def combine(a: Vector, b: Vector) -> Vector:
    """The vector of two groups taken together: a min-plus convolution over sets, with
    the pair in either group."""
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


# ---- all the tables ----

class Tables:
    """The built tables, in the compact form they are cached in.

    ``suit[key]``: class id of a suit pattern (base-5 key, first tile the leading digit),
    NO_CLASS for the slots of more than 14 tiles. ``honour[key]``: likewise an entry id
    for an honour pattern, entry i being class ``honour_entries[2 * i]`` with Thirteen
    Wonders code ``honour_entries[2 * i + 1]`` (kinds held + 16 if one is paired).
    ``xy[a * stride + b]``: the class of characters (suit class a) with circles (suit class
    b), ``zh[c * stride + h]`` of bamboo (suit class c) with honours (honour class h),
    NO_PAIR beyond 14 tiles. ``final[xy * n_zh + zh]``: 16 * declared sets + shanten + 1
    of the regular form, for the one number of declared sets the tile count allows;
    NO_HAND if none does.
    """

    __slots__ = ("final", "honour", "honour_entries", "n_xy", "n_zh", "stride", "suit", "xy",
                 "zh")

    def __init__(self, suit: bytes, honour: bytes, honour_entries: bytes, stride: int,
                 xy: Sequence[int], zh: Sequence[int], n_xy: int, n_zh: int,
                 final: bytes) -> None:
        self.suit, self.honour, self.honour_entries = suit, honour, honour_entries
        self.stride = stride
        self.xy, self.zh, self.n_xy, self.n_zh, self.final = xy, zh, n_xy, n_zh, final

    def payload(self) -> bytes:
        head = struct.pack("<IIIII", self.stride, self.n_xy, self.n_zh, len(self.final),
                           len(self.honour_entries))
        xy = struct.pack(f"<{len(self.xy)}H", *self.xy)
        zh = struct.pack(f"<{len(self.zh)}H", *self.zh)
        return (head + bytes(self.suit) + bytes(self.honour) + self.honour_entries + xy + zh
                + bytes(self.final))

    @classmethod
    def from_payload(cls, data: bytes) -> Tables:
        stride, n_xy, n_zh, n_final, n_entries = struct.unpack_from("<IIIII", data)
        sizes = (SUIT_PATTERNS, HONOUR_PATTERNS, n_entries, 2 * stride * stride,
                 2 * stride * stride, n_final)
        if (n_final != n_xy * n_zh or 20 + sum(sizes) != len(data) or not 0 < stride < 256
                or n_entries % 2):
            raise ValueError("inconsistent shanten table sizes")
        parts, at = [], 20
        for size in sizes:
            parts.append(data[at:at + size])
            at += size
        suit, honour, entries, xy, zh, final = parts
        pairs = stride * stride
        return cls(suit, honour, entries, stride, struct.unpack(f"<{pairs}H", xy),
                   struct.unpack(f"<{pairs}H", zh), n_xy, n_zh, final)


def build_tables() -> Tables:
    """Build every table from scratch (a second or two)."""
    patterns = _suit_patterns()
    best_of = _overlaps(patterns)
    suit = bytearray([NO_CLASS]) * SUIT_PATTERNS
    suit_ids: dict[tuple[int, int], int] = {}
    for key, size, _ in patterns:
        item = (best_of[key], size)
        cid = suit_ids.get(item)
        if cid is None:
            cid = suit_ids[item] = len(suit_ids)
        suit[key] = cid
    suit_info = [(_vector_of_overlaps(packed), size) for packed, size in suit_ids]

    # An honour pattern's entry is its class and its Thirteen Wonders code (kinds held +
    # 16 * paired), both fixed by its sorted counts.
    honour = bytearray([NO_CLASS]) * HONOUR_PATTERNS
    honour_ids: dict[tuple[Vector, int], int] = {}
    entry_ids: dict[tuple[int, int], int] = {}
    shapes: dict[tuple[int, ...], int] = {}
    for key, counts in enumerate(product(range(5), repeat=HONOURS)):
        size = sum(counts)
        if size > 14:
            continue
        shape = tuple(sorted(counts))
        eid = shapes.get(shape)
        if eid is None:
            item = (honour_vector(shape), size)
            cid = honour_ids.get(item)
            if cid is None:
                cid = honour_ids[item] = len(honour_ids)
            entry = (cid, HONOURS - shape.count(0) + 16 * (shape[-1] > 1))
            eid = entry_ids.get(entry)
            if eid is None:
                eid = entry_ids[entry] = len(entry_ids)
            shapes[shape] = eid
        honour[key] = eid
    honour_info = list(honour_ids)
    honour_entries = bytes(b for entry in entry_ids for b in entry)

    stride = max(len(suit_info), len(honour_info))
    if stride >= NO_CLASS:  # cannot happen; guards the one-byte class ids
        raise RuntimeError("shanten class table overflow")

    def pair_table(second: list[tuple[Vector, int]]) -> tuple[list[int], list[tuple[Vector,
                                                                                      int]]]:
        ids: dict[tuple[Vector, int], int] = {}
        table = [NO_PAIR] * (stride * stride)
        for a, (va, na) in enumerate(suit_info):
            for b, (vb, nb) in enumerate(second):
                if na + nb <= 14:
                    item = (combine(va, vb), na + nb)
                    cid = ids.get(item)
                    if cid is None:
                        cid = ids[item] = len(ids)
                    table[a * stride + b] = cid
        return table, list(ids)

    xy, xy_info = pair_table(suit_info)
    zh, zh_info = pair_table(honour_info)
    n_xy, n_zh = len(xy_info), len(zh_info)
    final = bytearray([NO_HAND]) * (n_xy * n_zh)
    for i, (v1, n1) in enumerate(xy_info):
        for j, (v2, n2) in enumerate(zh_info):
            n = n1 + n2
            if n > 14 or n % 3 == 0:
                continue
            melds = (14 - n) // 3
            k = 4 - melds  # sets still to make among the concealed tiles
            regular = min(min(v1[i2] + v2[5 + k - i2], v1[5 + i2] + v2[k - i2])
                          for i2 in range(k + 1)) - 1
            final[i * n_zh + j] = 16 * melds + regular + 1
    return Tables(bytes(suit), bytes(honour), honour_entries, stride, xy, zh, n_xy, n_zh,
                  bytes(final))


# ---- the disk cache ----

def cache_path() -> Path | None:
    """Where the tables are cached: ``$SGMAHJONG_CACHE_DIR``, else the XDG cache folder."""
    folder = os.environ.get(CACHE_ENV)
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME")
        if not base or not os.path.isabs(base):
            try:
                base = os.path.join(os.path.expanduser("~"), ".cache")
            except Exception:  # no home folder at all
                return None
        folder = os.path.join(base, "sgmahjong")
    return Path(folder) / f"shanten-tables-v{FORMAT_VERSION}.bin"


def read_cache(path: Path) -> Tables | None:
    """The tables cached at ``path``, or None on any problem (absent, stale, corrupt)."""
    try:
        data = path.read_bytes()
        magic, version, length, crc = _HEADER.unpack_from(data)
        body = data[_HEADER.size:]
        if (magic != _MAGIC or version != FORMAT_VERSION or length != len(body)
                or zlib.crc32(body) != crc):
            return None
        return Tables.from_payload(zlib.decompress(body))
    except Exception:  # anything at all: the caller rebuilds
        return None


def write_cache(path: Path, tables: Tables) -> bool:
    """Write the tables atomically (a temporary file, then a rename); False if it failed."""
    body = zlib.compress(tables.payload(), 6)
    data = _HEADER.pack(_MAGIC, FORMAT_VERSION, len(body), zlib.crc32(body)) + body
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        return True
    except Exception:  # unwritable folder, full disk...: keep the tables in memory only
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return False


def load_tables(path: Path | None = None) -> tuple[Tables, str]:
    """The tables, from the cache if it is sound, else built (and cached if possible).

    Returns the tables and where they came from: ``"cache"``, ``"built"`` (and cached) or
    ``"built, not cached"``.
    """
    if path is None:
        path = cache_path()
    if path is not None:
        tables = read_cache(path)
        if tables is not None:
            return tables, "cache"
    tables = build_tables()
    if path is not None and write_cache(path, tables):
        return tables, "built"
    return tables, "built, not cached"


# ---- the reference: the dynamic programme the tables replaced ----

def _block_vector(s: Sequence[int]) -> Vector:
    """Fewest missing tiles for m sets (without / with the pair) on a run of positions."""
    n = len(s)
    s = [*s, 0, 0]
    # State: (chow tiles already demanded at this position, at the next one) -> packed
    # best overlaps, biased by 16 so that a combination made unreachable by a shift
    # always loses. A new block is only tried where it can use a tile of the group:
    # blocks that use none are padding (added in _unpack).
    states = {(0, 0): _ONES * _BIAS}
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
                    if si <= a or a > 1:  # a pong must use a tile here and fit
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
                        nxt[key] = nv if old is None else _vmax(nv, old)
                        if c >= cmax:
                            break
                        c += 1
                        vc = (vc << _W) & _KEEP_AFTER_SET
                        if not vc:
                            break
        states = nxt
    best = states[(0, 0)]
    gains = [((best >> (_W * f)) & 31) - _BIAS for f in range(_NFIELDS)]
    out: list[int] = []
    run = -1
    for m in range(5):
        run = max(run, gains[m])
        out.append(3 * m - run)
    run = -1
    for m in range(5):
        run = max(run, gains[5 + m], gains[m])
        out.append(3 * m + 2 - run)
    return tuple(out)


_EMPTY_VECTOR = (0, 3, 6, 9, 12, 2, 5, 8, 11, 14)


def suit_vector_dp(s: Sequence[int]) -> Vector:
    """The reference: a suit's vector by dynamic programming (40-120 µs a pattern).

    The suit splits at every run of two or more empty positions (no set uses tiles on
    both sides); each piece, with up to two empty positions either side for its chows, is
    solved by the DP and the pieces combine like groups.
    """
    vec = _EMPTY_VECTOR
    i = 0
    while i < SUIT_SIZE:
        if not s[i]:
            i += 1
            continue
        j = i
        while True:
            if j + 1 < SUIT_SIZE and s[j + 1]:
                j += 1
            elif j + 2 < SUIT_SIZE and s[j + 2]:
                j += 2
            else:
                break
        left, right = min(i, 2), min(SUIT_SIZE - 1 - j, 2)
        vec = combine(vec, _block_vector([0] * left + list(s[i:j + 1]) + [0] * right))
        i = j + 1
    return vec
