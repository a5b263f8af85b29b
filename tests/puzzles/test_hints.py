"""The hint ladder on boards as players leave them: untouched, half rearranged, with a stray card."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest

from puzzles import (
    HINT_RUNGS,
    Board,
    Card,
    Hint,
    HintError,
    KeyIdea,
    MeldKind,
    MeldState,
    Position,
    analyse,
    final_table,
    hint,
    key_card,
    key_ideas,
    maximum,
    meld_problem,
    parse_cards,
    words,
)

TIME_LIMIT = 60.0
"""Far more than these small positions need: a loaded machine must not change a hint."""


KNOWN = Position.parse("classic | 10H 10D 10S / JH JD JS / QH QD QC / 4C 5C 6C 7C | 9S QD QS 8C KH 2D")
"""Five cards to place (9♠ Q♦ Q♠ 8♣ K♥), the 2♦ never; three sets must become runs (depth 3)."""
MAX_PLACED = 5


@pytest.fixture(scope="module")
def known_solution() -> list[list[Card]]:
    best = maximum(KNOWN, time_limit=TIME_LIMIT)
    assert best.play is not None and best.placed == MAX_PLACED
    return [list(meld.cards) for meld in best.play.table]


def board_of() -> Board:
    return Board.start(KNOWN)


def follow(board: Board, solution: list[list[Card]], limit: int = 40) -> tuple[Board, list[Hint]]:
    """Do what the second hint says until it says the table is done."""
    given = []
    for _ in range(limit):
        advice = hint(board, 2, solution, TIME_LIMIT)
        given.append(advice)
        if not advice.card_ids:
            return board, given
        board = board.move(advice.card_ids[0], "new" if advice.meld is None else str(advice.meld))
    raise AssertionError(f"the hints went round in circles: {[h.words for h in given[-6:]]}")


def cards_at(board: Board, name: str) -> list[str]:
    cards = board.cards()
    return [card_id for card_id, card in cards.items() if str(card) == name]


def test_the_first_hint_names_a_meld_that_must_break(known_solution: list[list[Card]]) -> None:
    board = board_of()
    first = hint(board, 1, known_solution, TIME_LIMIT)
    # the three sets must all become runs; the clubs run stays whole
    assert first.meld in (0, 1, 2)
    assert first.card_ids == board.melds[first.meld]
    assert str(first.words).startswith("Break the meld ") and "cannot keep it whole" in str(first.words)


def test_the_second_hint_is_one_card_and_where_it_goes(known_solution: list[list[Card]]) -> None:
    board = board_of()
    second = hint(board, 2, known_solution, TIME_LIMIT)
    assert len(second.card_ids) == 1 and str(second.words).startswith("Move ")
    moved = board.move(second.card_ids[0], "new" if second.meld is None else str(second.meld))
    assert moved != board


def test_the_third_hint_is_a_whole_meld_of_a_best_table(known_solution: list[list[Card]]) -> None:
    board = board_of()
    third = hint(board, 3, known_solution, TIME_LIMIT)
    cards = [board.cards()[card_id] for card_id in third.card_ids]
    assert len(cards) >= 3 and meld_problem(cards, board.position.rules) is None
    final = Counter(card for meld in known_solution for card in meld)
    assert not Counter(cards) - final
    assert len(set(third.card_ids)) == len(third.card_ids)  # each copy pointed at once


def test_following_the_hints_solves_the_puzzle(known_solution: list[list[Card]]) -> None:
    board, given = follow(board_of(), known_solution)
    assert board.problems() == []
    assert len(board.laid()) == MAX_PLACED
    assert str(given[-1].words) == "Every card is where it belongs: end your turn."
    assert len(given) <= 16


def test_hints_keep_what_the_player_has_built(known_solution: list[list[Card]]) -> None:
    # the player has built 10♥ J♥ Q♥ from three sets, their own way
    board = board_of()
    ten, jack, queen = cards_at(board, "10H")[0], cards_at(board, "JH")[0], cards_at(board, "QH")[0]
    board = board.move(ten, "new")
    board = board.move(jack, "4").move(queen, "4")
    built = board.views()[4]
    assert built.state is MeldState.VALID and set(built.card_ids) == {ten, jack, queen}
    final = final_table(board, known_solution, TIME_LIMIT)
    assert any(Counter(built.cards) <= Counter(meld) for meld in final)
    solved, given = follow(board, known_solution)
    assert solved.problems() == [] and len(solved.laid()) == MAX_PLACED
    # no hint ever took a card out of the player's run
    assert not {ten, jack, queen} & {advice.card_ids[0] for advice in given if advice.card_ids}


def test_the_first_hint_after_moves_names_a_meld_still_whole(known_solution: list[list[Card]]) -> None:
    board = board_of()
    first = hint(board, 1, known_solution, TIME_LIMIT)
    assert first.meld is not None
    # the player breaks that meld as told: the next first hint names another one
    board = board.move(first.card_ids[0], "new")
    again = hint(board, 1, known_solution, TIME_LIMIT)
    assert again.meld is not None and again.meld != first.meld
    assert board.views()[again.meld].state is MeldState.VALID


def test_a_stray_card_must_go_back_whatever_the_rung(known_solution: list[list[Card]]) -> None:
    board = board_of()
    two = cards_at(board, "2D")[0]
    board = board.move(two, "new")
    for rung in range(1, HINT_RUNGS + 1):
        advice = hint(board, rung, known_solution, TIME_LIMIT)
        assert advice.card_ids == (two,)
        assert str(advice.words) == "Take 2♦ back into your hand: no best play places it."


def test_runs_the_player_keeps_apart_are_not_joined() -> None:
    position = Position.parse("classic | 5H 6H 7H 8H 9H 10H / 4S 4D 4C | 4H JH")
    solution = [list(meld.cards) for meld in analyse(position, time_limit=5).depth.play.table]
    assert any(len(meld) >= 7 for meld in solution)  # the engine lays 5♥ to J♥ in one run
    board = Board.start(position).move("t3", "new").move("t4", "2").move("t5", "2")
    assert [view.state for view in board.views()] == [MeldState.VALID] * 3
    board, given = follow(board, solution)
    # 4♥ onto the set and J♥ onto 8♥ 9♥ 10♥: the two runs stay apart
    assert len(given) == 3 and len(board.melds) == 3
    assert board.problems() == []


def as_text(table: Sequence[Sequence[Card]]) -> list[str]:
    return sorted(" ".join(sorted(map(str, meld))) for meld in table)


@pytest.mark.parametrize(
    ("solution", "target"),
    [("7S 7H 7D 7C / 4C 5C 6C", "7♠ 7♥ 7♦"), ("7S 7H 7D / 4C 5C 6C 7C", "4♣ 5♣ 6♣")],
)
def test_where_the_solution_keeps_as_many_melds_the_hints_follow_it(solution: str, target: str) -> None:
    # 7♣ extends the set or the run, keeping both melds either way: the hints send it where the
    # solution shown beside them does, whichever way the engine's own solve would break the tie
    position = Position.parse("classic | 7S 7H 7D / 4C 5C 6C | 7C")
    melds = [parse_cards(meld) for meld in solution.split(" / ")]
    board = Board.start(position)
    assert str(hint(board, 2, melds, TIME_LIMIT).words) == f"Move 7♣ from your hand onto {target}."
    assert as_text(final_table(board, melds, TIME_LIMIT)) == as_text(melds)


def test_hints_keep_a_players_meld_that_the_solution_would_break() -> None:
    # the player laid 7♣ on the run; the solution puts it in the set. Going back would break a meld
    # the player made, so the hints keep it and go on from there
    position = Position.parse("classic | 7S 7H 7D / 4C 5C 6C | 7C KH KS KD")
    solution = [parse_cards(meld) for meld in ("7S 7H 7D 7C", "4C 5C 6C", "KH KS KD")]
    board = Board.start(position)
    (seven,) = cards_at(board, "7C")
    board = board.move(seven, "1")
    assert [view.state for view in board.views()] == [MeldState.VALID] * 2
    final = final_table(board, solution, TIME_LIMIT)
    assert parse_cards("4C 5C 6C 7C") in final
    assert str(hint(board, 2, solution, TIME_LIMIT).words).endswith("from your hand to a new meld.")


def test_the_ladder_has_three_rungs(known_solution: list[list[Card]]) -> None:
    with pytest.raises(HintError, match="there are 3 hints"):
        hint(board_of(), 4, known_solution, TIME_LIMIT)


def test_hints_round_trip_through_json() -> None:
    said = words("Move %(card)s from your hand to a new meld.", card=(Card.parse("9S"),))
    advice = Hint(2, said, ("h0",), None)
    assert Hint.from_json(advice.to_json()) == advice
    assert str(Hint.from_json(advice.to_json()).words) == "Move 9♠ from your hand to a new meld."


def test_a_joker_the_best_play_takes_back_is_sent_to_the_hand_at_every_rung_past_the_first() -> None:
    position = Position.parse("german-jokers | 6H 6S JK | 6D 6C")
    solution = [[Card.parse(token) for token in ("6H", "6S", "6D", "6C")]]
    board = Board.start(position).move("h0", "0").move("h1", "0")
    for rung in (2, 3):
        given = hint(board, rung, solution, 2.0)
        assert (str(given.words), given.card_ids, given.meld) == (
            "Move 🃏 from 6♠ 6♥ 🃏 6♦ 6♣ into your hand.",
            ("t2",),
            None,
        )


def fork_on(card: Card) -> KeyIdea:
    """A fork's key idea on this card; the first rung reads only its card and kind."""
    return KeyIdea("fork", card, None, None, None)


