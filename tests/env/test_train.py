"""The learned policy: its gradient, a tiny training run that learns, and the saved model
playing whole matches through ``model:PATH``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from sgmahjong.cli import main as cli_main
from sgmahjong.env.features import DISCARD_SIZE, GLOBAL_SIZE
from sgmahjong.env.model import ModelAgent, backward, forward, init_params, load, save
from sgmahjong.game import Game
from sgmahjong.rules import load_rules
from sgmahjong.simulate import play_match

ROOT = Path(__file__).resolve().parents[2]


def _train_module():
    spec = importlib.util.spec_from_file_location("train_example", ROOT / "examples/train.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_example"] = module      # the process pool pickles its functions
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    """Ten hands of Owl's decisions, twenty epochs, two policy-gradient steps: seconds."""
    out = tmp_path_factory.mktemp("train") / "policy.npz"
    summary = _train_module().main(
        ["--minutes", "5", "--procs", "1", "--hands", "10", "--epochs", "20", "--lr", "0.003",
         "--pg-iterations", "2", "--opponents", "greedy", "--out", str(out)])
    return summary, out


def test_backward_is_the_gradient_of_the_loss() -> None:
    # Central differences on a float64 copy of a small network agree with backward().
    rng = np.random.default_rng(3)
    p = {k: v.astype(np.float64) for k, v in init_params(8, 4, seed=3).items()}
    n = 4
    X = rng.random((n, GLOBAL_SIZE))
    D = rng.random((n, 34, DISCARD_SIZE))
    mask = (rng.random((n, 109)) < 0.2).astype(np.int8)
    mask[:, 5] = 1
    y = np.array([int(np.flatnonzero(m)[-1]) for m in mask])
    w = rng.random(n)

    def loss() -> float:
        logp, _ = forward(p, X, D, mask)
        return float(-(w * logp[np.arange(n), y]).sum())

    logp, cache = forward(p, X, D, mask)
    grads = backward(p, logp, cache, y, w)
    for name, g in grads.items():
        for j in np.flatnonzero(np.abs(g) > 1e-6)[:3]:
            at = np.unravel_index(j, g.shape)
            old = p[name][at]
            p[name][at] = old + 1e-6
            up = loss()
            p[name][at] = old - 1e-6
            down = loss()
            p[name][at] = old
            assert (up - down) / 2e-6 == pytest.approx(g[at], rel=1e-4, abs=1e-8), name


def test_masked_actions_get_no_probability() -> None:
    p = init_params(8, 4)
    rng = np.random.default_rng(0)
    mask = np.zeros((2, 109), np.int8)
    mask[0, [3, 37, 108]] = 1
    mask[1, [107]] = 1
    logp, _ = forward(p, rng.random((2, GLOBAL_SIZE)).astype(np.float32),
                      rng.random((2, 34, DISCARD_SIZE)).astype(np.float32), mask)
    probs = np.exp(logp)
    assert probs[0, [3, 37, 108]].sum() == pytest.approx(1.0)
    assert probs[1, 107] == pytest.approx(1.0)
    assert probs[mask == 0].max() == 0.0


