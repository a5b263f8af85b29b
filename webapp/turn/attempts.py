"""What a turn may do to a player's attempt: move, undo, reset, end the turn, give up, take a hint,
start and run out a timed turn; and the share text of a finished one.

Each action changes the attempt in memory (`turn.store` writes it); the rules themselves are the
engine's and the board's. No Flask, no database session.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from datetime import timedelta

from puzzles import Board, Card, Hint, MeldState, MoveError, Progress, Track, Words, words, words_n
from webapp.errors import Refusal
from webapp.models import PlayerAttempt, PoolPuzzle, Status
from webapp.schedule.clock import now


class TurnError(Refusal):
    """A request the turn cannot take now: the move is illegal, or the turn is over; `why` says why."""

    status = 422


class TurnOver(TurnError):
    status = 409


class TurnRace(TurnError):
    """Other requests kept changing the attempt while this one was working on it."""

    status = 409


Verdict = Callable[[tuple[Card, ...]], Progress]
"""The step check on the puzzle's position: what it says of these hand cards laid."""
Action = Callable[[PlayerAttempt, Board | None], Board | None]
"""Something a request does to an attempt, in memory. It is handed the attempt's board when the caller
has built it already (a first move's, built as the attempt starts), and returns the board it leaves
when it built one, so that the page draws that board: a move builds the board once."""


def board_of(puzzle: PoolPuzzle, attempt: PlayerAttempt | None) -> Board:
    """The board of the attempt, or the untouched table when there is none."""
    position = puzzle.position()
    if attempt is None:
        return Board.start(position)
    return Board.load(position, attempt.melds)


def _open(attempt: PlayerAttempt) -> None:
    """Refuse an attempt that is over; for an action that needs no board to decide."""
    if attempt.done:
        raise TurnOver(words("this puzzle is finished: the table cannot change any more"))


def _playing(attempt: PlayerAttempt, built: Board | None) -> Board:
    _open(attempt)
    return built if built is not None else board_of(attempt.puzzle, attempt)


UNDO_DEPTH = 100
"""Tables kept for undo; Reset goes back to the start from anywhere."""


def undo_entry(melds: Iterable[Iterable[str]]) -> str:
    """A table (a board's melds) kept for undo, as text: `t0 t1 t2/t3 t4 t5/h0`. A hundred of them load
    in microseconds; as lists of lists, loading and storing them took most of a move's time."""
    return "/".join(" ".join(meld) for meld in melds)


RESET_MARK = "reset:"
"""Begins the undo entry a reset left: undoing it takes no move off the count."""


def undone_table(entry: str | list[list[str]]) -> list[list[str]]:
    """The table an undo entry kept (attempts begun before the text form kept the lists)."""
    if isinstance(entry, list):
        return entry
    entry = entry.removeprefix(RESET_MARK)
    return [meld.split(" ") for meld in entry.split("/")] if entry else []


def _save(attempt: PlayerAttempt, before: Iterable[Iterable[str]], after: Board, mark: str = "") -> None:
    attempt.history = [*attempt.history[-UNDO_DEPTH + 1 :], mark + undo_entry(before)]
    attempt.melds = after.to_json()


def move(
    attempt: PlayerAttempt,
    built: Board | None,
    card_id: str,
    target: str,
    seen_at: str | None,
    verdict: Verdict | None = None,
) -> Board:
    """Move a card; with `verdict` (the step check), count the move as a slip if it takes the table
    off track or to a dead end."""
    board = _playing(attempt, built)
    try:
        moved = board.move(card_id, target, seen_at)
    except MoveError as error:
        raise TurnError(error.words) from None
    _save(attempt, board.melds, moved)
    attempt.moves += 1
    if verdict is not None and is_slip(verdict, board.laid(), moved.laid()):
        attempt.slips += 1
    return moved


def is_slip(verdict: Verdict, before: tuple[Card, ...], after: tuple[Card, ...]) -> bool:
    """Whether a move from `before` to `after` cards laid is a slip: the step check said the maximum
    was reachable before it and says off track or dead end after it. A card moved between melds lays
    nothing new and is never one; an undo takes no slip back, as a wrong move stays wrong."""
    if Counter(before) == Counter(after):
        return False
    if verdict(after).track not in (Track.OFF, Track.DEAD_END):
        return False
    return verdict(before).track is Track.ON


def undo(attempt: PlayerAttempt, built: Board | None) -> Board:
    """Back to the table the last move (or reset) left, built once: the page draws that board (the
    table as it stood is not built at all)."""
    _open(attempt)
    if not attempt.history:
        raise TurnError(words("nothing to undo"))
    entry = attempt.history[-1]
    attempt.melds = undone_table(entry)
    attempt.history = attempt.history[:-1]
    # an undone move is not counted: the moves are the ones the player kept
    if not (isinstance(entry, str) and entry.startswith(RESET_MARK)):
        attempt.moves = max(0, attempt.moves - 1)
    return board_of(attempt.puzzle, attempt)


def reset(attempt: PlayerAttempt, built: Board | None) -> Board:
    """Back to the table as the turn began, the one board built: the table as it stood is kept for
    undo as its stored melds, not built."""
    _open(attempt)
    start = Board.start(attempt.puzzle.position())
    if attempt.melds == start.to_json():
        raise TurnError(words("the table is already as it was"))
    _save(attempt, attempt.melds, start, RESET_MARK)
    return start


