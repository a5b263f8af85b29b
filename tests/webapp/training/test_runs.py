"""A run's state counted from its attempts: pure, no app."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from webapp.models import Status
from webapp.training.runs import RUSH, STREAK, Played, next_rating, run_state

START = datetime(2026, 12, 3, 7, 0, tzinfo=UTC)


def test_each_slip_short_turn_and_skip_takes_ten_seconds_off_a_rush() -> None:
    played = [
        Played(Status.SOLVED, 2),
        Played(Status.MISSED, 0),
        Played(Status.GAVE_UP, 1),
        Played(Status.PLAYING, 0),
    ]
    state = run_state(RUSH, START, None, played, START + timedelta(seconds=30))
    assert state.deadline == START + timedelta(seconds=180 - 10 * 5)
    assert state.seconds_left(START + timedelta(seconds=30)) == 100
    assert (state.solved, state.failed, state.skipped, state.slips) == (1, 1, 1, 3)
    assert state.playing and not state.over and state.skips_left is None


def test_a_clean_solve_puts_five_seconds_back_and_the_combo_counts_clean_solves_in_a_row() -> None:
    played = [
        Played(Status.SOLVED, 0),
        Played(Status.SOLVED, 1),
        Played(Status.SOLVED, 0),
        Played(Status.SOLVED, 0),
        Played(Status.PLAYING, 0),
    ]
    state = run_state(RUSH, START, None, played, START)
    assert state.deadline == START + timedelta(seconds=180 - 10 * 1 + 5 * 3)
    assert (state.clean, state.combo) == (3, 2)
    broken = run_state(RUSH, START, None, [*played[:-1], Played(Status.GAVE_UP, 0)], START)
    assert broken.combo == 0
    streak = run_state(STREAK, START, None, played, START)
    assert streak.deadline is None and streak.combo == 2


@pytest.mark.parametrize(("after", "over"), [(180, False), (183, False), (183.5, True)])
def test_a_rush_is_over_once_its_time_and_the_grace_for_the_last_request_have_passed(
    after: float, over: bool
) -> None:
    state = run_state(RUSH, START, None, [Played(Status.PLAYING, 0)], START + timedelta(seconds=after))
    assert state.over is over and state.playing is not over
    assert state.seconds_left(START + timedelta(seconds=after)) == 0


def test_a_streak_has_no_clock_and_ends_at_the_first_failure_or_a_second_give_up() -> None:
    far = START + timedelta(days=30)
    going = run_state(STREAK, START, None, [Played(Status.SOLVED, 4), Played(Status.GAVE_UP, 0)], far)
    assert going.deadline is None and going.seconds_left(far) is None
    assert not going.over and going.skips_left == 0
    assert run_state(STREAK, START, None, [Played(Status.MISSED, 0)], START).over
    assert run_state(STREAK, START, None, [Played(Status.GAVE_UP, 0)] * 2, START).over
    assert run_state(STREAK, START, START, [], START).over  # ended


def test_each_solve_raises_the_next_puzzle_from_easy() -> None:
    assert next_rating(RUSH, 0) == 1100.0
    assert [next_rating(RUSH, solved) for solved in (1, 4, 16)] == [1150.0, 1300.0, 1900.0]
    state = run_state(RUSH, START, None, [Played(Status.SOLVED, 0)] * 3 + [Played(Status.MISSED, 0)], START)
    assert state.target_rating == 1250.0  # a miss does not raise it


def test_a_rush_solve_finished_after_the_deadline_and_its_grace_scores_nothing() -> None:
    # each clean solve in time puts RUSH.bonus seconds back: 180 + 5 after the first
    deadline = START + timedelta(seconds=180 + RUSH.bonus)
    played = [
        Played(Status.SOLVED, 0, START + timedelta(seconds=60)),
        Played(Status.SOLVED, 0, deadline + timedelta(seconds=2)),  # within the grace for travel
        Played(Status.SOLVED, 0, deadline + timedelta(seconds=RUSH.bonus + 6)),  # past 190 s and the grace
        Played(Status.SOLVED, 0, deadline + timedelta(hours=3)),
    ]
    state = run_state(RUSH, START, None, played, deadline + timedelta(hours=4))
    assert state.solved == 2 and state.over
    # the late solves put no time back either
    assert state.deadline == START + timedelta(seconds=180 + 2 * RUSH.bonus)


def test_a_streak_turn_that_ran_out_of_time_is_no_free_skip() -> None:
    played = [Played(Status.SOLVED, 0), Played(Status.TIMED_OUT, 0), Played(Status.PLAYING, 0)]
    state = run_state(STREAK, START, None, played, START)
    assert state.over and state.failed == 1 and state.solved == 1 and state.skips_left == 1
