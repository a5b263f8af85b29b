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
idea is checked on the jokers' split between sets and runs, as the engine checks it now, and where
it names the card a joker stands for in a run, on that card (`stands_otherwise`; with
`--before-stand-ins`, stored ideas are read as the engine before that check said them, naming the
card of every joker's idea in a run); a joker's fork in the grade's line is not checked.

What the player is told is checked against the stored solution (issue 38 items 6 and 7), jokers
too: the decided cards of the line the solve answer and the key ideas start from (`decisions_of`
with the solution shown) that the solution ends otherwise, and the lines that do not agree with it
(`Forcing.agrees`), and of the grade's own line, which no player reads; the stored ideas and the
ideas now that the solution contradicts (a home that is none of its melds, or of another kind,
both copies where one goes, a copy kept that is laid, a card kept back that is laid, a meld left
that keeps its copies, "not onto" a meld the home is a part of: `contradicted`); and the counts the
line carries: puzzles whose decisions or forks are not proved, those whose line lacks the bound
(`decisions_at_least`, `forks_at_least`) or carries another than the grade reads now. With
`--answers` each position is also analysed as `python -m puzzles solve` answers it, and its
decision line is checked against the answer's own table and against the stored solution, with the
answers whose table is not the stored solution's play, the answers whose line does not agree with
their own table, and those whose line agrees only by being longer than their count.

Weak forks (docs/RULES.md, `puzzles.weak_forks`, worked out here for every puzzle whatever its line
says): the puzzles with one, the lines that carry their real forks (`real_forks`), and what the
stored ideas tell of them: fork ideas on a weak fork's card not said as weak, puzzles whose ideas
lead with one (the result card's first line, "The key" where it is judged real), and puzzles whose
hint ladder's first rung names its card (`key_card`). Figures are printed, never asserted.
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
from generator._grading import graded_decisions, graded_forks, graded_tier
from puzzles import (
    CHAIN_SHARE,
    DEFAULT_NODE_LIMIT,
    JOKER,
    JOKER_NODE_LIMIT,
    Decision,
    KeyIdea,
    Meld,
    MeldKind,
    Objective,
    Position,
    analyse,
    canonical,
    decisions_of,
    forcing_player,
    key_card,
    key_ideas,
    lay_apart,
    parse_cards,
    settle,
    weak_forks,
)
from puzzles._key import IDEA_FIELDS, _rival_kind, _stand_ins, stands_otherwise
from puzzles._solver import ends_of, reaches_otherwise

FIELDS = (
    "ideas",
    "untrue",
    "no such kind",
    "beyond decisions",
    "puzzles without",
    "contradicted",
    "stand-ins",
    "stand-ins untrue",
)
"""`stand-ins`: joker ideas that name the card the joker stands for in a run ("The joker stands for
7♥ in the run 6♥ 🃏 8♥"); `stand-ins untrue`: those where a play with fewer jokers that can stand
for that card places as many cards (`stands_otherwise`)."""
TOLD = (
    "decided",
    "disagree",
    "lines not agreeing",
    "grade's line disagrees",
    "unproved",
    "bound missing",
    "bound not the grade's",
)
"""`grade's line disagrees`: decided cards of the line the count found (`decisions_of` with no play
shown), which no player reads, that the stored solution ends otherwise: a line of fewest decisions
may lead to another maximal play (j8m1tytgqz: both jokers in runs)."""
ANSWERED = (
    "decided",
    "disagree with its table",
    "lines not agreeing",
    "lines longer than the count",
    "disagree with the solution",
    "tables not the solution's",
    "disagree with the page's table",
)
"""An answer's table is not the solution's where it ends some card otherwise (sets, runs, kept).
`disagree with its table`: decided cards of the answer's line that its own table ends otherwise;
`lines not agreeing`: answers whose line does not agree with their table (`Forcing.agrees`);
`lines longer than the count`: answers whose line agrees with their table only by being longer than
their `decisions` (no line of the fewest decisions reaches the play shown); `disagree with the
page's table`: decided cards of the answer's line that the analyser page's table ends otherwise, the
table it shows before the chain length is known (`settle`'s play: as few breaks, perhaps laid out
otherwise than the answer's, which the chain length's search lays out by rearrangement)."""


def judged(
    position: Position,
    table: Sequence[Meld],
    maximum: int,
    ideas: Sequence[KeyIdea],
    decisions: int | None,
    before_rivals: bool = False,
    before_stand_ins: bool = False,
) -> Counter[str]:
    """The figures of one puzzle's ideas; `before_rivals`: ideas stored by an engine that named the
    other kind of meld ("not to a set") wherever an idea had a home and no meld it fits;
    `before_stand_ins`: by an engine that named the card of every joker's idea in a run."""
    found: Counter[str] = Counter(ideas=len(ideas), **{"puzzles without": int(not ideas)})
    in_runs = Counter(_stand_ins([meld for meld in table if meld.kind is MeldKind.RUN]))
    for idea in ideas:
        card = idea.stands_for
        if card is None and before_stand_ins and idea.card.is_joker and idea.home_kind is MeldKind.RUN:
            assert idea.home is not None
            card = _stand_ins((Meld.of(idea.home, position.rules),))[0]
        if card is not None:
            found["stand-ins"] += 1
            found["stand-ins untrue"] += stands_otherwise(position, maximum, card, in_runs[card]) is True
    if decisions is not None:
        found["beyond decisions"] = max(0, len(ideas) - decisions)
    for idea in ideas:
        found["contradicted"] += contradicted(position, table, idea)
        # a joker's idea too, on the jokers' split between sets and runs
        if reaches_otherwise(position, maximum, idea.card, *ends_of(table, idea.card)) is True:
            found["untrue"] += 1
        if idea.home_kind is None or idea.instead is not None or idea.kept or idea.copies > 1:
            continue
        names_kind = before_rivals or idea.rival_kind is not None
        if names_kind and _rival_kind(position, idea.card, idea.home_kind) is None:
            found["no such kind"] += 1
    return found


WEAK = ("with a weak fork", "lines with real forks", "ideas on it", "led by it", "hints at it")


def weak_told(puzzle: Puzzle, position: Position) -> Counter[str]:
    """What the stored ideas tell of the puzzle's weak forks (`WEAK`): worked out here, not read
    off the line, so that lines written before they were judged count as the player reads them."""
    found: Counter[str] = Counter({"lines with real forks": int(puzzle.real_forks is not None)})
    weak = set(weak_forks(position, puzzle.max_placed, puzzle.laid_cards).weak)
    ideas = puzzle.key_ideas or ()
    unsaid = [idea for idea in ideas if idea.kind == "fork" and idea.card in weak and idea.weak is not True]
    found["with a weak fork"] = int(any(idea.kind == "fork" and idea.card in weak for idea in ideas))
    found["ideas on it"] = len(unsaid)
    found["led by it"] = int(bool(ideas) and ideas[0] in unsaid)
    key = key_card(ideas)
    found["hints at it"] = int(key is not None and key.kind == "fork" and key.card in weak)
    return found


def disagreeing(position: Position, table: Sequence[Meld], line: Sequence[Decision]) -> list[Decision]:
    """The decisions of a line whose card the final table ends otherwise: another count in sets, in
    runs or kept in the hand."""
    found = []
    for decision in line:
        sets, runs = ends_of(table, decision.card)
        total = position.hand.count(decision.card) + sum(m.cards.count(decision.card) for m in position.table)
        if (decision.sets, decision.runs, decision.kept) != (sets, runs, total - sets - runs):
            found.append(decision)
    return found


def contradicted(position: Position, table: Sequence[Meld], idea: KeyIdea) -> bool:
    """Whether the final table contradicts what the idea says: its home is none of the table's melds
    as the steps lay them apart, or of another kind; both copies end in the home's kind where they
    do not; a copy is kept that is laid; a card kept back is laid; a meld it leaves keeps its copies;
    the meld it does not go onto is one its home is a part of."""
    rules = position.rules
    apart = [
        Meld.of(cards, rules)
        for cards in lay_apart([m.cards for m in position.table], [m.cards for m in table], rules)
    ]
    card = idea.card
    sets, runs = ends_of(apart, card)
    total = position.hand.count(card) + sum(m.cards.count(card) for m in position.table)
    if idea.home is None:
        return total - sets - runs < 1
    homes = [m for m in apart if m.cards == idea.home]
    if not homes or homes[0].kind is not idea.home_kind:
        return True
    ending = sets if idea.home_kind is MeldKind.SET else runs
    if idea.copies == 2 and ending < 2:
        return True
    if idea.kept and total - sets - runs != idea.kept:
        return True
    if idea.instead is not None:
        # "not onto X": the home is no part of X (a meld of X's kind keeping some of its cards)
        instead = Meld.of(idea.instead, rules)
        if instead.kind is idea.home_kind and Counter(instead.cards) & Counter(idea.home):
            return True
    if idea.leaves is not None:
        other = runs if idea.home_kind is MeldKind.SET else sets
        lying = sum(m.cards.count(card) for m in position.table if m.kind is not idea.home_kind)
        return other >= lying
    return False


def told(puzzle: Puzzle, position: Position, table: Sequence[Meld]) -> Counter[str]:
    """Whether the line of the solve answer and the key ideas agrees with the stored solution, and
    whether the puzzle's line carries the bounds the grade reads."""
    forcing = decisions_of(position, puzzle.max_placed, shown=table)
    found: Counter[str] = Counter(decided=len(forcing.line))
    found["disagree"] = len(disagreeing(position, table, forcing.line))
    found["lines not agreeing"] = int(forcing.agrees is False)
    plain = decisions_of(position, puzzle.max_placed)
    found["grade's line disagrees"] = len(disagreeing(position, table, plain.line))
    unproved = puzzle.decisions is None or puzzle.forks is None
    found["unproved"] = int(unproved)
    if puzzle.decisions is None and puzzle.decisions_at_least is None:
        found["bound missing"] += 1
    if puzzle.forks is None and puzzle.forks_at_least is None:
        found["bound missing"] += 1
    # the bound a line writes must be the count the grade reads where the count is not proved
    wrong = puzzle.decisions is None and puzzle.decisions_at_least != graded_decisions(forcing)
    wrong |= puzzle.forks is None and puzzle.forks_at_least != graded_forks(forcing)
    found["bound not the grade's"] = int(wrong)
    return found


def answered(position: Position, table: Sequence[Meld], time_limit: float) -> Counter[str]:
    """The solve answer's decision line against its own table and against the stored solution."""
    analysis = analyse(position, time_limit=time_limit)
    shown = analysis.shown.table
    forcing = decisions_of(position, analysis.best.placed, shown=shown)
    found: Counter[str] = Counter(decided=len(forcing.line))
    found["disagree with its table"] = len(disagreeing(position, shown, forcing.line))
    found["lines not agreeing"] = int(forcing.agrees is False)
    found["lines longer than the count"] = int(
        forcing.decisions is not None and len(forcing.line) > forcing.decisions
    )
    found["disagree with the solution"] = len(disagreeing(position, table, forcing.line))
    cards = {*position.hand, *(card for meld in position.table for card in meld.cards)}
    found["tables not the solution's"] = int(any(ends_of(shown, c) != ends_of(table, c) for c in cards))
    # as the site settles it: in the solver's order of melds, told for the position
    ordered, order = canonical(position)
    page = settle(ordered, Objective.CARDS, time_limit * (1 - CHAIN_SHARE)).told(position, order).shown.table
    found["disagree with the page's table"] = len(disagreeing(position, page, forcing.line))
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
    parser.add_argument("--answers", action="store_true", help="also check the solve answer's line")
    parser.add_argument("--time-limit", type=float, default=10.0, help="an answer's analysis, seconds")
    parser.add_argument(
        "--before-stand-ins",
        action="store_true",
        help="stored ideas name the card of every joker's idea in a run (files written before stands_for)",
    )
    args = parser.parse_args()
    truth: dict[str, Counter[str]] = defaultdict(Counter)
    answers: dict[str, Counter[str]] = defaultdict(Counter)
    stored: dict[str, Counter[str]] = defaultdict(Counter)
    now: dict[str, Counter[str]] = defaultdict(Counter)
    grade: dict[str, Counter[str]] = defaultdict(Counter)
    weakly: dict[str, Counter[str]] = defaultdict(Counter)
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
                    position,
                    table,
                    maximum,
                    puzzle.key_ideas,
                    puzzle.decisions,
                    before_rivals,
                    args.before_stand_ins,
                )
            now[tier] += judged(position, table, maximum, key_ideas(position, solution), puzzle.decisions)
            grade[tier]["puzzles"] += 1
            truth[tier] += told(puzzle, position, table)
            weakly[tier] += weak_told(puzzle, position)
            if args.answers:
                answers[tier] += answered(position, table, args.time_limit)
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
        print("  told         " + ", ".join(f"{field} {truth[tier][field]}" for field in TOLD))
        print("  weak forks   " + ", ".join(f"{field} {weakly[tier][field]}" for field in WEAK))
        if args.answers:
            print("  answers      " + ", ".join(f"{field} {answers[tier][field]}" for field in ANSWERED))
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
