"""A turn as a board shows it: one frozen value, built by one pure function, for every board.

The daily board (and the archive's and practice's) and the analyser's play view draw the same
`_table.html` from a `TurnView`: the melds with their states, the hand, what the step check says and
which actions are open. Pure, like the board: the step check comes in as a function. Also the final
table of a plan numbered as its steps number it (`numbered`), which the result card and the analyser
draw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from puzzles import (
    Board,
    Card,
    Hint,
    Meld,
    MeldState,
    MeldView,
    Position,
    Problem,
    Progress,
    Step,
    apply_steps,
)

StepCheck = Callable[[tuple[Card, ...]], Progress]
"""What the step check says of these hand cards laid: `puzzles.progress` with the position bound."""


@dataclass(frozen=True, slots=True)
class TurnView:
    """Everything a board shows of a turn, whoever plays it."""

    cards: Mapping[str, Card]
    """Every card of the puzzle by id."""
    melds: tuple[MeldView, ...]
    hand: tuple[str, ...]
    """The ids of the cards in the hand now, in the hand's order, then any joker freed."""
    jokers_to_hand: bool
    goal: int
    """The most cards the position can place: the turn's target."""
    hand_size: int
    laid: tuple[Card, ...]
    """The hand cards on the table now."""
    placed: int
    """How many cards the hand is down by, once every meld is valid (0 before)."""
    progress: Progress | None
    """The step check's verdict on the cards laid; None once the turn is over."""
    can_end: bool
    can_undo: bool
    done: bool
    notice: Problem | None = None
    """Why the table cannot end the turn although every meld is valid (a freed joker's real card)."""
    hint: Hint | None = None
    """The latest hint, while the turn goes on."""

    @property
    def hinted(self) -> frozenset[str]:
        """The card ids the hint points at."""
        return frozenset(self.hint.card_ids) if self.hint else frozenset()


def turn_view(
    board: Board,
    goal: int,
    step_check: StepCheck,
    *,
    can_undo: bool,
    over: bool = False,
    ending: bool = False,
    hint: Hint | None = None,
) -> TurnView:
    """The view of `board` in a turn aiming at `goal` cards placed.

    `over`: the turn has ended already (a stored attempt that is finished). `ending`: the player asks
    to end it now (the analyser's end link, which stores nothing): it ends if the table is a legal
    play, else `notice` says why not. The step check runs only while the turn goes on.
    """
    melds = board.views()
    laid = board.laid()
    can_end = bool(laid) and all(meld.state is MeldState.VALID for meld in melds)
    # every meld valid is not yet a legal play: a freed joker needs its real card in its place
    problems = board.problems() if ending and can_end and not over else []
    done = over or (ending and can_end and not problems)
    play = board.play()
    return TurnView(
        cards=board.cards(),
        melds=melds,
        hand=board.hand_ids(),
        jokers_to_hand=board.jokers_to_hand,
        goal=goal,
        hand_size=len(board.position.hand),
        laid=laid,
        placed=play.count if play is not None else 0,
        progress=None if done else step_check(laid),
        can_end=can_end,
        can_undo=can_undo and not done,
        done=done,
        notice=problems[0] if problems else None,
        hint=None if done else hint,
    )


@dataclass(frozen=True, slots=True)
class NumberedMeld:
    """A meld of the final table under the number the steps gave it, and which cards came from the hand."""

    index: int
    cards: tuple[Card, ...]
    from_hand: tuple[bool, ...]


def numbered(position: Position, steps: tuple[Step, ...]) -> tuple[NumberedMeld, ...]:
    """The final table the steps build, each meld under its number, its hand cards marked."""
    laid: dict[int, Counter[Card]] = {}
    for step in steps:
        if step.source is None and step.target is not None:
            laid.setdefault(step.target, Counter()).update(step.cards)
    melds = []
    for index, cards in enumerate(apply_steps([meld.cards for meld in position.table], steps)):
        if not cards:
            continue
        # in table order: a plan ends on the play's own melds, all valid
        cards = Meld.of(cards, position.rules).cards
        marks = Counter(laid.get(index, Counter()))
        flags = []
        for card in cards:
            flags.append(marks[card] > 0)
            marks[card] -= 1
        melds.append(NumberedMeld(index, cards, tuple(flags)))
    return tuple(melds)
