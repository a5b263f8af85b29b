"""Rearrangements as columns: what one group of original melds, broken together, can do.

For the chain length at a small k, a best play is a choice of disjoint groups of at most k melds,
each broken and laid out again on its own with some hand cards, plus new melds and extensions made
of hand cards alone. A group's cards are fixed, so what it can do is a short list, found here by
plain search: each way ("option") is the hand cards it lays and the kept melds whose final meld
takes some of its cards. The solver then only chooses options (`puzzles._model.cover`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from puzzles._candidates import Candidate, Keeping

Shape = Candidate | Keeping


@dataclass(frozen=True, slots=True)
class Option:
    """One way a group of melds can be broken and laid out again on its own."""

    group: tuple[int, ...]
    """The original melds it breaks."""
    hand: Candidate
    """The hand cards it lays, as (card index, count) pairs."""
    claims: tuple[int, ...]
    """Kept original melds whose final meld also takes cards of this group (sorted)."""
    shapes: tuple[Shape, ...]
    """One layout: its final melds (candidates, and keepings of the melds it claims)."""


class TooMany(Exception):
    """More options than the caller allows: the columns would cost more than they save."""


def options(
    group: tuple[int, ...],
    melds: Sequence[Counter[int]],
    hand: Counter[int],
    shapes: Sequence[Candidate],
    ways: Sequence[Keeping],
    most: int,
) -> list[Option]:
    """Every way `group` can lay out its cards with some hand cards, each laying at least one.

    Each final meld of the group holds a card of the group: a meld of hand cards alone could as
    well be laid apart from it. Raises `TooMany` past `most` options.
    """
    own: Counter[int] = Counter()
    for i in group:
        own.update(melds[i])
    own_types = frozenset(own)
    allowed = own_types | frozenset(hand)
    outside = frozenset(range(len(melds))) - frozenset(group)
    usable: list[tuple[Shape, Candidate, frozenset[int]]] = []
    for piece in shapes:
        types = frozenset(i for i, _ in piece)
        if types <= allowed and not types.isdisjoint(own_types):
            usable.append((piece, piece, frozenset()))
    for way in ways:
        types = frozenset(i for i, _ in way.extra)
        if types <= allowed and not types.isdisjoint(own_types) and set(way.melds) <= outside:
            usable.append((way, way.extra, frozenset(way.melds)))
    by_type: dict[int, list[tuple[Shape, Candidate, frozenset[int]]]] = {}
    for entry in usable:
        for index, _ in entry[1]:
            if index in own_types:
                by_type.setdefault(index, []).append(entry)

    found: dict[tuple[Candidate, frozenset[int]], tuple[Shape, ...]] = {}
    seen: set[tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], frozenset[int]]] = set()
    left = dict(own)
    used: Counter[int] = Counter()
    chosen: list[Shape] = []

    def search(claims: frozenset[int]) -> None:
        uncovered = [index for index, n in left.items() if n > 0]
        if not uncovered:
            if used:
                key = (tuple(sorted(used.items())), claims)
                if key not in found:
                    if len(found) >= most:
                        raise TooMany
                    found[key] = tuple(chosen)
            return
        state = (tuple(sorted(left.items())), tuple(sorted(used.items())), claims)
        if state in seen:
            return
        seen.add(state)
        # the group's smallest card not yet laid: some final meld of the group holds it
        first = min(uncovered)
        for shape, cards, melds_kept in by_type.get(first, ()):
            if claims & melds_kept:
                continue
            taken: list[tuple[int, bool]] = []
            fits = True
            for index, count in cards:
                for _ in range(count):
                    if left.get(index, 0) > 0:
                        left[index] -= 1
                        taken.append((index, True))
                    elif used[index] < hand[index]:
                        used[index] += 1
                        taken.append((index, False))
                    else:
                        fits = False
                        break
                if not fits:
                    break
            if fits:
                chosen.append(shape)
                search(claims | melds_kept)
                chosen.pop()
            for index, from_group in taken:
                if from_group:
                    left[index] += 1
                else:
                    used[index] -= 1
                    if not used[index]:
                        del used[index]

    search(frozenset())
    return [
        Option(group, hand_cards, tuple(sorted(claims)), layout)
        for (hand_cards, claims), layout in found.items()
    ]
