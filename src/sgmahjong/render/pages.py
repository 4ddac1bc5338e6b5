"""The learning pages, one source for the terminal game and the web table: how to play,
the rules used at this table, the tai table, the tile guide, tips and the garden animals.

Each page is a small document (headings, paragraphs, lists, tables, rows of tiles) that a
front end draws its own way: :mod:`sgmahjong.tui.pages` with Rich, :mod:`sgmahjong.web.learn`
as HTML. The rules and tai pages are generated from a :class:`Ruleset`, so they say what the
table in play does, preset or house-rule file alike. Tile names come from
:mod:`sgmahjong.english`; sentences never show notation. Under rules that count no tai
(``casual``) no page talks of tai.

>>> from sgmahjong.rules.loading import load_rules
>>> rules = load_rules("standard")
>>> [p.id for p in pages(rules)]
['how-to-play', 'rules', 'tai', 'tiles', 'tips']
>>> [p.id for p in pages(load_rules("casual"))]
['how-to-play', 'rules', 'tiles', 'tips']
>>> payment_rows(rules)[1][0]
('1', '2', '4', '4', '2')
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..english import and_list, count, tile_name
from ..rules.catalog import PATTERNS
from ..rules.model import Ruleset
from ..scoring.payments import base_points
from ..scoring.tai import ScoreResult, score_hand
from ..tiles import BONUS_TILES, PLAYING_TILES, Seat, Tile
from .tai_examples import EXAMPLES, HONOURS_ONLY, TaiExample

__all__ = ["PAGE_TITLES", "Block", "Bullets", "Heading", "Page", "Para", "Table", "TileCard",
           "TileCards", "TileRow", "page", "page_ids", "pages", "payment_rows"]


# ---------------------------------------------------------------------- the document model

@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 2


@dataclass(frozen=True)
class Para:
    text: str


@dataclass(frozen=True)
class Bullets:
    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""


@dataclass(frozen=True)
class TileRow:
    """A hand drawn in tiles: ``groups`` of tile notations (the concealed tiles, each
    declared set, the bonus tiles), ``caption`` says what it shows."""

    groups: tuple[tuple[str, ...], ...]
    caption: str = ""


@dataclass(frozen=True)
class TileCard:
    """One tile with the lines under it (names, notation)."""

    tile: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class TileCards:
    cards: tuple[TileCard, ...]


Block = Heading | Para | Bullets | Table | TileRow | TileCards


@dataclass(frozen=True)
class Page:
    id: str
    title: str
    blocks: tuple[Block, ...] = field(default_factory=tuple)

    def text(self) -> str:
        """The page as plain text (what a reader sees, without the tile pictures)."""
        out: list[str] = [self.title]
        for b in self.blocks:
            if isinstance(b, Heading | Para):
                out.append(b.text)
            elif isinstance(b, Bullets):
                out.extend(b.items)
            elif isinstance(b, Table):
                out.append(" | ".join(b.headers))
                out.extend(" | ".join(r) for r in b.rows)
                if b.caption:
                    out.append(b.caption)
            elif isinstance(b, TileRow):
                out.append(b.caption)
            elif isinstance(b, TileCards):
                out.extend(" ".join(c.lines) for c in b.cards)
        return "\n".join(out)

    def to_json(self) -> dict[str, Any]:
        """The page as JSON: ``{id, title, blocks: [{type, ...}]}``."""
        blocks: list[dict[str, Any]] = []
        for b in self.blocks:
            kind = type(b).__name__.lower()
            if isinstance(b, TileCards):
                blocks.append({"type": kind, "cards": [{"tile": c.tile, "lines": list(c.lines)}
                                                       for c in b.cards]})
            else:
                body = {k: v for k, v in b.__dict__.items()}
                blocks.append({"type": kind, **_lists(body)})
        return {"id": self.id, "title": self.title, "blocks": blocks}


def _lists(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_lists(v) for v in value]
    return value


# ---------------------------------------------------------------------- the pages

PAGE_TITLES = {
    "how-to-play": "How to play",
    "rules": "Rules used here",
    "tai": "Tai table",
    "tiles": "Tile guide",
    "tips": "Tips and the garden animals",
}


def page_ids(rules: Ruleset) -> list[str]:
    """The pages for this table: no tai table under rules that count no tai."""
    return [p for p in PAGE_TITLES if p != "tai" or rules.scoring.counts_tai]


def pages(rules: Ruleset) -> list[Page]:
    return [page(p, rules) for p in page_ids(rules)]


def is_chinese(text: str) -> bool:
    """Whether ``text`` is Chinese characters (a name such as 門風), which need a CJK font.

    >>> is_chinese("門風"), is_chinese("Seat Wind"), is_chinese("")
    (True, False, False)
    """
    return bool(text.strip()) and all(unicodedata.east_asian_width(ch) in "WF" or ch == " "
                                      for ch in text)


def chinese_columns(table: Table) -> frozenset[int]:
    """The columns of a table that hold Chinese names only."""
    return frozenset(i for i in range(len(table.headers))
                     if table.rows and all(is_chinese(r[i]) for r in table.rows))


def without_chinese(block: Block) -> Block:
    """The block with its Chinese names left out, for a screen that has no font for them:
    a table's Chinese column, a tile card's Chinese line."""
    if isinstance(block, Table):
        keep = [i for i in range(len(block.headers)) if i not in chinese_columns(block)]
        return Table(tuple(block.headers[i] for i in keep),
                     tuple(tuple(r[i] for i in keep) for r in block.rows), block.caption)
    if isinstance(block, TileCards):
        return TileCards(tuple(TileCard(c.tile, tuple(x for x in c.lines if not is_chinese(x)))
                               for c in block.cards))
    return block


def page(page_id: str, rules: Ruleset) -> Page:
    """One page by id (``KeyError`` for an id that is not a page of these rules)."""
    if page_id not in page_ids(rules):
        raise KeyError(page_id)
    build = {"how-to-play": _how_to_play, "rules": _rules_page, "tai": _tai_page,
             "tiles": _tile_guide, "tips": _tips}[page_id]
    return Page(page_id, PAGE_TITLES[page_id], tuple(build(rules)))


def _how_to_play(rules: Ruleset) -> list[Block]:
    tai = rules.scoring.counts_tai
    out: list[Block] = [
        Para("Four players each hold 13 tiles. On your turn you take a tile and throw one "
             "away. The first to make four sets and a pair wins the hand."),
        Heading("Sets"),
        Bullets(("A pong is three of the same tile, such as three Red Dragons.",
                 "A chow is three in a row in one suit, such as 3, 4 and 5 Circles. Winds and "
                 "dragons never make a chow.",
                 "A kong is four of the same tile. It counts as one set, and you take an extra "
                 "tile to make up for it.",
                 "The pair (the eyes) is two of the same tile.")),
        Heading("Turns and claims"),
        Bullets(("Play goes round East, South, West, North. The banker sits East and starts "
                 "with 14 tiles, so throws first without drawing.",
                 "When a player throws a tile you can use, you may claim it: a pong or a kong "
                 "from anyone, a chow only from the player on your left (the one who plays just "
                 "before you), and a win from anyone.",
                 "A win beats a pong or a kong, and a pong beats a chow. A claimed set is laid "
                 "face up; you then throw a tile as on your own turn.")),
        Heading("Flowers, seasons and animals"),
        Bullets(("The 12 bonus tiles are never played. As soon as you get one, set it aside "
                 "and take a new tile from the back of the wall.",
                 "Each seat has its own flower and season; the animals come in two pairs, "
                 "the Cat with the Mouse and the Rooster with the Centipede. The Tile guide "
                 "shows them all.")),
    ]
    if tai:
        minimum = rules.scoring.minimum_tai
        need = (f"A win needs at least {count(minimum, 'tai')}." if minimum > 0
                else "Any complete hand may win, even one worth no tai.")
        out += [Heading("Tai"),
                Para(f"{need} Tai come from animals, your own flower or season, sets of "
                     "dragons or of your wind, and kinds of hand such as all pongs, one suit "
                     "or all chows. The Tai table lists every one these rules score.")]
    else:
        out += [Heading("Winning"),
                Para("Under these rules any complete hand wins, whatever it holds, and "
                     "scores 1 point.")]
    out += [Heading("Keys"),
            Table(("key", "what it does"), (
                ("← →", "move along your tiles"),
                ("Enter", "pick the tile; Enter again throws it"),
                ("W", "win"), ("P", "pong"), ("C", "chow"), ("K", "kong"),
                ("S", "skip a claim"), ("H", "show or hide the hints"),
                ("R", "these pages (in the terminal; the Rules button on the web)"),
                ("L", "the guided first hand (on the terminal's setup screen; a link in the "
                      "web lobby)"),
                ("M", "mute the sounds; the note button beside it plays music (web)"),
                ("Q", "leave the table (terminal, press twice)")))]
    return out


# ---------------------------------------------------------------------- rules used here

_BAO_CASES = {
    "third-dragon": "You throw the third dragon to a player showing two dragon sets, who "
                    "makes a set of it: by pong, by kong, or by a win it completes (not as "
                    "the pair).",
    "fourth-wind": "You throw the fourth wind to a player showing three wind sets, who makes "
                   "a set of it the same way.",
    "exposed-limit": "You throw a dragon or a scoring wind to a player whose face-up tai "
                     "already reach the limit, or which takes them there with a pong or "
                     "kong.",
    "exposed-limit-pong": "You feed a pong of a dragon, of the player's own wind or of the "
                          "round wind that takes their face-up tai to the limit.",
    "full-colour": "You throw a tile of the suit of a player showing three or four sets of "
                   "that one suit, and it wins them a Full Colour hand.",
    "full-colour-or-honours-or-terminals":
        "You throw the tile that wins a Full Colour hand (or all honours, or all terminals) "
        "for a player showing three sets of it.",
}
_INSTANT = (("claimed_kong", "a kong claimed from a discard"),
            ("added_kong", "a kong made by adding to your own pong"),
            ("concealed_kong", "a concealed kong"),
            ("bonus_pair", "a pair of bonus tiles: Cat and Mouse, Rooster and Centipede, or "
                           "your own flower and season"),
            ("bonus_pair_initial", "the same pair when both were set aside during the deal"),
            ("bonus_set", "all four animals, all four flowers or all four seasons (on top of "
                          "the pairs)"))


def _names(ids: Sequence[str]) -> str:
    return and_list([PATTERNS[p].english for p in ids])


def _limit_ids(rules: Ruleset) -> list[str]:
    return [p for p in PATTERNS if p in rules.scoring.patterns
            and rules.scoring.patterns[p].limit]


def payment_rows(rules: Ruleset) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The worked payment table: headers and one row per tai from the minimum to the cap
    (the last row is "N or more"). Empty when a win pays one point."""
    p = rules.payments
    s = rules.scoring
    if p.scheme == "one-point" or not s.counts_tai:
        return (), ()
    first = max(s.minimum_tai, 0)
    rows: list[tuple[str, ...]] = []
    for tai in range(first, max(s.tai_cap, first) + 1):
        label = f"{tai} or more" if tai == s.tai_cap else str(tai)
        base = base_points(tai, rules)
        if p.scheme == "winner-only":
            rows.append((label, str(base), str(base * p.self_drawn_pays)))
        else:
            rows.append((label, str(base), str(base * p.self_drawn_pays),
                         str(base * p.discarder_pays), str(base * p.others_pay)))
    if p.scheme == "winner-only":
        return ("Tai", "Points on a discard", "Points self-drawn"), tuple(rows)
    return ("Tai", "Base", "Self-drawn, each pays", "Discarder pays", "Others pay"), tuple(rows)


