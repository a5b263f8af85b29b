"""Generation: reproducible IDs, the tiers on request, every preset, errors."""

from __future__ import annotations

import json
import os
import random
import string
import subprocess
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

import puzzles._forcing
from generator import (
    TIERS,
    Puzzle,
    PuzzleError,
    PuzzleId,
    make_puzzle,
    puzzle_from_id,
    puzzle_of,
    tier_of,
    verify,
)
from generator._make import (
    MAX_SEED,
    REPLAY_TIME_LIMIT,
    SEED_STRIDE,
    _obvious,
    _without_dead_twins,
    attempt,
    attempt_id,
    count_decisions,
    dead_twins,
    recipe_for,
)
from generator._methods import BEFORE_TWINS, JOKER_RECIPES, METHODS, RECIPES, TRAPPING, free_a_joker
from generator._puzzle import is_method_name
from generator._shapes import moves_joker
from puzzles import (
    JOKER,
    JOKER_NODE_LIMIT,
    PRESETS,
    Meld,
    Position,
    Rules,
    StepKind,
    analyse,
    forcing_player,
    parse_cards,
    plan_steps,
    play_of,
    skill_limited,
    step_check,
)
from puzzles._cli import _forcing as _cli_forcing

from .conftest import PINNED, PINNED_POSITIONS

LIMIT = REPLAY_TIME_LIMIT
"""Generous: a loaded machine must not change which attempts the solver proves, so which puzzle comes."""

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("puzzle_id", sorted(PINNED))
def test_published_ids_keep_their_puzzle(puzzle_id: str) -> None:
    text, laid, depth, chain = PINNED[puzzle_id]
    puzzle = puzzle_from_id(puzzle_id)
    assert str(puzzle.position()) == text
    assert puzzle.laid == tuple(laid.split())
    assert puzzle.laid_cards == parse_cards(laid)
    # the tier reads the forks too, which count only decisions on settled cards since issue 38:
    # a published ID keeps its position and may come out a tier lower (`flask puzzles rescore`)
    tier = tier_of(chain, puzzle.decisions, puzzle.forks)
    assert (puzzle.depth, puzzle.chain, puzzle.tier) == (depth, chain, tier)


# iv7's deep Italian table takes a quarter of a minute: the quick loop keeps the others
@pytest.mark.parametrize(
    "puzzle_id",
    [pytest.param(i, marks=pytest.mark.slow) if i == "iv7" else i for i in sorted(PINNED_POSITIONS)],
)
def test_the_first_ids_keep_their_positions(puzzle_id: str) -> None:
    assert str(attempt(PuzzleId.parse(puzzle_id), 60).position) == PINNED_POSITIONS[puzzle_id]


# master puzzles are rare enough to take minutes on a busy machine: the pinned cl37 stands for them
@pytest.mark.slow
@pytest.mark.parametrize("tier", [tier for tier in TIERS if tier != "master"])
def test_make_puzzle_finds_each_tier_and_its_id_regenerates_it(tier: str) -> None:
    puzzle = make_puzzle("classic", tier, seed=5, time_limit=LIMIT)
    assert puzzle.tier == tier == tier_of(puzzle.chain, puzzle.decisions, puzzle.forks)
    assert puzzle_from_id(puzzle.id) == puzzle
    assert make_puzzle("classic", tier, seed=5, time_limit=LIMIT) == puzzle


@pytest.mark.slow  # four hard puzzles made from scratch
def test_other_seeds_give_other_puzzles() -> None:
    puzzles = {make_puzzle("classic", "hard", seed=seed, time_limit=LIMIT).canonical for seed in range(4)}
    assert len(puzzles) == 4


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_every_preset_makes_proven_puzzles(rules: str) -> None:
    puzzle = make_puzzle(rules, seed=1, time_limit=LIMIT)
    assert puzzle.rules == rules
    assert puzzle.id[0] == {"classic": "c", "italian": "i", "jokers": "j", "german-jokers": "g"}.get(
        rules, "t"
    )
    analysis = analyse(puzzle.position(), time_limit=30)
    assert analysis.best.placed == puzzle.max_placed >= 1
    assert analysis.uniqueness.unique is True
    assert analysis.depth.depth == puzzle.depth >= analysis.chain.length == puzzle.chain >= 1


