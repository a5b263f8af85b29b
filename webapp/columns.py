"""Column types the tables share (`models`), and the columns of the forcing player's count."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.types import TypeDecorator


class UtcDateTime(TypeDecorator[datetime]):
    """An aware UTC datetime on every database (SQLite keeps no time zone of its own)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("store aware datetimes only")
        return value.astimezone(UTC) if value is not None else None

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


class ForcingCount:
    """What a stored puzzle keeps of the forcing player (RULES.md): its decisions and forks, which
    the tier reads with the chain length, and its key ideas."""

    decisions: Mapped[int | None] = mapped_column(default=None)
    """The fewest decisions to a maximal play; None when not proved (the forcing player's limit,
    mostly on a joker puzzle: see `decisions_at_least`) or not counted (stored before it counted)."""
    decisions_at_least: Mapped[int | None] = mapped_column(default=None)
    """When `decisions` is None but the forcing player counted: the lower bound it proved, which the
    tier read; the pages say "at least" it."""
    forks: Mapped[int | None] = mapped_column(default=None)
    """The fewest forks among the lines of fewest decisions."""
    forks_at_least: Mapped[int | None] = mapped_column(default=None)
    """When `forks` is None but the forcing player counted: the lower bound it proved."""
    real_forks: Mapped[int | None] = mapped_column(default=None)
    """The fewest forks that are not weak (`puzzles.weak_forks`: a proved lower bound, as a line's
    `real_forks`); None until judged: the generator judges Expert and Master, `flask puzzles
    key-ideas` and the clock the rest. Not read off `key_ideas`, whose forks are the solution's line
    and may outnumber `forks`. Like the key ideas, never sent to a player who has not finished the
    puzzle."""
    key_ideas: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON(none_as_null=True), default=None)
    """The decisions in words against the solution (`puzzles.KeyIdea.to_json`), found when the puzzle
    was made; None until found for a puzzle stored before (`flask puzzles key-ideas`). Like the
    solution, never sent to a player who has not finished the puzzle."""

    @property
    def shown_decisions(self) -> int | None:
        """The decisions the pages show: the proved count, else the proved lower bound (which they
        say as "at least", `decisions_bound`); None when not counted."""
        return self.decisions if self.decisions is not None else self.decisions_at_least

    @property
    def decisions_bound(self) -> bool:
        """`shown_decisions` is only a lower bound: the pages say "at least"."""
        return self.decisions is None and self.decisions_at_least is not None
