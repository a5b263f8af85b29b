"""The database tables: the puzzle pool, the daily schedule, players, attempts, transfer codes, friends.

The classes are named apart from the generator's (`generator.Puzzle` is a puzzle as the generator
writes it, `PoolPuzzle` one stored in the pool; `PlayerAttempt` is a player's turn at a puzzle).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from enum import StrEnum
from typing import Any, cast

from sqlalchemy import JSON, Double, ForeignKey, Index, Integer, MetaData, String, UniqueConstraint, false
from sqlalchemy.engine.default import DefaultExecutionContext
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

from puzzles import Card, Position
from webapp.columns import ForcingCount, UtcDateTime
from webapp.rating_defaults import DEFAULT_DEVIATION, DEFAULT_RATING, DEFAULT_VOLATILITY


class Status(StrEnum):
    """How a player's attempt stands: still going, or how it ended."""

    PLAYING = "playing"
    SOLVED = "solved"
    """The turn ended with the maximum placed."""
    MISSED = "missed"
    """The turn ended below the maximum."""
    GAVE_UP = "gave-up"
    TIMED_OUT = "timed-out"
    """A timed turn ran out: the table went back as it was."""


class StatusType(TypeDecorator[Status]):
    """A `Status`, stored as its text."""

    impl = String(10)
    cache_ok = True

    def process_bind_param(self, value: Status | str | None, dialect: Any) -> str | None:
        return None if value is None else Status(value).value

    def process_result_value(self, value: str | None, dialect: Any) -> Status | None:
        return None if value is None else Status(value)


class Base(DeclarativeBase):
    # named constraints, so later migrations can drop and alter them on every database
    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(column_0_label)s",
            "uq": "uq_%(table_name)s_%(column_0_N_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


TIER_RATINGS = {"easy": 1100.0, "medium": 1300.0, "hard": 1500.0, "expert": 1700.0, "master": 1900.0}
"""A new puzzle's rating, from its tier; the players' results move it from there."""


def _tier_rating(context: DefaultExecutionContext) -> float:
    parameters: dict[str, Any] = context.get_current_parameters()  # type: ignore[no-untyped-call]
    return TIER_RATINGS.get(parameters.get("tier", ""), DEFAULT_RATING)


