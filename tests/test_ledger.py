"""The evening's ledger (core): payments, totals, dealer and round wind, edits, settle-up."""

from __future__ import annotations

import itertools
import json
import random
from decimal import Decimal

import pytest
from e2e.ledger_model import reckon

from sgmahjong.ledger import Ledger, LedgerError, settle

NAMES = ["Ann", "Bob", "Cy", "Dee"]

EVENING = [
    {"type": "win", "winner": 0, "tai": 3, "from": 1},
    {"type": "drawn"},
    {"type": "win", "winner": 2, "tai": 1, "from": None},
    {"type": "win", "winner": 1, "tai": 7, "from": 3, "liable": 3},
    {"type": "drawn", "instant": [{"player": 0, "reason": "claimed-kong"}]},
    {"type": "win", "winner": 3, "tai": 2, "from": 0,
     "instant": [{"player": 3, "reason": "cat-mouse", "dealt": True},
                 {"player": 1, "reason": "added-kong"}]},
    {"type": "win", "winner": 0, "tai": 8, "from": 2, "thirteen_wonders": True},
    {"type": "drawn", "kong": True},
    {"type": "win", "winner": 1, "tai": 4, "from": None,
     "instant": [{"player": 1, "reason": "four-flowers"}]},
    {"type": "win", "winner": 2, "tai": 2, "from": 1},
    {"type": "win", "winner": 0, "tai": 1, "from": 3},
    {"type": "win", "winner": 3, "tai": 5, "from": 2},
]


def check(led: Ledger, hands: list[dict]) -> None:
    want = reckon(hands)
    got = led.results()
    assert len(got) == len(hands)
    for r, w in zip(got, want, strict=False):
        assert (r.dealer, r.round_wind.name.title(), list(r.deltas), list(r.totals)) == (
            w["dealer"], w["round_wind"], w["deltas"], w["totals"])
    nxt = led.next_hand()
    assert (nxt["dealer"], nxt["round_wind"]) == (want[-1]["dealer"], want[-1]["round_wind"])


def test_an_evening_hand_by_hand_with_edits_and_deletes() -> None:
    led = Ledger.new(NAMES, "standard")
    hands: list[dict] = []
    for h in EVENING:
        led = led.add(h)
        hands.append(h)
        check(led, hands)
    # the round wind moves on after four passes of the deal: hands 6 and 10 start a round
    assert [r.round_wind.name[0] for r in led.results()] == list("EEEEESSSSWWW")
    edited = {"type": "win", "winner": 1, "tai": 2, "from": 0}
    led = led.edit(1, edited)          # the drawn hand was a win after all
    hands[1] = edited
    check(led, hands)
    led = led.delete(4)
    del hands[4]
    check(led, hands)
    again = Ledger.from_dict(led.to_dict())
    assert again.results() == led.results()


def test_a_full_hand_is_scored_by_the_scorer_at_its_seat() -> None:
    led = Ledger.new(NAMES, "standard").add({"type": "drawn", "kong": True})
    # Bob deals the second hand? No: a kong was declared, so the deal passed to Bob.
    assert led.next_hand()["dealer"] == 1
    # Ann sits North now; Cy (South) feeds the third dragon: Bao, 7 tai paid as 5
    led = led.add({"type": "win", "winner": 0, "from": 2,
                   "hand": {"concealed": "77z123m99p", "melds": ["pong 555z", "pong 666z"],
                            "win_tile": "7z"}})
    r = led.results()[-1]
    assert r.deltas == (128, 0, -128, 0)
    assert r.text == "Ann won 7 tai, from Cy (Bao: Cy pays)"
    assert (r.raw_tai, r.tai, r.liable) == (7, 5, 2)


def test_the_csv_export_cannot_smuggle_a_formula() -> None:
    led = Ledger.new(["=HYPERLINK(1)", "Bob", "Cy", "Dee"]).add(
        {"type": "win", "winner": 1, "tai": 1, "from": 0})
    head, row = led.csv_rows()
    assert head[4] == "'=HYPERLINK(1) points"
    assert row[1] == "'=HYPERLINK(1)"          # the dealer's name
    assert row[3] == "Bob won 1 tai, from =HYPERLINK(1)"
    # 1 tai, base 2: the discarder pays 4, the others 2
    assert row[4:8] == ["-4", "8", "-2", "-2"]


