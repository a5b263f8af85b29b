"""Every attempt of a run, one JSON line each, in this process: to prove that a change to the
engine leaves the generator's output identical, and to profile a run by phase.

Runs the attempts of a tier's recipe (`recipe_for`) in seed order as `bench/generate.py` does
(`judged`, then the run's keeping: near-duplicates, weak forks, motifs) until `--per-tier` puzzles
are kept or `--attempts` are made, and writes for each attempt its ID, outcome, real forks, the
position it ended on and the puzzle's whole line. Two dumps of the same seed, before and after a
change, must be equal line for line (`cmp`); the CPU seconds are printed, never written, so the
files compare.

    .venv/bin/python bench/attempts_dump.py expert --seed 11 --per-tier 10 --out before.jsonl
    .venv/bin/python bench/attempts_dump.py master --seed 23 --per-tier 2 --profile master.prof

The figures are printed, never asserted: the machine may be shared and loaded.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import sys
import time
from collections.abc import Iterator, Sequence

from generator._make import DEFAULT_TIME_LIMIT, Attempt, attempt, attempt_id, judged, recipe_for
from generator._runs import Plan, Tally, _keep, _Kept


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tier")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--per-tier", type=int, default=10)
    parser.add_argument("--attempts", type=int, default=100_000)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--out", help="write the attempts' lines here")
    parser.add_argument("--profile", help="write cProfile's statistics here")
    args = parser.parse_args(argv)
    plan = Plan(args.rules, recipe_for(args.tier, args.rules), args.seed, args.tier, DEFAULT_TIME_LIMIT)
    lines: list[str] = []
    seconds: list[float] = []

    def results() -> Iterator[Attempt]:
        for number in range(args.attempts):
            started = time.process_time()
            puzzle_id = attempt_id(plan.rules, plan.recipe, plan.seed, number)
            result = judged(attempt(puzzle_id, plan.time_limit), plan.tier)
            seconds.append(time.process_time() - started)
            lines.append(
                json.dumps(
                    {
                        "id": str(result.id),
                        "outcome": result.outcome,
                        "real_forks": result.real_forks,
                        "position": None if result.position is None else str(result.position),
                        "puzzle": None if result.puzzle is None else result.puzzle.to_json(),
                    }
                )
            )
            yield result

    tally = Tally()
    profiler = cProfile.Profile() if args.profile else None
    if profiler is not None:
        profiler.enable()
    kept = list(_keep(plan, args.per_tier, results(), set(), _Kept(), tally, lambda tally: None))
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    if args.out:
        with open(args.out, "w") as file:
            file.write("".join(line + "\n" for line in lines))
    for puzzle in kept:
        print(puzzle.id)
    cpu = sum(seconds)
    print(
        f"{len(kept)} kept of {tally.attempts} attempts in {cpu:.1f} CPU s: "
        f"{len(kept) / max(cpu, 1e-9) * 60:.2f} a CPU minute; outcomes {dict(tally.outcomes)}; "
        f"weak forks {tally.weak_forks}, near-duplicates {tally.near_duplicates}, "
        f"motif {tally.motif_refusals}, figures {tally.figure_refusals}, "
        f"templates {tally.template_refusals}, decisions {tally.decision_refusals}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
