"""Steps from a table to a play's final table: worked examples, jokers, boards mid-turn, and the
property that following the steps yields the final table, on the solver's own plays."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, note, settings

from puzzles import (
    JOKER,
    PRESETS,
    Card,
    Meld,
    MeldKind,
    Objective,
    Play,
    Position,
    Rules,
    Step,
    StepKind,
    analyse,
    answer_json,
    apply_steps,
    chain_depth,
    lay_apart,
    maximum,
    meld_problem,
    most_invalid,
    parse_cards,
    plan_steps,
    steps_between,
    uniqueness,
)
from tests.puzzles.strategies import positions

TIME_LIMIT = 10.0
each_preset = pytest.mark.parametrize("rules", PRESETS.values(), ids=list(PRESETS))
EXAMPLES = int(os.environ.get("STEPS_EXAMPLES", "100"))
"""`STEPS_EXAMPLES=2000` searches harder than the default."""
property_test = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None)


def play_of(position: Position, melds: Sequence[str], placed: str, freed: str = "") -> Play:
    table = tuple(Meld.parse(meld, position.rules) for meld in melds)
    return Play(table, parse_cards(placed), parse_cards(freed))


def meld_multisets(table: Sequence[Sequence[Card]]) -> Counter[frozenset[tuple[Card, int]]]:
    """A table as a multiset of melds, each a multiset of cards: order does not matter."""
    return Counter(frozenset(Counter(meld).items()) for meld in table if meld)


def follow(position: Position, play: Play, broken: tuple[int, ...] = ()) -> tuple[Step, ...]:
    """Plan the steps and check that following them gives the play's final table."""
    steps = plan_steps(position, play, broken)
    start = [meld.cards for meld in position.table]
    after = apply_steps(start, steps)
    # the final table with the runs the play does not touch laid apart: the same cards, all valid
    shown = lay_apart(start, [meld.cards for meld in play.table], position.rules)
    assert Counter(card for meld in shown for card in meld) == Counter(
        card for meld in play.table for card in meld.cards
    )
    assert all(meld_problem(meld, position.rules) is None for meld in shown)
    assert meld_multisets(after) == meld_multisets(shown)
    return steps


def texts(steps: Sequence[Step]) -> list[str]:
    return [str(step) for step in steps]


def test_cutting_a_long_run_reads_as_a_person_would_do_it() -> None:
    position = Position.parse("classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D")
    play = play_of(position, ["6H 6D 6C", "3C 4C 5C", "7C 8C 9C"], "6H 6D")
    assert texts(follow(position, play)) == [
        "lay 6♥ 6♦ from the hand as a new meld 2",
        "break meld 1 (3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣)",
        "move 6♣ from meld 1 to meld 2",
        "move 7♣ 8♣ 9♣ from meld 1 to a new meld 3",
    ]


def test_extensions_alone_break_nothing() -> None:
    position = Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S 7S KD")
    play = play_of(position, ["7S 7H 7D 7C", "3S 4S 5S 6S"], "6S 7S")
    steps = follow(position, play)
    assert texts(steps) == ["lay 6♠ from the hand on meld 1", "lay 7♠ from the hand on meld 2"]
    assert [step.kind for step in steps] == [StepKind.LAY, StepKind.LAY]


def test_runs_a_play_joins_without_need_lie_as_they_lay() -> None:
    position = Position.parse("classic | 3S 4S 5S / 6S 7S 8S | 9S")
    play = play_of(position, ["3S 4S 5S 6S 7S 8S 9S"], "9S")
    assert texts(follow(position, play)) == ["lay 9♠ from the hand on meld 2"]


def test_untouched_runs_beside_a_rearrangement_are_not_joined() -> None:
    # the solver lays 2♥ 3♥ 4♥ and 5♥ 6♥ 7♥ as one run; a person leaves them lying
    position = Position.parse("classic | 2H 3H 4H / 5H 6H 7H / 3C 4C 5C 6C 7C 8C 9C | 6C")
    play = play_of(position, ["2H 3H 4H 5H 6H 7H", "3C 4C 5C 6C", "6C 7C 8C 9C"], "6C")
    steps = follow(position, play)
    assert [step.source for step in steps if step.kind is not StepKind.LAY] == [2, 2]
    assert not any(step.kind is StepKind.MOVE and step.source in (0, 1) for step in steps)


