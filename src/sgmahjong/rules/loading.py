"""Loading rule sets: the shipped TOML presets by name, or a user's file that overrides one.

A rule file is TOML with the same tables as :class:`Ruleset` (``[scoring]``,
``[payments]``, ``[instant]``, ``[bao]``, ``[claims]``, ``[wall]``, ``[match]``) and an
optional ``extends = "<preset>"`` (default ``standard``); every field it gives replaces
the preset's value. Patterns are given as ``id = 2`` (tai), ``id = "limit"`` (a limit
hand), ``id = false`` (not scored) or ``id = { tai = 3, replaces = ["dragon-pong"] }``.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from ..errors import RulesError
from ..inputs import (
    MAX_RULES_BYTES,
    InputError,
    check_depth,
    did_you_mean,
    parse_toml,
    read_file,
)
from .catalog import PATTERNS
from .model import PatternRule, Ruleset

PRESETS: tuple[str, ...] = ("standard", "limit", "casual", "garden", "automatic", "menqing")
DEFAULT_PRESET = "standard"


def load_rules(source: str | Path | Ruleset | None = None) -> Ruleset:
    """A rule set from a preset name, a path to a TOML rule file, or a Ruleset (returned as is).

    >>> load_rules("limit").payments.base_offset
    -1
    """
    if source is None:
        return load_preset(DEFAULT_PRESET)
    if isinstance(source, Ruleset):
        return source
    text = str(source)
    if isinstance(source, str) and text in PRESETS:
        return load_preset(text)
    path = Path(text)
    if path.suffix.lower() == ".toml" or path.exists():
        return load_rules_file(path)
    raise RulesError(f"unknown rules {text!r}{did_you_mean(text, PRESETS)}: expected a preset "
                     f"({', '.join(PRESETS)}) or the path of a .toml rule file")


@cache
def load_preset(name: str) -> Ruleset:
    """One of the shipped presets, by name."""
    if name not in PRESETS:
        raise RulesError(f"unknown preset {name!r}{did_you_mean(name, PRESETS)}: expected "
                         f"one of {', '.join(PRESETS)}")
    text = resources.files(__package__).joinpath("presets", f"{name}.toml").read_text("utf-8")
    data = _parse_toml(text, f"preset {name}")
    return _build(data, f"preset {name}", parents=(name,))


def load_rules_file(path: str | Path) -> Ruleset:
    """A user's rule file: a preset (``extends``, default standard) overridden field by field."""
    p = Path(path)
    try:
        text = read_file(p, MAX_RULES_BYTES, f"rule file {str(p)!r}")
    except InputError as exc:
        raise RulesError(str(exc)) from None
    data = _parse_toml(text, f"rule file {p.name}")
    data.setdefault("extends", DEFAULT_PRESET)
    data.setdefault("name", p.stem)
    return _build(data, f"rule file {p.name}", parents=())


def rules_from_dict(data: Mapping[str, Any], where: str = "rules") -> Ruleset:
    """A rule set from a plain mapping in the form of :meth:`Ruleset.to_dict` or a rule file."""
    if not isinstance(data, Mapping):
        raise RulesError(f"{where} must be a table of fields, got {_shown(data)}")
    try:
        check_depth(dict(data), where)
    except InputError as exc:
        raise RulesError(str(exc)) from None
    return _build(dict(data), where, parents=())


def _parse_toml(text: str, where: str) -> dict[str, Any]:
    try:
        return parse_toml(text, where, MAX_RULES_BYTES)
    except InputError as exc:
        raise RulesError(str(exc)) from None


