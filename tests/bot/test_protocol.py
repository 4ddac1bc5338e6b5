"""The bot protocol: handshake, redaction, faults that never stop the table, a real bot."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

import pytest

from sgmahjong.agents.levels import Fox, Hedgehog, Rabbit
from sgmahjong.bot import (
    MAX_TIMEOUTS,
    PROTOCOL_VERSION,
    ProcessAgent,
    play_game,
    play_match,
    redact,
)
from sgmahjong.game import Game, Match
from sgmahjong.game.events import ClaimPassed, Dealt, Drew, HandStarted
from sgmahjong.tiles import Seat, Tile

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = [sys.executable, str(ROOT / "examples" / "bot.py")]


def others() -> list[Any]:
    return [Rabbit(1), Hedgehog(2), Fox(3)]


def polite(msg: dict[str, Any]) -> list[dict[str, Any]]:
    """A mock bot that says hello and passes or throws its first legal discard."""
    if msg["type"] == "hello":
        return [{"type": "hello", "protocol": PROTOCOL_VERSION}]
    if msg["type"] == "request":
        legal = msg["legal"]
        pick = next((a for a in legal if a["type"] == "win"), None) or \
            next((a for a in legal if a["type"] in ("discard", "pass")), legal[0])
        return [{"type": "action", "id": msg["id"], "action": pick}]
    return []


def test_hello_comes_first_with_version_seat_and_rules() -> None:
    bot = ProcessAgent.mock(polite, seat=0)
    play_game(Game.new("standard", seed=1), [bot, *others()])
    first = bot.transport.sent[0]  # type: ignore[attr-defined]
    assert first["type"] == "hello"
    assert first["protocol"] == PROTOCOL_VERSION and first["seat"] == 0
    assert first["rules"]["name"] == "standard" and first["rules"]["digest"]
    assert not bot.faults


def test_events_never_show_hidden_tiles() -> None:
    bot = ProcessAgent.mock(polite, seat=2)
    game = Game.new("standard", seed=5)
    play_game(game, [Rabbit(0), Hedgehog(1), bot, Fox(3)])
    events = [m["event"] for m in bot.transport.sent if m["type"] == "event"]  # type: ignore
    assert events[0]["type"] == "hand-started" and events[0]["wall"] is None
    assert events[0]["seed"] is None
    for e in events:
        if e["type"] in ("dealt", "drew") and e["seat"] != 2:
            assert e.get("tiles") is None and e.get("tile") is None
        assert not (e["type"] == "claim-passed" and e["seat"] != 2)
    requests = [m for m in bot.transport.sent if m["type"] == "request"]  # type: ignore
    assert requests and all("concealed" in r["view"] for r in requests)
    assert all(r["view"]["seat"] == 2 for r in requests)


def test_redaction_of_single_events() -> None:
    assert redact(Dealt(Seat.EAST, (Tile.M1,) * 13), Seat.SOUTH)["tiles"] is None
    assert redact(Dealt(Seat.EAST, (Tile.M1,) * 13), Seat.EAST)["tiles"] == "1111111111111m"
    assert redact(Drew(Seat.WEST, Tile.P5, False), Seat.EAST)["tile"] is None
    assert redact(ClaimPassed(Seat.WEST, Tile.P5), Seat.EAST) is None
    assert redact(HandStarted(Seat.EAST, 0, 7, (Tile.M1,) * 148), Seat.EAST)["wall"] is None


def _finish(bot: ProcessAgent, seed: int = 3) -> Game:
    game = Game.new("standard", seed=seed)
    play_game(game, [bot, *others()])
    assert game.ended
    return game


def test_a_bot_that_crashes_gets_defaults(caplog: pytest.LogCaptureFixture) -> None:
    def crash(msg: dict[str, Any]) -> list[Any]:
        if msg["type"] == "request":
            raise RuntimeError("boom")
        return polite(msg)
    bot = ProcessAgent.mock(crash)
    with caplog.at_level(logging.WARNING, logger="sgmahjong.bot"):
        _finish(bot)
    assert bot.dead and any("crashed" in f for f in bot.faults)
    assert "crashed" in caplog.text


def test_a_silent_bot_is_given_up_after_a_few_late_answers() -> None:
    bot = ProcessAgent.mock(lambda msg: None, timeout=0.01)
    _finish(bot)
    late = [f for f in bot.faults if "no answer" in f]
    assert len(late) == MAX_TIMEOUTS and bot.dead


def test_nonsense_gets_defaults() -> None:
    bot = ProcessAgent.mock(lambda m: ["{not json", "42"] if m["type"] == "request" else [])
    _finish(bot)
    assert bot.faults and all("not JSON" in f or "not a message" in f for f in bot.faults)


def test_an_illegal_action_gets_the_safe_default() -> None:
    def cheat(msg: dict[str, Any]) -> list[Any]:
        if msg["type"] != "request":
            return []
        return [{"type": "action", "id": msg["id"], "action": {"type": "win"}}]
    bot = ProcessAgent.mock(cheat)
    _finish(bot)
    assert bot.faults and all("illegal action" in f for f in bot.faults)


def test_stale_answers_are_skipped() -> None:
    def stale(msg: dict[str, Any]) -> list[Any]:
        if msg["type"] != "request":
            return []
        old = {"type": "action", "id": msg["id"] - 1, "action": {"type": "pass"}}
        return [old, *polite(msg)]
    bot = ProcessAgent.mock(stale)
    _finish(bot)
    assert not bot.faults


def test_a_wrong_protocol_version_is_refused() -> None:
    def old(msg: dict[str, Any]) -> list[Any]:
        return [{"type": "hello", "protocol": 99}] if msg["type"] == "request" else []
    bot = ProcessAgent.mock(old)
    _finish(bot)
    assert bot.dead and "protocol" in bot.faults[0]


def test_the_example_bot_plays_a_quick_game_as_a_subprocess() -> None:
    with ProcessAgent(EXAMPLE, seat=0, timeout=5.0) as bot:
        result = play_match(Match("garden", seed=2, quick=True), [bot, *others()])
    assert len(result.hands) == 4
    assert not bot.faults


def _script(tmp_path: Path, body: str) -> list[str]:
    p = tmp_path / "bot.py"
    p.write_text(body)
    return [sys.executable, str(p)]


def test_a_subprocess_that_exits_at_once(tmp_path: Path) -> None:
    with ProcessAgent(_script(tmp_path, "import sys; sys.exit(3)\n"), timeout=2.0) as bot:
        _finish(bot)
    assert bot.dead and bot.faults


def test_a_subprocess_that_hangs_is_killed(tmp_path: Path) -> None:
    body = "import sys, time\nfor line in sys.stdin:\n    time.sleep(3600)\n"
    bot = ProcessAgent(_script(tmp_path, body), timeout=0.05)
    _finish(bot)
    bot.close()
    proc = bot.transport._proc  # type: ignore[attr-defined]
    assert proc.poll() is not None
    assert any("no answer" in f for f in bot.faults)


def test_a_subprocess_that_prints_garbage(tmp_path: Path) -> None:
    body = ("import sys\nfor line in sys.stdin:\n"
            "    print('hello there', flush=True)\n")
    with ProcessAgent(_script(tmp_path, body), timeout=1.0) as bot:
        _finish(bot)
    assert any("not JSON" in f for f in bot.faults)


def test_request_json_round_trips() -> None:
    bot = ProcessAgent.mock(polite)
    _finish(bot)
    for m in bot.transport.sent:  # type: ignore[attr-defined]
        assert json.loads(json.dumps(m)) == m


@pytest.mark.parametrize("body, said", [
    ("import sys; sys.exit(3)\n", "request 1: crashed (the bot exited)"),
    ("print(1)\n", "request 1: not a message"),
])
def test_a_bot_gone_before_it_is_asked_is_told_apart_by_what_it_left(
        tmp_path: Path, body: str, said: str) -> None:
    # gone before the hello is written: the write fails, and what it printed (or
    # nothing) still says why, as when it goes after the request
    with ProcessAgent(_script(tmp_path, body), timeout=5.0) as bot:
        bot.transport._proc.wait(10)  # type: ignore[attr-defined]
        g = Game.new("standard", seed=1)
        seat = next(iter(g.waiting_for()))
        bot.act(g.view(seat), g.legal_actions(seat))
        assert bot.faults and bot.faults[0].startswith(said), bot.faults
        assert bot.dead
