"""The hints panel renders :mod:`sgmahjong.agents.hints` (it computes nothing itself): the
suggested discard and the ** tile, waits with counts and tai, each claim with take or skip,
the tai block, Bao warnings and, after a win, where its tai came from."""

from __future__ import annotations

import pytest
from rich.text import Text

from sgmahjong.agents import hints as engine
from sgmahjong.agents.evaluation import TaiSource
from sgmahjong.game import Chow, Discard, Pass, Pong, Win, Won
from sgmahjong.render.text import markup
from sgmahjong.tiles import Seat, Tile
from sgmahjong.tui import hints as panel
from sgmahjong.tui.session import PlayConfig, Session

from .walls import PASSIVE, build_wall

# East: one tile from a dragon-pong hand (throw South, draw 5p, win); one step from chows.
READY = build_wall(east="123m456m789m777z5p" + "2z", draws="1s5s9s5p")
CHOWS = build_wall(east="123m456m789m3s4s6s7s" + "7z", draws="1z2z5s")


def session(wall: list[Tile]) -> Session:
    s = Session(PlayConfig(rules="standard", quick=True, seed=1, opponents=PASSIVE,
                           ai_delay=0.0, walls=[wall]))
    s.start_hand()
    return s


def until_human(s: Session) -> None:
    while not s.game.ended and not s.human_legal():
        s.ai_step()


def plain(lines: list[str]) -> str:
    """The panel as the player reads it (the markup must parse)."""
    return "\n".join(Text.from_markup(x).plain for x in lines)


def test_the_suggested_discard_is_the_hints_modules() -> None:
    s = session(READY)
    view, legal = s.view(), s.human_legal()
    want = engine.hints(view, legal)
    assert want.discard is not None
    got = panel.hint_for(view, legal)
    assert got.suggest == want.discard.tile
    assert got.lines[0].startswith(f"[b]Throw {markup(want.discard.tile)}[/]")
    text = plain(got.lines)
    assert "leaves you ready" in text
    wait = next(iter(want.waits.waits))
    assert f"{wait.chinese}×{want.waits.waits[wait]} ({want.waits.tai[wait]} tai)" in text
    assert "Tai: 1 certain, 1 needed ✓" in text
    assert "✓ the Red Dragon set (1 tai)" in text


def test_each_claim_gets_a_line_with_take_or_skip() -> None:
    s = session(CHOWS)
    until_human(s)
    for _ in range(20):  # throw what the hints say until a chow is offered
        legal = s.human_legal()
        if any(isinstance(a, Chow) for a in legal):
            break
        hint = panel.hint_for(s.view(), legal)
        s.submit(Discard(hint.suggest) if hint.suggest is not None else Pass())
        until_human(s)
    view, legal = s.view(), s.human_legal()
    chows = [a for a in legal if isinstance(a, Chow)]
    assert chows
    lines = panel.hint_for(view, legal).lines
    text = plain(lines)
    tile = view.window_tile
    assert tile is not None
    assert text.startswith(f"Claim {Text.from_markup(markup(tile)).plain} ({tile.english})?")
    claim_lines = [x for x in text.splitlines() if x.startswith("  C Chow ")]
    # every chow is named once; chows with the same verdict and reason share a line
    named = [n.strip() for x in claim_lines for n in x.split(" → ")[0].split(", ")]
    names = [f"C Chow {c.tile.number}-{c.tile.number + 1}-{c.tile.number + 2} Bamboo"
             for c in chows]
    assert sorted(named) == sorted(names)
    claims = engine.claim_hints(view, legal)
    verdict = dict(zip(names, claims, strict=True))
    for line in claim_lines:
        for n in line.split(" → ")[0].split(", "):
            assert ("→ take" if verdict[n.strip()].take else "→ skip:") in line
    # of two claims worth taking, one is named the better: the player is not left to guess
    if sum(c.take for c in claims) > 1:
        best = [x for x in claim_lines if "→ take: the best claim here:" in x]
        assert len(best) == 1
        name = best[0].split(" → ")[0].strip()
        others = [x for x in claim_lines if "→ take, but" in x]
        assert others and all(f"but {name} is better" in x for x in others)
    assert "S skips." in text


