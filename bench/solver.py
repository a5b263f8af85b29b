"""Time the solver on the seeded corpus, one core, and compare with the engine's targets.

For every position: `maximum` alone, then the full analysis (`analyse`: maximum, uniqueness,
chain depth and chain length), each timed with `time.perf_counter` around the call, and beside them
the peer, rummikub-solver, on the presets whose game it plays (`bench/peer.py`; installed by
`make bench`). One process, one solver worker.

    .venv/bin/python bench/solver.py [--per-preset N] [--seed S] [--presets classic,jokers]

The figures are printed, never asserted: the machine may be shared and loaded.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from corpus import DEFAULT_PER_PRESET, DEFAULT_SEED, OneLineParser, Sample, corpus, preset_names
from peer import Peer

from puzzles import Analysis, Position, Rules, analyse, is_puzzle, maximum, play_problems

TIME_LIMIT = 10.0
"""Seconds for each call: the limit at which results must all be proven."""
TARGET_MAXIMUM_P95_MS = 10.0
TARGET_FULL_P95_MS = 50.0
TARGET_PRESET = "classic"
TARGET_WORST_MS = 1000.0
SITE_TIME_LIMIT = 2.0
"""The site's analyser budget: the share proven within it is printed."""
SLOWEST = 5


@dataclass(frozen=True, slots=True)
class Timing:
    """One position's figures."""

    sample: Sample
    maximum_ms: float
    full_ms: float
    analysis: Analysis
    problems: int
    """Faults found by the independent checks: an illegal final table, fewer cards placed than
    the cards known to be placeable (pulled off a final table), or another maximum than the peer's."""
    peer_ms: float | None
    """The peer's maximum, where it plays this preset's game."""


def time_position(sample: Sample, time_limit: float, repeat: int = 1, peer: Peer | None = None) -> Timing:
    """Time both calls; with `repeat` above 1, keep the fastest of that many runs of each.

    The solver is deterministic (one worker, fixed seed), so repeats differ only by what else the
    machine was doing: the fastest run is the one least disturbed.
    """
    position = sample.position
    maximum_ms = full_ms = math.inf
    for _ in range(repeat):
        started = time.perf_counter()
        best = maximum(position, time_limit=time_limit)
        maximum_ms = min(maximum_ms, (time.perf_counter() - started) * 1000)
    for _ in range(repeat):
        started = time.perf_counter()
        analysis = analyse(position, time_limit=time_limit)
        full_ms = min(full_ms, (time.perf_counter() - started) * 1000)
    problems = len(play_problems(position, [meld.cards for meld in best.play.table]))
    if best.proven and best.placed < sample.pulled:
        problems += 1
    peer_ms = None
    if peer is not None:
        peer_ms = math.inf
        for _ in range(repeat):
            answer = peer.maximum(position)
            peer_ms = min(peer_ms, answer.ms)
        if best.proven and answer.placed != best.placed:
            problems += 1
    return Timing(sample, maximum_ms, full_ms, analysis, problems, peer_ms)


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with `share` of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(math.ceil(share * len(ordered)) - 1, 0)]


def warm_up() -> None:
    """One small solve first, so that loading OR-Tools (and the peer's MILP) is not charged to the
    first position."""
    position = Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S 7S KD")
    analyse(position, time_limit=TIME_LIMIT)
    peer = Peer.for_rules(position.rules)
    if peer is not None:
        peer.maximum(position)


HEADER = (
    f"{'preset':<14}{'n':>5} | {'maximum ms  p50':>15}{'p95':>8}{'max':>9} | {'full ms  p50':>12}{'p95':>8}"
    f"{'max':>9} | {'peer ms  p50':>12}{'p95':>8}{'max':>9} | {'unproven':>8}{'depth>=1':>9}{'puzzles':>8}"
    f"{'placed':>8}{'faults':>7}"
)


