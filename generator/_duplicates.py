"""Near-duplicates: two puzzles that share so many melds that a player would call them the same one.

The canonical form only keeps the very same puzzle from being stored twice. Two tables that share
most of their melds still play alike (issue 21 found Masters that shared the same block of five to
nine sets), and so do two tables that are one table relabelled (issue 38: Masters whose sets stood
at r, r+3, r+6, r+9 for every r and every choice of suits). So runs, the pool and the daily schedule
keep them apart with this one predicate, which judges tables up to relabelling (RULES.md: suits
permuted, ranks shifted or mirrored; `puzzles.melds_in_common`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from puzzles import Position, PositionError, melds_in_common, shares_melds, table_shape

SHARED_MELDS = 4
"""Two tables that share this many melds after the best relabelling (counted as multisets) are
near-duplicates."""

Table = Sequence[Sequence[str]]


def shared_melds(a: Table, b: Table, rules: str = "classic") -> int:
    """How many melds the two tables have in common after the relabelling of one onto the other
    that keeps the most (`puzzles.melds_in_common`), each meld as many times as both tables hold it.

    Melds are read under `rules` (whose ace says which relabellings there are); a run keeps its
    joker's place.
    """
    return melds_in_common(_position(rules, _key(a)), _position(rules, _key(b)))


def near_duplicate(a: Table, b: Table, rules: str = "classic") -> bool:
    """Whether two start tables share SHARED_MELDS or more melds after the best relabelling, or are
    one small table relabelled (every meld shared).

    Callers choose which puzzles to compare: those of one preset and tier in a run or in the pool,
    and every two dailies less than 90 days apart.
    """
    same = len(a) if len(a) == len(b) else SHARED_MELDS
    least = min(SHARED_MELDS, same)
    try:
        first, second = _position(rules, _key(a)), _position(rules, _key(b))
    except PositionError:
        # a table of another preset (a daily of days when the site played other rules): its melds
        # as they are written
        return sum((Counter(_key(a)) & Counter(_key(b))).values()) >= least
    return shares_melds(first, second, least)


def same_table(a: Table, b: Table, rules: str = "classic") -> bool:
    """Whether the two tables are one table relabelled (`puzzles.table_shape`)."""
    return _shape(rules, _key(a)) == _shape(rules, _key(b))


def _key(table: Table) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(meld) for meld in table)


@lru_cache(maxsize=4096)
def _position(rules: str, table: tuple[tuple[str, ...], ...]) -> Position:
    return Position.build(rules, table, ())


@lru_cache(maxsize=4096)
def _shape(rules: str, table: tuple[tuple[str, ...], ...]) -> object:
    return table_shape(_position(rules, table))
