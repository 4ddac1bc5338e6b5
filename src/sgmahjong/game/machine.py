"""The flow of a hand: which events happen by themselves, who must decide, and how the
decisions of all pending seats are resolved (Win > Kong > Pong > Chow).

Pure functions of the state: :func:`step` gives the automatic events to apply next, or the
decisions awaited; :func:`resolve` turns every pending seat's choice into events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ..scoring import ScoreResult, settle_win
from ..scoring.bao import claim_liability, win_liability
from ..tiles import Seat, Tile
from .actions import Action, Chow, Discard, Kong, Pass, Pong, Win
from .events import (
    BaoIncurred,
    BonusExposed,
    Claimed,
    ClaimPassed,
    Dealt,
    Discarded,
    Drew,
    Event,
    HandDrawn,
    KongDeclared,
    PatternScore,
    Payment,
    Settled,
    Won,
)
from .legal import legal_actions, must_act
from .payouts import bonus_payouts, kong_payout
from .state import Phase, StateError, TableState
from .view import view
from .wall import KIND
from .winning import EIGHT, _auto_candidate, shape_free_autos, win_score

# Enum members read as module names: in Python 3.11 each ``Phase.TURN``-style lookup
# goes through the enum metaclass's ``__getattr__`` hook, several times slower than a
# global, and these are compared at every event.
_CLAIMS: Final = Phase.CLAIMS
_DEAL: Final = Phase.DEAL
_EXPOSED: Final = Phase.EXPOSED
_ROB_KONG: Final = Phase.ROB_KONG
_TURN: Final = Phase.TURN
_EAST: Final = Seat.EAST

Decisions = dict[Seat, list[Action]]


def decisions(state: TableState) -> Decisions:
    """The seats that must decide now, with their legal actions."""
    ph = state.phase
    if ph is _TURN:
        acts = legal_actions(view(state, state.turn))
        return {state.turn: acts} if must_act(acts) else {}
    if ph not in (_CLAIMS, _ROB_KONG, _EXPOSED):
        return {}
    out = {}
    for s in _OTHERS[state.turn]:
        if _may_use(state, s):
            acts = legal_actions(view(state, s))
            if must_act(acts):
                out[s] = acts
    return out


_OTHERS: Final = {seat: tuple(s for s in Seat if s != seat) for seat in Seat}


def _may_use(state: TableState, seat: Seat) -> bool:
    """Whether ``seat`` could take the tile on offer at all (a win, kong, pong or chow),
    read from its tile counts and the cached reading of its parts before any view is built:
    the hot path of every claim window. A cheap over-approximation; :func:`legal_actions`
    decides."""
    assert state.window_tile is not None
    tile = KIND[state.window_tile]
    s = state.seats[seat]
    if tile >= 34:
        return len(s.bonus) >= 7
    tiles = s.tiles
    c = tiles.counts
    if c[tile] >= 2:
        return True
    if (tile < 27 and state.phase is _CLAIMS and seat == (state.turn + 1) % 4):
        pos = tile % 9
        if ((pos >= 2 and c[tile - 2] and c[tile - 1])
                or (1 <= pos <= 7 and c[tile - 1] and c[tile + 1])
                or (pos <= 6 and c[tile + 1] and c[tile + 2])):
            return True
    if tiles.completes(tile):
        return True
    # An automatic Big Three Dragons / Big Four Winds needs no regular shape; the tile itself
    # (held at most once) cannot make a new set of three, so the test does not depend on it.
    return shape_free_autos(state.rules.scoring.automatic_wins) and _auto_candidate(
        c, s.melds, state.rules)


def step(state: TableState) -> tuple[list[Event], Decisions]:
    """The automatic events to apply next; when there are none, the decisions awaited
    (both empty when the hand is over)."""
    ph = state.phase
    if ph is _DEAL:
        return _deal(state), {}
    if ph is _TURN:
        held = state.seats[state.turn].concealed
        bonus = next((i for i in held if i >= 136), None) if max(held) >= 136 else None
        if bonus is not None:
            return [BonusExposed(state.turn, KIND[bonus])], {}
        if state.replacement_owed:
            return _draw(state, state.turn, True), {}
        dec = decisions(state)
        if dec:
            return [], dec
        # Only the final playable tile leaves the player on turn nothing to choose.
        return [HandDrawn("final-tile")], {}
    if ph is _EXPOSED:
        s = state.seats[state.turn]
        pays = bonus_payouts(state.rules, state.turn, s.bonus, s.paid, state.initial_bonus)
        if pays:
            return list(pays), {}
        auto = _eight_flowers(state, state.turn)
        if auto:
            return auto, {}
    if ph in (_CLAIMS, _ROB_KONG, _EXPOSED):
        dec = decisions(state)
        if dec:
            return [], dec
        return _unclaimed(state), {}
    return [], {}


_NEXT: Final = tuple(s.next for s in Seat)
_SEATS: Final = tuple(Seat)   # iterating (or calling) the enum class is slow; a tuple is not


def _unclaimed(state: TableState) -> list[Event]:
    """What follows when nobody takes the tile on offer."""
    if state.phase is _CLAIMS:
        return _draw(state, _NEXT[state.turn], False)
    if state.phase is _ROB_KONG:
        return [*kong_payout(state.rules, state.turn, "added"), *_draw(state, state.turn, True)]
    return _draw(state, state.turn, True)  # after a bonus exposure


def _draw(state: TableState, seat: Seat, replacement: bool) -> list[Event]:
    w = state.wall
    assert w is not None
    if not w.can_draw(replacement):
        return [HandDrawn("replacement" if replacement else "wall")]
    return [Drew(seat, KIND[w.peek(replacement)], replacement)]


def _deal(state: TableState) -> list[Event]:
    w = state.wall
    assert w is not None
    if state.dealt < 4:
        return [Dealt(_SEATS[state.dealt], tuple(KIND[i] for i in w.order[w.front:w.front + 13]))]
    for seat in _SEATS:
        s = state.seats[seat]
        bonus = next((i for i in s.concealed if i >= 136), None)
        if bonus is not None:
            return [BonusExposed(seat, KIND[bonus])]
        auto = _eight_flowers(state, seat)
        if auto:
            return auto
    return _draw(state, _EAST, False)  # East's 14th tile


def _eight_flowers(state: TableState, seat: Seat) -> list[Event]:
    """The automatic Eight Flowers win, once the holder of all eight holds 13 playable tiles."""
    rules = state.rules
    s = state.seats[seat]
    # len(bonus) first: it rules out nearly every call (the deal asks for each seat at
    # each step), and ``size`` counts the hand.
    if (len(s.bonus) < 8 or "eight-flowers" not in rules.scoring.automatic_wins
            or s.size != 13):
        return []
    eighth = [i for i in s.bonus if KIND[i] in EIGHT]
    if len(eighth) < 8:
        return []
    tile = KIND[eighth[-1]]
    r = win_score(view(state, seat), tile, "eight-flowers")
    if r is None or not r.winning:
        return []
    return _wins(state, [(seat, r)], tile, None, "eight-flowers")


def resolve(state: TableState, options: Mapping[Seat, list[Action]],
            choices: Mapping[Seat, Action]) -> list[Event]:
    """Events for the choices of every pending seat (``options``: what each could do)."""
    ph = state.phase
    if ph is _TURN:
        return _turn_choice(state, choices[state.turn])
    giver = state.turn
    if state.window_tile is None:
        raise StateError("no tile is on offer")
    tile = KIND[state.window_tile]
    order = sorted(choices, key=lambda s: s.distance_from(giver))
    winners = [s for s in order if isinstance(choices[s], Win)]
    if winners:
        source = {_CLAIMS: "discard", _ROB_KONG: "rob-kong"}.get(ph, "rob-eighth")
        if state.rules.payments.multiple_winners == "nearest":
            winners = winners[:1]
        scored = []
        for w in winners:
            r = win_score(view(state, w), tile, source)
            assert r is not None and r.winning
            scored.append((w, r))
        return _wins(state, scored, tile, giver, source)
    taker = next((s for s in order if isinstance(choices[s], Kong)), None)
    if taker is None:
        taker = next((s for s in order if isinstance(choices[s], Pong)), None)
    if taker is None:
        taker = next((s for s in order if isinstance(choices[s], Chow)), None)
    passed: list[Event] = []
    if state.rules.claims.passed_claim:
        passed = [ClaimPassed(s, tile) for s in order if s != taker
                  and any(isinstance(a, (Win, Pong)) for a in options[s])
                  and not isinstance(choices[s], (Win, Pong, Kong))]
    if taker is None:
        return [*passed, *_unclaimed(state)]
    return [*passed, *_claim(state, taker, choices[taker], tile)]


def _claim(state: TableState, seat: Seat, action: Action, tile: Tile) -> list[Event]:
    giver = state.turn
    s = state.seats[seat]
    if isinstance(action, Chow):
        return [Claimed(seat, "chow", tile, action.tile, giver)]
    kind = "kong" if isinstance(action, Kong) else "pong"
    out: list[Event] = [Claimed(seat, kind, tile, tile, giver)]
    # Bao cases 1-3 (RULES.md, "Bao cases"), on what the claimer showed before the claim.
    bao = claim_liability(state.rules, [m.meld for m in s.melds], [KIND[i] for i in s.bonus],
                          seat, state.round_wind, tile, giver)
    if bao is not None:
        out.append(BaoIncurred(bao.seat, seat, bao.case, tile))
    if kind == "kong":
        out.extend(kong_payout(state.rules, seat, "claimed"))
    return out


def _turn_choice(state: TableState, action: Action) -> list[Event]:
    seat = state.turn
    if isinstance(action, Discard):
        return [Discarded(seat, action.tile)]
    if isinstance(action, Kong):
        out: list[Event] = [KongDeclared(seat, action.tile, action.kind)]
        if action.kind == "concealed":
            out.extend(kong_payout(state.rules, seat, "concealed"))
        return out
    if isinstance(action, Win):
        drawn = state.seats[seat].last_drawn
        assert drawn is not None
        tile = KIND[drawn]
        r = win_score(view(state, seat), tile, "self")
        assert r is not None and r.winning
        return _wins(state, [(seat, r)], tile, None, "self")
    if isinstance(action, Pass):
        return [HandDrawn("final-tile")]
    raise StateError(f"unexpected action {action!r}")


def _wins(state: TableState, scored: list[tuple[Seat, ScoreResult]], tile: Tile,
          giver: Seat | None, source: str) -> list[Event]:
    """Bao, Won, (for Robbing the Eighth, the robber's bonus payouts) and Settled events."""
    rules = state.rules
    out: list[Event] = []
    liable: dict[Seat, Seat | None] = {}
    for seat, r in scored:
        s = state.seats[seat]
        liable[seat] = s.liable
        if source == "discard" and s.liable is None and r.facts is not None:
            # Bao cases 1-5 on the reading the win is scored on. Fresh: this discard is
            # the first of its kind; tiles left: the playable tiles left at the discard.
            w = state.wall
            assert w is not None
            bao = win_liability(rules, r.facts, fresh=state.seen[tile] == 1,
                                tiles_left=w.live_remaining)
            if bao is not None:
                out.append(BaoIncurred(bao.seat, seat, bao.case, tile))
                liable[seat] = bao.seat
        ctx = r.facts.ctx if r.facts is not None else None
        out.append(Won(seat, tile, giver, ctx.events if ctx else (), r.tai, r.raw_tai,
                       tuple(PatternScore(i.id, i.count, i.tai) for i in r.items),
                       r.shape or ""))
        if source == "rob-eighth" and state.window_tile is not None:
            out.extend(bonus_payouts(rules, seat, (*s.bonus, state.window_tile), s.paid,
                                     state.initial_bonus))
    winners = {seat for seat, _ in scored}
    for seat, r in scored:
        who_pays = liable[seat]
        st = settle_win(rules, seat, r.tai, giver is None, giver,
                        thirteen_wonders=r.thirteen_wonders,
                        liable=who_pays if who_pays not in winners else None,
                        exempt=winners - {seat})
        out.append(Settled(seat, st.deltas, tuple(Payment(p.payer, p.payee, p.amount, p.why)
                                                  for p in st.lines)))
    return out

