"""The geometry of the stats pictures."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from webapp.players.charts import moves_histogram, rating_line


def test_the_histogram_bins_moves_by_fives_with_a_last_open_bin() -> None:
    bars = moves_histogram([3, 5, 6, 12, 12, 14, 40, 99], width=320, height=100)
    assert [bar.label for bar in bars] == ["1-5", "6-10", "11-15", "16-20", "21-25", "26-30", "31-35", "36+"]
    assert [bar.count for bar in bars] == [2, 1, 3, 0, 0, 0, 0, 2]
    tallest = bars[2]
    assert tallest.height == 100 and tallest.y == 0
    assert bars[0].height == round(100 * 2 / 3, 1) and bars[3].height == 0
    assert all(bar.x + bar.width <= 320 for bar in bars)
    assert bars[1].x > bars[0].x + bars[0].width  # a gap between bars


def test_an_empty_histogram_has_flat_bars() -> None:
    assert {bar.height for bar in moves_histogram([])} == {0}


def test_the_rating_line_spans_the_width_and_a_scale_of_whole_steps() -> None:
    line = rating_line([1500, 1540, 1480, 1610], width=300, height=100, step=50)
    assert line.points[0][0] == 0 and line.points[-1][0] == 300
    # 1450 to 1650 on the scale: 1610 is near the top, 1480 near the bottom
    assert line.ticks[0] == (100, 1450) and line.ticks[-1] == (0, 1650)
    assert line.points[-1][1] == 20.0 and line.points[2][1] == 85.0
    assert line.path.startswith("0.0,75.0 100.0,")
    assert line.last == line.points[-1]


def test_a_flat_rating_line_still_has_a_scale() -> None:
    line = rating_line([1500, 1500])
    assert [value for _, value in line.ticks] == [1450, 1500, 1550]
    assert {y for _, y in line.points} == {60.0}
    assert rating_line([]).last is None


def test_the_rating_line_places_each_rating_by_its_time_and_labels_the_days() -> None:
    start = datetime(2026, 11, 1, 12, tzinfo=UTC)
    moments = [start, start + timedelta(hours=1), start + timedelta(days=9), start + timedelta(days=10)]
    line = rating_line([1500, 1540, 1480, 1610], width=300, moments=moments)
    # a day's gap is a gap on the line: the second point an hour in, the third nine days in
    assert [x for x, _ in line.points] == [0.0, 1.2, 270.0, 300.0]
    assert line.days == ((0.0, date(2026, 11, 1)), (150.0, date(2026, 11, 6)), (300.0, date(2026, 11, 11)))
    # the days are the player's: 23:30 in UTC is the next day in Rome
    late = [datetime(2026, 11, 1, 23, 30, tzinfo=UTC), datetime(2026, 11, 2, 8, tzinfo=UTC)]
    rome = rating_line([1500, 1520], moments=late, zone=ZoneInfo("Europe/Rome"))
    assert rome.days == ((160.0, date(2026, 11, 2)),)  # one day: its label in the middle


def test_ratings_all_of_one_moment_are_spread_evenly() -> None:
    moment = datetime(2026, 11, 1, 12, tzinfo=UTC)
    line = rating_line([1500, 1510, 1520], width=300, moments=[moment] * 3)
    assert [x for x, _ in line.points] == [0.0, 150.0, 300.0]
