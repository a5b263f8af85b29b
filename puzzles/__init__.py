"""Tavolo's puzzle engine: Machiavelli cards, rule presets, melds, positions and the solver.

Pure: no web framework, no database, no files. OR-Tools is imported by `puzzles._model` alone.
"""

from puzzles._answer import answer_json, play_json
from puzzles._cards import JOKER, SUITS, Card, CardError, Suit, parse_cards, sorted_cards
from puzzles._forcing import Decision, Forcing, forcing_player
from puzzles._melds import Meld, MeldError, MeldKind, join_runs, meld_problem
from puzzles._model import Objective
from puzzles._plays import Play, play_of, play_problems
from puzzles._position import Position, PositionError
from puzzles._problems import N_, Problem, ProblemCode
from puzzles._rules import (
    DEFAULT_RULES,
    PRESETS,
    FreedJoker,
    HandPoints,
    Rules,
    RulesError,
)
from puzzles._solver import (
    DEFAULT_TIME_LIMIT,
    Analysis,
    Best,
    Chain,
    Depth,
    SkillRun,
    StepCheck,
    Uniqueness,
    analyse,
    chain_depth,
    chain_length,
    is_puzzle,
    maximum,
    skill_limited,
    step_check,
    uniqueness,
)
from puzzles._steps import Step, StepKind, apply_steps, plan_steps, steps_between

__all__ = [
    "DEFAULT_RULES",
    "DEFAULT_TIME_LIMIT",
    "JOKER",
    "N_",
    "PRESETS",
    "SUITS",
    "Analysis",
    "Best",
    "Card",
    "CardError",
    "Chain",
    "Decision",
    "Depth",
    "Forcing",
    "FreedJoker",
    "HandPoints",
    "Meld",
    "MeldError",
    "MeldKind",
    "Objective",
    "Play",
    "Position",
    "PositionError",
    "Problem",
    "ProblemCode",
    "Rules",
    "RulesError",
    "SkillRun",
    "Step",
    "StepCheck",
    "StepKind",
    "Suit",
    "Uniqueness",
    "analyse",
    "answer_json",
    "apply_steps",
    "chain_depth",
    "chain_length",
    "forcing_player",
    "is_puzzle",
    "join_runs",
    "maximum",
    "meld_problem",
    "parse_cards",
    "plan_steps",
    "play_json",
    "play_of",
    "play_problems",
    "skill_limited",
    "sorted_cards",
    "step_check",
    "steps_between",
    "uniqueness",
]
