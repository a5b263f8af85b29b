"""Near-duplicates: the one predicate, and generation runs that keep them apart."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import pytest

from generator import SHARED_MELDS, near_duplicate, same_table, shared_melds
from generator._make import REPLAY_TIME_LIMIT, recipe_for
from generator._runs import Plan, Tally, generate

SETS = [("2S", "2H", "2D"), ("3S", "3H", "3D"), ("4S", "4H", "4D"), ("5S", "5H", "5D"), ("6S", "6H", "6D")]
RUNS = [("7C", "8C", "9C"), ("10H", "JH", "QH")]


def test_tables_sharing_four_melds_are_near_duplicates_and_three_are_not() -> None:
    assert SHARED_MELDS == 4
    assert near_duplicate(SETS[:4] + RUNS, SETS[:4])
    assert not near_duplicate(SETS[:3] + RUNS[:1], SETS[:3] + RUNS[1:])
    assert shared_melds(SETS[:3] + RUNS[:1], SETS[:3] + RUNS[1:]) == 3


def test_a_meld_counts_as_often_as_both_tables_hold_it() -> None:
    twice = [SETS[0], SETS[0], SETS[1], SETS[2]]
    assert shared_melds(twice, [SETS[0], SETS[1], SETS[2], SETS[3]]) == 3
    assert near_duplicate(twice, [SETS[0], SETS[0], SETS[1], SETS[2]])


def plan(tier: str) -> Plan:
    # a generous limit: a loaded machine must not change which attempts the solver proves
    return Plan("classic", recipe_for(tier), seed=21, tier=tier, time_limit=REPLAY_TIME_LIMIT)


@pytest.mark.slow  # generator runs of several puzzles
def test_a_run_leaves_out_a_puzzle_that_nearly_repeats_one_before_it() -> None:
    (first,) = generate(plan("medium"), 1, 1, lambda: False, set(), Tally())
    # another puzzle of the same tier whose table holds four of the first one's melds
    earlier = replace(first, id="cr0", table=first.table[:SHARED_MELDS])
    tally = Tally()
    (kept,) = generate(plan("medium"), 1, 1, lambda: False, set(), tally, earlier=[earlier])
    assert kept != first and not near_duplicate(kept.table, earlier.table)
    assert tally.near_duplicates >= 1
    # a puzzle of another tier is no reason to leave one out
    other_tier = replace(earlier, tier="easy")
    again = generate(plan("medium"), 1, 1, lambda: False, set(), Tally(), earlier=[other_tier])
    assert list(again) == [first]


@pytest.mark.slow  # generator runs of several puzzles
def test_no_two_puzzles_of_one_tier_in_a_run_are_near_duplicates() -> None:
    tally = Tally()
    puzzles = list(generate(plan("hard"), 6, 2, lambda: False, set(), tally))
    assert len(puzzles) == 6
    assert not any(near_duplicate(a.table, b.table) for a, b in combinations(puzzles, 2))


# the sets and runs above with suits permuted (S->C, H->D, D->H) and ranks shifted up by two
SHIFTED_SETS = [("4H", "4D", "4C"), ("5H", "5D", "5C"), ("6H", "6D", "6C"), ("7H", "7D", "7C")]
SHIFTED_RUNS = [("9S", "10S", "JS"), ("QD", "KD", "AD")]


def test_tables_are_compared_up_to_relabelling() -> None:
    assert near_duplicate(SETS[:4] + RUNS[:1], SHIFTED_SETS + SHIFTED_RUNS[:1])
    assert shared_melds(SETS[:4] + RUNS[:1], SHIFTED_SETS + SHIFTED_RUNS[:1]) == 5
    # mirrored (r to 14 - r under the ace low): 2-5 become Q-9
    mirrored = [("QS", "QH", "QD"), ("JS", "JH", "JD"), ("10S", "10H", "10D"), ("9S", "9H", "9D")]
    assert near_duplicate(SETS[:4], mirrored)
    # three melds in common after the best relabelling are not enough
    assert not near_duplicate(SETS[:3] + RUNS[:1], [*SHIFTED_SETS[:3], ("2C", "3C", "4C", "5C")])


def test_the_ace_above_the_king_counts_only_where_the_rules_allow_it() -> None:
    high = [("JS", "QS", "KS"), ("JH", "QH", "KH"), ("JD", "QD", "KD"), ("5C", "6C", "7C")]
    low = [("QS", "KS", "AS"), ("QH", "KH", "AH"), ("QD", "KD", "AD"), ("6C", "7C", "8C")]
    assert near_duplicate(high, low, "italian")
    # under classic rules Q K A is no run: the tables are compared as they are written
    assert not near_duplicate(high, low, "classic")


def test_a_small_table_relabelled_is_a_duplicate() -> None:
    small = [SETS[0], RUNS[0]]
    assert near_duplicate(small, [SHIFTED_SETS[0], ("9S", "10S", "JS")])
    assert same_table(small, [SHIFTED_SETS[0], ("9S", "10S", "JS")])
    assert not near_duplicate(small, [SHIFTED_SETS[0], ("9S", "10S", "JS", "QS")])
    assert not near_duplicate(small, [SHIFTED_SETS[0], ("9S", "10S", "JS"), ("2S", "3S", "4S")])


def test_the_rules_pages_example_shares_all_four_melds() -> None:
    a = [("4S", "4H", "4D"), ("5S", "5H", "5D"), ("6S", "6H", "6D"), ("7C", "8C", "9C")]
    b = [("6H", "6D", "6C"), ("7H", "7D", "7C"), ("8H", "8D", "8C"), ("9S", "10S", "JS")]
    assert shared_melds(a, b) == 4 and near_duplicate(a, b) and same_table(a, b)
