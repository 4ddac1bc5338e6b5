"""Hints on set positions: the discard and why, waits, tai sources, claims, Bao, a win."""

from __future__ import annotations

from test_levels import E, N, S, W, view_of  # tests/agents is on sys.path (rootdir layout)

from sgmahjong.agents.danger import read_threats
from sgmahjong.agents.dealin import DANGEROUS, SAFE, dealin, dealin_label, in_words
from sgmahjong.agents.evaluation import claim_options, situation
from sgmahjong.agents.expected import close_margin, evaluate_claim, evaluate_pass
from sgmahjong.agents.hints import (
    bao_warnings,
    claim_hints,
    claim_values,
    current_waits,
    hints,
    suggest_discard,
    tai_hint,
    win_hint,
)
from sgmahjong.game.actions import Chow, Pong
from sgmahjong.game.events import PatternScore, Won
from sgmahjong.tiles import Tile, parse_tiles


def test_discard_hint_names_the_tile_the_shanten_and_what_remains() -> None:
    d = suggest_discard(view_of("779m1167p89s77z", melds=["pong 555p"]))
    assert d is not None and d.tile != Tile.RED
    assert d.shanten == 2 and d.remaining == sum(d.useful.values()) > 0
    assert d.sentence == f"Throw {d.tile.english}: {d.reason}"
    assert "2 tiles away from ready" in d.sentence
    assert f"{d.remaining} left unseen" in d.sentence
    assert "Red Dragon pair" in d.plan


def test_discard_hint_says_when_ready_and_safe() -> None:
    # The Cat gives the tai (without it, waiting on 1m/4m with the East pair as the eye
    # would be a 0-tai hand that cannot win, and the Owl would not call that ready).
    v = view_of("123m456p789s11z23m9s", others={N: ["pong 111p", "chow 234s", "pong 888m"]},
                discards={N: "9s"}, bonus="1a")
    d = suggest_discard(v)
    assert d is not None and d.tile == Tile.S9
    assert d.sentence.startswith("Throw 9 Bamboo: you are ready, waiting on 1 or 4 Characters")
    assert "safe against North" in d.safety


def test_waits_with_unseen_counts_and_their_tai() -> None:
    w = current_waits(view_of("123m456p789s777z1m", window="9p", turn=E))
    assert w.waits == {Tile.M1: 2, Tile.M4: 4}
    assert w.tai == {Tile.M1: 1, Tile.M4: 1}
    assert w.sentence == "Waiting on 1 or 4 Characters: 6 unseen (1 tai each)."


def test_a_ready_hand_with_no_tai_is_told_so() -> None:
    # 13 tiles, already ready (after 9s, the Owl no longer throws itself into this hand).
    w = current_waits(view_of("123m456p789s11z23m"))
    assert set(w.waits) == {Tile.M1, Tile.M4}
    assert "too few tai to win" in w.sentence


def test_no_tai_yet_keep_the_red_pair_or_aim_for_all_chows() -> None:
    t = tai_hint(view_of("77z234m56p3467s19s", window="1p", turn=N))
    assert not t.secured and t.reachable
    assert t.sentence.startswith("No tai yet: keep the Red Dragon pair or aim for ping hu")


def test_tai_already_certain_from_an_animal() -> None:
    t = tai_hint(view_of("234m56p3467s19s12z5z", bonus="1a"))
    assert t.secured == 1 and "enough for the minimum of 1" in t.sentence


def test_claim_hints_take_a_useful_chow_and_skip_a_zero_tai_pong() -> None:
    # the chow makes South ready on 2 or 5 Bamboo for ping hu, from one away
    [chow] = claim_hints(view_of("23m456p789p34s55s8s", turn=E, window="4m"))
    assert isinstance(chow.action, Chow) and chow.take
    assert "to ready" in chow.sentence
    assert chow.expected is not None and chow.skip_expected is not None
    assert chow.expected > chow.skip_expected
    [pong] = claim_hints(view_of("123m456m789p55p3s9s", window="5p", turn=N))
    assert isinstance(pong.action, Pong) and not pong.take
    assert "no tai" in pong.sentence


def test_claim_hint_takes_a_dragon_pong_for_its_tai() -> None:
    [pong] = claim_hints(view_of("77z34p78m46s9s1z", melds=["chow 123m"], window="7z", turn=N))
    assert pong.take and "tai" in pong.sentence


def test_bao_warning_before_the_third_dragon() -> None:
    v = view_of("1238m57p1335789s7z", others={E: ["pong 666z", "pong 555z"]})
    [w] = bao_warnings(v)
    assert w.tile == Tile.RED and w.seat == E and w.case == "third-dragon"
    assert w.sentence.startswith("Careful with Red Dragon: East shows two dragon sets")
    assert hints(v).bao == (w,)


