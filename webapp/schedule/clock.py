"""The site's time. `now()` reads the app's `NOW` setting, so tests freeze time by passing their own."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import current_app

from webapp.schedule.days import Calendar


def now() -> datetime:
    """The current time, aware and in UTC."""
    moment: datetime = current_app.config["NOW"]()
    if moment.tzinfo is None:
        raise ValueError("NOW must return an aware datetime")
    return moment.astimezone(UTC)


def calendar() -> Calendar:
    return Calendar(current_app.config["LAUNCH_DATE"])
