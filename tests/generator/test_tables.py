"""Realistic tables and re-splitting their cards: property tests over seeds and presets."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from generator._methods import METHODS, layout
from generator._tables import (
    counts_of,
    sample_final_table,
    sample_ladder,
    split_into_melds,
    supply,
    to_meld,
)
from puzzles import PRESETS, Card, MeldKind, Rules, meld_problem

presets = st.sampled_from(sorted(PRESETS)).map(Rules.named)
seeds = st.integers(0, 2**32)


@settings(max_examples=60, deadline=None)
@given(presets, seeds, st.integers(4, 20))
def test_sampled_tables_are_valid_melds_within_the_decks(rules: Rules, seed: int, melds: int) -> None:
    table = sample_final_table(rules, random.Random(seed), melds, blocks=0.2)
    assert 1 <= len(table) <= melds + 3
    for meld in table:
        assert meld_problem([Card.from_index(i) for i in meld], rules) is None
    assert all(n <= limit for n, limit in zip(counts_of(table), supply(rules), strict=True))


@settings(max_examples=60, deadline=None)
@given(presets, seeds)
def test_a_split_lays_exactly_the_same_cards_in_valid_melds(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    final = sample_final_table(rules, rng, rng.randint(4, 14), blocks=0.3)
    counts = counts_of(final)
    split = split_into_melds(counts, rules, rng, avoid=final, budget=2000)
    if split is None:  # the budget can run out; the cards always have at least their own split
        return
    assert counts_of(split) == counts
    for meld in split:
        assert meld_problem([Card.from_index(i) for i in meld], rules) is None


def test_a_split_prefers_melds_that_cut_across() -> None:
    rules = Rules.named("classic")
    runs = [[13 * suit + rank for rank in range(3, 6)] for suit in range(3)]  # 4-6 of ♠ ♥ ♦
    split = split_into_melds(counts_of(runs), rules, random.Random(1), avoid=runs)
    assert split is not None
    assert sorted(len({i % 13 for i in meld}) for meld in split) == [1, 1, 1]  # three sets


def test_cards_that_fit_nowhere_have_no_split() -> None:
    rules = Rules.named("classic")
    assert split_into_melds(counts_of([[0, 1, 2], [20]]), rules, random.Random(0)) is None


def test_a_ladder_is_sets_of_three_with_a_card_at_each_end() -> None:
    rules = Rules.named("classic")
    for seed in range(20):
        stock = supply(rules)
        ladder = sample_ladder(rules, random.Random(seed), stock, 6, 2)
        if ladder is None:
            continue
        sets = [to_meld(meld, rules) for meld in ladder.sets]
        assert [meld.kind for meld in sets] == [MeldKind.SET] * 6
        assert [meld.start for meld in sets] == list(range(sets[0].start, sets[0].start + 6))
        ranks = sorted(Card.from_index(i).rank for i in ladder.extras)
        assert ranks == [sets[0].start - 1, sets[-1].start + 1]
        used = Counter(i for meld in ladder.sets for i in meld) + Counter(ladder.extras)
        assert all(stock[i] == rules.decks - n for i, n in used.items())
        return
    raise AssertionError("no ladder in 20 seeds")


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(METHODS)), presets, seeds)
def test_methods_build_legal_positions_with_tidy_tables(letter: str, rules: Rules, seed: int) -> None:
    candidate = METHODS[letter](rules, random.Random(seed))
    if candidate is None:
        return
    position = candidate.position
    assert 4 <= len(position.table) <= 20
    assert list(position.table) == layout(position.table)
    assert set(candidate.decoys) <= set(position.hand)
