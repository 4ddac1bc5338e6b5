"""The optional compiled engine: the modules a game spends its time in, built with mypyc.

The pure-Python modules are the reference and always work. ``build`` compiles the modules
in :data:`MODULES` to C extensions placed beside their ``.py`` files (an extension module
wins over the source of the same name on import); the same seeds give the same games and
byte-identical records. ``clean`` removes them again. Building needs a C compiler, the
Python headers and mypy (``pip install 'sgmahjong[fast]'``); nothing of it is needed to run
the result, and when the extensions cannot be loaded (another Python version, a failed
build) Python imports the ``.py`` files as usual.

    python -m sgmahjong.fast build             # beside this package's sources
    python -m sgmahjong.fast build --out DIR   # a compiled copy of the package in DIR
    python -m sgmahjong.fast status            # which engine is in use
    python -m sgmahjong.fast clean

``sgmahjong --version`` and ``sgmahjong simulate --json`` (key ``engine``) say which
engine runs. A build records its sources' digests: a module changed after it was compiled
is reported as out of date until it is built again (the stale extension is still what
Python imports, so rebuild or clean after editing).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# The modules compiled, in package order. Others (events, actions and their JSON codec,
# rules, scoring) stay Python: they use class decorators and class tricks
# mypyc's native classes do not allow, or run rarely.
MODULES = (
    "sgmahjong.tiles",
    "sgmahjong.melds",
    "sgmahjong.hand",
    "sgmahjong.analysis.decompose",
    "sgmahjong.game.prng",
    "sgmahjong.game.wall",
    "sgmahjong.game.winning",
    "sgmahjong.game.payouts",
    "sgmahjong.game.state",
    "sgmahjong.game.view",
    "sgmahjong.game.legal",
    "sgmahjong.game.machine",
    "sgmahjong.game.engine",
    "sgmahjong.game.match",
    "sgmahjong.agents.baseline",
)

EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"   # this Python's extensions
BUILD_RECORD = "_fast_build.json"  # in the package folder: sources' digests, files made

# mypy settings for the build: the compiled modules must type-check; the Python modules
# they import are read for their types only.
MYPY_CONFIG = """\
[mypy]
ignore_missing_imports = True
cache_dir = {cache}
[mypy-sgmahjong.*]
ignore_errors = True
"""

BUILD_SCRIPT = """\
import sys
from setuptools import setup
from mypyc.build import mypycify
paths, config, temp = sys.argv[1].split(","), sys.argv[2], sys.argv[3]
setup(name="sgmahjong-fast", script_args=["build_ext", "--inplace", "--build-temp", temp,
                                             "--build-lib", temp + "/lib"],
      ext_modules=mypycify(["--config-file", config, *paths], opt_level="3",
                           target_dir=temp))
"""


class BuildError(Exception):
    """The compiled modules could not be built."""


def _package_dir() -> Path:
    return Path(__file__).resolve().parent


def _source(root: Path, module: str) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled_modules() -> list[str]:
    """The modules of :data:`MODULES` that Python loaded from an extension, not a .py."""
    out = []
    for name in MODULES:
        module = sys.modules.get(name) or importlib.import_module(name)
        if not str(getattr(module, "__file__", "")).endswith(".py"):
            out.append(name)
    return out


def out_of_date() -> list[str]:
    """Compiled modules whose source changed since the build (their extension is stale)."""
    built = _record(_package_dir()).get("sources", {})
    root = _package_dir().parent
    return [m for m in compiled_modules()
            if m in built and _source(root, m).is_file() and _digest(_source(root, m)) != built[m]]


def engine() -> str:
    """Which engine this process runs: ``python``, ``compiled`` or ``partly compiled``
    (some modules), with ``, out of date`` when a source changed after the build."""
    done = compiled_modules()
    kind = ("python" if not done else "compiled" if len(done) == len(MODULES)
            else "partly compiled")
    return kind + (", out of date" if done and out_of_date() else "")


def _record(pkg: Path) -> dict[str, Any]:
    try:
        data = json.loads((pkg / BUILD_RECORD).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _extensions(pkg: Path) -> list[Path]:
    """Extension files of a build in ``pkg`` (a package folder): one beside each compiled
    module's source, and the shared library the build put in the parent folder (named in
    the build record: the parent may be a site-packages holding other projects' files)."""
    found = [_source(pkg.parent, m).with_suffix(EXT_SUFFIX) for m in MODULES]
    found += [pkg.parent / name for name in _record(pkg).get("shared", [])
              if "/" not in name and name.endswith(EXT_SUFFIX)]
    return [p for p in found if p.is_file()]