def test_win_hint_lists_where_the_tai_came_from() -> None:
    won = Won(S, Tile.M1, N, (), 3, 3, (PatternScore("dragon-pong", 2, 2),
                                        PatternScore("animal", 1, 1)), "regular")
    h = win_hint(won)
    assert h.items == (("dragon-pong", 2), ("animal", 1))
    assert h.sentence == "3 tai: Dragon Pong ×2 (2 tai), Animal (1 tai)."


def test_a_claim_on_the_1_of_characters_names_it() -> None:
    # Tile 0 is the 1 of Characters: a claim hint once tested it for truth and lost it
    [pong] = claim_hints(view_of("11m456p789p34s7s8s9s", window="1m", turn=N))
    assert isinstance(pong.action, Pong)
    assert pong.sentence.split(":")[0].endswith("the Pong of 1 Characters")


def test_two_chows_say_which_tiles_each_one_uses() -> None:
    # South holds 2, 3, 5 and 6 Circles; East throws the 4: three chows, three sentences
    claims = claim_hints(view_of("2356p1199m45789s", window="4p", turn=E))
    names = [c.sentence.split(":")[0] for c in claims if isinstance(c.action, Chow)]
    assert [n.split(" the ", 1)[1] for n in names] == [
        "Chow 2-3-4 Circles with your 2 and 3 Circles",
        "Chow 3-4-5 Circles with your 3 and 5 Circles",
        "Chow 4-5-6 Circles with your 5 and 6 Circles"]


def test_a_win_on_offer_is_said_first_with_its_tai() -> None:
    # South waits on 1 or 4 Characters with a Red Dragon pong (1 tai); North throws the 4
    v = view_of("23m456p789s11z", melds=["pong 777z"], window="4m", turn=N)
    h = hints(v)
    assert h.win is not None and h.win.tile == Tile.M4 and h.win.tai == 1
    assert h.win.sentence == "You can win now on 4 Characters (1 tai)."
    assert h.discard is None


def test_a_self_drawn_win_suggests_no_throw() -> None:
    v = view_of("23m456p789s11z4m", melds=["pong 777z"], last_drawn="4m")
    h = hints(v)
    assert h.win is not None and h.win.sentence == "You can win now on 4 Characters (1 tai)."
    assert h.discard is None
    assert hints(view_of("23m456p789s11z9m", melds=["pong 777z"])).win is None


def test_rules_that_count_no_tai_get_hints_without_tai() -> None:
    # casual: any complete hand wins, so a hint never speaks of tai
    turn = hints(view_of("779m1167p89s77z", melds=["pong 555p"], rules="casual"))
    ready = hints(view_of("123m456p789s11z23m9s", rules="casual"))
    claim = hints(view_of("77z34p78m46s9s1z", melds=["chow 123m"], window="7z", turn=N,
                          rules="casual"))
    win = hints(view_of("23m456p789s11z", melds=["chow 234s"], window="4m", turn=N,
                        rules="casual"))
    assert turn.tai.sentence == "Any complete hand wins under these rules."
    assert win.win is not None and win.win.sentence == "You can win now on 4 Characters."
    texts = [turn.tai.sentence, turn.discard.sentence, ready.discard.sentence,  # type: ignore[union-attr]
             ready.waits.sentence, *(c.sentence for c in claim.claims), win.win.sentence]
    assert claim.claims and all("tai" not in t for t in texts), texts


def test_a_concealed_kong_is_no_wait_on_a_fifth_copy() -> None:
    # East holds a concealed kong of 6 Characters; 2-3-4-4-5-7-7-8-9-9-9 Characters in hand:
    # throwing one tile can leave a hand whose shape "waits" on a sixth 6 Characters
    v = view_of("23445778999m", seat=E, melds=["concealed-kong 6666m"], last_drawn="3m")
    h = hints(v)
    assert h.discard is not None and Tile.M6 not in h.discard.useful
    assert Tile.M6 not in h.waits.waits and Tile.M6 not in h.waits.tai


# --------------------------------------------------------------- trade-offs and close calls

