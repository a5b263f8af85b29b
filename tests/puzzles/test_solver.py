"""The solver on hand-made positions: RULES.md's worked examples, objectives, jokers, time limits."""

from __future__ import annotations

import json
from collections import Counter, OrderedDict

import pytest

from puzzles import (
    JOKER,
    Analysis,
    Objective,
    Play,
    Position,
    PositionError,
    analyse,
    answer_json,
    chain_depth,
    is_puzzle,
    maximum,
    parse_cards,
    play_problems,
    step_check,
    uniqueness,
)
from puzzles import _solver as solver
from puzzles._model import Model

EXAMPLE_1 = "KH KD KC / QH QD QC / JH JD JC | AC"
EXAMPLE_2 = "classic | 10H 10D 10S / JH JD JS / QH QD QC | 9S QD QS"
EXAMPLE_3 = "classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D"
TIME_LIMIT = 10.0


def melds(play: Play | None) -> list[str]:
    assert play is not None
    return sorted(str(meld) for meld in play.table)


def assert_legal(position: Position, play: Play | None) -> None:
    assert play is not None
    assert play_problems(position, [meld.cards for meld in play.table]) == []


def test_example_1_the_ace_goes_high_under_italian() -> None:
    position = Position.parse(f"italian | {EXAMPLE_1}")
    analysis = analyse(position, time_limit=TIME_LIMIT)
    assert analysis.proven
    assert analysis.best.objective_value == 1
    assert analysis.best.play.laid == parse_cards("AC")
    assert analysis.uniqueness.unique is True
    assert analysis.depth.depth == 3
    assert analysis.depth.broken == (0, 1, 2)
    assert melds(analysis.depth.play) == ["JC QC KC AC", "JD QD KD", "JH QH KH"]
    assert is_puzzle(analysis)


def test_example_1_a_rearrangement_of_two_sets_holds_no_run() -> None:
    """Each run J-Q-K takes a card of all three sets: a rearrangement that breaks two of them
    cannot lay one out, and the chain length's model at that size leaves the runs out."""
    position = Position.parse(f"italian | {EXAMPLE_1}")
    runs = {tuple(sorted((card.index, 1) for card in parse_cards(f"J{s} Q{s} K{s}"))) for s in "HDC"}
    for largest, held in ((2, False), (3, True)):
        model = Model(position, Objective.CARDS, largest=largest)
        assert any(piece in runs for _, piece, _ in model.pieces) is held
    chain = analyse(position, time_limit=TIME_LIMIT).chain
    assert (chain.length, chain.proven, chain.rearrangements) == (3, True, ((0, 1, 2),))


def test_example_1_places_nothing_under_classic() -> None:
    position = Position.parse(f"classic | {EXAMPLE_1}")
    analysis = analyse(position, time_limit=TIME_LIMIT)
    assert analysis.best.proven
    assert analysis.best.objective_value == 0
    assert analysis.best.play.laid == ()
    assert analysis.depth.depth == 0
    assert not is_puzzle(analysis)


def test_example_2_the_lonely_queen_finds_a_set() -> None:
    position = Position.parse(EXAMPLE_2)
    analysis = analyse(position, time_limit=TIME_LIMIT)
    assert analysis.proven and is_puzzle(analysis)
    assert analysis.best.play.laid == parse_cards("9S QS QD")
    assert analysis.depth.depth == 3
    # Q♣ can only be in a set, and that set must take Q♦ and Q♠ from the hand
    assert melds(analysis.depth.play) == ["10D JD QD", "10H JH QH", "9S 10S JS", "QS QD QC"]


def test_example_3_cutting_a_long_run_frees_its_middle() -> None:
    position = Position.parse(EXAMPLE_3)
    analysis = analyse(position, time_limit=TIME_LIMIT)
    assert analysis.proven and is_puzzle(analysis)
    assert analysis.best.objective_value == 2
    assert analysis.depth.depth == 1 and analysis.depth.broken == (0,)
    assert melds(analysis.depth.play) == ["3C 4C 5C", "6H 6D 6C", "7C 8C 9C"]


def test_extensions_print_as_one_long_run() -> None:
    # 6S and 7S can only extend the run: the solver holds them as pieces, the table joins them
    position = Position.parse("classic | 3S 4S 5S / 8H 8D 8C | 6S 7S KD")
    analysis = analyse(position, time_limit=TIME_LIMIT)
    assert analysis.best.objective_value == 2
    assert analysis.depth.depth == 0
    assert melds(analysis.depth.play) == ["3S 4S 5S 6S 7S", "8H 8D 8C"]