def row(preset: str, timings: Sequence[Timing]) -> str:
    maxima = [t.maximum_ms for t in timings]
    fulls = [t.full_ms for t in timings]
    unproven = sum(not t.analysis.proven for t in timings)
    deep = sum((t.analysis.depth.depth or 0) >= 1 for t in timings)
    puzzles = sum(is_puzzle(t.analysis) for t in timings)
    placed = sum(t.analysis.best.placed for t in timings) / len(timings)
    faults = sum(t.problems for t in timings)
    peers = [t.peer_ms for t in timings if t.peer_ms is not None]
    peer = (
        f"{percentile(peers, 0.5):>12.1f}{percentile(peers, 0.95):>8.1f}{max(peers):>9.1f}"
        if peers
        else f"{'-':>12}{'-':>8}{'-':>9}"
    )
    return (
        f"{preset:<14}{len(timings):>5} | {percentile(maxima, 0.5):>15.1f}{percentile(maxima, 0.95):>8.1f}"
        f"{max(maxima):>9.1f} | {percentile(fulls, 0.5):>12.1f}{percentile(fulls, 0.95):>8.1f}"
        f"{max(fulls):>9.1f} | {peer} | {unproven:>8}{deep:>9}{puzzles:>8}{placed:>8.2f}{faults:>7}"
    )


def phases(preset: str, timings: Sequence[Timing]) -> str:
    """The engine's own split of the full analysis, to see which phase costs what."""
    parts = {
        "maximum": [t.analysis.best.ms for t in timings],
        "uniqueness": [t.analysis.uniqueness.ms for t in timings],
        "depth": [t.analysis.depth.ms for t in timings],
        "chain": [t.analysis.chain.ms for t in timings],
    }
    shown = "  ".join(
        f"{name} {percentile(ms, 0.5):.1f}/{percentile(ms, 0.95):.1f}" for name, ms in parts.items()
    )
    return f"{preset:<14}{shown}"


def report(results: dict[str, list[Timing]], time_limit: float, repeat: int = 1) -> None:
    fastest = f", fastest of {repeat} runs" if repeat > 1 else ""
    print(f"\nSolver benchmark, one process, time limit {time_limit:g} s per call (ms, wall clock{fastest})")
    print(HEADER)
    print("-" * len(HEADER))
    for preset, timings in results.items():
        print(row(preset, timings))
    everything = [t for timings in results.values() for t in timings]
    if len(results) > 1:
        print("-" * len(HEADER))
        print(row("all", everything))
    print("\nFull analysis by phase, as the engine reports it (ms p50/p95)")
    for preset, timings in results.items():
        print(phases(preset, timings))
    by_origin = {
        origin: [t for t in everything if t.sample.origin == origin]
        for origin in ("in-progress", "rearranged")
    }
    print("\nBy how the position was dealt")
    for origin, timings in by_origin.items():
        if timings:
            print(row(origin, timings))
    print(f"\nThe {SLOWEST} slowest positions (full analysis)")
    for t in sorted(everything, key=lambda t: t.full_ms, reverse=True)[:SLOWEST]:
        a = t.analysis
        print(
            f"{t.full_ms:9.1f} ms full, {t.maximum_ms:8.1f} ms maximum  {t.sample.name}:"
            f" placed {a.best.placed}, depth {a.depth.depth}, chain {a.chain.length},"
            f" unique {a.uniqueness.unique}, proven {a.proven}"
        )
        print(f"    {t.sample.position}")
    print("\nTargets")
    for line in targets(results):
        print(f"  {line}")