def _rules_page(rules: Ruleset) -> list[Block]:
    s, p, m = rules.scoring, rules.payments, rules.match
    about = re.sub(r"^Seed \d+:?\s*", "", rules.description)
    out: list[Block] = [Para(f"These are the rules of this table: {rules.name}"
                             + (f" ({about})." if about else "."))]
    # --- winning and payments
    out.append(Heading("Winning and what a win pays"))
    lines: list[str] = ["A winning hand is four sets and a pair"
                        + (", or Thirteen Wonders." if "thirteen-wonders" in s.patterns
                           else ".") + " Seven pairs does not count."]
    if s.counts_tai:
        lines.append(f"You need at least {count(s.minimum_tai, 'tai')} to win."
                     if s.minimum_tai > 0 else "Any complete hand may win, even with no tai.")
        what = "Points" if p.scheme == "winner-only" else "Payments"
        lines.append(f"{what} stop at {count(s.tai_cap, 'tai')}: a hand worth more counts "
                     f"as {count(s.tai_cap, 'tai')}, though its full count is still shown.")
    else:
        lines.append("Any complete hand wins, whatever it holds.")
    if p.scheme == "one-point":
        lines.append("A win scores 1 point for the winner, and nobody pays.")
    elif p.scheme == "winner-only":
        lines.append(f"Only the winner scores: {_base_words(rules)}"
                     + (f", times {p.self_drawn_pays} when self-drawn."
                        if p.self_drawn_pays != 1 else ".") + " Nobody pays.")
    else:
        lines.append(f"The tai set a base: {_base_words(rules)}. On a self-drawn win each "
                     f"other player pays {_times(p.self_drawn_pays)} the base. On a discard "
                     f"the thrower pays {_times(p.discarder_pays)} the base and the other two "
                     f"{_times(p.others_pay)} the base.")
        if p.thirteen_wonders_self_drawn_rate and "thirteen-wonders" in s.patterns:
            lines.append("Thirteen Wonders is paid as if self-drawn even when won on a "
                         "discard.")
    lines.append("When several players can win on the same discard, "
                 + ("the first of them in turn after the thrower wins."
                    if p.multiple_winners == "nearest" else "they all win."))
    if p.multiple_winners == "all" and p.scheme == "table":
        lines.append(f"Only the losers pay: the thrower pays each winner "
                     f"{_times(p.discarder_pays)} the base of that winner's hand, each other "
                     f"player who did not win pays each winner {_times(p.others_pay)} that "
                     "base, and winners pay each other nothing.")
    out.append(Bullets(tuple(lines)))
    headers, rows = payment_rows(rules)
    if rows:
        out.append(Table(headers, rows, caption="What a win pays, by tai"))
    # --- limit hands and automatic wins
    if s.counts_tai:
        out.append(Heading("Limit hands and automatic wins"))
        limits = _limit_ids(rules)
        items = [f"Limit hands score {count(s.limit_tai, 'tai')} straight away: "
                 f"{_names(limits)}." if limits else
                 "There are no limit hands here: big hands count their own tai (the Tai "
                 "table), paid at the cap."]
        auto = [a for a in s.automatic_wins if a in PATTERNS]
        items.append(f"These win at once, even without four sets and a pair: {_names(auto)}."
                     if auto else "There are no automatic wins.")
        if s.robbing_the_eighth and "robbing-the-eighth" in s.patterns:
            items.append("A player holding seven of the eight flowers and seasons may take "
                         "the eighth when another player sets it aside, and wins.")
        out.append(Bullets(tuple(items)))
    # --- instant payouts
    out.append(Heading("Instant payouts"))
    inst = rules.instant
    paid = [(getattr(inst, f), why) for f, why in _INSTANT if getattr(inst, f) > 0]
    if inst.enabled and paid:
        out.append(Para("During the hand, each other player pays at once for:"))
        out.append(Bullets(tuple(f"{why}: {count(n, 'point')}" for n, why in paid)))
    else:
        out.append(Para("There are no instant payouts at this table."))
    # --- Bao
    out.append(Heading("Bao: paying for everyone"))
    cases = list(rules.bao.cases)
    if cases and p.scheme == "table":
        out.append(Para("A player who feeds a big hand pays the winner's whole win alone: "
                        "every other player's share too, so the winner collects the usual "
                        "total. A liability from a pong or kong holds for that player's win "
                        "later in the hand. It happens when:"))
        items = [_BAO_CASES[c] for c in cases if c in _BAO_CASES]
        if "fresh-tile" in cases:
            n = rules.bao.fresh_tile_max_remaining
            items.append(f"You throw a tile never seen in the discards, it wins for another "
                         f"player, and only {count(n, 'tile')} or fewer were left to draw.")
        out.append(Bullets(tuple(items)))
    else:
        out.append(Para("There is no Bao at this table: nobody pays for another player."))
    # --- claims, the wall, the banker and the match
    out.append(Heading("Claims, the wall and the match"))
    c, w = rules.claims, rules.wall
    items = []
    if c.passed_claim:
        items.append("If you let a tile go that you could have won on or ponged, you cannot "
                     "win on or pong another copy of it until you next draw a tile or "
                     "declare a set.")
    items.append("A copy of your own latest discard " + (
        "may be claimed by you only for a kong." if c.own_discard == "kong-only"
        else "may not be claimed by you at all."))
    if w.replacement == "same-wall":
        items.append(f"Replacement tiles come from the back of the same wall, and every tile "
                     f"drawn counts. When only {count(w.end_tiles, 'tile')} are left, nobody "
                     "draws again and the hand is drawn.")
        items.append(f"The final playable tile (the draw that leaves {w.end_tiles}) may still "
                     "win, make a kong or complete a set of bonus tiles, but no replacement "
                     "tile is drawn for it and no tile is thrown after it.")
    else:
        items.append(f"The last {count(w.end_tiles, 'tile')} of the wall are a dead wall: only "
                     "replacement tiles come from it. A kong or a bonus tile on the last tile "
                     "of the live wall still gets its replacement. The hand is drawn when a "
                     "tile is due and the live wall is empty, or when a replacement is due and "
                     "the dead wall is empty.")
    items.append("After a win the deal " + (
        "passes to the next player." if m.banker_after_win == "passes"
        else "stays with the banker if the banker won, and passes otherwise."))
    items.append("After a drawn hand the banker " + (
        "deals again." if m.banker_after_draw == "stays"
        else "deals again, unless somebody declared a kong."))
    winds = ["East", "South", "West", "North"]
    if m.round_wind == "fixed-east":
        items.append("The round wind stays East.")
    else:
        items.append("The round wind moves on once every player has dealt: "
                     + and_list([winds[i % 4] for i in range(min(m.rounds, 4))]) + ".")
    length = (f"A full match is {count(m.rounds, 'round')}"
              + (f", a round ending after {count(m.max_hands_per_round, 'hand')} at most"
                 if m.max_hands_per_round else "") + ".")
    items.append(length)
    if m.quick_game_hands:
        items.append(f"A quick game is {count(m.quick_game_hands, 'hand')}.")
    out.append(Bullets(tuple(items)))
    # --- what is left out
    out.append(Heading("Left out"))
    left = ["Money: the game keeps points, and nothing else.",
            "Seven pairs and other hands that are not four sets and a pair"
            + (" (Thirteen Wonders apart)." if "thirteen-wonders" in s.patterns else ".")]
    if s.counts_tai:
        as_full = _honours_only_as_full_colour(rules)
        unscored = [pid for pid in PATTERNS if pid not in s.patterns
                    and not (pid == "all-honours" and as_full)]
        if unscored:
            left.append(f"Not scored at this table: {_names(unscored)}.")
        if as_full and "all-honours" not in s.patterns:
            left.append(f"A hand of honours only counts as Full Colour: "
                        f"{count(s.patterns['full-colour'].tai, 'tai')}.")
    out.append(Bullets(tuple(left)))
    return out


