"""The evening's ledger for a real table: hands in, running totals, dealer, round wind, settle-up.

A ledger is four names (player 0 deals the first hand), a rule set, an optional stake per
point and a list of hand entries. Everything else (each hand's payments, the totals, who
deals next, the round wind) is worked out again from that list, so editing or deleting a
past hand is just changing the list. The web server and ``sgmahjong ledger`` share this.

Hand entries are plain JSON objects, players named by their index 0-3:

- ``{"type": "win", "winner": 0, "tai": 3, "from": 1}``: a win of 3 tai on player 1's
  discard (``"from": null``: self-drawn); optional ``"liable"`` (the player under Bao) and
  ``"thirteen_wonders"`` (its tai are the rules' value when left out; paid at the
  self-drawn rate where the rules say so);
- ``{"type": "win", "winner": 0, "from": 1, "hand": {...}}``: the full hand as the calculator
  reads it (``concealed``, ``melds``, ``bonus``, ``win_tile``, ``events`` ...; the seats, the
  round wind and the discarder come from the ledger), scored by the scorer;
- ``{"type": "drawn"}``: nobody won (``"kong": true`` if a kong was declared);

each with an optional ``"instant"`` list of ``{"player": 2, "reason": "claimed-kong"}``
(a reason of :data:`INSTANT_REASONS` that the rules pay, see :func:`paid_reasons`;
``"dealt": true`` for a bonus pair exposed during the deal).

>>> led = Ledger.new(["Ann", "Bob", "Cy", "Dee"], "standard")
>>> led = led.add({"type": "win", "winner": 0, "tai": 3, "from": 1})
>>> led.totals()
(32, -16, -8, -8)
>>> [str(t) for t in settle(led.totals(), led.names)]
['Bob pays Ann 16', 'Cy pays Ann 8', 'Dee pays Ann 8']
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from functools import cached_property
from typing import Any

from .errors import SgmahjongError
from .game.engine import HandOutcome
from .game.events import Won
from .game.match import MatchState, next_state, round_wind
from .game.payouts import payout
from .rules.loading import load_rules, rules_from_dict
from .rules.model import Ruleset
from .scoring.payments import settle_win
from .scoring.request import RequestError, score_win
from .tiles import Seat, Tile

FORMAT = "sgmahjong-ledger"
VERSION = 1
MAX_NAME = 24
MAX_HANDS = 500
MAX_DELETED = 20
_SCORED_MAX = 20_000
_SCORED_LOCK = threading.Lock()   # the web server reads ledgers in several threads
_SCORED: OrderedDict[tuple[Any, ...], tuple[HandResult, HandOutcome]] = OrderedDict()
"""Hands scored lately: (rules digest, names, entry, dealer, round wind) -> (the hand's
result, its outcome). A hand's payments depend on nothing else (not on the totals before
it), so a hand changed or added is scored alone and the hands after it, whose dealers
did not change, are not scored again. Both are frozen values, shared between ledgers."""
CENT = Decimal("0.01")
INSTANT_REASONS = ("claimed-kong", "added-kong", "concealed-kong", "cat-mouse",
                   "rooster-centipede", "own-flower-season", "four-animals", "four-flowers",
                   "four-seasons")
KONGS = ("claimed-kong", "added-kong", "concealed-kong")
PAIRS = ("cat-mouse", "rooster-centipede", "own-flower-season")
HAND_FIELDS = ("concealed", "melds", "bonus", "win_tile", "events", "fresh", "tiles_left")
WORDS = {"claimed-kong": "a kong", "added-kong": "a kong", "concealed-kong": "a concealed kong",
         "cat-mouse": "Cat and Mouse", "rooster-centipede": "Rooster and Centipede",
         "own-flower-season": "own Flower and Season", "four-animals": "all four Animals",
         "four-flowers": "all four Flowers", "four-seasons": "all four Seasons"}


class LedgerError(SgmahjongError):
    """A ledger or a hand entry that cannot be used, with what is wrong."""


class HandNotFound(LedgerError):
    """A change addressed to a hand id the ledger does not hold (now)."""


@dataclass(frozen=True)
class HandResult:
    """One hand as applied: who dealt, the round wind, the payments and the totals after."""

    number: int                       # 1, 2, 3 ...
    dealer: int                       # the player sitting East
    round_wind: Seat
    deltas: tuple[int, int, int, int]  # by player
    totals: tuple[int, int, int, int]  # by player, after this hand
    text: str                         # the hand in words
    tai: int | None = None            # the tai paid (capped)
    lines: tuple[str, ...] = ()       # who paid whom, in words
    raw_tai: int | None = None        # the tai counted, before the cap
    liable: int | None = None         # the player who paid for the table under Bao


@dataclass(frozen=True)
class Transfer:
    """``payer`` gives ``payee`` ``points`` (players by index)."""

    payer: int
    payee: int
    points: int
    names: tuple[str, ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        who = self.names or ("player 0", "player 1", "player 2", "player 3")
        return f"{who[self.payer]} pays {who[self.payee]} {self.points}"


@dataclass(frozen=True)
class Ledger:
    """Four names, the rules, the stake and the hands (see the module's docstring).

    Each hand has a stable id (``"h1"``, ``"h2"`` ...; :attr:`ids`, in the order of
    :attr:`hands`) that never changes and is never given to another hand, so that a
    change addressed to a hand reaches that hand even after others were added or deleted.
    A deleted hand is kept a while (:attr:`deleted`) so that it can be restored.
    """

    names: tuple[str, str, str, str]
    rules: Ruleset
    stake: Decimal | None = None
    hands: tuple[dict[str, Any], ...] = ()
    ids: tuple[str, ...] = ()
    next_id: int = 0
    deleted: tuple[dict[str, Any], ...] = ()   # {"id", "at", "entry"}, latest last

    def __post_init__(self) -> None:
        if len(self.ids) != len(self.hands):    # hands given without ids: number them
            object.__setattr__(self, "ids", tuple(f"h{i + 1}" for i in range(len(self.hands))))
        first_free = 1 + max((_id_number(i) for i in (*self.ids, *(d["id"] for d in
                                                                  self.deleted))), default=0)
        if self.next_id < first_free:
            object.__setattr__(self, "next_id", first_free)

    # ------------------------------------------------------------ building

    @classmethod
    def new(cls, names: Sequence[Any], rules: str | Ruleset | Mapping[str, Any] | None = None,
            stake: Any = None) -> Ledger:
        """A ledger with no hands; ``rules`` a preset's name, a Ruleset or its plain dict."""
        return cls(check_names(names), _rules(rules), check_stake(stake))

    def add(self, entry: Mapping[str, Any]) -> Ledger:
        """The ledger with ``entry`` as its last hand, under the next id (:meth:`last_id`)."""
        if len(self.hands) >= MAX_HANDS:
            raise LedgerError(f"a ledger holds at most {MAX_HANDS} hands")
        return self._with([*self.hands, self.check(entry, len(self.hands))],
                          [*self.ids, f"h{self.next_id}"], next_id=self.next_id + 1)

    def edit(self, index: int, entry: Mapping[str, Any]) -> Ledger:
        """Replace hand ``index`` (0-based); the later hands are worked out again."""
        self._index(index)
        hands = list(self.hands)
        hands[index] = self.check(entry, index)
        return self._with(hands, list(self.ids))

    def delete(self, index: int) -> Ledger:
        """Without hand ``index`` (0-based); :meth:`restore` puts it back."""
        self._index(index)
        gone = {"id": self.ids[index], "at": index, "entry": dict(self.hands[index])}
        return self._with([h for i, h in enumerate(self.hands) if i != index],
                          [h for i, h in enumerate(self.ids) if i != index],
                          deleted=(*self.deleted, gone)[-MAX_DELETED:])

    def restore(self, hand_id: str) -> Ledger:
        """The deleted hand ``hand_id`` back in its place (unchanged if it is there)."""
        if hand_id in self.ids:
            return self
        for d in self.deleted:
            if d["id"] == hand_id:
                at = min(d["at"], len(self.hands))
                if len(self.hands) >= MAX_HANDS:
                    raise LedgerError(f"a ledger holds at most {MAX_HANDS} hands")
                return self._with([*self.hands[:at], d["entry"], *self.hands[at:]],
                                  [*self.ids[:at], hand_id, *self.ids[at:]],
                                  deleted=tuple(x for x in self.deleted if x is not d))
        raise HandNotFound(f"there is no deleted hand {hand_id!r} to restore: only the last "
                          f"{MAX_DELETED} deleted hands are kept")

    def index_of(self, hand_id: str) -> int:
        """Where the hand ``hand_id`` is (0-based), or a :class:`LedgerError` saying why not."""
        if hand_id in self.ids:
            return self.ids.index(hand_id)
        if any(d["id"] == hand_id for d in self.deleted):
            raise HandNotFound(f"hand {hand_id!r} was deleted")
        raise HandNotFound(f"there is no hand {hand_id!r} in this ledger")

    def last_id(self) -> str | None:
        return self.ids[-1] if self.ids else None

    def _with(self, hands: list[dict[str, Any]], ids: list[str], *,
              next_id: int | None = None,
              deleted: tuple[dict[str, Any], ...] | None = None) -> Ledger:
        out = replace(self, hands=tuple(hands), ids=tuple(ids),
                      next_id=self.next_id if next_id is None else next_id,
                      deleted=self.deleted if deleted is None else deleted)
        out.results()   # a later hand may no longer fit (a full hand's tiles are checked again)
        return out

    def _index(self, index: int) -> None:
        if isinstance(index, bool) or not isinstance(index, int) or not (
                0 <= index < len(self.hands)):
            raise LedgerError(f"there is no hand {index}: the ledger has hands "
                              f"0-{len(self.hands) - 1}" if self.hands else
                              "the ledger has no hands yet")

    def check(self, entry: Mapping[str, Any], index: int) -> dict[str, Any]:
        """``entry`` in its stored form, refused with a :class:`LedgerError` naming what is
        wrong; ``index`` is where it goes (the dealer and round wind come from the hands
        before it)."""
        clean = _clean_entry(entry, self)
        _check_paid(clean, self.rules)
        state = self._states()[min(index, len(self.hands))]
        self._applied(clean, state, index + 1)
        return clean

    # ------------------------------------------------------------ reading

    def _states(self) -> list[MatchState]:
        """The match state before each hand and after the last (len(hands) + 1 states)."""
        return list(self._chain[1])

    def results(self) -> list[HandResult]:
        return list(self._chain[0])

    @cached_property
    def _chain(self) -> tuple[tuple[HandResult, ...], tuple[MatchState, ...]]:
        """Every hand applied in turn, once per ledger value; each hand is scored only if
        it was not lately under the same rules, names, dealer and round wind
        (:data:`_SCORED`), so a change or a read of a long ledger scores what changed."""
        results: list[HandResult] = []
        states = [MatchState()]
        for i, h in enumerate(self.hands):
            result, after = self._applied(h, states[-1], i + 1)
            results.append(result)
            states.append(after)
        return tuple(results), tuple(states)

    @cached_property
    def _digest(self) -> str:
        return self.rules.digest()

    def _applied(self, h: Mapping[str, Any], state: MatchState,
                 number: int) -> tuple[HandResult, MatchState]:
        """Hand ``h`` (the ``number``-th) played from ``state``: its result and the state
        after. Scored by :meth:`_score` unless :data:`_SCORED` holds it."""
        wind = round_wind(self.rules, state)
        key = (self._digest, self.names, json.dumps(h, sort_keys=True), state.banker, wind)
        with _SCORED_LOCK:
            done = _SCORED.get(key)
            if done is not None:
                _SCORED.move_to_end(key)
        if done is None:
            done = self._score(h, state.banker, wind, number)
            with _SCORED_LOCK:
                _SCORED[key] = done
                if len(_SCORED) > _SCORED_MAX:
                    _SCORED.popitem(last=False)
        scored, outcome = done
        after = next_state(self.rules, state, outcome)
        return replace(scored, number=number, totals=after.scores), after

    def totals(self) -> tuple[int, int, int, int]:
        res = self.results()
        return res[-1].totals if res else (0, 0, 0, 0)

    def next_hand(self) -> dict[str, Any]:
        """Who deals the next hand, its round wind, and whether the full match is over."""
        state = self._states()[-1]
        return {"number": len(self.hands) + 1, "dealer": state.banker,
                "dealer_name": self.names[state.banker],
                "round_wind": round_wind(self.rules, state).name.title(),
                "match_over": state.round_index >= self.rules.match.rounds}

    def money(self, points: int) -> str | None:
        """``points`` at the stake (None without one), never rounded: the stake is in
        whole cents, so each figure is exact and a hand's or the table's figures add up to
        zero."""
        if self.stake is None:
            return None
        return _money(self.stake * points, self.stake)

    @property
    def stake_text(self) -> str | None:
        """The stake as a page shows it: "0.10", "1000000.00" (never "1E+6")."""
        return None if self.stake is None else _money(self.stake, self.stake)

    # ------------------------------------------------------------ one hand

    def _score(self, h: Mapping[str, Any], banker: int, wind: Seat,
               number: int) -> tuple[HandResult, HandOutcome]:
        """Score hand ``h`` dealt by ``banker`` in the ``wind`` round: its result (the
        totals left at zero: they depend on the hands before) and its outcome for the
        match. ``number`` only names the hand in an error."""
        rules, names = self.rules, self.names
        seating = MatchState(banker=banker)
        seat_of, player_at = seating.seat_of, seating.player_at
        deltas = [0, 0, 0, 0]            # by seat
        lines: list[str] = []
        wins: tuple[Won, ...] = ()
        kong = bool(h.get("kong"))
        tai = raw = None
        liable = None
        if h["type"] == "win":
            winner = seat_of(h["winner"])
            discarder = None if h.get("from") is None else seat_of(h["from"])
            liable = None if h.get("liable") is None else seat_of(h["liable"])
            if "hand" in h:
                req = dict(h["hand"], seat=winner.letter, round=wind.letter,
                           discarder=discarder.letter if discarder is not None else None,
                           self_drawn=discarder is None)
                if liable is not None:
                    req["liable"] = liable.letter
                try:
                    scored = score_win(req, rules)
                except RequestError as exc:
                    raise LedgerError(f"hand {number}: {exc}") from None
                if not scored.result.winning:
                    raise LedgerError(f"hand {number}: not a win: {scored.result.reason}")
                settlement = scored.settlement
                tai, raw = scored.result.tai, scored.result.raw_tai
                kong = kong or any(m.is_kong for m in scored.hand.melds)
                if scored.liability is not None:
                    liable = scored.liability.seat
            else:
                raw = h["tai"]
                tai = min(raw, rules.scoring.tai_cap)
                settlement = settle_win(rules, winner, raw, discarder is None, discarder,
                                        thirteen_wonders=bool(h.get("thirteen_wonders")),
                                        liable=liable)
            for s in Seat:
                deltas[s] += settlement.deltas[s]
            for ln in settlement.lines:
                if ln.payer is not None:
                    lines.append(f"{names[player_at(ln.payer)]} pays "
                                 f"{names[player_at(ln.payee)]} {ln.amount}")
                else:
                    lines.append(f"{names[player_at(ln.payee)]} scores {ln.amount}")
            wins = (Won(winner, Tile.M1, discarder, (), tai, raw, (), "regular"),)
            how = "self-drawn" if discarder is None else f"from {names[h['from']]}"
            worth = f" {raw} tai" if rules.scoring.counts_tai else ""
            text = f"{names[h['winner']]} won{worth}, {how}"
            if h.get("thirteen_wonders"):
                text += " (Thirteen Wonders)"
            if liable is not None:
                text += f" (Bao: {names[player_at(liable)]} pays)"
        for p in h.get("instant", ()):
            amount = instant_amount(rules, p["reason"], bool(p.get("dealt")))
            kong = kong or p["reason"] in KONGS
            if amount <= 0:
                continue    # stored before such payouts were refused: it still was a kong
            pay = payout(seat_of(p["player"]), p["reason"], amount)
            for s in Seat:
                deltas[s] += pay.deltas[s]
            lines.append(f"the others each pay {names[p['player']]} {amount} for "
                         f"{WORDS[p['reason']]}")
        if h["type"] != "win":
            # after the payouts: a kong known only from its payout passes the deal too
            text = "Drawn hand" + (" (a kong was declared)" if kong else "")
        seat_deltas = (deltas[0], deltas[1], deltas[2], deltas[3])
        outcome = HandOutcome(wins, None if wins else "wall", kong, seat_deltas)
        by_player = [0, 0, 0, 0]
        for s in Seat:
            by_player[player_at(s)] = deltas[s]
        result = HandResult(number, banker, wind,
                            (by_player[0], by_player[1], by_player[2], by_player[3]),
                            (0, 0, 0, 0), text, tai, tuple(lines), raw,
                            None if liable is None else player_at(liable))
        return result, outcome

    # ------------------------------------------------------------ storage

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "names": list(self.names),
                "rules": self.rules.to_dict(),
                "stake": None if self.stake is None else str(self.stake),
                "hands": [{"id": i, **h} for i, h in zip(self.ids, self.hands, strict=True)],
                "next_id": self.next_id,
                "deleted": [dict(d) for d in self.deleted]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ledger:
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise LedgerError(f"not a ledger: expected a JSON object with \"format\": "
                              f"\"{FORMAT}\"")
        if data.get("version") != VERSION:
            raise LedgerError(f"ledger version {data.get('version')!r} is not {VERSION}")
        led = cls.new(data.get("names") or [], data.get("rules"),
                      StoredStake(data.get("stake")))
        hands = data.get("hands", [])
        if not isinstance(hands, list) or len(hands) > MAX_HANDS:
            raise LedgerError(f"field 'hands' must be a list of at most {MAX_HANDS} hands")
        # Files written before hands had ids get them by position, once.
        ids = [_hand_id(h.get("id") if isinstance(h, Mapping) else None, f"h{n + 1}")
               for n, h in enumerate(hands)]
        if len(set(ids)) != len(ids):
            raise LedgerError("two hands of the ledger have the same id")
        clean = [_clean_entry({k: v for k, v in h.items() if k != "id"}
                              if isinstance(h, Mapping) else h, led) for h in hands]
        deleted = data.get("deleted", [])
        if not isinstance(deleted, list):
            raise LedgerError("field 'deleted' must be a list")
        gone = []
        for d in deleted[-MAX_DELETED:]:
            if not (isinstance(d, Mapping) and isinstance(d.get("at"), int)
                    and not isinstance(d.get("at"), bool) and d["at"] >= 0):
                raise LedgerError("each deleted hand must be {\"id\", \"at\", \"entry\"}")
            hid = _hand_id(d.get("id"), None)
            if hid in ids:
                raise LedgerError(f"hand {hid!r} is both in the ledger and deleted")
            gone.append({"id": hid, "at": d["at"], "entry": _clean_entry(d.get("entry"), led)})
        next_id = data.get("next_id", 0)
        if isinstance(next_id, bool) or not isinstance(next_id, int):
            raise LedgerError("field 'next_id' must be a whole number")
        return led._with(clean, ids, next_id=max(next_id, led.next_id), deleted=tuple(gone))

    def dumps(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    def summary(self) -> dict[str, Any]:
        """Everything a page or a report shows: hands, totals, next dealer, settle-up."""
        results = self.results()
        totals = results[-1].totals if results else (0, 0, 0, 0)
        # Under 'winner-only' and 'one-point' nobody pays: the totals are scores to compare.
        pays = self.rules.payments.scheme == "table"
        transfers = settle(totals, self.names) if pays else []
        paid = paid_reasons(self.rules)
        tw = thirteen_wonders_tai(self.rules)
        return {
            "names": list(self.names), "rules": self.rules.name,
            "stake": self.stake_text,
            "hands": [{"number": r.number, "dealer": r.dealer, "round_wind": r.round_wind.name
                       .title(), "deltas": list(r.deltas), "totals": list(r.totals),
                       "text": r.text, "lines": list(r.lines), "tai": r.tai,
                       "raw_tai": r.raw_tai, "liable": r.liable, "entry": h, "id": i}
                      for r, h, i in zip(results, self.hands, self.ids, strict=True)],
            "totals": list(totals),
            "money": [self.money(t) for t in totals] if self.stake is not None else None,
            "standings": standings(totals, self.names),
            "next": self.next_hand(),
            "settle": [{"payer": t.payer, "payee": t.payee, "points": t.points,
                        "money": self.money(t.points), "text": str(t)} for t in transfers],
            "pays": pays,
            "has_bao": bool(self.rules.bao.cases), "has_instant": bool(paid),
            "instant_reasons": paid,
            "counts_tai": self.rules.scoring.counts_tai,
            "thirteen_wonders_tai": None if tw is None else tw[0],
        }

    def csv_rows(self) -> list[list[str]]:
        """One row per hand: number, dealer, round wind, the hand in words, each player's
        points and running total, and with a stake each player's running total in money."""
        head = ["hand", "dealer", "round wind", "what happened"]
        head += [f"{n} points" for n in self.names] + [f"{n} total" for n in self.names]
        if self.stake is not None:
            head += [f"{n} money" for n in self.names]
        rows = [head]
        for r in self.results():
            money = [] if self.stake is None else [_money(self.stake * t, self.stake)
                                                   for t in r.totals]
            rows.append([str(r.number), self.names[r.dealer], r.round_wind.name.title(),
                         r.text, *map(str, r.deltas), *map(str, r.totals), *money])
        return [[_cell(c) for c in row] for row in rows]


def _id_number(hand_id: str) -> int:
    return int(hand_id[1:])


def _hand_id(value: Any, default: str | None) -> str:
    if value is None and default is not None:
        return default
    if not (isinstance(value, str) and value[:1] == "h" and value[1:].isascii()
            and value[1:].isdigit() and len(value) <= 10):
        raise LedgerError(f"a hand's id must be \"h\" and a number, like \"h3\", not "
                          f"{str(value)[:20]!r}")
    return value


_NUMBER = re.compile(r"-[0-9]+(\.[0-9]+)?")


def _cell(text: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula (a name may start with '=');
    a negative number stays a number."""
    if text[:1] in ("=", "+", "@", "\t", "\r") or (text[:1] == "-" and not
                                                      _NUMBER.fullmatch(text)):
        return "'" + text
    return text


def _money(value: Decimal, stake: Decimal) -> str:
    """A figure at ``stake``, plain decimal with the cents: "0.10", "-1.60", "32000000.00";
    with the stake's own places where it has more (a ledger stored before stakes were held
    to cents), so that every figure is exact and all have the same places."""
    exponent = stake.normalize().as_tuple().exponent
    places = max(2, -exponent) if isinstance(exponent, int) else 2
    return f"{value.quantize(Decimal(1).scaleb(-places)):f}"


def instant_amount(rules: Ruleset, reason: str, dealt: bool = False) -> int:
    """What each opponent pays for an instant payout (RULES.md, 'instant payouts')."""
    inst = rules.instant
    if reason in KONGS:
        return {"claimed-kong": inst.claimed_kong, "added-kong": inst.added_kong,
                "concealed-kong": inst.concealed_kong}[reason]
    if reason in PAIRS:
        return inst.bonus_pair_initial if dealt else inst.bonus_pair
    return inst.bonus_set


def paid_reasons(rules: Ruleset) -> list[str]:
    """The instant payouts ``rules`` pay (a pair: in play or in the deal), in the order of
    :data:`INSTANT_REASONS`; the others pay nothing and a hand cannot list them."""
    if not rules.instant.enabled:
        return []
    return [r for r in INSTANT_REASONS
            if instant_amount(rules, r) > 0 or (r in PAIRS and instant_amount(rules, r, True) > 0)]


def _check_paid(entry: Mapping[str, Any], rules: Ruleset) -> None:
    for p in entry.get("instant", ()):
        if instant_amount(rules, p["reason"], bool(p.get("dealt"))) <= 0:
            dealt = " when exposed in the deal" if p.get("dealt") else ""
            kong = (" (a drawn hand: say that a kong was declared)"
                    if p["reason"] in KONGS else "")
            raise LedgerError(f"{WORDS[p['reason']]}{dealt} pays nothing under "
                              f"{rules.name!r} (RULES.md, instant payouts): leave that payout "
                              f"out{kong}")


def thirteen_wonders_tai(rules: Ruleset) -> tuple[int, bool] | None:
    """What Thirteen Wonders scores under ``rules`` and whether it is a limit hand (exactly
    that, nothing added); None where it scores no tai (not counted, or not a pattern)."""
    pattern = rules.scoring.patterns.get("thirteen-wonders")
    if not rules.scoring.counts_tai or pattern is None:
        return None
    return (rules.scoring.limit_tai, True) if pattern.limit else (pattern.tai, False)


def _thirteen_wonders_entry(rules: Ruleset, tai: Any) -> Any:
    """A Thirteen Wonders win's tai: the rules' value when left out; another number is
    refused where it cannot be right (below the value, or any other than a limit hand's)."""
    if not rules.scoring.counts_tai:
        return 0 if tai is None else tai   # one point a win: the tai play no part
    value = thirteen_wonders_tai(rules)
    if value is None:
        raise LedgerError(f"Thirteen Wonders scores nothing under {rules.name!r}: enter the "
                          "win by its tai, without Thirteen Wonders")
    want, limit = value
    if tai is None:
        return want
    if isinstance(tai, bool) or not isinstance(tai, int):
        return tai      # refused with the other tai below
    if limit and tai != want:
        raise LedgerError(f"Thirteen Wonders is a limit hand of {want} tai under "
                          f"{rules.name!r}, not {tai}: leave the tai out")
    if tai < want:
        raise LedgerError(f"Thirteen Wonders is {want} tai under {rules.name!r} (more only "
                          f"with bonus tiles or the like), not {tai}: leave the tai out")
    return tai


def check_names(names: Any) -> tuple[str, str, str, str]:
    if not isinstance(names, (list, tuple)) or len(names) != 4:
        raise LedgerError("a ledger needs four names, East's first")
    out = []
    for n in names:
        if not isinstance(n, str) or not n.strip():
            raise LedgerError("each of the four names must be some text")
        n = " ".join(n.split())
        if len(n) > MAX_NAME or not n.isprintable():
            raise LedgerError(f"the name {n[:MAX_NAME]!r}… is too long: at most {MAX_NAME} "
                              "characters" if len(n) > MAX_NAME else
                              "a name cannot hold control characters")
        out.append(n)
    if len({n.casefold() for n in out}) < 4:
        raise LedgerError("the four names must differ")
    return (out[0], out[1], out[2], out[3])


@dataclass(frozen=True)
class StoredStake:
    """A stake as a stored ledger wrote it: taken as it is (a ledger from before stakes
    were held to whole cents still opens; its money is then shown exactly)."""

    value: Any


def check_stake(stake: Any) -> Decimal | None:
    """A stake per point, in whole cents (0.01 at least), so every money figure is exact."""
    stored = isinstance(stake, StoredStake)
    if stored:
        stake = stake.value
    if stake is None or stake == "":
        return None
    if isinstance(stake, bool) or not isinstance(stake, (str, int, float)):
        raise LedgerError("the stake must be a number of money per point, e.g. 0.10")
    try:
        value = Decimal(str(stake).strip())
    except InvalidOperation:
        raise LedgerError(f"the stake {str(stake)[:20]!r} is not a number") from None
    if not value.is_finite() or value <= 0 or value > 10**6:
        raise LedgerError("the stake must be more than 0 (and at most a million per point)")
    if stored:
        return value
    if value != value.quantize(CENT):
        raise LedgerError(f"the stake {str(stake)[:20]!r} is not in whole cents: give the "
                          "money per point as 0.01 or more, with at most two decimal "
                          "places (e.g. 0.10)")
    return value.quantize(CENT)


def _rules(rules: str | Ruleset | Mapping[str, Any] | None) -> Ruleset:
    if isinstance(rules, Mapping):
        return rules_from_dict(rules, "the ledger's rules")
    return load_rules(rules if rules is not None else "standard")


def _player(entry: Mapping[str, Any], key: str, names: Sequence[str],
            optional: bool = False) -> int | None:
    value = entry.get(key)
    if value is None:
        if optional:
            return None
        raise LedgerError(f"missing field {key!r}: a player's number 0-3 or name")
    if isinstance(value, str):
        for i, n in enumerate(names):
            if n.casefold() == value.strip().casefold():
                return i
        raise LedgerError(f"field {key!r}: no player named {value[:MAX_NAME]!r}; the players "
                          f"are {', '.join(names)}")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise LedgerError(f"field {key!r} must be a player's number 0-3 or name")
    return value


def _clean_entry(entry: Mapping[str, Any], led: Ledger) -> dict[str, Any]:
    if not isinstance(entry, Mapping):
        raise LedgerError("a hand must be a JSON object")
    rules, names = led.rules, led.names
    kind = entry.get("type")
    allowed = {"win": ("type", "winner", "from", "tai", "liable", "thirteen_wonders", "hand",
                       "instant", "kong"),
               "drawn": ("type", "kong", "instant")}
    if not isinstance(kind, str) or kind not in allowed:
        raise LedgerError("field 'type' must be \"win\" or \"drawn\"")
    unknown = [k for k in entry if k not in allowed[kind]]
    if unknown:
        raise LedgerError(f"unknown field {unknown[0]!r} in a {kind} hand; fields are "
                          f"{', '.join(allowed[kind])}")
    out: dict[str, Any] = {"type": kind}
    kong = entry.get("kong", False)
    if not isinstance(kong, bool):
        raise LedgerError("field 'kong' must be true or false")
    if kong:
        out["kong"] = True
    if kind == "win":
        winner = _player(entry, "winner", names)
        out["winner"] = winner
        frm = _player(entry, "from", names, optional=True)
        if frm is not None and frm == winner:
            raise LedgerError("field 'from': the winner cannot pay for their own win")
        out["from"] = frm
        liable = _player(entry, "liable", names, optional=True)
        if liable is not None:
            if not rules.bao.cases:
                raise LedgerError(f"the rules {rules.name!r} have no Bao: leave 'liable' out")
            if liable == winner:
                raise LedgerError("field 'liable': the winner cannot be liable for their "
                                  "own win")
            out["liable"] = liable
        if "hand" in entry:
            if "tai" in entry or "thirteen_wonders" in entry:
                raise LedgerError("give either 'tai' or the full 'hand', not both")
            hand = entry["hand"]
            if not isinstance(hand, Mapping):
                raise LedgerError("field 'hand' must be a JSON object (the calculator's "
                                  "request)")
            extra = [k for k in hand if k not in HAND_FIELDS]
            if extra:
                raise LedgerError(f"field 'hand': {extra[0]!r} is not kept with a hand; the "
                                  f"ledger gives the seats and round wind (hand fields: "
                                  f"{', '.join(HAND_FIELDS)})")
            out["hand"] = dict(hand)
        else:
            tw = entry.get("thirteen_wonders", False)
            if not isinstance(tw, bool):
                raise LedgerError("field 'thirteen_wonders' must be true or false")
            tai = entry.get("tai")
            if tw:
                tai = _thirteen_wonders_entry(rules, tai)
            if isinstance(tai, bool) or not isinstance(tai, int) or not 0 <= tai <= 100:
                raise LedgerError("field 'tai' must be a whole number 0-100 (or give the "
                                  "full 'hand')")
            if rules.scoring.counts_tai and tai < rules.scoring.minimum_tai:
                raise LedgerError(f"a win needs at least {rules.scoring.minimum_tai} tai "
                                  f"under {rules.name!r}, not {tai}")
            out["tai"] = tai
            if tw:
                out["thirteen_wonders"] = True
    instant = entry.get("instant", [])
    if not isinstance(instant, list):
        raise LedgerError("field 'instant' must be a list of {player, reason}")
    if instant and not rules.instant.enabled:
        raise LedgerError(f"the rules {rules.name!r} have no instant payouts: leave "
                          "'instant' out")
    clean = []
    for p in instant:
        if not isinstance(p, Mapping):
            raise LedgerError("each instant payout must be {\"player\": ..., \"reason\": ...}")
        bad = [k for k in p if k not in ("player", "reason", "dealt")]
        if bad:
            raise LedgerError(f"unknown field {bad[0]!r} in an instant payout")
        reason = p.get("reason")
        if reason not in INSTANT_REASONS:
            raise LedgerError(f"instant payout reason {str(reason)[:30]!r} is not one of "
                              f"{', '.join(INSTANT_REASONS)}")
        item: dict[str, Any] = {"player": _player(p, "player", names), "reason": reason}
        dealt = p.get("dealt", False)
        if not isinstance(dealt, bool):
            raise LedgerError("field 'dealt' must be true or false")
        if dealt:
            item["dealt"] = True
        clean.append(item)
    if clean:
        out["instant"] = clean
    return out


def standings(totals: Sequence[int], names: Sequence[str]) -> list[dict[str, Any]]:
    """Players best first (ties share a place, then by seat order)."""
    order = sorted(range(4), key=lambda p: (-totals[p], p))
    return [{"place": 1 + sum(1 for q in range(4) if totals[q] > totals[p]), "player": p,
             "name": names[p], "points": totals[p]} for p in order]


def settle(totals: Sequence[int], names: Sequence[str] = ()) -> list[Transfer]:
    """The fewest transfers that bring every total to zero.

    Players split into as many groups summing to zero as possible; each group of k players
    settles in k - 1 transfers (biggest debtor to biggest creditor), which is the fewest:
    four players never need more than three.

    >>> [(t.payer, t.payee, t.points) for t in settle([10, -10, 5, -5])]
    [(1, 0, 10), (3, 2, 5)]
    """
    if sum(totals) != 0:
        raise LedgerError(f"the totals {list(totals)} do not add up to zero")
    n = len(totals)
    live = [p for p in range(n) if totals[p] != 0]
    best: dict[int, int] = {0: 0}
    choice: dict[int, int] = {}
    # best[mask]: most zero-sum groups the players of mask split into (mask sums to zero)
    full = 0
    for p in live:
        full |= 1 << p
    masks = sorted((m for m in range(1, 1 << n) if m & ~full == 0
                    and sum(totals[p] for p in range(n) if m >> p & 1) == 0),
                   key=lambda m: bin(m).count("1"))
    zero = set(masks)
    for m in masks:
        sub = m
        while sub:
            rest = m & ~sub
            if sub in zero and rest in best and best[rest] + 1 > best.get(m, 0):
                best[m] = best[rest] + 1
                choice[m] = sub
            sub = (sub - 1) & m
    out: list[Transfer] = []
    m = full
    while m:
        group = choice[m]
        out += _settle_group([p for p in range(n) if group >> p & 1], totals, tuple(names))
        m &= ~group
    return sorted(out, key=lambda t: (t.payer, t.payee))


def _settle_group(players: list[int], totals: Sequence[int],
                  names: tuple[str, ...]) -> list[Transfer]:
    bal = {p: totals[p] for p in players}
    out = []
    while any(bal.values()):
        payer = min(bal, key=lambda p: (bal[p], p))
        payee = max(bal, key=lambda p: (bal[p], -p))
        amount = min(-bal[payer], bal[payee])
        out.append(Transfer(payer, payee, amount, names))
        bal[payer] += amount
        bal[payee] -= amount
    return out


__all__ = ["FORMAT", "INSTANT_REASONS", "HandNotFound", "HandResult", "Ledger",
           "LedgerError", "StoredStake", "Transfer", "instant_amount", "paid_reasons",
           "settle", "standings", "thirteen_wonders_tai"]
