"""Near-duplicates: two puzzles that share so many melds that a player would call them the same one.

The canonical form only keeps the very same puzzle from being stored twice. Two tables that share
most of their melds still play alike (issue 21 found Masters that shared the same block of five to
nine sets), so runs, the pool and the daily schedule keep them apart with this one predicate.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

SHARED_MELDS = 4
"""Two tables that share this many identical melds (counted as multisets) are near-duplicates."""


def shared_melds(a: Sequence[Sequence[str]], b: Sequence[Sequence[str]]) -> int:
    """How many melds the two tables have in common, each meld as many times as both tables hold it.

    Melds are compared card by card in the order `Meld.tokens` writes them (stored puzzles are
    written that way), so a run keeps its joker's place.
    """
    return sum((Counter(map(tuple, a)) & Counter(map(tuple, b))).values())


def near_duplicate(a: Sequence[Sequence[str]], b: Sequence[Sequence[str]]) -> bool:
    """Whether two start tables share SHARED_MELDS or more identical melds.

    Callers choose which puzzles to compare: those of one preset and tier in a run or in the pool,
    and every two dailies less than 90 days apart.
    """
    return shared_melds(a, b) >= SHARED_MELDS