def _honours_only_as_full_colour(rules: Ruleset) -> bool:
    """Whether a hand of winds and dragons only scores Full Colour here (RULES.md row
    "honours only")."""
    s = rules.scoring
    rule = s.patterns.get("full-colour")
    return s.honours_only_as_full_colour and rule is not None and not rule.limit


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _base_words(rules: Ruleset) -> str:
    s = rules.scoring
    first = max(s.minimum_tai, 1)
    vals = [base_points(t, rules) for t in range(first, s.tai_cap + 1)]
    shown = "-".join(str(v) for v in vals[:8]) + ("-…" if len(vals) > 8 else "")
    return (f"{count(base_points(first, rules), 'point')} for {count(first, 'tai')}, doubling "
            f"with each tai up to {count(base_points(s.tai_cap, rules), 'point')} at "
            f"{count(s.tai_cap, 'tai')} ({shown})")


# ---------------------------------------------------------------------- the tai table

def _groups(ex: TaiExample) -> tuple[tuple[str, ...], ...]:
    """The tiles in hand, the winning tile apart, each declared set, the bonus tiles."""
    h = ex.hand
    rest = list(h.concealed)
    rest.remove(ex.win_tile)
    groups = [tuple(t.text for t in rest), (ex.win_tile.text,)]
    groups += [tuple(t.text for t in m.tiles) for m in h.melds]
    if h.bonus:
        groups.append(tuple(t.text for t in h.bonus))
    return tuple(g for g in groups if g)


