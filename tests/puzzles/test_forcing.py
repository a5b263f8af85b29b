"""The forcing player against the brute force of `forcing_oracle`, and on the worked examples of
docs/RULES.md.

`ORACLE_EXAMPLES=1000 .venv/bin/pytest tests/puzzles/test_forcing.py` searches harder.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from puzzles import (
    PRESETS,
    Card,
    Decision,
    Meld,
    MeldKind,
    Position,
    Rules,
    decisions_of,
    forcing_player,
    maximum,
    parse_cards,
)
from puzzles._forcing import _Board, _laid_along
from puzzles._solver import unsettled
from tests.puzzles import oracle
from tests.puzzles.forcing_oracle import Board, fewest_decisions, fewest_forks, is_decline, settled_cards
from tests.puzzles.strategies import blocks, positions

EXAMPLES = int(os.environ.get("ORACLE_EXAMPLES", "80"))
MOST = 3
"""Decisions the brute force tries up to: sets of that many decisions are all it can afford."""

ALL_PRESETS = list(PRESETS.values())
each_preset = pytest.mark.parametrize("rules", ALL_PRESETS, ids=[rules.name for rules in ALL_PRESETS])
property_test = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None)

SWEEP = Position.parse(
    "classic | 4S 4H 4C / 5S 5H 5D / 6S 6H 6D / 7S 7D 7C / 8S 8D 8C / 9S 9H 9C / 10S 10H 10C / JS JH JD"
    " | 4S 10S 5D QD KD AC 2C 3C 9C"
)
TRAP = Position.parse(
    "classic | 4S 4H 4D / 5S 5H 5D / 6S 6H 6D / 7S 7H 7D / 8S 8H 8D / 10S 10H 10D 10C / KS KD KC"
    " / JS QS KS / 2C 3C 4C 5C 6C / JC QC KC | 9S 10S 3H 10H 6C"
)


def solved_maximum(position: Position) -> int:
    """The solver's maximum, for positions too big for the oracle: proved, with time to spare."""
    best = maximum(position, time_limit=60)
    assert best.proven
    return best.placed


def line_reaches_a_maximal_play(position: Position, maximum: int, line: tuple[Decision, ...]) -> bool:
    """Whether the brute force, given these decisions, settles every card into a maximal play."""
    board = Board(position, maximum)
    decided = {d.card: (d.sets, d.runs, d.kept) for d in line}
    declined = {
        card
        for card, value in decided.items()
        if card in board.obvious and value[board.obvious[card]] <= board.lying[card][board.obvious[card]]
    }
    domains = board.board_after(declined, decided)
    return domains is not None and board.done(domains)


def check_against_brute_force(position: Position) -> None:
    note(f"position: {position}")
    maximum = oracle.best_value(position)
    if maximum == 0:
        return
    found = forcing_player(position, maximum)
    expected = fewest_decisions(position, maximum, MOST)
    note(f"maximum {maximum}: {found}, brute force {expected}")
    assert found.proven
    if expected is None:
        assert found.decisions is not None and found.decisions > MOST
    else:
        assert found.decisions == expected
    assert len(found.line) == found.decisions == found.at_least
    assert line_reaches_a_maximal_play(position, maximum, found.line)
    if found.decisions is not None and found.decisions <= MOST:
        settled = settled_cards(position)
        forks = fewest_forks(position, maximum, found.decisions, settled)
        note(f"brute force forks {forks}, settled {sorted(map(str, settled))}")
        assert found.settled is not False
        assert (found.forks, found.forks_at_least) == (forks, forks)
        board = Board(position, maximum)
        kinds = [kind_of(board, settled, d) for d in found.line]
        assert [d.kind for d in found.line] == kinds
        assert kinds.count("fork") == found.forks
        # counted as before issue 38: every decision that is not a decline is a fork
        before = forcing_player(position, maximum, settled=False)
        assert before.decisions == found.decisions
        assert before.forks == fewest_forks(position, maximum, found.decisions)


def kind_of(board: Board, settled: set[Card], decision: Decision) -> str:
    value = (decision.sets, decision.runs, decision.kept)
    if is_decline(board, decision.card, value):
        return "decline"
    return "fork" if decision.card in settled else "choice"


@each_preset
@property_test
@given(data=st.data())
def test_decisions_match_the_brute_force_on_blocks(rules: Rules, data: st.DataObject) -> None:
    check_against_brute_force(data.draw(blocks(rules), label="position"))


