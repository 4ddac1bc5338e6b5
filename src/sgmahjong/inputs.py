"""The guarded way in for every kind of outside input: size caps, strict UTF-8, bounded
parsing, and a one-line :class:`InputError` naming the input when any of them fails."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from .errors import SgmahjongError


class InputError(SgmahjongError):
    """Outside input that cannot be taken in: too large, not UTF-8, not parseable."""


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean X?)`` for the closest choice to a misspelt ``word``, else ``""``.

    >>> did_you_mean("standrad", ["standard", "limit"])
    ' (did you mean standard?)'
    >>> did_you_mean("zzz", ["standard", "limit"])
    ''
    """
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


__all__ = ["InputError", "did_you_mean"]
