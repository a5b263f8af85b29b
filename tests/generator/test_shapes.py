"""Figures, mixed plays and jokers moved: what the bench counts per tier (issue 21)."""

from __future__ import annotations

import random

import pytest

from generator import puzzle_of
from generator._shapes import frees_joker, holds_joker, is_figure, mixes, moves_joker, template_of
from generator._tables import rank_of, sample_junction, suit_of, supply
from puzzles import Position, Rules, analyse


@pytest.mark.parametrize(
    ("table", "figure"),
    [
        ("4S 4H 4D / 5S 5H 5C / 6H 6D 6C", True),  # three sets on consecutive ranks, any suits
        ("4S 4H 4D / 5S 5H 5C / 7H 7D 7C", False),  # a gap
        ("4S 4H 4D / 5S 5H 5C / 3S 4S 5S 6S", False),
        ("4S 5S 6S 7S / 5H 6H 7H / 2D 3D 4D 5D 6D 7D", True),  # three suits share 5 6 7
        ("4S 5S 6S 7S / 5H 6H 7H / 2D 3D 4D 5D 6D", False),  # they share only 5 6
        ("4S 5S 6S / 4S 5S 6S / 4H 5H 6H", False),  # two runs of one suit are not parallel suits
    ],
)
def test_a_figure_is_a_block_of_sets_or_parallel_runs(table: str, figure: bool) -> None:
    assert is_figure(Position.parse(f"classic | {table} | 2C").table) is figure


def test_queen_king_ace_sets_are_consecutive_where_the_ace_is_high() -> None:
    table = "QS QH QD / KS KH KD / AS AH AD"
    assert is_figure(Position.parse(f"italian | {table} | 2C").table, top_position=14)
    assert not is_figure(Position.parse(f"classic | {table} | 2C").table)


def solved(text: str) -> tuple[Position, list[list[str]]]:
    position = Position.parse(text)
    play = analyse(position, time_limit=30).chain.play
    assert play is not None
    return position, [meld.tokens() for meld in play.table]


def test_a_play_mixes_when_it_breaks_a_set_and_a_run() -> None:
    # 7♣ leaves the set for the run 6♣ 7♣ 8♣, and 7♠ leaves its run for the set: both kinds break
    assert mixes(*solved("classic | 7H 7D 7C / 4S 5S 6S 7S | 6C 8C"))
    # a run cut to free its middle card for a set breaks runs only
    assert not mixes(*solved("classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D"))


def test_jokers_held_and_moved() -> None:
    position, solution = solved("jokers | 5H JK 7H | 3S 4S 6H")
    assert holds_joker(position) and moves_joker(position, solution)
    position, solution = solved("jokers | 3S 4S 5S | 9H 9D JK")
    assert holds_joker(position) and moves_joker(position, solution)
    position, solution = solved("classic | 3S 4S 5S | 6S")
    assert not holds_joker(position) and not moves_joker(position, solution)


JUNCTION = (
    "classic | 7S 7H 7D 7C / QS QH QD QC / KS KH KC / 4S 5S 6S / 2H 3H 4H / 5H 6H 7H / 3D 4D 5D / "
    "10D JD QD / 10C JC QC | 2S AH 4H 9H 2C 3C 6C 7C KC"
)


def test_a_wall_that_needs_a_card_of_a_set_of_four_mixes() -> None:
    # the wall of runs 2-7 turns into sets, and the set of sevens gives 7♠ to the set 7♠ 7♥ 7♣
    puzzle = puzzle_of("ci1", Position.parse(JUNCTION), time_limit=60)
    # two declines and no fork: Expert when it was made, Hard since issue 38
    assert (puzzle.tier, puzzle.chain, puzzle.decisions, puzzle.forks) == ("hard", 5, 2, 0)
    assert {"set-of-four", "runs-to-sets"} <= set(puzzle.themes)
    assert mixes(puzzle.position(), puzzle.solution)
    assert not is_figure(puzzle.position().table)


def test_sample_junction_lays_one_hand_card_of_a_wall_in_a_set_of_four() -> None:
    rules = Rules.named("classic")
    figures = [sample_junction(rules, random.Random(seed), supply(rules), 4, 0) for seed in range(30)]
    found = [figure for figure in figures if figure is not None]
    assert found
    for figure in found:
        fours = [meld for meld in figure.melds if len(meld) == 4 and len({rank_of(i) for i in meld}) == 1]
        assert len(fours) == 1 and len({suit_of(i) for i in fours[0]}) == 4
        # the rest is a wall of runs of three, and the hand keeps at least one card
        assert all(len(meld) == 3 for meld in figure.melds if meld is not fours[0]) and figure.extras


def _solution(position: Position) -> tuple[tuple[str, ...], ...]:
    play = analyse(position, time_limit=30).chain.play
    assert play is not None
    return tuple(tuple(meld.tokens()) for meld in play.table)


def test_a_joker_freed_from_its_meld_is_counted_and_a_hand_joker_laid_is_not() -> None:
    # RULES.md: 7♥ takes the joker's place, and the joker goes on to 9♣ 10♣
    freed = Position.parse("jokers | 5H 6H JK / 9S 9H 9D | 7H 9C 9C 10C")
    assert frees_joker(freed, _solution(freed))
    laid = Position.parse("jokers | 3S 4S 5S | JK 7H 7D")
    assert moves_joker(laid, _solution(laid)) and not frees_joker(laid, _solution(laid))


def test_a_template_is_the_same_wherever_the_chain_lies() -> None:
    # RULES.md's cycle, and the same table with suits ♠♥♦♣ to ♥♦♣♠ and ranks up two
    a = Position.parse("classic | 4H 4D 4C / 7S 7D 7C / 4S 5S 6S / 5H 6H 7H | 8S")
    b = Position.parse("classic | 6D 6C 6S / 9H 9C 9S / 6H 7H 8H / 7D 8D 9D | 10H")
    template = template_of(a, _solution(a))
    assert template == ((("run", 3), ("run", 3), ("set", 3), ("set", 3)), (3,))
    assert template_of(b, _solution(b)) == template
    other = Position.parse("classic | 4H 4D 4C / 8S 8D 8C / 4S 5S 6S 7S / 5H 6H 7H 8H | 9S")
    assert template_of(other, _solution(other)) != template