def targets(results: dict[str, list[Timing]]) -> list[str]:
    lines = []
    if TARGET_PRESET in results:
        classic = results[TARGET_PRESET]
        p95 = percentile([t.maximum_ms for t in classic], 0.95)
        lines.append(
            _verdict(
                f"maximum p95 on {TARGET_PRESET} {p95:.1f} ms < {TARGET_MAXIMUM_P95_MS:g} ms",
                p95 < TARGET_MAXIMUM_P95_MS,
            )
        )
        p95 = percentile([t.full_ms for t in classic], 0.95)
        lines.append(
            _verdict(
                f"full p95 on {TARGET_PRESET} {p95:.1f} ms < {TARGET_FULL_P95_MS:g} ms",
                p95 < TARGET_FULL_P95_MS,
            )
        )
        peers = [t.peer_ms for t in classic if t.peer_ms is not None]
        if peers:
            peer_p95 = percentile(peers, 0.95)
            lines.append(
                _verdict(
                    f"full p95 on {TARGET_PRESET} {p95:.1f} ms <= the peer's maximum p95 {peer_p95:.1f} ms",
                    p95 <= peer_p95,
                )
            )
    everything = [t for timings in results.values() for t in timings]
    for limit in (TIME_LIMIT, SITE_TIME_LIMIT):
        within = sum(t.analysis.proven and t.full_ms <= limit * 1000 for t in everything)
        share = within / len(everything)
        lines.append(f"       proven within {limit:g} s: {within} of {len(everything)} ({share:.1%})")
    worst = max(max(t.maximum_ms, t.full_ms) for t in everything)
    lines.append(
        _verdict(f"slowest position {worst:.1f} ms < {TARGET_WORST_MS:g} ms", worst < TARGET_WORST_MS)
    )
    unproven = sum(not t.analysis.proven for t in everything)
    lines.append(_verdict(f"unproven results {unproven} = 0", unproven == 0))
    faults = sum(t.problems for t in everything)
    lines.append(
        _verdict(f"faults (illegal table, or fewer than the pulled cards) {faults} = 0", faults == 0)
    )
    return lines


def _verdict(text: str, met: bool) -> str:
    return f"{'met   ' if met else 'MISSED'} {text}"


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(description="Benchmark the solver on the seeded corpus.")
    parser.add_argument("--per-preset", type=int, default=DEFAULT_PER_PRESET, metavar="N")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--presets", default="all", help="comma-separated preset names, or all")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT, metavar="SECONDS")
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="K",
        help="time each call K times and keep the fastest, to filter out a busy machine (default 1)",
    )
    parser.add_argument("--results", metavar="FILE", help="also write each position's figures as JSON Lines")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        presets = preset_names(args.presets)
    except ValueError as error:
        parser.error(str(error))
    if args.per_preset < 1:
        parser.error("--per-preset must be at least 1")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    warm_up()
    results: dict[str, list[Timing]] = {}
    for name in presets:
        rules = Rules.named(name)
        samples = corpus(rules, args.per_preset, args.seed)
        peer = Peer.for_rules(rules)
        started = time.perf_counter()
        results[name] = [time_position(s, args.time_limit, args.repeat, peer) for s in samples]
        print(f"{name}: {len(samples)} positions in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    if args.results:
        with open(args.results, "w", encoding="utf-8") as out:
            for timings in results.values():
                for t in timings:
                    out.write(json.dumps(_record(t)) + "\n")
    report(results, args.time_limit, args.repeat)
    return 0


def _record(t: Timing) -> dict[str, object]:
    a = t.analysis
    return {
        "id": t.sample.name,
        "origin": t.sample.origin,
        "position": str(t.sample.position),
        "table_cards": sum(len(m.cards) for m in t.sample.position.table),
        "hand_cards": len(t.sample.position.hand),
        "maximum_ms": round(t.maximum_ms, 2),
        "full_ms": round(t.full_ms, 2),
        "phase_ms": [a.best.ms, a.uniqueness.ms, a.depth.ms, a.chain.ms],
        "peer_ms": None if t.peer_ms is None else round(t.peer_ms, 2),
        "placed": a.best.placed,
        "pulled": t.sample.pulled,
        "unique": a.uniqueness.unique,
        "depth": a.depth.depth,
        "chain": a.chain.length,
        "chain_optimal": a.chain.proven,
        "proven": a.proven,
        "problems": t.problems,
    }


if __name__ == "__main__":
    sys.exit(main())