@each_preset
@property_test
@given(data=st.data())
def test_decisions_match_the_brute_force_on_small_tables(rules: Rules, data: st.DataObject) -> None:
    check_against_brute_force(data.draw(positions(rules, max_table_cards=12, max_hand=4), label="position"))


@each_preset
@property_test
@given(data=st.data())
def test_the_cards_settled_match_the_brute_force(rules: Rules, data: st.DataObject) -> None:
    """`unsettled` (one disjunction a solve) against every maximal play laid out every way."""
    position = data.draw(positions(rules, max_table_cards=12, max_hand=4), label="position")
    maximum = oracle.best_value(position)
    if maximum == 0:
        return
    cards = {*position.table_counts(), *position.hand_counts()}
    found, proved = unsettled(position, maximum, dict.fromkeys(cards))
    note(f"unsettled {sorted(map(str, found))}")
    assert proved
    assert cards - found == settled_cards(position)


def check_bounds_against_brute_force(position: Position, node_limit: int) -> None:
    """A search cut short proves only lower bounds, and they hold: never above the brute force's."""
    note(f"position: {position}")
    maximum = oracle.best_value(position)
    if maximum == 0:
        return
    expected = fewest_decisions(position, maximum, MOST)
    if expected is None:
        return
    forks = fewest_forks(position, maximum, expected, settled_cards(position))
    found = forcing_player(position, maximum, node_limit=node_limit)
    note(f"maximum {maximum}: {found}, brute force {expected} decisions, {forks} forks")
    assert found.at_least <= expected and found.forks_at_least <= (forks or 0)
    if found.decisions is not None:
        assert found.decisions == expected
    if found.forks is not None:
        assert found.forks == forks


@each_preset
@property_test
@given(data=st.data(), node_limit=st.integers(1, 6))
def test_bounds_of_a_search_cut_short_match_the_brute_force(
    rules: Rules, data: st.DataObject, node_limit: int
) -> None:
    check_bounds_against_brute_force(
        data.draw(positions(rules, max_table_cards=12, max_hand=4), label="position"), node_limit
    )


@pytest.mark.parametrize(
    ("text", "decisions", "forks"),
    [
        ("classic | 10H 10D 10S / JH JD JS / QH QD QC | 9S QD QS", 0, 0),
        ("classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D", 0, 0),
        (str(SWEEP), 1, 1),
        pytest.param(str(TRAP), 2, 0, marks=pytest.mark.slow),  # seconds of search
        ("classic | 7S 7H 7D / 4C 5C 6C 7C | 5S 6S 5H 6H 8H 8C", 2, 1),
        ("jokers | 3S 4S 5S | JK 7H 7D", 0, 0),
        ("jokers | 3S 4S 5S / 7H 7D 7C | JK 9D", 1, 0),
        ("classic | 7S 7H 7D / 8C 9C 10C | 7C", 1, 0),
        ("jokers | 5H 6H JK / 9S 9H 9D | 7H 9C 9C 10C", 0, 0),
        ("german-jokers | 5H 6H JK / 9S 9H 9D | 7H 2C", 0, 0),
    ],
    ids=[
        "lonely-queen",
        "cut-a-run",
        "sweep",
        "trap",
        "decline-then-fork",
        "joker-pulled",
        "joker-laid",
        "set-or-run",
        "joker-freed",
        "joker-kept",
    ],
)
def test_the_worked_examples_of_the_rules(text: str, decisions: int, forks: int) -> None:
    """The counts docs/RULES.md works out by hand, decisions and forks."""
    position = Position.parse(text)
    most = solved_maximum(position)
    found = forcing_player(position, most)
    assert (found.decisions, found.forks, found.proven) == (decisions, forks, True)
    assert found.declines == decisions - forks
    assert [d.kind for d in found.line].count("fork") == forks
    assert line_reaches_a_maximal_play(position, most, found.line)


def test_a_card_that_wins_in_a_set_or_a_run_is_a_free_choice() -> None:
    """7♣ fits the sevens and 8♣ 9♣ 10♣ alike, so laying it is a decision, but both homes place
    the maximum: a free choice, no fork (RULES.md). Counted as before issue 38, it was a fork."""
    position = Position.parse("classic | 7S 7H 7D / 8C 9C 10C | 7C")
    found = forcing_player(position, 1)
    assert (found.decisions, found.forks, found.settled) == (1, 0, True)
    assert [d.kind for d in found.line] == ["choice"]
    assert found.free == (Card.parse("7C"),)
    assert settled_cards(position) == {Card.parse(c) for c in ("7S", "7H", "7D", "8C", "9C", "10C")}
    assert forcing_player(position, 1, settled=False).forks == 1


