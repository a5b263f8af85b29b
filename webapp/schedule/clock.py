"""The site's time, and the player's: `now()` reads the app's `NOW` setting (tests freeze time by
passing their own), `calendar()` numbers the days from the launch, and `player_zone_name()` says
where the player's day is."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import unquote

from flask import current_app, request

from webapp.errors import Refusal
from webapp.schedule.days import Calendar, DayError, zone
from webapp.wording import gettext

TZ_COOKIE = "tz"
"""Set by the page's script to the browser's time zone, percent-encoded."""


def now() -> datetime:
    """The current time, aware and in UTC."""
    moment: datetime = current_app.config["NOW"]()
    if moment.tzinfo is None:
        raise ValueError("NOW must return an aware datetime")
    return moment.astimezone(UTC)


def calendar() -> Calendar:
    return Calendar(current_app.config["LAUNCH_DATE"])


def player_zone_name() -> str:
    """The player's time zone: `?tz=`, else the cookie the page's script sets, else UTC."""
    asked = request.args.get("tz")
    if asked:
        try:
            zone(asked)
        except DayError as error:
            # the engine-free days module words it in English: the page says it in the player's language
            raise Refusal(gettext("unknown time zone %(name)s", name=repr(asked[:64]))) from error
        return asked
    # the script writes the zone with encodeURIComponent (`Asia%2FTokyo`); a plain `/` reads the same
    cookie = unquote(request.cookies.get(TZ_COOKIE, ""))
    try:
        zone(cookie)
    except DayError:  # a stale or forged cookie is not worth an error page
        return "UTC"
    return cookie or "UTC"
