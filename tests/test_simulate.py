"""``sgmahjong simulate``: results independent of the worker count, the JSON summary, zero-sum
points where players pay, the 95% interval, player names, and the records it writes."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from sgmahjong.cli import main
from sgmahjong.errors import SgmahjongError
from sgmahjong.fast import engine
from sgmahjong.record import check_record, read_record
from sgmahjong.simulate import ci95, game_seed, simulate

GARDEN = ["--rules", "garden", "--quick"]


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["simulate", "--json", *args]) == 0
    out = capsys.readouterr().out
    assert len(out.strip().splitlines()) == 1
    return json.loads(out)


def without_timing(summary: dict) -> dict:
    return {k: v for k, v in summary.items()
            if k not in ("seconds", "hands_per_second", "workers")}


def test_results_are_identical_for_one_and_two_workers(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    one = run_json(capsys, *GARDEN, "--games", "4", "--seed", "9", "--workers", "1")
    two = run_json(capsys, *GARDEN, "--games", "4", "--seed", "9", "--workers", "2")
    assert without_timing(one) == without_timing(two)
    assert one["workers"] == 1 and two["workers"] == 2


def test_json_summary_has_the_fields_and_standard_points_sum_to_zero(
        capsys: pytest.CaptureFixture[str]) -> None:
    s = run_json(capsys, "--games", "2", "--rules", "standard",
                 "--players", "greedy,random,greedy,random")
    assert {"games", "hands", "draws", "hands_per_second", "seats", "patterns"} <= set(s)
    assert s["engine"] == engine()     # "python", or "compiled" with sgmahjong.fast built
    assert s["games"] == 2 and s["hands"] >= 2 * 16
    assert [p["player"] for p in s["seats"]] == ["greedy", "random", "greedy", "random"]
    for p in s["seats"]:
        assert {"player", "points_total", "points_per_hand_mean", "ci95", "wins"} <= set(p)
        assert p["points_per_hand_mean"] == pytest.approx(p["points_total"] / s["hands"],
                                                          abs=1e-4)
    assert sum(p["points_total"] for p in s["seats"]) == 0
    assert sum(p["wins"] for p in s["seats"]) >= s["hands"] - s["draws"]
    assert all(n <= sum(p["wins"] for p in s["seats"]) for n in s["patterns"].values())


def test_ci95_is_the_half_width_of_the_normal_interval() -> None:
    # mean 5, sample sd 2.138 (n-1), n 8
    values = [2, 4, 4, 4, 5, 5, 7, 9]
    sd = math.sqrt(sum((v - 5) ** 2 for v in values) / 7)
    assert ci95(values) == pytest.approx(1.96 * sd / math.sqrt(8))
    assert ci95(values) == pytest.approx(1.4816, abs=1e-4)
    assert ci95([3]) == 0.0 and ci95([]) == 0.0


def test_ci95_in_the_summary_matches_the_per_hand_points() -> None:
    s = simulate("garden", ["greedy"] * 4, games=2, seed=4, quick=True)
    from sgmahjong.rules import load_rules
    from sgmahjong.simulate import play_game
    per_hand = [d for i in range(2)
                for d in play_game(load_rules("garden"), ["greedy"] * 4, game_seed(4, i),
                                   i, quick=True).deltas]
    for p in range(4):
        assert s.seats[p].ci95 == pytest.approx(ci95([d[p] for d in per_hand]))


def test_unknown_player_name_exits_2_listing_the_known_names(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "greedy,greedy,wizard,greedy"]) == 2
    err = capsys.readouterr().err
    assert "wizard" in err and "greedy" in err and "random" in err
    assert len(err.strip().splitlines()) == 1


def test_quick_games_where_the_rules_have_none_exit_2(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    assert main(["simulate", "--rules", "standard", "--quick"]) == 2
    assert "no quick game" in capsys.readouterr().err


def test_records_are_written_one_per_game_and_check(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "new" / "records"
    s = run_json(capsys, *GARDEN, "--games", "2", "--records", str(out))
    files = sorted(out.iterdir())
    assert len(files) == 2
    records = [read_record(f) for f in files]
    assert sum(len(r.hands()) for r in records) == s["hands"]
    assert records[1].seed == game_seed(1, 1)
    assert all(check_record(r).ok for r in records)


def test_readable_table_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", *GARDEN, "--games", "1"]) == 0
    out = capsys.readouterr().out
    assert "Results by match player" in out and "greedy" in out


def test_an_outside_bot_program_takes_a_seat_beside_the_levels():
    import shlex
    import sys
    from pathlib import Path

    bot = Path(__file__).resolve().parents[1] / "examples" / "bot.py"
    cmd = f"cmd:{shlex.join([sys.executable, str(bot)])}"
    summary = simulate("garden", ["owl", "fox", cmd, "snail"], games=1, seed=3, quick=True)
    data = summary.to_json()
    assert data["games"] == 1 and data["hands"] == 4
    assert [s["player"] for s in data["seats"]] == ["owl", "fox", cmd, "snail"]


def test_cmd_player_without_a_command_is_a_clear_error():
    with pytest.raises(SgmahjongError, match="needs a command"):
        simulate("garden", ["owl", "fox", "cmd:", "snail"], games=1, quick=True)
