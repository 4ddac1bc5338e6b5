"""``sgmahjong dataset`` and ``sgmahjong.env.dataset.from_records``: simulated, terminal and
web records made into rows that, replayed through the environment, play the records again
(the same events, the same scores), with rewards-to-go that are the hand's own payments;
the command writes what the API returns; bad records are one line naming the file."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from sgmahjong.agents import make_agent
from sgmahjong.cli import main
from sgmahjong.env import raw_env
from sgmahjong.env.aec import AGENTS
from sgmahjong.env.dataset import ARRAYS, Dataset, from_records, load
from sgmahjong.game import Match
from sgmahjong.record import Record, read_record, write_record
from sgmahjong.rules.loading import load_rules
from sgmahjong.session.match import quick_rules
from sgmahjong.tui.session import write_match_record
from sgmahjong.web.core import Decided, Reviewed, ReviewHand, Start, TableCore, Think, Timing
from sgmahjong.web.workers import think

# random players claim whatever they may, so the records hold chows, pongs and kongs
PLAYERS = ["random", "greedy", "rabbit", "random"]


def agents(names: list[str]) -> list:
    return [make_agent(n, 11 + p).act for p, n in enumerate(names)]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("records")
    out: dict[str, Path] = {}
    # simulated: sgmahjong simulate --records, two quick garden games and a standard match
    assert main(["simulate", "--rules", "garden", "--quick", "--games", "2", "--json",
                 "--players", ",".join(PLAYERS), "--records", str(folder / "sim")]) == 0
    assert main(["simulate", "--rules", "standard", "--games", "1", "--seed", "3", "--json",
                 "--players", ",".join(PLAYERS), "--records", str(folder / "std")]) == 0
    out["garden"] = folder / "sim"
    out["standard"] = folder / "std" / "game-00001.jsonl"
    # the terminal's record of a game left in its third hand: two hands, then the third's
    # events so far (the header counts the finished hands and says the match is not over)
    m = Match("garden", seed=5, quick=True)
    acts = agents(["greedy", "hedgehog", "fox", "rabbit"])
    for _ in range(2):
        g = m.start_hand()
        while not g.ended:
            g.ask([acts[m.state.player_at(s)] for s in range(4)])
        m.finish_hand()
    g = m.start_hand()
    for _ in range(15):
        g.ask([acts[m.state.player_at(s)] for s in range(4)])
    assert not g.ended
    out["terminal"] = write_match_record(folder / "play-20260101-120000.jsonl", m,
                                         ["You", "hedgehog", "fox", "rabbit"],
                                         {"table": "garden"}, list(g.events))
    # the web table's record, as its download gives it: a table of AI whose creator never
    # came, so the stand-in made each of her decisions (marked on its event line)
    out["web"] = write_record(folder / "sgmahjong-t1.jsonl", web_table_record())
    return out


@dataclass
class _Seat:
    player: int
    name: str
    kind: str
    level: str
    token_hash: str | None


@dataclass
class _Table:
    id: str = "t1"
    status: str = "waiting"
    rules: dict = field(default_factory=lambda: quick_rules(load_rules("garden")).to_dict())
    preset: str = "garden"
    quick: bool = True
    seed: int = 8
    hints: bool = False
    options: dict = field(default_factory=lambda: {"ai": ["fox", "snail", "rabbit"],
                                                   "standin": "hedgehog"})
    seats: list = field(default_factory=lambda: [_Seat(0, "Ann", "human", "hedgehog", "h")])


def web_table_record() -> Record:
    """A whole quick game of the web table's core, its AI answered as its workers would."""
    core = TableCore(_Table(), timing=Timing(0, 0, 0, 0, 0))
    queue: list = [Start(0)]
    while queue:
        for e in core.handle(queue.pop(0), 0.0).effects:
            if isinstance(e, Think):
                queue.append(Decided(e.job, *think(e.agent, e.view, e.legal)))
            elif isinstance(e, ReviewHand):
                queue.append(Reviewed(e.hand, e.player, None))
    assert core.status == "finished"
    return core.record()


def finished_hands(record: Record) -> int:
    return int(record.header["hands"])


def replay(record: Record, data: Dataset, index: int) -> np.ndarray:
    """Play the record's match in the environment, taking the dataset's action at each of
    its rows and the only legal action elsewhere; checks each row's observation, mask,
    player and seat against the environment's, and returns each row's reward-to-go as the
    environment's points show it (the hand's payments to the seat less those before)."""
    rows = iter(np.flatnonzero(data["record"] == index))
    e = raw_env(record.rules, mode="match", quick=record.quick)
    e.reset(options={"match_seed": record.seed})
    before: dict[int, int] = {}
    for agent in e.agent_iter():
        assert e.match is not None and e.game is not None
        if len(e.match.hands) == finished_hands(record):
            break
        obs, _, terminated, _, _ = e.last()
        assert not terminated
        mask = obs["action_mask"]
        if mask.sum() == 1:
            e.step(int(np.flatnonzero(mask)[0]))
            continue
        i = int(next(rows))
        seat = e.seat_of(agent)
        assert (data["player"][i], data["seat"][i]) == (AGENTS.index(agent), seat)
        assert data["hand"][i] == len(e.match.hands)
        assert np.array_equal(data["observation"][i], obs["observation"])
        assert np.array_equal(data["action_mask"][i], mask)
        before[i] = e.game.state.scores[seat]
        e.step(int(data["action"][i]))
    assert next(rows, None) is None, "every row was played"
    assert e.match is not None
    played = [ev for h in e.match.hands for ev in h.events]
    assert played == list(record.events[:len(played)])
    assert list(e.match.state.scores) == record.header["scores"]
    return np.array([e.match.hands[data["hand"][i]].deltas[data["player"][i]] - before[i]
                     for i in sorted(before)], np.float32)