def test_points_objective_prefers_one_ace_to_two_threes() -> None:
    # A♦ is worth 11 under the Polish points, 3♠ and 3♥ 6 together; both plays need the same joker
    position = Position.parse("jokers | 3S 3D JK / 6C 7C 8C / 4S JK 6S | 3S 3H AD")
    cards = maximum(position, time_limit=TIME_LIMIT)
    assert (cards.objective_value, cards.play.laid, cards.proven) == (2, parse_cards("3S 3H"), True)
    points = maximum(position, Objective.POINTS, time_limit=TIME_LIMIT)
    assert (points.objective_value, points.play.laid, points.proven) == (11, parse_cards("AD"), True)
    assert points.objective is Objective.POINTS
    assert_legal(position, points.play)
    assert uniqueness(position, points, time_limit=TIME_LIMIT).unique is True
    assert not is_puzzle(analyse(position, Objective.POINTS, time_limit=TIME_LIMIT))


def test_german_jokers_free_a_joker_into_the_hand() -> None:
    # 5♣ may take the joker's place in the set, and the joker goes to the hand: nothing gained
    position = Position.parse("german-jokers | 5H 5D 5S JK | 5C 8H")
    best = maximum(position, time_limit=TIME_LIMIT)
    assert best.objective_value == 0 and best.proven
    unique = uniqueness(position, best, time_limit=TIME_LIMIT)
    assert unique.unique is False
    plays = [best.play, unique.witness]
    swap = next(play for play in plays if play is not None and play.freed)
    assert (swap.laid, swap.freed, swap.placed) == (parse_cards("5C"), (JOKER,), 0)
    assert swap.hand_after(position) == parse_cards("8H JK")
    assert_legal(position, swap)
    assert step_check(position, parse_cards("5C"), time_limit=TIME_LIMIT).reachable == 0


def test_jokers_never_go_back_to_the_hand_under_the_polish_rules() -> None:
    position = Position.parse("jokers | 5H 5D 5S JK | 5C 8H")
    best = maximum(position, time_limit=TIME_LIMIT)
    assert best.objective_value == 0 and best.play.freed == ()
    assert uniqueness(position, best, time_limit=TIME_LIMIT).unique is True
    check = step_check(position, parse_cards("5C"), time_limit=TIME_LIMIT)
    assert check.dead_end and check.reachable is None


def test_step_check() -> None:
    position = Position.parse(EXAMPLE_3)
    for laid in ("", "6H", "6H 6D"):
        check = step_check(position, parse_cards(laid), time_limit=TIME_LIMIT)
        assert (check.reachable, check.proven, check.dead_end) == (2, True, False)
    stuck = Position.parse("classic | 3C 4C 5C | 6H 7C 6C")
    assert step_check(stuck, parse_cards("7C"), time_limit=TIME_LIMIT).reachable == 2
    dead = step_check(stuck, parse_cards("6H"), time_limit=TIME_LIMIT)
    assert dead.dead_end and dead.proven and dead.reachable is None


def test_step_check_refuses_cards_the_hand_lacks() -> None:
    position = Position.parse(EXAMPLE_3)
    with pytest.raises(PositionError, match="K♠ is not in the hand"):
        step_check(position, parse_cards("KS"), time_limit=TIME_LIMIT)
    with pytest.raises(PositionError, match="6♥ is not in the hand"):
        step_check(position, parse_cards("6H 6H"), time_limit=TIME_LIMIT)


BIG = (
    "three-decks | AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS / AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    " / AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD / AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"
    " / 5S 5H 5D / 9S 9H 9C / KS KH KD KC / 2S 3S 4S 5S 6S | 7S 7H 7D 7C 8S 9D 10H JC QS KH"
)


@pytest.mark.parametrize("time_limit", [0.0001, 0.001, 0.01])
def test_a_tiny_time_limit_never_claims_a_wrong_proof(time_limit: float) -> None:
    position = Position.parse(BIG)
    proven = analyse(position, time_limit=TIME_LIMIT)
    assert proven.proven

    best = maximum(position, time_limit=time_limit)
    assert_legal(position, best.play)
    assert best.objective_value <= proven.best.objective_value
    if best.proven:
        assert best.objective_value == proven.best.objective_value
    unique = uniqueness(position, best, time_limit=time_limit)
    if not best.proven:
        assert unique.unique is None
    elif unique.unique is not None:
        assert unique.unique is proven.uniqueness.unique
    depth = chain_depth(position, best, time_limit=time_limit)
    if depth.proven:
        assert depth.depth == proven.depth.depth
    check = step_check(position, position.hand[:1], time_limit=time_limit)
    if check.proven:
        expected = step_check(position, position.hand[:1], time_limit=TIME_LIMIT)
        assert expected.proven and check.reachable == expected.reachable
    rushed = analyse(position, time_limit=time_limit)
    if rushed.proven:
        assert (rushed.best.objective_value, rushed.depth.depth) == (
            proven.best.objective_value,
            proven.depth.depth,
        )
    else:
        assert not is_puzzle(rushed)


