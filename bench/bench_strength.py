"""Strength of the levels: a seeded round robin with duplicate seating under one preset.

Every table of four players (all 4-player subsets of the field) plays each wall four
times, the players rotated through the seats, so every player meets every wall from every
seat. Prints mean points per hand with a 95% confidence interval (clustered by wall, since
the duplicate deals of one wall are not independent), the win rate and the deal-in rate
(hands in which the player's discard, or robbed kong, was won on). ``--players`` picks the
field (at least four names: levels, baselines, or ``model:PATH`` for a policy saved by
``examples/train.py``, or ``NAME@ref`` for a level as it plays at ``--reference REV``, another
revision of this repository); ``--pair a,b`` also prints the mean difference a - b in points
per hand, with its interval, over the walls.

The playing and the statistics are ``sgmahjong rate``'s (:mod:`sgmahjong.rating`): this
script adds the players only a bench has, the levels of another revision (``NAME@ref``)
and the Owl with its points model changed (``owl~FIELD=V``). ``sgmahjong rate`` with the
same players in the same order, walls and seed prints the same numbers.

    python bench/bench_strength.py --walls 40 --procs 2
    python bench/bench_strength.py --walls 400 --players fox,owl,hedgehog,greedy --pair owl,fox
    python bench/bench_strength.py --players model:p.npz,owl,fox,hedgehog --pair model:p.npz,owl
    python bench/bench_strength.py --reference 2ca9c76 --players owl,owl@ref,fox,hedgehog \
        --pair owl,owl@ref --walls 1000 --seed 7
"""

from __future__ import annotations

import argparse
import functools
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from reference import SUFFIX, ReferenceTable, RevisionError, reference_package

from sgmahjong.agents.levels import LEVELS
from sgmahjong.errors import SgmahjongError
from sgmahjong.rating.play import play_deal as play_agents
from sgmahjong.rating.play import player, rate
from sgmahjong.rating.stats import Interval, Row, pair_text, table_text
from sgmahjong.rules import Ruleset

if TYPE_CHECKING:
    from sgmahjong.agents.evaluation import Situation
    from sgmahjong.game.view import PlayerView
    from sgmahjong.tiles import Tile

PlayerFactory = Callable[[int], object]
__all__ = ["Row", "interval", "play_deal", "prepare"]

_VARIANTS: dict[str, PlayerFactory] = {}


def make(name: str, seed: int) -> object:
    """A player of this tree: ``owl~...`` variants here, every other name as
    ``sgmahjong rate`` makes it."""
    if name.startswith("owl~"):
        if name not in _VARIANTS:
            _VARIANTS[name] = variant(name)
        return _VARIANTS[name](seed)
    return player(name, seed)


def field(names: Sequence[str]) -> None:
    """Make each player once: a name that cannot play fails here."""
    for n in names:
        make(n, 0)


def old_owl_discard(view: PlayerView, tiles: Sequence[Tile], sit: Situation) -> Tile:
    """The Owl's discard before it decided in expected points (revision 90b9f39): its
    count of the hand kept (:func:`~sgmahjong.agents.expected.owl_count`, which is that
    Owl's value of a hand), less a danger weight near a ready-looking seat (1.5, 4 or 8
    as its own hand is ready, one away or further) and 40 for a tile that could make it
    pay for the table (Bao)."""
    from sgmahjong.agents.evaluation import (
        bao_dangers,
        danger,
        discard_options,
        keep_score,
        ready_looking,
    )
    from sgmahjong.agents.expected import DEEP, owl_count
    from sgmahjong.agents.fox import KEEP

    options = discard_options(sit, tiles)
    threats = ready_looking(view)
    top = min(o.shanten for o in options)
    weight = (1.5, 4.0, 8.0)[min(max(top, 0), 2)] if threats else 0.0
    scored = []
    for i, o in enumerate(options):
        v = (owl_count(view, sit, o.after, sit.melds, o.shanten, o.live, i < DEEP)
             - KEEP * keep_score(sit.counts, o.tile))
        if weight:
            v -= weight * danger(view, o.tile, threats, sit)
        if bao_dangers(view, o.tile):
            v -= 40.0
        scored.append((v, o.tile))
    return max(scored, key=lambda s: (s[0], -s[1]))[1]


