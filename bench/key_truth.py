"""Key-ideas benchmark: how many of a puzzle's key ideas, and of its grade's forks, are not true.

    .venv/bin/python bench/key_truth.py FILE.jsonl [FILE.jsonl ...]

Each file holds generator lines (`python -m generator make ... --out FILE`), with the key ideas
stored by the engine that made them. For every puzzle, per tier, the stored ideas and the ideas the
engine works out now (`puzzles.key_ideas`) are each counted: ideas, ideas that are not true (a
play that ends the card otherwise, another split between sets and runs, places as many cards:
`reaches_otherwise`), ideas naming a kind of meld ("not to a set") that no meld of the position's
cards could be, ideas beyond the puzzle's decisions, and puzzles with none. Ideas stored before an
idea knew whether such a meld could be named it wherever it had a home and no meld it fits as it
lies: a file none of whose ideas has a field of `MORE_FIELDS` is read so. The grade's line
(`decisions_of`, as the tier reads it) is checked the same way: its forks, and those another end
of the card also wins with (fake forks), both as the grade counts them now (only decisions on
settled cards are forks, docs/RULES.md) and as it counted them before issue 38 item 1 (every
decision not a decline), with the tiers each count gives, the free choices, the puzzles whose
settled cards the solver did not prove, and the forcing player's time a puzzle each way. A joker's
idea or fork is not checked. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator import TIERS, Puzzle
from generator._grading import graded_tier
from puzzles import (
    DEFAULT_NODE_LIMIT,
    JOKER,
    JOKER_NODE_LIMIT,
    Decision,
    KeyIdea,
    Meld,
    Position,
    forcing_player,
    key_ideas,
    parse_cards,
)
from puzzles._key import IDEA_FIELDS, _rival_kind
from puzzles._solver import ends_of, reaches_otherwise

FIELDS = ("ideas", "untrue", "no such kind", "beyond decisions", "puzzles without")


def judged(
    position: Position,
    table: Sequence[Meld],
    maximum: int,
    ideas: Sequence[KeyIdea],
    decisions: int | None,
    before_rivals: bool = False,
) -> Counter[str]:
    """The figures of one puzzle's ideas; `before_rivals`: ideas stored by an engine that named the
    other kind of meld ("not to a set") wherever an idea had a home and no meld it fits."""
    found: Counter[str] = Counter(ideas=len(ideas), **{"puzzles without": int(not ideas)})
    if decisions is not None:
        found["beyond decisions"] = max(0, len(ideas) - decisions)
    for idea in ideas:
        if idea.card.is_joker:
            continue
        if reaches_otherwise(position, maximum, idea.card, *ends_of(table, idea.card)) is True:
            found["untrue"] += 1
        if idea.home_kind is None or idea.instead is not None or idea.kept or idea.copies > 1:
            continue
        names_kind = before_rivals or idea.rival_kind is not None
        if names_kind and _rival_kind(position, idea.card, idea.home_kind) is None:
            found["no such kind"] += 1
    return found


def _untrue(position: Position, maximum: int, decision: Decision) -> bool:
    """Whether a play that ends the decided card otherwise places as many cards (a fake fork)."""
    return reaches_otherwise(position, maximum, decision.card, decision.sets, decision.runs) is True


def _limit(position: Position) -> int:
    """The node limit `decisions_of` counts this position with."""
    joker = JOKER in position.hand or any(meld.jokers for meld in position.table)
    return JOKER_NODE_LIMIT if joker else DEFAULT_NODE_LIMIT


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    stored: dict[str, Counter[str]] = defaultdict(Counter)
    now: dict[str, Counter[str]] = defaultdict(Counter)
    grade: dict[str, Counter[str]] = defaultdict(Counter)
    for path in args.files:
        puzzles = [
            Puzzle.from_json(json.loads(line)) for line in path.read_text().splitlines() if line.strip()
        ]
        # a file none of whose ideas carries a field of MORE_FIELDS was written before them
        before_rivals = not any(
            idea.to_json().keys() - set(IDEA_FIELDS) for puzzle in puzzles for idea in puzzle.key_ideas or ()
        )
        for puzzle in puzzles:
            position = puzzle.position()
            solution = [parse_cards(meld) for meld in puzzle.solution]
            table = [Meld.of(meld, position.rules) for meld in solution]
            maximum, tier = puzzle.max_placed, puzzle.tier
            if puzzle.key_ideas is not None:
                stored[tier] += judged(
                    position, table, maximum, puzzle.key_ideas, puzzle.decisions, before_rivals
                )
            now[tier] += judged(position, table, maximum, key_ideas(position, solution), puzzle.decisions)
            grade[tier]["puzzles"] += 1
            for name, settled in (("before", False), ("now", True)):
                started = time.perf_counter()
                # a fresh count each way: not one the engine kept from an earlier ask
                forcing = forcing_player(position, maximum, node_limit=_limit(position), settled=settled)
                grade[tier][f"ms {name}"] += round((time.perf_counter() - started) * 1000)
                forks = [d for d in forcing.line if d.kind == "fork" and not d.card.is_joker]
                fake = sum(
                    reaches_otherwise(position, maximum, d.card, d.sets, d.runs) is True for d in forks
                )
                grade[tier].update(
                    {
                        f"forks {name}": len(forks),
                        f"fake {name}": fake,
                        f"with a fake {name}": int(fake > 0),
                        f"choices {name}": sum(d.kind == "choice" for d in forcing.line),
                        f"unproved {name}": int(forcing.settled is False),
                        f"{name} {graded_tier(puzzle.chain, forcing)}": 1,
                    }
                )
    for tier in [tier for tier in TIERS if tier in grade]:
        print(f"{tier}: {grade[tier]['puzzles']} puzzles")
        for name, counts in (("stored ideas", stored[tier]), ("ideas now", now[tier])):
            if counts:
                print(f"  {name:13}" + ", ".join(f"{field} {counts[field]}" for field in FIELDS))
        g = grade[tier]
        for name in ("before", "now"):
            tiers = ", ".join(f"{t} {g[f'{name} {t}']}" for t in TIERS if g[f"{name} {t}"])
            ms = g[f"ms {name}"] / g["puzzles"]
            print(
                f"  grade's forks {name:6} {g[f'forks {name}']}, fake {g[f'fake {name}']}, puzzles with a"
                f" fake fork {g[f'with a fake {name}']}, free choices {g[f'choices {name}']}, unproved"
                f" {g[f'unproved {name}']}; tiers: {tiers}; forcing player {ms:.0f} ms a puzzle"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
