"""Methods 2m and 1m: Masters climbed from Experts (`generator._ladder`, issue 38 item 4)."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from generator import PuzzleId
from generator._grading import TIERS, tier_of
from generator._ladder import (
    CLIMBS,
    FORK_CAP,
    LINK_KINDS,
    LONG_START,
    _floor,
    _link,
    _linked,
    ladder,
    long_ladder,
)
from generator._make import attempt, forks_enough, judged
from generator._methods import FINISHED_SEARCHES, LADDERS, METHODS, SEARCHES
from generator._search import STYLES
from generator._shapes import is_figure
from puzzles import Meld, Position, Rules, analyse, parse_cards
from tests.generator.masters import check_pinned_master

MASTER = "c2m6v80k"
"""A 2m Master (seed 11): an Expert's chain climbed to Master, two forks kept."""
LONG_MASTER = "c1m6v8na"
"""A 1m Master (seed 11): 2m's ladder from a start of chain 5, both its forks real."""


def test_two_m_is_a_ladder_to_master_finished_as_four_m_and_nine_m() -> None:
    assert SEARCHES["2m"] == "master"
    assert "2m" in LADDERS
    # a trap for the decline it may lack, then pruning, as 4m and 9m
    assert "2m" in FINISHED_SEARCHES
    assert STYLES["2m"].prune and STYLES["2m"].prune_later


def test_one_m_is_two_m_searched_only_from_long_starts() -> None:
    assert SEARCHES["1m"] == "master"
    assert CLIMBS["1m"] is long_ladder and CLIMBS["2m"] is ladder
    assert set(CLIMBS) == LADDERS
    assert "1m" in FINISHED_SEARCHES
    assert STYLES["1m"] == STYLES["2m"]
    # the same starts as 2m; the IDs differ by the letter, so 2m's replay
    assert METHODS["1m"] is METHODS["2m"]


def test_one_m_gives_up_a_start_shorter_than_a_chain_of_five_before_any_search() -> None:
    start = analyse(CHAIN, time_limit=30)
    assert 1 <= (start.chain.length or 0) < LONG_START
    found = long_ladder("c1m6v7zz", start, "master", time.perf_counter() + 30)
    # the start as it came, uncounted: no solver question asked
    assert found is not None and found.analysis is start and found.forcing is None


def test_two_m_starts_from_experts_starts_never_a_figure() -> None:
    rules = Rules.named("classic")
    made = [METHODS["2m"](rules, random.Random(seed)) for seed in range(60)]
    assert sum(candidate is not None for candidate in made) >= 10
    for candidate in made:
        if candidate is not None:
            assert not is_figure(candidate.position.table, rules.top_position)


def _position(table: str, hand: str) -> Position:
    rules = Rules.named("classic")
    melds = tuple(Meld.parse(meld, rules) for meld in table.split(" / "))
    return Position(rules, melds, tuple(parse_cards(hand)))


# RULES.md's worked example 2: 9S leaves for a run with 10S JS, QD QS make a set with QC
CHAIN = _position("10H 10D 10S / JH JD JS / QH QD QC", "9S QD QS")


def test_a_link_moves_a_hand_card_the_chain_lays_into_the_table() -> None:
    analysis = analyse(CHAIN, time_limit=30)
    linked = set(_linked(analysis))
    assert linked and linked <= set(analysis.best.play.laid)
    rules = CHAIN.rules
    seen = Counter[str]()
    for seed in range(200):
        rng = random.Random(seed)
        changed = _link(analysis, rng)
        if changed is None:
            continue
        moved = Counter(CHAIN.hand) - Counter(changed.hand)
        # one linked card leaves the hand, and lies on the table now
        assert sum(moved.values()) == 1
        (card,) = moved
        assert card in linked
        table_before = Counter(c for meld in CHAIN.table for c in meld.cards)
        table_after = Counter(c for meld in changed.table for c in meld.cards)
        assert table_after[card] == table_before[card] + 1
        # no card beyond the decks' copies, and every meld valid (Meld.of raises otherwise)
        every = table_after + Counter(changed.hand)
        assert all(n <= rules.copies(c) for c, n in every.items())
        for meld in changed.table:
            assert Meld.of(meld.cards, rules) == meld
        # a new meld of three comes with the hand card that holds its other two together
        grew = len(changed.table) - len(CHAIN.table)
        seen["new meld" if grew else "onto"] += 1
        assert len(changed.hand) in (len(CHAIN.hand) - 1, len(CHAIN.hand))
    assert seen["new meld"] >= 10
    assert set(LINK_KINDS) == {"set", "set of four", "run", "run of four", "onto"}


def _best_score(chain: int) -> tuple[int, ...]:
    """The highest score (`generator._ladder._score`) a position of this chain can have with its
    forks at the cap: the tier of its length, honest, every decision counted."""
    return (FORK_CAP, TIERS.index(tier_of(chain) or "easy"), min(chain, 6), 1, 5, min(chain, 9))


@pytest.mark.parametrize("reached", range(-1, len(TIERS)))
@pytest.mark.parametrize("chain", range(0, 10))
def test_the_climbs_floor_is_the_shortest_chain_that_can_keep_up(reached: int, chain: int) -> None:
    # the climb skips the forcing count of a change whose chain is under the floor: none of them
    # could score as high, and the floor's own chain could
    score = (FORK_CAP, reached, min(chain, 6), 1, 2, min(chain, 9))
    floor = _floor(score)
    assert all(_best_score(shorter) < score for shorter in range(1, floor))
    assert _best_score(max(floor, 1)) >= score or floor == 0
    # below the cap a change may add a fork, whatever its chain
    assert _floor((FORK_CAP - 1, reached, min(chain, 6), 1, 2, min(chain, 9))) == 0


@pytest.mark.slow  # a master searched from scratch
def test_a_two_m_master_forks_twice_and_replays_from_its_id() -> None:
    check_pinned_master(MASTER)


@pytest.mark.slow  # a master searched from scratch
def test_a_one_m_master_forks_twice_and_replays_from_its_id() -> None:
    check_pinned_master(LONG_MASTER)
    # neither fork is a card laid in its one home: a run keeps it (`generator._make.forks_enough`)
    result = judged(attempt(PuzzleId.parse(LONG_MASTER)))
    assert result.real_forks is not None and result.real_forks >= 2 and forks_enough(result)
