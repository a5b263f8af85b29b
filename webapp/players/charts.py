"""The geometry of the stats page's pictures: the moves histogram and the rating line.

Pure, no Flask: the templates draw the SVG from these numbers, in a fixed viewBox that the page
scales to its width.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar of a histogram: its label, its count, and its rectangle in the viewBox."""

    label: str
    count: int
    x: float
    y: float
    width: float
    height: float


MOVE_BINS = (5, 10, 15, 20, 25, 30, 35)
"""Upper ends of the moves histogram's bins; a last bin takes everything above."""


def moves_histogram(
    moves: Sequence[int], width: float = 320, height: float = 120, bins: Sequence[int] = MOVE_BINS
) -> list[Bar]:
    """Solves counted by moves: 1-5, 6-10, ... and the rest, as bars that fill `height` at most."""
    counts = [0] * (len(bins) + 1)
    for value in moves:
        counts[next((i for i, top in enumerate(bins) if value <= top), len(bins))] += 1
    labels = [f"{low + 1}-{top}" for low, top in zip((0, *bins), bins, strict=False)] + [f"{bins[-1] + 1}+"]
    slot = width / len(counts)
    tallest = max(counts) or 1
    bars = []
    for i, (label, count) in enumerate(zip(labels, counts, strict=True)):
        bar_height = round(height * count / tallest, 1)
        bars.append(
            Bar(
                label,
                count,
                round(i * slot + 3, 1),
                round(height - bar_height, 1),
                round(slot - 6, 1),
                bar_height,
            )
        )
    return bars


@dataclass(frozen=True, slots=True)
class Line:
    """A line chart: the polyline's points and the horizontal grid lines with their labels."""

    points: tuple[tuple[float, float], ...]
    ticks: tuple[tuple[float, int], ...]
    """(y in the viewBox, the rating it marks)."""
    days: tuple[tuple[float, date], ...] = ()
    """(x in the viewBox, the day it marks): the time axis's labels, first and last day (and one
    between on a longer span), when the points are placed by time."""

    @property
    def path(self) -> str:
        """The `points` attribute of an SVG polyline."""
        return " ".join(f"{x},{y}" for x, y in self.points)

    @property
    def last(self) -> tuple[float, float] | None:
        return self.points[-1] if self.points else None


def rating_line(
    ratings: Sequence[float],
    width: float = 320,
    height: float = 120,
    step: int = 50,
    moments: Sequence[datetime] | None = None,
    zone: tzinfo = UTC,
) -> Line:
    """Ratings in order, on a vertical scale of whole `step`s around them, spread across `width`: by
    the time each was reached when `moments` are given (days labelled in `zone`, as Lichess draws a
    rating over time), else evenly; ratings all reached at one moment are spread evenly too."""
    if not ratings:
        return Line((), ())
    low = math.floor(min(ratings) / step) * step
    high = math.ceil(max(ratings) / step) * step
    if high == low:
        low, high = low - step, high + step
    # at most five grid lines: widen the step on a long climb, and end the scale on grid lines
    stride = step * max(1, math.ceil((high - low) / step / 4))
    low, high = math.floor(low / stride) * stride, math.ceil(high / stride) * stride

    def y(rating: float) -> float:
        return round(height - (rating - low) / (high - low) * height, 1)

    gap = width / max(len(ratings) - 1, 1)
    xs = [round(i * gap, 1) for i in range(len(ratings))]
    days: tuple[tuple[float, date], ...] = ()
    if moments is not None and len(moments) == len(ratings):
        start, span = moments[0], (moments[-1] - moments[0]).total_seconds()
        if span > 0:
            xs = [round((moment - start).total_seconds() / span * width, 1) for moment in moments]
        first, last = (moment.astimezone(zone).date() for moment in (moments[0], moments[-1]))
        if first == last:
            days = ((round(width / 2, 1), first),)
        elif (last - first).days >= 4:
            middle = (start + timedelta(seconds=span / 2)).astimezone(zone).date()
            days = ((0.0, first), (round(width / 2, 1), middle), (float(width), last))
        else:
            days = ((0.0, first), (float(width), last))
    points = tuple((x, y(rating)) for x, rating in zip(xs, ratings, strict=True))
    ticks = tuple((y(value), value) for value in range(int(low), int(high) + 1, stride))
    return Line(points, ticks, days)


def rating_over_time(
    rated: Sequence[tuple[datetime, datetime | None, float | None]], start: float, most: int, zone: tzinfo
) -> Line:
    """The rating line of turns rated as (started, finished, rating after), oldest first: the latest
    `most`, placed by when each finished; a history shorter than that begins at `start`, the rating
    every player starts from, when the first rated turn began (so one rated turn draws a line)."""
    points = [
        (finished, rating) for _, finished, rating in rated if finished is not None and rating is not None
    ]
    if 0 < len(points) < most:
        points.insert(0, (rated[0][0], start))
    points = points[-most:]
    return rating_line([rating for _, rating in points], moments=[moment for moment, _ in points], zone=zone)
