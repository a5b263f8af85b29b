"""The hint ladder on boards as players leave them: untouched, half rearranged, with a stray card."""

from __future__ import annotations

import itertools
import re
from collections import Counter

import pytest
from flask import Flask
from sqlalchemy import select

import generator
from puzzles import Card, Position, analyse, meld_problem
from tests.webapp.conftest import TODAY, Player
from tests.webapp.playing import card_id, solve
from webapp import models
from webapp.db import database
from webapp.players.glicko import solve_score
from webapp.turn.board import Board, MeldState
from webapp.turn.hints import RUNGS, Hint, HintError, final_table, hint
from webapp.words import words

TIME_LIMIT = 60.0
"""Far more than these small positions need: a loaded machine must not change a hint."""


def solution_of(puzzle: generator.Puzzle) -> list[list[Card]]:
    return [[Card.parse(token) for token in meld] for meld in puzzle.solution]


def board_of(puzzle: generator.Puzzle) -> Board:
    return Board.start(puzzle.position())


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


def test_the_first_hint_names_a_meld_that_must_break(known_puzzle: generator.Puzzle) -> None:
    board = board_of(known_puzzle)
    first = hint(board, 1, solution_of(known_puzzle), TIME_LIMIT)
    # the three sets must all become runs; the clubs run stays whole
    assert first.meld in (0, 1, 2)
    assert first.card_ids == board.melds[first.meld]
    assert str(first.words).startswith("Break the meld ") and "cannot keep it whole" in str(first.words)


def test_the_second_hint_is_one_card_and_where_it_goes(known_puzzle: generator.Puzzle) -> None:
    board = board_of(known_puzzle)
    second = hint(board, 2, solution_of(known_puzzle), TIME_LIMIT)
    assert len(second.card_ids) == 1 and str(second.words).startswith("Move ")
    moved = board.move(second.card_ids[0], "new" if second.meld is None else str(second.meld))
    assert moved != board


def test_the_third_hint_is_a_whole_meld_of_a_best_table(known_puzzle: generator.Puzzle) -> None:
    board = board_of(known_puzzle)
    third = hint(board, 3, solution_of(known_puzzle), TIME_LIMIT)
    cards = [board.cards()[card_id] for card_id in third.card_ids]
    assert len(cards) >= 3 and meld_problem(cards, board.position.rules) is None
    final = Counter(card for meld in solution_of(known_puzzle) for card in meld)
    assert not Counter(cards) - final
    assert len(set(third.card_ids)) == len(third.card_ids)  # each copy pointed at once


def test_following_the_hints_solves_the_puzzle(known_puzzle: generator.Puzzle) -> None:
    board, given = follow(board_of(known_puzzle), solution_of(known_puzzle))
    assert board.problems() == []
    assert len(board.laid()) == known_puzzle.max_placed
    assert str(given[-1].words) == "Every card is where it belongs: end your turn."
    assert len(given) <= 16


def test_hints_keep_what_the_player_has_built(known_puzzle: generator.Puzzle) -> None:
    # the player has built 10♥ J♥ Q♥ from three sets, their own way
    board = board_of(known_puzzle)
    ten, jack, queen = cards_at(board, "10H")[0], cards_at(board, "JH")[0], cards_at(board, "QH")[0]
    board = board.move(ten, "new")
    board = board.move(jack, "4").move(queen, "4")
    built = board.views()[4]
    assert built.state is MeldState.VALID and set(built.card_ids) == {ten, jack, queen}
    final = final_table(board, solution_of(known_puzzle), TIME_LIMIT)
    assert any(Counter(built.cards) <= Counter(meld) for meld in final)
    solved, given = follow(board, solution_of(known_puzzle))
    assert solved.problems() == [] and len(solved.laid()) == known_puzzle.max_placed
    # no hint ever took a card out of the player's run
    assert not {ten, jack, queen} & {advice.card_ids[0] for advice in given if advice.card_ids}


def test_the_first_hint_after_moves_names_a_meld_still_whole(known_puzzle: generator.Puzzle) -> None:
    board = board_of(known_puzzle)
    first = hint(board, 1, solution_of(known_puzzle), TIME_LIMIT)
    assert first.meld is not None
    # the player breaks that meld as told: the next first hint names another one
    board = board.move(first.card_ids[0], "new")
    again = hint(board, 1, solution_of(known_puzzle), TIME_LIMIT)
    assert again.meld is not None and again.meld != first.meld
    assert board.views()[again.meld].state is MeldState.VALID


