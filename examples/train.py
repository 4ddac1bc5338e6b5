"""Train a small policy network on CPU with numpy, in two phases, then save it as .npz.

1. **Imitation**: the teacher (Owl by default) plays all four seats of hands in the
   PettingZoo environment (``sgmahjong.env``); every decision with more than one legal
   action becomes an example (the seat's features and action mask, and the teacher's
   action). The network is fitted by masked cross-entropy (Adam); a tenth of the hands is
   held out to measure agreement with the teacher, and the epoch with the lowest held-out
   loss is the one kept (not the last: a long run over-fits).
2. **Policy gradient**: the network plays one seat of the Gymnasium environment
   (``SingleSeatEnv``) against ``--opponents``, sampling its actions; REINFORCE with the
   hand's points as the return (less a running mean, scaled by a running spread), with the
   imitation loss kept in the update so that the policy does not drift from sound play on
   the little data a short run gives.

The budget ``--minutes`` is split between collecting, fitting and the policy gradient
(``--collect-share``, ``--pg-share``); ``--hands``, ``--epochs`` and ``--pg-iterations``
fix the amount of each phase instead (the budget still caps the run), which makes a run
reproducible. Progress goes to stdout; the last line is a JSON summary.

    python examples/train.py --minutes 50 --procs 2 --out policy.npz
    sgmahjong simulate --players model:policy.npz,owl,fox,hedgehog --games 20
    python bench/bench_strength.py --players model:policy.npz,owl,fox,hedgehog,greedy
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from sgmahjong.agents import make_agent
from sgmahjong.env import MahjongEnv, SingleSeatEnv, action_index
from sgmahjong.env.actions import NUM_ACTIONS
from sgmahjong.env.features import SUIT_ORDERS, features, suit_swap
from sgmahjong.env.model import ModelAgent, backward, forward, init_params, save

Batch = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]   # X, D, mask, action


def stack(rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]) -> Batch:
    if not rows:
        from sgmahjong.env.features import DISCARD_SIZE, GLOBAL_SIZE
        return (np.zeros((0, GLOBAL_SIZE), np.float32), np.zeros((0, 34, DISCARD_SIZE),
                np.float32), np.zeros((0, NUM_ACTIONS), np.int8), np.zeros(0, np.int64))
    return (np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows]),
            np.stack([r[2] for r in rows]), np.array([r[3] for r in rows], np.int64))


def concat(parts: list[Batch]) -> Batch:
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(4))  # type: ignore


# ---------------------------------------------------------------- phase 1: the teacher plays

def teacher_hands(args: tuple[str, str, int, float, int | None]) -> tuple[Batch, int]:
    """Hands played by four teachers until ``deadline`` (wall clock) or ``count`` hands:
    the examples."""
    rules, teacher, seed, deadline, count = args
    rows = []
    hands = 0
    env = MahjongEnv(rules)
    while time.time() < deadline and (count is None or hands < count):
        env.reset(seed=seed + hands)
        players = {a: make_agent(teacher, seed + 7919 * hands + i)
                   for i, a in enumerate(env.possible_agents)}
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            assert env.game is not None
            view = env.game.view(env.seat_of(agent))
            legal = env.legal_actions(agent)
            a = action_index(players[agent].act(view, legal), view.window_tile)
            if int(obs["action_mask"].sum()) > 1:
                g, d = features(view, legal, obs["observation"])
                rows.append((g, d, obs["action_mask"].copy(), a))
            env.step(a)
        hands += 1
    return stack(rows), hands


# ---------------------------------------------------------------- fitting

class Adam:
    def __init__(self, params: dict[str, np.ndarray], lr: float, decay: float = 1e-4) -> None:
        self.lr = lr
        self.decay = decay
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        for k, g in grads.items():
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            mh = self.m[k] / (1 - b1 ** self.t)
            vh = self.v[k] / (1 - b2 ** self.t)
            # Decoupled weight decay (AdamW) on the matrices: less over-fitting on few hands.
            shrink = self.lr * self.decay * params[k] if params[k].ndim > 1 else 0.0
            params[k] -= (self.lr * mh / (np.sqrt(vh) + 1e-8) + shrink).astype(np.float32)


def evaluate(params: dict[str, np.ndarray], data: Batch, size: int = 2048
             ) -> tuple[float, float]:
    """Mean cross-entropy and agreement (argmax = teacher's action) on ``data``."""
    X, D, M, y = data
    if not len(y):
        return float("nan"), float("nan")
    loss = agree = 0.0
    for i in range(0, len(y), size):
        logp, _ = forward(params, X[i:i + size], D[i:i + size], M[i:i + size])
        yy = y[i:i + size]
        loss -= float(logp[np.arange(len(yy)), yy].sum())
        agree += float((logp.argmax(1) == yy).sum())
    return loss / len(y), agree / len(y)


def fit(params: dict[str, np.ndarray], train: Batch, held: Batch, deadline: float,
        rng: np.random.Generator, lr: float, decay: float, batch: int,
        log: list[dict[str, Any]], epochs: int | None = None, augment: bool = True
        ) -> int | None:
    """Epochs of minibatch Adam until ``deadline`` (or ``epochs`` of them); logs the losses
    after each epoch. With ``augment``, each minibatch has its suits relabelled by one of
    the six orders (the identity among them), drawn at random.

    Leaves ``params`` as they were after the epoch with the lowest held-out loss, not the
    last one (a long run over-fits: the held-out loss rises again while the fitted examples'
    falls), and returns that epoch (None when nothing is held out: the last is kept)."""
    opt = Adam(params, lr, decay)
    X, D, M, y = train
    swaps = [suit_swap(o) for o in SUIT_ORDERS] if augment else []
    best: tuple[float, int, dict[str, np.ndarray]] | None = None
    epoch = 0
    while time.time() < deadline and (epochs is None or epoch < epochs):
        order = rng.permutation(len(y))
        for i in range(0, len(y), batch):
            idx = order[i:i + batch]
            Xb, Db, Mb, yb = X[idx], D[idx], M[idx], y[idx]
            if swaps:
                gi, di, ai = swaps[int(rng.integers(len(swaps)))]
                Xb, Db, Mb, yb = Xb[:, gi], Db[:, di], Mb[:, ai], np.argsort(ai)[yb]
            logp, cache = forward(params, Xb, Db, Mb)
            grads = backward(params, logp, cache, yb,
                             np.full(len(idx), 1.0 / len(idx), np.float32))
            opt.step(params, grads)
            if epochs is None and time.time() >= deadline:
                break
        epoch += 1
        tl, ta = evaluate(params, train)
        hl, ha = evaluate(params, held)
        log.append({"phase": "imitation", "epoch": epoch, "train_loss": tl,
                    "train_agreement": ta, "held_loss": hl, "held_agreement": ha})
        print(f"epoch {epoch}: loss {tl:.3f} (held out {hl:.3f}), agreement with the "
              f"teacher {ta:.1%} (held out {ha:.1%})", flush=True)
        if not np.isnan(hl) and (best is None or hl < best[0]):
            best = (hl, epoch, {k: v.copy() for k, v in params.items()})
    if best is None:
        return None
    for k, v in best[2].items():
        params[k][...] = v
    print(f"kept epoch {best[1]} of {epoch}: the lowest held-out loss ({best[0]:.3f})",
          flush=True)
    return best[1]


# ---------------------------------------------------------------- phase 2: policy gradient

def play_hands(args: tuple[str, str, dict[str, np.ndarray], int, int]
               ) -> list[tuple[Batch, float]]:
    """Hands of the sampling policy at one seat of SingleSeatEnv: (decisions, points)."""
    rules, opponents, params, seed, count = args
    out = []
    for k in range(count):
        player = (seed + k) % 4
        names = opponents.split(",")
        env = SingleSeatEnv(rules, names[0] if len(names) == 1 else names, player=player,
                            illegal="raise")
        agent = ModelAgent(params, seed + k, sample=True)
        obs, _ = env.reset(seed=seed + k)
        rows = []
        total = 0.0
        done = False
        while not done:
            aec = env.aec
            assert aec.game is not None
            view = aec.game.view(aec.seat_of(env.agent))
            legal = aec.legal_actions(env.agent)
            a = action_index(agent.act(view, legal), view.window_tile)
            if int(obs["action_mask"].sum()) > 1:
                g, d = features(view, legal, obs["observation"])
                rows.append((g, d, obs["action_mask"].copy(), a))
            obs, reward, done, _, _ = env.step(a)
            total += reward
        out.append((stack(rows), total))
    return out


def improve(params: dict[str, np.ndarray], pool: ProcessPoolExecutor, procs: int,
            rules: str, opponents: str, deadline: float, teacher: Batch,
            rng: np.random.Generator, lr: float, seed: int, log: list[dict[str, Any]],
            iterations: int | None = None) -> None:
    """Policy-gradient steps until ``deadline`` (or ``iterations`` of them), each on four
    hands per process."""
    opt = Adam(params, lr)
    mean, spread = 0.0, 10.0
    it = 0
    while time.time() < deadline and (iterations is None or it < iterations):
        jobs = [(rules, opponents, params, seed + 1000 * it * procs + 100 * j, 4)
                for j in range(procs)]
        hands = [h for res in pool.map(play_hands, jobs) for h in res]
        returns = np.array([r for _, r in hands], np.float32)
        parts, adv = [], []
        for (b, r), _ in zip(hands, returns, strict=True):
            if len(b[3]):
                parts.append(b)
                adv.append(np.full(len(b[3]), (r - mean) / spread, np.float32))
        mean = 0.9 * mean + 0.1 * float(returns.mean())
        spread = 0.9 * spread + 0.1 * float(max(1.0, returns.std()))
        if parts:
            X, D, M, a = concat(parts)
            w = np.concatenate(adv) / len(a)
            logp, cache = forward(params, X, D, M)
            grads = backward(params, logp, cache, a, w)
            # The imitation loss on a sample of the teacher's decisions keeps play sound.
            idx = rng.choice(len(teacher[3]), size=min(512, len(teacher[3])), replace=False)
            logp2, cache2 = forward(params, *(t[idx] for t in teacher[:3]))
            g2 = backward(params, logp2, cache2, teacher[3][idx],
                          np.full(len(idx), 1.0 / len(idx), np.float32))
            opt.step(params, {k: grads[k] + g2[k] for k in grads})
        it += 1
        log.append({"phase": "policy-gradient", "iteration": it, "hands": len(hands),
                    "mean_points": float(returns.mean())})
        print(f"policy gradient {it}: {len(hands)} hands, {returns.mean():+.2f} points per "
              f"hand (running mean {mean:+.2f})", flush=True)


# ---------------------------------------------------------------- the run

def imitation_path(out: str) -> str:
    """Where the policy after imitation alone is kept (``p.npz`` -> ``p-imitation.npz``)."""
    stem = out[:-4] if out.endswith(".npz") else out
    return f"{stem}-imitation.npz"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=5.0, help="wall-clock budget")
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--teacher", default="owl")
    ap.add_argument("--opponents", default="owl,fox,hedgehog",
                    help="the three opponents of the policy-gradient phase")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--collect-share", type=float, default=0.5,
                    help="share of the budget spent collecting the teacher's decisions")
    ap.add_argument("--pg-share", type=float, default=0.2,
                    help="share of the budget spent on the policy gradient (0: none)")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--pg-lr", type=float, default=1e-4)
    ap.add_argument("--decay", type=float, default=0.01, help="AdamW weight decay")
    ap.add_argument("--out", default="policy.npz")
    ap.add_argument("--no-augment", action="store_true",
                    help="fit on the examples as played, without relabelling the suits")
    ap.add_argument("--save-data", metavar="FILE",
                    help="also save the teacher's examples (.npz), to fit again with --data")
    ap.add_argument("--data", metavar="FILE", action="append", default=[],
                    help="examples saved by --save-data, added to the fitting set")
    ap.add_argument("--hands", type=int, help="teacher hands to collect (instead of a share "
                    "of the time; split between the processes)")
    ap.add_argument("--epochs", type=int, help="imitation epochs (instead of a share of the "
                    "time)")
    ap.add_argument("--pg-iterations", type=int, help="policy-gradient steps (instead of a "
                    "share of the time)")
    opts = ap.parse_args(argv)
    if opts.minutes <= 0 or opts.procs < 1:
        ap.error("--minutes must be positive and --procs at least 1")
    if any(n is not None and n < 1 for n in (opts.hands, opts.epochs, opts.pg_iterations)):
        ap.error("--hands, --epochs and --pg-iterations must be at least 1")
    if not (0 < opts.collect_share < 1 and 0 <= opts.pg_share < 1
            and opts.collect_share + opts.pg_share < 1):
        ap.error("--collect-share and --pg-share must leave time to fit")
    for name in (opts.teacher, *opts.opponents.split(",")):
        make_agent(name)
    if len(opts.opponents.split(",")) not in (1, 3):
        ap.error("--opponents: one name or three")
    start = time.time()
    budget = 60.0 * opts.minutes
    rng = np.random.default_rng(opts.seed)
    log: list[dict[str, Any]] = []
    with ProcessPoolExecutor(opts.procs) as pool:
        deadline = start + opts.collect_share * budget
        per = None if opts.hands is None else -(-opts.hands // opts.procs)
        jobs = [(opts.rules, opts.teacher, opts.seed * 1_000_003 + 100_000 * j,
                 start + budget if per else deadline, per) for j in range(opts.procs)]
        results = list(pool.map(teacher_hands, jobs))
        # Hold out the last tenth of each worker's examples: its last hands.
        hands = sum(r[1] for r in results)
        cuts = [len(r[0][3]) - max(1, len(r[0][3]) // 10) for r in results]
        train = concat([tuple(x[:c] for x in r[0])  # type: ignore[misc]
                        for r, c in zip(results, cuts, strict=True)])
        held = concat([tuple(x[c:] for x in r[0])  # type: ignore[misc]
                       for r, c in zip(results, cuts, strict=True)])
        if opts.save_data:
            np.savez_compressed(opts.save_data, X=train[0], D=train[1], M=train[2], y=train[3],
                                hX=held[0], hD=held[1], hM=held[2], hy=held[3])
        for path in opts.data:
            with np.load(path) as f:
                train = concat([train, (f["X"], f["D"], f["M"], f["y"])])
        print(f"{hands} hands by {opts.teacher}: {len(train[3])} decisions to learn from, "
              f"{len(held[3])} held out", flush=True)
        params = init_params(opts.hidden, seed=opts.seed)
        before = evaluate(params, held)
        fit_end = start + (1 - opts.pg_share) * budget
        best_epoch = fit(params, train, held, start + budget if opts.epochs else fit_end, rng,
                         opts.lr, opts.decay, 256, log, opts.epochs, not opts.no_augment)
        after = evaluate(params, held)
        if opts.pg_share > 0:
            # The imitation policy too, to compare with what the policy gradient makes.
            save(imitation_path(opts.out), params, teacher=opts.teacher, rules=opts.rules)
            improve(params, pool, opts.procs, opts.rules, opts.opponents, start + budget,
                    train, rng, opts.pg_lr, opts.seed, log, opts.pg_iterations)
    final = evaluate(params, held)
    save(opts.out, params, teacher=opts.teacher, rules=opts.rules)
    summary = {"hands": hands, "examples": len(train[3]), "held_out": len(held[3]),
               "held_chance": float((1.0 / held[2].sum(1)).mean()) if len(held[3]) else 0.0,
               "held_loss_start": before[0], "held_loss_imitation": after[0],
               "held_agreement_imitation": after[1], "best_epoch": best_epoch,
               "held_loss_final": final[0],
               "held_agreement_final": final[1], "minutes": (time.time() - start) / 60,
               "out": opts.out, "log": log}
    print(f"saved {opts.out}: held-out agreement with {opts.teacher} {final[1]:.1%}, loss "
          f"{before[0]:.3f} -> {final[0]:.3f}", flush=True)
    print(json.dumps({k: v for k, v in summary.items() if k != "log"}), flush=True)
    return summary


if __name__ == "__main__":
    main()