def test_bad_entries_are_refused_by_name() -> None:
    led = Ledger.new(NAMES, "standard")
    for entry, words in [
        ({"type": "win", "winner": 0, "tai": 0, "from": 1}, "at least 1 tai"),
        ({"type": "win", "winner": 0, "tai": 2, "from": 0}, "cannot pay for their own"),
        ({"type": "win", "winner": "Zed", "tai": 2}, "no player named 'Zed'"),
        ({"type": "won"}, "'type' must be"),
        ({"type": "drawn", "instant": [{"player": 1, "reason": "dragon"}]}, "'dragon'"),
        ({"type": "win", "winner": 0, "from": 1, "hand": {"concealed": "1m", "win_tile": "1m"}},
         "must hold 13 tiles"),
    ]:
        with pytest.raises(LedgerError, match=words):
            led.add(entry)
    with pytest.raises(LedgerError, match="no Bao"):
        Ledger.new(NAMES, "limit").add({"type": "win", "winner": 0, "tai": 2, "from": 1,
                                        "liable": 1})
    with pytest.raises(LedgerError, match="must differ"):
        Ledger.new(["Ann", "ann", "Cy", "Dee"])
    with pytest.raises(LedgerError, match="no hand 3"):
        led.add({"type": "drawn"}).edit(3, {"type": "drawn"})


def test_settle_up_uses_the_fewest_transfers() -> None:
    rng = random.Random(5)
    for _ in range(300):
        t = [rng.choice([0, 4, 8, 16, 32, 64]) * rng.choice([1, -1]) for _ in range(3)]
        totals = [*t, -sum(t)]
        out = settle(totals)
        bal = list(totals)
        for tr in out:
            assert tr.points > 0
            bal[tr.payer] += tr.points
            bal[tr.payee] -= tr.points
        assert bal == [0, 0, 0, 0]
        # the fewest: no shorter list of transfers exists (tried over every split)
        nonzero = [x for x in totals if x]
        groups = max((k for k in range(1, len(nonzero) + 1)
                      for split in itertools.product(range(k), repeat=len(nonzero))
                      if all(sum(x for x, g in zip(nonzero, split, strict=True) if g == i) == 0
                             and i in split for i in range(k))), default=0)
        assert len(out) == len(nonzero) - groups <= 3


def test_where_nobody_pays_the_totals_are_scores() -> None:
    # garden: the winner scores 2^tai (doubled self-drawn), nobody pays; the banker stays
    # after a banker's win; casual: one point a win, the deal passes after another's win
    led = Ledger.new(NAMES, "garden").add({"type": "win", "winner": 0, "tai": 2, "from": 1})
    led = led.add({"type": "win", "winner": 0, "tai": 1, "from": None})
    assert led.totals() == (4 + 4, 0, 0, 0)
    s = led.summary()
    assert (s["pays"], s["settle"], s["next"]["dealer"]) == (False, [], 0)
    led = Ledger.new(NAMES, "casual").add({"type": "win", "winner": 2, "tai": 0, "from": 1})
    assert led.add({"type": "drawn"}).totals() == (0, 0, 1, 0)
    assert led.next_hand()["dealer"] == 1


def test_hands_keep_their_ids_through_edits_deletes_and_a_restore() -> None:
    led = Ledger.new(NAMES, "standard")
    for h in EVENING[:4]:
        led = led.add(h)
    assert led.ids == ("h1", "h2", "h3", "h4")
    led = led.delete(1)
    led = led.add({"type": "drawn"})          # a new hand never takes a deleted hand's id
    assert led.ids == ("h1", "h3", "h4", "h5")
    led = led.restore("h2")
    assert led.ids == ("h1", "h2", "h3", "h4", "h5")
    assert list(led.hands[:4]) == EVENING[:4]
    assert led.restore("h2") == led           # restored twice: no change
    again = Ledger.from_dict(json.loads(led.dumps()))
    assert again.ids == led.ids and again.totals() == led.totals()
    with pytest.raises(LedgerError, match="'h9'"):
        led.index_of("h9")


def test_a_ledger_file_from_before_hand_ids_gets_them_in_order() -> None:
    data = Ledger.new(NAMES, "standard").to_dict()
    data["hands"] = EVENING[:3]
    del data["next_id"], data["deleted"]
    led = Ledger.from_dict(data)
    assert led.ids == ("h1", "h2", "h3") and led.add({"type": "drawn"}).ids[-1] == "h4"


