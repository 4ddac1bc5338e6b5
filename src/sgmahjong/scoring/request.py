"""The hand-calculator request: one JSON object in, one out (``sgmahjong score --json``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import HandError, MeldError, SgmahjongError
from ..hand import Hand
from ..inputs import did_you_mean
from ..melds import Meld
from ..rules.loading import load_rules
from ..rules.model import Ruleset
from ..tiles import Seat, Tile, check_counts, parse_tiles
from .bao import Liability, win_liability
from .context import WinContext
from .payments import Settlement, settle_win
from .tai import ScoreResult, score_hand

FIELDS = (
    "concealed",
    "melds",
    "bonus",
    "win_tile",
    "self_drawn",
    "seat",
    "round",
    "discarder",
    "events",
    "liable",
    "fresh",
    "tiles_left",
)


class RequestError(SgmahjongError):
    """A calculator request with a missing, unknown or malformed field."""


@dataclass(frozen=True)
class ScoredWin:
    """A request's hand, context, score and settlement."""

    hand: Hand
    ctx: WinContext
    rules: Ruleset
    result: ScoreResult
    settlement: Settlement
    liability: Liability | None = None


def parse_request(request: Mapping[str, Any], labels: Mapping[str, str] | None = None
                  ) -> tuple[Hand, WinContext]:
    """Check a request's fields and build the completed hand and the win's context.

    Errors name a field as ``field 'win_tile'``, or by ``labels[field]`` when the request
    was built from other input (the command line names its options: ``--win``)."""
    def name(key: str) -> str:
        return labels.get(key, f"field {key!r}") if labels else f"field {key!r}"

    if not isinstance(request, Mapping):
        raise RequestError("the request must be a JSON object")
    unknown = [k for k in request if k not in FIELDS]
    if unknown:
        raise RequestError(f"unknown field {unknown[0]!r}{did_you_mean(str(unknown[0]), FIELDS)}; "
                           f"fields are {', '.join(FIELDS)}")
    for key in ("concealed", "win_tile", "seat"):
        if key not in request:
            raise RequestError(f"missing field {key!r}")
    concealed = _tiles(request, "concealed", name)
    bonus = _tiles(request, "bonus", name, default="")
    melds_raw = request.get("melds", [])
    if not isinstance(melds_raw, list) or not all(isinstance(m, str) for m in melds_raw):
        raise RequestError(f"{name('melds')} must be a list of texts like \"pong 777z\"")
    melds = []
    for m in melds_raw:
        try:
            melds.append(Meld.parse(m))
        except MeldError as exc:
            raise RequestError(f"{name('melds')}: {exc}") from None
    win_list = _tiles(request, "win_tile", name)
    if len(win_list) != 1:
        raise RequestError(f"{name('win_tile')} must be exactly one tile, got {len(win_list)}")
    win = win_list[0]
    bad_bonus = [t.text for t in bonus if not t.is_bonus]
    if bad_bonus:
        raise RequestError(f"{name('bonus')} holds non-bonus tiles: {', '.join(bad_bonus)}")
    bad_conc = [t.text for t in concealed if t.is_bonus]
    if bad_conc:
        raise RequestError(
            f"{name('concealed')} holds bonus tiles {', '.join(bad_conc)}; list them under "
            f"{name('bonus')}"
        )
    seat = _seat(request, "seat", name)
    round_wind = (_seat(request, "round", name) if request.get("round") is not None
                  else Seat.EAST)
    discarder = (_seat(request, "discarder", name) if request.get("discarder") is not None
                 else None)
    self_drawn = request.get("self_drawn", discarder is None)
    if not isinstance(self_drawn, bool):
        raise RequestError(f"{name('self_drawn')} must be true or false")
    events = request.get("events", [])
    if not isinstance(events, list) or not all(isinstance(e, str) for e in events):
        raise RequestError(f"{name('events')} must be a list of event names")

    all_tiles = [*concealed, win, *bonus]
    for m in melds:
        all_tiles.extend(m.tiles)
    check_counts(all_tiles, "the hand and winning tile together")
    playable = len(concealed) + 3 * len(melds)
    if win.is_bonus:
        if playable != 13:
            raise RequestError(
                f"with the eighth bonus tile {win.text} as the winning tile the hand holds 13 "
                f"playable tiles; {name('concealed')} has {len(concealed)} tiles and "
                f"{_sets(len(melds))}, {playable} in all (each kong counts three)"
            )
        hand = Hand(tuple(concealed), tuple(melds), (*bonus, win))
    else:
        if playable != 13:
            want = 13 - 3 * len(melds)
            raise RequestError(
                f"{name('concealed')} must hold {want} tiles (without the winning tile) beside "
                f"{_sets(len(melds))}, but it holds {len(concealed)}"
            )
        hand = Hand((*concealed, win), tuple(melds), tuple(bonus))
    try:
        ctx = WinContext.from_events(seat, win, self_drawn, round_wind, discarder, tuple(events))
    except HandError as exc:
        raise RequestError(str(exc)) from None
    return hand, ctx