def test_render_lays_out_every_part() -> None:
    s = session(READY)
    view = s.view()
    hint = engine.Hints(
        discard=None,
        waits=engine.WaitsHint({Tile.P3: 2, Tile.P6: 0}, "", {Tile.P3: -1, Tile.P6: -1}),
        tai=engine.TaiHint((TaiSource("honour-pair", 1, False, "the Red Dragon pair"),), 0, 1,
                           True, "No tai yet: keep the Red Dragon pair."),
        claims=(engine.ClaimHint(Pong(), False, "Skip the Pong of 5 Circles: it does not "
                                 "bring you closer (ready either way)."),),
        bao=(engine.BaoWarning(Tile.RED, Seat.SOUTH, "third-dragon",
                               "Careful with Red Dragon: South shows two dragon sets; "
                               "the third dragon is Bao."),),
        win=engine.WinNowHint(Tile.P5, 2, "You can win now on 5 Circles (2 tai)."))
    got = panel.render(hint, view, [Win(), Pong(), Pass()])
    text = plain(got.lines)
    assert got.suggest is None
    assert text.startswith("You can win now on 5 Circles (2 tai): press W!")
    # with a win on offer the pong is not weighed against the hand: the win comes first
    assert "P Pong → win instead (W): a win scores the hand now." in text
    assert "No tai yet: keep the Red Dragon pair." in text
    assert "Bao: Careful with Red Dragon: South shows two dragon sets" in text
    # with no win on offer, the waits show, and that none of them has the tai to win
    text = plain(panel.render(hint, view, [Pong(), Pass()]).lines)
    assert "P Pong → skip: it does not bring you closer" in text
    assert "Waiting on 2 kinds, 2 unseen:" in text
    assert "Too few tai: a win here would not reach the 1 tai you need." in text


def test_bao_warnings_for_a_picked_tile_come_from_the_hints_module(
        monkeypatch: pytest.MonkeyPatch) -> None:
    s = session(READY)
    warnings = (engine.BaoWarning(Tile.RED, Seat.SOUTH, "third-dragon",
                                  "Careful with Red Dragon."),
                engine.BaoWarning(Tile.P5, Seat.WEST, "fresh-tile", "Careful with 5 Circles."))
    monkeypatch.setattr(engine, "bao_warnings", lambda view: warnings)
    got = panel.bao_warnings(s.view(), Tile.P5)
    assert plain(got) == "Bao warning: Careful with 5 Circles."
    assert panel.bao_warnings(s.view(), Tile.M1) == []


def test_a_broken_hint_says_so_instead_of_breaking_the_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    s = session(READY)

    def boom(*args: object) -> None:
        raise ValueError("no [luck]")

    monkeypatch.setattr(engine, "hints", boom)
    got = panel.hint_for(s.view(), s.human_legal())
    assert got.suggest is None
    assert plain(got.lines) == "No hint this time (ValueError: no [luck])."


def test_after_a_win_the_panel_says_where_its_tai_came_from() -> None:
    s = session(READY)
    s.submit(Discard(Tile.SOUTH))  # then East draws 5p: a self-drawn win
    until_human(s)
    s.submit(Win())
    won = next(e for e in s.game.events if isinstance(e, Won))
    text = plain(panel.win_lines(won, lambda seat: seat.name.title()))
    assert text.startswith(f"East won on {Text.from_markup(markup(Tile.P5)).plain} "
                           "(5 Circles): ")
    assert f": {won.tai} tai" in text
    assert "Dragon" in text
    assert len(text.splitlines()) == 1 + len(won.patterns)


def test_a_win_on_offer_comes_first_with_the_tai_the_engine_pays() -> None:
    s = session(READY)
    s.submit(Discard(Tile.SOUTH))  # then East draws 5p: a self-drawn win
    until_human(s)
    view, legal = s.view(), s.human_legal()
    assert Win() in legal
    got = panel.hint_for(view, legal)
    assert got.suggest is None
    first = plain(got.lines[:1])
    s.submit(Win())
    won = next(e for e in s.game.events if isinstance(e, Won))
    assert first == f"You can win now on 5 Circles ({won.tai} tai): press W!"


def test_rules_that_count_no_tai_get_a_panel_without_tai() -> None:
    s = Session(PlayConfig(rules="casual", quick=False, seed=1, opponents=PASSIVE,
                           ai_delay=0.0, walls=[READY]))
    s.start_hand()
    seen = []
    for _ in range(3):
        until_human(s)
        view, legal = s.view(), s.human_legal()
        if not legal:
            break
        hint = panel.hint_for(view, legal)
        seen.append(plain(hint.lines))
        s.submit(Win() if Win() in legal else Discard(hint.suggest) if hint.suggest is not None
                 else Pass())
    assert seen[0].startswith("Throw ") and "Any complete hand wins under these rules." in seen[0]
    assert any(x.startswith("You can win now on 5 Circles: press W!") for x in seen), seen
    assert all("tai" not in x for x in seen), seen
