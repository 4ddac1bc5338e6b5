"""The learning pages: the rules and tai pages say what each rule set does (all six presets
and a house-rule file), every tai-table example scores its pattern, the tile guide names
every tile, and no page talks of tai under rules that count none."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sgmahjong.english import tile_name
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
from sgmahjong.render.tai_examples import EXAMPLES, HONOURS_ONLY, TaiExample
from sgmahjong.rules.catalog import PATTERNS
from sgmahjong.rules.loading import PRESETS, load_rules
from sgmahjong.rules.model import Ruleset
from sgmahjong.scoring.tai import ScoreResult, score_hand
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
    # one per pattern, and a hand of honours only beside Full Colour's
    assert len(rows) == len(load_rules("standard").scoring.patterns) + 1
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


# ------------------------------------------------------------------ RULES.md, row by row

# RULES.md "Where the presets differ", the rows the pages state, written out by hand: the
# tests below check that each preset's Ruleset says the same, then check the pages against
# the Ruleset's fields, so a house-rule file is held to the same facts.
HONOURS_ONLY_ROW = {"standard": ("full-colour", 4), "limit": ("all-honours", "limit"),
                    "garden": ("all-honours", "limit"), "automatic": ("all-honours", 4),
                    "menqing": ("full-colour", 4)}
"""Row "honours only": counts as Full Colour 4 / limit hand 5 / All Honours 4."""
WALL_ROW = {"standard": "same-wall", "limit": "dead-wall", "casual": "dead-wall",
            "garden": "same-wall", "automatic": "same-wall", "menqing": "same-wall"}
"""Row "replacement draws come from, and the end of the wall"."""
SEVERAL_WINNERS_ROW = {"standard": "nearest", "limit": "all", "casual": "all",
                       "garden": "nearest", "automatic": "nearest", "menqing": "nearest"}
"""Row "several players can win on one discard"."""
TIMES = {1: "once", 2: "twice"}


def _lines(text: str, start: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(start)]


@pytest.mark.parametrize("preset", PRESETS)
def test_the_presets_are_rules_md_s_table(preset: str) -> None:
    rules = load_rules(preset)
    assert rules.wall.replacement == WALL_ROW[preset]
    assert rules.payments.multiple_winners == SEVERAL_WINNERS_ROW[preset]
    assert rules.claims.passed_claim                  # "on" under every preset
    if rules.scoring.counts_tai:
        pid, value = HONOURS_ONLY_ROW[preset]
        rule = rules.scoring.patterns[pid]
        assert (rule.limit if value == "limit" else rule.tai == value)
        assert rules.scoring.honours_only_as_full_colour == (pid == "full-colour")
        # and the scorer counts a hand of honours only that way
        ex = HONOURS_ONLY
        result = score_hand(ex.hand, ex.context(), rules)
        assert pid in [i.id for i in result.items] or (value == "limit" and result.is_limit)


def _honours_only_counts_as_full_colour(rules: Ruleset) -> bool:
    s = rules.scoring
    return (s.honours_only_as_full_colour and "full-colour" in s.patterns
            and not s.patterns["full-colour"].limit)


@pytest.mark.parametrize("preset", [p for p in PRESETS if load_rules(p).scoring.counts_tai])
def test_a_hand_of_honours_only_is_said_as_the_scorer_counts_it(preset: str) -> None:
    rules = load_rules(preset)
    s = rules.scoring
    text = page("rules", rules).text()
    unscored = _lines(text, "Not scored at this table:")
    tai = page("tai", rules)
    row = {r[0]: r[2] for b in tai.blocks if isinstance(b, Table) for r in b.rows}
    result = score_hand(HONOURS_ONLY.hand, HONOURS_ONLY.context(), rules)
    if _honours_only_counts_as_full_colour(rules):
        value = s.patterns["full-colour"].tai
        assert "full-colour" in [i.id for i in result.items]      # what the scorer does
        assert not any("All Honours" in line for line in unscored), unscored
        assert (f"A hand of honours only counts as Full Colour: {value} tai."
                in text.splitlines())
        assert row["Full Colour"].startswith(f"{value} tai")
        assert "honours only" in row["Full Colour"]
        # and the Full Colour example shows such a hand, scored as Full Colour
        shown = _examples_shown(tai)["full-colour"]
        assert len(shown) == 2 and _tiles(shown[1]) == _tiles_of(HONOURS_ONLY)
        assert "Full Colour 4" in shown[1].caption
    else:
        assert "honours only" not in row.get("Full Colour", "")
        assert ("All Honours" in row) == ("all-honours" in s.patterns)
        assert any("All Honours" in line for line in unscored) == ("all-honours" not in s.patterns)


def test_honours_only_in_standard_by_hand() -> None:
    """RULES.md: under `standard` an honours-only hand counts as Full Colour, 4 tai."""
    std = load_rules("standard")
    text = page("rules", std).text()
    assert "All Honours" not in text
    assert "A hand of honours only counts as Full Colour: 4 tai." in text
    row = {r[0]: r[2] for b in page("tai", std).blocks if isinstance(b, Table) for r in b.rows}
    assert row["Full Colour"] == "4 tai (also a hand of honours only)"


# ------------------------------------------------------------------ the examples' captions

def _tiles(row: TileRow) -> list[str]:
    return sorted(t for g in row.groups for t in g)


def _tiles_of(ex: TaiExample) -> list[str]:
    return sorted(t.text for t in ex.hand.all_tiles())


def _examples_shown(p: Page) -> dict[str, list[TileRow]]:
    """The tile rows of the tai page under each pattern's heading."""
    by_name = {n.english: pid for pid, n in PATTERNS.items()}
    out: dict[str, list[TileRow]] = {}
    current = None
    for b in p.blocks:
        if isinstance(b, Heading) and b.level == 3:
            current = by_name[b.text]
            out[current] = []
        elif isinstance(b, TileRow):
            assert current is not None
            out[current].append(b)
    return out


