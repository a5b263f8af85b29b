"""Tavolo's puzzle generator: proven Machiavelli puzzles with unique maximal plays, graded by
chain depth, each with a short ID that regenerates it.

    >>> from generator import make_puzzle, puzzle_from_id
    >>> puzzle = make_puzzle("classic", tier="medium", seed=1)
    >>> puzzle_from_id(puzzle.id) == puzzle
    True
"""

from generator._grading import TIERS, is_publishable, tier_of
from generator._make import make_puzzle, puzzle_from_id, verify
from generator._puzzle import Puzzle, PuzzleError, PuzzleId, canonical_form

__all__ = [
    "TIERS",
    "Puzzle",
    "PuzzleError",
    "PuzzleId",
    "canonical_form",
    "is_publishable",
    "make_puzzle",
    "puzzle_from_id",
    "tier_of",
    "verify",
]
