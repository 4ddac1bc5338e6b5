"""The ``sgmahjong`` command line: one subcommand per module of :mod:`sgmahjong.commands`."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import __version__
from .errors import SgmahjongError

# Command modules keep heavy imports (Rich, Textual, the engine) inside their runners, so
# building the parser stays cheap for every command.
COMMANDS = ["score", "shanten", "simulate", "rate", "dataset", "replay", "play", "serve",
            "ledger"]


class _Parser(argparse.ArgumentParser):
    """argparse with its errors on one line, as every other error of the command line:
    the usage block is left to --help, where it is asked for."""

    commands: dict[str, argparse.ArgumentParser]
    """The subcommands' parsers, by name (on the top parser)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}; see '{self.prog} --help'\n")


class _Version(argparse.Action):
    """``--version``: the version and the engine in use (pure Python or compiled, see
    :mod:`sgmahjong.fast`), read only when asked (it imports the engine)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from .fast import engine
        print(f"sgmahjong {__version__} (engine: {engine()})")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="sgmahjong",
        description="Singapore Mahjong: score hands, analyse them, play and simulate games.",
    )
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="show the version and which engine runs, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"sgmahjong.commands.{name}")
        module.register(sub)
    parser.commands = dict(sub.choices)
    return parser


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """The arguments, or exit 2 with one line. Words a command does not know are reported
    by that command, with its own help ("sgmahjong play: error: unrecognized arguments:
    --bogus; see 'sgmahjong play --help'"): argparse would hand them to the top parser,
    whose hint names the wrong help."""
    words = list(sys.argv[1:] if argv is None else argv)
    args, extra = parser.parse_known_args(words)
    if extra:
        command = getattr(parser, "commands", {}).get(args.command or "")
        after = words.index(args.command) if args.command in words else len(words)
        if command is not None and all(x in words[after + 1:] for x in extra):
            command.error(f"unrecognized arguments: {' '.join(extra)}")
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parse(parser, argv)
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
    except Exception as exc:
        if os.environ.get("SGMAHJONG_TRACEBACK"):
            raise
        print(f"sgmahjong {args.command}: internal error ({type(exc).__name__}: "
              f"{_first_line(exc)}); this is a bug in sgmahjong, please report it with the "
              "command you ran (SGMAHJONG_TRACEBACK=1 shows the details)", file=sys.stderr)
        return 1


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    line = lines[0] if lines else "no message"
    return line if len(line) <= 200 else line[:197] + "..."


if __name__ == "__main__":
    sys.exit(main())
