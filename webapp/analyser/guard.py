"""The spoiler guard: the analyser does not hand out the answer of a puzzle its caller may still play
for a streak or a rating.

Guarded: every daily puzzle still open somewhere, whatever its preset, until the caller has finished
it; and the caller's own unfinished archive and practice attempts. A position is that puzzle when its
cards, on its table or in its hand, hold most of the puzzle's table cards (`TABLE_SHARE`, whatever the
melds), its table not many more cards (`TABLE_SPREAD`), while its cards hold any card of the puzzle's
hand beyond that table: its melds
shuffled, split, rebuilt or partly left out, a few melds or any cards added, hand cards left out (any
of them, placed or not), any preset, any spelling of the cards. One joker in the position stands in
for one missing card, in each count.

The guard is no oracle: what it decides follows from the puzzle's table and hand alone, which the
puzzle's page shows anyone, never from its solution. (It used to ask for every hand card the maximal
play places, so a refusal told which cards those were, and leaving one of them out was answered.)
The views validate the whole request before asking it, so a refusal never stands in for an error a
solve would have given. A cookie-less caller (a script on `/api/solve`) is known to the guard by
nothing but the open dailies; docs/SITE.md says what no guard can stop.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from sqlalchemy import select

from puzzles import JOKER, Card, Position
from webapp import db
from webapp.errors import Refusal
from webapp.models import Daily, PlayerAttempt, PoolPuzzle, Status
from webapp.players import records
from webapp.players.identity import current_player_id
from webapp.schedule.clock import calendar, now
from webapp.wording import gettext

TABLE_SHARE = 0.6
"""How much of a guarded puzzle's table a position's table must hold to count as that puzzle."""
TABLE_SPREAD = 2
"""A position whose table has more than this many times the puzzle's table cards is a game of its own:
a late game's table of 60 cards holds most of any puzzle's 13, and its player must get an answer."""


@dataclass(frozen=True, slots=True)
class Guarded:
    """A puzzle whose answer the caller must not get: how to call it, its table, its hand."""

    name: Callable[[], str]
    """Its name in the page's language, asked only for a refusal (most requests refuse nothing)."""
    table: Counter[Card]
    hand: Counter[Card]

    @classmethod
    def of(cls, name: Callable[[], str], puzzle: PoolPuzzle) -> Guarded:
        return cls(name, *_table_and_hand(puzzle))

    def held_by(self, position: Position, table: Counter[Card]) -> bool:
        """Whether the position, whose table holds the cards `table`, is this puzzle in disguise."""
        if sum(table.values()) > TABLE_SPREAD * sum(self.table.values()):
            return False
        # the puzzle's table cards count wherever the position holds them: carried into the hand,
        # the whole table laid out anew is the answer whenever the puzzle places every card
        cards = table + Counter(position.hand)
        # one joker of the position's own stands in for one missing card, in each count: more would
        # let any joker-laden table pass for any puzzle
        spare = 1 if cards[JOKER] > self.table[JOKER] + self.hand[JOKER] else 0
        shared = sum((self.table & cards).values()) + spare
        if shared < math.ceil(TABLE_SHARE * sum(self.table.values())):
            return False
        # the cards the position has beyond the puzzle's table: one of the puzzle's hand (or a joker
        # for one) is enough, since each answer with some of the hand tells how those cards go
        rest = cards - self.table
        return bool(rest & self.hand) or rest[JOKER] > self.hand[JOKER]


def _cards(tokens: Iterable[str]) -> Counter[Card]:
    return Counter(Card.parse(token) for token in tokens)


def refuse_spoilers(position: Position) -> None:
    """A 403 naming the puzzle when the position is one the caller must not be given the answer to."""
    table = Counter(card for meld in position.table for card in meld.cards)
    guarded = next((puzzle for puzzle in guarded_puzzles() if puzzle.held_by(position, table)), None)
    if guarded is not None:
        message = gettext(
            "This is %(puzzle)s: it can be analysed once you have solved it or given up.",
            puzzle=guarded.name(),
        )
        raise Refusal(message, 403)


def guarded_puzzles() -> Iterator[Guarded]:
    """The open dailies the caller has not finished, then the caller's unfinished attempts."""
    reader = db.session()
    player = current_player_id()
    numbers = tuple(calendar().open_numbers(now()))
    finished = records.finished_numbers(reader, player, numbers)
    # read on every analysis: bench/web_caches.py timed a cache of them saving 0.65 ms of a kept
    # `GET /analyse` (0.9 against 1.5 ms of CPU), under the 2 ms a cache must save
    rows = reader.execute(
        select(Daily.number, PoolPuzzle)
        .join(PoolPuzzle, Daily.puzzle_id == PoolPuzzle.id)
        .where(Daily.number.in_(numbers))
    )
    dailies = [(number, *_table_and_hand(puzzle)) for number, puzzle in rows]
    for number, table, hand in dailies:
        if number not in finished:
            yield Guarded(_daily_name(number), table, hand)
    if player is None:
        return
    playing = reader.scalars(
        select(PlayerAttempt).where(PlayerAttempt.player_id == player, PlayerAttempt.status == Status.PLAYING)
    )
    for attempt in playing:
        yield Guarded.of(_attempt_name(attempt), attempt.puzzle)


def _daily_name(number: int) -> Callable[[], str]:
    return lambda: gettext("daily puzzle #%(number)s, still open", number=number)


def _attempt_name(attempt: PlayerAttempt) -> Callable[[], str]:
    if attempt.number is not None:
        number = attempt.number
        return lambda: gettext("puzzle #%(number)s, which you have not finished", number=number)
    code = attempt.puzzle.code
    return lambda: gettext("practice puzzle %(code)s, which you have not finished", code=code)


def _table_and_hand(puzzle: PoolPuzzle) -> tuple[Counter[Card], Counter[Card]]:
    return _cards(card for meld in puzzle.table for card in meld), _cards(puzzle.hand)
