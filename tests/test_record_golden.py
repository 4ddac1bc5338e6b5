"""Seeded matches replay exactly: the record of a seeded match under every preset has the
digest it had when these were fixed, so faster engine or agent code cannot change play.

A deliberate change of behaviour (a rule fix, a new agent decision) changes these digests:
check the new play is right (``sgmahjong replay``, ``bench/check_records.py`` against the
previous commit shows where records part), then put the new digests here. The generator
version in the header is left out, so a release alone changes nothing.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from sgmahjong.record import check_record, dumps_record
from sgmahjong.rules import load_rules
from sgmahjong.simulate import game_record, game_seed, play_match

GREEDY = ("greedy", "greedy", "greedy", "greedy")
MIXED = ("random", "greedy", "rabbit", "random")   # random players claim and kong often

DIGESTS = {
    ("standard", GREEDY): "91f55a8ed65ef08b",
    ("limit", GREEDY): "bc0d7d390f751b49",
    ("casual", GREEDY): "58fe8ae80cb0c58e",
    ("garden", GREEDY): "66cfdb7c66f1b266",
    ("automatic", GREEDY): "445951f513f16288",
    ("menqing", GREEDY): "3fb32790239bae28",
    ("standard", MIXED): "f8c87e506d6d9404",
    ("limit", MIXED): "ec7adff8709456a0",
    ("casual", MIXED): "f259b5ef2f378a04",
    ("garden", MIXED): "fb98b3c8702c9e69",
    ("automatic", MIXED): "3adff65fff0b1a48",
    ("menqing", MIXED): "6745a5d7875377b3",
}


def record_digest(text: str) -> str:
    """The digest of a record's text, its header read without the generator version."""
    lines = text.splitlines()
    header = json.loads(lines[0])
    header.pop("generator")
    body = "\n".join([json.dumps(header, sort_keys=True), *lines[1:]])
    return hashlib.sha256(body.encode()).hexdigest()[:16]


@pytest.mark.parametrize(("preset", "players"), list(DIGESTS),
                         ids=[f"{p}-{'greedy' if pl == GREEDY else 'mixed'}"
                              for p, pl in DIGESTS])
def test_seeded_match_record_is_unchanged(preset: str, players: tuple[str, ...]) -> None:
    # Game 0 of `sgmahjong simulate --seed 17 --rules PRESET --players ... --records DIR`.
    _, match = play_match(load_rules(preset), players, game_seed(17, 0), 0)
    record = game_record(match, players, 0)
    assert check_record(record).ok          # the record replays to its own header
    assert record_digest(dumps_record(record)) == DIGESTS[preset, players]
