"""Realistic tables and re-splitting their cards: property tests over seeds and presets."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator._methods import METHODS, layout
from generator._tables import (
    counts_of,
    ladder_length,
    sample_final_table,
    sample_ladder,
    sample_staircase,
    sample_wall,
    split_into_melds,
    supply,
    to_meld,
)
from puzzles import PRESETS, Card, MeldKind, Position, Rules, analyse, meld_problem

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
        sets = [to_meld(meld, rules) for meld in ladder.melds]
        assert [meld.kind for meld in sets] == [MeldKind.SET] * 6
        assert [meld.start for meld in sets] == list(range(sets[0].start, sets[0].start + 6))
        ranks = sorted(Card.from_index(i).rank for i in ladder.extras)
        assert ranks == [sets[0].start - 1, sets[-1].start + 1]
        used = Counter(i for meld in ladder.melds for i in meld) + Counter(ladder.extras)
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


def ladder_of(text: str) -> int:
    position = Position.parse(f"{text} | AS")
    return ladder_length(position.table, position.rules.top_position)


def test_a_ladder_is_three_sets_side_by_side_that_share_three_suits() -> None:
    assert ladder_of("classic | 4S 4H 4D / 5S 5H 5D 5C / 6S 6H 6D / 9S 9H 9D") == 3
    assert ladder_of("classic | 4S 4H 4D / 5S 5H 5C / 6S 6H 6D") == 0  # the suits shift: a staircase
    assert ladder_of("classic | 4S 4H 4D / 5S 5H 5D / 7S 7H 7D") == 2  # a rank missing
    assert ladder_of("classic | 4S 5S 6S / 4H 5H 6H / 4D 5D 6D") == 0  # runs are no ladder
    assert ladder_of("italian | QS QH QD / KS KH KD / AS AH AD") == 3  # the ace above the king
    assert ladder_of("classic | QS QH QD / KS KH KD / AS AH AD") == 2  # but not in every preset


@settings(max_examples=60, deadline=None)
@given(presets, seeds, st.integers(3, 8), st.integers(0, 2))
def test_a_staircase_turns_into_runs_only_as_a_whole(rules: Rules, seed: int, length: int, ends: int) -> None:
    stock = supply(rules)
    staircase = sample_staircase(rules, random.Random(seed), stock, length, ends)
    if staircase is None:
        return
    sets = [to_meld(meld, rules) for meld in staircase.melds]
    assert [meld.kind for meld in sets] == [MeldKind.SET] * length
    assert [meld.start for meld in sets] == list(range(sets[0].start, sets[0].start + length))
    assert ladder_length(sets, rules.top_position) < 3
    # the sets' cards and the hand's make runs of three or more, suit by suit
    cards = [Card.from_index(i) for i in staircase.extras + [i for meld in staircase.melds for i in meld]]
    for suit in {card.suit for card in cards}:
        ranks = sorted(card.rank for card in cards if card.suit is suit)
        if rules.ace_high and ranks[0] == 1 and 13 in ranks:
            ranks = [*ranks[1:], 14]  # the ace above the king
        breaks = [0, *(k for k in range(1, len(ranks)) if ranks[k] != ranks[k - 1] + 1), len(ranks)]
        assert all(b - a >= 3 for a, b in pairwise(breaks)), (suit, ranks)
    used = Counter(i for meld in staircase.melds for i in meld) + Counter(staircase.extras)
    assert all(stock[i] == rules.copies(Card.from_index(i)) - n for i, n in used.items())


@settings(max_examples=60, deadline=None)
@given(presets, seeds, st.integers(3, 8), st.integers(0, 2))
def test_a_wall_is_runs_of_three_that_only_sets_can_take_the_hand_into(
    rules: Rules, seed: int, length: int, ends: int
) -> None:
    stock = supply(rules)
    wall = sample_wall(rules, random.Random(seed), stock, length, ends)
    if wall is None:
        return
    runs = [to_meld(meld, rules) for meld in wall.melds]
    assert [(meld.kind, len(meld.cards)) for meld in runs] == [(MeldKind.RUN, 3)] * length
    hand = [Card.from_index(i) for i in wall.extras]
    for card in hand:  # no run of the wall takes a hand card: only a set of its rank can
        assert all(card.suit != run.suit or not run.start - 1 <= card.rank <= run.end + 1 for run in runs)
    # every rank the wall covers shows three suits or more, with the hand's cards
    cards = hand + [card for run in runs for card in run.cards]
    for rank in range(min(run.start for run in runs), max(run.end for run in runs) + 1):
        assert len({card.suit for card in cards if card.rank == rank}) >= 3, rank
    used = Counter(i for meld in wall.melds for i in meld) + Counter(wall.extras)
    assert all(stock[i] == rules.copies(Card.from_index(i)) - n for i, n in used.items())


FIGURES = {"staircase": sample_staircase, "wall": sample_wall}


@pytest.mark.parametrize("figure", sorted(FIGURES))
@pytest.mark.parametrize("length", [4, 6])
def test_a_figure_is_laid_the_other_way_all_at_once(figure: str, length: int) -> None:
    rules = Rules.named("classic")
    figures = (FIGURES[figure](rules, random.Random(seed), supply(rules), length, 1) for seed in range(200))
    shown = [found for found in figures if found is not None][:4]
    assert len(shown) == 4
    for found in shown:
        table = tuple(to_meld(meld, rules) for meld in found.melds)
        hand = tuple(Card.from_index(i) for i in found.extras)
        analysis = analyse(Position(rules, table, hand), time_limit=30)
        assert analysis.best.placed == len(hand), str(analysis.position)
        assert analysis.chain.length == length, str(analysis.position)


def test_a_block_of_sets_is_laid_as_sets_and_the_split_lays_it_as_runs() -> None:
    rules = Rules.named("classic")
    for seed in range(50):
        final = sample_final_table(rules, random.Random(seed), 3, blocks=1.0, set_blocks=1.0)
        if not final:
            continue
        assert all(to_meld(meld, rules).kind is MeldKind.SET for meld in final)
        split = split_into_melds(counts_of(final), rules, random.Random(seed), avoid=final)
        assert split is not None
        assert any(to_meld(meld, rules).kind is MeldKind.RUN for meld in split)
        return
    raise AssertionError("no block in 50 seeds")
