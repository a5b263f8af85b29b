"""The answer to "what is the best play here?" as JSON: shared by the CLI and the web API."""

from __future__ import annotations

from typing import Any

from puzzles._plays import Play
from puzzles._solver import Analysis
from puzzles._steps import plan_steps


def play_json(play: Play) -> dict[str, Any]:
    return {
        "played": [str(card) for card in play.placed],
        "freed": [str(card) for card in play.freed],
        "table": [meld.tokens() for meld in play.table],
    }


def answer_json(analysis: Analysis) -> dict[str, Any]:
    """The best play that breaks the fewest melds, how good it is, how sure, and how to lay it out.

    The fields are those `python -m puzzles solve` prints (see the README); `steps` take the
    original table to the answer's `table`.
    """
    best, depth, unique, chain = analysis.best, analysis.depth, analysis.uniqueness, analysis.chain
    position = analysis.position
    play = analysis.shown
    points_left = sum(position.rules.points.of(card) for card in play.hand_after(position))
    return {
        "rules": position.rules.name,
        "objective": best.objective.value,
        "max_played": play.count,
        **play_json(play),
        "points_left": points_left,
        "optimal": best.optimal,
        "unique": unique.unique,
        "witness": play_json(other) if (other := analysis.other_play) else None,
        "depth": depth.depth,
        "depth_optimal": depth.optimal,
        "broken": list(depth.broken),
        "chain": chain.length,
        "chain_optimal": chain.optimal,
        "rearrangements": [list(group) for group in chain.rearrangements],
        "steps": [step.to_json() for step in plan_steps(position, play)],
        "ms": analysis.ms,
    }