def test_a_joined_run_is_cut_only_where_start_melds_lie_whole() -> None:
    rules = PRESETS["classic"]
    start = [parse_cards("3S 4S 5S"), parse_cards("7S 8S 9S"), parse_cards("JS QS KS")]
    # 6♠ and 10♠ from the hand join all three; 3-5♠ and J-K♠ can lie as they lay, 7-9♠ takes both
    final = [parse_cards("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")]
    assert lay_apart(start, final, rules) == (
        parse_cards("3S 4S 5S"),
        parse_cards("6S 7S 8S 9S 10S"),
        parse_cards("JS QS KS"),
    )
    # an extended start meld is never cut through, and a run that matches no start meld stays whole
    extended = [parse_cards("5S 6S 7S 8S 9S 10S")]
    assert lay_apart(start[1:2], extended, rules) == (parse_cards("5S 6S 7S 8S 9S 10S"),)
    assert lay_apart([parse_cards("4S 5S 6S 7S")], extended, rules) == (parse_cards("5S 6S 7S 8S 9S 10S"),)
    # a set is never laid apart, and a meld lying as it lay stays as it is
    assert lay_apart(start, start, rules) == tuple(start)


def test_the_solve_answer_lays_untouched_runs_apart() -> None:
    position = Position.parse("classic | 2H 3H 4H / 5H 6H 7H / 3C 4C 5C 6C 7C 8C 9C | 6C")
    answer = answer_json(analyse(position, time_limit=TIME_LIMIT))
    assert ["2H", "3H", "4H"] in answer["table"] and ["5H", "6H", "7H"] in answer["table"]
    assert sorted(step["source"] for step in answer["steps"] if step["kind"] == "move") == [2]


def test_a_final_meld_stays_where_most_of_its_cards_are() -> None:
    # the queens' set keeps Q♦ Q♣ in place; the hand's Q♦ goes to the diamond run instead
    position = Position.parse("classic | 10H 10D 10S / JH JD JS / QH QD QC | 9S QD QS")
    play = play_of(position, ["QS QD QC", "9S 10S JS", "10H JH QH", "10D JD QD"], "9S QD QS")
    steps = follow(position, play)
    moved = [card for step in steps if step.kind is StepKind.MOVE for card in step.cards]
    assert Card.parse("QC") not in moved and Card.parse("QD") not in moved
    assert "lay Q♠ from the hand on meld 3" in texts(steps)
    assert sum(len(step.cards) for step in steps if step.kind is StepKind.MOVE) == 5


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("italian | KH KD KC / QH QD QC / JH JD JC | AC", 3),
        ("classic | 10H 10D 10S / JH JD JS / QH QD QC | 9S QD QS", 3),
        ("classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D", 1),
    ],
)
def test_worked_examples_break_as_many_melds_as_their_chain_depth(text: str, depth: int) -> None:
    position = Position.parse(text)
    result = chain_depth(position, maximum(position, time_limit=TIME_LIMIT), TIME_LIMIT)
    assert result.play is not None and result.depth == depth
    steps = follow(position, result.play)
    breaks = [step.source for step in steps if step.kind is StepKind.BREAK]
    assert sorted(breaks) == list(result.broken)


@pytest.mark.parametrize(
    "text",
    [
        "jokers | JK 4H 5H 6H 7H / 8S 7S 6S / 6H 7H 5H / JK 2H 3H | 4S",
        "jokers | 6S 7S 8S / 5H 6H 7H / JK 4H 5H 6H 7H / JK 2H 3H | 4S",
        "jokers | JK 2H 3H / 6H 7H 5H / 8S 7S 6S / JK 4H 5H 6H 7H | 4S",
    ],
)
def test_of_two_jokers_the_steps_break_the_meld_the_answer_names(text: str) -> None:
    # the final run 2H..7H JK keeps either joker's meld whole: the steps break the one `broken` says,
    # in whatever order the melds come
    position = Position.parse(text)
    analysis = analyse(position, time_limit=TIME_LIMIT)
    assert analysis.depth.depth == 1
    steps = follow(position, analysis.shown, analysis.depth.broken)
    assert sorted(step.source for step in steps if step.kind is StepKind.BREAK) == list(analysis.depth.broken)
    answer = answer_json(analysis)
    assert sorted(step["source"] for step in answer["steps"] if step["kind"] == "break") == answer["broken"]


