"""The five garden animals, by name: ``LEVELS[name](seed) -> Agent``, weakest first."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .fox import Fox
from .hedgehog import Hedgehog
from .owl import Owl
from .rabbit import Rabbit
from .snail import Snail

if TYPE_CHECKING:
    from . import Agent

__all__ = ["LEVELS", "Fox", "Hedgehog", "Owl", "Rabbit", "Snail", "make_level"]

LEVELS: dict[str, Callable[[int], Agent]] = {
    "snail": Snail,
    "rabbit": Rabbit,
    "hedgehog": Hedgehog,
    "fox": Fox,
    "owl": Owl,
}


def make_level(name: str, seed: int = 0) -> Agent:
    """One of the five levels, seeded (its choices depend only on the seed and its views)."""
    try:
        return LEVELS[name](seed)
    except KeyError:
        raise ValueError(f"unknown level {name!r}; levels are {', '.join(LEVELS)}") from None