JOKER_DEPTH = [
    # a joker that moves past a whole run, inside the final run that holds both, keeps both melds
    ('{"rules":"jokers","table":[["10H","JH","QH","JK"],["6H","7H","8H","9H"]],"hand":["4H"]}', 1),
    ('{"rules":"jokers","table":[["7H","JK","9H"],["4H","5H","6H"]],"hand":["8H","2H"]}', 2),
    (
        '{"rules":"german-jokers","table":[["9C","10C","JK","QC","KC"],["5C","6C","7C","8C"]],'
        '"hand":["3C","JC"]}',
        2,
    ),
]


@pytest.mark.parametrize(("text", "placed"), JOKER_DEPTH)
def test_a_joker_sliding_past_a_kept_run_leaves_both_kept(text: str, placed: int) -> None:
    position = Position.from_json(json.loads(text))
    analysis = analyse(position, time_limit=TIME_LIMIT)
    assert analysis.proven and analysis.best.objective_value == placed
    assert (analysis.depth.depth, analysis.depth.broken) == (0, ())
    answer = answer_json(analysis)
    assert (answer["depth"], answer["broken"], answer["chain"], answer["rearrangements"]) == (0, [], 0, [])
    assert not any(step["kind"] == "break" for step in answer["steps"])
    # one final run holds both original melds whole, the joker standing for another card
    (run,) = analysis.depth.play.table
    assert all(not Counter(meld.cards) - Counter(run.cards) for meld in position.table)


def test_the_shown_play_leaves_the_fewest_points_among_those_that_break_the_fewest() -> None:
    # 5♣ or the joker completes the set, not both: leaving the joker in the hand costs 25 points
    # under the Polish values, leaving 5♣ costs 5
    position = Position.parse("jokers | 5S 5H 5D | 5C JK 2H")
    analysis = analyse(position, time_limit=TIME_LIMIT)
    assert analysis.best.objective_value == 1 and analysis.uniqueness.unique is False
    assert analysis.shown.laid == (JOKER,)
    assert answer_json(analysis)["points_left"] == 7


def test_a_best_play_that_leaves_only_dead_cards_is_unique_without_a_solve(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The two K♦ fit no meld of these cards: every best play places the 6♠ alone. Of two 7♠ beside
    the sevens, each fits the set of four: only a solve says that no play places both."""
    solves = []
    solve = Model.solve

    def counted(model: Model, *args: object, **options: object) -> object:
        solves.append(model)
        return solve(model, *args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(Model, "solve", counted)
    dead = Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S KD KD")
    best = maximum(dead, time_limit=TIME_LIMIT)
    assert best.placed == 1 and len(solves) == 1
    assert uniqueness(dead, best, time_limit=TIME_LIMIT).unique is True
    assert len(solves) == 1
    live = Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 7S 7S")
    best = maximum(live, time_limit=TIME_LIMIT)
    assert best.placed == 1
    assert uniqueness(live, best, time_limit=TIME_LIMIT).unique is True
    assert len(solves) == 3


CHAINED = (
    "classic | 8S 8H 8C / JS JD JC / 9H 10H JH / 2D 3D 4D / 6D 7D 8D / 2H 2D 2C / 8H 9H 10H | "
    "3S JS 2H 6H 5D JD 8C 9C 10C QC"
)
"""Chain length 3 and depth 3: the chain length takes a proof that no play does it in 2."""


def test_a_proof_below_the_chain_bound_is_kept_for_the_same_laid_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two positions that differ by a dead card lay the same cards: the chain length's model holds
    only those, and the second analysis takes the first one's proof, with the same answers as a
    proof of its own."""
    grouped = []
    built = Model.__init__

    def counted(model: Model, *args: object, **options: object) -> None:
        grouped.append(options.get("largest"))
        built(model, *args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(Model, "__init__", counted)
    monkeypatch.setattr(solver, "_smaller_found", OrderedDict())
    first = analyse(Position.parse(CHAINED + " KH"), time_limit=TIME_LIMIT)
    proofs = sum(largest is not None for largest in grouped)
    assert first.proven and first.chain.length == 3 and proofs >= 1
    second = analyse(Position.parse(CHAINED + " KH KH"), time_limit=TIME_LIMIT)
    assert sum(largest is not None for largest in grouped) == proofs
    monkeypatch.setattr(solver, "_smaller_found", OrderedDict())
    fresh = analyse(Position.parse(CHAINED + " KH KH"), time_limit=TIME_LIMIT)
    assert answers(second) == answers(fresh)


def answers(analysis: Analysis) -> tuple[object, ...]:
    """Everything an analysis says but its timings."""
    best, unique, depth, chain = analysis.best, analysis.uniqueness, analysis.depth, analysis.chain
    return (
        (best.play, best.objective_value, best.proven),
        (unique.unique, unique.witness),
        (depth.depth, depth.play, depth.broken, depth.proven),
        (chain.length, chain.proven, chain.rearrangements, chain.play),
    )