def test_the_maximal_play_is_unique_and_places_the_laid_cards(master: Puzzle) -> None:
    assert verify(master) == []
    hand = Counter(master.hand)
    hand.subtract(master.laid)
    assert min(hand.values()) >= 0 and sum(hand.values()) == master.decoys == 1


def largest_rearrangement(position: Position, table: tuple[tuple[str, ...], ...]) -> int:
    """The most original melds one rearrangement of this final table breaks, read off the steps
    that lay it out (a card without a step stays in the final meld numbered like its meld)."""
    steps = plan_steps(position, play_of(position, [Meld.parse(meld, position.rules) for meld in table]))
    broken = {step.source for step in steps if step.kind is StepKind.BREAK}
    moved = Counter(step.source for step in steps if step.kind is StepKind.MOVE for _ in step.cards)
    group = {meld: {meld} for meld in broken}
    # two broken melds whose cards meet in one final meld are one rearrangement
    meets = [(step.source, step.target) for step in steps if step.kind is StepKind.MOVE]
    meets += [(meld, meld) for meld in broken if moved[meld] < len(position.table[meld].cards)]
    for target in {target for _, target in meets}:
        merged = set().union(*(group[source] for source, to in meets if to == target and source in broken))
        for meld in merged:
            group[meld] = merged
    return max((len(melds) for melds in group.values()), default=0)


def test_the_stored_solution_is_the_graded_play() -> None:
    # the depth play of this Hard turns the 6s, 7s, 8s and 9s into runs from 5S to 10S in one
    # rearrangement of 4; the graded play breaks no more than 3 at once (the 6s to 8s, then the
    # jacks and queens for 10S JS QS)
    puzzle = puzzle_from_id("ct1vfa0")
    position = puzzle.position()
    assert (puzzle.depth, puzzle.chain) == (4, 3)
    assert largest_rearrangement(position, puzzle.solution) <= puzzle.chain
    analysis = analyse(position, time_limit=LIMIT)
    assert analysis.depth.play is not None and analysis.chain.play is not None
    depth_table = tuple(tuple(meld.tokens()) for meld in analysis.depth.play.table)
    assert largest_rearrangement(position, depth_table) == puzzle.depth
    assert puzzle.solution == tuple(tuple(meld.tokens()) for meld in analysis.chain.play.table)


@pytest.mark.slow  # five master analyses
def test_verify_reports_claims_the_solver_does_not_prove(master: Puzzle) -> None:
    assert verify(master) == []
    shallower = replace(master, depth=5)
    assert verify(shallower) == ["depth is 5, but the chain depth is 6"]
    shorter = replace(master, chain=5, tier="expert")
    assert verify(shorter) == ["chain is 5, but the chain length is 6"]
    fewer = replace(master, max_placed=2)
    assert "max_placed is 2, but the maximum is 6" in verify(fewer)
    assert verify(replace(master, live_decoys=0)) == ["live_decoys is 0, but 1 decoys fit some valid play"]


def test_a_live_decoy_fits_some_valid_play_but_no_maximal_one(master: Puzzle) -> None:
    (decoy,) = set(master.hand) - set(master.laid)
    assert master.live_decoys == 1
    with_it = step_check(master.position(), parse_cards(decoy), time_limit=30)
    assert with_it.proven and with_it.reachable is not None and with_it.reachable < master.max_placed


@pytest.mark.parametrize("tier", ["medium", "hard"])
def test_each_tier_defeats_the_player_one_skill_below_it(tier: str) -> None:
    puzzle = make_puzzle("classic", tier, seed=3, time_limit=LIMIT)
    skill = {"medium": 1, "hard": 2}[tier]
    assert skill_limited(puzzle.position(), skill, time_limit=30).placed < puzzle.max_placed
    if tier == "hard":
        assert puzzle.hand_size >= 4 and puzzle.max_placed >= 2