def test_an_edit_early_in_the_evening_moves_every_later_hand() -> None:
    """Hands already applied are reused (the ledger does not score them all again): the
    totals after an early edit still equal an independent reckoning of every hand."""
    led = Ledger.new(NAMES, "standard")
    for h in EVENING:
        led = led.add(h)
    led.summary()
    changed = {"type": "win", "winner": 3, "tai": 2, "from": None}   # the deal passes now
    hands = [EVENING[0], changed, *EVENING[2:]]
    edited = led.edit(1, changed)
    want = reckon(hands)
    assert [(r.dealer, r.round_wind.name.title(), list(r.totals)) for r in edited.results()] == [
        (w["dealer"], w["round_wind"], w["totals"]) for w in want[:-1]]


# --- Thirteen Wonders: the rules' value, not a number typed in ---------------------------------

def test_thirteen_wonders_takes_its_tai_from_the_rules() -> None:
    # standard: 8 raw, paid at the 5-tai cap (base 32) at the self-drawn rate even off
    # Bob's discard: 64 from each of three
    led = Ledger.new(NAMES, "standard").add(
        {"type": "win", "winner": 0, "from": 1, "thirteen_wonders": True})
    r = led.results()[0]
    assert (r.raw_tai, r.tai, r.deltas) == (8, 5, (192, -64, -64, -64))
    assert r.text == "Ann won 8 tai, from Bob (Thirteen Wonders)"
    # a bonus tile on top adds (8 + an Animal = 9): more than 8 is taken
    assert Ledger.new(NAMES, "standard").add(
        {"type": "win", "winner": 0, "from": 1, "tai": 9, "thirteen_wonders": True}
    ).results()[0].raw_tai == 9
    # limit: a limit hand of 5, paid at the ordinary rates, base 2^(5-1) = 16: Bob (the
    # discarder) 32, Cy and Dee 16 each
    r = Ledger.new(NAMES, "limit").add(
        {"type": "win", "winner": 0, "from": 1, "thirteen_wonders": True}).results()[0]
    assert (r.raw_tai, r.deltas) == (5, (64, -32, -16, -16))
    # casual: it wins one point, like any complete hand
    led = Ledger.new(NAMES, "casual").add(
        {"type": "win", "winner": 2, "from": 1, "thirteen_wonders": True})
    assert led.totals() == (0, 0, 1, 0)


@pytest.mark.parametrize(("rules", "tai", "words"), [
    ("standard", 2, "Thirteen Wonders is 8 tai under 'standard'"),
    ("standard", 7, "Thirteen Wonders is 8 tai under 'standard'"),
    ("limit", 2, "Thirteen Wonders is a limit hand of 5 tai under 'limit'"),
    ("limit", 6, "Thirteen Wonders is a limit hand of 5 tai under 'limit'"),
])
def test_thirteen_wonders_at_another_tai_is_refused(rules: str, tai: int, words: str) -> None:
    led = Ledger.new(NAMES, rules)
    with pytest.raises(LedgerError, match=words):
        led.add({"type": "win", "winner": 0, "from": 1, "tai": tai, "thirteen_wonders": True})


# --- instant payouts: only those the rules pay -------------------------------------------------

def test_an_instant_payout_the_rules_do_not_pay_is_refused() -> None:
    # standard: a concealed kong pays nothing at once (RULES.md, instant payouts)
    led = Ledger.new(NAMES, "standard")
    with pytest.raises(LedgerError, match="a concealed kong pays nothing under 'standard'"):
        led.add({"type": "drawn", "instant": [{"player": 1, "reason": "concealed-kong"}]})
    assert led.summary()["instant_reasons"] == [
        "claimed-kong", "added-kong", "cat-mouse", "rooster-centipede", "own-flower-season",
        "four-animals", "four-flowers", "four-seasons"]
    # menqing: it pays 2 from each, like the other kongs; the deal passes (a kong)
    led = Ledger.new(NAMES, "menqing").add(
        {"type": "drawn", "instant": [{"player": 1, "reason": "concealed-kong"}]})
    r = led.results()[0]
    assert r.deltas == (-2, 6, -2, -2)
    assert r.lines == ("the others each pay Bob 2 for a concealed kong",)
    assert "concealed-kong" in led.summary()["instant_reasons"]
    assert Ledger.new(NAMES, "limit").summary()["instant_reasons"] == []


