"""Reinforcement-learning interfaces: a PettingZoo AEC environment for four players and a
Gymnasium environment for one seat against chosen opponents (``pip install "sgmahjong[env]"``).

See docs/env.md for the observation fields and the action indices.
"""

from __future__ import annotations

try:
    import gymnasium
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as e:  # pragma: no cover (the extra is installed wherever tests run)
    raise ImportError(f"sgmahjong.env needs the optional 'env' dependencies ({e.name} is "
                      "missing): pip install \"sgmahjong[env]\"") from None

from .actions import NUM_ACTIONS, ActionError, action_index, describe, index_action, legal_mask
from .aec import EnvError, MahjongEnv, env, oracle_observation_space, raw_env
from .observation import FIELDS, ORACLE_FIELDS, ORACLE_SIZE, SIZE, encode, encode_oracle, unpack
from .single import SingleSeatEnv

# gymnasium.make("sgmahjong/SingleSeat-v0", rules="standard", opponents="owl", player=0)
SINGLE_SEAT_ID = "sgmahjong/SingleSeat-v0"
if SINGLE_SEAT_ID not in gymnasium.registry:
    gymnasium.register(SINGLE_SEAT_ID, entry_point="sgmahjong.env.single:SingleSeatEnv")

__all__ = ["FIELDS", "NUM_ACTIONS", "ORACLE_FIELDS", "ORACLE_SIZE", "SINGLE_SEAT_ID", "SIZE",
           "ActionError", "EnvError", "MahjongEnv", "SingleSeatEnv", "action_index", "describe",
           "encode", "encode_oracle", "env", "index_action", "legal_mask",
           "oracle_observation_space", "raw_env", "unpack"]
