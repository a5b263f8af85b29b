"""Review through the pages: a puzzle gone wrong comes back after a day, is played as a round of its
own, counts as practice, leaves the streak and the puzzle's rating alone, and leaves once solved clean."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask
from sqlalchemy import select

import generator
from tests.webapp.conftest import TODAY, FrozenClock, Player, store, variant
from tests.webapp.playing import solve
from webapp import models
from webapp.db import database
from webapp.players import records


def practise(app: Flask, puzzle: generator.Puzzle) -> int:
    row_id = store(app, puzzle)
    with app.app_context(), database().write() as session:
        session.get_one(models.PoolPuzzle, row_id).practice = True
    return row_id


def rounds(app: Flask) -> list[tuple[int, str, int | None]]:
    with app.app_context(), database().reader() as session:
        rows = session.scalars(select(models.PlayerAttempt).order_by(models.PlayerAttempt.id))
        return [(row.review, row.status.value, row.number) for row in rows]


def puzzle_rating(app: Flask, row_id: int) -> float:
    with app.app_context(), database().reader() as session:
        return session.get_one(models.PoolPuzzle, row_id).rating


def test_a_given_up_puzzle_comes_back_the_next_day_and_leaves_when_solved_clean(
    app: Flask, player: Player, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    puzzle = variant(known_puzzle, "2H", "hard", "cr1", themes=("swap", "extend"))
    row_id = practise(app, puzzle)
    assert player.post(f"/practice/{puzzle.id}/give-up").status_code == 200
    waiting = player.client.get(f"/review/{puzzle.id}")
    assert waiting.status_code == 404 and "not waiting for your review" in waiting.get_data(as_text=True)
    stats = player.client.get("/stats").get_data(as_text=True)
    assert "Nothing waits for review today." in stats and "1 more comes back later." in stats
    assert "Nothing waits for review today." in player.client.get("/review").get_data(as_text=True)
    clock.moment += timedelta(days=1)
    assert "<strong>1</strong> puzzle waits for review today" in player.client.get("/stats").get_data(
        as_text=True
    )
    page = player.client.get("/review").get_data(as_text=True)
    assert "1 puzzle waits for you today." in page and f'href="/review/{puzzle.id}"' in page
    assert player.client.get("/review/next").headers["Location"] == f"/review/{puzzle.id}"
    fresh = player.client.get(f"/review/{puzzle.id}").get_data(as_text=True)
    assert "Review" in fresh and "solution-title" not in fresh  # a fresh table, no solution shown
    rating = puzzle_rating(app, row_id)
    moves = solve(player, puzzle.id, known_puzzle, base="/review")
    result = player.post(f"/review/{puzzle.id}/end").get_data(as_text=True)
    assert "Next review" in result and f"{moves} moves" in result and "?beat=" not in result
    assert "You are the first to finish this puzzle" in result  # their own first turn is no other player
    assert rounds(app) == [(0, "gave-up", None), (1, "solved", None)]
    assert puzzle_rating(app, row_id) == rating  # a review moves the player's rating only
    assert player.client.get(f"/review/{puzzle.id}").status_code == 200  # the result stays on its page
    assert "Nothing waits for review today." in player.client.get("/review").get_data(as_text=True)
    assert player.client.get("/review/next").headers["Location"] == "/review"
    stats = player.client.get("/stats").get_data(as_text=True)
    assert "Practice: 2 played, 1 solved." in stats and "comes back later" not in stats
    export = player.client.get("/me/export.json").get_json()
    assert [attempt["review_round"] for attempt in export["attempts"]] == [0, 1]
    # a theme's rate is of the puzzles met fresh: the round at a puzzle already seen adds nothing
    with app.app_context(), database().reader() as session:
        (player_id,) = session.scalars(select(models.Player.id)).all()
        rates = records.theme_rates(session, player_id)
    assert [(rate.theme, rate.played, rate.solved) for rate in rates] == [("extend", 1, 0), ("swap", 1, 0)]


def test_a_review_gone_wrong_waits_three_days_and_never_touches_the_streak(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    assert player.post(f"/puzzles/{TODAY}/hint").status_code == 200
    solve(player, TODAY, known_puzzle)
    assert player.post(f"/puzzles/{TODAY}/end").status_code == 200  # solved with a hint: comes back
    streak = 'id="streak"><span aria-hidden="true">🔥</span>1<'
    assert streak in player.client.get("/stats").get_data(as_text=True)
    clock.moment += timedelta(days=1)
    place = player.client.get("/review/next").headers["Location"]
    assert place.startswith("/review/")
    # a move of the review round, in progress: practice does not offer it as its unfinished puzzle
    assert player.post(f"{place}/move", card="h0", to="new").status_code == 200
    assert "Continue your puzzle" not in player.client.get("/practice").get_data(as_text=True)
    assert "in progress" in player.client.get("/review").get_data(as_text=True)
    assert player.post(f"{place}/give-up").status_code == 200
    assert rounds(app) == [(0, "solved", TODAY), (1, "gave-up", None)]
    for waits in (False, False, True):  # 3 days after the round that went wrong
        clock.moment += timedelta(days=1)
        page = player.client.get("/review").get_data(as_text=True)
        assert ("1 puzzle waits for you today." in page) is waits, clock.moment
    assert player.client.get("/review/next").headers["Location"] == place
    # a review round is the player's own: no link preview, least of all the practice image of a daily
    assert "preview.svg" not in player.client.get(place).get_data(as_text=True)
    # the streak is the daily's alone: the review rounds changed nothing of it
    stats = player.client.get("/stats").get_data(as_text=True)
    assert 'id="best-streak">1<' in stats and 'id="played">1<' in stats


def test_each_puzzle_in_the_review_list_is_named_by_its_number_or_the_day_it_was_played(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    puzzle = variant(known_puzzle, "2H", "hard", "cr1")
    practise(app, puzzle)
    assert player.post(f"/puzzles/{TODAY}/give-up").status_code == 200
    assert player.post(f"/practice/{puzzle.id}/give-up").status_code == 200
    later = player.client.get("/review").get_data(as_text=True)
    # coming back tomorrow: both named, and the day each comes back said
    assert later.count('class="review-name"') == 2 and later.count("back on") == 2
    assert f'<span class="number">#{TODAY}</span>' in later and "played Sun, 29 Nov 2026" in later
    clock.moment += timedelta(days=1)
    due = player.client.get("/review").get_data(as_text=True)
    names = [part.split("</span></span>")[0] for part in due.split('class="review-name">')[1:]]
    assert len(names) == 2
    assert any(f"#{TODAY}</span>" in name and "Sun, 29 Nov 2026" in name for name in names)
    assert any("Practice</span>" in name and "played Sun, 29 Nov 2026" in name for name in names)
    # the tier and the preset in an element of their own, apart from the name
    kind = '<span class="review-kind"><span class="chip tier-hard">Hard</span> <span class="date">Classic'
    assert due.count(kind) == 2
