"""``sgmahjong simulate --ray``: the same summary and the same records as ``--workers 1``,
on a local Ray cluster, also when a worker is killed mid-run."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from sgmahjong.cli import main

ray = pytest.importorskip("ray")

# what depends on the machine, not on the games
TIMING = ("seconds", "hands_per_second", "workers", "engine")   # not results of the games


def summary(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["simulate", "--json", *argv]) == 0
    out = json.loads(capsys.readouterr().out)
    return {k: v for k, v in out.items() if k not in TIMING}


def busy_workers() -> list[int]:
    """The Ray worker processes playing a batch now (Ray titles them by their task)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmd = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if cmd.startswith(b"ray::play_batch"):
                pids.append(int(entry.name))
    return pids


@pytest.fixture
def cluster() -> object:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=True, logging_level="ERROR")
    yield ray
    ray.shutdown()


def test_a_run_on_ray_equals_a_run_in_one_process(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--rules", "garden", "--quick", "--games", "7", "--seed", "11"]
    here = summary(capsys, *argv, "--records", str(tmp_path / "one"))
    there = summary(capsys, *argv, "--ray", "--workers", "2",
                    "--records", str(tmp_path / "ray"))
    assert there == here and here["games"] == 7
    one = sorted((tmp_path / "one").iterdir())
    assert [p.name for p in one] == [p.name for p in sorted((tmp_path / "ray").iterdir())]
    for p in one:
        assert (tmp_path / "ray" / p.name).read_bytes() == p.read_bytes()


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc")
def test_a_worker_killed_mid_run_has_its_games_played_again(
        cluster: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sgmahjong.cluster import simulate_on_ray

    killed: list[int] = []

    def progress(done: int) -> None:
        # after the first batch, kill a worker in the middle of another one
        deadline = time.monotonic() + 20
        while not killed and time.monotonic() < deadline:
            for pid in busy_workers()[:1]:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            if not killed:
                time.sleep(0.01)  # polling for a busy process, not waiting on a timer

    got = simulate_on_ray("standard", ["greedy"] * 4, games=24, seed=3,
                          records=tmp_path / "ray", progress=progress)
    assert killed, "no busy worker was found to kill"
    assert capsys.readouterr().out == ""     # Ray's notice of the death is not on stdout
    want = summary(capsys, "--games", "24", "--seed", "3", "--records", str(tmp_path / "one"))
    assert {k: v for k, v in got.to_json().items() if k not in TIMING} == want
    assert sorted(p.name for p in (tmp_path / "ray").iterdir()) == sorted(
        p.name for p in (tmp_path / "one").iterdir())


def test_ray_refuses_what_it_cannot_do_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--ray", "--players", "cmd:python bot.py", "--games", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "cmd:" in err and len(err.strip().splitlines()) == 1
