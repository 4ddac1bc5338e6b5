"""``sgmahjong replay --review`` on the record downloaded from a finished web table."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Player, create_table, start

from sgmahjong.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_review_cli import check_review


def test_review_of_a_downloaded_web_record(make_client: Any, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    c = make_client()
    t = create_table(c)   # Ann (player 0) and three AIs, a quick casual game
    tid = t["table_id"]
    ann = Player(c, tid, t["token"])
    start(c, tid, t["token"])
    ann.play()
    r = c.get(f"/api/tables/{tid}/record")
    assert r.status_code == 200
    path = tmp_path / "download.jsonl"
    path.write_text(r.text, encoding="utf-8")
    assert main(["replay", str(path), "--review", "--seat", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Review of p0 Ann against Owl (rules casual)")
    check_review(path, 0, out)
    # Ann throws whatever she draws: the Owl disagrees somewhere, and casual counts no tai
    assert re.search(r"In all: \d+ decisions, \d+ as Owl would \(\d+%\); of the other "
                     r"[1-9]\d*: ", out)
    assert not re.search(r"\btai\b", out)
