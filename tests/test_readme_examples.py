"""The command examples in README run as written."""

import re
import shlex
from pathlib import Path

import pytest

from sgmahjong.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"
EXAMPLES = [
    line.split("#")[0].strip()
    for line in README.read_text(encoding="utf-8").splitlines()
    if re.match(r"sgmahjong (score|shanten) ", line) and "|" not in line
]


def test_readme_has_examples():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("line", EXAMPLES)
def test_readme_example_runs(line, capsys):
    assert main(shlex.split(line)[1:]) == 0
    assert capsys.readouterr().out.strip()
