"""The same table, relabelled (RULES.md): a relabelled position keeps its shape, and where the
relabelling is a symmetry of the rules (suits permuted; the mirror that swaps the ace's ends) it
keeps its maximum too, as the solver proves it."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from puzzles import (
    PRESETS,
    Position,
    Relabelling,
    maximum,
    melds_in_common,
    relabel,
    relabellings,
    shape,
    shares_melds,
    table_shape,
)
from tests.puzzles.strategies import positions

EXAMPLES = int(os.environ.get("ORACLE_EXAMPLES", "100"))


def test_the_mirror_and_a_suit_swap_turn_a_table_into_one_of_its_shape() -> None:
    daily = Position.parse("classic | AS 2S 3S / 7H 7D 7C / 9C 10C JC QC | 6S 7S KD")
    mirrored = relabel(daily, Relabelling((1, 0, 3, 2), mirror=True, offset=14))
    assert str(mirrored) == "classic | JH QH KH / 7S 7D 7C / 2D 3D 4D 5D | 7H 8H AC"
    assert shape(mirrored) == shape(daily)
    assert melds_in_common(daily, mirrored) == 3


def test_a_shift_that_moves_a_card_off_the_ranks_does_not_apply() -> None:
    daily = Position.parse("classic | AS 2S 3S / 7H 7D 7C | KD")
    assert Relabelling((0, 1, 2, 3), False, 1) not in set(relabellings(daily))
    with pytest.raises(ValueError, match="off the ranks"):
        relabel(daily, Relabelling((0, 1, 2, 3), False, 1))


def test_under_italian_the_mirror_keeps_the_ace_an_ace() -> None:
    position = Position.parse("italian | QS KS AS / AH AD AC / 2C 3C 4C | AS 5C")
    mirrored = relabel(position, Relabelling((0, 1, 2, 3), True, 15))
    assert str(mirrored) == "italian | AS 2S 3S / AH AD AC / JC QC KC | AS 10C"


def test_tables_of_other_shapes_differ() -> None:
    sets = Position.parse("classic | 7H 7D 7C / 8H 8D 8C | 9S")
    runs = Position.parse("classic | 7H 8H 9H / 7D 8D 9D | 9S")
    spaced = Position.parse("classic | 7H 7D 7C / 9H 9D 9C | 9S")
    assert len({shape(sets), shape(runs), shape(spaced)}) == 3
    assert table_shape(sets) == table_shape(Position.parse("classic | 2S 2D 2C / 3S 3D 3C | KH"))
    assert shape(sets) != shape(Position.parse("classic | 2S 2D 2C / 3S 3D 3C | KH"))


@settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(data=st.data())
def test_every_relabelling_keeps_the_shape(data: st.DataObject) -> None:
    rules = data.draw(st.sampled_from(sorted(PRESETS.values(), key=lambda rules: rules.name)), label="rules")
    position = data.draw(positions(rules), label="position")
    relabelling = data.draw(st.sampled_from(list(relabellings(position))), label="relabelling")
    moved = relabel(position, relabelling)
    note(f"relabelled: {moved}")
    assert shape(moved) == shape(position)
    assert table_shape(moved) == table_shape(position)
    assert melds_in_common(position, moved) == len(position.table)


def symmetry(rules_ace_high: bool, suits: tuple[int, int, int, int], mirror: bool) -> Relabelling:
    """A relabelling that the rules cannot tell apart: suits permuted, and the mirror that maps the
    ace onto itself (r to 14 - r where the ace is low only, the two ends swapped where it is high)."""
    return Relabelling(suits, mirror, (15 if rules_ace_high else 14) if mirror else 0)


@settings(max_examples=max(EXAMPLES // 4, 5), deadline=None, derandomize=True)
@given(data=st.data())
def test_a_symmetry_of_the_rules_keeps_the_maximum(data: st.DataObject) -> None:
    rules = data.draw(st.sampled_from(sorted(PRESETS.values(), key=lambda rules: rules.name)), label="rules")
    position = data.draw(positions(rules, max_table_cards=9, max_hand=3), label="position")
    suits = data.draw(st.permutations(range(4)), label="suits")
    moved = relabel(position, symmetry(rules.ace_high, tuple(suits), data.draw(st.booleans())))  # type: ignore[arg-type]
    note(f"relabelled: {moved}")
    before, after = maximum(position, time_limit=10), maximum(moved, time_limit=10)
    assert before.proven and after.proven
    assert before.objective_value == after.objective_value


@settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(data=st.data())
def test_the_bound_without_suits_never_rules_out_a_pair_that_shares(data: st.DataObject) -> None:
    rules = data.draw(st.sampled_from(sorted(PRESETS.values(), key=lambda rules: rules.name)), label="rules")
    a = data.draw(positions(rules, max_table_cards=15), label="a")
    b = relabel(a, data.draw(st.sampled_from(list(relabellings(a))), label="relabelling"))
    if data.draw(st.booleans(), label="another table"):
        b = data.draw(positions(rules, max_table_cards=15), label="b")
    for least in range(1, 5):
        assert shares_melds(a, b, least) == (melds_in_common(a, b) >= least)
