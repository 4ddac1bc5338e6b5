"""The learning pages: the rules and tai pages say what each rule set does (all six presets
and a house-rule file), every tai-table example scores its pattern, the tile guide names
every tile, and no page talks of tai under rules that count none."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sgmahjong.hand import Hand
from sgmahjong.render.pages import (
    Bullets,
    Heading,
    Page,
    Para,
    Table,
    TileCards,
    TileRow,
    page,
    page_ids,
    pages,
)
from sgmahjong.render.tai_examples import EXAMPLES
from sgmahjong.rules.catalog import PATTERNS
from sgmahjong.rules.loading import PRESETS, load_rules
from sgmahjong.scoring.tai import score_hand
from sgmahjong.tiles import Tile

NOTATION = re.compile(r"\b[1-9][mpszfga]\b")


def section(p: Page, heading: str) -> str:
    """The text of the blocks under ``heading`` up to the next heading of that level."""
    out: list[str] = []
    inside = False
    for b in p.blocks:
        if isinstance(b, Heading):
            if inside and b.level <= 2:
                break
            inside = inside or b.text == heading
            continue
        if inside:
            out.append(Page("x", "", (b,)).text().split("\n", 1)[1])
    assert inside, f"no section {heading!r}"
    return "\n".join(out)


def table_rows(p: Page) -> list[tuple[str, ...]]:
    tables = [b for b in p.blocks if isinstance(b, Table) and b.caption.startswith("What a win")]
    return list(tables[0].rows) if tables else []


# ------------------------------------------------------------------ payments, by preset

STANDARD_ROWS = [("1", "2", "4", "4", "2"), ("2", "4", "8", "8", "4"),
                 ("3", "8", "16", "16", "8"), ("4", "16", "32", "32", "16"),
                 ("5 or more", "32", "64", "64", "32")]
"""RULES.md / seed 000: base 2^tai capped at 5; self-drawn 2× each, discarder 2×, others 1×."""
LIMIT_ROWS = [("1", "1", "2", "2", "1"), ("2", "2", "4", "4", "2"),
              ("3", "4", "8", "8", "4"), ("4", "8", "16", "16", "8"),
              ("5 or more", "16", "32", "32", "16")]
"""Seed 001's table: base 1-2-4-8-16."""
GARDEN_ROWS = [("1", "2", "4"), ("2", "4", "8"), ("3", "8", "16"), ("4", "16", "32"),
               ("5 or more", "32", "64")]
"""Seed 002: 1 tai is 2 points, doubling to 32 at 5; self-drawn scores double."""


@pytest.mark.parametrize(("preset", "rows"), [
    ("standard", STANDARD_ROWS), ("automatic", STANDARD_ROWS), ("menqing", STANDARD_ROWS),
    ("limit", LIMIT_ROWS), ("garden", GARDEN_ROWS), ("casual", [])])
def test_payment_table(preset: str, rows: list[tuple[str, ...]]) -> None:
    assert table_rows(page("rules", load_rules(preset))) == rows


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_page_states_each_rule(preset: str) -> None:
    rules = load_rules(preset)
    p = page("rules", rules)
    text = p.text()
    s = rules.scoring
    # minimum and cap
    if s.counts_tai:
        assert f"at least {s.minimum_tai} tai to win" in text
        assert f"stop at {s.tai_cap} tai" in text
    else:
        assert "Any complete hand wins" in text
    # limit hands and automatic wins, against the rule set
    if s.counts_tai:
        part = section(p, "Limit hands and automatic wins")
        limits = [pid for pid, r in s.patterns.items() if r.limit]
        first = part.splitlines()[0]
        for pid in PATTERNS:
            name = PATTERNS[pid].english
            assert (name in first) == (pid in limits), (pid, first)
        autos = [PATTERNS[a].english for a in s.automatic_wins]
        if autos:
            assert all(a in part for a in autos)
        else:
            assert "There are no automatic wins." in part
    # instant payouts
    part = section(p, "Instant payouts")
    inst = rules.instant
    if inst.enabled:
        assert f"a kong claimed from a discard: {inst.claimed_kong} points" in part
        assert ("a concealed kong:" in part) == (inst.concealed_kong > 0)
    else:
        assert "There are no instant payouts" in part
    # Bao and the fresh-tile threshold
    part = section(p, "Bao: paying for everyone")
    if rules.bao.cases:
        assert f"only {rules.bao.fresh_tile_max_remaining} tiles or fewer" in part
    else:
        assert "There is no Bao" in part
    # the wall, the banker, the match
    part = section(p, "Claims, the wall and the match")
    assert f"{rules.wall.end_tiles} tiles" in part
    assert ("dead wall" in part) == (rules.wall.replacement == "dead-wall")
    assert ("passes to the next player" in part) == (rules.match.banker_after_win == "passes")
    assert f"A full match is {rules.match.rounds} round" in part
    assert ("The round wind stays East." in part) == (rules.match.round_wind == "fixed-east")