def _tai_page(rules: Ruleset) -> list[Block]:
    s = rules.scoring
    rows = []
    ids = [pid for pid in PATTERNS if pid in s.patterns]
    for pid in ids:
        rule = s.patterns[pid]
        name = PATTERNS[pid]
        if rule.limit:
            value = f"limit: {count(s.limit_tai, 'tai')}"
        elif rule.tai > s.tai_cap:
            value = f"{count(rule.tai, 'tai')}, paid as {s.tai_cap}"
        else:
            value = count(rule.tai, "tai")
        also = (f" (instead of {_names(rule.replaces)})"
                if rule.replaces and any(r in s.patterns for r in rule.replaces) else "")
        if pid == "full-colour" and _honours_only_as_full_colour(rules):
            also += " (also a hand of honours only)"
        rows.append((name.english, name.chinese, value + also))
    out: list[Block] = [
        Para(f"Every pattern these rules score, with its tai. A win needs at least "
             f"{count(s.minimum_tai, 'tai')}; a hand counts as at most {count(s.tai_cap, 'tai')}."
             if s.minimum_tai > 0 else
             f"Every pattern these rules score, with its tai; a hand counts as at most "
             f"{count(s.tai_cap, 'tai')}."),
        Table(("Pattern", "Chinese", "Tai"), tuple(rows)),
        Heading("An example of each"),
        Para("Each hand below is a whole hand in the East round, won by South (by East, the "
             "banker, where the pattern is the banker's): the tiles in hand with the winning "
             "tile, then any sets laid out, then any bonus tiles. Under it, what the hand "
             "scores at this table, pattern by pattern: a hand often scores more than the "
             "one pattern it shows."),
    ]
    return out + list(_examples(rules))