def test_replaying_the_rows_plays_every_record_again(records: dict[str, Path]) -> None:
    paths = [records["garden"], records["standard"], records["terminal"], records["web"]]
    data = from_records(paths)
    files = [Path(f) for f in data.files]
    assert files[:2] == sorted(records["garden"].glob("*.jsonl")) and len(files) == 5
    for k, path in enumerate(files):
        record = read_record(path)
        rtg = replay(record, data, k)
        assert np.array_equal(data["reward_to_go"][data["record"] == k], rtg)
    # every row had a choice; in the web record the stand-in's are flagged: every one of
    # the absent creator's (match player 0), nobody else's
    assert (data["action_mask"].sum(axis=1) > 1).all()
    web = data["record"] == 4
    assert data["standin"][web].any()
    assert np.array_equal(data["standin"][web].astype(bool), data["player"][web] == 0)
    assert data["standin"].sum() == data["standin"][web].sum()
    # the terminal game's unfinished third hand gives no row
    terminal = data["record"] == 3
    assert set(data["hand"][terminal]) == {0, 1}


def test_the_rows_cover_claims_and_wins(records: dict[str, Path]) -> None:
    data = from_records([records["standard"]])
    taken = set(map(int, data["action"]))
    assert {37, 107, 108} <= taken            # pong, win, pass
    assert taken & {34, 35, 36}               # a chow
    assert any(a < 34 for a in taken)         # discards


def test_one_seat_is_that_player_s_rows(records: dict[str, Path]) -> None:
    everyone = from_records([records["web"]])
    one = from_records([records["web"]], seat=1)
    keep = everyone["player"] == 1
    assert keep.any() and (one["player"] == 1).all()
    for name in ARRAYS:
        assert np.array_equal(one[name], everyone[name][keep]), name


def test_the_command_writes_what_the_api_returns(records: dict[str, Path], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    paths = [str(records["garden"]), str(records["terminal"]), str(records["web"])]
    for seat, kept in (("all", None), ("3", 3)):
        out = tmp_path / f"d-{seat}"               # written at that name, no .npz added
        assert main(["dataset", *paths, "--seat", seat, "--out", str(out), "--json"]) == 0
        said = json.loads(capsys.readouterr().out)
        written = load(out)
        api = from_records(paths, seat=kept)
        assert said["decisions"] == len(api) == len(written) > 0
        assert written.files == api.files
        for name in ARRAYS:
            assert written[name].dtype == api[name].dtype
            assert np.array_equal(written[name], api[name]), name


def corrupt(path: Path, out: Path) -> Path:
    """The record with its first discard changed to another tile of the same hand."""
    lines = path.read_text().splitlines()
    for n, line in enumerate(lines):
        event = json.loads(line)
        if event.get("type") == "discarded":
            event["tile"] = "1m" if event["tile"] != "1m" else "2m"
            lines[n] = json.dumps(event)
            break
    out.write_text("\n".join(lines) + "\n")
    return out


@pytest.mark.parametrize("case, said", [
    ("text", "line 1 is not valid JSON"),
    ("json", "not a sgmahjong record"),
    ("binary", "UTF-8"),
    ("corrupt", "record mismatch at line"),
    ("cut", "record mismatch at line 41: the record ends here"),
    ("missing", "no such file or folder"),
    ("empty-folder", "a folder with no record in it"),
])
def test_bad_records_are_one_line_naming_the_file(
        case: str, said: str, records: dict[str, Path], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / f"{case}.jsonl"
    if case == "text":
        bad.write_text("hello\n")
    elif case == "json":
        bad.write_text('{"format": "notes"}\n')
    elif case == "binary":
        bad.write_bytes(bytes(range(256)))
    elif case == "corrupt":
        corrupt(records["standard"], bad)
    elif case == "cut":    # a simulated record that says it is complete, cut short
        lines = records["standard"].read_text().splitlines()
        bad.write_text("\n".join(lines[:40]) + "\n")
    elif case == "empty-folder":
        bad = tmp_path / "nothing"
        bad.mkdir()
    out = tmp_path / "out.npz"
    assert main(["dataset", str(records["web"]), str(bad), "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and not out.exists()
    assert captured.err.startswith(f"sgmahjong dataset: error: {bad}") and said in captured.err
    assert captured.err.count("\n") == 1, captured.err


def test_a_bad_seat_is_one_line(records: dict[str, Path], tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dataset", str(records["web"]), "--seat", "4", "--out",
                 str(tmp_path / "x.npz")]) == 2
    assert capsys.readouterr().err == ("sgmahjong dataset: error: --seat '4': a match player "
                                       "0-3, or 'all'\n")


def test_the_environment_refuses_a_match_seed_outside_a_match() -> None:
    from sgmahjong.env import EnvError
    with pytest.raises(EnvError, match="match_seed"):
        raw_env("standard").reset(options={"match_seed": 3})


def test_an_out_file_in_no_folder_is_one_line_before_any_record_is_read(
        records: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "no-such-folder" / "x.npz"
    assert main(["dataset", str(tmp_path / "missing.jsonl"), "--out", str(out)]) == 2
    assert capsys.readouterr().err == (f"sgmahjong dataset: error: --out {out}: no such "
                                       f"folder {str(out.parent)!r}\n")