def test_the_first_hint_names_the_key_card_alone_while_it_has_not_moved(
    known_solution: list[list[Card]],
) -> None:
    board = board_of()
    key = Card.parse("QS")
    first = hint(board, 1, known_solution, TIME_LIMIT, fork_on(key))
    assert str(first.words) == "Q♠ is the key card: think about where it goes."
    (card_id,) = first.card_ids
    assert card_id.startswith("h") and board.cards()[card_id] == key
    assert first.meld is None, "the hint does not say where the card goes"
    # a key card on the table is named while its meld is untouched, not once the meld is changed
    jack = Card.parse("JS")
    (table_id,) = hint(board, 1, known_solution, TIME_LIMIT, fork_on(jack)).card_ids
    assert board.cards()[table_id] == jack and table_id.startswith("t")
    moved = board.move(cards_at(board, "JH")[0], "new")
    after_move = hint(moved, 1, known_solution, TIME_LIMIT, fork_on(jack))
    assert after_move.words.message.startswith("Break the meld")
    # once the key card has moved, the first rung names a meld to break as before
    laid = board.move(card_id, "1")
    assert str(hint(laid, 1, known_solution, TIME_LIMIT, fork_on(key)).words).startswith("Break the meld ")


def test_a_key_idea_that_names_no_choice_gives_way_to_the_meld_to_break(
    known_solution: list[list[Card]],
) -> None:
    # "Q♠ goes to the run 9♠ 10♠ J♠ Q♠." names no other place for Q♠: the meld to break says more
    plain = KeyIdea("fork", Card.parse("QS"), parse_cards("9S 10S JS QS"), MeldKind.RUN, None)
    assert not plain.names_a_choice
    board = board_of()
    first = hint(board, 1, known_solution, TIME_LIMIT, plain)
    assert first == hint(board, 1, known_solution, TIME_LIMIT)
    assert str(first.words).startswith("Break the meld ")
    # the same card with the choice named is the key card
    named = KeyIdea("fork", Card.parse("QS"), parse_cards("9S 10S JS QS"), MeldKind.RUN, None, MeldKind.SET)
    assert str(hint(board, 1, known_solution, TIME_LIMIT, named).words) == (
        "Q♠ is the key card: think about where it goes."
    )


