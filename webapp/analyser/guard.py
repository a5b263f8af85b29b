"""The spoiler guard: the analyser does not hand out the answer of a puzzle its caller may still play
for a streak or a rating.

Guarded: every daily puzzle still open somewhere, whatever its preset, until the caller has finished
it; and the caller's own unfinished archive and practice attempts. A position is that puzzle when,
after the best relabelling of the puzzle's cards (`puzzles.card_overlaps`: suits permuted, ranks
shifted or mirrored, as RULES.md's "the same table, relabelled"), its cards, on its table or in its
hand, hold most of the puzzle's table cards (`TABLE_SHARE`, whatever the melds), hold a card of the
puzzle's hand beyond that table, and hold few cards besides (`EXTRA_CARDS`, `EXTRA_SHARE`): its
melds shuffled, split or rebuilt, a meld or a few cards added, hand cards left out (any of them,
placed or not), any preset, any spelling of the cards. One joker in the position stands in for one
missing card, in each count.

The bounds are measured (bench/guard.py): with the relabellings, the 60% of the table and twice its
size that the cards alone used to need took one real-game position in two for some open daily.

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

from puzzles import JOKER, Card, Position, card_overlaps, relabel_cards
from webapp import db
from webapp.errors import Refusal
from webapp.models import Daily, PlayerAttempt, PoolPuzzle, Status
from webapp.players import records
from webapp.players.identity import current_player_id
from webapp.schedule.clock import calendar, now
from webapp.wording import gettext

TABLE_SHARE = 0.8
"""How much of a guarded puzzle's table (relabelled) a position must hold to count as that puzzle."""
EXTRA_CARDS = 4
"""Cards beyond the puzzle's table and hand that a disguise of it may hold: a meld added..."""
EXTRA_SHARE = 0.3
"""...or this share of the puzzle's table, whichever is more. A position with more is a game of its
own, in which the puzzle's cards are one part: its player must get an answer (bench/guard.py)."""


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

    def extra_cards(self) -> int:
        """How many cards beyond the puzzle's own a disguise of it may hold."""
        return max(EXTRA_CARDS, math.floor(EXTRA_SHARE * sum(self.table.values())))

    def held_by(self, position: Position, table: Counter[Card]) -> bool:
        """Whether the position, whose table holds the cards `table`, is this puzzle in disguise."""
        # the puzzle's table cards count wherever the position holds them: carried into the hand,
        # the whole table laid out anew is the answer whenever the puzzle places every card
        cards = table + Counter(position.hand)
        # one joker of the position's own stands in for one missing card, in each count: more would
        # let any joker-laden table pass for any puzzle
        spare = 1 if cards[JOKER] > self.table[JOKER] + self.hand[JOKER] else 0
        spare += min(self.table[JOKER], cards[JOKER])
        overlaps = list(card_overlaps(self.table, cards, self.hand))
        best = max((shared for shared, _ in overlaps), default=0)
        if best + spare < math.ceil(TABLE_SHARE * sum(self.table.values())):
            return False
        # only the relabellings that fit the table best: a worse fit would read a card of the
        # position's own table, the one it lacks of the puzzle's, as the puzzle's hand card
        for shared, relabelling in overlaps:
            if shared < best:
                continue
            # the cards the position has beyond the puzzle's table: one of the puzzle's hand (or a
            # joker for one) is enough, since each answer with some of the hand tells how those go
            hand = relabel_cards(self.hand, relabelling)
            rest = cards - relabel_cards(self.table, relabelling)
            if sum((rest - hand).values()) > self.extra_cards():
                continue
            if rest & hand or rest[JOKER] > hand[JOKER]:
                return True
        return False


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
