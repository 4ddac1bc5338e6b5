"""The ``sgmahjong`` command line: one subcommand per module of :mod:`sgmahjong.commands`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from . import __version__
from .errors import SgmahjongError

# Command modules keep heavy imports (Rich, Textual, the engine) inside their runners, so
# building the parser stays cheap for every command.
COMMANDS = ["score", "shanten", "simulate", "replay", "play", "serve", "ledger"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sgmahjong",
        description="Singapore Mahjong: score hands, analyse them, play and simulate games.",
    )
    parser.add_argument("--version", action="version", version=f"sgmahjong {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"sgmahjong.commands.{name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except SgmahjongError as exc:
        print(f"sgmahjong {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        # A file or folder the user named cannot be read or written.
        print(f"sgmahjong {args.command}: error: {exc.strerror or exc}: "
              f"{exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
