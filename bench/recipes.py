"""A tier's recipes compared on the same attempts (issue 38 item 4): runs replayed from a cache.

An attempt's result depends on its ID alone (its letter and its number in the seed's stream), so a
run of any recipe is a walk through attempts whose results and CPU seconds can be kept once:

- `cache` runs the attempts 0..N-1 of each letter given as a run's worker runs them (`attempt`, then
  `judged`), and keeps each result with its CPU seconds in a file per letter, seed, rules and tier,
  under a digest of generator/ and puzzles/ (a changed engine or generator writes new files; an
  interrupted cache goes on where it stopped);
- `run` walks each recipe through them as a run keeps puzzles (`generator._runs`, the same code:
  canonical duplicates, weak forks, near-duplicates, the motif cap) and prints, per recipe, what it
  kept, what it left out per letter, and the rate a CPU minute.

    .venv/bin/python bench/recipes.py cache --tier master --seed 11 --attempts 1000 5m 2t
    .venv/bin/python bench/recipes.py run --tier master --seed 11 --count 10 5m 2t 5m,5m,2t

Each attempt's CPU seconds are measured once, so two recipes compared here differ only by the
attempts they take, not by the load while each ran; and a run of 30 costs a walk, not the CPU
minutes of the attempts again. The attempts run with the replay time limit (60 s), which a loaded
machine does not reach, where `bench/generate.py` uses a run's (5 s). The figures are printed, never
asserted.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
import pickle
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

from generator import PuzzleError, PuzzleId
from generator._grading import TIERS
from generator._make import REPLAY_TIME_LIMIT, Attempt, attempt, attempt_id, judged
from generator._methods import METHODS
from generator._runs import Plan, Tally, _keep, _Kept
from puzzles import Rules, RulesError

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "bench" / ".recipes"
SAVE_EVERY = 25
"""Attempts between two saves of a letter's cache, so that an interrupted cache loses few."""

WHY = ("weak", "near-duplicate", "motif", "figure", "template", "decisions", "duplicate")
"""Why a run leaves a puzzle of the tier out, in the order of `_refusals`."""
Cached = dict[int, tuple[Attempt, float]]
"""A letter's attempts by number: the judged result and its CPU seconds."""


@functools.cache
def digest() -> str:
    """A digest of the generator's and the engine's sources: a cache is good for them alone."""
    sha = hashlib.sha256()
    for package in ("generator", "puzzles"):
        for path in sorted((ROOT / package).rglob("*.py")):
            sha.update(path.relative_to(ROOT).as_posix().encode())
            sha.update(path.read_bytes())
    return sha.hexdigest()[:12]


def cache_path(letter: str, seed: int, rules: str, tier: str) -> Path:
    return CACHE / digest() / f"{rules}-{tier}-{letter}-{seed}.pickle"


def load(path: Path) -> Cached:
    if not path.exists():
        return {}
    with path.open("rb") as file:
        cached: Cached = pickle.load(file)  # the bench's own files, written below
    return cached


def save(path: Path, cached: Cached) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(".part")
    with part.open("wb") as file:
        pickle.dump(cached, file)
    os.replace(part, path)


def fill(letter: str, seed: int, rules: str, tier: str, attempts: int) -> Cached:
    """The letter's attempts 0..attempts-1 of the seed, run where the cache lacks them."""
    path = cache_path(letter, seed, rules, tier)
    cached = load(path)
    for number in range(attempts):
        if number in cached:
            continue
        started = time.process_time()
        result = judged(attempt(attempt_id(rules, (letter,), seed, number), REPLAY_TIME_LIMIT), tier)
        cached[number] = (result, time.process_time() - started)
        if len(cached) % SAVE_EVERY == 0:
            save(path, cached)
    save(path, cached)
    return cached


def walk(recipe: tuple[str, ...], caches: dict[str, Cached], spent: dict[str, float]) -> Iterator[Attempt]:
    """The recipe's attempts in order, from the caches, until one is missing; each one's CPU
    seconds summed by letter in `spent`."""
    number = 0
    while True:
        letter = recipe[number % len(recipe)]
        if number not in caches[letter]:
            return
        result, seconds = caches[letter][number]
        spent[letter] += seconds
        number += 1
        yield result


