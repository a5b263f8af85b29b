"""What judging stored puzzles' forks costs: the clock's hourly `fill_key_ideas` for a pool.

    .venv/bin/python bench/judge_cost.py FILE.jsonl [FILE.jsonl ...]

Each file holds generator lines (`python -m generator make ... --out FILE`). Every puzzle is judged
as the clock judges a stored one (`webapp.schedule.rescore.judged_ideas`: the forcing player's count
and `puzzles.weak_forks` on its stored solution), its key ideas read as not judged yet, in a fresh
cache. Printed per preset and tier: puzzles, the CPU seconds in all, the median, 90th percentile and
largest per puzzle, the grade's forks against the real ones found (`real_forks`), and the fork ideas
said as weak against all fork ideas. Figures are printed, never asserted.
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

from generator import Puzzle
from puzzles import ideas_from_json, parse_cards
from puzzles._forcing import _counted
from webapp.schedule.rescore import judged_ideas


def unjudged(puzzle: Puzzle) -> list[dict[str, object]]:
    """The puzzle's key ideas as a row stored before forks were judged holds them."""
    return [{k: v for k, v in idea.to_json().items() if k != "weak"} for idea in puzzle.key_ideas or ()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    seconds: dict[tuple[str, str], list[float]] = defaultdict(list)
    real_forks: dict[tuple[str, str], int] = defaultdict(int)
    weak: dict[tuple[str, str], int] = defaultdict(int)
    forks: dict[tuple[str, str], int] = defaultdict(int)
    ideas_said: dict[tuple[str, str], int] = defaultdict(int)
    for path in args.files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            parser.error(f"{path}: cannot read it ({error.__class__.__name__})")
        for line in text.splitlines():
            if not line.strip():
                continue
            puzzle = Puzzle.from_json(json.loads(line))
            position = puzzle.position()
            solution = [parse_cards(meld) for meld in puzzle.solution]
            ideas = ideas_from_json(unjudged(puzzle))
            _counted.cache_clear()  # as the clock meets a stored puzzle: counted afresh
            started = time.process_time()
            judged, real = judged_ideas(position, solution, ideas)
            key = (puzzle.rules, puzzle.tier)
            seconds[key].append(time.process_time() - started)
            said = [idea for idea in judged if idea.kind == "fork"]
            real_forks[key] += real
            forks[key] += puzzle.forks if puzzle.forks is not None else puzzle.forks_at_least or 0
            ideas_said[key] += len(said)
            weak[key] += sum(1 for idea in said if idea.weak)
    head = f"{'preset':<14}{'tier':<8}{'n':>4}{'all s':>8}{'median':>8}{'p90':>8}{'max':>8}"
    print(f"{head}  forks real  weak ideas")
    for key in sorted(seconds):
        times = sorted(seconds[key])
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        row = f"{key[0]:<14}{key[1]:<8}{len(times):>4}{sum(times):>8.2f}{statistics.median(times):>8.3f}"
        counts = f"{forks[key]:>5} {real_forks[key]:>4}  {weak[key]}/{ideas_said[key]}"
        print(f"{row}{p90:>8.3f}{times[-1]:>8.3f}  {counts}")


if __name__ == "__main__":
    main()
