"""Expert's searching methods 3e and 5e: short chains (Hard's twists, 3e) and chains of varied
geometry (5e) searched to Expert, so that fewer Expert tables are figures and more hold a live decoy
(issue 38, issue 21's ceilings)."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from generator import puzzle_from_id
from generator._geometry import sample_tree
from generator._make import REPLAY_TIME_LIMIT, recipe_for
from generator._methods import EXPERT_TREES, EXPERT_TWISTS, FINISHED_SEARCHES, METHODS, SEARCHES
from generator._search import (
    GROWTHS,
    LONG_CHANGES,
    RUN_GROWTHS,
    STYLES,
    _add_long_meld,
    _add_obvious_card,
    _change,
    _fill_set,
    _grown,
    _lengthen_run,
    graded,
    grown,
    met,
)
from generator._shapes import is_figure
from generator._tables import supply
from puzzles import Meld, MeldKind, Position, Rules, analyse, parse_cards
from tests.generator.masters import check_pinned_expert

EXPERT_FROM_A_TWIST = "c3e6v7yh"
"""The first Expert of `bench/generate.py --tiers expert --seed 11` that 3e made."""
EXPERT_FROM_A_TREE = "c5e6v7yk"
"""The first Expert of `bench/searches.py 5e --seed 11` (a chain of five melds)."""
EXPERT_WITH_LONGER_MELDS = "c9e6v7yd"
"""The first Expert of 9e on seed 11: a chain of varied geometry searched with longer melds."""
TREE_EXPERT_TABLE = "4S 4H 4C / 7H 7D 7C / 5S 6S 7S / AD 2D 3D 4D / 8C 9C 10C JC QC KC / 7C 8C 9C / 4C 5C 6C"
TREE_EXPERT_HAND = "2S 3S 5S AH 10H 5D 5D 10D 6C"
"""EXPERT_FROM_A_TREE's position as it was published."""
TREE_STARTS = {
    "c5e6v7yk": "classic | 4S 4H 4C / 7H 7D 7C / 5S 6S 7S / AD 2D 3D 4D / 8C 9C 10C JC QC KC | 10H 10D",
    "c5e6v7ym": "classic | 5H 5D 5C / 8S 8H 8D / JH JD JC / 2S 3S 4S 5S / 6C 7C 8C 9C 10C"
    " | 6S 9H 10H 6D 7D 9D 9D 10D 10D",
    "c5e6v81w": "classic | 2S 2H 2D / 3S 3H 3D / 6H 6D 6C / QS QH QD / 3S 4S 5S 6S 7S 8S 9S / 2C 3C 4C 5C"
    " | AS 2S QC",
}
"""Where three 5e IDs start their search: a chain that `generator._geometry.sample_tree` draws,
beside a small mid-game table."""
TREES = {
    0: (
        [[10, 36, 49], [21, 22, 23], [7, 20, 46], [31, 32, 33, 34, 35, 36], [4, 17, 30]],
        [50, 51, 16, 15, 3, 2, 24],
    ),
    1: ([[44, 45, 46, 47, 48, 49], [17, 30, 43], [2, 3, 4, 5, 6, 7], [1, 14, 40]], [7, 20, 27]),
}
"""Chains of five melds that `sample_tree` draws from `random.Random(seed)`: the melds and the
hand, as card indices."""


def test_experts_recipe_searches_from_twists_and_chains_of_varied_links() -> None:
    # 8e searches from 1e's twists, 9e from 5e's chains, with longer melds; 2e (test_links.py) from
    # chains of varied links, and takes 9e's turns
    assert set(recipe_for("expert")) == {"6e", "2e", "8e"}
    assert SEARCHES["3e"] == SEARCHES["5e"] == SEARCHES["8e"] == SEARCHES["9e"] == "expert"
    assert METHODS["8e"] is METHODS["1e"] and METHODS["9e"] is METHODS["5e"]
    # the joker presets keep their recipe: a hand joker fills a chain's gap
    assert not {"1e", "2e", "3e", "5e", "8e", "9e"} & set(recipe_for("expert", "jokers"))


@pytest.mark.parametrize("letter", ["3e", "5e"])
def test_a_twist_start_is_never_a_figure(letter: str) -> None:
    rules = Rules.named("classic")
    starts = 0
    for seed in range(80):
        candidate = METHODS[letter](rules, random.Random(seed))
        if candidate is None:
            continue
        starts += 1
        assert not is_figure(candidate.position.table, rules.top_position)
    assert starts >= 10


@pytest.mark.parametrize("letter", ["3e", "5e"])
def test_under_joker_rules_the_twists_are_6e(letter: str) -> None:
    rules = Rules.named("jokers")
    for seed in range(8):
        assert METHODS[letter](rules, random.Random(seed)) == METHODS["6e"](rules, random.Random(seed))


