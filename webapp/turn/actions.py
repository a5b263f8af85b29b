"""A request's action on the player's attempt, carried to the database: the life of a move.

`act` reads the attempt outside any transaction, does the action (`turn.attempts`) to a copy, and
writes it with one compare-and-swap UPDATE (`turn.store`), redone on the new row when another window
won; a first move starts the attempt (and the player) in one write transaction instead. An attempt
that the action finished is rated at once, as a Glicko-2 game between player and puzzle. Every
action, and `look` (a page's GET), answers with a `Turn`: the attempt and the board as it shows it,
with the step check's verdict, for the page to draw.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as Late

from flask import current_app, g

from puzzles import (
    HINT_RUNGS,
    Board,
    Card,
    Hint,
    KeyIdea,
    KeyIdeaError,
    Progress,
    hint,
    ideas_from_json,
    key_card,
    key_ideas,
    progress,
    words,
)
from webapp import db, solver_gate
from webapp.errors import Refusal
from webapp.models import PlayerAttempt, PoolPuzzle
from webapp.players import records
from webapp.players.identity import current_player_id, ensure_player
from webapp.schedule.clock import now
from webapp.turn import attempts, replays, store
from webapp.turn.attempts import Action, TurnError, TurnOver, TurnRace
from webapp.turn.modes import PuzzlePage
from webapp.turn.turn_view import TurnView, turn_view

log = logging.getLogger(__name__)

RACE_TRIES = 3
"""Compare-and-swap rounds before a move gives up with a 409."""
Acted = tuple[PlayerAttempt, Board | None]
"""The attempt an action wrote, and the board it left if it built one."""


class Turn:
    """The player's turn at a page's puzzle as a request leaves it: the attempt, the board, and the
    board as it shows the turn (`view`), built when first asked for: a board whose page is kept
    (`turn.rendering`) is drawn without it, and without its step check."""

    __slots__ = ("_board", "_built", "_view", "attempt", "puzzle")

    def __init__(self, puzzle: PoolPuzzle, attempt: PlayerAttempt | None, board: Board | None = None) -> None:
        self.puzzle = puzzle
        self.attempt = attempt
        """None while the player has not moved a card of this puzzle."""
        self._board = board
        self._view: TurnView | None = None

    @property
    def board(self) -> Board:
        """The attempt's board (or the untouched table), built once."""
        if self._board is None:
            self._board = attempts.board_of(self.puzzle, self.attempt)
        return self._board

    @property
    def view(self) -> TurnView:
        """The board as it shows the attempt (or the untouched table), with the step check's verdict."""
        if self._view is None:
            attempt = self.attempt
            self._view = turn_view(
                self.board,
                self.puzzle.max_placed,
                verdict_of(self.puzzle),
                can_undo=attempt is not None and bool(attempt.history),
                over=attempt is not None and attempt.done,
                hint=attempts.latest_hint(attempt),
            )
        return self._view


def act(page: PuzzlePage, action: Action) -> Turn:
    """Do `action` to the player's attempt at the page's puzzle (started now if they have none),
    unless the turn's time has run out; rate the attempt if that finished it."""
    player = current_player_id()
    action = attempts.on_time(action)
    done = _act_on_stored(page, player, action) if player else None
    attempt, board = done if done is not None else _act_on_new(page, action)
    return turn_of(page.puzzle, _rated(attempt), board)


def look(page: PuzzlePage) -> Turn:
    """The player's turn as it stands, for a page to show: a timed turn whose clock ran out while
    nobody asked is ended first, as any move would end it."""
    player = current_player_id()
    attempt = store.find(db.session(), player, page.puzzle, page.review) if player else None
    if attempt is not None and player is not None and attempt.overdue(now()):
        settled = _act_on_stored(page, player, attempts.on_time(attempts.nothing))
        if settled is not None:
            return turn_of(page.puzzle, _rated(settled[0]), settled[1])
    return turn_of(page.puzzle, attempt)


