"""Shanten numbers: the published test sets, worked examples, edge cases and properties.

Expected values come from the data files (``min(R, K)``: Singapore has no Seven Pairs),
from the rules worked by hand, or from an independent completeness check written here
(four sets and a pair, or Thirteen Wonders without declared sets).
"""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sgmahjong import Hand
from sgmahjong.analysis import shanten as shanten_module
from sgmahjong.analysis import shanten_tables as T
from sgmahjong.analysis.shanten import regular_shanten, shanten, thirteen_wonders_shanten
from sgmahjong.errors import HandError, SgmahjongError, TileCountError

try:  # a dev dependency, used only as an independent reference
    from mahjong.shanten import Shanten as MahjongShanten
except ImportError:  # pragma: no cover
    MahjongShanten = None

DATA_FILES = ("p_normal_10000.txt", "p_hon_10000.txt", "p_tin_10000.txt", "p_koku_10000.txt")
WONDERS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
PROPERTY = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def data_dir() -> Path:
    env = os.environ.get("SGMAHJONG_TESTDATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "shared" / "testdata" / "shanten"


def counts_of(text: str) -> list[int]:
    return Hand.parse(text).counts


# ---- an independent completeness check, straight from the rules ----

def _all_sets(c: list[int], i: int = 0) -> bool:
    while i < 34 and c[i] == 0:
        i += 1
    if i == 34:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _all_sets(c, i)
        c[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        ok = _all_sets(c, i)
        for k in (i, i + 1, i + 2):
            c[k] += 1
        if ok:
            return True
    return False


def is_complete(counts: list[int], melds: int) -> bool:
    """Four sets and a pair counting declared sets, or Thirteen Wonders with none."""
    c = list(counts)
    if sum(c) + 3 * melds != 14:
        return False
    for eye in range(34):
        if c[eye] >= 2:
            c[eye] -= 2
            ok = _all_sets(c)
            c[eye] += 2
            if ok:
                return True
    return (melds == 0 and all(c[t] for t in WONDERS)
            and sum(c[t] for t in WONDERS) == 14)


def completing_tiles(counts: list[int], melds: int) -> set[int]:
    """Tiles that complete a 13-tile-form hand; a fifth copy cannot be drawn."""
    out = set()
    for t in range(34):
        if counts[t] < 4:
            c = list(counts)
            c[t] += 1
            if is_complete(c, melds):
                out.add(t)
    return out


# ---- the published data ----

@pytest.mark.parametrize("name", DATA_FILES)
def test_every_line_of_the_published_sets_gives_min_of_regular_and_wonders(name: str) -> None:
    path = data_dir() / name
    if not path.is_file():
        pytest.skip(f"shanten test data not found at {path} (set SGMAHJONG_TESTDATA to its "
                    "folder)")
    bad = []
    lines = path.read_text().splitlines()
    assert len(lines) == 10000
    for number, line in enumerate(lines, start=1):
        v = [int(x) for x in line.split()]
        c = [0] * 34
        for t in v[:14]:
            c[t] += 1
        regular, wonders = v[14], v[15]
        got = (shanten(c), regular_shanten(c), thirteen_wonders_shanten(c))
        if got != (min(regular, wonders), regular, wonders):
            bad.append((number, line, got))
    assert not bad, f"{len(bad)} mismatches, first: {bad[:3]}"


# ---- worked examples ----

@pytest.mark.parametrize(("hand", "melds", "expected"), [
    ("123m456p789s11z234m", 0, -1),      # four chows and a pair
    ("123m456p789s11z23m", 0, 0),        # waiting on 1m or 4m
    ("19m19p19s1234567z", 0, 0),         # Thirteen Wonders, thirteen-sided wait
    ("19m19p19s1234567z7z", 0, -1),      # Thirteen Wonders complete
    ("19m19p19s123456z6z", 0, 0),        # twelve of the thirteen and a pair: waits on 7z
    # Nothing connects: regular needs 2 per set and 1 for the pair (9 - 1 = 8); six
    # distinct orphans (1m 9s 1234z) leave Thirteen Wonders 13 - 6 = 7 away.
    ("147m258p369s1234z", 0, 7),
    ("1112345678999m", 0, 0),            # nine gates: waits on every 1m-9m
    ("11123455678999m", 0, -1),          # 111 234 55 678 999
])
def test_worked_examples(hand: str, melds: int, expected: int) -> None:
    assert shanten(counts_of(hand), melds) == expected


def test_fourteen_tiles_one_discard_from_ready_count_as_ready() -> None:
    # 123m 23m 456p 789s 11z + 9p: discarding 9p leaves 23m waiting on 1m/4m.
    assert shanten(counts_of("12233m4569p789s11z")) == 0


def test_thirteen_wonders_only_counts_without_declared_sets() -> None:
    # Ten distinct orphans with one declared set: Wonders (13 - 10 = 3) is out of reach,
    # and the regular form needs 2 tiles for each of 3 sets and 1 for the pair: 7 - 1.
    c = counts_of("19m19p19s1234z")
    assert shanten(c, 1) == regular_shanten(c, 1) == 6


def test_regular_and_wonders_values_for_the_same_hand() -> None:
    c = counts_of("19m19p19s1234567z")
    # Regular: 13 single tiles, each set needs 2 more, the pair 1 more: 9 tiles, minus one.
    assert regular_shanten(c) == 8
    assert thirteen_wonders_shanten(c) == 0
    assert shanten(c) == 0


# ---- the fifth-copy edge case ----

def test_a_hand_waiting_only_on_a_fifth_copy_is_not_ready() -> None:
    # 111m + 1m, 234p, 567s, 888s: the only completing tile would be a fifth 1m.
    c = counts_of("1111m234p567s888s")
    assert completing_tiles(c, 0) == set()
    assert shanten(c) == 1
    assert regular_shanten(c) == 1


def test_the_same_shape_with_a_drawable_wait_is_ready() -> None:
    # Swap one 1m for 2m: 111m + 2m (tanki on 2m) or 11m + 12m (3m) are real waits.
    c = counts_of("1112m234p567s888s")
    assert completing_tiles(c, 0) == {1, 2}
    assert shanten(c) == 0


@pytest.mark.parametrize("hand", ["123m456p789s1111z", "1111z234p567s888s"])
def test_four_honours_with_a_single_wait_on_the_fifth_are_not_ready(hand: str) -> None:
    assert shanten(counts_of(hand)) == 1


def test_fifth_copy_with_declared_sets() -> None:
    # Concealed 1111m with three declared sets: 111m + 1m waits only on a fifth 1m.
    hand = Hand.parse("1111m, pong 222z, chow 234p, chow 567s")
    assert hand.size == 13
    assert shanten(hand.counts, len(hand.melds)) == 1


# ---- declared sets ----

@pytest.mark.parametrize(("hand", "expected"), [
    ("2m, pong 111z, pong 222z, chow 789s, kong 5555p", 0),    # single tile: tanki
    ("22m, pong 111z, pong 222z, chow 789s, kong 5555p", -1),  # the pair completes it
    ("23m, pong 111z, pong 222z, chow 789s, kong 5555p", 0),   # after a draw: discard one
    ("23m55p, pong 111z, pong 222z, chow 789s", 0),            # 23m waits 1m/4m, eye 55p
    ("24m58p, pong 111z, pong 222z, chow 789s", 1),            # no pair and no set
    ("123m456p1z, pong 777z, concealed-kong 1111s, bonus 1a", 0),
])
def test_hands_with_declared_sets(hand: str, expected: int) -> None:
    h = Hand.parse(hand)
    assert shanten(h.counts, len(h.melds)) == expected


def test_bonus_tiles_are_not_part_of_the_analysis() -> None:
    with_bonus = Hand.parse("123m456p789s1122z, bonus 1f2g3a")
    assert with_bonus.counts == Hand.parse("123m456p789s1122z").counts
    assert shanten(with_bonus.counts) == 0


# ---- bad input ----

@pytest.mark.parametrize(("counts", "melds", "error"), [
    ([0] * 33, 0, HandError),                      # too short
    ([0] * 35, 0, HandError),                      # too long
    ([1] * 13 + [0] * 21, 1, HandError),           # 13 tiles cannot go with a declared set
    ([1] * 13 + [0] * 21, 5, HandError),           # at most four declared sets
    ([1] * 13 + [0] * 21, -1, HandError),
    ([5] + [1] * 8 + [0] * 25, 0, TileCountError),  # five copies of 1m
    ([-1] + [1] * 14 + [0] * 19, 0, HandError),
    ([200] + [0] * 33, 0, TileCountError),
    (["1"] * 13 + [0] * 21, 0, HandError),
    ([1.0] * 13 + [0] * 21, 0, HandError),
])
def test_bad_input_raises_a_library_error(counts: list, melds: int, error: type) -> None:
    for fn in (shanten, regular_shanten):
        with pytest.raises(error):
            fn(counts, melds)


def test_bad_input_is_also_caught_once_the_tables_are_warm() -> None:
    good = counts_of("123m456p789s1122z")
    assert shanten(good) == 0
    with pytest.raises(HandError):
        shanten(good, 1)
    with pytest.raises(HandError):
        shanten(good, "0")  # type: ignore[arg-type]
    with pytest.raises(SgmahjongError):
        thirteen_wonders_shanten(good[:-1])


# ---- properties ----

SUIT_SETS = [("chow", s * 9 + r) for s in range(3) for r in range(7)]
ALL_SETS = SUIT_SETS + [("pong", t) for t in range(34)]


def set_tiles(kind: str, t: int) -> list[int]:
    return [t, t + 1, t + 2] if kind == "chow" else [t, t, t]


@st.composite
def complete_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    """A winning hand as (concealed counts, declared sets): four sets and a pair.

    Half of the draws keep to one suit (plus honours) so that long connected shapes
    with many readings turn up.
    """
    if draw(st.booleans()):
        suit = draw(st.integers(0, 2))
        kinds = [t for t in range(34) if t // 9 == suit or t >= 27]
        pool = [s for s in ALL_SETS if s[1] in kinds]
    else:
        kinds, pool = list(range(34)), ALL_SETS
    sets = draw(st.lists(st.sampled_from(pool), min_size=4, max_size=4))
    eye = draw(st.sampled_from(kinds))
    tiles = [eye, eye] + [t for s in sets for t in set_tiles(*s)]
    assume(max(Counter(tiles).values()) <= 4)
    melds = draw(st.integers(0, 4))
    # The declared sets are simply taken out of the concealed tiles.
    concealed = [eye, eye] + [t for s in sets[melds:] for t in set_tiles(*s)]
    c = [0] * 34
    for t in concealed:
        c[t] += 1
    return c, melds


@st.composite
def near_complete_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    """A 13-tile-form hand: a winning hand less one tile, then up to three exchanges."""
    c, melds = draw(complete_hands())
    held = [t for t in range(34) for _ in range(c[t])]
    c[draw(st.sampled_from(held))] -= 1
    for _ in range(draw(st.integers(0, 3))):
        held = [t for t in range(34) for _ in range(c[t])]
        c[draw(st.sampled_from(held))] -= 1
        new = draw(st.sampled_from([t for t in range(34) if c[t] < 4]))
        c[new] += 1
    return c, melds


@PROPERTY
@given(complete_hands())
def test_a_complete_hand_has_shanten_minus_one(hand: tuple[list[int], int]) -> None:
    c, melds = hand
    assert is_complete(c, melds)
    assert shanten(c, melds) == -1
    assert regular_shanten(c, melds) == -1


@PROPERTY
@given(complete_hands(), st.data())
def test_a_complete_hand_less_one_tile_is_ready(hand: tuple[list[int], int],
                                                data: st.DataObject) -> None:
    c, melds = hand
    t = data.draw(st.sampled_from([k for k in range(34) if c[k]]))
    c[t] -= 1
    # The removed tile completes it again and can be drawn (the hand now holds < 4).
    assert shanten(c, melds) == 0


@PROPERTY
@given(near_complete_hands())
def test_ready_exactly_when_some_drawable_tile_completes(hand: tuple[list[int], int]) -> None:
    c, melds = hand
    value = shanten(c, melds)
    assert value >= 0
    assert (value == 0) == bool(completing_tiles(c, melds))


@PROPERTY
@given(near_complete_hands())
def test_a_drawn_tile_lowers_shanten_by_at_most_one(hand: tuple[list[int], int]) -> None:
    c, melds = hand
    before = shanten(c, melds)
    for t in range(34):
        if c[t] < 4:
            c[t] += 1
            # Discarding the drawn tile restores the hand, so it cannot get worse.
            assert shanten(c, melds) in (before, before - 1)
            c[t] -= 1


@PROPERTY
@given(near_complete_hands(), st.data())
def test_a_fourteen_tile_hand_is_its_best_discard(hand: tuple[list[int], int],
                                                  data: st.DataObject) -> None:
    c, melds = hand
    t = data.draw(st.sampled_from([k for k in range(34) if c[k] < 4]))
    c[t] += 1
    after_draw = shanten(c, melds)
    best = min(shanten([n - (k == d) for k, n in enumerate(c)], melds)
               for d in range(34) if c[d])
    if is_complete(c, melds):
        assert after_draw == -1
        assert best == 0
    else:
        assert after_draw == best


@pytest.mark.skipif(MahjongShanten is None, reason="the mahjong package is not installed")
@PROPERTY
@given(near_complete_hands())
def test_agrees_with_the_mahjong_package(hand: tuple[list[int], int]) -> None:
    c, melds = hand
    # The mahjong package infers declared sets from the tile count, as here.
    assert MahjongShanten is not None
    reference = MahjongShanten().calculate_shanten(c, use_chiitoitsu=False)
    assert shanten(c, melds) == reference


@PROPERTY
@given(st.lists(st.sampled_from(WONDERS), min_size=13, max_size=14))
def test_thirteen_wonders_shanten_counts_distinct_orphans_and_a_pair(tiles: list[int]) -> None:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    assume(max(c) <= 4)
    distinct = sum(1 for t in WONDERS if c[t])
    paired = any(c[t] >= 2 for t in WONDERS)
    assert thirteen_wonders_shanten(c) == 13 - distinct - paired
    assert shanten(c) <= thirteen_wonders_shanten(c)


# ---- the tables: built eagerly, equal to the reference DP, cached on disk ----



@pytest.fixture(scope="module")
def built() -> T.Tables:
    return T.build_tables()


def _sample_suit_patterns(n: int, seed: int) -> list[tuple[int, ...]]:
    """Seeded suit patterns (counts 0-4, at most 14 tiles), dense and sparse ones alike,
    plus the extremes."""
    rnd = random.Random(seed)
    out = {(0,) * 9, (4, 4, 4, 2, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 2, 4, 4, 4),
           (3, 1, 1, 1, 1, 1, 1, 1, 3), (1, 1, 1, 2, 2, 2, 3, 1, 1), (4, 0, 0, 0, 4, 0, 0, 0, 4)}
    while len(out) < n:
        size = rnd.randint(0, 14)
        c = [0] * 9
        for _ in range(size):
            t = rnd.randrange(9)
            if c[t] < 4:
                c[t] += 1
        out.add(tuple(c))
    return sorted(out)


def test_the_eager_suit_table_equals_the_dynamic_programme(built: T.Tables) -> None:
    # All 405,350 patterns agree (checked once in full, a minute of DP); the tests check a
    # seeded sample, and that every class holds one vector and one tile count.
    sample = _sample_suit_patterns(3000, seed=20261129)
    keys = [T.suit_key(c) for c in sample]
    eager = T.suit_vectors(keys)
    by_class: dict[int, tuple[tuple[int, ...], int]] = {}
    for c, key in zip(sample, keys, strict=True):
        reference = T.suit_vector_dp(c)
        assert eager[key] == reference, c
        cid = built.suit[key]
        assert cid != T.NO_CLASS
        assert by_class.setdefault(cid, (reference, sum(c))) == (reference, sum(c)), c


def test_honour_entries_follow_the_sorted_counts(built: T.Tables) -> None:
    vectors: dict[tuple[int, ...], tuple[int, ...]] = {}
    by_entry: dict[int, tuple[tuple[int, ...], int, int]] = {}
    for key, counts in enumerate(itertools.product(range(5), repeat=7)):
        eid = built.honour[key]
        if sum(counts) > 14:
            assert eid == T.NO_CLASS
            continue
        code = 7 - counts.count(0) + 16 * (max(counts) > 1)
        assert built.honour_entries[2 * eid + 1] == code
        shape = tuple(sorted(counts))
        if shape not in vectors:
            vectors[shape] = T.honour_vector(shape)
        item = (vectors[shape], sum(counts), built.honour_entries[2 * eid])
        assert by_entry.setdefault(eid, item) == item


def test_slots_over_fourteen_tiles_have_no_class(built: T.Tables) -> None:
    assert built.suit[T.suit_key((4, 4, 4, 3, 0, 0, 0, 0, 0))] == T.NO_CLASS
    assert built.suit[T.suit_key((4, 4, 4, 2, 0, 0, 0, 0, 0))] != T.NO_CLASS
    assert sum(1 for cid in built.suit if cid != T.NO_CLASS) == 405_350


def test_the_cache_round_trips(tmp_path: Path, built: T.Tables) -> None:
    path = tmp_path / "t.bin"
    assert T.write_cache(path, built)
    loaded = T.read_cache(path)
    assert loaded is not None
    assert loaded.payload() == built.payload()
    assert [p.name for p in tmp_path.iterdir()] == ["t.bin"]  # no temporary file left


@pytest.mark.parametrize("damage", ["absent", "empty", "truncated", "flipped byte",
                                    "wrong magic", "old version", "garbage"])
def test_a_bad_or_absent_cache_file_is_rebuilt(tmp_path: Path, built: T.Tables,
                                               monkeypatch: pytest.MonkeyPatch,
                                               damage: str) -> None:
    path = tmp_path / "t.bin"
    T.write_cache(path, built)
    data = bytearray(path.read_bytes())
    if damage == "absent":
        path.unlink()
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "truncated":
        path.write_bytes(data[:len(data) // 2])
    elif damage == "flipped byte":
        data[len(data) // 2] ^= 0x40
        path.write_bytes(data)
    elif damage == "wrong magic":
        path.write_bytes(b"X" + data[1:])
    elif damage == "old version":
        data[8] ^= 0xFF
        path.write_bytes(data)
    else:
        path.write_bytes(os.urandom(5000))
    assert T.read_cache(path) is None
    builds = []

    def build() -> T.Tables:
        builds.append(1)
        return built

    monkeypatch.setattr(T, "build_tables", build)
    tables, source = T.load_tables(path)
    assert (source, len(builds)) == ("built", 1)
    assert tables.payload() == built.payload()
    # ...and rewritten, so the next load reads it.
    assert T.load_tables(path)[1] == "cache"
    assert len(builds) == 1


def test_an_unwritable_cache_folder_only_costs_a_build(tmp_path: Path, built: T.Tables,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setattr(T, "build_tables", lambda: built)
    tables, source = T.load_tables(blocker / "sub" / "t.bin")
    assert source == "built, not cached"
    assert tables is built


def test_the_cache_folder_comes_from_the_environment(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(T.CACHE_ENV, str(tmp_path / "mine"))
    assert T.cache_path() == tmp_path / "mine" / f"shanten-tables-v{T.FORMAT_VERSION}.bin"
    monkeypatch.delenv(T.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    path = T.cache_path()
    assert path is not None and path.parent == tmp_path / "xdg" / "sgmahjong"


def test_the_call_path_loads_builds_and_reloads_the_tables(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(T.CACHE_ENV, str(tmp_path))
    hands = [counts_of("123m456p789s11z234m"), counts_of("19m19p19s1234567z"),
             counts_of("1112345678999m"), counts_of("147m258p369s1234z")]
    expected = [-1, 0, 0, 7]
    try:
        shanten_module.clear_caches(tables=True)
        assert [shanten(c) for c in hands] == expected  # built on the first call
        assert shanten_module.prepare_tables()["source"] == "built"
        assert T.cache_path() is not None and T.cache_path().is_file()  # type: ignore[union-attr]
        shanten_module.clear_caches(tables=True)
        assert [shanten(c) for c in hands] == expected
        assert shanten_module.prepare_tables()["source"] == "cache"
        # A corrupt cache under the call path: rebuilt, same answers.
        T.cache_path().write_bytes(b"\0" * 100)  # type: ignore[union-attr]
        shanten_module.clear_caches(tables=True)
        assert [shanten(c) for c in hands] == expected
        assert shanten_module.prepare_tables()["source"] == "built"
        # Forgetting the group patterns only costs meeting them again.
        shanten_module.clear_caches()
        assert [shanten(c) for c in hands] == expected
        assert [regular_shanten(c, 0) for c in hands[:1]] == [-1]
    finally:
        shanten_module.clear_caches(tables=True)


def test_importing_the_package_builds_and_loads_nothing(tmp_path: Path) -> None:
    code = ("import sgmahjong, sgmahjong.analysis.shanten as s, sgmahjong.analysis.useful; "
            "assert not s._FINAL and not s._LOW")
    env = {**os.environ, T.CACHE_ENV: str(tmp_path)}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    assert list(tmp_path.iterdir()) == []