def _shown(value: Any) -> str:
    """A value as an error shows it: short, on one line."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**30 else "a huge number"
    return text if len(text) <= 60 else text[:57] + "..."


def _build(data: dict[str, Any], where: str, parents: tuple[str, ...]) -> Ruleset:
    data = dict(data)
    parent = data.pop("extends", None)
    if parent is None:
        base = Ruleset().to_dict()
    else:
        if not isinstance(parent, str) or parent not in PRESETS:
            hint = did_you_mean(parent, PRESETS) if isinstance(parent, str) else ""
            raise RulesError(f"{where}: field 'extends' must name a preset "
                             f"({', '.join(PRESETS)}), got {_shown(parent)}{hint}")
        if parent in parents:
            raise RulesError(f"{where}: presets extend each other in a loop: "
                             f"{' -> '.join((*parents, parent))}")
        base = load_preset(parent).to_dict()
    limit_tai = _lookup(data, ("scoring", "limit_tai"), base["scoring"]["limit_tai"])
    merged = _merge(base, data, where, (), limit_tai)
    return _convert(Ruleset, merged, where, ())


def _lookup(data: Mapping[str, Any], path: tuple[str, ...], default: Any) -> Any:
    cur: Any = data
    for key in path:
        if not isinstance(cur, Mapping) or key not in cur:
            return default
        cur = cur[key]
    return cur


def _merge(base: dict[str, Any], over: Mapping[str, Any], where: str,
           path: tuple[str, ...], limit_tai: Any) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        here = (*path, key)
        if path == ("scoring", "patterns"):
            if key not in PATTERNS:
                hint = did_you_mean(key, PATTERNS)
                raise RulesError(f"{where}: unknown pattern {key!r} in [scoring.patterns]"
                                 + (hint or f"; known patterns: {', '.join(PATTERNS)}"))
            if value is False:
                out.pop(key, None)
            else:
                out[key] = _pattern_dict(value, where, key, limit_tai)
            continue
        if key not in base:
            raise RulesError(f"{where}: unknown field {_dotted(here)!r}"
                             f"{did_you_mean(key, base)}")
        if isinstance(base[key], dict) and isinstance(value, Mapping):
            out[key] = _merge(base[key], value, where, here, limit_tai)
        else:
            out[key] = value
    return out


def _pattern_dict(value: Any, where: str, key: str, limit_tai: Any) -> dict[str, Any]:
    name = f"scoring.patterns.{key}"
    if value == "limit":
        return {"tai": limit_tai, "limit": True, "replaces": []}
    if isinstance(value, int) and not isinstance(value, bool):
        return {"tai": value, "limit": False, "replaces": []}
    if isinstance(value, Mapping):
        unknown = set(value) - {"tai", "limit", "replaces"}
        if unknown:
            raise RulesError(f"{where}: unknown field {name}.{sorted(unknown)[0]!r}; "
                             "a pattern has tai, limit and replaces")
        out = {"tai": value.get("tai", limit_tai if value.get("limit") else None),
               "limit": value.get("limit", False), "replaces": value.get("replaces", [])}
        if out["tai"] is None:
            raise RulesError(f"{where}: field {name!r} needs a tai value")
        return out
    raise RulesError(f"{where}: field {name!r} must be a number of tai, \"limit\", false or a "
                     f"table, got {_shown(value)}")


def _dotted(path: tuple[str, ...]) -> str:
    return ".".join(path)


def _convert(tp: Any, value: Any, where: str, path: tuple[str, ...]) -> Any:
    name = _dotted(path)
    if is_dataclass(tp) and isinstance(tp, type):
        if not isinstance(value, Mapping):
            raise RulesError(f"{where}: field {name!r} must be a table, got {_shown(value)}")
        hints = typing.get_type_hints(tp)
        known = {f.name for f in fields(tp)}
        for key in value:
            if key not in known:
                raise RulesError(f"{where}: unknown field {_dotted((*path, key))!r}")
        kwargs = {k: _convert(hints[k], v, where, (*path, k)) for k, v in value.items()}
        for f in fields(tp):
            bounds = f.metadata.get("bounds")
            if bounds is not None and f.name in kwargs:
                low, high = bounds
                if not low <= kwargs[f.name] <= high:
                    raise RulesError(f"{where}: field {_dotted((*path, f.name))!r} must be "
                                     f"from {low} to {high}, got {_shown(kwargs[f.name])}")
        obj = tp(**kwargs)
        if tp is PatternRule:
            for rid in obj.replaces:
                if rid not in PATTERNS:
                    raise RulesError(f"{where}: field {name}.replaces names unknown pattern "
                                     f"{rid!r}")
        if tp is Ruleset:
            _check_consistency(obj, where)
        return obj
    origin = get_origin(tp)
    if origin is Literal:
        allowed = get_args(tp)
        if value not in allowed:
            raise RulesError(f"{where}: field {name!r} must be one of "
                             f"{', '.join(map(repr, allowed))}, got {_shown(value)}")
        return value
    if origin is tuple:
        item_tp = get_args(tp)[0]
        if not isinstance(value, list | tuple):
            raise RulesError(f"{where}: field {name!r} must be a list, got {_shown(value)}")
        return tuple(_convert(item_tp, v, where, path) for v in value)
    if origin in (Mapping, dict) or tp is Mapping:
        if not isinstance(value, Mapping):
            raise RulesError(f"{where}: field {name!r} must be a table, got {_shown(value)}")
        _, val_tp = get_args(tp)
        return types.MappingProxyType(
            {k: _convert(val_tp, v, where, (*path, k)) for k, v in sorted(value.items())})
    if tp is bool:
        if not isinstance(value, bool):
            raise RulesError(f"{where}: field {name!r} must be true or false, got {_shown(value)}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{where}: field {name!r} must be a whole number, got {_shown(value)}")
        return value
    if tp is str:
        if not isinstance(value, str):
            raise RulesError(f"{where}: field {name!r} must be text, got {_shown(value)}")
        return value
    raise TypeError(f"no conversion for {tp!r}")  # a bug in the model, not in user input


def _check_consistency(rules: Ruleset, where: str) -> None:
    s = rules.scoring
    for pid in s.automatic_wins:
        if pid not in ("eight-flowers", "big-three-dragons", "big-four-winds"):
            raise RulesError(f"{where}: field 'scoring.automatic_wins' may list eight-flowers, "
                             f"big-three-dragons and big-four-winds, not {_shown(pid)}")
        if pid not in s.patterns:
            raise RulesError(f"{where}: field 'scoring.automatic_wins' lists {_shown(pid)}, which "
                             "has no value in [scoring.patterns]")