def test_a_stray_card_must_go_back_whatever_the_rung(known_puzzle: generator.Puzzle) -> None:
    board = board_of(known_puzzle)
    two = cards_at(board, "2D")[0]
    board = board.move(two, "new")
    for rung in range(1, RUNGS + 1):
        advice = hint(board, rung, solution_of(known_puzzle), TIME_LIMIT)
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


def test_the_ladder_has_three_rungs(known_puzzle: generator.Puzzle) -> None:
    with pytest.raises(HintError, match="there are 3 hints"):
        hint(board_of(known_puzzle), 4, solution_of(known_puzzle), TIME_LIMIT)


def test_hints_round_trip_through_json() -> None:
    said = words("Move %(card)s from your hand to a new meld.", card=(Card.parse("9S"),))
    advice = Hint(2, said, ("h0",), None)
    assert Hint.from_json(advice.to_json()) == advice
    assert str(Hint.from_json(advice.to_json()).words) == "Move 9♠ from your hand to a new meld."


def test_each_hint_costs_more_than_the_last() -> None:
    scores = [solve_score(n) for n in range(RUNGS + 1)]
    assert scores == [1.0, 0.9, 0.7, 0.4]
    costs = [a - b for a, b in itertools.pairwise(scores)]
    assert costs == sorted(costs) and len(set(costs)) == RUNGS


# -- hints on the play page


def hint_log(app: Flask) -> tuple[int, list[dict[str, object]]]:
    with app.app_context(), database().reader() as session:
        attempt = session.scalars(select(models.PlayerAttempt)).one()
        return attempt.hints, attempt.hint_log


def test_asking_for_a_hint_shows_it_on_the_board(app: Flask, player: Player, published: int) -> None:
    board = player.post(f"/puzzles/{TODAY}/hint").get_data(as_text=True)
    assert '<span class="hint-rung">💡 Hint 1:</span> Break the meld' in board
    assert board.count(" hinted") >= 3 and "hinted-meld" in board  # the meld to break is marked
    assert '<span class="hint-count">2 left</span>' in board
    used, log = hint_log(app)
    assert used == 1 and log[0]["rung"] == 1
    # the hint stays on the page after a reload
    assert "💡 Hint 1:" in player.client.get("/").get_data(as_text=True)


def test_the_ladder_climbs_then_runs_out(app: Flask, player: Player, published: int) -> None:
    player.post(f"/puzzles/{TODAY}/hint")
    second = player.post(f"/puzzles/{TODAY}/hint").get_data(as_text=True)
    assert "💡 Hint 2:</span> Move " in second
    third = player.post(f"/puzzles/{TODAY}/hint").get_data(as_text=True)
    assert "💡 Hint 3:</span> One meld of the best table: " in third
    assert 'id="hint-button" disabled' in third
    refused = player.post(f"/puzzles/{TODAY}/hint")
    assert refused.status_code == 422 and "no hints left" in refused.get_data(as_text=True)
    assert hint_log(app)[0] == 3


def test_a_hint_after_moves_speaks_of_the_table_as_it_is(app: Flask, player: Player, published: int) -> None:
    page = player.client.get("/").get_data(as_text=True)
    two = card_id(page, "2♦")
    player.move(TODAY, two, "new")
    board = player.post(f"/puzzles/{TODAY}/hint").get_data(as_text=True)
    assert "Take 2♦ back into your hand: no best play places it." in board
    assert re.search(rf'class="card red diamonds from-hand hinted"\s+data-card="{two}"', board)


def test_a_hint_on_a_finished_puzzle_changes_nothing(app: Flask, player: Player, published: int) -> None:
    player.post(f"/puzzles/{TODAY}/give-up")
    response = player.post(f"/puzzles/{TODAY}/hint")
    assert response.status_code == 409
    assert hint_log(app)[0] == 0


def test_solving_with_a_hint_shows_it_in_the_result_and_share_text(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle
) -> None:
    player.post(f"/puzzles/{TODAY}/hint")
    moves = solve(player, TODAY, known_puzzle)
    result = player.post(f"/puzzles/{TODAY}/end").get_data(as_text=True)
    assert f"Tavolo #7 ⛓3 ✅ 5/5 · {moves} moves · 💡1 · 🔥1</output>" in result
    assert "· 1 hint\n" in result and '<ol class="hints-used"' in result
    assert "a clean solve" not in result


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
