"""``bench/bench_strength.py``'s Owl variants (``owl~...``): each setting changes the one
figure it names, and a misspelt one is refused with a message naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgmahjong.agents.expected import WIN_FEATURES, load_points_model
from sgmahjong.errors import SgmahjongError

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def bench_strength(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    import bench_strength
    return bench_strength


def test_a_variant_changes_only_the_figures_it_names(bench_strength) -> None:
    shipped = load_points_model()
    owl = bench_strength.make("owl~win.sets=0~realise=0.1~samples=3", 0)
    sets = WIN_FEATURES.index("sets")
    assert owl.model.win[sets] == 0.0
    assert [w for i, w in enumerate(owl.model.win) if i != sets] == \
        [w for i, w in enumerate(shipped.win) if i != sets]
    assert owl.model.realise == (0.1,) * len(shipped.realise)
    assert owl.model.anyway == shipped.anyway
    assert owl.samples == 3


@pytest.mark.parametrize(("name", "says"), [
    ("owl~win.nothing=1", "no input 'nothing'"),
    ("owl~bogus=1", "no such setting 'bogus'"),
    ("owl~samples=many", "'samples=many' needs a whole number"),
    ("owl~anyway=", "'anyway=' needs a number"),
])
def test_a_misspelt_variant_is_refused_by_name(bench_strength, name: str, says: str) -> None:
    with pytest.raises(SgmahjongError, match=says):
        bench_strength.field([name])