def _in_its_run(page: PuzzlePage, attempt: PlayerAttempt | None) -> None:
    """Refuse the attempt unless it may be played on this page: a rush's or streak's attempt only on its run's
    pages, where the run's clock is checked first, and no run's page plays another attempt. Without
    this, `/practice/<code>` found the run's attempt by player and puzzle and took hints in a run,
    scored a rush's solve after its deadline and timed a streak's puzzle out as a free skip."""
    if attempt is not None and attempt.run_id != page.run:
        raise Refusal(
            words("This puzzle was dealt in one of your rush or streak runs: it is played there only."), 409
        )


def verdict_of(puzzle: PoolPuzzle) -> attempts.Verdict:
    """The step check on the puzzle, under the site's time limit (kept per cards laid, so the move's
    slip check and the board it draws ask the solver once)."""
    limit = float(current_app.config["STEP_TIME_LIMIT"])
    position = puzzle.position()

    def step_check(laid: tuple[Card, ...]) -> Progress:
        return progress(position, laid, puzzle.max_placed, limit)

    return step_check


_FINDING = ThreadPoolExecutor(1, thread_name_prefix="key-ideas")
"""Where a page works out the key ideas of a puzzle stored without them: one at a time per process."""


def ideas_of(puzzle: PoolPuzzle) -> tuple[KeyIdea, ...]:
    """The puzzle's key ideas as it was stored with them (`PoolPuzzle.key_ideas`). A puzzle stored
    before they were kept has them worked out here, waited for at most KEY_IDEAS_TIME_LIMIT: later
    than that, none are shown this time, and the work, which goes on, serves the next page from the
    engine's cache (`flask puzzles key-ideas` stores them for good)."""
    if puzzle.key_ideas is not None:
        try:
            return ideas_from_json(puzzle.key_ideas)
        except KeyIdeaError as error:
            log.warning("puzzle %s: stored key ideas unreadable (%s); working them out", puzzle.code, error)
    limit = float(current_app.config["KEY_IDEAS_TIME_LIMIT"])
    working = _FINDING.submit(key_ideas, puzzle.position(), puzzle.solution_cards())
    try:
        return working.result(timeout=limit)
    except Late:
        return ()


def move(page: PuzzlePage, card: str, target: str, seen_at: str | None) -> Turn:
    """Move a card on the player's board, counting a slip when the step check says it left the track."""
    verdict = verdict_of(page.puzzle)
    return act(page, lambda attempt, built: attempts.move(attempt, built, card, target, seen_at, verdict))


def turn_of(puzzle: PoolPuzzle, attempt: PlayerAttempt | None, board: Board | None = None) -> Turn:
    """The turn as the board shows it, the attempt's or the untouched table's, with the step check
    under the site's time limit; `board` when the action has just built the attempt's board."""
    return Turn(puzzle, attempt, board)


def ask_hint(page: PuzzlePage) -> Turn:
    """The next rung of the hint ladder for the table as it stands. The engine works outside any
    transaction; the hint is stored only if the table is still the one it was worked out for."""
    player = current_player_id()
    attempt = store.find(db.session(), player, page.puzzle, page.review) if player else None
    _in_its_run(page, attempt)
    if replays.replayed(attempt):
        return turn_of(page.puzzle, attempt)
    if attempt is not None and attempt.done:
        raise TurnOver(words("this puzzle is finished: no more hints"))
    if attempt is not None and attempt.overdue(now()):
        return act(page, attempts.nothing)
    used = attempt.hints if attempt else 0
    if used >= HINT_RUNGS:
        raise TurnError(words("no hints left: %(most)s is the most", most=HINT_RUNGS))
    board = attempts.board_of(page.puzzle, attempt)
    limit = float(current_app.config["HINT_TIME_LIMIT"])
    solution = page.puzzle.solution_cards()
    ideas = ideas_of(page.puzzle) if used == 0 else ()

    def worked_out() -> Hint:
        return hint(board, used + 1, solution, limit, key_card(ideas))

    advice = solver_gate.run(worked_out)

    def give(attempt: PlayerAttempt, built: Board | None) -> Board:
        if attempt.hints != used or attempt.melds != board.to_json():
            raise TurnRace(words("the table changed while the hint was worked out: ask again"))
        attempts.add_hint(attempt, advice)
        return board

    return act(page, give)