_EXAMPLES_SHOWN: dict[str, tuple[Block, ...]] = {}
_EXAMPLES_KEPT = 32


def _examples(rules: Ruleset) -> tuple[Block, ...]:
    """The examples, each scored under these rules. Scoring them all takes some tens of
    milliseconds, too long to do for every request a server answers, so the blocks are
    kept per rule set (by its digest, the last 32 rule sets)."""
    key = rules.digest()
    if key not in _EXAMPLES_SHOWN:
        out: list[Block] = []
        for pid in (p for p in PATTERNS if p in rules.scoring.patterns):
            out += [Heading(f"{PATTERNS[pid].english}", 3),
                    _example_row(EXAMPLES[pid], rules, pid)]
            if pid == "full-colour" and _honours_only_as_full_colour(rules):
                out.append(_example_row(HONOURS_ONLY, rules, pid, "A hand of honours only "
                                                                  "counts as Full Colour here."))
        if len(_EXAMPLES_SHOWN) >= _EXAMPLES_KEPT:
            del _EXAMPLES_SHOWN[next(iter(_EXAMPLES_SHOWN))]
        _EXAMPLES_SHOWN[key] = tuple(out)
    return _EXAMPLES_SHOWN[key]


def _example_row(ex: TaiExample, rules: Ruleset, pid: str, intro: str = "") -> TileRow:
    """The example of pattern ``pid`` drawn in tiles, captioned with how it was won and
    what the scorer gives it under these rules."""
    how = "self-drawn" if ex.self_drawn else "on a discard"
    who = "East" if ex.seat == Seat.EAST else "South"
    result = score_hand(ex.hand, ex.context(), rules)
    caption = ((f"{intro} " if intro else "")
               + f"{who} wins on {tile_name(ex.win_tile)}, {how}"
               + (f", {ex.note}" if ex.note else "") + ". " + _scores(result, rules))
    rule = rules.scoring.patterns.get(pid)
    if result.is_limit and result.items[0].id != pid and rule is not None and rule.limit:
        # two limit hands at once score the limit once, under the first one's name
        caption += f" {PATTERNS[pid].english} is a limit hand too, worth the same."
    return TileRow(_groups(ex), caption)