def test_a_card_whose_wrong_home_fails_later_is_a_fork() -> None:
    """5♥ and 5♠ could each take a seven from the set; only 5♥'s run places three: a real fork,
    on a card every maximal play ends alike."""
    position = Position.parse("classic | 7S 7H 7D / 4C 5C 6C 7C | 5S 6S 5H 6H 8H 8C")
    found = forcing_player(position, 3)
    assert (found.decisions, found.forks, found.settled) == (2, 1, True)
    forks = [d for d in found.line if d.kind == "fork"]
    assert [str(d.card) for d in forks] == ["5H"]
    assert Card.parse("5H") in settled_cards(position)


def test_cards_not_proved_settled_count_no_fork() -> None:
    """When the solver cannot prove which cards are settled, the count is a lower bound: the cards
    left unproved are free choices, `forks` is None and `forks_at_least` never above the truth."""
    position = Position.parse("classic | 7S 7H 7D / 4C 5C 6C 7C | 5S 6S 5H 6H 8H 8C")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("puzzles._solver.FORK_WORK_LIMIT", 0.0)
        patch.setattr("puzzles._forcing.unsettled", _unproved)
        found = forcing_player(position, 3)
    assert (found.decisions, found.forks, found.forks_at_least, found.settled) == (2, None, 0, False)
    assert "5H" in {str(card) for card in found.free}


def _unproved(position: Position, maximum: int, ends: object) -> tuple[frozenset[Card], bool]:
    """`unsettled` when every solve stops at its limit: nothing proved settled."""
    assert isinstance(ends, dict)
    return frozenset(ends), False


def test_each_decision_says_its_kind() -> None:
    """8♣ fits after 7♣ as the table lies: keeping it is a decline; 5♥ to a run is a fork."""
    position = Position.parse("classic | 7S 7H 7D / 4C 5C 6C 7C | 5S 6S 5H 6H 8H 8C")
    found = forcing_player(position, 3)
    assert [(str(d), d.kind) for d in found.line] == [("8C kept", "decline"), ("5H in a run", "fork")]


def test_the_line_agrees_with_the_play_it_is_shown_with() -> None:
    """The set of four gives one seven, to the hearts or to the clubs: two maximal plays, and a
    line of one decision (one card to a run) reaches each: a free choice, since either wins. Shown
    either play, the line names values that play has."""
    position = Position.parse("classic | 7S 7H 7D 7C / 4D 5D 6D | 5H 6H 5C 6C")
    most = solved_maximum(position)
    for shown in ("7S 7D 7C / 4D 5D 6D / 5H 6H 7H", "7S 7H 7D / 4D 5D 6D / 5C 6C 7C"):
        table = [Meld.of(parse_cards(meld.split()), position.rules) for meld in shown.split(" / ")]
        found = forcing_player(position, most, shown=table)
        assert (found.decisions, found.forks) == (1, 0) and not found.laid_along
        assert [d.kind for d in found.line] == ["choice"]
        assert [(d.sets, d.runs, d.kept) for d in found.line] == [
            ends_in(position, table)[d.card] for d in found.line
        ]
        assert line_reaches_a_maximal_play(position, most, found.line)


def ends_in(position: Position, table: Sequence[Meld]) -> dict[Card, tuple[int, int, int]]:
    """Each card's copies in sets, in runs and kept in the hand when the turn ends with `table`."""
    ends = {card: (0, 0, 0) for card in [*position.table_counts(), *position.hand_counts()]}
    for meld in table:
        for card in meld.cards:
            sets, runs, kept = ends[card]
            ends[card] = (sets + 1, runs, kept) if meld.kind is MeldKind.SET else (sets, runs + 1, kept)
    for card, n in (position.table_counts() + position.hand_counts()).items():
        sets, runs, _ = ends[card]
        ends[card] = (sets, runs, n - sets - runs)
    return ends


