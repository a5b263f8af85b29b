"""What a puzzle's table and best play look like as a whole: the figures issue 21 counts, whether the
play mixes sets and runs, and whether it moves a joker. The bench reports these shares per tier.

A **figure** is a table a player reads at a glance as one block: three or more sets on consecutive
ranks, or three or more runs of different suits over three or more common ranks. A play **mixes**
when it breaks a set and a run of the original table; it **moves a joker** when a joker of the hand
is laid or a table joker goes to another place.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from puzzles import JOKER, Meld, MeldKind, Play, Position, StepKind, parse_cards, plan_steps, play_of

FIGURE_SIZE = 3
"""Sets on consecutive ranks, or parallel runs, that make a figure; and the common ranks of the runs."""


def is_figure(table: Sequence[Meld], top_position: int = 13) -> bool:
    """Whether the table shows FIGURE_SIZE or more sets on consecutive ranks (the ace above the king
    when `top_position` is 14), or FIGURE_SIZE or more runs of different suits that share
    FIGURE_SIZE or more ranks.

    >>> is_figure(Position.parse("classic | 4S 4H 4D / 5S 5H 5C / 6H 6D 6C | 7S").table)
    True
    >>> is_figure(Position.parse("classic | 4S 5S 6S 7S / 5H 6H 7H / 2D 3D 4D 5D 6D 7D | 8D").table)
    True
    >>> is_figure(Position.parse("classic | 4S 4H 4D / 5S 5H 5C / 7H 7D 7C | 7S").table)
    False
    """
    ranks = {meld.start for meld in table if meld.kind is MeldKind.SET}
    if 1 in ranks and top_position == 14:
        ranks.add(14)
    if any(all(rank + k in ranks for k in range(FIGURE_SIZE)) for rank in ranks):
        return True
    spans: dict[int, list[set[int]]] = {}
    for meld in table:
        if meld.kind is MeldKind.RUN and meld.suit is not None:
            spans.setdefault(meld.suit.index, []).append(set(range(meld.start, meld.end + 1)))
    for suits in combinations(spans, FIGURE_SIZE):
        for chosen in _one_each([spans[suit] for suit in suits]):
            if len(set.intersection(*chosen)) >= FIGURE_SIZE:
                return True
    return False


def _one_each(groups: list[list[set[int]]]) -> list[list[set[int]]]:
    """Every choice of one span from each group."""
    choices: list[list[set[int]]] = [[]]
    for group in groups:
        choices = [[*chosen, span] for chosen in choices for span in group]
    return choices


def broken_kinds(position: Position, solution: Sequence[Sequence[str]]) -> set[MeldKind]:
    """The kinds of the original melds that this final table breaks: a meld is broken when its cards
    do not all end in one final meld (as `plan_steps` moves them, each card once, keeping whole as
    many melds as it can), so a run that gives up its end card is broken too."""
    play = _play(position, solution)
    # where each original meld's cards go: the meld itself for those that stay
    targets: list[set[int | None]] = [set() for _ in position.table]
    moved = [0] * len(position.table)
    for step in plan_steps(position, play):
        if step.kind is not StepKind.BREAK and step.source is not None and step.source < len(position.table):
            targets[step.source].add(step.target)
            moved[step.source] += len(step.cards)
    for i, meld in enumerate(position.table):
        if moved[i] < len(meld.cards):
            targets[i].add(i)
    return {meld.kind for meld, ends in zip(position.table, targets, strict=True) if len(ends) >= 2}


def mixes(position: Position, solution: Sequence[Sequence[str]]) -> bool:
    """Whether the final table breaks both a set and a run of the original table."""
    return broken_kinds(position, solution) == {MeldKind.SET, MeldKind.RUN}


def holds_joker(position: Position) -> bool:
    """Whether a joker lies on the table or in the hand."""
    return JOKER in position.hand or any(meld.jokers for meld in position.table)


def moves_joker(position: Position, solution: Sequence[Sequence[str]]) -> bool:
    """Whether the final table lays a joker from the hand or puts a table joker somewhere else."""
    play = _play(position, solution)
    return any(JOKER in step.cards for step in plan_steps(position, play) if step.kind is not StepKind.BREAK)


def _play(position: Position, solution: Sequence[Sequence[str]]) -> Play:
    return play_of(position, [Meld.of(parse_cards(meld), position.rules) for meld in solution])
