"""A move's board, kept per table for every player who reaches it, with each player's own token; a
finished turn's table and solution, kept the same way and shown only once a turn is over; and the
player's cookie, sent again once a day rather than with every answer."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import Flask

import generator
from tests.webapp.conftest import TODAY, FrozenClock, Player
from tests.webapp.playing import card_id, solve
from webapp.turn.rendering import FINISHED_DRAWINGS, KEPT_BOARDS


def test_players_at_the_same_table_are_shown_one_board_each_with_their_own_token(
    app: Flask, published: int
) -> None:
    first, second, third = (Player(app.test_client()) for _ in range(3))
    assert first.token != second.token
    boards = [first.move(TODAY, "h0", "new"), second.move(TODAY, "h0", "new"), third.move(TODAY, "h1", "new")]
    assert [board.status_code for board in boards] == [200, 200, 200]
    mine, theirs, other = (board.get_data(as_text=True) for board in boards)
    assert first.token in mine and second.token not in mine
    assert second.token in theirs and first.token not in theirs
    assert mine.replace(first.token, "") == theirs.replace(second.token, "")
    assert 'data-version="2-playing"' in mine  # one move, one table kept for undo
    assert other.replace(third.token, "") != mine.replace(first.token, "")
    # undone, the first player's table is the untouched one with nothing to undo: a board of its own
    undone = first.post(f"/puzzles/{TODAY}/undo").get_data(as_text=True)
    assert 'data-version="0-playing"' in undone and 'id="undo" disabled' in undone
    with app.app_context():
        assert len(KEPT_BOARDS()._entries) == 3


def test_the_cookie_is_signed_and_sent_again_once_a_day_not_with_every_answer(
    app: Flask, published: int, clock: FrozenClock
) -> None:
    player = Player(app.test_client())
    first = player.move(TODAY, "h0", "new")
    assert "tavolo=" in first.headers.get("Set-Cookie", "")  # the player's cookie, made now
    assert "Set-Cookie" not in player.move(TODAY, "h1", "new").headers
    assert "Set-Cookie" not in player.client.get("/help").headers
    # a day after it was signed (the signature's time is the real clock's), it is sent again, for
    # another PERMANENT_SESSION_LIFETIME
    clock.moment = datetime.now(UTC) + timedelta(days=1, minutes=1)
    again = player.client.get("/help").headers.get("Set-Cookie", "")
    assert again.startswith("tavolo=") and "Expires=" in again


def _your_table(board: str) -> str:
    """The finished table a result board ends with (after "Your table")."""
    assert 'class="your-table"' in board, board
    return board[board.index('class="your-table"') :]


def test_players_who_end_on_the_same_table_are_shown_one_kept_drawing_of_it_in_their_language(
    app: Flask, published: int, known_puzzle: generator.Puzzle
) -> None:
    first, second, italian = (Player(app.test_client()) for _ in range(3))
    italian.client.set_cookie("tavolo_language", "it")
    ends = []
    for player in (first, second, italian):
        solve(player, TODAY, known_puzzle)
        ends.append(player.post(f"/puzzles/{TODAY}/end").get_data(as_text=True))
    mine, theirs, italians = ends
    assert "Solved!" in mine and "Solved!" in theirs
    assert _your_table(mine) == _your_table(theirs)
    assert "Meld 1: valid" in _your_table(mine) and "Meld 1: valid" not in _your_table(italians)
    assert "Risolto" in italians and "Meld 1" not in _your_table(italians)
    # the cards are not movable on a finished table, and nothing kept carries a player's token
    assert "data-card=" not in _your_table(mine) and first.token not in _your_table(mine)
    with app.app_context():
        # one per language, the same table; a solved turn's card shows no solution: none was drawn
        assert sorted(key[0] for key in FINISHED_DRAWINGS()._entries) == ["table", "table"]


def test_a_kept_solution_is_shown_only_to_a_player_whose_turn_is_over(
    app: Flask, published: int, known_puzzle: generator.Puzzle
) -> None:
    quitter, player, solver = (Player(app.test_client()) for _ in range(3))
    page = quitter.client.get("/").get_data(as_text=True)
    quitter.move(TODAY, card_id(page, "10♥"), "new")
    gave_up = quitter.post(f"/puzzles/{TODAY}/give-up").get_data(as_text=True)
    assert "The solution" in gave_up and "final-table" in gave_up
    with app.app_context():
        assert [key[0] for key in FINISHED_DRAWINGS()._entries] == ["solution"]
    # the same table, with the turn going on: the solution kept for the quitter is nowhere on it
    still = player.move(TODAY, card_id(page, "10♥"), "new").get_data(as_text=True)
    assert "final-table" not in still and "The solution" not in still and "your-table" not in still
    again = player.client.get(f"/puzzles/{TODAY}").get_data(as_text=True)
    assert "final-table" not in again and "The solution" not in again
    # nor on a solve's card; a second quitter is shown the kept one
    solve(solver, TODAY, known_puzzle)
    solved = solver.post(f"/puzzles/{TODAY}/end").get_data(as_text=True)
    assert "Solved!" in solved and "final-table" not in solved
    second = player.post(f"/puzzles/{TODAY}/give-up").get_data(as_text=True)
    drawn = gave_up[gave_up.index('class="solution-title"') :]
    assert second[second.index('class="solution-title"') :] == drawn
    with app.app_context():
        assert [key[0] for key in FINISHED_DRAWINGS()._entries].count("solution") == 1