def score_win(request: Mapping[str, Any], rules: str | Ruleset | None = None,
              labels: Mapping[str, str] | None = None) -> ScoredWin:
    """Score a request and settle it (a non-winning hand settles to zero). ``labels`` name
    the fields in errors as :func:`parse_request` says."""
    rs = load_rules(rules)
    hand, ctx = parse_request(request, labels)
    _check_last_tile(ctx, rs, labels)
    liable, fresh, tiles_left = _bao_fields(request, ctx)
    result = score_hand(hand, ctx, rs)
    liability = None
    if result.winning:
        if liable is not None:
            liability = Liability(liable, "earlier-claim")
        elif result.facts is not None:
            liability = win_liability(rs, result.facts, fresh=fresh, tiles_left=tiles_left)
        settlement = settle_win(
            rs,
            ctx.seat,
            result.tai,
            ctx.self_drawn,
            ctx.discarder,
            thirteen_wonders=result.thirteen_wonders,
            liable=liability.seat if liability else None,
        )
    else:
        settlement = Settlement.zero()
    return ScoredWin(hand, ctx, rs, result, settlement, liability)


def _check_last_tile(ctx: WinContext, rules: Ruleset,
                     labels: Mapping[str, str] | None) -> None:
    """Where replacements come from the same wall, no discard follows the final playable
    tile (RULES.md, 'the end of the wall'): a win on it is self-drawn, as the engine plays
    it. Under a dead wall the last live tile is still discarded and may be won."""
    if ctx.last_tile and not ctx.self_drawn and rules.wall.replacement == "same-wall":
        where = (f"{labels['events']} last-tile" if labels and "events" in labels
                 else "event 'last-tile'")
        raise RequestError(
            f"{where}: under {rules.name!r} no discard follows the final playable tile "
            "(RULES.md, 'the end of the wall'), so a win on the last tile is self-drawn")


def _bao_fields(
    request: Mapping[str, Any], ctx: WinContext
) -> tuple[Seat | None, bool, int | None]:
    """The optional Bao inputs: a seat already liable from an earlier Pong or Kong, and for
    the fresh-tile case whether the discard was fresh and how many playable tiles remained."""
    liable = _seat(request, "liable") if request.get("liable") is not None else None
    if liable is not None and liable == ctx.seat:
        raise RequestError("field 'liable': the winner cannot be liable for their own win")
    fresh = request.get("fresh", False)
    if not isinstance(fresh, bool):
        raise RequestError("field 'fresh' must be true or false")
    tiles_left = request.get("tiles_left")
    if tiles_left is not None and (
        isinstance(tiles_left, bool) or not isinstance(tiles_left, int) or tiles_left < 0
    ):
        raise RequestError("field 'tiles_left' must be a whole number, 0 or more")
    return liable, fresh, tiles_left


def score_request(request: Mapping[str, Any], rules: str | Ruleset | None = None) -> dict[str, Any]:
    """The calculator: a request object in, the JSON-ready answer out.

    >>> out = score_request({"concealed": "123m456p789s777z1m", "win_tile": "1m",
    ...                      "seat": "S", "discarder": "N"})
    >>> out["winning"], out["tai"], out["payments"]
    (True, 1, {'E': -2, 'S': 8, 'W': -2, 'N': -4})
    """
    scored = score_win(request, rules)
    return answer(scored)


def answer(scored: ScoredWin) -> dict[str, Any]:
    r = scored.result
    out: dict[str, Any] = {
        "winning": r.winning,
        "raw_tai": r.raw_tai,
        "tai": r.tai,
        "patterns": [
            {"id": i.id, "name": i.name, "chinese": i.chinese, "tai": i.tai, "count": i.count}
            for i in r.items
        ],
        "payments": scored.settlement.as_dict(),
        "rules": scored.rules.name,
    }
    if r.is_limit:
        out["limit"] = True
    if scored.liability is not None:
        out["bao"] = {"seat": scored.liability.seat.letter, "case": scored.liability.case}
    if not r.winning:
        out["reason"] = r.reason
    return out


def _sets(n: int) -> str:
    return f"{n} declared set" + ("" if n == 1 else "s")


def _field(key: str) -> str:
    return f"field {key!r}"


def _tiles(request: Mapping[str, Any], key: str, name: Callable[[str], str] = _field,
           default: str | None = None) -> list[Tile]:
    value = request.get(key, default)
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise RequestError(f'{name(key)} must be tile text like "123m456p"')
    try:
        return parse_tiles(value)
    except SgmahjongError as exc:
        raise RequestError(f"{name(key)}: {exc}") from None


def _seat(request: Mapping[str, Any], key: str, name: Callable[[str], str] = _field) -> Seat:
    value = request.get(key)
    if not isinstance(value, str):
        raise RequestError(f'{name(key)} must be one of "E", "S", "W", "N"')
    try:
        return Seat.parse(value)
    except SgmahjongError:
        raise RequestError(
            f"{name(key)}: unknown seat {value!r}; expected one of E, S, W, N"
        ) from None
