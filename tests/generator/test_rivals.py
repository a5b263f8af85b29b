"""Rivals and blockers (issue 21): Easy and Medium puzzles whose decoys cost a card. The worked
examples of docs/RULES.md, solved and graded; the methods 0a and 0b; the shares a tier's recipe
gives."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from generator import PuzzleId, puzzle_of
from generator._make import _obvious, attempt, dead_twins
from generator._methods import METHODS, RECIPES, RIVALLING
from generator._rivals import sample_rivals
from generator._runs import Plan, Tally, generate
from generator._tables import supply, to_meld
from puzzles import Position, Rules, parse_cards, skill_limited, step_check

ROOT = Path(__file__).resolve().parents[2]

# the worked examples of docs/RULES.md ("Decoys that cost a card")
RIVALS = "classic | 7S 7H 7D 7C | 5H 6H 8H 5C 6C"
BLOCKER = "classic | 4D 5D 6D 7D | 7S 7C 8D"
MEDIUM = "classic | 7S 7H 7D / 4C 5C 6C 7C | 5S 6S 5H 6H 8H 8C"


def test_the_examples_are_the_ones_in_the_docs() -> None:
    text = " ".join(re.sub(r"\s+", " ", (ROOT / "docs" / "RULES.md").read_text()).split())
    for example in (RIVALS, BLOCKER, MEDIUM):
        assert f"`{example}`" in text


@pytest.mark.parametrize(
    ("text", "tier", "chain", "laid", "decoys"),
    [
        (RIVALS, "easy", 1, "5H 6H 8H", "5C 6C"),
        (BLOCKER, "easy", 1, "7S 7C", "8D"),
        (MEDIUM, "medium", 2, "5H 6H 8H", "5S 6S 8C"),
    ],
)
def test_each_example_is_graded_as_the_docs_say(
    text: str, tier: str, chain: int, laid: str, decoys: str
) -> None:
    puzzle = puzzle_of("c0a0", Position.parse(text), time_limit=60)
    assert (puzzle.tier, puzzle.chain, puzzle.laid) == (tier, chain, tuple(laid.split()))
    # every decoy is live: some valid play places it, and every such play places fewer cards
    assert puzzle.live_decoys == len(decoys.split())
    for card in parse_cards(decoys):
        check = step_check(puzzle.position(), [card], time_limit=60)
        assert check.proven and check.reachable is not None and check.reachable < puzzle.max_placed


def test_the_blocker_is_the_obvious_move() -> None:
    assert _obvious(parse_cards("8D")[0], Position.parse(BLOCKER))
    assert _obvious(parse_cards("8C")[0], Position.parse(MEDIUM))


def test_the_medium_example_defeats_the_player_of_skill_one() -> None:
    # it lays the blocker and stops: moving 7C to the set places no card
    run = skill_limited(Position.parse(MEDIUM), 1, time_limit=60)
    assert run.proven and run.placed == 1 and run.steps[0].laid == tuple(parse_cards("8C"))


@pytest.mark.parametrize("depth", [1, 2])
def test_the_figure_keeps_the_rest_of_the_table_off_its_cards(depth: int) -> None:
    rules = Rules.named("classic")
    for seed in range(60):
        stock = supply(rules)
        figure = sample_rivals(rules, random.Random(seed), stock, depth, 1)
        assert figure is not None
        assert figure.lures and len(figure.melds) == depth
        # none of the cards around the figure, and no joker, is left for the rest of the table
        assert set(figure.near) >= set(figure.lures) | {i for meld in figure.melds for i in meld}
        assert 52 in figure.near
        # the cards come from the stock, and the figure's melds are valid
        assert min(stock) >= 0
        for meld in figure.melds:
            to_meld(meld, rules)


def test_the_easy_and_medium_recipes_take_turns_with_rivals() -> None:
    assert "0a" in RECIPES["easy"] and "0b" in RECIPES["medium"]
    assert {"0a", "0b"} <= set(RECIPES[None])
    assert set(METHODS) >= RIVALLING


@pytest.mark.slow  # two dozen attempts
@pytest.mark.parametrize(("method", "tier"), [("0a", "easy"), ("0b", "medium")])
def test_the_methods_make_puzzles_of_their_tier_with_live_decoys(method: str, tier: str) -> None:
    results = [attempt(PuzzleId("classic", method, seed), 60) for seed in range(12)]
    puzzles = [result.puzzle for result in results if result.puzzle is not None]
    assert len(puzzles) >= 4
    tiers = Counter(puzzle.tier for puzzle in puzzles)
    assert tiers[tier] >= 0.8 * len(puzzles)
    assert all(puzzle.live_decoys >= 1 for puzzle in puzzles if puzzle.tier == tier)
    assert all(dead_twins(p.position(), p.laid_cards, 60) == [] for p in puzzles)


# Issue 21 wants 30% of Easy and Medium puzzles to hold a live decoy; bench/generate.py measures it
# on 40 puzzles a tier. A dozen is a small sample: at Medium, where 0b takes few turns so that its
# swaps stay under two in five, the test asks for a quarter.
@pytest.mark.slow  # a dozen puzzles of each tier
@pytest.mark.parametrize(("tier", "share"), [("easy", 0.3), ("medium", 0.25)])
def test_a_tiers_puzzles_hold_live_decoys(tier: str, share: float) -> None:
    plan = Plan("classic", RECIPES[tier], 2, tier, 60)
    puzzles = list(generate(plan, 12, 1, lambda: False, set(), Tally()))
    assert len(puzzles) == 12 and all(puzzle.tier == tier for puzzle in puzzles)
    assert sum(puzzle.live_decoys > 0 for puzzle in puzzles) >= share * len(puzzles)
    # and the rivals' method is among them, with its live decoys
    rivals = [p for p in puzzles if PuzzleId.parse(p.id).method in RIVALLING]
    assert rivals and all(p.live_decoys > 0 for p in rivals)