SCORES = re.compile(r"It scores (\d+) tai(?:, counted as (\d+))?(, a limit hand)?: ([^.]+)\.")


def _parts(result: ScoreResult) -> list[str]:
    return [f"{i.name} {i.tai // i.count} × {i.count}" if i.count > 1 else f"{i.name} {i.tai}"
            for i in result.items]


@pytest.mark.parametrize("preset", [p for p in PRESETS if load_rules(p).scoring.counts_tai])
def test_each_example_is_captioned_with_what_it_scores(preset: str) -> None:
    rules = load_rules(preset)
    s = rules.scoring
    shown = _examples_shown(page("tai", rules))
    assert list(shown) == [p for p in PATTERNS if p in s.patterns]
    for pid, rows in shown.items():
        examples = [EXAMPLES[pid]]
        if pid == "full-colour" and _honours_only_counts_as_full_colour(rules):
            examples.append(HONOURS_ONLY)
        assert len(rows) == len(examples)
        for row, ex in zip(rows, examples, strict=True):
            assert _tiles(row) == _tiles_of(ex)
            result = score_hand(ex.hand, ex.context(), rules)
            assert result.winning
            how = "self-drawn" if ex.self_drawn else "on a discard"
            assert f"wins on {tile_name(ex.win_tile)}, {how}" in row.caption
            m = SCORES.search(row.caption)
            assert m, (pid, row.caption)
            total, counted, limit, parts = m.groups()
            assert int(total) == result.raw_tai, (pid, row.caption)
            assert (counted is not None) == (result.raw_tai > result.tai)
            if counted is not None:
                assert int(counted) == result.tai == s.tai_cap
            assert bool(limit) == result.is_limit
            if result.is_limit:
                assert parts == result.items[0].name and result.raw_tai == s.limit_tai
            else:
                assert parts.split(", ") == _parts(result), (pid, row.caption)
                # the parts add up to the total the caption gives
                values = [int(x) * int(n or 1) for x, n in
                          re.findall(r" (\d+)(?: × (\d+))?(?:,|$)", parts)]
                assert sum(values) == int(total), (pid, row.caption)


def test_little_four_winds_by_hand() -> None:
    """`standard`: Little Four Winds is 4 for the winds; with a chow of one suit beside
    them the hand is Half Colour too (2): 6 raw, counted as the cap of 5."""
    shown = _examples_shown(page("tai", load_rules("standard")))["little-four-winds"]
    caption = shown[0].caption
    assert "It scores 6 tai, counted as 5: Half Colour 2, Little Four Winds 4." in caption
    assert "Little Four Winds: 4 tai" not in caption


@pytest.mark.parametrize("preset", [p for p in PRESETS if load_rules(p).scoring.counts_tai])
def test_the_last_tile_example_is_one_the_rules_allow(preset: str) -> None:
    """RULES.md: where replacements come from the same wall, no discard follows the final
    playable tile: a win on it is self-drawn."""
    rules = load_rules(preset)
    if "last-tile" not in rules.scoring.patterns:
        return
    (row,) = _examples_shown(page("tai", rules))["last-tile"]
    if rules.wall.replacement == "same-wall":
        assert "self-drawn" in row.caption and "on a discard" not in row.caption
        assert EXAMPLES["last-tile"].self_drawn


