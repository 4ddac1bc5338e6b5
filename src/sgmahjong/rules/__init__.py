"""Rule sets: the six presets of RULES.md as data, and house rules built on them."""

from .catalog import PATTERNS, PatternName
from .loading import (
    DEFAULT_PRESET,
    PRESETS,
    load_preset,
    load_rules,
    load_rules_file,
    rules_from_dict,
)
from .model import (
    BaoRules,
    ClaimRules,
    InstantPayouts,
    MatchRules,
    PatternRule,
    PaymentRules,
    Ruleset,
    ScoringRules,
    WallRules,
)

__all__ = [
    "DEFAULT_PRESET",
    "PATTERNS",
    "PRESETS",
    "BaoRules",
    "ClaimRules",
    "InstantPayouts",
    "MatchRules",
    "PatternName",
    "PatternRule",
    "PaymentRules",
    "Ruleset",
    "ScoringRules",
    "WallRules",
    "load_preset",
    "load_rules",
    "load_rules_file",
    "rules_from_dict",
]