def end_turn(attempt: PlayerAttempt, built: Board | None) -> Board:
    """End the turn if every meld is valid: solved when it placed the maximum, missed otherwise."""
    board = _playing(attempt, built)
    invalid = [view for view in board.views() if view.state is not MeldState.VALID]
    if invalid:
        first = invalid[0]
        raise TurnError(
            words(
                "meld %(number)s is not valid yet: %(problem)s", number=first.index + 1, problem=first.reason
            )
        )
    problems = board.problems()
    if problems:
        raise TurnError(problems[0])
    play = board.play()
    assert play is not None, "every meld is valid"
    attempt.placed = play.placed
    attempt.status = Status.SOLVED if attempt.placed >= attempt.puzzle.max_placed else Status.MISSED
    attempt.finished = now()
    return board


def give_up(attempt: PlayerAttempt, built: Board | None) -> Board:
    """Put the table back as it was, as the rules' penalty does, and show the solution."""
    _open(attempt)
    # with no move kept (none made, or every one undone) the board handed in is the start
    start = built if built is not None and not attempt.history else Board.start(attempt.puzzle.position())
    attempt.melds = start.to_json()
    attempt.placed = 0
    attempt.status = Status.GAVE_UP
    attempt.finished = now()
    return start


def nothing(attempt: PlayerAttempt, built: Board | None) -> None:
    """An action that changes nothing: with `on_time`, it only settles a turn whose time ran out."""


# -- hints


def add_hint(attempt: PlayerAttempt, hint: Hint) -> None:
    """Record a hint the player asked for: it shows on the board, in the result and the share text."""
    _open(attempt)
    attempt.hints += 1
    attempt.hint_log = [*attempt.hint_log, hint.to_json()]


def latest_hint(attempt: PlayerAttempt | None) -> Hint | None:
    if attempt is None or not attempt.hint_log:
        return None
    return Hint.from_json(attempt.hint_log[-1])


def hints_used(attempt: PlayerAttempt | None) -> list[Hint]:
    return [Hint.from_json(entry) for entry in attempt.hint_log] if attempt else []


# -- timed turns: the German rules' two minutes


def start_clock(attempt: PlayerAttempt, seconds: int) -> None:
    """Make an untouched attempt a timed turn, starting now."""
    _open(attempt)
    if attempt.time_limit:
        raise TurnOver(words("the clock is already running"))
    if attempt.moves or attempt.history or attempt.hints:
        raise TurnOver(
            words("this turn has begun without the clock: a timed turn starts from an untouched table")
        )
    attempt.time_limit = seconds
    attempt.started = now()


def time_out(attempt: PlayerAttempt) -> Board:
    """The time ran out: the table goes back as it was and the attempt fails, as the rules' penalty says."""
    ends = attempt.deadline
    assert ends is not None, "only a timed turn runs out"
    start = Board.start(attempt.puzzle.position())
    attempt.melds = start.to_json()
    attempt.placed = 0
    attempt.status = Status.TIMED_OUT
    attempt.finished = ends
    return start


def on_time(action: Action) -> Action:
    """The action, unless the attempt's time has run out: then the turn ends there instead."""

    def run(attempt: PlayerAttempt, built: Board | None) -> Board | None:
        if attempt.overdue(now()):
            return time_out(attempt)
        return action(attempt, built)

    return run


# -- the result

SHARE_MARKS = {Status.SOLVED: "✅", Status.MISSED: "❌", Status.GAVE_UP: "🏳️", Status.TIMED_OUT: "⌛"}


def decided(decisions: int | None, at_least: bool = False) -> str:
    """The decisions a puzzle needs as the share text writes them (` 🧭2`, or ` 🧭3+` for a proved
    lower bound), or nothing when they were not counted or there are none: a bare "🧭0" reads as a
    level, so the chip leaves it out too."""
    return f" 🧭{decisions}{'+' if at_least else ''}" if decisions else ""


def share_text(title: str, attempt: PlayerAttempt, streak: int | None = None) -> tuple[str | Words, ...]:
    """`Tavolo #42 ⛓3 🧭2 ✅ 5/5 · 9 moves · 💡1 · ❗2 · 🔥12 · ⏱1:37`, in parts to join with ` · ` once said:
    spoiler-free; the slips (❗) only when there were some. The streak comes with a daily puzzle (when
    there is one to show), the time with a timed turn."""
    puzzle = attempt.puzzle
    mark = SHARE_MARKS.get(attempt.status, "")
    grade = f"⛓{puzzle.shown_chain}{decided(puzzle.shown_decisions, puzzle.decisions_bound)}"
    parts: list[str | Words] = [
        f"{title} {grade} {mark} {attempt.placed}/{puzzle.max_placed}",
        words_n("%(num)d move", "%(num)d moves", attempt.moves),
        f"💡{attempt.hints}",
    ]
    if attempt.slips:
        parts.append(f"❗{attempt.slips}")
    if streak:
        parts.append(f"🔥{streak}")
    if attempt.time_limit and attempt.finished:
        # a turn ended in the grace for the last request's travel took the whole time, no more
        spent = min(attempt.finished - attempt.started, timedelta(seconds=attempt.time_limit))
        parts.append(f"⏱{clock_face(spent)}")
    return tuple(parts)


def clock_face(span: timedelta) -> str:
    """`1:37`: minutes and seconds, as a turn clock shows them."""
    seconds = max(int(span.total_seconds()), 0)
    return f"{seconds // 60}:{seconds % 60:02d}"


def duration_words(span: timedelta) -> Words:
    """`1 h 05 min`, `12 min`, `under 1 min`: how long, in words."""
    minutes = max(int(span.total_seconds()) // 60, 0)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return words("%(hours)s h %(minutes)s min", hours=hours, minutes=str(minutes).zfill(2))
    return words("%(minutes)s min", minutes=minutes) if minutes else words("under 1 min")