def test_fitting_keeps_the_epoch_with_the_lowest_held_out_loss(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The held-out losses are scripted (lowest after epoch 2 of 4): the weights left are
    those after epoch 2, not the last epoch's, and the run says which epoch it kept."""
    train = _train_module()
    rng = np.random.default_rng(0)
    n = 8
    mask = np.ones((n, 109), np.int8)
    data = (rng.random((n, GLOBAL_SIZE)).astype(np.float32),
            rng.random((n, 34, DISCARD_SIZE)).astype(np.float32), mask,
            rng.integers(0, 109, n))
    held = tuple(x.copy() for x in data)
    losses = iter([0.9, 0.4, 0.6, 0.8])
    after: list[dict[str, np.ndarray]] = []

    def scripted(params: dict[str, np.ndarray], batch: tuple, size: int = 2048
                 ) -> tuple[float, float]:
        if batch is held:
            after.append({k: v.copy() for k, v in params.items()})
            return next(losses), 0.5
        return 1.0, 0.5

    monkeypatch.setattr(train, "evaluate", scripted)
    params = init_params(8, 4, seed=1)
    log: list[dict] = []
    kept = train.fit(params, data, held, float("inf"), rng, 0.01, 0.0, 4, log, epochs=4)
    assert kept == 2 and len(after) == 4
    assert not all(np.array_equal(after[1][k], after[3][k]) for k in params)
    assert all(np.array_equal(params[k], after[1][k]) for k in params)
    assert "kept epoch 2 of 4" in capsys.readouterr().out


def test_a_tiny_run_learns_the_teachers_choices(trained: tuple[dict, Path]) -> None:
    summary, out = trained
    assert summary["hands"] == 10
    imitation = [e for e in summary["log"] if e["phase"] == "imitation"]
    assert len(imitation) == 20
    # The loss falls: on the examples fitted and on the held-out hands' decisions.
    assert imitation[-1]["train_loss"] < 0.7 * imitation[0]["train_loss"]
    assert summary["held_loss_imitation"] < summary["held_loss_start"]
    # The epoch kept is the one with the lowest held-out loss, and the weights are its.
    lowest = min(imitation, key=lambda e: e["held_loss"])
    assert summary["best_epoch"] == lowest["epoch"]
    assert summary["held_loss_imitation"] == pytest.approx(lowest["held_loss"], rel=1e-5)
    # Agreement on held-out decisions, against picking a legal action at random.
    held = summary["held_out"]
    assert held >= 20
    assert summary["held_agreement_imitation"] > 2 * summary["held_chance"]
    assert [e["phase"] for e in summary["log"][-2:]] == ["policy-gradient"] * 2
    assert out.exists() and out.with_name("policy-imitation.npz").exists()
    assert out.stat().st_size < 1_000_000


def test_the_saved_model_plays_whole_matches(trained: tuple[dict, Path]) -> None:
    # Every action goes through the engine, which refuses illegal ones: a match that ends
    # is a match of legal moves. Same seed, same match.
    _, out = trained
    players = [f"model:{out}", "greedy", "fox", "random"]
    first, _ = play_match(load_rules("garden"), players, 11, quick=True)
    again, _ = play_match(load_rules("garden"), players, 11, quick=True)
    assert first.hands == again.hands >= 1
    assert first.deltas == again.deltas
    agent = ModelAgent(load(out))
    g = Game.new("standard", seed=5)
    while not g.ended:
        for seat in sorted(g.waiting_for()):
            legal = g.legal_actions(seat)
            act = agent.act(g.view(seat), legal)
            assert act in legal
            g.submit(seat, act)


def test_simulate_takes_a_model_player(trained: tuple[dict, Path],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    _, out = trained
    code = cli_main(["simulate", "--rules", "garden", "--quick", "--games", "1", "--json",
                     "--players", f"model:{out},greedy,greedy,greedy"])
    assert code == 0
    assert f'"model:{out}"' in capsys.readouterr().out


@pytest.mark.parametrize("setup, message", [
    ("missing", "no such file"),
    ("junk", "not a model file"),
    ("other", "made for other features"),
    ("empty", "needs the path of a saved policy"),
])
def test_a_bad_model_is_one_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        setup: str, message: str) -> None:
    path = tmp_path / "m.npz"
    if setup == "junk":
        path.write_text("not weights\n")
    elif setup == "other":
        save(path, init_params(4, 2))
        data = dict(np.load(path))
        data["global_size"] = np.int64(GLOBAL_SIZE + 1)
        np.savez(path, **data)
    name = "model:" if setup == "empty" else f"model:{path}"
    code = cli_main(["simulate", "--games", "1", "--players", f"{name},greedy,greedy,greedy"])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def _relabel(view, kmap):
    """The same view with every suited tile's suit relabelled by ``kmap`` (kind -> kind)."""
    from dataclasses import replace

    from sgmahjong.tiles import Tile

    def t(x):
        return None if x is None else Tile(int(kmap[x])) if x < 34 else x

    def ident(i):
        return int(kmap[i // 4]) * 4 + i % 4 if i < 136 else i

    seats = tuple(replace(
        s, melds=tuple(replace(m, ids=tuple(ident(i) for i in m.ids),
                               claimed=None if m.claimed is None else ident(m.claimed))
                       for m in s.melds),
        discards=tuple(t(x) for x in s.discards)) for s in view.seats)
    seen = list(view.seen)
    for k in range(34):
        seen[int(kmap[k])] = view.seen[k]
    return replace(view, concealed=tuple(t(x) for x in view.concealed),
                   last_drawn=t(view.last_drawn), window_tile=t(view.window_tile),
                   passed=frozenset(t(x) for x in view.passed), blocked=t(view.blocked),
                   seats=seats, seen=tuple(seen))


def test_suit_relabelling_matches_the_features_of_the_relabelled_view() -> None:
    # The augmentation in examples/train.py relabels suits by index; here the features of
    # views whose tiles were really relabelled must be exactly those indices' result.
    from sgmahjong.agents import make_agent
    from sgmahjong.env.actions import action_index, index_action
    from sgmahjong.env.features import SUIT_ORDERS, features, kind_map, suit_swap

    checked = compared = 0
    for seed in (3, 4):
        g = Game.new("standard", seed=seed)
        agents = [make_agent("hedgehog", seed + s) for s in range(4)]
        while not g.ended:
            for seat in sorted(g.waiting_for()):
                view, legal = g.view(seat), g.legal_actions(seat)
                if len(legal) > 1 and checked % 3 == 0:
                    order = SUIT_ORDERS[1 + checked % 5]
                    gi, di, ai = suit_swap(order)
                    new_index = np.argsort(ai)
                    kmap = kind_map(order)
                    moved = _relabel(view, kmap)
                    moved_legal = [
                        index_action(int(new_index[action_index(a, view.window_tile)]),
                                     moved.window_tile) for a in legal]
                    g0, d0 = features(view, legal)
                    g1, d1 = features(moved, moved_legal)
                    np.testing.assert_allclose(g0[gi], g1, atol=1e-6)
                    np.testing.assert_allclose(d0[di], d1, atol=1e-6)
                    compared += 1
                checked += 1
                g.submit(seat, agents[seat].act(view, legal))
    assert compared >= 20


def test_the_shipped_policy_plays_legal_hands() -> None:
    # examples/policy.npz is read by this version's features (a change to them that the
    # policy was not trained for is refused at load, and this test says to train again).
    from sgmahjong.agents import make_agent

    model = ModelAgent(load(ROOT / "examples/policy.npz"))
    for seed in (21, 22):
        g = Game.new("standard", seed=seed)
        players = [model, make_agent("owl", 1), make_agent("fox", 2), make_agent("greedy", 3)]
        while not g.ended:
            for seat in sorted(g.waiting_for()):
                legal = g.legal_actions(seat)
                act = players[seat].act(g.view(seat), legal)
                assert act in legal
                g.submit(seat, act)
        assert g.outcome() is not None
