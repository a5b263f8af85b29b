"""Time the engine's calls that the generator's search makes, one at a time, on a fixed set of
Expert- and Master-like positions, and print what each answered.

The search (`generator._search`) proves every position it tries: `analyse` (maximum, uniqueness,
chain depth and length), `decisions_of` (the forcing player) and, once a position's grade reaches
its goal, `skill_limited`; then the attempt grades the position it ends on. The calls of the first
attempts of seed 0, whole and in the order they were made, are kept with their arguments in
bench/engine_calls.jsonl (`--record` writes them again: classic Expert and Master, `jokers` Expert,
`german-jokers` Master). Each call is timed by the CPU time of this process around it, in that
order, a fresh engine process per side, so that what the engine keeps from one call for the next
(counts, proved runs, the chain length's proofs) counts as it does in the generator; the answers
(every figure and play) are digested, so that two engines can be checked to answer alike.

    .venv/bin/python bench/engine_calls.py [--rounds 3] [--only analyse,decisions_of]
        [--app-root ../other-checkout] [--json FILE] [--calls FILE]
        [--save-answers FILE | --check-answers FILE]
        [--record [--attempts 40] [--seed 0] [--per-tier N]]

`--app-root DIR` runs the same calls on the engine of another checkout as well (its `puzzles`
package, in a process of its own), the two sides taking turns round by round, and prints both
sides' figures, the ratio, and how many answers differ. Each call's time is its least over the
rounds: the calls are deterministic, so the rounds differ only by what else the machine did.

`--save-answers FILE` writes every answer of this side, one JSON line a call, and
`--check-answers FILE` compares this side's answers with such a file, call by call, and names the
calls that differ: save on one engine (main), check on a changed one, and every figure and play of
every call must be the same. `--calls FILE` reads (or `--record` writes) another corpus than the
committed one: `--record --seed 11 --per-tier 400 --calls /tmp/calls.jsonl` keeps 400 calls of each
preset and tier, the positions the searches of seed 11 visited.

The figures are printed, never asserted: the machine may be shared and loaded.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CALLS = HERE / "engine_calls.jsonl"
KINDS = ("analyse", "decisions_of", "skill_limited")
TIME_LIMIT = 60.0
"""Far above any call's time: every answer the corpus holds is proved well within it."""
RECORDED = {("classic", "expert"): 150, ("classic", "master"): 150, ("jokers", "expert"): 60}
RECORDED |= {("german-jokers", "master"): 60}
"""The presets and tiers whose attempts `--record` runs, and the calls kept of each: those of its
first attempts, whole, in order (the generator's targets are classic's)."""


# -- the worker: runs in the engine's own process (sys.path[0] is the checkout under test)


def _play(play: Any) -> str | None:
    if play is None:
        return None
    table = " / ".join(" ".join(meld.tokens()) for meld in play.table)
    return f"{table} | {' '.join(map(str, play.laid))} | {' '.join(map(str, play.freed))}"


def _answer(kind: str, result: Any) -> list[Any]:
    """Everything a call answered but its own timings."""
    if kind == "analyse":
        a = result
        return [
            a.best.objective_value, a.best.proven, _play(a.best.play),
            a.uniqueness.unique, _play(a.uniqueness.witness),
            a.depth.depth, list(a.depth.broken), a.depth.proven, _play(a.depth.play),
            a.chain.length, a.chain.proven, [list(g) for g in a.chain.rearrangements], _play(a.chain.play),
        ]  # fmt: skip
    if kind == "decisions_of":
        f = result
        return [
            f.decisions, f.at_least, f.proven, [str(d) + "/" + d.kind for d in f.line], f.nodes,
            f.forks, f.forks_at_least, f.agrees,
        ]  # fmt: skip
    run = result
    return [run.skill, run.placed, run.proven, [_play(step) for step in run.steps]]


def _caller(kind: str, args: dict[str, Any]) -> Callable[[], Any]:
    import puzzles

    position = puzzles.Position.parse(args["position"])
    if kind == "analyse":
        return lambda: puzzles.analyse(position, time_limit=TIME_LIMIT)
    if kind == "decisions_of":
        return lambda: puzzles.decisions_of(position, args["maximum"])
    return lambda: puzzles.skill_limited(position, args["skill"], TIME_LIMIT, goal=args["goal"])