def test_unknown_arguments_raise_puzzle_errors() -> None:
    with pytest.raises(PuzzleError, match="unknown rules 'poker'"):
        make_puzzle("poker")
    with pytest.raises(PuzzleError, match="unknown tier 'legendary'"):
        make_puzzle("classic", "legendary")
    with pytest.raises(PuzzleError, match="seed -1"):
        make_puzzle("classic", seed=-1)
    # every lowercase letter names a method now (y and z were the last): new ones take a digit first
    assert set(string.ascii_lowercase) <= set(METHODS)
    with pytest.raises(PuzzleError, match="'11' is not a method"):
        puzzle_from_id("c112")
    unused = next(f"{digit}a" for digit in string.digits if f"{digit}a" not in METHODS)
    with pytest.raises(PuzzleError, match=f"unknown method '{unused}'"):
        puzzle_from_id(f"c{unused}12")
    with pytest.raises(PuzzleError, match="unknown rules letter"):
        puzzle_from_id("ab12")


def test_an_id_of_a_rejected_attempt_is_refused() -> None:
    rejected = next(
        result for n in range(50) if (result := attempt(attempt_id("classic", ("b",), 0, n))).puzzle is None
    )
    with pytest.raises(PuzzleError, match=f"gives no puzzle \\({rejected.outcome}\\)"):
        puzzle_from_id(str(rejected.id))


def test_attempt_streams_of_seeds_do_not_overlap() -> None:
    last_of_first = attempt_id("classic", ("b",), 0, SEED_STRIDE - 1)
    first_of_second = attempt_id("classic", ("b",), 1, 0)
    assert last_of_first.seed + 1 == first_of_second.seed
    with pytest.raises(PuzzleError, match="beyond"):
        attempt_id("classic", ("b",), 0, SEED_STRIDE)


def test_every_seed_a_run_may_take_gives_ids_that_read_back() -> None:
    # `make --seed` beyond MAX_SEED wrote puzzles whose IDs `show` and `check` refused as too long
    two_letters = next(name for name in METHODS if len(name) == 2)
    last = attempt_id("classic", (two_letters,), MAX_SEED, SEED_STRIDE - 1)
    assert PuzzleId.parse(str(last)) == last
    with pytest.raises(PuzzleError, match=f"seed {MAX_SEED + 1} is more than {MAX_SEED}"):
        attempt_id("classic", ("b",), MAX_SEED + 1, 0)
    with pytest.raises(PuzzleError, match="is more than"):
        make_puzzle("classic", seed=MAX_SEED + 1)


def test_every_recipe_uses_known_methods() -> None:
    assert set(RECIPES) == {None, *TIERS}
    assert {letter for recipe in RECIPES.values() for letter in recipe} <= set(METHODS)
    assert all(is_method_name(name) for name in METHODS)


@pytest.mark.slow  # two fresh Python processes
def test_ids_replay_the_same_in_a_fresh_process_whatever_the_hash_seed(master: Puzzle) -> None:
    # string hashing changes with PYTHONHASHSEED; nothing in an attempt may depend on it
    ids = [*sorted(PINNED), make_puzzle("jokers", "medium", seed=2, time_limit=LIMIT).id]
    script = "import json, sys\nfrom generator import puzzle_from_id\n" + "".join(
        f"print(json.dumps(puzzle_from_id({puzzle_id!r}).to_json()))\n" for puzzle_id in ids
    )
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        run = subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        )
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1]
    here = [json.dumps(puzzle_from_id(puzzle_id).to_json()) for puzzle_id in ids]
    assert outputs[0].splitlines() == here
    assert Puzzle.from_json(json.loads(here[ids.index("cl37")])) == master
    assert Position.parse(master.canonical).hand == master.position().hand


def test_dead_twins_are_decoy_pairs_that_no_play_places() -> None:
    # K♦ and 9♣ fit nowhere; one 6♠ extends the run, the other is a single dead decoy
    position = Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S 6S KD KD 9C 9C 7S")
    analysis = analyse(position, time_limit=LIMIT)
    twins = dead_twins(position, analysis.best.play.laid, LIMIT)
    assert twins == list(parse_cards("KD 9C"))
    single = Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 2S 6S KD")
    assert dead_twins(single, parse_cards("6S"), LIMIT) == []


@pytest.mark.parametrize("seed", range(3))
def test_a_new_puzzle_holds_no_dead_twins(seed: int) -> None:
    puzzle = make_puzzle("classic", "easy", seed=seed, time_limit=LIMIT)
    assert PuzzleId.parse(puzzle.id).method not in BEFORE_TWINS
    assert dead_twins(puzzle.position(), puzzle.laid_cards, LIMIT) == []