def test_a_pong_that_gives_up_ping_hu_says_so() -> None:
    # South holds 2-2 Characters, 3-4 and 6-7-8 Circles, 2-3 and 4-5 Bamboo and a Red Dragon
    # pair: all runs so far, so ping hu (4 tai under standard) is in reach. Ponging North's
    # 2 Characters makes the hand ready at once, but a pong rules ping hu out; the only tai
    # left to aim for is the Red Dragon pair.
    [pong] = claim_hints(view_of("22m34p678p23s45s77z", window="2m", turn=N))
    assert isinstance(pong.action, Pong) and pong.take and not pong.close
    assert pong.given_up == ("ping hu (4 tai)",)
    # the verdict and the figures it gives are the Owl's own evaluation of both choices
    v = view_of("22m34p678p23s45s77z", window="2m", turn=N)
    take = evaluate_claim(v, situation(v), Pong())
    skip = evaluate_pass(v, situation(v))
    assert take is not None and take.expected > skip.expected
    assert (pong.expected, pong.skip_expected) == (take.expected, skip.expected)
    assert pong.sentence == (
        "Take the Pong of 2 Characters: it brings you from 1 tile away from ready to ready, "
        "but it gives up ping hu (4 tai); your hand would have no tai yet, only the Red "
        f"Dragon pair to aim for. Expected points: {take.expected:.1f} points taking it, "
        f"{skip.expected:.1f} points skipping.")


def test_a_claim_that_gives_up_nothing_says_nothing_of_it() -> None:
    [chow] = claim_hints(view_of("23m456p789p34s7s8s9s", turn=E, window="4m"))
    assert chow.given_up == () and "gives up" not in chow.sentence


def test_close_choices_are_reported_as_close() -> None:
    # Two lone winds of no value to South (West and North, with East the round wind): throwing
    # either leaves the same hand, so the hint must not pretend one is clearly right.
    d = suggest_discard(view_of("234m567p78s3s5p19m34z"))
    assert d is not None and {d.tile, d.close} == {Tile.WEST, Tile.NORTH}
    other = "North Wind" if d.tile == Tile.WEST else "West Wind"
    assert f"a close call: {other} is about as good" in d.sentence
    # A pong that keeps South one away and trades all chows (1 tai) for a set: taking and
    # skipping are about as good by the Owl's count, and the hint says so.
    v = view_of("22m34p678p23s45s78s", window="2m", turn=N, bonus="1a")
    [pong] = claim_hints(v)
    take, skip = claim_values(v, claim_options(v, [Pong()])[0])
    assert abs(take - skip) < close_margin(v.rules) and pong.take == (take > skip)
    other = "skipping" if pong.take else "taking"
    assert pong.close and f"A close call: {other} it is about as good." in pong.sentence
    # ...while a pong that makes the hand ready is no close call (see above).


def test_trade_offs_say_nothing_of_tai_under_casual() -> None:
    [pong] = claim_hints(view_of("22m34p678p23s45s77z", window="2m", turn=N, rules="casual"))
    assert "tai" not in pong.sentence and pong.given_up == ()


# --------------------------------------------------------------- reading danger

# West shows two sets and, after throwing honours and ends, has thrown middle tiles: it looks
# ready. South holds a lone Red Dragon nobody has thrown, and 9 Characters, which West threw;
# throwing the Red Dragon makes South ready for ping hu (4 tai), anything else leaves it one
# away: a hand worth pushing, so the Owl throws the Red Dragon and the hint says how risky.
DANGER_HAND = "123m456p678s35p99m7z"
WEST_SETS = {W: ["pong 222s", "chow 345m"]}
WEST_DISCARDS = {W: "1z9m1s2z4p6s", E: "1m2p"}


def test_a_discard_into_a_seat_that_looks_ready_is_dangerous_and_a_safe_tile_is_offered() -> None:
    # 30 playable tiles left: late enough that a fresh Red Dragon is won on about 1 in 16
    v = view_of(DANGER_HAND, others=WEST_SETS, discards=WEST_DISCARDS, live_remaining=30)
    d = suggest_discard(v)
    red, nine = dealin(v, Tile.RED), dealin(v, Tile.M9)
    assert red.probability >= DANGEROUS and nine.probability < SAFE
    assert d is not None and d.tile == Tile.RED and d.danger == "dangerous"
    assert d.safer == Tile.M9
    assert d.chance == red.probability and d.safer_chance == nine.probability
    assert ("careful, West looks ready (two sets out and a sudden change from honours and "
            f"ends to middle tiles): Red Dragon is dangerous ({in_words(red.probability)} "
            "that someone wins on it); 9 Characters is safe (West threw it; "
            f"{in_words(nine.probability)}), though it leaves you 1 tile away from ready"
            ) in d.sentence
    [threat] = hints(v).threats
    assert threat.seat == W and threat.safe == (Tile.M9, Tile.P4, Tile.S6)
    assert threat.sentence == ("West looks ready (two sets out and a sudden change from "
                               "honours and ends to middle tiles); safe against West in your "
                               "hand: 9 Characters, 4 Circles and 6 Bamboo.")