def test_the_italian_example_moves_every_card_once() -> None:
    position = Position.parse("italian | KH KD KC / QH QD QC / JH JD JC | AC")
    play = play_of(position, ["JH QH KH", "JD QD KD", "JC QC KC AC"], "AC")
    steps = follow(position, play)
    moved = [card for step in steps if step.kind is StepKind.MOVE for card in step.cards]
    assert len(moved) == 9 and len(set(moved)) == 9
    # each run keeps one card of each set: the ace starts the clubs' run as a new meld, not on the
    # jacks' meld ("lay A♣ on J♥ J♦ J♣"), and each run is built as a new meld
    assert texts(steps)[0] == "lay A♣ from the hand as a new meld 4"
    old = plan_steps(position, play, turned_new=False)
    assert texts(old)[0] == "lay A♣ from the hand on meld 3"
    start = [meld.cards for meld in position.table]
    assert most_invalid(start, steps, position.rules) == most_invalid(start, old, position.rules) == 3


TURNED = [
    (
        "classic | 2S 2D 2C / 4H 4D 4C / 8S 8H 8D / 10H 10D 10C / 3S 4S 5S 6S 7S 8S / 5H 6H 7H"
        " / 3D 4D 5D 6D | 9S 10S 6H 7D 3C QC",
        "10H 10D 10C / 2S 3S 4S 5S 6S 7S 8S / 8S 9S 10S / 4H 5H 6H / 6H 7H 8H / 2D 3D 4D"
        " / 4D 5D 6D 7D 8D / 2C 3C 4C",
        "9S 10S 6H 7D 3C",
    ),
    (
        "classic | 10H 10D 10C / JH JD JC / 9S 10S JS / 7H 8H 9H 10H / 7D 8D 9D 10D / 7C 8C 9C"
        " / JC QC KC | 8S 9S QS QS 7H KD 5C 9C KC",
        "7H 7D 7C / 8S 8H 8D 8C / 9S 9D 9C / 9S 9H 9C / 10H 10D 10C / 10S 10H 10D / JS JH JD JC / JC QC KC",
        "8S 9S 9C",
    ),
]
"""Fresh Experts of seed 4242 (c6e21k9cld, c6e21k9cly) and their stored solutions. Their steps
had "lay 6♥ from the hand on meld 2" (4♥ 4♦ 4♣) and began "lay 9♣ from the hand on meld 3" (9♠ 10♠
J♠): a meld built on one of the other kind, of which one card stays in it."""


def laid_across(position: Position, steps: Sequence[Step]) -> list[str]:
    """The steps that put cards of the other kind (another rank on a set, another suit on a run)
    onto an original meld that still lies whole."""
    start = [meld.cards for meld in position.table]
    found = []
    for number, step in enumerate(steps):
        if step.kind is StepKind.BREAK or step.new or step.target is None or step.target >= len(start):
            continue
        lying = apply_steps(start, steps[:number])[step.target]
        if Counter(lying) != Counter(start[step.target]):
            continue
        first = next(card for card in lying if not card.is_joker)
        if position.table[step.target].kind is MeldKind.SET:
            other = any(card.rank != first.rank for card in step.cards if not card.is_joker)
        else:
            other = any(card.suit != first.suit for card in step.cards if not card.is_joker)
        if other:
            found.append(f"step {number + 1}: {step}")
    return found


@pytest.mark.parametrize(("text", "melds", "placed"), TURNED)
def test_a_meld_is_not_built_on_one_of_the_other_kind_still_whole(text: str, melds: str, placed: str) -> None:
    position = Position.parse(text)
    play = play_of(position, melds.split(" / "), placed)
    steps = follow(position, play)
    old = plan_steps(position, play, turned_new=False)
    assert laid_across(position, old), "the plan as it was lays a run onto a set"
    assert laid_across(position, steps) == []
    start = [meld.cards for meld in position.table]
    assert most_invalid(start, steps, position.rules) <= most_invalid(start, old, position.rules)


def test_a_freed_joker_goes_back_to_the_hand() -> None:
    position = Position.parse("german-jokers | 5H JK 7H / 8S 8D 8C | 6H 8H")
    play = play_of(position, ["5H 6H 7H", "8S 8H 8D 8C"], "6H 8H", "JK")
    steps = follow(position, play)
    # the real card first, then the joker it frees: no meld is ever invalid
    assert texts(steps) == [
        "lay 6♥ from the hand on meld 1",
        "lay 8♥ from the hand on meld 2",
        "break meld 1 (5♥ 🃏 7♥)",
        "take 🃏 from meld 1 into the hand",
    ]
    assert most_invalid([meld.cards for meld in position.table], steps, position.rules) == 0


def test_a_joker_moved_to_another_meld() -> None:
    position = Position.parse("jokers | 5H JK 7H / 9C 10C JC | 6H QC")
    play = play_of(position, ["5H 6H 7H", "9C 10C JC QC JK"], "6H QC")
    steps = follow(position, play)
    assert "move 🃏 from meld 1 to meld 2" in texts(steps)
    assert [step.kind for step in steps].count(StepKind.BREAK) == 1


