"""Datasets for imitation and offline learning from match records: every decision a player
made with a choice, as the environment's observation, action mask and action index, with
the points that player went on to win or lose in the hand.

Any match record works (``sgmahjong simulate --records``, a terminal game, a record
downloaded from the web table: docs/records.md). Each record is replayed on the engine
exactly as ``sgmahjong replay --check`` does, so a record that is not what the engine
plays is refused, with its line. At each decision the arrays are those the four-player
environment (:mod:`.aec`, ``mode="match"``) gives the seat asked:

- ``observation`` (float32, N x 977): :func:`.observation.encode` of the seat's view,
  with the match totals before the hand;
- ``action_mask`` (int8, N x 109) and ``action`` (int64, N): the legal actions and the
  one the record shows taken (:mod:`.actions`);
- ``reward_to_go`` (float32, N): the points the seat was paid in the rest of the hand,
  from this decision on (its points at the hand's end less those it had before the
  decision): the sum of the environment's rewards for the hand from this step, without
  the next hand's deal;
- ``record``, ``hand``, ``player``, ``seat`` (int32, N): the record (an index into
  ``files``), the hand in it (0 first), the match player (0-3, as numbered in the
  header's ``players``) and the seat wind the player held in that hand;
- ``standin`` (bool, N): the decision was an AI stand-in's for a person whose time ran
  out or who was away (the web table marks these; docs/records.md); left in, so that a
  learner can leave them out;
- ``files`` (str): the records, in the order given.

Kept are the decisions where the seat had more than one legal action: a lone legal
action (the only discard left, say) teaches nothing, and the environment takes it all
the same. Seats with only Pass on a discard are never asked (as in the environment), so
they make no row. Where claims competed, the record shows only the winning one; the
other claimants' rows say Pass (the engine plays the hand the same way either way). A
hand a record ends in the middle of (a terminal game left unfinished) is left out: its
reward-to-go is not known.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from ..errors import SgmahjongError
from ..inputs import MAX_RECORD_BYTES, InputError, read_file
from ..record import STANDIN, Record, RecordError, iter_steps, loads_record
from ..tiles import Seat
from .actions import NUM_ACTIONS, action_index, legal_mask
from .observation import SIZE, encode

ARRAYS = ("observation", "action_mask", "action", "reward_to_go", "record", "hand",
          "player", "seat", "standin")
SEATS = ("all", "0", "1", "2", "3")


class DatasetError(SgmahjongError):
    """Records that cannot be made into a dataset (the message names the file)."""


@dataclass(frozen=True)
class Dataset:
    """The arrays of :data:`ARRAYS` (one row per decision) and the ``files`` they came
    from."""

    arrays: dict[str, np.ndarray]
    files: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.arrays["action"])

    def __getitem__(self, name: str) -> np.ndarray:
        return self.arrays[name]

    def save(self, out: str | Path | IO[bytes]) -> None:
        """Write the arrays and ``files`` as a compressed ``.npz`` (exactly at the path
        given: numpy would add ``.npz`` to a name without it)."""
        if isinstance(out, str | Path):
            with open(out, "wb") as f:
                self.save(f)
            return
        np.savez_compressed(out, files=np.array(self.files, dtype=np.str_), **self.arrays)


def load(path: str | Path) -> Dataset:
    """A dataset written by :meth:`Dataset.save`."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in ARRAYS}
        files = tuple(str(f) for f in data["files"])
    return Dataset(arrays, files)


@dataclass(frozen=True)
class Decision:
    """One row of a dataset, before it is stacked."""

    observation: np.ndarray
    action_mask: np.ndarray
    action: int
    reward_to_go: float
    hand: int
    player: int
    seat: int
    standin: bool


