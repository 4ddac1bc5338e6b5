"""``sgmahjong ledger`` on a local file: new, add, edit, delete, show, settle, and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from e2e.ledger_model import reckon

from sgmahjong.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_an_evening_at_the_laptop(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = str(tmp_path / "tonight.json")
    assert run(capsys, "ledger", "new", f, "--names", "Ann,Bob,Cy,Dee", "--stake", "0.10")[0] == 0
    steps = [
        (["win", "Ann", "3", "--from", "Bob"], {"type": "win", "winner": 0, "tai": 3, "from": 1}),
        (["drawn", "--instant", "Cy:claimed-kong"],
         {"type": "drawn", "instant": [{"player": 2, "reason": "claimed-kong"}]}),
        # a full hand: Dee shows White and Green, Ann feeds the Red (Bao), 7 tai
        (["win", "Dee", "--from", "Ann", "--hand", "77z123m99p", "--win", "7z",
          "--meld", "pong 555z", "--meld", "pong 666z"],
         {"type": "win", "winner": 3, "tai": 7, "from": 0, "liable": 0}),
        (["win", "Bob", "2", "--self-drawn", "--instant", "Bob:cat-mouse:dealt"],
         {"type": "win", "winner": 1, "tai": 2, "from": None,
          "instant": [{"player": 1, "reason": "cat-mouse", "dealt": True}]}),
    ]
    hands = []
    for argv, model in steps:
        code, out, err = run(capsys, "ledger", "add", f, *argv)
        assert code == 0, err
        hands.append(model)
        want = reckon(hands)
        names = ["Ann", "Bob", "Cy", "Dee"]
        totals = zip(names, want[-2]["totals"], strict=True)
        assert f"Totals: {', '.join(f'{n} {t:+d}' for n, t in totals)}" in out
        assert (f"Next: hand {len(hands) + 1}, {names[want[-1]['dealer']]} deals, "
                f"{want[-1]['round_wind']} round") in out
    hands[0] = {"type": "win", "winner": 2, "tai": 1, "from": 3}
    assert run(capsys, "ledger", "edit", f, "1", "win", "Cy", "1", "--from", "Dee")[0] == 0
    assert run(capsys, "ledger", "delete", f, "2")[0] == 0
    del hands[1]
    code, out, _ = run(capsys, "ledger", "show", f, "--json")
    shown = json.loads(out)
    want = reckon(hands)
    assert [(h["dealer"], h["round_wind"], h["totals"]) for h in shown["hands"]] == [
        (w["dealer"], w["round_wind"], w["totals"]) for w in want[:-1]]
    code, out, _ = run(capsys, "ledger", "settle", f)
    lines = out.splitlines()
    transfers = lines[lines.index("To settle up:") + 1:]
    assert 1 <= len(transfers) <= 3
    bal = dict(zip(["Ann", "Bob", "Cy", "Dee"], want[-2]["totals"], strict=True))
    for t in transfers:
        payer, _, payee, points, money = t.split()
        assert money == f"({int(points) / 10:.2f})"
        bal[payer] += int(points)
        bal[payee] -= int(points)
    assert set(bal.values()) == {0}


@pytest.mark.parametrize(("argv", "words"), [
    (["add", "F", "win", "Zed", "3", "--from", "Bob"], "no player named 'Zed'"),
    (["add", "F", "win", "Ann", "3"], "--from NAME"),
    (["add", "F", "win", "Ann", "3", "--from", "Bob", "--liable", "Ann"], "own win"),
    (["add", "F", "drawn", "--instant", "Ann:dragons"], "'dragons'"),
    (["edit", "F", "4", "drawn"], "no hands yet"),
    (["add", "F", "win", "Ann", "--from", "Bob", "--hand", "123m", "--win", "4m"],
     "must hold 13 tiles"),
    (["new", "F", "--names", "Ann,Bob"], "exists already"),
    (["show", "missing.json"], "no ledger file"),
])
def test_mistakes_get_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               argv: list[str], words: str) -> None:
    f = str(tmp_path / "l.json")
    assert run(capsys, "ledger", "new", f, "--names", "Ann,Bob,Cy,Dee")[0] == 0
    code, _, err = run(capsys, "ledger", *[f if a == "F" else a for a in argv])
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1
    assert json.loads(Path(f).read_text())["hands"] == []


def test_thirteen_wonders_needs_no_tai(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = str(tmp_path / "l.json")
    assert run(capsys, "ledger", "new", f, "--names", "Ann,Bob,Cy,Dee")[0] == 0
    code, out, err = run(capsys, "ledger", "add", f, "win", "Ann", "--from", "Bob",
                         "--thirteen-wonders")
    assert code == 0, err
    # standard: 8 raw, paid at the 5-tai cap (base 32) at the self-drawn rate: 64 from each
    assert "Hand 1: Ann won 8 tai, from Bob (Thirteen Wonders)" in out
    assert "Totals: Ann +192, Bob -64, Cy -64, Dee -64" in out
    code, _, err = run(capsys, "ledger", "add", f, "win", "Ann", "2", "--from", "Bob",
                       "--thirteen-wonders")
    assert code == 2 and "Thirteen Wonders is 8 tai under 'standard'" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("argv", "words"), [
    (["new", "G", "--names", "Ann,Bob,Cy,Dee", "--stake", "0.001"], "whole cents"),
    (["add", "F", "drawn", "--instant", "Bob:concealed-kong"],
     "a concealed kong pays nothing under 'standard'"),
])
def test_what_the_rules_do_not_pay_gets_one_line(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str],
                                                 argv: list[str], words: str) -> None:
    f, g = str(tmp_path / "l.json"), str(tmp_path / "g.json")
    assert run(capsys, "ledger", "new", f, "--names", "Ann,Bob,Cy,Dee")[0] == 0
    code, _, err = run(capsys, "ledger", *[{"F": f, "G": g}.get(a, a) for a in argv])
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1
    assert json.loads(Path(f).read_text())["hands"] == [] and not Path(g).exists()


def test_a_big_stake_is_written_plainly(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    f = str(tmp_path / "l.json")
    code, out, err = run(capsys, "ledger", "new", f, "--names", "Ann,Bob,Cy,Dee",
                         "--stake", "1e6")
    assert code == 0, err
    assert "1000000.00 a point" in out and "E+" not in out
    assert run(capsys, "ledger", "add", f, "win", "Ann", "3", "--from", "Bob")[0] == 0
    code, out, _ = run(capsys, "ledger", "show", f)
    assert "1000000.00 a point" in out and "E+" not in out
    code, out, _ = run(capsys, "ledger", "settle", f)
    # 3 tai, base 8: Bob 16, Cy and Dee 8 each; Ann +32 points, 32 million at the stake
    assert "1. Ann +32 (32000000.00)" in out and "Bob pays Ann 16 (16000000.00)" in out


def test_a_ledger_token_never_reads_as_an_option(monkeypatch) -> None:
    # token_urlsafe starts with "-" one time in 64; such a token pasted after
    # `sgmahjong ledger delete` was taken for an option
    import secrets

    from sgmahjong.store import ledgers

    drawn = iter(["-dash", "_ok", "-x", "fine"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n: next(drawn))
    assert ledgers.new_tokens() == ("_ok", "fine")
