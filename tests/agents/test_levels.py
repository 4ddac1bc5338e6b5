"""The five levels: each one's characteristic choice on set positions, and fair play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from sgmahjong.agents.dealin import dealin
from sgmahjong.agents.evaluation import (
    bao_dangers,
    claim_options,
    discard_options,
    situation,
    view_plan,
)
from sgmahjong.agents.levels import LEVELS, Fox, Hedgehog, Owl, Rabbit, Snail, make_level
from sgmahjong.game import Match
from sgmahjong.game.actions import Chow, Discard, Kong, Pass, Pong, Win
from sgmahjong.game.legal import legal_actions
from sgmahjong.game.state import DeclaredSet, Phase
from sgmahjong.game.view import PlayerView, SeatView
from sgmahjong.melds import Meld
from sgmahjong.rules.loading import load_rules
from sgmahjong.tiles import Seat, Tile, parse_tiles

E, S, W, N = Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH


def _declared(text: str, used: dict[Tile, int]) -> DeclaredSet:
    meld = Meld.parse(text)
    ids = []
    for t in meld.tiles:
        ids.append(4 * t + used.get(t, 0))
        used[t] = used.get(t, 0) + 1
    return DeclaredSet(meld.kind, tuple(ids))


def view_of(concealed: str, *, seat: Seat = S, melds: Sequence[str] = (), bonus: str = "",
            turn: Seat | None = None, window: str | None = None,
            others: Mapping[Seat, Sequence[str]] | None = None,
            discards: Mapping[Seat, str] | None = None, live_remaining: int = 60,
            rules: str = "standard", last_drawn: str | None = None) -> PlayerView:
    """A view built directly: ``seat`` holds ``concealed`` and ``melds``; with ``window``
    the tile was just discarded by ``turn`` (claims), else it is ``seat``'s turn."""
    used: dict[Tile, int] = {}
    others = others or {}
    discards = dict(discards or {})
    if window is not None:
        turn = turn if turn is not None else seat.next.next
        discards[turn] = discards.get(turn, "") + window
    seats = []
    seen = [0] * 46
    for s in Seat:
        ms = melds if s == seat else others.get(s, ())
        dec = tuple(_declared(m, used) for m in ms)
        dis = tuple(parse_tiles(discards.get(s, "")))
        for t in dis:
            seen[t] += 1
        held = len(parse_tiles(concealed)) if s == seat else 13 - 3 * len(dec)
        seats.append(SeatView(s, dec, tuple(parse_tiles(bonus)) if s == seat else (), dis,
                              held, 0))
    hand = tuple(parse_tiles(concealed))
    claims = window is not None
    return PlayerView(
        seat=seat, rules=load_rules(rules), round_wind=E, hand_number=0,
        phase=Phase.CLAIMS if claims else Phase.TURN, turn=turn if claims else seat,
        window_tile=Tile.parse(window) if claims else None, concealed=hand,
        last_drawn=None if claims else Tile.parse(last_drawn) if last_drawn else hand[-1],
        passed=frozenset(), blocked=None, must_discard=False, seats=tuple(seats),
        wall_remaining=live_remaining + 15, live_remaining=live_remaining,
        replacements_remaining=live_remaining, draw_replacement=False, draw_final=False,
        discard_count=sum(seen), sets_declared=sum(len(s.melds) for s in seats),
        seen=tuple(seen))


def choose(agent: object, v: PlayerView) -> object:
    legal = legal_actions(v)
    choice = agent.act(v, legal)  # type: ignore[attr-defined]
    assert choice in legal
    return choice


# South is one away with mixed suits and no bonus tile: a pong of 5p makes it ready, but
# rules out ping hu and leaves no tai at all.
ZERO_TAI_PONG = dict(concealed="123m456m789p55p3s9s", window="5p", turn=N)


def test_rabbit_pongs_into_a_hand_worth_no_tai() -> None:
    v = view_of(**ZERO_TAI_PONG)
    assert Pong() in legal_actions(v)
    assert choose(Rabbit(1), v) == Pong()


def test_hedgehog_counts_tiles_not_tai() -> None:
    # Hedgehog makes no tai plan: the pong makes it ready and the wait (a lone 3s or 9s)
    # still has three unseen copies, so the set "really helps" as far as it can count.
    v = view_of(**ZERO_TAI_PONG)
    assert choose(Hedgehog(1), v) == Pong()