class PoolPuzzle(Base, ForcingCount):
    """One proven puzzle of the pool, as the generator made it (its decisions: `ForcingCount`)."""

    __tablename__ = "puzzle"
    __table_args__ = (Index("ix_puzzle_practice_rules_tier", "practice", "rules", "tier"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)
    """The generator's short ID, which regenerates the puzzle."""
    canonical: Mapped[str] = mapped_column(String(2000), unique=True)
    """Table and hand as multisets: the same puzzle made twice is stored once."""
    rules: Mapped[str] = mapped_column(String(20))
    tier: Mapped[str] = mapped_column(String(10), index=True)
    depth: Mapped[int]
    chain: Mapped[int | None] = mapped_column(default=None)
    """Chain length (RULES.md), which the tier follows; None for a puzzle stored before it was measured
    (`flask puzzles rescore` fills it) or that the rescore found no longer publishable: such a puzzle
    is never chosen for a new day or for practice."""
    themes: Mapped[list[str]] = mapped_column(JSON, default=list, server_default="[]")
    """What the solution does, as names of `generator.THEMES`, in their order."""
    live_decoys: Mapped[int | None] = mapped_column(default=None)
    """Decoys that some valid play places (they tempt); None until measured."""
    max_placed: Mapped[int]
    """The most cards a play places: the puzzle's goal."""

    @property
    def shown_chain(self) -> int:
        """What the tier chip shows: the chain length, or the depth of a puzzle not yet rescored."""
        return self.depth if self.chain is None else self.chain

    hand_size: Mapped[int] = mapped_column(server_default="0")
    decoys: Mapped[int] = mapped_column(server_default="0")
    """Hand cards that no maximal play places."""
    table: Mapped[list[list[str]]] = mapped_column(JSON)
    hand: Mapped[list[str]] = mapped_column(JSON)
    solution: Mapped[list[list[str]]] = mapped_column(JSON)
    """A maximal final table: never sent to a player who has not finished the puzzle."""
    added: Mapped[datetime] = mapped_column(UtcDateTime)
    practice: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Made for practice: never published as a daily puzzle."""
    rating: Mapped[float] = mapped_column(Double, default=_tier_rating, server_default=str(DEFAULT_RATING))
    deviation: Mapped[float] = mapped_column(
        Double, default=DEFAULT_DEVIATION, server_default=str(DEFAULT_DEVIATION)
    )
    volatility: Mapped[float] = mapped_column(
        Double, default=DEFAULT_VOLATILITY, server_default=str(DEFAULT_VOLATILITY)
    )

    def position(self) -> Position:
        # built once per loaded row, whose cards never change: a step POST asked three times (1 ms
        # each); the table keeps its stored meld order, as the board numbers the cards in that order
        if (kept := self.__dict__.get("_kept_position")) is None:
            kept = Position.build(self.rules, [list(meld) for meld in self.table], list(self.hand))
            self.__dict__["_kept_position"] = kept
        return cast(Position, kept)

    def solution_cards(self) -> list[list[Card]]:
        """The solution's melds, as cards."""
        return [[Card.parse(token) for token in meld] for meld in self.solution]


class Daily(Base):
    """The puzzle of one day: one row per day, and no puzzle on two days."""

    __tablename__ = "daily"

    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    day: Mapped[date] = mapped_column(unique=True)
    puzzle_id: Mapped[int] = mapped_column(ForeignKey("puzzle.id"), unique=True)
    published: Mapped[datetime] = mapped_column(UtcDateTime)

    puzzle: Mapped[PoolPuzzle] = relationship(lazy="joined", innerjoin=True)


class Player(Base):
    """An anonymous player, known by the id in their signed cookie."""

    __tablename__ = "player"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created: Mapped[datetime] = mapped_column(UtcDateTime)
    rating: Mapped[float] = mapped_column(Double, default=DEFAULT_RATING, server_default=str(DEFAULT_RATING))
    """Glicko-2, moved by every finished attempt."""
    deviation: Mapped[float] = mapped_column(
        Double, default=DEFAULT_DEVIATION, server_default=str(DEFAULT_DEVIATION)
    )
    volatility: Mapped[float] = mapped_column(
        Double, default=DEFAULT_VOLATILITY, server_default=str(DEFAULT_VOLATILITY)
    )


TURN_GRACE = timedelta(seconds=3)
"""Time allowed past a timed turn's deadline for the last request to travel: the clock on the page
reads 0:00 first."""


class PlayerAttempt(Base):
    """One player's turn at one puzzle: the table as they left it, and how it ended."""

    __tablename__ = "attempt"
    __table_args__ = (
        UniqueConstraint("player_id", "puzzle_id", "review"),
        # how everyone did reads a puzzle's attempts finished since its last count (`players.crowd`);
        # a review list, one round's turns by their end from a moment on, its first 50 (`review.queue`)
        Index("ix_attempt_puzzle_id_finished", "puzzle_id", "finished"),
        Index("ix_attempt_player_run_review_finished", "player_id", "run_id", "review", "finished"),
        # what waits for review and what comes back later, counted and listed soonest first
        Index("ix_attempt_player_comes_back", "player_id", "comes_back"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("player.id"), index=True)
    puzzle_id: Mapped[int] = mapped_column(ForeignKey("puzzle.id"))
    number: Mapped[int | None]
    """The daily number it was played as, if any."""
    review: Mapped[int] = mapped_column(default=0, server_default="0")
    """0 for the first turn at the puzzle; 1, 2, ... for its review rounds (`webapp.review`)."""
    melds: Mapped[list[list[str]]] = mapped_column(JSON)
    """The table now, as the board's card ids."""
    history: Mapped[list[str | list[list[str]]]] = mapped_column(JSON)
    """Earlier tables, the latest last, for undo: each as text, `t0 t1 t2/t3 t4 t5/h0` (attempts begun
    before that form keep lists of melds)."""
    moves: Mapped[int] = mapped_column(default=0)
    hints: Mapped[int] = mapped_column(default=0)
    hint_log: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list, server_default="[]")
    """The hints shown, oldest first, as `hints.Hint.to_json` writes them."""
    slips: Mapped[int] = mapped_column(default=0, server_default="0")
    """Moves that took the table off track or to a dead end, as a wrong move counts on Lichess."""
    status: Mapped[Status] = mapped_column(StatusType(), default=Status.PLAYING)
    time_limit: Mapped[int | None] = mapped_column(default=None)
    """Seconds for a timed turn, counted from `started`; None for an untimed one."""
    rating_after: Mapped[float | None] = mapped_column(Double, default=None)
    """The player's rating once this attempt was rated: a point of their rating history."""
    placed: Mapped[int] = mapped_column(default=0)
    """How many cards the hand was down by when the turn ended (0 when it went back as it was)."""
    started: Mapped[datetime] = mapped_column(UtcDateTime)
    finished: Mapped[datetime | None] = mapped_column(UtcDateTime)
    run_id: Mapped[int | None] = mapped_column(ForeignKey("run.id"), index=True, default=None)
    """The rush or streak run it was played in: unrated, counted in neither practice's stats nor streaks."""
    last_request: Mapped[str | None] = mapped_column(String(64), default=None)
    """The id of the last request applied (`turn.replays`): sent again, it is not applied twice."""
    comes_back: Mapped[datetime | None] = mapped_column(UtcDateTime, default=None)
    """When its puzzle comes back for review, on the latest turn at a puzzle outside runs that is in
    review (`review.spacing.comes_back`; `review.spacing.IN_PROGRESS` for a round being played);
    None on every other turn. Kept by the turn's writes (`review.due`), so that counting what waits
    is an index read."""

    puzzle: Mapped[PoolPuzzle] = relationship(lazy="joined", innerjoin=True)

    @property
    def done(self) -> bool:
        return self.status != Status.PLAYING

    @property
    def deadline(self) -> datetime | None:
        """When a timed turn runs out; None for an untimed one."""
        if not self.time_limit:
            return None
        return self.started + timedelta(seconds=self.time_limit)

    def overdue(self, moment: datetime) -> bool:
        """A timed turn still being played whose time (and its grace) ran out before `moment`."""
        ends = self.deadline
        return not self.done and ends is not None and moment > ends + TURN_GRACE


class TransferCode(Base):
    """A one-use code that lets another browser adopt a player: their streak, history and rating."""

    __tablename__ = "transfer_code"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("player.id"), index=True)
    created: Mapped[datetime] = mapped_column(UtcDateTime)
    used: Mapped[datetime | None] = mapped_column(UtcDateTime, default=None)
    used_by: Mapped[str | None] = mapped_column(String(32), default=None)
    """The player id the adopting browser had before, if any: it is kept apart, never merged."""


