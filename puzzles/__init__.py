"""Tavolo's puzzle engine: Machiavelli cards, rule presets, melds, positions and the solver, and
what a turn does to the cards: the board and its moves, meld states, the step check's verdict, the
hint ladder's planning, and a position as a person types it.

Pure: no web framework, no database, no files. OR-Tools is imported by `puzzles._model` alone.
Everything a cache may key on (positions, cards, melds) is hashable.
"""

from puzzles._answer import answer_json, play_json
from puzzles._board import HAND, NEW_MELD, Board, MeldState, MeldView, MoveError, judge
from puzzles._canonical import canonical, told_for
from puzzles._cards import JOKER, SUITS, Card, CardError, Suit, parse_cards, sorted_cards
from puzzles._entry import MAX_PROBLEMS, Entry, EntryProblem, TypedMeld, read_card, read_entry
from puzzles._forcing import (
    DEFAULT_NODE_LIMIT,
    JOKER_NODE_LIMIT,
    Decision,
    Forcing,
    decisions_of,
    forcing_player,
)
from puzzles._hints import HINT_RUNGS, Hint, HintError, final_table, hint
from puzzles._melds import Meld, MeldError, MeldKind, join_runs, meld_problem
from puzzles._model import Objective
from puzzles._phases import Settled, settle, with_chain
from puzzles._plays import Play, play_of, play_problems
from puzzles._position import Position, PositionError
from puzzles._problems import N_, PresetName, Problem, ProblemCode
from puzzles._progress import Progress, Track, progress
from puzzles._relabel import (
    Relabelling,
    Shape,
    card_overlaps,
    melds_in_common,
    relabel,
    relabel_cards,
    relabellings,
    shape,
    table_shape,
)
from puzzles._rules import (
    DEFAULT_RULES,
    PRESETS,
    FreedJoker,
    HandPoints,
    Rules,
    RulesError,
)
from puzzles._solver import (
    CHAIN_SHARE,
    DEFAULT_TIME_LIMIT,
    SKILL_TIES,
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
from puzzles._words import Words, words, words_n

__all__ = [
    "CHAIN_SHARE",
    "DEFAULT_NODE_LIMIT",
    "DEFAULT_RULES",
    "DEFAULT_TIME_LIMIT",
    "HAND",
    "HINT_RUNGS",
    "JOKER",
    "JOKER_NODE_LIMIT",
    "MAX_PROBLEMS",
    "NEW_MELD",
    "N_",
    "PRESETS",
    "SKILL_TIES",
    "SUITS",
    "Analysis",
    "Best",
    "Board",
    "Card",
    "CardError",
    "Chain",
    "Decision",
    "Depth",
    "Entry",
    "EntryProblem",
    "Forcing",
    "FreedJoker",
    "HandPoints",
    "Hint",
    "HintError",
    "Meld",
    "MeldError",
    "MeldKind",
    "MeldState",
    "MeldView",
    "MoveError",
    "Objective",
    "Play",
    "Position",
    "PositionError",
    "PresetName",
    "Problem",
    "ProblemCode",
    "Progress",
    "Relabelling",
    "Rules",
    "RulesError",
    "Settled",
    "Shape",
    "SkillRun",
    "Step",
    "StepCheck",
    "StepKind",
    "Suit",
    "Track",
    "TypedMeld",
    "Uniqueness",
    "Words",
    "analyse",
    "answer_json",
    "apply_steps",
    "canonical",
    "card_overlaps",
    "chain_depth",
    "chain_length",
    "decisions_of",
    "final_table",
    "forcing_player",
    "hint",
    "is_puzzle",
    "join_runs",
    "judge",
    "maximum",
    "meld_problem",
    "melds_in_common",
    "parse_cards",
    "plan_steps",
    "play_json",
    "play_of",
    "play_problems",
    "progress",
    "read_card",
    "read_entry",
    "relabel",
    "relabel_cards",
    "relabellings",
    "settle",
    "shape",
    "skill_limited",
    "sorted_cards",
    "step_check",
    "steps_between",
    "table_shape",
    "told_for",
    "uniqueness",
    "with_chain",
    "words",
    "words_n",
]
