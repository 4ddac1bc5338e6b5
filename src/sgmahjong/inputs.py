"""The guarded way in for every kind of outside input: a size cap checked before parsing,
bytes decoded strictly as UTF-8, parsing that cannot overflow the stack or build giant
numbers, and a one-line :class:`InputError` naming the input when any of it fails.

Every reader takes ``what``, the input as the user knows it ("stdin", "record file
'a.jsonl'", "line 3 of stdin"), and every error message starts with it.

>>> parse_json('{"a": [1, 2]}', "stdin")
{'a': [1, 2]}
>>> parse_json("[" * 50 + "]" * 50, "stdin")
Traceback (most recent call last):
    ...
sgmahjong.inputs.InputError: stdin is nested more than 32 deep
"""

from __future__ import annotations

import difflib
import json
import os
import re
import stat
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from .errors import SgmahjongError

KIB = 1024
MIB = 1024 * KIB

# Caps by input kind: each many times what a real input needs, small enough that the
# parsers answer at once (a score request is under 1 KiB, a record line under 4 KiB, a
# whole match record under 1 MiB, a rule file under 8 KiB).
MAX_REQUEST_BYTES = 64 * KIB
MAX_BATCH_LINE_BYTES = 4 * KIB
MAX_RECORD_BYTES = 64 * MIB
MAX_RECORD_LINE_BYTES = 256 * KIB
MAX_RULES_BYTES = 256 * KIB
MAX_LEDGER_BYTES = 16 * MIB

MAX_DEPTH = 32          # objects and lists inside one another
MAX_INT_DIGITS = 40     # a 64-bit seed has 20 digits

# A JSON escape of a UTF-16 surrogate: "\ud83d\ude00" is one character once parsed, but a
# lone "\ud800" is valid JSON that no UTF-8 encoder can write back (nor print, log, store).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class InputError(SgmahjongError):
    """Outside input that cannot be taken in: too large, not UTF-8, not parseable."""


def _size(n: int) -> str:
    if n >= MIB and n % MIB == 0:
        return f"{n // MIB} MiB"
    if n >= KIB and n % KIB == 0:
        return f"{n // KIB} KiB"
    return f"{n} bytes"


def check_size(data: bytes | str, limit: int, what: str) -> None:
    """Refuse ``data`` longer than ``limit`` bytes (text is measured in UTF-8)."""
    n = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if n > limit:
        raise InputError(f"{what} is larger than {_size(limit)}")


