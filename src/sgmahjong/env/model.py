"""A learned policy: a small network over :mod:`.features`, saved as a numpy ``.npz`` file,
and a player that plays it (``--players model:PATH``). Playing needs the ``env`` extra
(numpy does the arithmetic) and no training library.

The network scores all 109 actions of :mod:`.actions` from the global features (one hidden
layer), and adds to each discard's score a second small network applied, with the same
weights, to every kind's discard features (so what it learns about one tile holds for all).
Actions the engine does not allow get no probability: the policy plays the legal action
with the highest score (or samples, when told to).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..errors import SgmahjongError
from ..game.actions import Action
from ..game.view import PlayerView
from .actions import NUM_ACTIONS, action_index, index_action
from .features import DISCARD_SIZE, GLOBAL_SIZE, features

FORMAT = 1
PARAMS = ("W1", "b1", "Wo", "bo", "U1", "V", "c1", "u2")
NEG = np.float32(-1e9)


class ModelError(SgmahjongError):
    """A model file that cannot be read or was made for other features."""


def init_params(hidden: int = 128, discard_hidden: int = 32, seed: int = 0
                ) -> dict[str, np.ndarray]:
    """Fresh random weights (He initialisation)."""
    rng = np.random.default_rng(seed)

    def w(n: int, m: int) -> np.ndarray:
        return (rng.standard_normal((n, m)) * np.sqrt(2.0 / n)).astype(np.float32)

    return {"W1": w(GLOBAL_SIZE, hidden), "b1": np.zeros(hidden, np.float32),
            "Wo": w(hidden, NUM_ACTIONS) * 0.1, "bo": np.zeros(NUM_ACTIONS, np.float32),
            "U1": w(DISCARD_SIZE, discard_hidden), "V": w(hidden, discard_hidden) * 0.1,
            "c1": np.zeros(discard_hidden, np.float32),
            "u2": w(discard_hidden, 1)[:, 0] * 0.1}


def forward(p: dict[str, np.ndarray], X: np.ndarray, D: np.ndarray, mask: np.ndarray
            ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Masked log-probabilities ``(N, 109)`` of a batch, and what the backward pass needs.

    ``X``: ``(N, GLOBAL_SIZE)``, ``D``: ``(N, 34, DISCARD_SIZE)``, ``mask``: ``(N, 109)``."""
    a1 = X @ p["W1"] + p["b1"]
    h = np.maximum(a1, 0)
    logits = h @ p["Wo"] + p["bo"]
    zp = D @ p["U1"] + (h @ p["V"])[:, None, :] + p["c1"]
    z = np.maximum(zp, 0)
    logits[:, :34] += z @ p["u2"]
    logits = np.where(mask > 0, logits, NEG)
    logits -= logits.max(axis=1, keepdims=True)
    logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    return logp, {"X": X, "D": D, "a1": a1, "h": h, "zp": zp, "z": z}


def backward(p: dict[str, np.ndarray], logp: np.ndarray, cache: dict[str, np.ndarray],
             actions: np.ndarray, weights: np.ndarray) -> dict[str, np.ndarray]:
    """Gradient of ``-sum(weights * log pi(actions))`` over the batch (cross-entropy with
    weights 1/N; the policy-gradient loss with advantages as weights)."""
    n = len(actions)
    dl = np.exp(logp)
    dl[np.arange(n), actions] -= 1.0
    dl *= weights[:, None]
    h, z, zp = cache["h"], cache["z"], cache["zp"]
    g: dict[str, np.ndarray] = {"Wo": h.T @ dl, "bo": dl.sum(0)}
    ds = dl[:, :34]
    g["u2"] = np.einsum("nik,ni->k", z, ds)
    dzp = ds[:, :, None] * p["u2"] * (zp > 0)
    g["U1"] = np.einsum("nif,nik->fk", cache["D"], dzp)
    g["c1"] = dzp.sum((0, 1))
    dhv = dzp.sum(1)
    g["V"] = h.T @ dhv
    dh = dl @ p["Wo"].T + dhv @ p["V"].T
    da1 = dh * (cache["a1"] > 0)
    g["W1"] = cache["X"].T @ da1
    g["b1"] = da1.sum(0)
    return g


def save(path: str | Path, params: dict[str, np.ndarray], **meta: float | str) -> None:
    """Write the weights with the feature sizes they were trained for. The weights are
    stored as float16 (half the file; each weight within about 0.1% of its value) and read
    back as float32."""
    np.savez_compressed(path, format=np.int64(FORMAT), global_size=np.int64(GLOBAL_SIZE),
                        discard_size=np.int64(DISCARD_SIZE),
                        **{k: np.asarray(v, np.float16) for k, v in params.items()},
                        **{f"meta_{k}": np.asarray(v) for k, v in meta.items()})


def load(path: str | Path) -> dict[str, np.ndarray]:
    """Read a model written by :func:`save`; :class:`ModelError` says what is wrong."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except FileNotFoundError:
        raise ModelError(f"model {str(path)!r}: no such file") from None
    except (OSError, ValueError, EOFError):
        raise ModelError(f"model {str(path)!r}: not a model file (expected the .npz "
                         "archive examples/train.py writes)") from None
    missing = [k for k in ("format", *PARAMS) if k not in arrays]
    if missing:
        raise ModelError(f"model {str(path)!r}: not a model file (no {', '.join(missing)})")
    if int(arrays["format"]) != FORMAT or int(arrays["global_size"]) != GLOBAL_SIZE or \
            int(arrays["discard_size"]) != DISCARD_SIZE:
        raise ModelError(f"model {str(path)!r} was made for other features (format "
                         f"{int(arrays['format'])}); train it again with this version")
    return {k: arrays[k].astype(np.float32) for k in PARAMS}


class ModelAgent:
    """A player that plays a saved policy: the legal action it scores highest, or (with
    ``sample=True``) one drawn from its probabilities with the seeded generator."""

    name = "model"

    def __init__(self, params: dict[str, np.ndarray], seed: int = 0, *,
                 sample: bool = False) -> None:
        self.params = params
        self.sample = sample
        self.rng = np.random.default_rng(seed)

    @classmethod
    def from_file(cls, path: str | Path, seed: int = 0) -> ModelAgent:
        return cls(load(path), seed)

    def log_probs(self, view: PlayerView, legal: Sequence[Action]) -> np.ndarray:
        """Log-probabilities of the 109 actions (−1e9 and below for illegal ones)."""
        g, d = features(view, legal)
        mask = np.zeros((1, NUM_ACTIONS), np.int8)
        for a in legal:
            mask[0, action_index(a, view.window_tile)] = 1
        logp, _ = forward(self.params, g[None], d[None], mask)
        return logp[0]

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        logp = self.log_probs(view, legal)
        if self.sample:
            p = np.exp(logp)
            i = int(self.rng.choice(NUM_ACTIONS, p=p / p.sum()))
        else:
            i = int(np.argmax(logp))
        return index_action(i, view.window_tile)

    __call__ = act


def model_player(path: str, seed: int = 0) -> ModelAgent:
    """The player for ``model:PATH`` (what ``sgmahjong simulate`` and the benches call)."""
    return ModelAgent.from_file(path, seed)


__all__ = ["FORMAT", "ModelAgent", "ModelError", "backward", "forward", "init_params", "load",
           "model_player", "save"]