def variant(name: str) -> PlayerFactory:
    """``owl~FIELD=V[~FIELD=V]``: the Owl with fields of its points model changed, for
    experiments (``realise=0`` values no tai source not yet secured, ``anyway=99`` counts
    no deal-in cost; a number fills every entry of a list field; ``win.sets=0`` sets one
    weight of the win model, named by its input, spaces as ``_``); ``samples=N`` plays
    close discards out on N sampled tables (:mod:`sgmahjong.agents.lookahead`);
    ``foxclaims`` claims as the Owl did before it decided in expected points (Fox's rule
    and every free kong), ``olddiscards`` discards as it did (:func:`old_owl_discard`):
    each half of the old Owl, to tell where a difference comes from."""
    import dataclasses

    from sgmahjong.agents.expected import WIN_FEATURES, load_points_model
    from sgmahjong.agents.owl import Owl

    model = load_points_model()
    fields = sorted(f.name for f in dataclasses.fields(model) if f.name not in ("win", "about"))
    inputs = [n.replace(" ", "_") for n in WIN_FEATURES]
    fox_claims = False
    old_discards = False
    samples = Owl.samples
    for part in name.split("~")[1:]:
        key, _, value = part.partition("=")
        if key == "foxclaims":
            fox_claims = True
            continue
        if key == "olddiscards":
            old_discards = True
            continue
        try:
            number = int(value) if key == "samples" else float(value)
        except ValueError:
            raise SgmahjongError(f"{name}: {part!r} needs {'a whole' if key == 'samples' else 'a'}"
                                 " number after '='") from None
        if key == "samples":
            samples = int(number)
        elif key.startswith("win."):
            # one weight of the win model, by its input's name (WIN_FEATURES, spaces as _)
            if key[4:] not in inputs:
                raise SgmahjongError(f"{name}: the win model has no input {key[4:]!r} "
                                     f"(inputs: {', '.join(inputs)})")
            i = inputs.index(key[4:])
            model = dataclasses.replace(
                model, win=(*model.win[:i], float(number), *model.win[i + 1:]))
        elif key in fields:
            old = getattr(model, key)
            new = (tuple(float(number) for _ in old) if isinstance(old, tuple)
                   else float(number))
            model = dataclasses.replace(model, **{key: new})
        else:
            raise SgmahjongError(f"{name}: no such setting {key!r} (settings: foxclaims, "
                                 f"olddiscards, samples, win.INPUT, {', '.join(fields)})")

    class Variant(Owl):
        def discard(self, view, tiles, sit):  # type: ignore[no-untyped-def]
            if old_discards:
                return old_owl_discard(view, tiles, sit)
            return super().discard(view, tiles, sit)

        def claim(self, view, claims):  # type: ignore[no-untyped-def]
            if not fox_claims:
                return super().claim(view, claims)
            from sgmahjong.agents.evaluation import claim_options, situation
            from sgmahjong.agents.fox import Fox
            from sgmahjong.game.actions import Kong
            kongs = [a for a in claims if isinstance(a, Kong)]
            for opt in claim_options(view, kongs, situation(view)):
                if opt.after <= opt.before:
                    return opt.action
            return Fox.claim(self, view, claims)

    Variant.model = model
    Variant.samples = samples
    return Variant


def play_deal(rules: str | Ruleset, wall_seed: int, seated: Sequence[str],
              seeds: Sequence[int], ref_folder: str = "") -> list[Row]:
    """One deal of ``wall_seed`` with ``seated`` (a player name per seat, each with its
    seed): (points, won, dealt in) per seat. Players named ``NAME@ref`` play the level as
    it is at the reference revision copied into ``ref_folder``."""
    if not any(n.endswith(SUFFIX) for n in seated):
        return play_agents(rules, wall_seed, [make(n, seeds[s]) for s, n in enumerate(seated)])
    # The reference engine takes the preset by name: its Ruleset is another class.
    ref = ReferenceTable(ref_folder, rules if isinstance(rules, str) else rules.name,
                         wall_seed)
    agents: list[object] = []
    for s, n in enumerate(seated):
        if n.endswith(SUFFIX):
            agent = ref.agent(n[:-len(SUFFIX)], seeds[s])
            agents.append(lambda view, legal, a=agent, s=s: ref.act(a, s))
        else:
            agents.append(make(n, seeds[s]))
    return play_agents(rules, wall_seed, agents, on_action=ref.follow)


def prepare(ap: argparse.ArgumentParser, names: Sequence[str], reference: str,
            tmp: Path) -> str:
    """Check that every player of ``names`` can be made (a model file that cannot be read
    fails here, once) and copy the ``--reference`` revision into ``tmp`` when a player
    plays from it: the folder to hand to :func:`play_deal` ("" without one)."""
    try:
        field([n for n in set(names) if not n.endswith(SUFFIX)])
    except SgmahjongError as e:
        ap.error(str(e))
    refs = sorted(n for n in set(names) if n.endswith(SUFFIX))
    if refs and not reference:
        ap.error(f"{refs[0]} needs --reference REV")
    for n in refs:
        if n[:-len(SUFFIX)] not in LEVELS:
            ap.error(f"{n}: only the levels ({', '.join(LEVELS)}) can play from a reference")
    if not refs:
        return ""
    try:
        return str(reference_package(reference, tmp))
    except RevisionError as e:
        ap.error(str(e))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--walls", type=int, default=20)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--players", default="snail,rabbit,hedgehog,fox,owl,greedy")
    ap.add_argument("--pair", default="", help="two players a,b: print the mean of a - b")
    ap.add_argument("--reference", default="",
                    help="a revision of this repository for the players named NAME@ref")
    opts = ap.parse_args()
    names = tuple(opts.players.split(","))
    if len(names) < 4 or len(set(names)) != len(names):
        ap.error("--players needs at least four different names")
    tmp = tempfile.TemporaryDirectory(prefix="sgmahjong-ref-")
    ref_folder = prepare(ap, names, opts.reference, Path(tmp.name))
    pair = tuple(opts.pair.split(",")) if opts.pair else ()
    if pair and (len(pair) != 2 or not set(pair) <= set(names)):
        ap.error("--pair needs two players of the field")
    try:
        r = rate([], rules=opts.rules, ladder=names, walls=opts.walls, seed=opts.seed,
                 procs=opts.procs, play=functools.partial(play_deal, ref_folder=ref_folder),
                 check=False)
    except SgmahjongError as e:
        ap.error(str(e))
    print("\n".join(table_text(r)))
    if pair:
        print(pair_text(r.pair(*pair)))


def interval(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% interval (one value per wall)."""
    i = Interval.of(xs)
    return i.mean, i.half


if __name__ == "__main__":
    main()