def decode(data: bytes, what: str) -> str:
    """``data`` as UTF-8 text, or an error naming the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{what} is not UTF-8 text: byte 0x{data[exc.start]:02x} at "
                         f"offset {exc.start}") from None


def read_stream(stream: Any, limit: int, what: str) -> str:
    """All of a stream (text streams are read through their bytes), at most ``limit``
    bytes, decoded strictly as UTF-8."""
    raw: BinaryIO | None = getattr(stream, "buffer", None)
    if raw is None:
        data = stream.read(limit + 1)
        if isinstance(data, str):
            check_size(data, limit, what)
            return data
    else:
        data = raw.read(limit + 1)
    check_size(data, limit, what)
    return decode(data, what)


def read_file(path: str | Path, limit: int, what: str) -> str:
    """A regular file, at most ``limit`` bytes, decoded strictly as UTF-8.

    Devices (/dev/zero), FIFOs and folders are refused before anything is read, and the
    file is opened without blocking, so a FIFO with no writer cannot hang the reader."""
    p = Path(path)
    try:
        info = os.stat(p)
    except FileNotFoundError:
        raise InputError(f"{what} does not exist") from None
    except OSError as exc:
        raise InputError(f"cannot read {what}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{what} is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{what} is not a regular file")
    if info.st_size > limit:
        raise InputError(f"{what} is larger than {_size(limit)}")
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise InputError(f"cannot read {what}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as f:
        # The file may have changed between stat and open: check what was opened.
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise InputError(f"{what} is not a regular file")
        data = f.read(limit + 1)
    check_size(data, limit, what)
    return decode(data, what)


def iter_lines(stream: Any, limit: int, what: str
               ) -> Iterator[tuple[int, str | InputError]]:
    """``(line number, text)`` for each line of a stream (text streams are read through
    their bytes), or ``(line number, InputError)`` for a line over ``limit`` bytes or not
    UTF-8; an overlong line is skipped without being held in memory."""
    raw = getattr(stream, "buffer", stream)

    def read(size: int) -> bytes:
        chunk = raw.readline(size)
        return chunk.encode("utf-8", "surrogatepass") if isinstance(chunk, str) else chunk

    number = 0
    while True:
        line = read(limit + 1)
        if not line:
            return
        number += 1
        where = f"line {number} of {what}"
        body = line[:-1] if line.endswith(b"\n") else line
        if len(body) > limit:
            while line and not line.endswith(b"\n"):
                line = read(64 * KIB)
            yield number, InputError(f"{where} is longer than {_size(limit)}")
            continue
        try:
            yield number, decode(body, where).rstrip("\r")
        except InputError as exc:
            yield number, exc


def split_lines(text: str, limit: int, what: str) -> list[str]:
    """The lines of ``text``, refusing any longer than ``limit`` bytes (naming its number)."""
    lines = text.splitlines()
    for n, line in enumerate(lines, start=1):
        # Only a line of more than limit / 4 characters can be over the limit in UTF-8.
        if len(line) * 4 > limit and len(line.encode("utf-8", "surrogatepass")) > limit:
            raise InputError(f"line {n} of {what} is longer than {_size(limit)}")
    return lines


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"a number has more than {MAX_INT_DIGITS} digits")
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):   # 1e400: no JSON encoder writes it back
        raise ValueError(f"the number {text[:20]} is too large")
    return value


def parse_json(text: str, what: str, limit: int | None = None) -> Any:
    """Strict JSON (no NaN or Infinity, written or by overflow as in ``1e400``), nested at
    most :data:`MAX_DEPTH` deep, integers of at most :data:`MAX_INT_DIGITS` digits;
    ``limit`` caps the size first.

    >>> parse_json("[1e400]", "stdin")
    Traceback (most recent call last):
        ...
    sgmahjong.inputs.InputError: stdin is not valid JSON: the number 1e400 is too large
    """
    if limit is not None:
        check_size(text, limit, what)
    try:
        data = json.loads(text, parse_int=_bounded_int, parse_float=_finite_float,
                          parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"{what} is not valid JSON: {exc.msg} at line {exc.lineno} "
                         f"column {exc.colno}") from None
    except RecursionError:
        raise InputError(f"{what} is nested more than {MAX_DEPTH} deep") from None
    except ValueError as exc:
        raise InputError(f"{what} is not valid JSON: {_first_line(exc)}") from None
    check_depth(data, what)
    if _SURROGATE_ESCAPE.search(text):
        check_text(data, what)
    return data


def check_text(data: Any, what: str) -> None:
    r"""Refuse a string (a key or a value, at any depth) holding a lone UTF-16 surrogate.

    >>> parse_json('{"name": "\\ud800"}', "the body")
    Traceback (most recent call last):
        ...
    sgmahjong.inputs.InputError: the body holds a lone surrogate (\ud800): not a character
    """
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            strings: Iterable[Any] = (item,)
        elif isinstance(item, dict):
            strings = item.keys()
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
            continue
        else:
            continue
        for s in strings:
            try:
                s.encode("utf-8")
            except UnicodeEncodeError as exc:
                code = ord(s[exc.start])
                raise InputError(f"{what} holds a lone surrogate (\\u{code:04x}): not a "
                                 "character") from None


def parse_toml(text: str, what: str, limit: int | None = None) -> dict[str, Any]:
    """TOML, nested at most :data:`MAX_DEPTH` deep; ``limit`` caps the size first."""
    if limit is not None:
        check_size(text, limit, what)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{what} is not valid TOML: {_first_line(exc)}") from None
    except RecursionError:
        raise InputError(f"{what} is nested more than {MAX_DEPTH} deep") from None
    except ValueError as exc:   # an integer of more than 4,300 digits
        raise InputError(f"{what} is not valid TOML: {_first_line(exc)}") from None
    check_depth(data, what)
    return data


def check_depth(data: Any, what: str, limit: int = MAX_DEPTH) -> None:
    """Refuse lists and objects nested more than ``limit`` deep (walked without recursion,
    so that later code may recurse over what passes)."""
    level: list[Any] = [data] if isinstance(data, dict | list) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            raise InputError(f"{what} is nested more than {limit} deep")
        nxt: list[Any] = []
        for item in level:
            values = item.values() if isinstance(item, dict) else item
            nxt.extend(v for v in values if isinstance(v, dict | list))
        level = nxt


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    line = text[0] if text else type(exc).__name__
    return line if len(line) <= 200 else line[:197] + "..."


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean X?)`` for the closest choice to a misspelt ``word``, else ``""``.

    >>> did_you_mean("standrad", ["standard", "limit"])
    ' (did you mean standard?)'
    >>> did_you_mean("zzz", ["standard", "limit"])
    ''
    >>> did_you_mean("LIMIT", ["standard", "limit"])   # the case is no spelling mistake
    ' (did you mean limit?)'
    """
    by_lower = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(word[:100].lower(), list(by_lower), n=1, cutoff=0.6)
    return f" (did you mean {by_lower[close[0]]}?)" if close else ""


__all__ = ["MAX_BATCH_LINE_BYTES", "MAX_DEPTH", "MAX_INT_DIGITS", "MAX_LEDGER_BYTES",
           "MAX_RECORD_BYTES", "MAX_RECORD_LINE_BYTES", "MAX_REQUEST_BYTES",
           "MAX_RULES_BYTES", "InputError", "check_depth", "check_size", "check_text", "decode",
           "did_you_mean", "iter_lines", "parse_json", "parse_toml", "read_file",
           "read_stream", "split_lines"]
