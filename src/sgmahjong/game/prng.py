"""The project's own seeded PRNG: xoshiro256** seeded by splitmix64, and a Fisher-Yates shuffle.

Written out here (not :mod:`random`) so that a seed gives the same wall on every Python
version and platform. Both generators are the public-domain reference algorithms of
Blackman and Vigna (https://prng.di.unimi.it/): ``splitmix64`` expands a 64-bit seed into
the 256-bit state of ``xoshiro256**``. Integers below ``n`` are drawn by rejection
(no modulo bias).

>>> rng = Xoshiro256(0)
>>> [rng.below(10) for _ in range(5)]
[4, 0, 9, 8, 1]
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Final, TypeVar

MASK64: Final = (1 << 64) - 1
T = TypeVar("T")


def splitmix64(state: int) -> tuple[int, int]:
    """One step of splitmix64: ``(output, next_state)`` for a 64-bit state."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31), state


def derive_seed(seed: int, index: int) -> int:
    """A 64-bit seed for the ``index``-th item (e.g. hand) of something seeded by ``seed``."""
    out, _ = splitmix64((seed * 0x2545F4914F6CDD1D + index) & MASK64)
    return out


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK64


class Xoshiro256:
    """xoshiro256** 1.0: a small, fast generator with a 256-bit state."""

    __slots__ = ("_s",)

    def __init__(self, seed: int) -> None:
        state = seed & MASK64
        s = []
        for _ in range(4):
            out, state = splitmix64(state)
            s.append(out)
        self._s = s

    def next64(self) -> int:
        """The next 64-bit output."""
        s = self._s
        result = (_rotl((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (``0 < n <= 2**64``), by rejection on masked bits."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        mask = (1 << (n - 1).bit_length()) - 1
        while True:
            v = self.next64() & mask
            if v < n:
                return v


def shuffle(items: MutableSequence[T], rng: Xoshiro256) -> None:
    """Fisher-Yates (Durstenfeld) shuffle in place: for i from the end, swap with j in [0, i]
    drawn by :meth:`Xoshiro256.below`. (The generator is inlined here: the same numbers,
    three times faster, since a wall is shuffled for every hand.)"""
    if _HALVES:
        rng._s = _shuffle_on_halves(items, rng._s)
        return
    s0, s1, s2, s3 = rng._s
    m = MASK64
    for i in range(len(items) - 1, 0, -1):
        mask = (1 << i.bit_length()) - 1   # below(i + 1): (n - 1).bit_length() with n = i + 1
        while True:
            x = (s1 * 5) & m
            v = ((((x << 7) | (x >> 57)) & m) * 9) & mask
            t = (s1 << 17) & m
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = ((s3 << 45) | (s3 >> 19)) & m
            if v <= i:
                break
        items[i], items[v] = items[v], items[i]
    rng._s = [s0, s1, s2, s3]


M32: Final = 0xFFFFFFFF
# Compiled (sgmahjong.fast), integers past 62 bits are Python objects again and 64-bit
# arithmetic is slower than in Python; on 32-bit halves it stays native. As Python the
# halves are slower, so each form runs where it is the fast one (a test checks they agree).
_HALVES: Final = not __file__.endswith(".py")


def _shuffle_on_halves(items: MutableSequence[T], state: list[int]) -> list[int]:
    """:func:`shuffle` with each 64-bit state word held as two 32-bit halves (``a`` the
    high, ``b`` the low one), for lists of fewer than 2**32 items; returns the generator's
    new state."""
    s0, s1, s2, s3 = state
    a0, b0, a1, b1 = s0 >> 32, s0 & M32, s1 >> 32, s1 & M32
    a2, b2, a3, b3 = s2 >> 32, s2 & M32, s3 >> 32, s3 & M32
    for i in range(len(items) - 1, 0, -1):
        mask = (1 << i.bit_length()) - 1
        while True:
            # x = s1 * 5, then (rotl(x, 7) * 9) & mask: only x's low word after the rotation
            # is needed, as the mask keeps fewer than 32 bits
            lo = b1 * 5
            xh = (a1 * 5 + (lo >> 32)) & M32
            v = (((((lo & M32) << 7) & M32) | (xh >> 25)) * 9) & mask
            th = ((a1 << 17) & M32) | (b1 >> 15)   # t = s1 << 17
            tl = (b1 << 17) & M32
            a2 ^= a0
            b2 ^= b0
            a3 ^= a1
            b3 ^= b1
            a1 ^= a2
            b1 ^= b2
            a0 ^= a3
            b0 ^= b3
            a2 ^= th
            b2 ^= tl
            # s3 = rotl(s3, 45): the halves swapped, then rotated by 13
            a3, b3 = ((b3 << 13) & M32) | (a3 >> 19), ((a3 << 13) & M32) | (b3 >> 19)
            if v <= i:
                break
        items[i], items[v] = items[v], items[i]
    return [a0 << 32 | b0, a1 << 32 | b1, a2 << 32 | b2, a3 << 32 | b3]
