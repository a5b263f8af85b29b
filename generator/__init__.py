"""Tavolo's puzzle generator: proven Machiavelli puzzles with unique maximal plays, graded by
chain depth, each with a short ID that regenerates it.

    >>> from generator import make_puzzle, puzzle_from_id
    >>> puzzle = make_puzzle("classic", tier="medium", seed=1)
    >>> puzzle_from_id(puzzle.id) == puzzle
    True
"""

from generator._duplicates import SHARED_MELDS, near_duplicate, same_table, shared_melds
from generator._grading import TIERS, is_publishable, tier_of
from generator._make import make_puzzle, puzzle_from_id, puzzle_of, recipe_for, verify
from generator._puzzle import Puzzle, PuzzleError, PuzzleId, canonical_form
from generator._themes import MOTIFS, THEMES, Theme, motif_of, themes_of

__all__ = [
    "MOTIFS",
    "SHARED_MELDS",
    "THEMES",
    "TIERS",
    "Puzzle",
    "PuzzleError",
    "PuzzleId",
    "Theme",
    "canonical_form",
    "is_publishable",
    "make_puzzle",
    "motif_of",
    "near_duplicate",
    "puzzle_from_id",
    "puzzle_of",
    "recipe_for",
    "same_table",
    "shared_melds",
    "themes_of",
    "tier_of",
    "verify",
]
