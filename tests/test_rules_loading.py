"""Rule sets as data: the six presets, user files and their validation."""

import pytest

from sgmahjong.errors import RulesError
from sgmahjong.rules import PATTERNS, PRESETS, load_rules, rules_from_dict
from sgmahjong.scoring.patterns import PREDICATES


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_loads_and_names_itself(name):
    rules = load_rules(name)
    assert rules.name == name
    assert rules.description


def test_standard_is_the_default():
    assert load_rules(None) == load_rules("standard")


def test_every_catalogued_pattern_has_a_predicate():
    assert set(PATTERNS) == set(PREDICATES)


def test_presets_differ_where_rules_md_says():
    std, lim, cas = load_rules("standard"), load_rules("limit"), load_rules("casual")
    gar, aut, mq = load_rules("garden"), load_rules("automatic"), load_rules("menqing")
    assert cas.scoring.minimum_tai == 0 and std.scoring.minimum_tai == 1
    assert lim.payments.base_offset == -1 and std.payments.base_offset == 0
    assert gar.payments.scheme == "winner-only" and cas.payments.scheme == "one-point"
    assert lim.payments.multiple_winners == "all" and std.payments.multiple_winners == "nearest"
    assert lim.wall.replacement == "dead-wall" and gar.wall.replacement == "same-wall"
    assert mq.pattern("men-qing-zi-mo").tai == 1 and std.pattern("men-qing-zi-mo") is None
    assert mq.instant.concealed_kong == 2 and std.instant.concealed_kong == 0
    assert mq.claims.own_discard == "none" and std.claims.own_discard == "kong-only"
    assert mq.bao.fresh_tile_max_remaining == 5 and std.bao.fresh_tile_max_remaining == 3
    assert not gar.instant.enabled and not lim.bao.cases
    assert set(aut.scoring.automatic_wins) == {"eight-flowers", "big-three-dragons",
                                               "big-four-winds"}
    assert std.pattern("thirteen-wonders").tai == 8 and lim.pattern("thirteen-wonders").limit
    assert gar.match.round_wind == "fixed-east" and gar.match.quick_game_hands == 4
    assert gar.match.max_hands_per_round == 12


def test_a_user_file_overrides_a_preset_field_by_field(tmp_path):
    f = tmp_path / "house.toml"
    f.write_text('extends = "limit"\n[scoring]\nminimum_tai = 2\n'
                 '[scoring.patterns]\nall-pong = 3\nhalf-colour = false\n')
    rules = load_rules(str(f))
    assert rules.name == "house"
    assert rules.scoring.minimum_tai == 2
    assert rules.pattern("all-pong").tai == 3
    assert rules.pattern("half-colour") is None
    assert rules.payments.base_offset == -1  # kept from limit


def test_a_user_file_extends_standard_by_default(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text("[scoring]\ntai_cap = 10\n")
    rules = load_rules(f)
    assert rules.scoring.tai_cap == 10
    assert rules.pattern("thirteen-wonders").tai == 8


@pytest.mark.parametrize(("body", "names"), [
    ("[scoring]\nminimun_tai = 1\n", "scoring.minimun_tai"),
    ("[scoring]\nminimum_tai = 'one'\n", "scoring.minimum_tai"),
    ("[scoring]\nminimum_tai = true\n", "scoring.minimum_tai"),
    ("[scoring]\nminimum_tai = -1\n", "scoring.minimum_tai"),
    ("[payments]\nscheme = 'free'\n", "payments.scheme"),
    ("[scoring.patterns]\nseven-pairs = 2\n", "seven-pairs"),
    ("[scoring.patterns]\nall-pong = 'lots'\n", "scoring.patterns.all-pong"),
    ("[scoring.patterns]\nall-pong = { tai = 2, replaces = ['nothing'] }\n", "nothing"),
    ("[colour]\nred = 1\n", "colour"),
    ("extends = 'mahjong'\n", "extends"),
    ("[bao]\ncases = ['third-dragon', 'bad-luck']\n", "bao.cases"),
    ("[scoring]\nautomatic_wins = ['all-pong']\n", "automatic_wins"),
    ("this is not toml", "not valid TOML"),
])
def test_bad_rule_files_name_the_bad_field(tmp_path, body, names):
    f = tmp_path / "bad.toml"
    f.write_text(body)
    with pytest.raises(RulesError) as info:
        load_rules(f)
    assert names in str(info.value)


def test_missing_rule_file_and_unknown_preset_are_clear_errors(tmp_path):
    with pytest.raises(RulesError, match="does not exist"):
        load_rules(tmp_path / "nope.toml")
    with pytest.raises(RulesError, match="unknown rules 'mahjong'"):
        load_rules("mahjong")


def test_to_dict_round_trips_and_digest_tracks_the_rules():
    std = load_rules("standard")
    assert rules_from_dict(std.to_dict()) == std
    assert std.digest() == rules_from_dict(std.to_dict()).digest()
    assert len({load_rules(p).digest() for p in PRESETS}) == len(PRESETS)
