"""The chain length with the hand cards' reach as its lower bound (`puzzles._reach`) beside the
countdown without it, in one run.

Each position is analysed twice, once each way, the order alternating from one position to the
next so that a busy machine costs both alike; beside them the peer's maximum alone, where it plays
the preset's game (`bench/peer.py`). Printed per preset and for all: the full analysis p50/p95/max,
the chain phase's p95, how many were proven within the site's 2 s and within 10 s, and any
position where the two proven chain lengths differ.

    .venv/bin/python bench/reach.py [--per-preset N] [--seed S] [--presets all] [--results FILE]
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from corpus import DEFAULT_SEED, OneLineParser, corpus, preset_names
from peer import Peer
from solver import percentile, warm_up

from puzzles import Analysis, Rules, analyse
from puzzles import _solver as solver

TIME_LIMIT = 10.0
SITE_TIME_LIMIT = 2.0
WAYS = ("before", "reach")


@dataclass(frozen=True, slots=True)
class Run:
    ms: float
    analysis: Analysis


def run(way: str, position: object, time_limit: float) -> Run:
    solver.USE_REACH = way == "reach"
    started = time.perf_counter()
    analysis = analyse(position, time_limit=time_limit)  # type: ignore[arg-type]
    return Run((time.perf_counter() - started) * 1000, analysis)


def line(name: str, runs: Sequence[Run], peers: Sequence[float]) -> str:
    fulls = [r.ms for r in runs]
    chains = [r.analysis.chain.ms for r in runs]
    within = [
        sum(r.analysis.proven and r.ms <= s * 1000 for r in runs) for s in (SITE_TIME_LIMIT, TIME_LIMIT)
    ]
    peer = f"{percentile(peers, 0.5):8.0f}{percentile(peers, 0.95):8.0f}" if peers else f"{'-':>8}{'-':>8}"
    return (
        f"{name:<22}{len(runs):>4} {percentile(fulls, 0.5):8.0f}{percentile(fulls, 0.95):8.0f}"
        f"{max(fulls):8.0f}"
        f"{percentile(chains, 0.95):8.0f} {within[0] / len(runs):7.1%} {within[1] / len(runs):7.1%}{peer}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(description="The reach bound beside the countdown without it, alternating.")
    parser.add_argument("--per-preset", type=int, default=100, metavar="N")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--presets", default="all")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT, metavar="SECONDS")
    parser.add_argument("--results", metavar="FILE", help="also write each position's figures as JSON Lines")
    args = parser.parse_args(argv)
    try:
        presets = preset_names(args.presets)
    except ValueError as error:
        parser.error(str(error))
    warm_up()
    results: dict[str, dict[str, list[Run]]] = {}
    peers: dict[str, list[float]] = {}
    records = []
    turn = 0
    for name in presets:
        rules = Rules.named(name)
        peer = Peer.for_rules(rules)
        results[name] = {way: [] for way in WAYS}
        peers[name] = []
        for sample in corpus(rules, args.per_preset, args.seed):
            turn += 1
            order = WAYS if turn % 2 else WAYS[::-1]
            got = {way: run(way, sample.position, args.time_limit) for way in order}
            for way in WAYS:
                results[name][way].append(got[way])
            if peer is not None:
                peers[name].append(peer.maximum(sample.position).ms)
            records.append(
                {
                    "id": sample.name,
                    "preset": name,
                    "position": str(sample.position),
                    **{
                        f"{way}_{key}": value
                        for way in WAYS
                        for key, value in (
                            ("ms", round(got[way].ms, 1)),
                            ("chain_ms", got[way].analysis.chain.ms),
                            ("chain", got[way].analysis.chain.length),
                            ("proven", got[way].analysis.proven),
                        )
                    },
                }
            )
        print(f"{name}: done", file=sys.stderr)
    if args.results:
        with open(args.results, "w", encoding="utf-8") as out:
            for record in records:
                out.write(json.dumps(record) + "\n")
    print(f"\nFull analysis ms, limit {args.time_limit:g} s; proven within 2 s, 10 s; the peer ms")
    columns = ("p50", "p95", "max", "chain95", "<=2s", "<=10s", "peer50", "peer95")
    print(f"{'':<22}{'n':>4} " + "".join(f"{column:>8}" for column in columns))
    for name in [*presets, "all"]:
        every = [peer_ms for ms in peers.values() for peer_ms in ms] if name == "all" else peers[name]
        for way in WAYS:
            runs = (
                [r for by_way in results.values() for r in by_way[way]]
                if name == "all"
                else results[name][way]
            )
            print(line(f"{name} {way}", runs, every))
    differ = [
        r["id"]
        for r in records
        if r["before_proven"] and r["reach_proven"] and r["before_chain"] != r["reach_chain"]
    ]
    print(f"\nproven chain lengths that differ: {len(differ)} {differ[:10]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
