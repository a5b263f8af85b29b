"""How long a solve took, and the time to the next puzzle, in words."""

from __future__ import annotations

from datetime import timedelta

from webapp.turn.attempts import duration_words


def test_a_solve_under_a_minute_is_not_zero_minutes() -> None:
    assert str(duration_words(timedelta(seconds=0))) == "under 1 min"
    assert str(duration_words(timedelta(seconds=59))) == "under 1 min"
    assert str(duration_words(timedelta(seconds=-5))) == "under 1 min"


def test_minutes_and_hours() -> None:
    assert str(duration_words(timedelta(seconds=60))) == "1 min"
    assert str(duration_words(timedelta(minutes=59, seconds=59))) == "59 min"
    assert str(duration_words(timedelta(hours=12))) == "12 h 00 min"
    assert str(duration_words(timedelta(hours=1, minutes=5))) == "1 h 05 min"