def test_a_stored_ledger_with_a_payout_of_nothing_still_opens_and_says_no_zero() -> None:
    # written before such payouts were refused: it still opens, the kong still passes the
    # deal, and no line says "pay Bob 0"
    data = Ledger.new(NAMES, "standard").to_dict()
    data["hands"] = [{"type": "drawn", "instant": [{"player": 1, "reason": "concealed-kong"}]}]
    led = Ledger.from_dict(data)
    r = led.results()[0]
    assert r.deltas == (0, 0, 0, 0) and r.lines == ()
    assert r.text == "Drawn hand (a kong was declared)"
    assert led.next_hand()["dealer"] == 1


def test_a_drawn_hand_with_a_kong_payout_says_a_kong_was_declared() -> None:
    led = Ledger.new(NAMES, "standard").add(
        {"type": "drawn", "instant": [{"player": 2, "reason": "claimed-kong"}]})
    r = led.results()[0]
    assert r.text == "Drawn hand (a kong was declared)"
    assert led.next_hand()["dealer"] == 1      # the deal passed: a kong was declared
    # a bonus pair is not a kong: the deal stays
    led = Ledger.new(NAMES, "standard").add(
        {"type": "drawn", "instant": [{"player": 2, "reason": "cat-mouse"}]})
    assert led.results()[0].text == "Drawn hand"
    assert led.next_hand()["dealer"] == 0


# --- money ----------------------------------------------------------------------------------

@pytest.mark.parametrize("stake", ["0.001", "0.005", "0.125", 0.001, "1e-3"])
def test_a_stake_finer_than_a_cent_is_refused(stake: object) -> None:
    with pytest.raises(LedgerError, match="whole cents"):
        Ledger.new(NAMES, "standard", stake)


def test_money_adds_up_to_zero_and_is_written_plainly() -> None:
    hands = [{"type": "win", "winner": 0, "tai": 3, "from": 1},      # +32 -16 -8 -8
             {"type": "win", "winner": 2, "tai": 1, "from": None}]   # -4 -4 +12 -4
    led = Ledger.new(NAMES, "standard", "0.05")
    for h in hands:
        led = led.add(h)
    s = led.summary()
    # totals 28, -20, 4, -12 at 5 cents a point
    assert s["money"] == ["1.40", "-1.00", "0.20", "-0.60"]
    assert sum(Decimal(m) for m in s["money"]) == 0
    # Bob pays Ann 20, Dee pays Ann 8 and Cy 4
    assert [(t["text"], t["money"]) for t in s["settle"]] == [
        ("Bob pays Ann 20", "1.00"), ("Dee pays Ann 8", "0.40"), ("Dee pays Cy 4", "0.20")]
    big = Ledger.new(NAMES, "standard", "1e6").add(hands[0])
    assert big.summary()["stake"] == "1000000.00"
    assert big.summary()["money"] == ["32000000.00", "-16000000.00", "-8000000.00",
                                      "-8000000.00"]
    # a ledger stored with a finer stake still opens, its money exact and adding up
    data = led.to_dict()
    data["stake"] = "0.001"
    old = Ledger.from_dict(data)
    assert old.summary()["money"] == ["0.028", "-0.020", "0.004", "-0.012"]


def test_the_csv_has_each_players_money_when_there_is_a_stake() -> None:
    led = Ledger.new(NAMES, "standard", "0.10").add(
        {"type": "win", "winner": 0, "tai": 3, "from": 1}).add(
        {"type": "win", "winner": 2, "tai": 1, "from": None})
    head, *rows = led.csv_rows()
    assert head[-4:] == ["Ann money", "Bob money", "Cy money", "Dee money"]
    # the running totals at 0.10 a point: 32 -16 -8 -8, then 28 -20 4 -12
    assert [r[-4:] for r in rows] == [["3.20", "-1.60", "-0.80", "-0.80"],
                                      ["2.80", "-2.00", "0.40", "-1.20"]]
    head, *rows = Ledger.new(NAMES, "standard").add(
        {"type": "win", "winner": 0, "tai": 3, "from": 1}).csv_rows()
    assert not any("money" in h for h in head) and len(rows[0]) == len(head) == 12
