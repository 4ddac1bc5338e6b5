"""The Owl's look-ahead: hands played out on sampled tables, by the rules of a hand (a
discard completing a hand is won on by the nearest seat in turn order, a draw completing
one wins it, an empty wall ends it drawn), samples that only use tiles the seat cannot see,
and the same decision for the same view."""

from __future__ import annotations

import random

from test_levels import N, S, choose, view_of  # tests/agents is on sys.path (rootdir layout)

from sgmahjong.agents.evaluation import situation
from sgmahjong.agents.expected import evaluate_discards, load_points_model, spared
from sgmahjong.agents.lookahead import (
    SAMPLES,
    _sample,
    close_candidates,
    look_ahead,
    playout,
)
from sgmahjong.agents.owl import Owl
from sgmahjong.game.actions import Discard
from sgmahjong.tiles import Tile, counts34, parse_tiles


def _counts(text: str) -> list[int]:
    return counts34(parse_tiles(text))


# Seat 1 (South) waits on 5p only: three runs of characters, a pong of 1p and a lone 5p.
SOUTH_WAITS_5P = "123456789m111p5p"
# Seat 2 waits on 5p too (a pong of 9s, runs, a lone 5p)
WEST_WAITS_5P = "123s456s789s999s5p"
NOTHING = "147m258p369s1234z"   # thirteen lonely tiles: one more completes nothing


def test_a_discard_that_completes_a_hand_is_won_on_by_the_nearest_seat() -> None:
    hands = {1: _counts(SOUTH_WAITS_5P), 2: _counts(WEST_WAITS_5P), 3: _counts(NOTHING)}
    melds = {0: 0, 1: 0, 2: 0, 3: 0}
    p5 = int(Tile.parse("5p"))
    # East (0) throws 5p: South is next in turn order and wins on it
    assert playout(0, _counts(NOTHING), 0, p5, hands, melds, []) == (1, 0)
    # thrown by North (3): East holds nothing, South again comes first
    hands3 = {0: _counts(NOTHING), 1: _counts(SOUTH_WAITS_5P), 2: _counts(WEST_WAITS_5P)}
    assert playout(3, _counts(NOTHING), 0, p5, hands3, melds, []) == (1, 3)
    # thrown by South (1): West (2) is nearer than anyone else who waits on it
    hands1 = {0: _counts(NOTHING), 2: _counts(WEST_WAITS_5P), 3: _counts(NOTHING)}
    assert playout(1, _counts(SOUTH_WAITS_5P), 0, p5, hands1, melds, []) == (2, 1)


def test_a_draw_that_completes_a_hand_wins_it_and_an_empty_wall_ends_the_hand() -> None:
    hands = {1: _counts(SOUTH_WAITS_5P), 2: _counts(NOTHING), 3: _counts(NOTHING)}
    melds = {0: 0, 1: 0, 2: 0, 3: 0}
    z7 = int(Tile.parse("7z"))
    p5 = int(Tile.parse("5p"))
    # nobody wants East's 7z; South draws 5p from the wall: self-drawn, nobody dealt in
    assert playout(0, _counts(NOTHING), 0, z7, hands, melds, [p5]) == (1, None)
    # an empty wall: the hand is drawn
    assert playout(0, _counts(NOTHING), 0, z7, hands, melds, []) == (-1, None)


def test_a_seat_with_declared_sets_completes_with_fewer_concealed_tiles() -> None:
    # North shows three sets and holds 1p 1p 5p 6p: it wins on 4p or 7p, not on 5p
    hands = {1: _counts(NOTHING), 2: _counts(NOTHING), 3: _counts("11p56p")}
    melds = {0: 0, 1: 0, 2: 0, 3: 3}
    assert playout(0, _counts(NOTHING), 0, int(Tile.parse("5p")), dict(hands), melds,
                   []) == (-1, None)
    assert playout(0, _counts(NOTHING), 0, int(Tile.parse("7p")), dict(hands), melds,
                   []) == (3, 0)


def test_samples_use_only_copies_the_seat_cannot_see() -> None:
    v = view_of("123m456m789p1s2s3s5z", others={N: ["pong 111p", "pong 888m"]},
                discards={N: "9s9s", S: "1z"})
    sit = situation(v)
    rng = random.Random(5)
    for _ in range(20):
        hands, wall = _sample(v, sit, rng)
        # each other seat holds what the view says it holds
        assert {s: sum(c) for s, c in hands.items()} == \
            {int(sv.seat): sv.concealed_count for sv in v.seats if sv.seat != v.seat}
        used = [sum(c[k] for c in hands.values()) + wall.count(k) for k in range(34)]
        assert all(used[k] <= sit.unseen[k] for k in range(34))
        assert len(wall) <= v.live_remaining


def test_the_same_view_gives_the_same_figures_and_decision() -> None:
    v = view_of("13m57m24p68p1s5s9s2z4z6z")
    sit = situation(v)
    evals = evaluate_discards(v, sit)
    give = spared(v.rules, load_points_model())
    assert len(close_candidates(v, evals)) >= 2       # a hand of close choices
    once = look_ahead(v, sit, evals, give)
    assert look_ahead(v, sit, evals, give) == once
    assert _looking_owl().evaluations(v, list(v.concealed), sit) == once
    # every candidate is still there, best first; only the close ones' figures moved
    assert sorted(e.tile for e in once) == sorted(e.tile for e in evals)
    assert [e.expected for e in once] == sorted((e.expected for e in once), reverse=True)
    close = {e.tile for e in close_candidates(v, evals)}
    static = {e.tile: e for e in evals}
    assert all(e == static[e.tile] for e in once if e.tile not in close)


def _looking_owl() -> Owl:
    owl = Owl(1)
    owl.samples = SAMPLES
    return owl


def test_with_the_look_ahead_the_owl_still_folds_a_hopeless_hand() -> None:
    # The fold position of test_levels: far from ready, North shows three sets and threw
    # 5s. A playout now and then wins a hopeless hand by luck; that must not outweigh the
    # calibrated danger of the other tiles (it did before playouts had to be sure).
    v = view_of("159m28p5s7s1z2z3z4z6z7z9p", others={N: ["pong 111p", "chow 234s",
                                                      "pong 888m"]},
                discards={N: "5s"}, live_remaining=30)
    assert choose(_looking_owl(), v) == Discard(Tile.S5)