def decisions(record: Record, player: int | None = None, *,
              where: str = "record") -> Iterator[Decision]:
    """The rows of one record, hand by hand (a hand's rows once it has ended, so an
    unfinished last hand gives none); ``player`` keeps one match player's. A record that
    does not replay raises :class:`DatasetError` naming ``where``."""
    pending: list[tuple[Decision, int]] = []      # this hand's rows, with points before
    hand = -1
    game = None
    steps = iter_steps(record, unfinished=True)
    while True:
        try:
            step = next(steps)
        except StopIteration:
            break
        except RecordError as exc:
            raise DatasetError(f"{where}: {exc}") from None
        if step.hand != hand:
            yield from _finished(pending, game)
            pending, hand = [], step.hand
        game = step.game
        ms = step.match
        match_scores = [ms.scores[ms.player_at(s)] for s in Seat]
        standins = record.notes.get(step.index, {}).get(STANDIN, [])
        for seat in sorted(step.choices):
            p = ms.player_at(seat)
            legal = game.legal_actions(seat)
            if len(legal) < 2 or (player is not None and p != player):
                continue
            view = game.view(seat)
            offered = view.window_tile
            row = Decision(encode(view, match_scores, asked=True), legal_mask(legal, offered),
                           action_index(step.choices[seat], offered), 0.0, hand, p,
                           int(seat), int(seat) in standins)
            pending.append((row, game.state.scores[seat]))
    yield from _finished(pending, game)


def _finished(pending: list[tuple[Decision, int]], game: Any) -> Iterator[Decision]:
    if game is None or not game.ended:
        return
    final = game.state.scores
    for row, before in pending:
        yield Decision(row.observation, row.action_mask, row.action,
                       float(final[row.seat] - before), row.hand, row.player, row.seat,
                       row.standin)


def record_files(paths: Iterable[str | Path]) -> list[Path]:
    """The record files of ``paths``: a file as it is, a folder as its ``*.jsonl`` files
    (sorted by name)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found = sorted(p.glob("*.jsonl"))
            if not found:
                raise DatasetError(f"{p}: a folder with no record in it (*.jsonl)")
            out.extend(found)
        elif p.exists():
            out.append(p)
        else:
            raise DatasetError(f"{p}: no such file or folder")
    if not out:
        raise DatasetError("no records given")
    return out


def player_of(text: str) -> int | None:
    """``--seat``: a match player 0-3, or ``all`` (None)."""
    if text not in SEATS:
        raise DatasetError(f"--seat {text!r}: a match player 0-3, or 'all'")
    return None if text == "all" else int(text)


def from_records(paths: Iterable[str | Path], *, seat: int | None = None,
                 progress: Callable[[int], None] | None = None) -> Dataset:
    """The dataset of the records at ``paths`` (files, or folders of ``*.jsonl``), read one
    at a time; ``seat`` keeps one match player's decisions (None: all four).
    ``progress(files_done)`` is called after each file."""
    files = record_files(paths)
    chunks: list[dict[str, np.ndarray]] = []
    for i, path in enumerate(files):
        try:
            record = loads_record(read_file(path, MAX_RECORD_BYTES, str(path)), where=str(path))
        except (InputError, RecordError) as exc:
            raise DatasetError(str(exc)) from None
        rows = list(decisions(record, seat, where=str(path)))
        chunks.append(_stack(rows, i))
        if progress:
            progress(i + 1)
    arrays = {k: np.concatenate([c[k] for c in chunks]) for k in ARRAYS}
    return Dataset(arrays, tuple(str(p) for p in files))


def _stack(rows: Sequence[Decision], file: int) -> dict[str, np.ndarray]:
    n = len(rows)
    return {
        "observation": (np.stack([r.observation for r in rows]) if n
                        else np.zeros((0, SIZE), np.float32)),
        "action_mask": (np.stack([r.action_mask for r in rows]) if n
                        else np.zeros((0, NUM_ACTIONS), np.int8)),
        "action": np.array([r.action for r in rows], np.int64),
        "reward_to_go": np.array([r.reward_to_go for r in rows], np.float32),
        "record": np.full(n, file, np.int32),
        "hand": np.array([r.hand for r in rows], np.int32),
        "player": np.array([r.player for r in rows], np.int32),
        "seat": np.array([r.seat for r in rows], np.int32),
        "standin": np.array([r.standin for r in rows], np.bool_),
    }


__all__ = ["ARRAYS", "SEATS", "Dataset", "DatasetError", "Decision", "decisions",
           "from_records", "load", "player_of", "record_files"]