def test_an_example_below_the_minimum_says_so(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('extends = "standard"\nname = "two tai"\n[scoring]\nminimum_tai = 2\n',
                    encoding="utf-8")
    rules = load_rules(str(path))
    (row,) = _examples_shown(page("tai", rules))["dragon-pong"]
    result = score_hand(EXAMPLES["dragon-pong"].hand, EXAMPLES["dragon-pong"].context(), rules)
    assert not result.winning and result.raw_tai == 1
    assert "It is worth 1 tai (Dragon Pong 1), below the minimum of 2 here" in row.caption
    assert "It scores" not in row.caption


# ------------------------------------------------------------------ claims, the wall, winners

def _claims_part(rules: Ruleset) -> str:
    return section(page("rules", rules), "Claims, the wall and the match")


def _check_wall_and_claims(rules: Ruleset) -> None:
    part = _claims_part(rules)
    n = rules.wall.end_tiles
    if rules.claims.passed_claim:
        assert ("you cannot win on or pong another copy of it until you next draw a tile "
                "or declare a set.") in part
    assert "next turn" not in part
    final = (f"The final playable tile (the draw that leaves {n}) may still win, make a kong "
             "or complete a set of bonus tiles, but no replacement tile is drawn for it and "
             "no tile is thrown after it.")
    dead = ("A kong or a bonus tile on the last tile of the live wall still gets its "
            "replacement. The hand is drawn when a tile is due and the live wall is empty, "
            "or when a replacement is due and the dead wall is empty.")
    if rules.wall.replacement == "same-wall":
        assert final in part and "dead wall" not in part
    else:
        assert dead in part and f"The last {n} tiles of the wall are a dead wall" in part
        assert "no tile is thrown after it" not in part


def _check_several_winners(rules: Ruleset) -> None:
    p = rules.payments
    text = section(page("rules", rules), "Winning and what a win pays")
    only_losers = (f"Only the losers pay: the thrower pays each winner "
                   f"{TIMES.get(p.discarder_pays, f'{p.discarder_pays} times')} the base of "
                   f"that winner's hand, each other player who did not win pays each winner "
                   f"{TIMES.get(p.others_pay, f'{p.others_pay} times')} that base, and "
                   "winners pay each other nothing.")
    if p.multiple_winners == "all":
        assert "When several players can win on the same discard, they all win." in text
        assert (only_losers in text) == (p.scheme == "table"), text
    else:
        assert "the first of them in turn after the thrower wins." in text
        assert "Only the losers pay" not in text


@pytest.mark.parametrize("preset", PRESETS)
def test_claims_the_wall_and_several_winners_as_rules_md_says(preset: str) -> None:
    rules = load_rules(preset)
    _check_wall_and_claims(rules)
    _check_several_winners(rules)


def test_limit_s_several_winners_by_hand() -> None:
    """RULES.md, `limit`: the discarder pays each winner 2×base of that winner's hand, a
    non-winning player 1×base, winners pay each other nothing."""
    text = page("rules", load_rules("limit")).text()
    assert ("Only the losers pay: the thrower pays each winner twice the base of that "
            "winner's hand, each other player who did not win pays each winner once that "
            "base, and winners pay each other nothing.") in text
    std = page("rules", load_rules("standard")).text()
    assert "no tile is thrown after it" in std and "the dead wall is empty" not in std
    assert "the dead wall is empty" in page("rules", load_rules("casual")).text()


@pytest.mark.parametrize(("base", "house"), [
    ("standard", '[payments]\nmultiple_winners = "all"\n[wall]\nreplacement = "dead-wall"\n'),
    ("limit", '[payments]\nmultiple_winners = "nearest"\n[wall]\nreplacement = "same-wall"\n'
              "end_tiles = 14\n"),
    ("garden", '[payments]\nmultiple_winners = "all"\n[claims]\npassed_claim = false\n'),
])
def test_the_details_follow_the_fields_not_the_name(tmp_path: Path, base: str,
                                                    house: str) -> None:
    path = tmp_path / "house.toml"
    path.write_text(f'extends = "{base}"\nname = "house"\n{house}', encoding="utf-8")
    rules = load_rules(str(path))
    _check_wall_and_claims(rules)
    _check_several_winners(rules)
    part = _claims_part(rules)
    assert ("another copy of it" in part) == rules.claims.passed_claim
