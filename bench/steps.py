"""Shown-steps benchmark: how many melds a person holds invalid at once following a puzzle's steps.

    .venv/bin/python bench/steps.py FILE.jsonl [FILE.jsonl ...]

Each file holds generator lines (`python -m generator make ... --out FILE`). For every puzzle the
stored solution's steps are planned twice, as the site shows them (`puzzles.plan_steps`: from the
hand along the chain) and meld by meld with the hand last (`meld_by_meld=True`, the order before),
and `puzzles.most_invalid` counts the most melds invalid at once along each. Printed per tier: the
puzzles, the median and the largest count of each order, the milliseconds the plan took (median
and largest), and the stored solutions that join runs they never touch (`puzzles.lay_apart` lays
them apart for the steps). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator import TIERS, Puzzle
from puzzles import Meld, lay_apart, most_invalid, plan_steps, play_of


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    figures: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for path in args.files:
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            puzzle = Puzzle.from_json(json.loads(line))
            position = puzzle.position()
            rules = position.rules
            play = play_of(position, [Meld.parse(" ".join(meld), rules) for meld in puzzle.solution])
            start = [meld.cards for meld in position.table]
            began = time.perf_counter()
            steps = plan_steps(position, play)
            took = (time.perf_counter() - began) * 1000
            old = plan_steps(position, play, meld_by_meld=True)
            tier = figures[puzzle.tier]
            tier["before"].append(most_invalid(start, old, rules))
            tier["after"].append(most_invalid(start, steps, rules))
            tier["ms"].append(took)
            final = [meld.cards for meld in play.table]
            tier["joins"].append(len(lay_apart(start, final, rules)) > len(final))
    heads = ("before median/max", "after median/max", "plan ms median/max", "joined")
    print(f"{'tier':8} {'puzzles':>7} {heads[0]:>18} {heads[1]:>17} {heads[2]:>19} {heads[3]:>7}")
    for tier in sorted(figures, key=lambda name: TIERS.index(name) if name in TIERS else len(TIERS)):
        row = figures[tier]
        before, after, ms = row["before"], row["after"], row["ms"]
        print(
            f"{tier:8} {len(before):7} {statistics.median(before):>11g} / {max(before):<4g}"
            f" {statistics.median(after):>10g} / {max(after):<4g}"
            f" {statistics.median(ms):>11.1f} / {max(ms):<6.1f}"
            f" {sum(row['joins']):>7g}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