def test_a_whole_new_meld_from_the_hand() -> None:
    position = Position.parse("classic | 3S 4S 5S | 9H 9D 9C")
    play = play_of(position, ["3S 4S 5S", "9H 9D 9C"], "9H 9D 9C")
    (step,) = follow(position, play)
    assert str(step) == "lay 9♥ 9♦ 9♣ from the hand as a new meld 2"
    assert (step.kind, step.source, step.target, step.new) == (StepKind.LAY, None, 1, True)


def test_a_board_mid_turn_takes_back_a_card_the_final_table_does_not_hold() -> None:
    # a player laid K♦ on a meld where it cannot stay and started a pair of sevens
    start = [parse_cards("3S 4S 5S KD"), parse_cards("7H 7D"), parse_cards("7C")]
    final = [parse_cards("3S 4S 5S 6S"), parse_cards("7H 7D 7C")]
    steps = steps_between(start, final, PRESETS["classic"])
    assert meld_multisets(apply_steps(start, steps)) == meld_multisets(final)
    assert "take K♦ from meld 1 into the hand" in texts(steps)
    assert "lay 6♠ from the hand on meld 1" in texts(steps)
    assert any(step.kind is StepKind.MOVE and step.cards == (Card.parse("7C"),) for step in steps)


def test_steps_as_json() -> None:
    position = Position.parse("classic | 3S 4S 5S | 6S")
    (step,) = follow(position, play_of(position, ["3S 4S 5S 6S"], "6S"))
    assert step.to_json() == {
        "kind": "lay",
        "cards": ["6S"],
        "source": None,
        "target": 0,
        "new": False,
        "text": "lay 6♠ from the hand on meld 1",
    }


def test_applying_a_step_that_does_not_fit_the_table_says_which() -> None:
    table = [parse_cards("3S 4S 5S")]
    with pytest.raises(ValueError, match=r"step 1: 9♥ is not in meld 1"):
        apply_steps(table, [Step(StepKind.MOVE, parse_cards("9H"), 0, 1, True)])
    with pytest.raises(ValueError, match=r"step 1: a new meld must be meld 2"):
        apply_steps(table, [Step(StepKind.LAY, parse_cards("9H"), None, 4, True)])
    with pytest.raises(ValueError, match=r"step 1: there is no meld 3"):
        apply_steps(table, [Step(StepKind.LAY, parse_cards("9H"), None, 2)])
    with pytest.raises(ValueError, match=r"step 1: there is no meld 2"):
        apply_steps(table, [Step(StepKind.TAKE, (JOKER,), 1, None)])


def check_plan(position: Position, play: Play, depth_broken: tuple[int, ...] | None = None) -> None:
    steps = follow(position, play, depth_broken or ())
    assert steps == plan_steps(position, play, depth_broken or ()), "the same play gives the same plan"
    for step in steps:
        assert step.cards, f"{step} names no card"
        assert step.kind is StepKind.BREAK or step.source != step.target
    # every card moves at most once
    moving = [card for step in steps if step.kind is not StepKind.BREAK for card in step.cards]
    every = Counter(card for meld in position.table for card in meld.cards) + Counter(play.laid)
    assert not Counter(moving) - every
    # the hand gives what the play places and takes back what it frees
    laid = Counter(card for step in steps if step.kind is StepKind.LAY for card in step.cards)
    taken = Counter(card for step in steps if step.kind is StepKind.TAKE for card in step.cards)
    assert laid + Counter(play.freed) == Counter(play.laid) + taken
    if depth_broken is not None:
        # told which melds the play breaks, the plan breaks those, even where twins or two jokers
        # would let it keep others instead
        assert sorted(s.source for s in steps if s.kind is StepKind.BREAK) == list(depth_broken)


@property_test
@given(positions(max_table_cards=15, max_hand=5))
def test_following_the_steps_of_a_best_play_yields_its_final_table(position: Position) -> None:
    note(str(position))
    best = maximum(position, time_limit=TIME_LIMIT)
    check_plan(position, best.play)
    depth = chain_depth(position, best, TIME_LIMIT)
    assert depth.play is not None and depth.proven
    # the plan keeps as many melds whole as the play allows: its breaks are the chain depth
    check_plan(position, depth.play, depth.broken)