def test_the_letters_before_keep_their_dead_twins() -> None:
    # published letters replay as they were, identical dead decoys and all
    puzzle = puzzle_from_id("cr34dgp")
    assert puzzle.hand.count("KS") == 2
    assert dead_twins(puzzle.position(), puzzle.laid_cards, LIMIT) == list(parse_cards("KS"))


def test_a_new_letter_drops_a_copy_of_each_dead_twin() -> None:
    position = Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S 6S KD KD 9C 9C 7S")
    analysis = analyse(position, time_limit=LIMIT)
    untwinned = _without_dead_twins(analysis, time.perf_counter() + LIMIT)
    assert untwinned is not None
    assert Counter(position.hand) - Counter(untwinned.position.hand) == Counter(parse_cards("KD 9C"))
    assert untwinned.best.placed == analysis.best.placed
    assert analyse(untwinned.position, time_limit=LIMIT).best.placed == analysis.best.placed


TRAPPED = (
    "classic | AS AH AC / QS QH QC / QH QD QC / KS KD KC / KS KD KC / 3S 4S 5S / 6S 7S 8S / 5H 6H 7H / "
    "8H 9H 10H / 4D 5D 6D / 7D 8D 9D | 2S 6S 10S 3H KH 2D 7D QD AC 3C 4C 6C 7C 9C 10C"
)
"""A master of the trapping letter g (made as cg2y while g drew from the figures alone)."""


def test_traps_add_declines_and_no_fork() -> None:
    # a long wall the forcing player follows with one decision, and two obvious moves that lose:
    # three decisions, every one a decline, so no longer Master (issue 38) but Hard
    puzzle = puzzle_of("cg2y", Position.parse(TRAPPED), time_limit=LIMIT)
    assert (puzzle.tier, puzzle.chain, puzzle.decisions, puzzle.forks) == ("hard", 6, 3, 0)
    position = puzzle.position()
    decoys = Counter(position.hand) - Counter(puzzle.laid_cards)
    traps = [card for card in decoys if _obvious(card, position)]
    assert len(traps) >= 2
    for card in traps:
        check = step_check(position, [card], time_limit=LIMIT)
        assert check.reachable is not None and check.reachable < puzzle.max_placed
    # without its traps the table is a sweep: fewer decisions, and so a lower tier
    bare = Position(
        position.rules, position.table, tuple((Counter(position.hand) - Counter(traps)).elements())
    )
    assert forcing_player(bare, puzzle.max_placed).decisions < puzzle.decisions


@pytest.mark.parametrize("letter", sorted(TRAPPING))
def test_family_letters_put_a_joker_in_joker_puzzles(letter: str) -> None:
    made = [METHODS[letter](Rules.named("jokers"), random.Random(f"j{letter}{n}")) for n in range(40)]
    positions = [candidate.position for candidate in made if candidate is not None]
    holding = [p for p in positions if JOKER in p.hand or any(meld.jokers for meld in p.table)]
    assert len(holding) >= 0.8 * len(positions) > 0
    # and none where the rules have no jokers
    classic = [METHODS[letter](Rules.named("classic"), random.Random(f"c{letter}{n}")) for n in range(10)]
    assert all(JOKER not in c.position.hand for c in classic if c is not None)


def test_freeing_a_joker_swaps_a_hand_joker_for_the_card_it_stands_for() -> None:
    """`free_a_joker`: a hand joker takes a table card's place and the card goes to the hand, so the
    best play lays the card back and the joker goes on to the meld that needed it (RULES.md)."""
    position = Position.parse("jokers | 5H 6H 7H / 9S 9H 9D | 3S 4S JK")
    for n in range(20):
        freed = free_a_joker(position, random.Random(n))
        assert freed is not None
        (taken,) = Counter(freed.hand) - Counter(position.hand)
        assert JOKER not in freed.hand and len(freed.hand) == len(position.hand)
        changed = [meld for meld in freed.table if meld not in position.table]
        assert len(changed) == 1 and any(taken in options for options in changed[0].stand_ins())
    assert free_a_joker(Position.parse("jokers | 5H 6H 7H | 3S 4S 9D"), random.Random(0)) is None
    # the worked example: 7H takes the joker's place, and the joker joins 3S 4S
    worked = Position.parse("jokers | 5H 6H JK / 9S 9H 9D | 3S 4S 7H")
    analysis = analyse(worked, time_limit=60)
    assert analysis.best.placed == 3 and analysis.uniqueness.unique
    puzzle = puzzle_of("jz0", worked)
    assert "free-joker" in puzzle.themes and puzzle.decisions == 0


