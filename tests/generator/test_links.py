"""2e: Experts searched from chains whose links vary (`generator._links`, issue 38 item 3)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from generator._links import LINKS, sample_links
from generator._make import recipe_for
from generator._methods import EXPERT_LINKS, FIGURES, FINISHED_SEARCHES, METHODS, SEARCHES
from generator._search import (
    GROWTHS,
    RUN_CHANGES,
    STYLES,
    _add_long_meld,
    _add_run_meld,
)
from generator._shapes import is_figure
from generator._tables import rank_of, suit_of, supply
from puzzles import Card, Meld, MeldKind, Position, Rules
from tests.generator.masters import check_pinned_expert

EXPERT_FROM_LINKS = "c2e6v7y9"
"""The first Expert of 2e on seed 11: a chain of varied links searched with runs added."""
PINNED_TABLE = (
    "4S 4D 4C / 7S 7H 7D / AH 2H 3H 4H 5H 6H / 5C 6C 7C 8C 9C 10C JC QC KC / 7S 8S 9S 10S JS QS"
    " / 8C 9C 10C JC QC KC"
)
PINNED_HAND = "10S KS 2H 8H JH KH 10D 3C"
"""EXPERT_FROM_LINKS as it was published."""
DRAWN = {
    0: ([[8, 34, 47], [19, 20, 21, 22], [5, 18, 44], [28, 29, 30, 31, 32], [6, 19, 45]], [46, 48, 23, 24]),
    3: ([[3, 16, 29], [42, 43, 44], [6, 19, 45], [31, 32, 33, 34, 35], [5, 18, 44]], [17, 18]),
}
"""Chains that `sample_links` draws from `random.Random(seed)` with a length of 5: the melds and
the hand, as card indices. A new draw is a new sampler under a new name (docs/GENERATOR.md)."""


def chains(count: int, length: int = 5) -> list[list[list[tuple[int, int]]]]:
    rules = Rules.named("classic")
    drawn = []
    for seed in range(count):
        figure = sample_links(rules, random.Random(seed), supply(rules), length, 1)
        if figure is not None:
            drawn.append([[(suit_of(i), rank_of(i)) for i in meld] for meld in figure.melds])
    return drawn


def test_two_e_is_a_searching_expert_letter_that_adds_runs_not_sets_of_three() -> None:
    assert SEARCHES["2e"] == "expert" and "2e" in FINISHED_SEARCHES and "links" in FIGURES
    style = STYLES["2e"]
    assert style.changes == RUN_CHANGES and style.growths == GROWTHS and style.grow_later
    assert _add_run_meld in RUN_CHANGES and _add_long_meld not in RUN_CHANGES
    assert "2e" in recipe_for("expert") and "2e" not in recipe_for("expert", "jokers")


def test_a_run_meld_is_a_run_of_four_to_six_beside_a_table_card() -> None:
    position = Position.parse("classic | 6S 6H 6D / 9C 10C JC | 2S 7H")
    lengths = set()
    for seed in range(40):
        after = _add_run_meld(position, random.Random(seed))
        if after is None:
            continue
        assert after.hand == position.hand and after.table[:2] == position.table
        (meld,) = after.table[2:]
        assert meld.kind is MeldKind.RUN
        lengths.add(len(meld.cards))
        table_cards = [card for m in position.table for card in m.cards if card.suit == meld.cards[0].suit]
        assert any(abs(card.rank - mine.rank) <= 1 for card in table_cards for mine in meld.cards)
    assert lengths == {4, 5, 6}


def test_every_chain_is_legal_melds_within_the_ranks() -> None:
    rules = Rules.named("classic")
    drawn = chains(120)
    assert len(drawn) >= 80
    for melds in drawn:
        for meld in melds:
            cards = [Card.from_index(13 * suit + rank - 1) for suit, rank in meld]
            assert Meld.of(cards, rules).kind in (MeldKind.SET, MeldKind.RUN)


def test_no_chain_passes_its_card_through_three_sets_three_ranks_apart() -> None:
    # three sets of three at r, r+3 and r+6 are one shape up to relabelling, and so is a set, a run of
    # three and the next set: a chain passes its card on LINKS times at most
    for melds in chains(150):
        threes = {meld[0][1] for meld in melds if len(meld) == 3 and len({rank for _, rank in meld}) == 1}
        assert not any({rank + 3, rank + 6} <= threes for rank in threes), melds
    assert LINKS == 3


def test_the_links_vary_the_chains_melds() -> None:
    # runs of many lengths, and no one skeleton (the melds' lengths in order) makes most chains
    drawn = chains(150)
    runs = Counter(len(meld) for melds in drawn for meld in melds if len({rank for _, rank in meld}) > 1)
    assert {3, 4, 5, 6} <= set(runs)
    skeletons = Counter(tuple(sorted(len(meld) for meld in melds)) for melds in drawn)
    assert len(skeletons) >= 8
    assert skeletons.most_common(1)[0][1] < len(drawn) / 3


def test_the_sampler_is_frozen_for_the_letter_published_with_it() -> None:
    rules = Rules.named("classic")
    for seed, (melds, hand) in DRAWN.items():
        figure = sample_links(rules, random.Random(seed), supply(rules), 5, 1)
        assert figure is not None and (figure.melds, figure.extras) == (melds, hand)


def test_a_links_start_is_never_a_figure() -> None:
    rules = Rules.named("classic")
    starts = 0
    for seed in range(80):
        candidate = METHODS["2e"](rules, random.Random(seed))
        if candidate is not None:
            starts += 1
            assert not is_figure(candidate.position.table, rules.top_position)
    assert starts >= 10
    assert len(EXPERT_LINKS) == 3


def test_under_joker_rules_two_e_is_six_e() -> None:
    rules = Rules.named("jokers")
    for seed in range(8):
        assert METHODS["2e"](rules, random.Random(seed)) == METHODS["6e"](rules, random.Random(seed))


@pytest.mark.slow  # an expert searched from scratch
def test_a_two_e_expert_replays_forks_and_tempts() -> None:
    expert = check_pinned_expert(EXPERT_FROM_LINKS)
    assert expert.table == tuple(tuple(meld.split()) for meld in PINNED_TABLE.split(" / "))
    assert expert.hand == tuple(PINNED_HAND.split())
    assert Position.parse(expert.canonical) is not None
