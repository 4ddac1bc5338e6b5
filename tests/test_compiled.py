"""The optional compiled engine (``python -m sgmahjong.fast build``, see docs/engine.md).

Run against a compiled copy of the package (``PYTHONPATH`` on its folder), these check
that the compiled modules are the ones in use; the same run's tests/game and
tests/test_record_golden.py then check that they play the same games. Without a compiled
build the tests that need one are skipped, unless ``SGMAHJONG_REQUIRE_COMPILED=1`` makes
that a failure. A plain run builds one and runs them that way itself (the last test).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import sgmahjong
from sgmahjong import fast
from sgmahjong.game import Game, PlayerView, SeatView
from sgmahjong.tiles import Seat


def _compiled() -> bool:
    done = fast.compiled_modules()
    if not done and os.environ.get("SGMAHJONG_REQUIRE_COMPILED") == "1":
        pytest.fail("SGMAHJONG_REQUIRE_COMPILED=1 but the engine modules are Python: build "
                    "them with python -m sgmahjong.fast build --out DIR, run with "
                    "PYTHONPATH=DIR")
    return bool(done)


needs_build = pytest.mark.skipif("not _compiled()", reason="no compiled engine in use")


def _cli(*args: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(Path(sgmahjong.__file__).parent.parent))
    res = subprocess.run([sys.executable, "-m", "sgmahjong", *args], env=env,
                         capture_output=True, text=True, check=True)
    return res.stdout


@needs_build
def test_every_engine_module_is_the_compiled_one_and_up_to_date() -> None:
    assert fast.compiled_modules() == list(fast.MODULES)
    assert fast.out_of_date() == []
    assert fast.engine() == "compiled"


@needs_build
def test_version_and_simulate_json_name_the_compiled_engine() -> None:
    assert _cli("--version").strip() == f"sgmahjong {sgmahjong.__version__} (engine: compiled)"
    summary = json.loads(_cli("simulate", "--games", "1", "--quick", "--rules", "garden",
                              "--json"))
    assert summary["engine"] == "compiled"


@needs_build
def test_views_are_frozen_views_of_the_table() -> None:
    g = Game.new("standard", seed=5)
    v = g.view(Seat.EAST)
    assert type(v) is PlayerView and all(type(s) is SeatView for s in v.seats)
    assert len(v.concealed) == 14 and v.seats[Seat.SOUTH].concealed_count == 13
    with pytest.raises(AttributeError):
        v.turn = Seat.SOUTH  # type: ignore[misc]


def test_the_engine_is_named_by_where_its_modules_were_loaded_from() -> None:
    compiled = fast.compiled_modules()     # imports each module
    files = {m: str(sys.modules[m].__file__) for m in fast.MODULES}
    assert compiled == [m for m in fast.MODULES if not files[m].endswith(".py")]
    if not compiled:
        assert fast.engine() == "python"
        assert _cli("--version").strip() == f"sgmahjong {sgmahjong.__version__} (engine: python)"


def test_a_changed_source_marks_the_build_out_of_date(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # A copy of the package with a build record for its sources, one of which then
    # changes: only that module is out of date (compiled_modules is what a build loads).
    pkg = tmp_path / "sgmahjong"
    (pkg / "game").mkdir(parents=True)
    for m in ("sgmahjong.game.state", "sgmahjong.tiles"):
        fast._source(tmp_path, m).write_text(f"# {m}\n")
    (pkg / fast.BUILD_RECORD).write_text(json.dumps({"sources": {
        m: fast._digest(fast._source(tmp_path, m))
        for m in ("sgmahjong.game.state", "sgmahjong.tiles")}, "shared": []}))
    monkeypatch.setattr(fast, "_package_dir", lambda: pkg)
    monkeypatch.setattr(fast, "compiled_modules",
                        lambda: ["sgmahjong.game.state", "sgmahjong.tiles"])
    assert fast.out_of_date() == []
    fast._source(tmp_path, "sgmahjong.tiles").write_text("# changed\n")
    assert fast.out_of_date() == ["sgmahjong.tiles"]
    assert fast.engine() == "partly compiled, out of date"


def test_clean_removes_only_the_build_s_files(tmp_path: Path) -> None:
    suffix = fast.sysconfig.get_config_var("EXT_SUFFIX")
    pkg = tmp_path / "sgmahjong"
    (pkg / "game").mkdir(parents=True)
    made = [pkg / "game" / f"state{suffix}", tmp_path / f"abc__mypyc{suffix}"]
    kept = [pkg / "game" / "state.py", tmp_path / f"other__mypyc{suffix}",
            pkg / "game" / f"codec{suffix}"]
    for p in made + kept:
        p.write_text("x")
    (pkg / fast.BUILD_RECORD).write_text(json.dumps({"sources": {},
                                                     "shared": [f"abc__mypyc{suffix}"]}))
    assert sorted(fast.clean(pkg)) == sorted(made)
    assert all(p.exists() for p in kept) and not any(p.exists() for p in made)
    assert not (pkg / fast.BUILD_RECORD).exists()


def test_building_without_mypy_says_what_to_install(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "mypyc", None)    # as if it were not installed
    assert fast.main(["build", "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert err == ("sgmahjong.fast: building needs mypy: pip install 'sgmahjong[fast]'\n")
    assert not (tmp_path / "out").exists()


# ----------------------------------------------------------------------------------------
# From a plain run (README's test command, as in CI): build the compiled engine into a
# folder of its own and run the tests above, the game tests and the golden records against
# it, in a second process that imports the compiled package first.

INNER = "SGMAHJONG_COMPILED_INNER"
REPO = Path(__file__).resolve().parent.parent


def test_the_compiled_engine_plays_the_same_games(tmp_path: Path) -> None:
    """Built in place, as ``pip install '.[fast]' && python -m sgmahjong.fast build`` does
    in a site-packages folder that holds other projects' modules too."""
    if os.environ.get(INNER) == "1":
        pytest.skip("this is the run against the compiled engine")
    required = os.environ.get("SGMAHJONG_REQUIRE_FAST_BUILD") == "1"
    site = tmp_path / "site-packages"
    shutil.copytree(Path(sgmahjong.__file__).parent, site / "sgmahjong",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", fast.BUILD_RECORD))
    import typing_extensions  # a module of another project, as a site-packages holds

    shutil.copy(typing_extensions.__file__, site)
    env = dict(os.environ, PYTHONPATH=str(site))
    build = subprocess.run([sys.executable, "-m", "sgmahjong.fast", "build"], env=env,
                           capture_output=True, text=True)
    if build.returncode != 0:
        message = f"the compiled engine could not be built:\n{build.stderr[-2000:]}"
        if required:
            pytest.fail(message)
        pytest.skip(message)
    assert build.stdout.startswith(f"compiled {len(fast.MODULES)} modules beside the sources")
    env.update({"SGMAHJONG_REQUIRE_COMPILED": "1", INNER: "1"})
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-o", "addopts=", "tests/test_compiled.py",
                          "tests/test_record_golden.py", "tests/game"],
                         cwd=REPO, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and " failed" not in run.stdout