class Run(Base):
    """A rush or a streak: practice puzzles one after another, each attempt pointing back here
    (`PlayerAttempt.run_id`). Its score and state are read off those attempts (`training.runs`)."""

    __tablename__ = "run"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("player.id"), index=True)
    kind: Mapped[str] = mapped_column(String(10))
    """`rush` or `streak`: a name of `training.runs.KINDS`."""
    rules: Mapped[str] = mapped_column(String(20))
    started: Mapped[datetime] = mapped_column(UtcDateTime)
    seconds: Mapped[int | None] = mapped_column(default=None)
    """A rush's time from `started`, before its penalties; None for a streak, which has no clock."""
    ended: Mapped[datetime | None] = mapped_column(UtcDateTime, default=None)
    """When the run ended (its last puzzle closed); None while it may go on."""


class FriendGroup(Base):
    """A friends' table for the daily puzzle; its keeper is its earliest member (`friends.groups`)."""

    __tablename__ = "friend_group"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created: Mapped[datetime] = mapped_column(UtcDateTime)


class FriendLink(Base):
    """A group's invitation link; a revoked one is kept to say so to whoever follows it."""

    __tablename__ = "friend_link"

    token: Mapped[str] = mapped_column(String(43), primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("friend_group.id", ondelete="CASCADE"), index=True)
    created: Mapped[datetime] = mapped_column(UtcDateTime)
    revoked: Mapped[datetime | None] = mapped_column(UtcDateTime, default=None)


class FriendMember(Base):
    """A player at a friends' table under the name they picked: one per member, none alike in case."""

    __tablename__ = "friend_member"
    __table_args__ = (UniqueConstraint("group_id", "player_id"), UniqueConstraint("group_id", "name_key"))

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("friend_group.id", ondelete="CASCADE"))
    player_id: Mapped[str] = mapped_column(ForeignKey("player.id"), index=True)
    name: Mapped[str] = mapped_column(String(24))
    name_key: Mapped[str] = mapped_column(String(96))  # the name case-folded
    joined: Mapped[datetime] = mapped_column(UtcDateTime)