@property_test
@given(positions(max_table_cards=12, max_hand=4))
def test_following_the_steps_of_a_second_best_play_or_a_points_play(position: Position) -> None:
    note(str(position))
    best = maximum(position, Objective.POINTS, time_limit=TIME_LIMIT)
    check_plan(position, best.play)
    other = uniqueness(position, best, TIME_LIMIT)
    if other.witness is not None:
        check_plan(position, other.witness)


@each_preset
def test_a_position_of_every_preset(rules: Rules) -> None:
    position = Position.parse(f"{rules.name} | 3H 4H 5H 6H / 8S 8D 8C | 7H 8H 2H")
    best = maximum(position, time_limit=TIME_LIMIT)
    steps = follow(position, best.play)
    assert best.placed == 3
    laid = Counter(card for step in steps if step.kind is StepKind.LAY for card in step.cards)
    assert laid == Counter(parse_cards("2H 7H 8H"))


def test_the_solve_answer_carries_the_steps_to_its_table() -> None:
    position = Position.parse("classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D")
    answer = answer_json(analyse(position, time_limit=TIME_LIMIT))
    assert [step["text"] for step in answer["steps"]] == [
        "lay 6♥ 6♦ from the hand as a new meld 2",
        "break meld 1 (3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣)",
        "move 6♣ from meld 1 to meld 2",
        "move 7♣ 8♣ 9♣ from meld 1 to a new meld 3",
    ]
    final = [parse_cards(meld) for meld in answer["table"]]
    steps = steps_between([meld.cards for meld in position.table], final, position.rules)
    assert [step.to_json() for step in steps] == answer["steps"]


def test_the_old_order_meld_by_meld_holds_more_melds_invalid() -> None:
    position = Position.parse("classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D")
    play = play_of(position, ["6H 6D 6C", "3C 4C 5C", "7C 8C 9C"], "6H 6D")
    start = [meld.cards for meld in position.table]
    old = plan_steps(position, play, meld_by_meld=True)
    assert texts(old) == [
        "break meld 1 (3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣)",
        "move 6♣ from meld 1 to a new meld 2",
        "move 7♣ 8♣ 9♣ from meld 1 to a new meld 3",
        "lay 6♥ 6♦ from the hand on meld 2",
    ]
    # 3♣-5♣ 7♣-9♣ and a lone 6♣ after the first move; the new order never has more than one
    assert most_invalid(start, old, position.rules) == 2
    assert most_invalid(start, follow(position, play), position.rules) == 1


def test_most_invalid_counts_melds_not_cards_and_not_empty_ones() -> None:
    start = [parse_cards("3S 4S 5S"), parse_cards("7H 7D 7C")]
    rules = PRESETS["classic"]
    steps = [
        Step(StepKind.MOVE, parse_cards("7C"), 1, 2, True),
        Step(StepKind.MOVE, parse_cards("7H 7D"), 1, 2),
        Step(StepKind.LAY, parse_cards("7S"), None, 2),
    ]
    # 7♥ 7♦ and a lone 7♣: two; then an empty meld and 7♣ 7♥ 7♦: none
    assert most_invalid(start, steps[:1], rules) == 2
    assert most_invalid(start, steps, rules) == 2
    # a whole meld moved leaves an empty one, which is no invalid meld
    assert most_invalid(start, [Step(StepKind.MOVE, parse_cards("7H 7D 7C"), 1, 2, True)], rules) == 0
    assert most_invalid(start, [], rules) == 0


@property_test
@given(positions(max_table_cards=15, max_hand=5))
def test_the_steps_never_hold_more_melds_invalid_than_meld_by_meld(position: Position) -> None:
    note(str(position))
    best = maximum(position, time_limit=TIME_LIMIT)
    start = [meld.cards for meld in position.table]
    steps = plan_steps(position, best.play)
    old = plan_steps(position, best.play, meld_by_meld=True)
    note("\n".join(texts(steps)))
    assert _same_moves(steps, old), "only the order changes"
    assert most_invalid(start, steps, position.rules) <= most_invalid(start, old, position.rules)
    # and no step takes a card into the hand that the play does not free or the hand did not lay
    taken = Counter(card for step in steps if step.kind is StepKind.TAKE for card in step.cards)
    assert taken == Counter(best.play.freed)


def _same_moves(steps: Sequence[Step], other: Sequence[Step]) -> bool:
    """The same cards go from the same original meld or the hand, whatever the new melds' numbers."""

    def moves(plan: Sequence[Step]) -> Counter[tuple[Card, int | None, StepKind]]:
        moving = [step for step in plan if step.kind is not StepKind.BREAK]
        return Counter((card, step.source, step.kind) for step in moving for card in step.cards)

    return moves(steps) == moves(other)
