"""Puzzle numbers and days: which daily puzzle is open, for whom, and until when.

Pure date arithmetic, no Flask and no database. Puzzle #1 belongs to the launch day. Puzzle N opens
when day N has begun somewhere on Earth (the first time zone, UTC+14) and stays playable until day N
has ended everywhere (the last time zone, UTC-12), so nobody sees a puzzle before its day and a
traveller loses nothing.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

FIRST_ZONE_AHEAD = timedelta(hours=14)
"""UTC+14 (Kiribati): where every day begins first."""
LAST_ZONE_BEHIND = timedelta(hours=12)
"""UTC-12 (Baker Island): where every day ends last."""

WEEKLY_TIERS = ("easy", "medium", "hard", "hard", "expert", "expert", "master")
"""The tier of each weekday, Monday first: the week ramps up to Sunday's hardest puzzle."""


class DayError(ValueError):
    """A time zone or a puzzle number that does not exist."""


def zone(name: str | None) -> ZoneInfo:
    """The IANA time zone of this name (`Europe/Rome`); UTC when none is given."""
    if not name:
        return ZoneInfo("UTC")
    if len(name) > 64 or name.startswith(("/", ".")) or ".." in name:
        raise DayError(f"unknown time zone {name[:64]!r}")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        # OSError: a folder of the time zone database (`Europe`), or a name the file system refuses
        raise DayError(f"unknown time zone {name!r}") from None


@dataclass(frozen=True, slots=True)
class Calendar:
    """Numbering of the daily puzzles from the launch day."""

    launch: date
    """The day of puzzle #1."""

    def number(self, day: date) -> int:
        """The puzzle number of a day (0 or less before the launch)."""
        return (day - self.launch).days + 1

    def day(self, number: int) -> date:
        """The day of puzzle `number`; DayError when it would fall outside the years 1 to 9999."""
        try:
            return self.launch + timedelta(days=number - 1)
        except OverflowError:
            raise DayError(f"puzzle #{number} has no day in the years 1 to 9999") from None

    def opens(self, number: int) -> datetime:
        """When the day of this puzzle begins in the first time zone."""
        return datetime.combine(self.day(number), time(), UTC) - FIRST_ZONE_AHEAD

    def closes(self, number: int) -> datetime:
        """When the day of this puzzle ends in the last time zone."""
        return datetime.combine(self.day(number) + timedelta(days=1), time(), UTC) + LAST_ZONE_BEHIND

    # is_open and is_future compare numbers and never compute the day of `number`: a number from a
    # URL may be far beyond any date (puzzle #99999999999), and it is simply not out yet

    def is_open(self, number: int, now: datetime) -> bool:
        """Whether `opens(number) <= now < closes(number)`."""
        return number in self.open_numbers(now)

    def is_future(self, number: int, now: datetime) -> bool:
        """Whether `now < opens(number)`, or `number` is before the launch."""
        return number < 1 or number >= self.open_numbers(now).stop

    def open_numbers(self, now: datetime) -> range:
        """Every puzzle playable somewhere right now: two or three consecutive numbers."""
        now = now.astimezone(UTC)
        first = max(self.number((now - LAST_ZONE_BEHIND).date()), 1)
        last = self.number((now + FIRST_ZONE_AHEAD).date())
        return range(first, last + 1)

    def today(self, now: datetime, tz: ZoneInfo) -> int:
        """The number of the player's own day: their local date where they are."""
        return self.number(now.astimezone(tz).date())

    def next_day_starts(self, now: datetime, tz: ZoneInfo) -> datetime:
        """The player's next local midnight, when their next puzzle is due, in UTC."""
        local = now.astimezone(tz)
        midnight = datetime.combine(local.date() + timedelta(days=1), time(), tz)
        return midnight.astimezone(UTC)


def weekly_tier(day: date) -> str:
    """Monday Easy, Tuesday Medium, Wednesday and Thursday Hard, Friday and Saturday Expert, Sunday Master."""
    return WEEKLY_TIERS[day.weekday()]


DAILY_SEED_BASE = 1 << 40
"""Daily seeds start above every practice seed, and stay under 2^41: a 10-character puzzle ID."""


def day_digest(secret: str, number: int) -> bytes:
    """HMAC-SHA256 of the day's number under the site's daily secret: which pool puzzle the day gets
    and the generator's seeds for it. Without the secret no one can tell a future day's puzzle."""
    return hmac.new(secret.encode(), str(number).encode(), hashlib.sha256).digest()


def daily_seed(digest: bytes, attempt: int) -> int:
    """The generator's seed for the day's `attempt`-th try (0, 1, 2), from five bytes of its digest."""
    return DAILY_SEED_BASE + int.from_bytes(digest[5 * attempt : 5 * attempt + 5], "big")


def pool_choice(digest: bytes) -> int:
    """A number that picks one of the day's candidate puzzles in the pool."""
    return int.from_bytes(digest[-8:], "big")
