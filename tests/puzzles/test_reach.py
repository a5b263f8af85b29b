"""The hand cards' reach (`puzzles._reach`), the chain length's lower bound, against the brute
force: a card's reach is the fewest melds that any play placing it breaks, and a reach above k
means that no best play splits into rearrangements of at most k breaks."""

from __future__ import annotations

from hypothesis import assume, given, note, settings
from hypothesis import strategies as st

from puzzles import Card, Position, Rules
from puzzles._reach import Reach
from tests.puzzles import oracle
from tests.puzzles.strategies import joker_runs, positions, two_spots
from tests.puzzles.test_oracle import EXAMPLES, TIME_LIMIT, each_preset, joker_presets

# each example is the brute force's chain length and every play's breaks: a quarter of the
# oracle's count keeps the file near the others' time
property_test = settings(max_examples=max(EXAMPLES // 4, 2), deadline=None, derandomize=True, database=None)
# jokers moving through runs multiply the brute force's work
joker_test = settings(max_examples=max(EXAMPLES // 8, 2), deadline=None, derandomize=True, database=None)
BOUNDS = range(4)


def oracle_reach(position: Position, card: Card) -> int:
    """The fewest original melds that a play placing `card` breaks, from RULES.md's definitions."""
    table = [meld.cards for meld in position.table]
    return min(
        len(table) - oracle.kept_melds(table, final_table)
        for outcome in oracle.outcomes(position)
        if card in outcome.laid
        for final_table in oracle.final_tables(outcome.final, position.rules)
    )


def assert_reach_matches_the_oracle(position: Position, drawn: bool = True) -> None:
    applies = Reach.applies(position, oracle.best_value(position))
    assert applies is (bool(position.hand) and oracle.best_value(position) == len(position.hand))
    if drawn:
        note(f"position: {position}")
        assume(applies)
    assert applies
    reach = max(oracle_reach(position, card) for card in set(position.hand))
    length = oracle.chain_length(position)
    # the bound the chain length relies on
    assert reach <= length
    asked = Reach(position)
    for k in BOUNDS:
        assert asked.exceeds(k, TIME_LIMIT) is (reach > k), k


@each_preset
@property_test
@given(data=st.data())
def test_reach_matches_the_oracle(rules: Rules, data: st.DataObject) -> None:
    assert_reach_matches_the_oracle(data.draw(positions(rules), label="position"))


@each_preset
@property_test
@given(data=st.data())
def test_reach_matches_the_oracle_on_two_spots(rules: Rules, data: st.DataObject) -> None:
    assert_reach_matches_the_oracle(data.draw(two_spots(rules), label="position"))


@joker_presets
@joker_test
@given(data=st.data())
def test_reach_matches_the_oracle_when_jokers_move(rules: Rules, data: st.DataObject) -> None:
    assert_reach_matches_the_oracle(data.draw(joker_runs(rules), label="position"))


KNOWN = [
    # RULES.md's worked examples: 9S needs the three sets broken, A♣ needs all three
    ("italian | KH KD KC / QH QD QC / JH JD JC | AC", 3),
    ("classic | 10H 10D 10S / JH JD JS / QH QD QC | 9S QD QS", 3),
    # two independent pairs: depth 4, each card's reach 2 at most, chain length 2
    ("classic | 4H 4D 4C / 5H 5D 5C / 9H 9D 9C / 10H 10D 10C | 6H 6D 3C JH JD 8C", 2),
    # the joker comes from either run, or the 7s stay a set
    ("jokers | 4H 5H JK / 7C 7D 7S | 6H 7H 7C", 1),
]


def test_reach_on_known_positions() -> None:
    for text, reach in KNOWN:
        position = Position.parse(text)
        assert max(oracle_reach(position, card) for card in set(position.hand)) == reach
        assert_reach_matches_the_oracle(position, drawn=False)