def test_hedgehog_declines_a_claim_whose_waits_are_nearly_gone() -> None:
    # The same pong, but two 3s and two 9s lie on the table: whichever it keeps, only one
    # copy of its wait is unseen, and Hedgehog, counting them, passes.
    v = view_of(**{**ZERO_TAI_PONG, "discards": {E: "3s9s", W: "3s9s"}})
    [opt] = claim_options(v, legal_actions(v))
    assert opt.lowers
    assert choose(Hedgehog(1), v) == Pass()
    assert choose(Rabbit(1), v) == Pong()


@pytest.mark.parametrize("level", [Fox, Owl])
def test_tai_aware_levels_refuse_a_pong_into_a_zero_tai_hand(level: type) -> None:
    v = view_of(**ZERO_TAI_PONG)
    [opt] = claim_options(v, legal_actions(v))
    assert opt.lowers
    assert not view_plan(v, opt.counts, opt.melds).reachable
    assert choose(level(1), v) == Pass()


def test_fox_pongs_a_dragon_for_its_tai() -> None:
    v = view_of("77z34p78m46s9s1z", melds=["chow 123m"], window="7z", turn=N)
    assert choose(Fox(1), v) == Pong()


def test_hedgehog_declines_a_pong_that_does_not_lower_shanten() -> None:
    # The Cat gives a tai, but 5p is better kept as a pair: ponging it gains nothing.
    v = view_of("55p34p78m46s99s", melds=["chow 123m"], bonus="1a", window="5p", turn=N)
    [opt] = claim_options(v, legal_actions(v))
    assert not opt.lowers and view_plan(v, opt.counts, opt.melds).reachable
    assert choose(Hedgehog(1), v) == Pass()


def test_hedgehog_claims_a_chow_that_lowers_shanten_and_keeps_ping_hu() -> None:
    v = view_of("23m456p789p34s7s8s9s", turn=E, window="4m")
    opts = [a for a in legal_actions(v) if isinstance(a, Chow)]
    assert opts
    assert isinstance(choose(Hedgehog(1), v), Chow)


def test_rabbit_counts_nothing_hedgehog_counts_what_is_left() -> None:
    # Every discard but 8s leaves the hand one away. Rabbit asks nothing more and throws
    # the first of them in its rack, 1m, breaking its 1-3m shape; Hedgehog counts which
    # helpful tiles are still unseen and throws the lone 5s, which keeps the most of them.
    v = view_of("123m456p789s5s13m79p")
    options = discard_options(situation(v))
    assert options[0].tile == Tile.S5
    first = min(o.tile for o in options if o.shanten == options[0].shanten)
    assert first == Tile.M1 and first != options[0].tile
    assert choose(Rabbit(1), v) == Discard(Tile.M1)
    assert choose(Hedgehog(1), v) == Discard(Tile.S5)


def test_hedgehog_keeps_its_hand_closed_while_far_from_ready() -> None:
    # The chow of 3m lowers shanten from 3 to 2: closer, so Rabbit takes it; but two away
    # is not "really helps" for Hedgehog, which opens up only to get one away or ready.
    v = view_of("24m57p13s68s11z3z5z9p", turn=E, window="3m")
    [opt] = claim_options(v, legal_actions(v))
    assert (opt.before, opt.after) == (3, 2)
    assert isinstance(choose(Rabbit(1), v), Chow)
    assert choose(Hedgehog(1), v) == Pass()


def test_fox_will_not_get_ready_on_waits_worth_no_tai() -> None:
    # Throwing 9s makes the hand ready on 1m/4m, but with the East pair as the eye (no
    # ping hu), no bonus tile and no valued set, every such win is worth 0 tai. Hedgehog,
    # which never asks about tai, takes the fast discard; Fox and Owl score the waits.
    v = view_of("123m456p789s11z23m9s")
    assert choose(Hedgehog(1), v) == Discard(Tile.S9)
    fox = Fox(1)
    fox.slip = 0.0
    assert choose(fox, v) != Discard(Tile.S9)
    assert choose(Owl(1), v) != Discard(Tile.S9)


