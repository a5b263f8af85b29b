"""A move's board, kept per table for every player who reaches it, with each player's own token; and
the player's cookie, sent again once a day rather than with every answer."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import Flask

from tests.webapp.conftest import TODAY, FrozenClock, Player
from webapp.turn.rendering import KEPT_BOARDS


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