def start_timed(page: PuzzlePage) -> Turn:
    """Start a timed turn: the clock runs from now."""
    seconds = int(current_app.config["TURN_SECONDS"])
    return act(page, lambda attempt, built: attempts.start_clock(attempt, seconds))


def time_up(page: PuzzlePage) -> Turn:
    """The page's clock reached zero: end the turn if the server's clock agrees (the turn as it
    stands when the player has no attempt here: nothing to end)."""
    player = current_player_id()
    if player is None or store.find(db.session(), player, page.puzzle, page.review) is None:
        return look(page)
    return act(page, attempts.nothing)


def _rated(attempt: PlayerAttempt) -> PlayerAttempt:
    """Rate an attempt that has just finished: a Glicko-2 game between player and puzzle. A rush's or
    streak's attempt is never rated: a speed run must not move a rating made at leisure."""
    if attempt.done and attempt.rating_after is None and attempt.run_id is None:
        with db.write() as session:
            rated = records.rate_finished(session, attempt)
        if rated is not None:
            attempt.rating_after = rated.player.rating
            # the result card says the ratings as this game found and left them, not read again
            g.turn_rated = (attempt.id, attempt.puzzle_id, rated)
    return attempt


def rating_before_game(puzzle_id: int) -> float | None:
    """The puzzle's rating before the game this request rated, if it rated one of this puzzle."""
    rated: tuple[int, int, records.Rated] | None = g.get("turn_rated")
    return rated[2].puzzle_before if rated is not None and rated[1] == puzzle_id else None


def rated_now(attempt_id: int) -> records.Rated | None:
    """The game this request rated, if it was that of attempt `attempt_id`."""
    rated: tuple[int, int, records.Rated] | None = g.get("turn_rated")
    return rated[2] if rated is not None and rated[0] == attempt_id else None


def _act_on_stored(
    page: PuzzlePage, player: str, action: Action
) -> tuple[PlayerAttempt, Board | None] | None:
    """The action on the player's attempt, if they have one, written with compare and swap: no
    transaction is open while Python works, and SQLite's lock is held for one UPDATE only."""
    with db.database().autocommit() as connection:
        for _ in range(RACE_TRIES):
            stored = store.read(connection, player, page.puzzle, page.review)
            if stored is None:
                return None
            _in_its_run(page, stored.attempt)
            if replays.replayed(stored.attempt):
                return stored.attempt, None  # applied already: answered as it stands
            board = action(stored.attempt, None)
            replays.mark(stored.attempt)
            if store.write(connection, stored):
                return stored.attempt, board
    raise TurnRace(words("the table changed in another window meanwhile: reload the page"))


def _act_on_new(page: PuzzlePage, action: Action) -> Acted:
    """A player's first action on the puzzle: their row (and cookie) if new, and the attempt."""
    with db.write() as session:
        player = current_player_id() or replays.started_player(session)
        attempt = store.locked(session, player, page.puzzle.id, page.review) if player else None
        _in_its_run(page, attempt)
        if attempt is not None and replays.replayed(attempt):
            return attempt, None  # applied already: answered as it stands
        if attempt is not None:
            board = action(attempt, None)
            replays.mark(attempt)
            return attempt, board
        player = ensure_player(session, replays.new_player_id())
        attempt, built = store.begun(player, page.puzzle, page.number, page.review)
        board = action(attempt, built)
        replays.mark(attempt)
        store.write_new(session, attempt)
    return attempt, board