def test_the_trees_vary_their_skeletons() -> None:
    # chains drawn link by link: starts of one size differ in the lengths of their runs, not only
    # in where they lie (3e's twists are a few skeletons relabelled)
    rules = Rules.named("classic")
    shapes = set()
    for seed in range(80):
        candidate = EXPERT_TREES[0](rules, random.Random(seed))
        if candidate is not None:
            shapes.add(tuple(sorted(len(meld.cards) for meld in candidate.position.table)))
    assert len(shapes) >= 5


def test_every_twist_is_drawn() -> None:
    # one twist drawn often made most near-duplicates: each is one of the family's bases once
    assert len(set(EXPERT_TWISTS)) == len(EXPERT_TWISTS) == 7


def test_a_set_of_three_grows_to_four_from_the_cards_left_over() -> None:
    position = Position.parse("classic | 7S 7H 7D / 2C 3C 4C | 7C 7C 9H")
    # the hand holds both 7♣ of the two decks: no set of four can be made
    assert _fill_set(position, random.Random(0)) is None
    fuller = Position.parse("classic | 7S 7H 7D / 2C 3C 4C | 8C 9H")
    grown = _fill_set(fuller, random.Random(0))
    assert grown is not None and grown.hand == fuller.hand
    assert Meld.of(parse_cards("7S 7H 7D 7C"), fuller.rules) in grown.table
    assert Meld.of(parse_cards("2C 3C 4C"), fuller.rules) in grown.table


def test_a_grown_expert_stays_an_expert_and_only_lengthens_melds() -> None:
    position = puzzle_from_id(EXPERT_FROM_A_TWIST).position()
    deadline = time.perf_counter() + REPLAY_TIME_LIMIT
    found = graded(analyse(position, time_limit=REPLAY_TIME_LIMIT), "expert", deadline)
    assert found is not None and met(found, "expert")
    grown = _grown(found, "expert", deadline, random.Random(3), tries=8)
    assert grown is not None and met(grown, "expert")
    after = grown.analysis.position
    assert after.hand == position.hand and len(after.table) == len(position.table)
    # every meld holds the cards it held, and some hold more
    assert sorted(len(m.cards) for m in after.table) != sorted(len(m.cards) for m in position.table)
    assert all(any(set(before.cards) <= set(meld.cards) for meld in after.table) for before in position.table)
    # with no tries it changes nothing
    assert _grown(found, "expert", deadline, random.Random(3), tries=0) == found


def test_the_twist_letters_grow_their_experts() -> None:
    assert STYLES["1e"].grow > 0 and STYLES["5e"].grow > 0
    assert METHODS["1e"] is METHODS["3e"] and SEARCHES["1e"] == "expert"
    # 3e keeps no style of its own: its IDs replay as they were published
    assert "3e" not in STYLES
    assert len(GROWTHS) == 2
    # 8e and 9e search with longer melds, and grow runs once their trap is in (`_make._searched`)
    for letter in ("8e", "9e"):
        style = STYLES[letter]
        assert style.changes == LONG_CHANGES and style.growths == RUN_GROWTHS
        assert style.grow > 0 and style.grow_later and letter in FINISHED_SEARCHES
    # the older letters draw the changes they were published with
    assert all(STYLES[letter].changes is None for letter in ("1e", "5e", "6p", "4m", "9m"))


def test_growing_later_grows_a_found_expert_from_the_ids_own_random_state() -> None:
    position = puzzle_from_id(EXPERT_FROM_A_TWIST).position()
    deadline = time.perf_counter() + REPLAY_TIME_LIMIT
    found = graded(analyse(position, time_limit=REPLAY_TIME_LIMIT), "expert", deadline)
    assert found is not None and met(found, "expert")
    grown_once = grown("c8e1", found, "expert", deadline, STYLES["8e"])
    assert grown_once is not None and met(grown_once, "expert")
    after = grown_once.analysis.position
    assert after.hand == position.hand and after.table != position.table
    assert all(any(set(before.cards) <= set(meld.cards) for meld in after.table) for before in position.table)
    # the same ID grows the same way; a style that grows nothing leaves it as it was
    again = grown("c8e1", found, "expert", deadline, STYLES["8e"])
    assert again is not None and again.analysis.position == after
    assert grown("c8e1", found, "expert", deadline, STYLES["6p"]) is found


@pytest.mark.parametrize("puzzle_id", [EXPERT_FROM_A_TWIST, EXPERT_FROM_A_TREE, EXPERT_WITH_LONGER_MELDS])
def test_an_expert_from_a_twist_forks_tempts_and_is_no_figure(puzzle_id: str) -> None:
    check_pinned_expert(puzzle_id)


