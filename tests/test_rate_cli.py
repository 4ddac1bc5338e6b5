"""``sgmahjong rate``: the round robin's figures equal the same deals played here, one by
one, and statistics worked out here from them; bots and policies are rated; bad players are
one line; ``bench/bench_strength.py`` prints the same numbers."""

from __future__ import annotations

import itertools
import json
import math
import statistics
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from sgmahjong.agents import make_agent
from sgmahjong.cli import main
from sgmahjong.game import Game
from sgmahjong.game.prng import derive_seed

ROOT = Path(__file__).resolve().parent.parent
LADDER = ["snail", "greedy", "hedgehog", "fox"]
RATED = "rabbit"
SEED = 7
WALLS = 3


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["rate", "--json", *argv]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def by_hand(field: list[str], seed: int, walls: int) -> dict[str, list[list[tuple[int, int, int]]]]:
    """The documented schedule played directly on the engine: every table of four of the
    field (in field order), each rotation r seating table[(s + r) % 4] at seat s, seeded
    derive_seed(wall, 10 r + s); per player and wall, (points, won, dealt in) per deal."""
    out: dict[str, list[list[tuple[int, int, int]]]] = {n: [] for n in field}
    for i in range(walls):
        wall = derive_seed(seed, i)
        for n in field:
            out[n].append([])
        for table in itertools.combinations(field, 4):
            for rot in range(4):
                seated = [table[(s + rot) % 4] for s in range(4)]
                agents = [make_agent(n, derive_seed(wall, 10 * rot + s))
                          for s, n in enumerate(seated)]
                g = Game.new("standard", seed=wall)
                while not g.ended:
                    for seat in sorted(g.waiting_for()):
                        g.submit(seat, agents[seat].act(g.view(seat), g.legal_actions(seat)))
                outcome = g.outcome()
                assert outcome is not None
                fed = {w.discarder for w in outcome.wins}
                for s, n in enumerate(seated):
                    out[n][i].append((outcome.deltas[s], int(s in outcome.winners),
                                      int(s in fed)))
    return out


def interval(xs: list[float]) -> tuple[float, float]:
    """Mean and 95% half-width over walls: 1.96 times the standard error."""
    return statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


@pytest.fixture(scope="module")
def played() -> dict[str, list[list[tuple[int, int, int]]]]:
    return by_hand([RATED, *LADDER], SEED, WALLS)


def test_the_figures_are_the_deals_clustered_by_wall(
        played: dict[str, list[list[tuple[int, int, int]]]],
        capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--players", RATED, "--ladder", ",".join(LADDER),
                   "--walls", str(WALLS), "--seed", str(SEED))
    assert out["field"] == [RATED, *LADDER] and out["rated"] == [RATED]
    assert (out["walls"], out["tables"], out["hands"]) == (WALLS, 5, WALLS * 5 * 4)
    per_wall: dict[str, list[float]] = {}
    for p in out["players"]:
        deals = played[p["name"]]
        flat = [d for wall in deals for d in wall]
        # each player sits at 4 of the 5 tables, 4 rotations each, on every wall
        assert p["hands"] == len(flat) == WALLS * 16
        assert p["wins"] == sum(d[1] for d in flat)
        assert p["deal_ins"] == sum(d[2] for d in flat)
        per_wall[p["name"]] = [sum(d[0] for d in wall) / len(wall) for wall in deals]
        assert p["per_wall"] == pytest.approx(per_wall[p["name"]])
        mean, half = interval(per_wall[p["name"]])
        assert p["points_per_hand"]["mean"] == pytest.approx(mean, abs=1e-4)
        assert p["points_per_hand"]["ci95"] == pytest.approx(half, abs=1e-4)
        assert p["win_rate"] == pytest.approx(p["wins"] / p["hands"], abs=1e-4)
    pairs = {(q["a"], q["b"]): q["difference"] for q in out["pairs"]}
    assert set(pairs) == {(RATED, lv) for lv in LADDER}
    for lv in LADDER:
        mean, half = interval([a - b for a, b in zip(per_wall[RATED], per_wall[lv],
                                                     strict=True)])
        assert pairs[RATED, lv]["mean"] == pytest.approx(mean, abs=1e-4)
        assert pairs[RATED, lv]["ci95"] == pytest.approx(half, abs=1e-4)
    means = {n: statistics.fmean(v) for n, v in per_wall.items()}
    lower = [lv for lv in LADDER if means[lv] < means[RATED]]
    higher = [lv for lv in LADDER if means[lv] >= means[RATED]]
    want_below = max(lower, key=means.__getitem__) if lower else None
    want_above = min(higher, key=means.__getitem__) if higher else None
    assert out["standings"] == [{"player": RATED, "below": want_below, "above": want_above}]


def test_the_text_names_the_place_on_the_ladder(
        played: dict[str, list[list[tuple[int, int, int]]]],
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rate", "--players", RATED, "--ladder", ",".join(LADDER),
                 "--walls", str(WALLS), "--seed", str(SEED), "--procs", "2"]) == 0
    out = capsys.readouterr().out
    means = {n: statistics.fmean(sum(d[0] for d in w) / len(w) for w in v)
             for n, v in played.items()}
    ordered = sorted(LADDER, key=means.__getitem__)
    below = [lv for lv in ordered if means[lv] < means[RATED]]
    above = [lv for lv in ordered if means[lv] >= means[RATED]]
    assert below and above, "the seed was picked to put Rabbit inside this ladder"
    assert (f"{RATED} stands between {below[-1]} ({means[below[-1]]:+.2f}) and "
            f"{above[0]} ({means[above[0]]:+.2f}) on the ladder") in out
    assert out.startswith(f"standard: {WALLS} walls from seed {SEED} x 5 tables x 4 rotations "
                          f"= {WALLS * 20} hands")
    for lv in LADDER:
        assert f"\n{RATED} - {lv}: " in out