def test_fox_slips_now_and_then() -> None:
    v = view_of("123m456p789s1122z5z")  # the lone White is the one tile to throw
    calm = Fox(7)
    calm.slip = 0.0
    best = calm.act(v, legal_actions(v))
    fox = Fox(7)
    picks = [fox.act(v, legal_actions(v)) for _ in range(200)]
    wrong = sum(p != best for p in picks)
    assert 3 <= wrong <= 30   # about 8% slips, two in three of them off the best tile
    assert all(p == best for p in (Owl(7).act(v, legal_actions(v)) for _ in range(20)))


def test_owl_avoids_the_third_dragon_that_others_throw() -> None:
    # East shows Green and White pongs: the lone Red is the fastest discard, but it is Bao.
    v = view_of("1238m57p1335789s7z", others={E: ["pong 666z", "pong 555z"]},
                discards={E: "1m"})
    assert [d.case for d in bao_dangers(v, Tile.RED)] == ["third-dragon"]
    assert choose(Hedgehog(1), v) == Discard(Tile.RED)
    assert choose(Fox(1), v) == Discard(Tile.RED)
    assert choose(Owl(1), v) != Discard(Tile.RED)


def test_owl_claims_a_kong_that_keeps_its_shanten() -> None:
    # South holds a triplet of 9p and is one away (three sets, 78s, two lone honours). A
    # kong of the discarded 9p turns the triplet into a declared set: still one away (the
    # rule Owl claims kongs by), so the kong's instant payout and replacement draw are free.
    # Fox claims only what lowers shanten (neither the kong nor the pong does) and passes.
    v = view_of("999p123m456m78s2z5z", window="9p", turn=N)
    legal = legal_actions(v)
    assert Kong(Tile.P9, "claimed") in legal and Pong() in legal
    opts = {type(o.action): o for o in claim_options(v, legal)}
    assert (opts[Kong].before, opts[Kong].after) == (1, 1)
    assert not opts[Pong].lowers
    assert choose(Owl(1), v) == Kong(Tile.P9, "claimed")
    assert choose(Fox(1), v) == Pass()


def test_owl_folds_to_genbutsu_near_a_ready_looking_player() -> None:
    # North shows three sets; Owl is far from ready and throws North's own discard 5s.
    v = view_of("159m28p5s7s1z2z3z4z6z7z9p", others={N: ["pong 111p", "chow 234s",
                                                      "pong 888m"]},
                discards={N: "5s"}, live_remaining=30)
    assert choose(Owl(1), v) == Discard(Tile.S5)


def test_owl_plays_for_speed_when_nobody_looks_ready() -> None:
    # The same hand with nobody showing a set: the Owl gives up no speed for safety (it
    # takes a tile that leaves the hand as likely to win as any), and 5 Bamboo is only one
    # of the fastest discards.
    v = view_of("159m28p5s7s1z2z3z4z6z7z9p", discards={N: "5s"})
    evals = Owl(1).evaluations(v, sorted(set(v.concealed)), situation(v))
    fastest = max(e.win for e in evals)
    pick = choose(Owl(1), v)
    assert isinstance(pick, Discard)
    assert next(e for e in evals if e.tile == pick.tile).win == fastest
    assert sum(1 for e in evals if e.win == fastest) > 1


def test_owl_pushes_a_valuable_ready_hand_into_a_ready_looking_seat() -> None:
    # North shows three sets. Throwing the fresh Red Dragon makes South ready for ping hu
    # (4 tai, 64 points off a discard); anything else leaves it one away. 9 Characters,
    # North's own discard, is far safer, yet the Owl throws the Red: the win is worth far
    # more than the deal-in it risks.
    v = view_of("123m456p678s35p99m7z", others={N: ["pong 111p", "chow 234s",
                                                      "pong 888m"]},
                discards={N: "5s9m"}, live_remaining=30)
    assert dealin(v, Tile.RED).probability > 4 * dealin(v, Tile.M9).probability
    assert choose(Owl(1), v) == Discard(Tile.RED)


