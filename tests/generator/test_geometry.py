"""Method 9m: Masters searched from chains of varied geometry (`generator._geometry`, issue 38)."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from generator import puzzle_from_id
from generator._geometry import sample_tree
from generator._make import REPLAY_TIME_LIMIT
from generator._methods import METHODS, SEARCHES
from generator._search import STYLES, graded, met, pruned
from generator._shapes import is_figure
from generator._tables import counts_of, supply, to_meld
from puzzles import Meld, MeldKind, Position, Rules, analyse, table_shape
from tests.generator.masters import check_pinned_master

MASTER = "c9m34dkx"
"""A 9m Master: a chain that turns, polished by the search (docs/GENERATOR.md)."""


def _trees(count: int) -> list[tuple[list[list[int]], list[int]]]:
    rules = Rules.named("classic")
    trees = []
    for seed in range(count):
        rng = random.Random(seed)
        figure = sample_tree(rules, rng, supply(rules), rng.randint(6, 9), 1)
        if figure is not None:
            trees.append((figure.melds, figure.extras))
    return trees


def test_a_tree_lays_valid_melds_within_the_decks_and_hands_cards_beside_them() -> None:
    rules = Rules.named("classic")
    trees = _trees(60)
    assert len(trees) > 30
    for melds, hand in trees:
        table = [to_meld(meld, rules) for meld in melds]  # raises on an invalid meld
        assert max(counts_of([*melds, hand])[:52]) <= rules.decks
        assert len(table) >= 3 and len(hand) >= 2
        assert {meld.kind for meld in table} == {MeldKind.SET, MeldKind.RUN}


def test_trees_vary_their_skeletons_run_lengths_and_directions() -> None:
    rules = Rules.named("classic")
    trees = _trees(60)
    shapes = {table_shape(Position(rules, tuple(to_meld(m, rules) for m in melds), ())) for melds, _ in trees}
    # a chain of the old recipe is one skeleton per length, relabelled
    assert len(shapes) >= 0.8 * len(trees)
    lengths = Counter(
        len(meld) for melds, _ in trees for meld in melds if len({index % 13 for index in meld}) > 1
    )
    assert {3, 4, 5, 6} <= set(lengths)
    # a run of four gives its second card to a set and its single joins a set of four suits one
    # rank away: sets on neighbouring ranks, which no climbing chain lays
    set_ranks = [{meld[0] % 13 for meld in melds if len({i % 13 for i in meld}) == 1} for melds, _ in trees]
    assert any(any(abs(a - b) == 1 for a in ranks for b in ranks) for ranks in set_ranks)


def test_nine_m_searches_for_master_and_gives_up_figures_before_the_solver() -> None:
    assert SEARCHES["9m"] == "master"
    rules = Rules.named("classic")
    made = [METHODS["9m"](rules, random.Random(seed)) for seed in range(40)]
    assert sum(candidate is not None for candidate in made) > 10
    for candidate in made:
        if candidate is not None:
            assert not is_figure(candidate.position.table, rules.top_position)


@pytest.mark.slow  # a master searched from scratch
def test_a_nine_m_master_forks_twice_and_replays_from_its_id() -> None:
    check_pinned_master(MASTER)


@pytest.mark.slow  # a master searched from scratch, then graded twice
def test_a_meld_the_best_play_keeps_whole_is_pruned_from_a_found_master() -> None:
    position = puzzle_from_id(MASTER).position()
    # a set of kings that no card of the hand or the chain wants
    extra = Meld.parse("KS KH KC", position.rules)
    wider = Position(position.rules, (*position.table, extra), position.hand)
    deadline = time.perf_counter() + REPLAY_TIME_LIMIT
    found = graded(analyse(wider, time_limit=REPLAY_TIME_LIMIT), "master", deadline)
    assert found is not None and met(found, "master")
    # 9m prunes after its trap (`Style.prune_later`), as 6p prunes at the end of its search
    assert STYLES["9m"].prune and STYLES["9m"].prune_later
    trimmed = pruned(MASTER, found, "master", deadline, STYLES["9m"])
    assert trimmed is not None and met(trimmed, "master")
    assert extra not in trimmed.analysis.position.table
    assert len(trimmed.analysis.position.table) <= len(position.table)


@pytest.mark.parametrize("rules", ["italian", "jokers", "german-jokers", "three-decks"])
def test_nine_m_lays_legal_positions_under_every_preset(rules: str) -> None:
    # the Position constructor checks every meld and the copies of each card
    made = [METHODS["9m"](Rules.named(rules), random.Random(seed)) for seed in range(30)]
    assert sum(candidate is not None for candidate in made) >= 5
    for candidate in made:
        if candidate is not None:
            assert candidate.position.rules == Rules.named(rules)
            assert len(candidate.position.hand) >= 2