def test_a_bot_program_and_a_saved_policy_are_rated(capsys: pytest.CaptureFixture[str]) -> None:
    bot = f"{sys.executable} {ROOT / 'examples' / 'bot.py'}"
    policy = f"model:{ROOT / 'examples' / 'policy.npz'}"
    out = run_json(capsys, "--bot", bot, "--players", policy, "--ladder", "snail,greedy,rabbit",
                   "--walls", "1")
    assert out["rated"] == [policy, f"cmd:{bot}"]
    assert [s["player"] for s in out["standings"]] == out["rated"]
    assert out["faults"] == {}
    hands = {p["name"]: p["hands"] for p in out["players"]}
    assert hands[f"cmd:{bot}"] == hands[policy] == 4 * math.comb(4, 3)


@pytest.mark.parametrize("argv, said", [
    (["--players", "owlet"], "unknown player 'owlet'"),
    (["--players", "fox", "--ladder", "snail,greedy,wolf"], "unknown player 'wolf'"),
    (["--players", "model:no-such-policy.npz"], "model 'no-such-policy.npz': no such file"),
    (["--players", f"model:{ROOT / 'README.md'}"], "not a model file"),
    (["--bot", "no-such-program-sgmahjong"], "cannot be started: No such file or directory"),
    (["--bot", f"{sys.executable} -c 'import sys; sys.exit(3)'"],
     "does not play: request 1: crashed (the bot exited)"),
    (["--bot", f"{sys.executable} -c 'print(1)'"], "does not play: request 1: not a message"),
    ([], "name a player to rate"),
    (["--players", "fox", "--ladder", "owl,fox"], "at least four different players, got 2"),
    (["--players", "fox", "--walls", "0"], "--walls must be at least 1"),
    (["--players", "fox", "--rules", "no-such-preset"], "no-such-preset"),
])
def test_bad_arguments_are_one_line(argv: list[str], said: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rate", "--walls", "1", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("sgmahjong rate: error: ") and said in captured.err, \
        captured.err
    assert captured.err.count("\n") == 1


def test_ray_missing_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)     # import ray fails
    assert main(["rate", "--players", "fox", "--ladder", "snail,greedy,rabbit", "--walls", "1",
                 "--ray"]) == 2
    err = capsys.readouterr().err
    assert err == 'sgmahjong rate: error: --ray needs Ray: pip install "sgmahjong[ray]"\n'


class FakeRay(types.ModuleType):
    """Ray's calls that a run makes, done at once in this process, with batches handed
    back in reverse order (a cluster finishes them in any order)."""

    def __init__(self) -> None:
        super().__init__("ray")
        self.started = False
        self.batches: list[list[int]] = []

    def is_initialized(self) -> bool:
        return self.started

    def init(self, **kwargs: Any) -> None:
        self.started = True

    def shutdown(self) -> None:
        self.started = False

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 2.0}

    def put(self, value: Any) -> Any:
        return value

    def remote(self, **options: Any) -> Any:
        fake = self

        def wrap(f: Any) -> Any:
            class Task:
                @staticmethod
                def remote(*args: Any) -> Any:
                    fake.batches.append(list(args[2]))
                    return f(*args)
            return Task
        return wrap

    def wait(self, pending: list[Any], num_returns: int = 1) -> tuple[list[Any], list[Any]]:
        return pending[-1:], pending[:-1]

    def get(self, ref: Any) -> Any:
        return ref


def test_ray_runs_the_walls_in_batches_and_gives_the_same_figures(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--players", "fox", "--ladder", "snail,greedy,rabbit", "--walls", "9"]
    here = run_json(capsys, *argv)
    fake = FakeRay()
    exceptions = types.ModuleType("ray.exceptions")
    exceptions.RayError = type("RayError", (Exception,), {})  # type: ignore[attr-defined]
    exceptions.RayTaskError = type("RayTaskError", (Exception,), {})  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ray", fake)
    monkeypatch.setitem(sys.modules, "ray.exceptions", exceptions)
    there = run_json(capsys, *argv, "--ray")
    assert len(fake.batches) > 1 and sorted(i for b in fake.batches for i in b) == list(range(9))
    assert not fake.started
    for key in ("players", "pairs", "standings", "hands"):
        assert there[key] == here[key]


def test_bench_strength_prints_the_same_numbers(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    field = [RATED, *LADDER]
    assert main(["rate", "--players", RATED, "--ladder", ",".join(LADDER), "--walls", "2"]) == 0
    rated = capsys.readouterr().out.splitlines()
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    import bench_strength

    monkeypatch.setattr(sys, "argv", ["bench_strength.py", "--players", ",".join(field),
                                      "--walls", "2", "--procs", "1", "--pair", f"{RATED},fox"])
    bench_strength.main()
    benched = capsys.readouterr().out.splitlines()
    # the header (but its time), the table and the pair are the same lines
    assert benched[0].split(" in ")[0] == rated[0].split(" in ")[0]
    assert benched[1:7] == rated[1:7]
    assert benched[7] in rated