def test_owl_folds_a_slow_hand_and_pushes_a_fast_one_against_the_same_table() -> None:
    # Far from ready, the same table makes the Owl throw North's own discard (genbutsu);
    # one tile from ready and fast, it keeps its shape instead.
    north = {N: ["pong 111p", "chow 234s", "pong 888m"]}
    far = view_of("159m28p5s7s1z2z3z4z6z7z9p", others=north, discards={N: "5s"},
                  live_remaining=30)
    assert choose(Owl(1), far) == Discard(Tile.S5)
    near = view_of("123m456p67s35p99m5s7z", others=north, discards={N: "5s"},
                   live_remaining=30)
    assert choose(Owl(1), near) != Discard(Tile.S5)


def test_fox_keeps_its_only_tai_source() -> None:
    # A pong of 5p rules out all chows; the Red pair is the only way to a tai. Throwing a
    # Red is as fast as anything, but Fox gives up a little speed to keep the pair.
    v = view_of("779m1167p89s77z", melds=["pong 555p"])
    options = discard_options(situation(v))
    red = next(o for o in options if o.tile == Tile.RED)
    assert (red.shanten, red.live) == (options[0].shanten, options[0].live)
    assert choose(Fox(1), v) not in (Discard(Tile.RED),)
    assert choose(Owl(1), v) != Discard(Tile.RED)


def test_snail_keeps_its_favourite_tiles() -> None:
    snail = Snail(3)
    fav = snail.favourite
    v = view_of("1m9m1p9p1s9s1z2z3z4z5z6z7z5m")
    tiles = [a.tile for a in legal_actions(v) if isinstance(a, Discard)]
    picks = [Snail(3).act(v, legal_actions(v)) for _ in range(1)]
    assert all(isinstance(p, Discard) for p in picks)
    assert any(t.suit != fav for t in tiles)


def test_snail_often_throws_the_wrong_tile() -> None:
    v = view_of("123m456p789s1122z5z")  # 5z (White) is the one tile to throw
    calm = Snail(11)
    calm.slip = 0.0
    best = calm.act(v, legal_actions(v))
    snail = Snail(11)
    picks = [snail.act(v, legal_actions(v)) for _ in range(60)]
    wrong = sum(p != best for p in picks)
    assert 10 <= wrong <= 40
    again = Snail(11)
    assert [again.act(v, legal_actions(v)) for _ in range(60)] == picks


@pytest.mark.parametrize("name", list(LEVELS))
def test_every_level_takes_a_legal_win(name: str) -> None:
    v = view_of("123m456p789s11z234m")  # self-drawn, complete, 1 tai from the East pair? no
    v = view_of("123m456p789s777z11m", last_drawn="7z")
    assert Win() in legal_actions(v)
    assert make_level(name, 5).act(v, legal_actions(v)) == Win()


@pytest.mark.parametrize("name", list(LEVELS))
def test_every_level_takes_a_win_on_a_discard(name: str) -> None:
    v = view_of("123m456p789s77z11m", window="7z", turn=W)
    legal = legal_actions(v)
    assert Win() in legal
    assert make_level(name, 5).act(v, legal) == Win()


def test_concealed_kong_when_it_costs_nothing() -> None:
    v = view_of("1111m456p789s23s99p", last_drawn="1m")
    assert Kong(Tile.M1, "concealed") in legal_actions(v)
    assert choose(Owl(1), v) == Kong(Tile.M1, "concealed")


def test_unknown_level_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        make_level("tortoise")


def _play(seed: int) -> tuple[tuple[int, int, int, int], int]:
    agents = [LEVELS[n](seed + i) for i, n in enumerate(["owl", "fox", "hedgehog", "snail"])]
    m = Match("standard", seed=seed)
    for _ in range(3):
        g = m.start_hand()
        while not g.ended:
            for seat in sorted(g.waiting_for()):
                player = agents[m.state.player_at(seat)]
                g.submit(seat, player.act(g.view(seat), g.legal_actions(seat)))
        m.finish_hand()
    return m.state.scores, sum(len(h.events) for h in m.hands)


def test_levels_play_legal_reproducible_hands() -> None:
    assert _play(9) == _play(9)


def test_rabbit_seats_can_play_a_garden_quick_game() -> None:
    result = Match("garden", seed=4, quick=True).play([Rabbit(0), Owl(1), Snail(2), Fox(3)])
    assert len(result.hands) == 4