def _scores(result: ScoreResult, rules: Ruleset) -> str:
    """What a hand scores, as the scorer counts it: ``"It scores 6 tai, counted as 5:
    Half Colour 2, Little Four Winds 4."``"""
    s = rules.scoring
    parts = ", ".join(f"{i.name} {i.tai // i.count} × {i.count}" if i.count > 1
                      else f"{i.name} {i.tai}" for i in result.items)
    if not result.winning:
        return (f"It is worth {count(result.raw_tai, 'tai')}"
                + (f" ({parts})" if parts else "")
                + f", below the minimum of {s.minimum_tai} here, so it needs more to win.")
    if result.is_limit:
        return (f"It scores {count(result.raw_tai, 'tai')}, a limit hand: "
                f"{result.items[0].name}.")
    counted = f", counted as {result.tai}" if result.tai != result.raw_tai else ""
    return f"It scores {count(result.raw_tai, 'tai')}{counted}: {parts}."


# ---------------------------------------------------------------------- the tile guide

_SUITS = (("Characters", "m"), ("Circles", "p"), ("Bamboo", "s"))


def _card(t: Tile) -> TileCard:
    return TileCard(t.text, (tile_name(t), t.chinese, t.text))


def _tile_guide(rules: Ruleset) -> list[Block]:
    out: list[Block] = [Para("A set has 148 tiles: four of each of the 34 playing tiles, and "
                             "12 bonus tiles. Each tile is shown with its English name, its "
                             "Chinese name and the short notation the game uses in records "
                             "and on the command line.")]
    for title, suit in _SUITS:
        out += [Heading(title, 3), TileCards(tuple(_card(t) for t in PLAYING_TILES
                                                   if t.is_suited and t.suit == suit))]
    out += [Heading("Winds", 3), TileCards(tuple(_card(t) for t in PLAYING_TILES
                                                      if t.is_wind)),
            Heading("Dragons", 3), TileCards(tuple(_card(t) for t in PLAYING_TILES
                                                         if t.is_dragon)),
            Heading("Flowers and seasons", 3),
            TileCards(tuple(_card(t) for t in BONUS_TILES if t.owner is not None)),
            Para("Each flower and each season belongs to one seat: its number is the seat's "
                 "(1 East, 2 South, 3 West, 4 North)."),
            Table(("Seat", "Flower", "Season"), tuple(
                (seat.name.title(), tile_name(Tile(34 + seat)), tile_name(Tile(38 + seat)))
                for seat in Seat)),
            Heading("Animals", 3),
            TileCards(tuple(_card(t) for t in BONUS_TILES if t.is_animal)),
            Para("The animals come in two pairs: the Cat catches the Mouse, and the Rooster "
                 "eats the Centipede. Every animal is worth the same to every seat.")]
    return out


