"""When a puzzle comes back for review, without an app: 1, 3, 7 days (then 7) after the turn that went
wrong, on the server's clock (the player's zone names the day), until a clean solve."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from webapp.models import Status
from webapp.review.spacing import ALWAYS, Turn, Waiting, round_to_show, waiting

UTC_ZONE = ZoneInfo("UTC")
NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def turn(
    review: int, status: Status, hints: int = 0, slips: int = 0, finished: datetime | None = NOON
) -> Turn:
    return Turn(1, review, status, hints, slips, finished if status != Status.PLAYING else None)


def test_what_comes_back_and_what_does_not() -> None:
    assert waiting([turn(0, Status.SOLVED)], UTC_ZONE) == []  # clean
    assert waiting([turn(0, Status.PLAYING)], UTC_ZONE) == []  # not finished: not in review yet
    for wrong in (
        turn(0, Status.GAVE_UP),
        turn(0, Status.MISSED),
        turn(0, Status.TIMED_OUT),
        turn(0, Status.SOLVED, hints=1),
        turn(0, Status.SOLVED, slips=2),
    ):
        assert waiting([wrong], UTC_ZONE) == [Waiting(1, 1, date(2026, 11, 30), NOON + timedelta(days=1))]


def test_each_wrong_review_waits_longer_up_to_a_week() -> None:
    rounds = [turn(0, Status.GAVE_UP)]
    expected = [date(2026, 11, 30), date(2026, 12, 2), date(2026, 12, 6), date(2026, 12, 6)]
    for number, due in enumerate(expected, start=1):
        assert waiting(rounds, UTC_ZONE) == [Waiting(1, number, due, datetime.combine(due, NOON.timetz()))]
        rounds.append(turn(number, Status.SOLVED, hints=1))
    rounds.append(turn(len(rounds), Status.SOLVED))
    assert waiting(rounds, UTC_ZONE) == []  # solved clean: out of review


def test_a_round_in_progress_waits_now_and_the_day_shown_is_the_players() -> None:
    playing = waiting([turn(0, Status.MISSED), turn(1, Status.PLAYING)], UTC_ZONE)
    assert playing == [Waiting(1, 1, date.min, ALWAYS, playing=True)] and playing[0].is_due(NOON)
    late = datetime(2026, 11, 29, 23, 30, tzinfo=UTC)  # already 30 November in Tokyo
    (item,) = waiting([turn(0, Status.GAVE_UP, finished=late)], ZoneInfo("Asia/Tokyo"))
    assert item.due == date(2026, 12, 1) and item.at == late + timedelta(days=1)


def test_a_round_falls_due_a_whole_day_later_in_every_zone() -> None:
    """A zone whose midnight comes just after the turn (23:45 at UTC+11) brings nothing early."""
    gave_up = datetime(2026, 11, 29, 12, 45, tzinfo=UTC)
    for name in ("Etc/GMT-11", "Etc/GMT+12", "Asia/Tokyo", "UTC"):
        (item,) = waiting([turn(0, Status.GAVE_UP, finished=gave_up)], ZoneInfo(name))
        assert not item.is_due(gave_up + timedelta(minutes=20)), name
        assert not item.is_due(gave_up + timedelta(hours=23, minutes=59)), name
        assert item.is_due(gave_up + timedelta(days=1)), name


def test_the_round_a_review_page_shows() -> None:
    first = [turn(0, Status.GAVE_UP)]
    assert round_to_show(first, 1, NOON + timedelta(hours=23), UTC_ZONE) is None  # not due yet
    assert round_to_show(first, 1, NOON + timedelta(days=1), UTC_ZONE) == 1
    done = [*first, turn(1, Status.SOLVED)]
    assert round_to_show(done, 1, NOON + timedelta(days=1), UTC_ZONE) == 1  # its result stays on the page
    assert round_to_show([turn(0, Status.SOLVED)], 1, NOON + timedelta(days=31), UTC_ZONE) is None
