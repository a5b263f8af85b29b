"""Two versions of the engine side by side: the full analysis's CPU time, phase by phase, old and
new alternating per position in one run (which goes first alternates too).

    git worktree add --detach /work/old-x main
    .venv/bin/python bench/phases_ab.py --old /work/old-x [--new .] [--per-preset 87] [--seed 1]

Each version runs in a worker process of its own (`PYTHONPATH` set to its tree) on bench/solver.py's
corpus, this tree's `corpus.py`. Printed per preset: p50, p95 and the sum of `analyse`'s CPU time
(`time.process_time`, so other load on the machine counts less than in wall time), each phase's
sum, and the positions whose answers differ (maximum, uniqueness, depth, chain length, each proven
flag), which should be none. The chain length's time swings with the depth play the depth phase
returns, so the positions where the two return another depth play are summed apart.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from corpus import DEFAULT_SEED, OneLineParser, preset_names

PHASES = {"maximum": "_maximum", "uniqueness": "_uniqueness", "depth": "chain_depth", "chain": "chain_length"}
"""Each phase, and the function of `puzzles._solver` that `analyse` calls for it."""


def worker(lines: TextIO) -> None:
    """Answer 'preset seed number' lines with one JSON line each: CPU time in all and by phase."""
    from corpus import sample

    import puzzles._solver as solver  # this process's engine: the tree on PYTHONPATH
    from puzzles import Position, Rules, analyse

    spent: dict[str, float] = {}

    def timed(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return call(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + time.process_time() - started

        return run

    for phase, function in PHASES.items():
        if hasattr(solver, function):
            setattr(solver, function, timed(phase, getattr(solver, function)))
    analyse(Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S 7S KD"))  # load OR-Tools first
    print("ready", flush=True)
    for line in lines:
        preset, seed, number = line.split()
        position = sample(Rules.named(preset), int(number), int(seed)).position
        spent.clear()
        started = time.process_time()
        a = analyse(position)
        total = time.process_time() - started
        answer = [
            a.best.placed,
            a.best.proven,
            a.uniqueness.unique,
            a.depth.depth,
            a.depth.proven,
            a.chain.length,
            a.chain.proven,
            a.proven,
        ]
        record = {"cpu": total, "phases": spent, "answer": answer, "depth_play": str(a.depth.play)}
        print(json.dumps(record), flush=True)


class Worker:
    def __init__(self, tree: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(tree))
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tree,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin, self.stdout = self.process.stdin, self.process.stdout
        if self.stdout.readline().strip() != "ready":
            raise SystemExit(f"the worker for {tree} did not start")

    def ask(self, preset: str, seed: int, number: int) -> dict[str, Any]:
        self.stdin.write(f"{preset} {seed} {number}\n")
        self.stdin.flush()
        record: dict[str, Any] = json.loads(self.stdout.readline())
        return record

    def close(self) -> None:
        self.stdin.close()
        self.process.wait()


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(math.ceil(share * len(ordered)) - 1, 0)]


Pair = tuple[dict[str, Any], dict[str, Any]]


def report(preset: str, pairs: list[Pair]) -> str:
    old = [a["cpu"] * 1000 for a, _ in pairs]
    new = [b["cpu"] * 1000 for _, b in pairs]
    phases = "  ".join(
        f"{phase} {sum(a['phases'].get(phase, 0) for a, _ in pairs):.2f}/"
        f"{sum(b['phases'].get(phase, 0) for _, b in pairs):.2f}"
        for phase in PHASES
    )
    return (
        f"{preset:<14}{len(pairs):>4} | p50 {percentile(old, 0.5):6.1f} /{percentile(new, 0.5):6.1f}"
        f" | p95 {percentile(old, 0.95):6.1f} /{percentile(new, 0.95):6.1f}"
        f" | sum {sum(old) / 1000:6.2f} /{sum(new) / 1000:6.2f} s | {phases}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(description="Old and new engine side by side, CPU time by phase.")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--old", type=Path, help="the old version's tree (a git worktree)")
    parser.add_argument("--new", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--per-preset", type=int, default=87, metavar="N")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--presets", default="all", help="comma-separated preset names, or all")
    args = parser.parse_args(argv)
    if args.worker:
        worker(sys.stdin)
        return 0
    if args.old is None:
        parser.error("--old is needed")
    try:
        presets = preset_names(args.presets)
    except ValueError as error:
        parser.error(str(error))
    old, new = Worker(args.old.resolve()), Worker(args.new.resolve())
    results: dict[str, list[Pair]] = {}
    differing = 0
    for preset in presets:
        for number in range(args.per_preset):
            if number % 2:
                b = new.ask(preset, args.seed, number)
                a = old.ask(preset, args.seed, number)
            else:
                a = old.ask(preset, args.seed, number)
                b = new.ask(preset, args.seed, number)
            if a["answer"] != b["answer"]:
                differing += 1
                print(f"differs: {preset}-{number} old {a['answer']} new {b['answer']}", flush=True)
            results.setdefault(preset, []).append((a, b))
    old.close()
    new.close()
    print(f"\nCPU ms old / new, seed {args.seed}; phases: sums in s old/new")
    for preset, pairs in results.items():
        print(report(preset, pairs))
    everything = [pair for pairs in results.values() for pair in pairs]
    print(report("all", everything))
    other = [(a, b) for a, b in everything if a["depth_play"] != b["depth_play"]]
    chain_old = sum(a["phases"].get("chain", 0) for a, _ in other)
    chain_new = sum(b["phases"].get("chain", 0) for _, b in other)
    print(f"\nanswers differing: {differing} of {len(everything)}")
    print(f"another depth play: {len(other)}, their chain phase {chain_old:.2f} -> {chain_new:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
