"""Every command's ``--help`` reads in an 80-column terminal: descriptions are wrapped, not
one long line, and the hand-written examples keep their layout."""

from __future__ import annotations

import pytest

from sgmahjong.cli import COMMANDS, main


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("command", COMMANDS)
def test_help_fits_80_columns(command: str, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    out = _help([command], capsys)
    # Example command lines are left whole, to be copied; every sentence is wrapped.
    too_long = [line for line in out.splitlines()
                if len(line) > 80 and not line.startswith("  sgmahjong ")]
    assert not too_long, too_long
    description = out.split("\n\n")[1]
    assert len(description.splitlines()) >= 1 and description[0].isupper()


def test_examples_keep_their_layout(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    out = _help(["score"], capsys)
    assert "\nexamples:\n  sgmahjong score \"123m456p789s777z1m\" --win 1m" in out


def test_a_wide_terminal_gets_wide_paragraphs(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    out = _help(["shanten"], capsys)
    assert "Print how many tile changes a hand is from ready (shanten), and with --detail the" \
        in out


@pytest.mark.parametrize("command", COMMANDS)
def test_an_unknown_option_points_to_its_command_s_help(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([command, "--no-such-option"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"sgmahjong {command}: error: ")
    assert err.endswith(f"; see 'sgmahjong {command} --help'\n") and err.count("\n") == 1


def test_an_unknown_option_before_the_command_is_the_top_parser_s(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--no-such-option", "play"])
    assert capsys.readouterr().err == ("sgmahjong: error: unrecognized arguments: "
                                       "--no-such-option; see 'sgmahjong --help'\n")