def test_presets_differ_where_their_rules_do() -> None:
    """Facts read off the presets' sources, written out by hand."""
    std, menqing = page("rules", load_rules("standard")).text(), page(
        "rules", load_rules("menqing")).text()
    assert "only 3 tiles or fewer" in std and "only 5 tiles or fewer" in menqing
    assert "a concealed kong: 2 points" in menqing and "a concealed kong" not in std
    assert "the first of them in turn after the thrower wins" in std
    assert "they all win" in page("rules", load_rules("limit")).text()
    garden = page("rules", load_rules("garden")).text()
    assert "A quick game is 4 hands." in garden
    assert "A full match is 1 round, a round ending after 12 hands at most." in garden
    auto = page("rules", load_rules("automatic")).text()
    assert "Eight Flowers, Big Three Dragons and Big Four Winds" in auto


def test_a_house_rule_file_changes_the_page(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('extends = "standard"\nname = "our table"\n'
                    "[scoring]\nminimum_tai = 2\ntai_cap = 3\n"
                    "[instant]\nclaimed_kong = 3\n"
                    "[bao]\nfresh_tile_max_remaining = 6\n"
                    "[wall]\nend_tiles = 16\n", encoding="utf-8")
    rules = load_rules(str(path))
    p = page("rules", rules)
    text = p.text()
    assert "rules of this table: our table" in text
    assert "at least 2 tai to win" in text and "stop at 3 tai" in text
    assert table_rows(p) == [("2", "4", "8", "8", "4"), ("3 or more", "8", "16", "16", "8")]
    assert "a kong claimed from a discard: 3 points" in text
    assert "only 6 tiles or fewer" in text
    assert "When only 16 tiles are left" in text
    tai = page("tai", rules).text()
    assert "Big Four Winds | 大四喜 | 12 tai, paid as 3" in tai


# ------------------------------------------------------------------ the tai table

@pytest.mark.parametrize("preset", [p for p in PRESETS if load_rules(p).scoring.counts_tai])
def test_tai_table_lists_every_pattern_with_its_value(preset: str) -> None:
    rules = load_rules(preset)
    s = rules.scoring
    table = next(b for b in page("tai", rules).blocks if isinstance(b, Table))
    values = {row[0]: row[2] for row in table.rows}
    assert all(row[1] == PATTERNS[pid].chinese for row, pid in zip(
        table.rows, [p for p in PATTERNS if p in s.patterns], strict=True))
    assert len(values) == len(s.patterns)
    for pid, rule in s.patterns.items():
        value = values[PATTERNS[pid].english]
        if rule.limit:
            assert value.startswith(f"limit: {s.limit_tai} tai")
        elif rule.tai > s.tai_cap:
            assert value.startswith(f"{rule.tai} tai, paid as {s.tai_cap}")
        else:
            assert value.startswith(f"{rule.tai} tai")


def test_standard_tai_values_by_hand() -> None:
    table = next(b for b in page("tai", load_rules("standard")).blocks
                 if isinstance(b, Table))
    values = {r[0]: r[2] for r in table.rows}
    assert values["Dragon Pong"] == "1 tai"
    assert values["Ping Hu"] == "4 tai (instead of All Chow)"
    assert values["Big Four Winds"].startswith("12 tai, paid as 5")
    garden = {r[0]: r[2] for r in next(b for b in page("tai", load_rules("garden")).blocks
                                       if isinstance(b, Table)).rows}
    assert garden["Big Four Winds"] == "limit: 5 tai"


@pytest.mark.parametrize("preset", PRESETS)
def test_every_example_scores_its_pattern(preset: str) -> None:
    rules = load_rules(preset)
    if not rules.scoring.counts_tai:
        assert "tai" not in page_ids(rules)
        return
    for pid in rules.scoring.patterns:
        ex = EXAMPLES[pid]
        result = score_hand(ex.hand, ex.context(), rules)
        assert result.winning, (preset, pid, result.reason)
        ids = [i.id for i in result.items]
        if pid == "robbing-the-eighth" and rules.scoring.patterns[pid].limit:
            # both limit hands: the scorer names the first one it lists, same value
            assert result.is_limit and ids == ["eight-flowers"]
        else:
            assert pid in ids, (preset, pid, ids)


def test_examples_are_drawn_as_they_are_scored() -> None:
    rows = [b for b in page("tai", load_rules("standard")).blocks if isinstance(b, TileRow)]
    assert len(rows) == len(load_rules("standard").scoring.patterns)
    first = rows[0]   # Dragon Pong: the hand, the winning tile apart, the pong
    assert first.groups == (("1m", "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s"),
                            ("1m",), ("7z", "7z", "7z"))
    shown = [t for g in first.groups for t in g]
    assert sorted(shown) == sorted(t.text for t in Hand.parse(
        EXAMPLES["dragon-pong"].text).all_tiles())
    assert "South wins on 1 Characters, on a discard" in first.caption


# ------------------------------------------------------------------ the tile guide

def test_tile_guide_names_every_tile() -> None:
    p = page("tiles", load_rules("standard"))
    cards = [c for b in p.blocks if isinstance(b, TileCards) for c in b.cards]
    assert len(cards) == 46 and len({c.tile for c in cards}) == 46
    by = {c.tile: c.lines for c in cards}
    assert by["1z"] == ("East Wind", "東", "1z")
    assert by["8p"][0] == "8 Circles" and by["7z"][0] == "Red Dragon"
    assert by["2a"][0] == "Mouse"
    seats = next(b for b in p.blocks if isinstance(b, Table))
    assert seats.rows[1] == ("South", "Orchid", "Summer")
    assert seats.rows[3] == ("North", "Bamboo Flower", "Winter")
    assert "the Cat catches the Mouse, and the Rooster eats the Centipede" in p.text()


# ------------------------------------------------------------------ words

def _sentences(p: Page) -> list[str]:
    out: list[str] = []
    for b in p.blocks:
        if isinstance(b, Heading | Para):
            out.append(b.text)
        elif isinstance(b, Bullets):
            out.extend(b.items)
        elif isinstance(b, TileRow):
            out.append(b.caption)
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_sentences_name_tiles_and_count_right(preset: str) -> None:
    for p in pages(load_rules(preset)):
        for text in _sentences(p):
            assert not NOTATION.search(text), (p.id, text)
            assert not re.search(r"\b1 (points|tiles|rounds|hands)\b", text), text
            assert not re.search(r"\b([02-9]|\d\d+) (point|tile|round|hand)\b", text), text


def test_no_tai_where_none_are_counted() -> None:
    for p in pages(load_rules("casual")):
        assert not re.search(r"\btai\b", p.text(), re.IGNORECASE), p.id
    assert any(re.search(r"\btai\b", p.text()) for p in pages(load_rules("garden")))


def test_pages_as_json() -> None:
    data = page("tiles", load_rules("standard")).to_json()
    assert data["title"] == "Tile guide"
    cards = [b for b in data["blocks"] if b["type"] == "tilecards"]
    assert cards[0]["cards"][0] == {"tile": "1m", "lines": ["1 Characters", "一萬", "1m"]}
    assert Tile.M1.text == "1m"