TRAP = Position.parse("classic | QS QH QD QC / QH QD QC / 4S 5S 6S 7S / AH 2H 3H / 2D 3D 4D | 8S 7D 7C")
"""A fresh Easy (c0a21k9cma, seed 4242): 8♠ fits 4♠ 5♠ 6♠ 7♠ as it lies, and laid there it
keeps 7♠ from the set 7♠ 7♦ 7♣ that places two. Its one decision declines 8♠: no fork."""


def test_the_first_hint_on_a_declined_key_card_does_not_send_it_where_it_fits() -> None:
    best = maximum(TRAP, time_limit=TIME_LIMIT)
    assert best.play is not None and best.placed == 2
    solution = [list(meld.cards) for meld in best.play.table]
    ideas = key_ideas(TRAP, solution)
    assert [(idea.kind, str(idea.card)) for idea in ideas] == [("decline", "8S")]
    board = Board.start(TRAP)
    first = hint(board, 1, solution, TIME_LIMIT, ideas[0])
    # "think about where it goes" would point at 4♠ 5♠ 6♠ 7♠, the one meld it fits: the trap
    assert str(first.words) == "8♠ is the key card: think twice before you lay it where it fits."
    (card_id,) = first.card_ids
    assert card_id.startswith("h") and board.cards()[card_id] == Card.parse("8S")
    assert first.meld is None, "the hint does not say where the card goes, nor that it stays"


def test_the_key_card_is_the_first_idea_that_names_a_choice() -> None:
    plain = KeyIdea("fork", Card.parse("AD"), parse_cards("AD 2D 3D"), MeldKind.RUN, None)
    named = KeyIdea("fork", Card.parse("3S"), parse_cards("3S 3H 3D"), MeldKind.SET, None, MeldKind.RUN)
    decline = KeyIdea("decline", Card.parse("QH"), None, None, parse_cards("9H 10H JH"))
    assert key_card([plain, decline]) == decline
    assert key_card([named, plain, decline]) == named
    assert key_card([plain]) is None and key_card([]) is None