# ---------------------------------------------------------------------- tips and animals

def _chow_tip(rules: Ruleset) -> str:
    pats = rules.scoring.patterns
    shapes = ("Avoid pongs and keep two-sided shapes such as 4 and 5 Bamboo, which finish "
              "with a 3 or a 6.")
    if "ping-hu" in pats and not pats["ping-hu"].limit:
        return (f"No bonus tiles? Think of Ping Hu: all chows with no bonus tile is worth "
                f"{count(pats['ping-hu'].tai, 'tai')}. {shapes}")
    if "all-chow" in pats and not pats["all-chow"].limit:
        return f"A hand of all chows is worth {count(pats['all-chow'].tai, 'tai')}. {shapes}"
    return "Sets of dragons and of your own wind are the surest tai."


def _tips(rules: Ruleset) -> list[Block]:
    if rules.scoring.counts_tai:
        tips = ("Know where your tai will come from early. A hand without enough tai cannot "
                "win, however fast it is. An animal or your own flower or season already "
                "counts; if you have none, keep a pair of dragons, or aim for all chows.",
                _chow_tip(rules),
                "Throw lone winds and dragons early. A single wind that is not yours cannot "
                "join a chow and scores nothing as a set, and early on others are less "
                "likely to need it.",
                "Watch the sets laid out. A player showing three sets is close to winning; "
                "tiles they have already thrown are the safer ones to let go.")
    else:
        tips = ("Any complete hand wins here, so speed matters most: keep tiles that make "
                "chows easily, such as 4 and 5 of a suit, which finish with a 3 or a 6.",
                "Throw lone winds and dragons early. A single wind cannot join a chow, and "
                "early on others are less likely to need it.",
                "Watch the sets laid out. A player showing three sets is close to winning; "
                "tiles they have already thrown are the safer ones to let go.")
    return [
        Heading("Tips"), Bullets(tips),
        Heading("The garden animals"),
        Para("Singapore mahjong already has four animal tiles, so the other three seats are "
             "taken by animals too, chosen from five, each a little sharper than the last."),
        Table(("Animal", "How it plays"), (
            ("Snail", "Holds on to tiles it likes and often lets go of the wrong one."),
            ("Rabbit", "Claims every pong and chow that brings it closer, even when the hand "
                       "ends up worth nothing." if rules.scoring.counts_tai else
                       "Claims every pong and chow that brings it closer."),
            ("Hedgehog", "Counts the tiles it can see and claims only when a set really "
                         "helps."),
            ("Fox", "Always knows where its tai will come from, but plays fast and slips up."
                    if rules.scoring.counts_tai else
                    "Knows the shape it wants, but plays fast and slips up."),
            ("Owl", "Counts every tile, looks two draws ahead and plays safe when a player "
                    "looks ready."))),
        Para("They see only what you see: their own tiles and what is on the table. Nobody "
             "peeks."),
    ]