def work(calls: Sequence[dict[str, Any]]) -> list[tuple[float, str, list[Any]]]:
    """Each call's CPU seconds, its answer's digest and the answer."""
    import puzzles

    puzzles.analyse(puzzles.Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S 7S KD"))  # warm up
    found = []
    for call in calls:
        run = _caller(call["call"], call)
        started = time.process_time()
        result = run()
        cpu = time.process_time() - started
        answer = _answer(call["call"], result)
        digest = hashlib.sha256(json.dumps(answer).encode()).hexdigest()[:16]
        found.append((cpu, digest, answer))
    return found


# -- the parent: runs the sides and prints


def load(only: Sequence[str], calls: Path = CALLS) -> list[dict[str, Any]]:
    with calls.open() as lines:
        return [call for line in lines if (call := json.loads(line))["call"] in only]


def run_side(root: Path, calls_file: Path) -> list[tuple[float, str, list[Any]]]:
    """One round of every call on the engine of `root`, in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", str(calls_file)],
        cwd=root, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return [(cpu, digest, answer) for cpu, digest, answer in json.loads(done.stdout)]


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(math.ceil(share * len(ordered)) - 1, 0)]


def figures(calls: Sequence[dict[str, Any]], cpus: Sequence[float], kind: str) -> dict[str, float]:
    ms = [cpu * 1000 for call, cpu in zip(calls, cpus, strict=True) if call["call"] == kind]
    if not ms:
        return {}
    return {
        "n": len(ms),
        "mean_ms": round(sum(ms) / len(ms), 3),
        "p50_ms": round(percentile(ms, 0.5), 3),
        "p95_ms": round(percentile(ms, 0.95), 3),
        "total_s": round(sum(ms) / 1000, 3),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default=",".join(KINDS), help="call kinds, comma-separated")
    parser.add_argument("--app-root", type=Path, help="another checkout to compare with")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument("--calls", type=Path, default=CALLS, help="the calls (default: %(default)s)")
    answers = parser.add_mutually_exclusive_group()
    answers.add_argument("--save-answers", type=Path, help="write this side's answers here")
    answers.add_argument("--check-answers", type=Path, help="compare this side's answers with these")
    parser.add_argument("--record", action="store_true", help="write the calls (--calls) again")
    parser.add_argument("--attempts", type=int, default=40, help="--record: attempts a preset and tier")
    parser.add_argument("--seed", type=int, default=0, help="--record: the generator's seed")
    parser.add_argument("--per-tier", type=int, help="--record: calls kept a preset and tier")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        calls = json.loads(args.worker.read_text())
        json.dump(work(calls), sys.stdout)
        return 0
    if args.record:
        return record(args.attempts, args.calls, args.seed, args.per_tier)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    only = [kind.strip() for kind in args.only.split(",") if kind.strip()]
    if unknown := [kind for kind in only if kind not in KINDS]:
        parser.error(f"unknown call kind {unknown[0]!r}; the kinds are {', '.join(KINDS)}")
    if args.app_root is not None and not (args.app_root / "puzzles" / "__init__.py").is_file():
        parser.error(f"--app-root {args.app_root}: no puzzles package there")
    if not args.calls.is_file():
        parser.error(f"--calls {args.calls}: no such file")
    calls = load(only, args.calls)
    calls_file = Path(os.environ.get("TMPDIR", "/tmp")) / f"engine-calls-{os.getpid()}.json"
    calls_file.write_text(json.dumps(calls))
    sides = {"this": ROOT} | ({"other": args.app_root.resolve()} if args.app_root is not None else {})
    best: dict[str, list[float]] = {name: [math.inf] * len(calls) for name in sides}
    digests: dict[str, list[str]] = {}
    answers: list[list[Any]] = []
    try:
        for round_number in range(args.rounds):
            for name, root in sides.items():
                found = run_side(root, calls_file)
                best[name] = [min(a, cpu) for a, (cpu, _, _) in zip(best[name], found, strict=True)]
                if round_number == 0:
                    digests[name] = [digest for _, digest, _ in found]
                    if name == "this":
                        answers = [answer for _, _, answer in found]
    finally:
        calls_file.unlink(missing_ok=True)
    report: dict[str, Any] = {}
    print(f"{len(calls)} calls, least CPU of {args.rounds} rounds per call, one process per side")
    print(f"{'call':<15}{'side':<7}{'n':>5}{'mean ms':>10}{'p50':>8}{'p95':>8}{'total s':>9}")
    for kind in only:
        for name in sides:
            found = figures(calls, best[name], kind)
            if not found:
                continue
            report.setdefault(kind, {})[name] = found
            print(
                f"{kind:<15}{name:<7}{found['n']:>5}{found['mean_ms']:>10.2f}{found['p50_ms']:>8.2f}"
                f"{found['p95_ms']:>8.2f}{found['total_s']:>9.2f}"
            )
        if "other" in report.get(kind, {}):
            ratio = report[kind]["other"]["total_s"] / max(report[kind]["this"]["total_s"], 1e-9)
            print(f"{kind:<15}{'other/this':<12}{ratio:>8.2f}x")
    if "other" in digests:
        differ = [
            f"{call['call']} {call['position']}"
            for call, a, b in zip(calls, digests["this"], digests["other"], strict=True)
            if a != b
        ]
        report["answers_differ"] = len(differ)
        print(f"answers that differ between the sides: {len(differ)} of {len(calls)}")
        for line in differ[:10]:
            print("  " + line)
    report["answers"] = hashlib.sha256("".join(digests["this"]).encode()).hexdigest()[:16]
    print(f"digest of this side's answers: {report['answers']}")
    if args.save_answers is not None:
        args.save_answers.write_text(
            "".join(json.dumps([call, answer]) + "\n" for call, answer in zip(calls, answers, strict=True))
        )
        print(f"{len(answers)} answers written to {args.save_answers}")
    if args.check_answers is not None:
        report["answers_unlike_file"] = check(calls, answers, args.check_answers)
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


def check(calls: Sequence[dict[str, Any]], answers: Sequence[list[Any]], saved: Path) -> int:
    """Print how many of this side's answers differ from those saved, and the first that do."""
    with saved.open() as lines:
        kept = {json.dumps(call, sort_keys=True): answer for call, answer in map(json.loads, lines)}
    missing = [call for call in calls if json.dumps(call, sort_keys=True) not in kept]
    differ = [
        (call, answer)
        for call, answer in zip(calls, answers, strict=True)
        if kept.get(json.dumps(call, sort_keys=True), answer) != answer
    ]
    print(f"answers unlike {saved}: {len(differ)} of {len(calls)} ({len(missing)} calls not in it)")
    for call, answer in differ[:5]:
        print(f"  {call['call']} {call['position']}")
        print(f"    saved: {kept[json.dumps(call, sort_keys=True)]}")
        print(f"    now:   {answer}")
    return len(differ) + len(missing)


def record(attempts: int, calls_file: Path, seed: int, per_tier: int | None) -> int:
    """Run the generator's Expert and Master attempts and keep the engine calls they made, in
    order: whole attempts, up to RECORDED's number of calls a preset and tier (or `per_tier`; an
    attempt that would run over is left out, and the next tried)."""
    import generator._make as make
    import generator._search as search
    from generator._make import attempt, attempt_id, recipe_for

    made: list[dict[str, Any]] = []
    kept = {module: {kind: getattr(module, kind) for kind in KINDS} for module in (search, make)}

    def recording(module: Any, kind: str) -> Callable[..., Any]:
        def call(position: Any, *rest: Any, **options: Any) -> Any:
            found: dict[str, Any] = {"call": kind, "position": str(position)}
            if kind == "decisions_of":
                found["maximum"] = rest[0]
            elif kind == "skill_limited":
                found["skill"], found["goal"] = rest[0], options.get("goal")
            made.append(found)
            return kept[module][kind](position, *rest, **options)

        return call

    for module in kept:
        for kind in KINDS:
            setattr(module, kind, recording(module, kind))
    lines: list[str] = []
    for (rules, tier), most in RECORDED.items():
        most = most if per_tier is None else per_tier
        recipe = recipe_for(tier, rules)
        run: list[dict[str, Any]] = []
        for number in range(attempts):
            made.clear()
            attempt(attempt_id(rules, recipe, seed, number))
            if len(run) + len(made) <= most or not run:
                run += made  # whole attempts only: one that would run over is left out
        print(f"{rules} {tier}: {len(run)} calls")
        lines += [json.dumps(call, sort_keys=True) for call in run]
    calls_file.write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} calls written to {calls_file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
