"""The answer to "what is the best play here?" as JSON: shared by the CLI and the web API."""

from __future__ import annotations

from typing import Any

from puzzles._forcing import Forcing
from puzzles._plays import Play
from puzzles._solver import Analysis
from puzzles._steps import lay_play_apart, plan_steps
from puzzles._weak import WeakForks


def play_json(play: Play) -> dict[str, Any]:
    return {
        "laid": [str(card) for card in play.laid],
        "freed": [str(card) for card in play.freed],
        "table": [meld.tokens() for meld in play.table],
    }


def forcing_json(forcing: Forcing | None, weak: WeakForks | None = None) -> dict[str, Any]:
    """The forcing player's count: `decisions` (None unless proved), `decisions_at_least` (proved),
    `forks` (None unless proved), `forks_at_least` (proved), `real_forks` (the forks that are not
    weak, `puzzles.weak_forks`: None unless proved), `real_forks_at_least` (proved) and
    `decision_line`, the decisions that reach a maximal play, each a `kind`: "decline", "fork" or
    "choice" (a free choice, RULES.md), and for a fork `weak`: whether it is a weak one."""
    if forcing is None:
        return {
            "decisions": None,
            "decisions_at_least": 0,
            "forks": None,
            "forks_at_least": 0,
            "real_forks": None,
            "real_forks_at_least": 0,
            "decision_line": [],
        }
    weak_cards = set(weak.weak) if weak is not None else set()
    return {
        "decisions": forcing.decisions,
        "decisions_at_least": forcing.at_least,
        "forks": forcing.forks,
        "forks_at_least": forcing.forks_at_least,
        "real_forks": forcing.forks if weak is None else weak.forks,
        "real_forks_at_least": forcing.forks_at_least if weak is None else weak.forks_at_least,
        "decision_line": [
            {
                "card": str(d.card),
                "sets": d.sets,
                "runs": d.runs,
                "kept": d.kept,
                "kind": d.kind,
                **({"weak": d.card in weak_cards} if d.kind == "fork" else {}),
                "text": str(d),
            }
            for d in forcing.line
        ],
    }


def answer_json(
    analysis: Analysis, forcing: Forcing | None = None, weak: WeakForks | None = None
) -> dict[str, Any]:
    """The best play that breaks the fewest melds, how good it is, how sure, and how to lay it out.

    The fields are those `python -m puzzles solve` prints (docs/ENGINE.md); `steps` take the
    original table to the answer's `table`. With `forcing` (the forcing player on this position's
    maximum, the decisions it takes as well, and with `weak` (`puzzles.weak_forks` of that play),
    which of its forks are weak (without it, none is: a line without a fork has none to judge).
    """
    best, depth, unique, chain = analysis.best, analysis.depth, analysis.uniqueness, analysis.chain
    position = analysis.position
    # the shown play's runs laid apart where it does not touch them, as its steps show them
    play = lay_play_apart(position, analysis.shown)
    points_left = sum(position.rules.points.of(card) for card in play.hand_after(position))
    return {
        "rules": position.rules.name,
        "objective": best.objective.value,
        "max_placed": play.placed,
        **play_json(play),
        "points_left": points_left,
        "optimal": best.proven,
        "unique": unique.unique,
        "witness": play_json(other) if (other := analysis.other_play) else None,
        "depth": depth.depth,
        "depth_optimal": depth.proven,
        "broken": list(depth.broken),
        "chain": chain.length,
        "chain_optimal": chain.proven,
        "rearrangements": [list(group) for group in chain.rearrangements],
        "steps": [step.to_json() for step in plan_steps(position, play, depth.broken)],
        **({} if forcing is None else forcing_json(forcing, weak)),
        "ms": analysis.ms,
    }