def _refusals(tally: Tally) -> tuple[int, ...]:
    """The tally's counts of puzzles left out, in the order of WHY."""
    return (
        tally.weak_forks,
        tally.near_duplicates,
        tally.motif_refusals,
        tally.figure_refusals,
        tally.template_refusals,
        tally.decision_refusals,
        tally.duplicates,
    )


def replay(recipe: tuple[str, ...], seed: int, rules: str, tier: str, count: int) -> str:
    """What a run of the recipe keeps, from the caches, in a few lines."""
    caches = {letter: load(cache_path(letter, seed, rules, tier)) for letter in set(recipe)}
    spent: dict[str, float] = dict.fromkeys(recipe, 0.0)
    left: Counter[str] = Counter()
    kept_by: Counter[str] = Counter()
    tally = Tally()
    plan = Plan(rules, recipe, seed, tier)

    def results() -> Iterator[Attempt]:
        for result in walk(recipe, caches, spent):
            before = _refusals(tally)
            yield result
            after = _refusals(tally)
            for why, was, now in zip(WHY, before, after, strict=True):
                if now > was:
                    left[f"{result.id.method} {why}"] += 1

    decisions: Counter[int | None] = Counter()
    for puzzle in _keep(plan, count, results(), set(), _Kept(), tally, lambda tally: None):
        kept_by[PuzzleId.parse(puzzle.id).method] += 1
        decisions[puzzle.decisions] += 1
    cpu = sum(spent.values())
    rate = tally.kept / cpu * 60 if cpu else 0.0
    short = "" if tally.kept >= count else f" (the caches ran out after {tally.attempts} attempts)"
    lines = [
        f"{','.join(recipe)}: {tally.kept} of {count} in {tally.attempts} attempts, {cpu:.0f} CPU-s, "
        f"{rate:.1f} a CPU minute{short}",
        "  kept: "
        + ", ".join(f"{letter} {n}" for letter, n in sorted(kept_by.items()))
        + "; decisions "
        + ", ".join(f"{n}: {k}" for n, k in sorted(decisions.items(), key=_count)),
        "  left out: " + (", ".join(f"{key} {n}" for key, n in sorted(left.items())) or "none"),
        "  CPU-s: " + ", ".join(f"{letter} {spent[letter]:.0f}" for letter in sorted(spent)),
    ]
    return "\n".join(lines)


def _count(item: tuple[int | None, int]) -> int:
    return -1 if item[0] is None else item[0]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("action", choices=("cache", "run"))
    parser.add_argument(
        "letters", nargs="+", help="cache: method letters; run: recipes, letters joined by commas"
    )
    parser.add_argument("--tier", required=True, choices=TIERS)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--attempts", type=int, default=700, help="cache: attempts a letter (default 700)")
    parser.add_argument("--count", type=int, default=30, help="run: puzzles a run keeps (default 30)")
    args = parser.parse_args(argv)
    recipes = [tuple(text.split(",")) for text in args.letters]
    letters = sorted({letter for recipe in recipes for letter in recipe})
    unknown = sorted(set(letters) - set(METHODS))
    if unknown:
        parser.error(f"unknown method letters: {', '.join(unknown)}")
    try:
        Rules.named(args.rules)
        attempt_id(args.rules, recipes[0], args.seed, max(args.attempts - 1, 0))
    except (PuzzleError, RulesError) as error:
        parser.error(str(error))
    if args.action == "cache":
        for letter in letters:
            cached = fill(letter, args.seed, args.rules, args.tier, args.attempts)
            made = sum(1 for one, _ in cached.values() if one.puzzle and one.puzzle.tier == args.tier)
            cpu = sum(seconds for _, seconds in cached.values())
            print(f"{letter}, seed {args.seed}: {len(cached)} attempts, {made} of the tier, {cpu:.0f} CPU-s")
        return 0
    print(f"{args.rules} {args.tier}, seed {args.seed}, runs of {args.count}, from {CACHE / digest()}")
    for recipe in recipes:
        print(replay(recipe, args.seed, args.rules, args.tier, args.count))
    return 0


if __name__ == "__main__":
    sys.exit(main())
