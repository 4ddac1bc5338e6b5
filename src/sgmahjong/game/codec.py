"""The JSON form shared by actions and events: tagged objects, tiles as notation, seats as ints."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, fields
from typing import Any, ClassVar, TypeVar

from ..errors import SgmahjongError
from ..tiles import Seat, Tile, format_tiles, parse_tiles


class MessageError(SgmahjongError):
    """A JSON action or event that cannot be read: unknown type, missing or bad field."""


def _seat_in(v: Any) -> Seat:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 3:
        raise MessageError(f"a seat is an integer 0-3 (0 East), got {v!r}")
    return Seat(v)


def _tile_in(v: Any) -> Tile:
    if not isinstance(v, str):
        raise MessageError(f"a tile is notation text like \"5p\", got {v!r}")
    return Tile.parse(v)


def _tiles_in(v: Any) -> tuple[Tile, ...]:
    if not isinstance(v, str):
        raise MessageError(f"tiles are notation text like \"123m5p\", got {v!r}")
    return tuple(parse_tiles(v))


def _typed(kind: type) -> Callable[[Any], Any]:
    def check(v: Any) -> Any:
        if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
            raise MessageError(f"expected {kind.__name__}, got {v!r}")
        return v
    return check


def _tuple_of(kind: type) -> Callable[[Any], Any]:
    one = _typed(kind)

    def check(v: Any) -> tuple[Any, ...]:
        if not isinstance(v, list):
            raise MessageError(f"expected a list, got {v!r}")
        return tuple(one(x) for x in v)
    return check


# annotation text -> (to JSON, from JSON)
CODECS: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    "Seat": (int, _seat_in),
    "Seat | None": (lambda v: None if v is None else int(v),
                    lambda v: None if v is None else _seat_in(v)),
    "Tile": (lambda v: v.text, _tile_in),
    "tuple[Tile, ...]": (lambda v: format_tiles(v, sort=False), _tiles_in),
    "int": (lambda v: v, _typed(int)),
    "bool": (lambda v: v, _typed(bool)),
    "str": (lambda v: v, _typed(str)),
    "int | None": (lambda v: v, lambda v: None if v is None else _typed(int)(v)),
    "str | None": (lambda v: v, lambda v: None if v is None else _typed(str)(v)),
    "tuple[int, ...]": (list, _tuple_of(int)),
    "tuple[str, ...]": (list, _tuple_of(str)),
}

JSON = dict[str, object]
"""A JSON object carried whole inside a message (a view, an event as a seat may see it):
its shape is declared by the code that builds it, the codec only checks it is an object."""


def _object_in(v: object) -> JSON:
    if not isinstance(v, dict):
        raise MessageError(f"expected a JSON object, got {v!r}")
    return v


def _objects_in(v: object) -> tuple[JSON, ...]:
    if not isinstance(v, list):
        raise MessageError(f"expected a list of JSON objects, got {v!r}")
    return tuple(_object_in(x) for x in v)


CODECS["JSON"] = (lambda v: v, _object_in)
CODECS["JSON | None"] = (lambda v: v, lambda v: None if v is None else _object_in(v))
CODECS["tuple[JSON, ...]"] = (list, _objects_in)

M = TypeVar("M", bound="Message")


class Message:
    """Base of actions and events: ``to_json()`` gives ``{"type": ..., field: value}``."""

    __slots__ = ()
    TYPE: ClassVar[str] = ""
    REGISTRY: ClassVar[dict[str, type[Message]]]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        for f in fields(self):  # type: ignore[arg-type]
            out[f.name] = CODECS[str(f.type)][0](getattr(self, f.name))
        return out

    @classmethod
    def from_json(cls: type[M], data: Mapping[str, Any]) -> M:
        """Read a message of this family (or exactly this class) from its JSON form."""
        if not isinstance(data, Mapping):
            raise MessageError(f"a message is a JSON object, got {data!r}")
        tag = data.get("type")
        target = cls.REGISTRY.get(tag) if isinstance(tag, str) else None
        if target is None or not issubclass(target, cls):
            known = ", ".join(sorted(k for k, c in cls.REGISTRY.items() if issubclass(c, cls)))
            raise MessageError(f"unknown type {tag!r}; expected one of {known}")
        kwargs = {}
        names = set()
        for f in fields(target):  # type: ignore[arg-type]
            names.add(f.name)
            if f.name not in data:
                if f.default is not MISSING:    # an optional field (one with a default)
                    continue
                raise MessageError(f"{tag}: missing field {f.name!r}")
            try:
                kwargs[f.name] = CODECS[str(f.type)][1](data[f.name])
            except SgmahjongError as exc:
                raise MessageError(f"{tag}: field {f.name!r}: {exc}") from None
        extra = set(data) - names - {"type"}
        if extra:
            raise MessageError(f"{tag}: unknown field {sorted(extra)[0]!r}")
        out = target(**kwargs)
        out.check()
        return out  # type: ignore[return-value]

    def check(self) -> None:
        """Refuse (with :class:`MessageError`) values the field types let through."""


def register(registry: dict[str, type[Message]], tag: str) -> Callable[[type[M]], type[M]]:
    def add(cls: type[M]) -> type[M]:
        cls.TYPE = tag
        registry[tag] = cls
        return cls
    return add