def test_joker_presets_free_jokers_at_expert_and_master() -> None:
    assert recipe_for("expert", "jokers") == JOKER_RECIPES["expert"]
    assert recipe_for("master", "german-jokers") == JOKER_RECIPES["master"]
    assert recipe_for("expert", "classic") == RECIPES["expert"]
    assert recipe_for("easy", "jokers") == RECIPES["easy"]
    made = [METHODS["j"](Rules.named("jokers"), random.Random(f"j{n}")) for n in range(40)]
    positions = [candidate.position for candidate in made if candidate is not None]
    table_jokers = [p for p in positions if any(meld.jokers for meld in p.table)]
    assert len(table_jokers) >= 0.3 * len(positions) > 0


def test_the_solve_answer_and_the_generator_count_with_one_node_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A joker position's count reads `puzzles.JOKER_NODE_LIMIT` in the solve answer and in the
    generator's lines alike, so an answer never shows a count where the stored line says null."""
    jokers = analyse(Position.parse("jokers | 3S 4S 5S / 7H 7D 7C | JK 9D"), time_limit=LIMIT)
    both = (_cli_forcing(jokers), count_decisions(jokers.position, jokers.best.placed))
    assert all(found is not None and found.decisions == 1 for found in both)
    monkeypatch.setattr(puzzles._forcing, "JOKER_NODE_LIMIT", 0)
    for found in (_cli_forcing(jokers), count_decisions(jokers.position, jokers.best.placed)):
        assert found is not None
        assert (found.decisions, found.at_least, found.proven, found.nodes) == (None, 1, False, 0)
    # a position without a joker keeps the default limit
    classic = Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S 7S KD")
    assert count_decisions(classic, 2).proven
    assert forcing_player(jokers.position, 1, node_limit=JOKER_NODE_LIMIT).decisions == 1


@pytest.mark.parametrize("name", ["4a", "5a"])
def test_cycles_closed_by_a_joker_hold_one_in_the_hand(name: str) -> None:
    """4a and 5a: under rules with jokers a hand card that closes the cycle is a joker; elsewhere
    they are cycles as z lays them, without one."""
    for preset in ("jokers", "german-jokers"):
        made = [METHODS[name](Rules.named(preset), random.Random(f"{name}{n}")) for n in range(30)]
        positions = [candidate.position for candidate in made if candidate is not None]
        assert len(positions) >= 10
        assert all(position.hand.count(JOKER) >= 1 for position in positions)
    classic = [METHODS[name](Rules.named("classic"), random.Random(f"{name}{n}")) for n in range(10)]
    assert all(JOKER not in c.position.hand for c in classic if c is not None)
    assert name in TRAPPING and is_method_name(name)


def test_the_worked_example_of_a_cycle_closed_by_a_joker() -> None:
    """docs/RULES.md: the cycle's last set gives 10D and turns into runs with J♠ and a joker, and
    J♥ Q♥; the joker filling the gap of the opening pairs instead places one card less."""
    puzzle = puzzle_from_id("g4a3v8")
    assert str(puzzle.position()) == (
        "german-jokers | 4S 4D 4C / 7S 7H 7C / 10S 10H 10D / 4H 5H 6H / 7D 8D 9D"
        " | 2S 3S 5S 6S JS 3H 3H JH QH 6D JK"
    )
    assert (puzzle.tier, puzzle.chain, puzzle.max_placed) == ("expert", 5, 8)
    assert puzzle.laid == ("2S", "3S", "5S", "6S", "JS", "JH", "QH", "JK")
    assert moves_joker(puzzle.position(), puzzle.solution)
    shortcut = step_check(puzzle.position(), parse_cards("2S 3S 5S 6S JK 3H 6D"), time_limit=LIMIT)
    assert shortcut.reachable is not None and shortcut.reachable < puzzle.max_placed
