"""What the site publishes as a puzzle, and how hard it is: one predicate and one grade."""

from __future__ import annotations

from puzzles import Analysis, is_puzzle

TIERS: tuple[str, ...] = ("easy", "medium", "hard", "expert", "master")
"""The named tiers, easiest first."""


def tier_of(depth: int) -> str | None:
    """The tier of a chain depth: 1 easy, 2 medium, 3 hard, 4-5 expert, 6 and more master.

    Depth 0 (new melds and extensions suffice) is no puzzle at all: None.
    """
    if depth <= 0:
        return None
    if depth <= 3:
        return TIERS[depth - 1]
    if depth <= 5:
        return "expert"
    return "master"


def tier_rank(tier: str) -> int:
    """0 for easy up to 4 for master; raises ValueError for an unknown tier."""
    try:
        return TIERS.index(tier)
    except ValueError:
        raise ValueError(f"unknown tier {tier!r}; the tiers are {', '.join(TIERS)}") from None


def is_publishable(analysis: Analysis) -> bool:
    """A puzzle the site may publish: a proved, unique maximum of at least one card (the engine's
    `is_puzzle`) whose proved chain depth is at least 1, so that some meld must be broken."""
    depth = analysis.depth.depth
    return is_puzzle(analysis) and depth is not None and depth >= 1
