"""What a friends' table shows, without an app: each puzzle's results only to a viewer who has
finished it, hidden columns counted nowhere, today's rows best first."""

from __future__ import annotations

from datetime import timedelta

from webapp.friends.table import Mark, Member, Result, table, time_face, week_numbers
from webapp.models import Status


def result(
    number: int, status: Status, moves: int = 9, hints: int = 0, slips: int = 0, seconds: int = 90
) -> Result:
    return Result(
        number,
        status,
        5 if status == Status.SOLVED else 2,
        5,
        moves,
        hints,
        slips,
        timedelta(seconds=seconds),
    )


ANNA = Member("Anna", True, 3, {9: result(9, Status.SOLVED), 10: result(10, Status.SOLVED, hints=1)})
BRUNO = Member(
    "Bruno",
    False,
    5,
    {8: result(8, Status.GAVE_UP), 9: result(9, Status.SOLVED, moves=7), 10: result(10, Status.PLAYING)},
)
CARLA = Member("carla", False, 0, {10: result(10, Status.SOLVED, moves=6, seconds=50)})


def test_the_week_is_the_seven_puzzles_up_to_today() -> None:
    assert week_numbers(10) == (4, 5, 6, 7, 8, 9, 10)
    assert week_numbers(3) == (1, 2, 3)
    # a site whose first daily puzzle is #8: no day before it, which nobody could have played
    assert week_numbers(10, first=8) == (8, 9, 10)
    assert table([], 10, set(), first=8).numbers == (8, 9, 10)


def test_today_stays_hidden_until_the_viewer_has_finished_it() -> None:
    shown = table([ANNA, BRUNO, CARLA], 10, finished={9})
    assert not shown.open and shown.rows == () and shown.finished == 2  # Bruno is still playing
    anna, bruno = shown.week[:2]
    assert anna.marks[-1] is Mark.HIDDEN and anna.marks[-2] is Mark.CLEAN and anna.marks[-3] is Mark.NONE
    assert bruno.marks[-3] is Mark.HIDDEN  # Bruno played #8, which Anna did not finish
    assert anna.solved == 1 and bruno.solved == 1  # the hidden columns count for nobody


def test_once_finished_the_solves_come_first_cleanest_then_fewest_moves() -> None:
    shown = table([ANNA, BRUNO, CARLA], 10, finished={8, 9, 10})
    assert [row.name for row in shown.rows] == ["carla", "Anna", "Bruno"]
    assert shown.rows[2].result is None and shown.rows[0].streak == 0
    assert [mark for mark in shown.week[1].marks[-3:]] == [Mark.MISSED, Mark.CLEAN, Mark.PLAYING]
    assert shown.week[0].marks[-1] is Mark.SOLVED and shown.week[0].marks[0] is Mark.NONE


def test_times_read_as_a_clock() -> None:
    assert time_face(timedelta(seconds=97)) == "1:37"
    assert time_face(timedelta(hours=1, seconds=125)) == "1:02:05"
