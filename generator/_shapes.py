"""What a puzzle's table and best play look like as a whole: the figures issue 21 counts, whether the
play mixes sets and runs, and whether it moves a joker. The bench reports these shares per tier.

A **figure** is a table a player reads at a glance as one block: three or more sets on consecutive
ranks, or three or more runs of different suits over three or more common ranks. A play **mixes**
when it breaks a set and a run of the original table; it **moves a joker** when a joker of the hand
is laid or a table joker goes to another place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, pairwise

from puzzles import (
    JOKER,
    SUITS,
    Card,
    Meld,
    MeldKind,
    Play,
    Position,
    StepKind,
    parse_cards,
    plan_steps,
    play_of,
)

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
    """The kinds of the original melds that this final table breaks (`broken_melds`)."""
    return {position.table[i].kind for i in broken_melds(position, solution)}


def broken_melds(position: Position, solution: Sequence[Sequence[str]]) -> list[int]:
    """The original melds (indices) that this final table breaks: a meld is broken when its cards
    do not all end in one final meld (as `plan_steps` moves them, each card once, keeping whole as
    many melds as it can), so a run that gives up its end card is broken too."""
    play = _play(position, solution)
    # where each original meld's cards go: the meld itself for those that stay
    targets: list[set[int | None]] = [set() for _ in position.table]
    moved = [0] * len(position.table)
    for step in plan_steps(position, play, turned_new=False):
        if step.kind is not StepKind.BREAK and step.source is not None and step.source < len(position.table):
            targets[step.source].add(step.target)
            moved[step.source] += len(step.cards)
    for i, meld in enumerate(position.table):
        if moved[i] < len(meld.cards):
            targets[i].add(i)
    return [i for i, ends in enumerate(targets) if len(ends) >= 2]


def mixes(position: Position, solution: Sequence[Sequence[str]]) -> bool:
    """Whether the final table breaks both a set and a run of the original table."""
    return broken_kinds(position, solution) == {MeldKind.SET, MeldKind.RUN}


def holds_joker(position: Position) -> bool:
    """Whether a joker lies on the table or in the hand."""
    return JOKER in position.hand or any(meld.jokers for meld in position.table)


def moves_joker(position: Position, solution: Sequence[Sequence[str]]) -> bool:
    """Whether the final table lays a joker from the hand or puts a table joker somewhere else."""
    play = _play(position, solution)
    steps = plan_steps(position, play, turned_new=False)
    return any(JOKER in step.cards for step in steps if step.kind is not StepKind.BREAK)


def _play(position: Position, solution: Sequence[Sequence[str]]) -> Play:
    return play_of(position, [Meld.of(parse_cards(meld), position.rules) for meld in solution])


def obvious_cards(position: Position) -> list[Card]:
    """The hand cards (each copy) that fit some meld of the table as it lies: the missing suit of a
    set of three, the next card at an end of a run (RULES.md's *obvious card*). A joker fits nearly
    every meld and is never one."""
    fits = {card for meld in position.table for card in extensions(meld, position.rules.top_position)}
    return [card for card in position.hand if card in fits]


def obvious_laid(position: Position, laid: Sequence[Card]) -> tuple[int, int]:
    """How many hand cards are obvious (`obvious_cards`, each copy), and how many of them the best
    play, which lays `laid`, places: a player who declines every obvious card loses these."""
    obvious = Counter(obvious_cards(position))
    placed = Counter(laid)
    return sum(obvious.values()), sum(min(n, placed[card]) for card, n in obvious.items())


def extensions(meld: Meld, top: int) -> list[Card]:
    """The cards that lengthen a meld by one as it lies: a set of three's missing suits, a run's
    neighbours (the high ace after a king where `top` is 14)."""
    if meld.kind is MeldKind.SET:
        present = {card.suit for card in meld.cards}
        if len(meld.cards) >= 4:
            return []
        return [Card(meld.start, suit) for suit in SUITS if suit not in present]
    suit = meld.suit
    assert suit is not None
    return [Card(1 if p == 14 else p, suit) for p in (meld.start - 1, meld.end + 1) if 1 <= p <= top]


Template = tuple[tuple[tuple[str, int], ...], tuple[int, ...]]


def template_of(position: Position, solution: Sequence[Sequence[str]]) -> Template:
    """What a puzzle is made of, as a recipe would make it: the melds the shown play breaks, as
    (kind, length), and the gaps between the ranks of the sets among them, both sorted. The same
    for every relabelling; two chains of four sets three ranks apart with runs of three between
    are one template wherever they lie."""
    broken = [position.table[i] for i in broken_melds(position, solution)]
    melds = tuple(sorted((meld.kind.value, len(meld.cards)) for meld in broken))
    ranks = sorted({meld.start for meld in broken if meld.kind is MeldKind.SET})
    return melds, tuple(sorted(b - a for a, b in pairwise(ranks)))


def frees_joker(position: Position, solution: Sequence[Sequence[str]]) -> bool:
    """Whether the final table moves a joker that lay on the table out of its meld (its real card
    from the hand takes its place, or the meld lets it go): under `german-jokers` the player takes
    it back into the hand to lay it again, or keeps it there."""
    play = _play(position, solution)
    if play.freed:
        return True
    return any(
        JOKER in step.cards and step.source is not None and step.source < len(position.table)
        for step in plan_steps(position, play, turned_new=False)
        if step.kind is not StepKind.BREAK
    )