@each_preset
@property_test
@given(data=st.data())
def test_a_line_laid_along_a_play_agrees_with_it_and_drops_no_decision_it_could(
    rules: Rules, data: st.DataObject
) -> None:
    """The line a play is shown with where the search for one runs out of its budget (a joker
    position's, `jq34dh9` below): every decided card ends as that play has it, the line reaches a
    maximal play, and without any one of its decisions it reaches none (the brute force's board)."""
    position = data.draw(positions(rules, max_table_cards=12, max_hand=4), label="position")
    most = oracle.best_value(position)
    if most == 0:
        return
    outcome = data.draw(st.sampled_from(oracle.best_outcomes(position)), label="outcome")
    tables = oracle.final_tables(outcome.final, rules)
    table = [Meld.of(meld, rules) for meld in data.draw(st.sampled_from(tables), label="table")]
    board = _Board(position, most)
    target = board.values_of(position, table)
    assert target is not None
    line = _laid_along(board, target)
    assert line is not None
    decisions = board.decisions(line)
    note(f"shown {table}: {decisions}")
    ends = ends_in(position, table)
    assert [(d.sets, d.runs, d.kept) for d in decisions] == [ends[d.card] for d in decisions]
    assert line_reaches_a_maximal_play(position, most, decisions)
    for dropped in range(len(decisions)):
        shorter = decisions[:dropped] + decisions[dropped + 1 :]
        assert not line_reaches_a_maximal_play(position, most, shorter)


def test_a_joker_positions_line_agrees_with_its_solution_where_the_search_runs_out() -> None:
    """Of as few decisions (3) the search finds only lines that end the joker in two runs, and the
    puzzle's solution ends it in a set and a run; the search for a longer line that agrees runs
    out of the joker positions' budget, so the line is laid along the solution."""
    position = Position.parse(
        "jokers | 10S 10H 10D / QH QD QC / AH 2H 3H / 3D 4D 5D / 9D 10D JD QD KD JK / 2C 3C 4C"
        " | AS 2S 4S 5S 5H AD 7D 7D JK"
    )
    solution = (
        "AS AH AD / 2S 2H 2C / 3H 3D 3C JK / 4S 4D 4C / 5S 5H 5D / 10S 10H 10D / QH QD QC"
        " / 7D JK 9D 10D JD QD KD"
    )
    table = [Meld.of(parse_cards(meld.split()), position.rules) for meld in solution.split(" / ")]
    most = maximum(position).placed
    found = decisions_of(position, most, shown=table)
    assert found.decisions == 3 and found.agrees and found.laid_along
    ends = ends_in(position, table)
    assert [(d.sets, d.runs, d.kept) for d in found.line] == [ends[d.card] for d in found.line]
    assert ends[Card.parse("JK")] == (1, 1, 0) and Card.parse("JK") in [d.card for d in found.line]
    assert line_reaches_a_maximal_play(position, most, found.line)


@pytest.mark.slow  # the forcing player's search on two deep tables
def test_the_sweep_is_fewer_decisions_than_the_trap() -> None:
    """A forced sweep of eight breaks is one idea; the trap's two obvious moves must be declined."""
    sweep = forcing_player(SWEEP, solved_maximum(SWEEP))
    trap = forcing_player(TRAP, solved_maximum(TRAP))
    assert sweep.decisions is not None and trap.decisions is not None
    assert sweep.decisions < trap.decisions
    assert fewest_decisions(SWEEP, solved_maximum(SWEEP), sweep.decisions) == sweep.decisions


def test_a_search_cut_short_proves_only_a_lower_bound() -> None:
    found = forcing_player(TRAP, solved_maximum(TRAP), node_limit=3)
    assert (found.decisions, found.proven) == (None, False)
    assert 1 <= found.at_least <= 2
    assert found.line == ()


def test_jokers_are_modelled() -> None:
    position = Position.parse("jokers | 3S JK 5S / 7H 7D 7C | 6S 7S")
    found = forcing_player(position, 2)
    assert found.modelled and found.proven and found.decisions == 0


def test_a_hand_joker_with_two_kinds_of_home_is_a_decision() -> None:
    """Laying a joker is never obvious: where the goal needs it and both a set and a run could take
    it, it takes a decision; with only a run it is forced."""
    both = Position.parse("jokers | 3S 4S 5S / 7H 7D 7C | JK KD")
    runs = Position.parse("jokers | 3S 4S 5S / 7H 8H 9H | JK KD")
    assert forcing_player(both, 1).decisions == 1
    assert forcing_player(runs, 1).decisions == 0


def test_a_maximum_no_play_reaches_has_no_line() -> None:
    position = Position.parse("classic | 3S 4S 5S | 6S KD")
    found = forcing_player(position, 2)
    assert found.decisions is None and found.line == ()


def test_a_count_is_kept_for_the_next_ask() -> None:
    """A count depends on the position, the maximum and the play shown alone (a limit of decisions
    tried, not the clock): the generator's second ask is answered from the first."""
    most = solved_maximum(TRAP)
    first = decisions_of(TRAP, most)
    assert decisions_of(TRAP, most) is first
    assert replace(first, ms=0) == replace(forcing_player(TRAP, most), ms=0)
    assert decisions_of(TRAP, most, shown=()) is not first