def clean(pkg: Path | None = None) -> list[Path]:
    """Remove the compiled modules of the package in ``pkg`` (default: this one)."""
    pkg = pkg or _package_dir()
    gone = _extensions(pkg)
    for p in gone:
        p.unlink()
    (pkg / BUILD_RECORD).unlink(missing_ok=True)
    return gone


def build(out: Path | None = None, *, quiet: bool = True) -> Path:
    """Compile :data:`MODULES` beside the sources of this package, or, with ``out``, in a
    copy of the package made in ``out`` (replacing an older copy). Returns the folder to
    put on ``PYTHONPATH`` (the package's parent). Raises :class:`BuildError`."""
    try:
        import mypyc  # noqa: F401  (only checks it is installed)
    except ImportError:
        raise BuildError("building needs mypy: pip install 'sgmahjong[fast]'") from None
    src = _package_dir()
    in_place = out is None or out.resolve() == src.parent
    root = src.parent if in_place else out.resolve()
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", BUILD_RECORD)
    # Built in a copy of the package alone: beside an installed package, mypy would read
    # the other projects of its site-packages as sources too.
    with tempfile.TemporaryDirectory(prefix="sgmahjong-fast-") as tmp:
        work = Path(tmp, "src")
        shutil.copytree(src, work / "sgmahjong", ignore=ignore)
        paths = [str(_source(work, m).relative_to(work)) for m in MODULES]
        config = Path(tmp, "mypy.ini")
        config.write_text(MYPY_CONFIG.format(cache=Path(tmp, "cache"))
                          + "".join(f"[mypy-{m}]\nignore_errors = False\n" for m in MODULES))
        res = subprocess.run([sys.executable, "-c", BUILD_SCRIPT, ",".join(paths),
                              str(config), str(Path(tmp, "build"))],
                             cwd=work, capture_output=True, text=True)
        if res.returncode != 0:
            lines = (res.stdout + res.stderr).strip().splitlines()
            errors = [x for x in lines if "error" in x.lower()] or lines[-20:]
            raise BuildError("the build failed (the pure-Python modules stay in use):\n"
                             + "\n".join(errors[:20]))
        # the build's shared library, named after a hash of the modules, sits beside the
        # package; each module's extension beside its source
        shared = sorted(p.name for p in work.glob("*__mypyc*"))
        root.mkdir(parents=True, exist_ok=True)
        if in_place:
            clean(src)
        else:
            if (root / "sgmahjong").exists():
                shutil.rmtree(root / "sgmahjong")
            shutil.copytree(src, root / "sgmahjong", ignore=ignore)
        for m in MODULES:
            shutil.copy2(_source(work, m).with_suffix(EXT_SUFFIX),
                         _source(root, m).with_suffix(EXT_SUFFIX))
        for name in shared:
            shutil.copy2(work / name, root / name)
    (root / "sgmahjong" / BUILD_RECORD).write_text(json.dumps({
        "sources": {m: _digest(_source(root, m)) for m in MODULES}, "shared": shared}))
    if not quiet:
        print(res.stdout)
    return root


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sgmahjong.fast",
                                 description=__doc__.splitlines()[0] if __doc__ else None)
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")
    b = sub.add_parser("build", help="compile the engine modules (needs mypy and a C compiler)")
    b.add_argument("--out", type=Path, metavar="DIR",
                   help="build a compiled copy of the package in DIR instead of in place")
    b.add_argument("--verbose", action="store_true", help="show the compiler's output")
    sub.add_parser("status", help="say which engine is in use and list compiled modules")
    sub.add_parser("clean", help="remove the compiled modules of this package")
    args = ap.parse_args(argv)
    if args.command == "build":
        try:
            root = build(args.out, quiet=not args.verbose)
        except (BuildError, OSError) as exc:
            print(f"sgmahjong.fast: {exc}", file=sys.stderr)
            return 1
        in_place = root == _package_dir().parent
        print(f"compiled {len(MODULES)} modules "
              + ("beside the sources" if in_place else f"in {root}"))
        if not in_place:
            print(f"use it with PYTHONPATH={root}")
        return 0
    if args.command == "clean":
        try:
            gone = clean()
        except OSError as exc:
            print(f"sgmahjong.fast: {exc}", file=sys.stderr)
            return 1
        print(f"removed {len(gone)} compiled files")
        return 0
    print(f"engine: {engine()}")
    for m in compiled_modules():
        print(f"  {m}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:      # `status | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