def test_the_tree_sampler_is_frozen_for_the_letters_published_with_it() -> None:
    # 5e's (and 9e's, 9m's) IDs replay only while `sample_tree` draws what it drew: a new sampler
    # gets a new name (docs/GENERATOR.md)
    rules = Rules.named("classic")
    for seed, (melds, hand) in TREES.items():
        figure = sample_tree(rules, random.Random(seed), supply(rules), 5, 1)
        assert figure is not None and (figure.melds, figure.extras) == (melds, hand)
    for puzzle_id, start in TREE_STARTS.items():
        candidate = METHODS["5e"](rules, random.Random(puzzle_id))
        assert candidate is not None and candidate.position == Position.parse(start)


@pytest.mark.slow  # an expert searched from scratch
def test_a_five_e_expert_replays_the_position_it_was_published_with() -> None:
    expert = puzzle_from_id(EXPERT_FROM_A_TREE)
    assert expert.table == tuple(tuple(meld.split()) for meld in TREE_EXPERT_TABLE.split(" / "))
    assert expert.hand == tuple(TREE_EXPERT_HAND.split())
    assert expert.tier == "expert"


def test_a_long_meld_is_a_set_of_three_or_a_run_of_four_to_six_beside_a_table_card() -> None:
    position = Position.parse("classic | 6S 6H 6D / 9C 10C JC | 2S 7H")
    added = Counter()
    for seed in range(60):
        after = _add_long_meld(position, random.Random(seed))
        if after is None:
            continue
        assert after.hand == position.hand and after.table[: len(position.table)] == position.table
        (meld,) = after.table[len(position.table) :]
        ranks = {card.rank for card in meld.cards}
        table_cards = {card for m in position.table for card in m.cards}
        if meld.kind is MeldKind.SET:
            assert len(meld.cards) == 3 and ranks <= {6, 9, 10, 11}
        else:
            assert 4 <= len(meld.cards) <= 6
            # it holds or touches the rank of a table card of its suit
            near = {
                card.rank + d for card in table_cards if card.suit == meld.cards[0].suit for d in (-1, 0, 1)
            }
            assert ranks & near
        added[meld.kind] += 1
    assert added[MeldKind.SET] and added[MeldKind.RUN]


@pytest.mark.parametrize("rules", ["classic", "italian", "german-jokers"])
def test_every_long_change_leaves_a_legal_position(rules: str) -> None:
    changed = 0
    for seed in range(30):
        rng = random.Random(seed)
        candidate = METHODS["5e" if rules == "classic" else "6e"](Rules.named(rules), rng)
        if candidate is None:
            continue
        for change in (*LONG_CHANGES, *RUN_GROWTHS):
            try:
                after = change(candidate.position, rng)
            except ValueError:
                continue
            if after is not None:
                assert isinstance(after, Position) and after.rules == candidate.position.rules
                changed += 1
    assert changed > 30


def test_a_style_draws_only_its_own_changes() -> None:
    position = puzzle_from_id(EXPERT_FROM_A_TWIST).position()
    rng = random.Random(5)
    for _ in range(20):
        after = _change(position, rng, "expert", drawn=(_lengthen_run,))
        assert after is not None and after.hand == position.hand and len(after.table) == len(position.table)
        assert sum(len(m.cards) for m in after.table) == sum(len(m.cards) for m in position.table) + 1
    # a long meld added never takes the table past the goal's most, as a meld of three does not
    wider = _change(position, rng, "expert", melds=(4, 6), drawn=(_add_long_meld,))
    assert wider is not None and len(wider.table) == len(position.table) + 1 == 6
    assert _change(wider, rng, "expert", melds=(4, 6), drawn=(_add_long_meld,)) is None


def test_an_obvious_card_added_lengthens_a_table_meld_as_it_lies() -> None:
    position = Position.parse("classic | 6S 6H 6D / 9C 10C JC | 2S 7H")
    seen = set()
    for seed in range(30):
        after = _add_obvious_card(position, random.Random(seed))
        assert after is not None and after.table == position.table
        assert after.hand[:-1] == position.hand
        seen.add(after.hand[-1])
    # the sixes' missing club, and the clubs' 8 and queen: nothing else
    assert seen == set(parse_cards("6C 8C QC"))
    # no card is left to lengthen a meld: both decks' copies are held
    held = Position.parse("classic | 6S 6H 6D / 9C 10C JC | 6C 6C 8C 8C QC QC")
    assert _add_obvious_card(held, random.Random(0)) is None
