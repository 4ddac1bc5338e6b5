"""``sgmahjong play`` options: bad ones give one clear error and exit 2."""

from __future__ import annotations

import argparse

import pytest

from sgmahjong.cli import main
from sgmahjong.commands.play import config_from_args, register


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    return parser.parse_args(["play", *argv])


OPPONENTS = "snail, rabbit, hedgehog, fox, owl"   # docs/play.md, weakest first


@pytest.mark.parametrize("argv, message", [
    (["--opponents", "snail,fox"], "three names separated by commas, got 'snail,fox'; "
                                   f"choose from {OPPONENTS}"),
    (["--opponents", "snail,fox,dragon"], f"unknown opponent 'dragon'; choose from {OPPONENTS}"),
    (["--opponents", "cat"], f"unknown opponent 'cat'; choose from {OPPONENTS}"),
    (["--opponents", "snail,foxx,owl"], "unknown opponent 'foxx' (did you mean fox?)"),
    (["--rules", "nonesuch"], "unknown rules 'nonesuch'"),
    (["--rules", "LIMIT"], "unknown rules 'LIMIT' (did you mean limit?)"),
    (["--delay", "-1"], "--delay must be 0 or more"),
    (["--claim-timer", "-1"], "--claim-timer must be 0 (no timer) or more"),
    (["--tiles", "klingon"], "--tiles"),
    (["--seed", "x"], "argument --seed: invalid int value: 'x'"),
    (["--bogus"], "unrecognized arguments: --bogus"),
    (["extra"], "unrecognized arguments: extra"),
], ids=["two-opponents", "unknown-opponent", "one-unknown-opponent", "misspelt-opponent",
        "unknown-rules", "rules-in-capitals", "negative-delay", "negative-claim-timer",
        "unknown-tiles", "bad-seed", "unknown-option", "extra-word"])
def test_bad_options_exit_2_with_one_error(argv: list[str], message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(["play", *argv])
    except SystemExit as stop:   # argparse's own errors
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("sgmahjong play: error: ") and message in err
    # every error of play points to play's own help, whoever found it
    assert err.endswith("; see 'sgmahjong play --help'\n")
    assert err.count("\n") == 1


def test_options_make_the_config() -> None:
    c = config_from_args(parse("--quick", "--opponents", "Snail, rabbit,owl", "--seed", "9",
                               "--no-hints", "--rules", "garden", "--delay", "0.5",
                               "--claim-timer", "3"))
    assert (c.quick, c.opponents, c.seed, c.hints, c.rules, c.ai_delay, c.claim_timer) == (
        True, ("snail", "rabbit", "owl"), 9, False, "garden", 0.5, 3.0)
    assert config_from_args(parse()).tiles is None          # the saved choice
    assert config_from_args(parse("--tiles", "latin")).tiles == "latin"


def test_default_opponents_are_hedgehog_fox_owl() -> None:
    assert config_from_args(parse()).opponents == ("hedgehog", "fox", "owl")


def test_play_without_a_terminal_is_one_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """stdin from /dev/null and stdout a pipe: one line on stderr, nothing drawn."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "SGMAHJONG_DATA_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "sgmahjong", "play"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("sgmahjong play: error: play needs a terminal")
    assert done.stderr.count("\n") == 1 and "\x1b" not in done.stderr