def test_earlier_in_the_hand_the_same_tile_carries_some_risk() -> None:
    # 60 playable tiles left: the same fresh Red Dragon is won on far less often
    v = view_of(DANGER_HAND, others=WEST_SETS, discards=WEST_DISCARDS, live_remaining=60)
    d = suggest_discard(v)
    p = dealin(v, Tile.RED).probability
    assert SAFE <= p < DANGEROUS
    assert d is not None and d.tile == Tile.RED and d.danger == "some risk"
    assert d.safer is None and d.chance == p
    assert (f"Red Dragon carries some risk ({in_words(p)} that someone wins on it)"
            in d.sentence)


def test_the_warning_names_only_the_seats_the_tile_is_not_safe_against() -> None:
    # North also looks ready (three sets out) but threw a Red Dragon: only West is named.
    north = {N: ["pong 111p", "chow 789p", "pong 555z"]}
    v = view_of(DANGER_HAND, others={**WEST_SETS, **north},
                discards={**WEST_DISCARDS, N: "7z3z"}, live_remaining=30)
    assert [t.seat for t in read_threats(v) if t.ready] == [N, W]
    d = suggest_discard(v)
    p = dealin(v, Tile.RED).probability
    assert d is not None and d.tile == Tile.RED and d.danger == dealin_label(p)
    assert d.safety.startswith("careful, West looks ready (two sets out and a sudden change "
                               "from honours and ends to middle tiles): Red Dragon ")
    assert f"({in_words(p)} that someone wins on it)" in d.safety


def test_the_same_seat_without_its_sets_does_not_look_ready() -> None:
    v = view_of(DANGER_HAND, discards=WEST_DISCARDS)
    d = suggest_discard(v)
    assert dealin(v, Tile.RED).probability < DANGEROUS   # nothing notable to say either
    assert d is not None and d.danger is None and d.safety == "" and d.chance is None
    assert hints(v).threats == ()


def test_with_nobody_looking_ready_a_notable_chance_is_still_said() -> None:
    # Eight playable tiles left and every other seat shows one set: nobody looks ready
    # (one set out and a short wall is not enough), but a fresh Red Dragon this late is
    # won on often enough to say so.
    others = {W: ["pong 222s"], E: ["chow 345m"], N: ["pong 111z"]}
    discards = {W: "1z9m1s2z4p6s4z1p", E: "1m2p9s9p3z", N: "2z3z4z8p1s"}
    late = view_of(DANGER_HAND, others=others, discards=discards, live_remaining=8)
    d = suggest_discard(late)
    p = dealin(late, Tile.RED).probability
    assert p >= DANGEROUS
    assert d is not None and d.tile == Tile.RED and d.danger is None and d.chance == p
    assert d.safety == ("nobody looks ready, but Red Dragon is not safe: "
                        f"{in_words(p)} that someone wins on it")
    # with forty tiles left the same table says nothing
    early = view_of(DANGER_HAND, others=others, discards=discards, live_remaining=40)
    assert dealin(early, Tile.RED).probability < DANGEROUS
    assert suggest_discard(early).safety == ""  # type: ignore[union-attr]


def test_a_tile_passed_since_the_seats_own_discard_is_safe_against_it() -> None:
    # West threw the 6 Bamboo last; North then threw a Red Dragon and West did not win on it:
    # under the passed-claim rule West cannot win on the Red Dragon before its next draw.
    v = view_of(DANGER_HAND, others=WEST_SETS, discards={**WEST_DISCARDS, N: "7z"})
    history = [(W, t) for t in parse_tiles("1z9m1s2z4p6s")] + [(N, Tile.RED)]
    d = suggest_discard(v, history)
    p = dealin(v, Tile.RED, history=history).probability
    assert p < SAFE
    assert d is not None and d.tile == Tile.RED and d.danger == "safe"
    assert ("it is safe against West, who looks ready (West let it pass): "
            f"{in_words(p)} that someone wins on it") in d.sentence


def test_bao_is_told_as_a_risk_to_your_own_points() -> None:
    # A limit win (5 tai) on your discard under Bao: you pay the discarder's 2 x 32 and each
    # other payer's 32, 128 points in all (standard: base 2^5, discarder pays double).
    v = view_of("1238m57p1335789s7z", others={E: ["pong 666z", "pong 555z"]})
    [w] = bao_warnings(v)
    assert w.sentence.endswith("if East wins on it, you pay for the whole table (up to 128 "
                               "points).")
