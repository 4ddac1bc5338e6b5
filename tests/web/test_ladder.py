"""The practice ladder at the web table: rung tables, refused rungs, stars by hand and match."""

from __future__ import annotations

from conftest import Player, create_table, join, start

from sgmahjong.game.match import HandRecord, WinSummary
from sgmahjong.store import ladder as shared
from sgmahjong.store.progress import Progress
from sgmahjong.tiles import Seat
from sgmahjong.tui import ladder as tui_ladder
from sgmahjong.web.ladder import hand_ladder, ladder_json

STAR_SEED = 2
"""A standard quick game at the Garden gate in which the creator's stand-in (hedgehog) wins
a 2-tai and a 3-tai hand and finishes ahead (found by trying seeds 1-15)."""


def _expected_hand_stars(hand: dict, player: int = 0) -> list[str]:
    """The goals from the rules: any win is a star, a win of 3+ tai another."""
    mine = [w["tai"] for w in hand["wins"] if w["player"] == player]
    out = ["win"] if mine else []
    if any(t >= 3 for t in mine):
        out.append("big-win")
    return out


def test_the_web_and_the_terminal_share_one_ladder() -> None:
    assert tui_ladder.TABLES is shared.TABLES and tui_ladder.hand_stars is shared.hand_stars
    data = ladder_json()
    assert [(r["id"], r["opponents"]) for r in data["rungs"]] == [
        ("garden-gate", ["snail", "rabbit", "hedgehog"]),
        ("lily-pond", ["rabbit", "hedgehog", "fox"]),
        ("old-oak", ["hedgehog", "fox", "owl"])]
    assert [g["id"] for g in data["goals"]] == ["win", "big-win", "ahead"]
    assert data["max_stars"] == 9
    # the browser suggests the first goal of "order" not yet earned: the terminal's next goal
    for stars in ({}, {"garden-gate": {"win"}},
                  {t: {"win"} for t in ("garden-gate", "lily-pond", "old-oak")}):
        p = Progress({k: set(v) for k, v in stars.items()})
        first = next(o["text"] for o in data["order"] if not p.has(o["rung"], o["goal"]))
        assert first == shared.next_goal(p)


def test_hand_stars_from_the_hand_record() -> None:
    def rec(*wins: tuple[int, int]) -> HandRecord:
        return HandRecord(0, Seat.EAST, 0, 1, tuple(WinSummary(p, Seat(p), tai, tai, ())
                                                     for p, tai in wins), None, (0,) * 4, ())
    opts = {"ladder": "old-oak"}
    assert hand_ladder(opts, rec((0, 1))) == {"rung": "old-oak", "earned": ["win"]}
    assert hand_ladder(opts, rec((0, 3))) == {"rung": "old-oak", "earned": ["win", "big-win"]}
    assert hand_ladder(opts, rec((2, 5))) == {"rung": "old-oak", "earned": []}
    assert hand_ladder({}, rec((0, 3))) is None


def test_a_ladder_table_is_a_solo_quick_game_against_the_rungs_animals(make_client) -> None:
    c = make_client()
    t = create_table(c, ladder="lily-pond", quick=False, ai=["owl", "owl", "owl"])
    tid = t["table_id"]
    assert t["table"]["quick"] is True
    stored = c.app.state.store.load_table(tid)
    assert stored.options["ladder"] == "lily-pond" and stored.quick
    r = c.post(f"/api/tables/{tid}/join", json={"name": "Bob"})
    assert r.status_code == 409 and r.json()["error"] == "solo"
    start(c, tid, t["token"])
    seats = c.get(f"/api/tables/{tid}").json()["seats"]
    assert [(s["name"], s["kind"], s["level"]) for s in seats[1:]] == [
        ("Rabbit", "ai", "rabbit"), ("Hedgehog", "ai", "hedgehog"), ("Fox", "ai", "fox")]
    # an ordinary table still takes company
    other = create_table(c)
    assert join(c, other["table_id"])["player"] == 1


def test_an_unknown_rung_is_refused_naming_the_field(make_client) -> None:
    c = make_client()
    base = {"name": "A", "rules": "casual", "ai": ["greedy"] * 3}
    r = c.post("/api/tables", json={**base, "ladder": "treehouse"})
    assert r.status_code == 400 and r.json()["error"] == "bad-ladder"
    assert "'ladder'" in r.json()["message"] and "garden-gate" in r.json()["message"]
    assert c.post("/api/tables", json={**base, "ladder": 3}).status_code == 422
    assert c.post("/api/tables", json={**base, "ladder": "x" * 41}).status_code == 422


def test_stars_are_sent_at_each_hand_end_and_at_the_match_end(make_client) -> None:
    # the creator never connects, so the stand-in plays their seat from the first turn
    c = make_client(disconnect_grace=0.0)
    t = create_table(c, rules="standard", seed=STAR_SEED, ladder="garden-gate")
    tid = t["table_id"]
    watcher = Player(c, tid, spectate=True)
    start(c, tid, t["token"])
    watcher.play()
    ends = [m for m in watcher.log if m["type"] == "hand-end"]
    assert len(ends) == 4
    earned: list[str] = []
    for m in ends:
        want = _expected_hand_stars(m["hand"])
        assert m["ladder"] == {"rung": "garden-gate", "earned": want}
        earned += [g for g in want if g not in earned]
    assert {"win", "big-win"} <= set(earned)        # the seeded case reaches both
    end = watcher.log[-1]
    scores = end["scores"]
    if all(scores[0] > s for s in scores[1:]):
        earned.append("ahead")
    assert "ahead" in earned
    assert end["ladder"] == {"rung": "garden-gate", "earned": earned}
    watcher.close()
    # the rung survives a restart: a new server still reports the match's stars
    make_client.shutdown(c)
    c2 = make_client(disconnect_grace=0.0)
    again = Player(c2, tid, spectate=True)
    assert again.until("match-end")["ladder"] == end["ladder"]
    again.close()


def test_ordinary_tables_send_no_stars(make_client) -> None:
    c = make_client()
    t = create_table(c)
    ann = Player(c, t["table_id"], t["token"])
    start(c, t["table_id"], t["token"])
    ann.play()
    assert all("ladder" not in m for m in ann.log if m["type"] in ("hand-end", "match-end"))
    ann.close()
