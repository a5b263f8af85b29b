"""Generation attempts: one ID, one seeded method, the solver's verdict."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

from generator._freeing import freeing
from generator._gadgets import PLANTERS
from generator._grading import (
    FLOOR_TIER,
    HAND_FLOOR,
    LEAST_DECISIONS,
    LEAST_FORKS,
    LOWEST_CHAIN,
    MAXIMUM_FLOOR,
    TIERS,
    graded_decisions,
    graded_forks,
    graded_tier,
    is_publishable,
    skill_below,
    tier_of,
    tier_rank,
)
from generator._ladder import CLIMBS
from generator._methods import (
    BEFORE_TWINS,
    FINISHED_SEARCHES,
    FORKS_BEFORE_SETTLED,
    FREEING,
    GADGETS,
    JOKER_RECIPES,
    LADDERS,
    METHODS,
    OLD_METHODS,
    RECIPES,
    RIVALLING,
    SEARCHES,
    TRAPPING,
    UNCOUNTED_JOKERS,
)
from generator._puzzle import MAX_ID_LENGTH, Puzzle, PuzzleError, PuzzleId
from generator._search import STYLES, Found, Style, graded, grown, met, pruned, search
from generator._shapes import extensions
from puzzles import (
    JOKER,
    SUITS,
    Analysis,
    Card,
    Forcing,
    Position,
    Rules,
    RulesError,
    SkillRun,
    analyse,
    decisions_of,
    key_ideas,
    mark_weak,
    parse_cards,
    play_of,
    skill_limited,
    sorted_cards,
    step_check,
    weak_forks,
)

DEFAULT_TIME_LIMIT = 5.0
"""Seconds for a whole attempt: a ceiling far above the usual tenth of a second, so that a loaded
machine rejects (and so generates differently) as rarely as it can."""
REPLAY_TIME_LIMIT = 60.0
"""`show ID` replays an attempt with room to spare, so a slower machine proves the same answers."""
SEARCH_TIME = 8
"""How many times `time_limit` an attempt of a searching method (`SEARCHES`) may take: a limit on
the wall clock, which only a loaded machine reaches (the steps take a tenth of a second each)."""
REPAIRS = 2
"""How many times an attempt drops a hand card that made the maximal play ambiguous."""
SEED_STRIDE = 1 << 20
"""Attempt seeds of `seed` are seed * SEED_STRIDE + 0, 1, 2 ...: disjoint streams per seed."""
MAX_SEED = 36 ** (MAX_ID_LENGTH - 3) // SEED_STRIDE - 1
"""The largest seed whose every attempt has an ID that `PuzzleId.parse` reads back: a rules letter,
a method of up to two characters and the attempt's seed in base 36, MAX_ID_LENGTH in all."""
MAX_ATTEMPTS = 2000

ACCEPTED = "accepted"
OUTCOMES = (
    ACCEPTED, "no table", "unproven", "nothing to play", "not unique", "chain 0", "small hand",
    "too easy", "short of its tier",
)  # fmt: skip
"""Why an attempt ended, for statistics; all but the first are rejections."""


@dataclass(frozen=True, slots=True)
class Attempt:
    id: PuzzleId
    puzzle: Puzzle | None
    outcome: str
    position: Position | None
    """The position the attempt ended on (after any repairs); None when the method made none."""
    """One of OUTCOMES."""
    ms: float
    real_forks: int | None = None
    """For a puzzle of a tier that needs forks, judged by `judged` (a run's step, not the
    attempt's): the fewest forks that are not weak (`puzzles.weak_forks`), a proved lower bound.
    None when not judged."""


def attempt(puzzle_id: PuzzleId, time_limit: float = DEFAULT_TIME_LIMIT) -> Attempt:
    """Run one generation attempt: build its position, then let the solver accept or reject it.

    The position depends on the ID alone. When the maximal play is not unique, a hand card that
    one best play places and another does not is dropped (a decoy first) and the solver asked
    again; those steps depend only on proved answers, so any machine replays them identically.
    Anything the solver did not prove within `time_limit` (for the whole attempt) is rejected.
    """
    started = time.perf_counter()
    # a search proves a position at each of its steps: its attempt gets the time of that many
    deadline = started + time_limit * (SEARCH_TIME if puzzle_id.method in SEARCHES else 1)
    method = METHODS.get(puzzle_id.method)
    if method is None:
        raise PuzzleError(f"puzzle ID {puzzle_id}: unknown method {puzzle_id.method!r}")
    rules = Rules.named(puzzle_id.rules)
    candidate = method(rules, random.Random(str(puzzle_id)))

    def done(outcome: str, position: Position | None, puzzle: Puzzle | None = None) -> Attempt:
        ms = round((time.perf_counter() - started) * 1000, 2)
        return Attempt(puzzle_id, puzzle, outcome, position, ms)

    if candidate is None:
        return done("no table", None)
    position = candidate.position
    for repair in range(REPAIRS + 1):
        analysis = analyse(position, time_limit=max(deadline - time.perf_counter(), 0.001), puzzle=True)
        if not analysis.proven:
            return done("unproven", position)
        if analysis.best.placed < 1:
            return done("nothing to play", position)
        if analysis.uniqueness.unique is False:
            if repair == REPAIRS:
                return done("not unique", position)
            position = _without(position, _ambiguous_card(analysis, candidate.decoys))
            continue
        return _grade(puzzle_id, analysis, deadline, done)
    raise AssertionError("unreachable: the last repair returns")  # pragma: no cover


def puzzle_of(puzzle_id: str, position: Position, time_limit: float = REPLAY_TIME_LIMIT) -> Puzzle:
    """A position of one's own graded as the generator grades its own (no decoy added); PuzzleError
    says why it is no puzzle."""
    parsed = PuzzleId.parse(puzzle_id)
    started = time.perf_counter()
    analysis = analyse(position, time_limit=time_limit)

    def done(outcome: str, position: Position | None, puzzle: Puzzle | None = None) -> Attempt:
        return Attempt(parsed, puzzle, outcome, position, 0.0)

    if not analysis.proven or analysis.uniqueness.unique is not True or analysis.best.placed < 1:
        raise PuzzleError(f"{puzzle_id}: not a proved unique maximal play of one card or more")
    result = _grade(parsed, analysis, started + time_limit, done, tempt=False)
    if result.puzzle is None:
        raise PuzzleError(f"{puzzle_id}: no puzzle ({result.outcome})")
    return result.puzzle


def _grade(
    puzzle_id: PuzzleId,
    analysis: Analysis,
    deadline: float,
    done: Callable[..., Attempt],
    tempt: bool = True,
) -> Attempt:
    """Accept a proved unique puzzle at the tier of its chain length and decisions, or say why not.

    A searching method's position first goes through the search (`generator._search`), which may
    start from a chain length of 0."""
    chain = analysis.chain.length
    highest = tier_of(chain or 0)
    if highest is None and not (tempt and puzzle_id.method in SEARCHES):
        return done("chain 0", analysis.position)
    if tempt and puzzle_id.method in SEARCHES:
        return _searched(puzzle_id, analysis, deadline, done)
    assert highest is not None
    if tempt and puzzle_id.method not in SEARCHES:
        tempted = _tempted(puzzle_id, analysis, highest, deadline)
        if tempted is None:
            return done("unproven", analysis.position)
        analysis = tempted
        if puzzle_id.method not in BEFORE_TWINS:
            untwinned = _without_dead_twins(analysis, deadline)
            if untwinned is None:
                return done("unproven", analysis.position)
            analysis = untwinned
    position = analysis.position
    if tier_rank(highest) >= tier_rank(FLOOR_TIER) and (
        len(position.hand) < HAND_FLOOR or analysis.best.placed < MAXIMUM_FLOOR
    ):
        return done("small hand", position)
    # decisions are counted with a node limit, not the clock, so a replayed ID counts the same
    forcing = count_decisions(position, analysis.best.placed)
    jokers_uncounted = puzzle_id.method in UNCOUNTED_JOKERS and (
        JOKER in position.hand or any(meld.jokers for meld in position.table)
    )
    if tempt and puzzle_id.method in TRAPPING and not jokers_uncounted:
        trapped = _trapped(puzzle_id, analysis, forcing, highest, deadline)
        if trapped is None:
            return done("unproven", position)
        analysis = trapped[0]
        position = analysis.position
        # the traps read the decisions alone; the grade reads the forks too
        forcing = count_decisions(position, analysis.best.placed)
    tier = graded_tier(chain or 0, forcing)
    assert tier is not None
    defeated = _skill_check(analysis, tier, deadline)
    if not is_publishable(analysis, defeated, forcing):
        return done("unproven" if defeated is not None and not defeated.proven else "too easy", position)
    live = live_decoys(position, analysis.best.play.laid, _left(deadline))
    if live is None:
        return done("unproven", position)
    return done(ACCEPTED, position, Puzzle.from_analysis(puzzle_id, analysis, defeated, live, forcing))


def _searched(puzzle_id: PuzzleId, start: Analysis, deadline: float, done: Callable[..., Attempt]) -> Attempt:
    """A searching method's attempt: the search (`generator._search`) from the method's position,
    accepted only when it meets its goal tier with honest obvious cards (a searched Expert or Master
    must not yield to "never play the obvious card", issue 38). The search has counted the
    decisions and run the skill-limited player of the position it ends on; no decoy or trap is added."""
    goal = SEARCHES[puzzle_id.method]
    style = STYLES.get(puzzle_id.method, Style())
    # an older letter searches with the forks it was published with, so that its IDs replay
    settled = puzzle_id.method not in FORKS_BEFORE_SETTLED
    searching = CLIMBS[puzzle_id.method] if puzzle_id.method in LADDERS else search
    if puzzle_id.method in GADGETS:
        searching = PLANTERS[puzzle_id.method]
    found = searching(str(puzzle_id), start, goal, deadline, style, settled)
    if found is None:
        return done("unproven", start.position)
    analysis = found.analysis
    position = analysis.position
    if not met(found, goal) and puzzle_id.method in FINISHED_SEARCHES:
        # forks enough but a decision short: a trap may add the decline the tier still needs
        retried = _trapped_search(puzzle_id, found, goal, deadline, settled)
        if retried is None:
            return done("unproven", position)
        found, analysis, position = retried, retried.analysis, retried.analysis.position
    if style.prune_later:
        # melds the best play keeps whole, dropped: a smaller table shares fewer melds with others
        shorter = pruned(str(puzzle_id), found, goal, deadline, style, settled)
        if shorter is None:
            return done("unproven", position)
        found, analysis, position = shorter, shorter.analysis, shorter.analysis.position
    if style.grow_later:
        # melds lengthened once any trap is in: longer melds are shared with fewer other tables
        longer = grown(str(puzzle_id), found, goal, deadline, style, settled)
        if longer is None:
            return done("unproven", position)
        found, analysis, position = longer, longer.analysis, longer.analysis.position
    if not met(found, goal):
        return done("short of its tier", position)
    if len(position.hand) < HAND_FLOOR or analysis.best.placed < MAXIMUM_FLOOR:
        return done("small hand", position)
    if puzzle_id.method in FREEING:
        # the hand's joker changed for a table card that the best play then frees (`freeing`)
        freed = freeing(str(puzzle_id), analysis, deadline)
        if freed is None:
            return done("unproven", position)
        if freed is not analysis:
            regraded = graded(freed, goal, deadline, settled)
            if regraded is None:
                return done("unproven", freed.position)
            if not met(regraded, goal):
                return done("short of its tier", freed.position)
            found, analysis, position = regraded, freed, freed.position
    if not is_publishable(analysis, found.skill, found.forcing):
        return done("too easy", position)
    # a live decoy, where one tempts and the puzzle still meets its goal with it (issue 21)
    tempted = _tempted(puzzle_id, analysis, goal, deadline)
    if tempted is None:
        return done("unproven", position)
    if tempted is not analysis:
        regraded = graded(tempted, goal, deadline, settled)
        if regraded is None:
            return done("unproven", position)
        if met(regraded, goal):
            found, analysis, position = regraded, tempted, tempted.position
    forcing, skill = found.forcing, found.skill
    if not settled:
        # searched with the forks counted before; graded with the forks counted now, maybe a tier
        # lower, against the skill-limited player below that tier
        forcing = count_decisions(position, analysis.best.placed)
        tier = graded_tier(analysis.chain.length or 0, forcing)
        if tier is not None and tier != goal:
            skill = _skill_check(analysis, tier, deadline)
            if skill is not None and not skill.proven:
                return done("unproven", position)
        if not is_publishable(analysis, skill, forcing):
            return done("too easy", position)
    live = live_decoys(position, analysis.best.play.laid, _left(deadline))
    if live is None:
        return done("unproven", position)
    puzzle = Puzzle.from_analysis(puzzle_id, analysis, skill, live, forcing)
    return done(ACCEPTED, position, puzzle)


def _trapped_search(
    puzzle_id: PuzzleId, found: Found, goal: str, deadline: float, settled: bool = True
) -> Found | None:
    """The search's position with a trap more (`_trapped`), graded again, when it has the goal's
    chain and forks but too few decisions and the trapped position meets the goal; else `found`.
    None when the solver could not prove a check in time."""
    forcing = found.forcing
    forks = graded_forks(forcing) if forcing is not None else None
    if (
        forcing is None
        or (found.analysis.chain.length or 0) < LOWEST_CHAIN[goal]
        or forks is None
        or forks < LEAST_FORKS[goal]
    ):
        return found
    trapped = _trapped(puzzle_id, found.analysis, forcing, goal, deadline)
    if trapped is None:
        return None
    analysis = trapped[0]
    if analysis is found.analysis:
        return found
    regraded = graded(analysis, goal, deadline, settled)
    if regraded is None:
        return None
    return regraded if met(regraded, goal) else found


def count_decisions(position: Position, maximum: int, settled: bool = True) -> Forcing:
    """The forcing player's count as the generator grades it: `puzzles.decisions_of`, with
    JOKER_NODE_LIMIT where the position holds a joker, as the solve answer counts. A limit of
    decisions tried (and of the solver's work, for the cards settled), not the clock, so a replayed
    ID counts the same. `settled` False: forks counted as before issue 38 item 1, where only the
    decisions are read (they are the same either way)."""
    return decisions_of(position, maximum, settled=settled)


TRAPS = 2
"""The most traps an attempt of a TRAPPING letter adds to reach the decisions its chain length allows."""
TRAP_TRIES = 12
"""Cards tried as each trap."""


def _trapped(
    puzzle_id: PuzzleId, analysis: Analysis, forcing: Forcing, highest: str, deadline: float
) -> tuple[Analysis, Forcing] | None:
    """The analysis with up to TRAPS traps more in the hand, and the forcing player's count of it
    (its forks counted as before issue 38 item 1 where a trap was added: only its decisions are
    read), while the count is below what the tier of the chain length needs (`LEAST_DECISIONS`).

    A trap is a live decoy that is an obvious move (RULES.md): a card that fits a table meld as it
    lies, in only one kind of meld, so the forcing player lays it unless it decides not to, and
    that no maximal play places (the solver proves every play that places it places fewer). It is
    kept only when it adds a decision. As with `_tempted`, the maximal plays, depth, chain length and
    uniqueness stand; None when the solver could not prove a check in time.
    """
    need = LEAST_DECISIONS.get(highest, 0)
    rng = random.Random(f"{puzzle_id}/trap")
    for _ in range(TRAPS):
        have = graded_decisions(forcing)
        if have is None or have >= need:
            break
        position = analysis.position
        rules = position.rules
        held = position.table_counts() + position.hand_counts()
        candidates = sorted(
            {
                card
                for meld in position.table
                for card in extensions(meld, rules.top_position)
                if held[card] < rules.copies(card) and _obvious(card, position)
            },
            key=Card.sort_key,
        )
        rng.shuffle(candidates)
        laid = Counter(analysis.best.play.laid)
        for card in candidates[:TRAP_TRIES]:
            trapping = Position(rules, position.table, (*position.hand, card))
            check = step_check(trapping, [card] * (laid[card] + 1), _left(deadline))
            if not check.proven:
                return None
            if check.reachable is None or check.reachable >= analysis.best.placed:
                continue
            counted = count_decisions(trapping, analysis.best.placed, settled=False)
            if (graded_decisions(counted) or 0) > have:
                analysis, forcing = replace(analysis, position=trapping), counted
                break
        else:
            break
    return analysis, forcing


TEMPT_SHARE = {"easy": 0.3, "medium": 0.5}
"""How often a puzzle of these tiers gets a live decoy added; from Hard on, always."""
TEMPT_SHARE_NOW: dict[str, float] = {}
"""The same for the letters that drop dead twins (issue 21): a try at every puzzle, since most
tries find no card that tempts (at Medium nearly all), and Easy and Medium want 30% of them."""
TEMPT_TRIES = 16


def _tempted(puzzle_id: PuzzleId, analysis: Analysis, tier: str, deadline: float) -> Analysis | None:
    """The analysis of the position with one live decoy more, when the attempt's turn says so and
    one is found: a card that extends a meld of the table as it stands (so a play places it), and
    that no maximal play can place (the solver proves every play that places it places fewer).

    The maximal plays are then exactly those of the position without it, so depth, chain length
    and uniqueness stand. Like the repairs, this depends only on proved answers: a check the solver
    could not prove in time ends the attempt (None), so a slower machine never picks another card.
    """
    if puzzle_id.method in OLD_METHODS | RIVALLING:
        return analysis  # published letters keep their puzzles; rivals bring their own decoys
    rng = random.Random(f"{puzzle_id}/tempt")
    shares = TEMPT_SHARE if puzzle_id.method in BEFORE_TWINS else TEMPT_SHARE_NOW
    if rng.random() >= shares.get(tier, 1.0):
        return analysis
    position = analysis.position
    rules = position.rules
    held = position.table_counts() + position.hand_counts()
    # a card that extends a meld the best play breaks is the likeliest to cost more than it gives,
    # then one near the broken melds' cards (a meld it could make needs them), then any extension
    broken = [meld for i, meld in enumerate(position.table) if i in analysis.depth.broken]
    kept = [meld for i, meld in enumerate(position.table) if i not in analysis.depth.broken]
    near = {
        Card(rank, suit)
        for meld in broken
        for card in meld.cards
        if card.suit is not None
        for rank, suit in [(card.rank, s) for s in SUITS] + [(r, card.suit) for r in range(1, 14)]
        if abs(rank - card.rank) <= 2
    }
    candidates: list[Card] = []
    for group in (
        {card for meld in broken for card in extensions(meld, rules.top_position)},
        near,
        {card for meld in kept for card in extensions(meld, rules.top_position)},
    ):
        ordered = sorted(
            (card for card in group if held[card] < rules.copies(card) and card not in candidates),
            key=Card.sort_key,
        )
        rng.shuffle(ordered)
        candidates += ordered
    laid = Counter(analysis.best.play.laid)
    for card in candidates[:TEMPT_TRIES]:
        tempting = Position(rules, position.table, (*position.hand, card))
        check = step_check(tempting, [card] * (laid[card] + 1), _left(deadline))
        if not check.proven:
            return None
        if check.reachable is not None and check.reachable < analysis.best.placed:
            return replace(analysis, position=tempting)
    return analysis


def _without_dead_twins(analysis: Analysis, deadline: float) -> Analysis | None:
    """The analysis of the position without the copies that made identical dead decoys (one dead
    copy of a card is left); None when the solver could not prove which are dead in time.

    A dead card fits no play, so the maximal plays, depth, chain length and uniqueness stand.
    """
    position = analysis.position
    while twins := dead_twins(position, analysis.best.play.laid, _left(deadline)):
        for card in twins:
            position = _without(position, card)
    if twins is None:
        return None
    return replace(analysis, position=position)


def _obvious(card: Card, position: Position) -> bool:
    """Whether the card lengthens melds of the table as it lies of one kind only (sets or runs):
    the forcing player's obvious move (RULES.md)."""
    top = position.rules.top_position
    return len({meld.kind for meld in position.table if card in extensions(meld, top)}) == 1


def _skill_check(analysis: Analysis, tier: str, deadline: float) -> SkillRun | None:
    """The run of the skill-limited player a puzzle of this tier must defeat (None for easy); its
    search stops at the first way through the ties that reaches the maximum."""
    skill = skill_below(tier)
    if skill is None:
        return None
    return skill_limited(analysis.position, skill, _left(deadline), goal=analysis.best.placed)


def live_decoys(position: Position, laid: tuple[Card, ...], time_limit: float) -> int | None:
    """How many decoys (hand cards beyond `laid`) some valid play places; None when the solver
    could not prove it in time. A copy of a card counts once each."""
    deadline = time.perf_counter() + time_limit
    laid_counts = Counter(laid)
    decoys = Counter(position.hand) - laid_counts
    live = 0
    for card, copies in sorted(decoys.items(), key=lambda item: item[0].sort_key()):
        for extra in range(1, copies + 1):
            # this copy is placed when more copies than the maximal play places are
            tried = [card] * (laid_counts[card] + extra)
            check = step_check(position, tried, _left(deadline))
            if not check.proven:
                return None
            if check.reachable is None:
                break
            live += 1
    return live


def dead_twins(position: Position, laid: tuple[Card, ...], time_limit: float) -> list[Card] | None:
    """The cards of which the hand holds two or more decoys that no valid play places (identical
    dead decoys: they only fill the hand); None when the solver could not prove it in time."""
    deadline = time.perf_counter() + time_limit
    laid_counts = Counter(laid)
    decoys = Counter(position.hand) - laid_counts
    twins = []
    for card, copies in sorted(decoys.items(), key=lambda item: item[0].sort_key()):
        if copies < 2:
            continue
        # the last two copies are both dead when no play places all but one of them
        check = step_check(position, [card] * (laid_counts[card] + copies - 1), _left(deadline))
        if not check.proven:
            return None
        if check.reachable is None:
            twins.append(card)
    return twins


def _left(deadline: float) -> float:
    return max(deadline - time.perf_counter(), 0.001)


def _ambiguous_card(analysis: Analysis, decoys: tuple[Card, ...]) -> Card:
    """A hand card that one best play places and the witness does not, or the other way round."""
    best = Counter(analysis.best.play.laid)
    witness = analysis.uniqueness.witness
    assert witness is not None, "a disproved uniqueness has a witness"
    other = Counter(witness.laid)
    differ = sorted_cards(((best - other) + (other - best)).elements())
    return next((card for card in differ if card in decoys), differ[0])


def _without(position: Position, card: Card) -> Position:
    hand = list(position.hand)
    hand.remove(card)
    return Position(position.rules, position.table, tuple(hand))


def recipe_for(tier: str | None, rules: str = "classic") -> tuple[str, ...]:
    """The method letters that take turns to find puzzles of this tier (any tier for None) under
    these rules: the joker presets have recipes of their own for some tiers (`JOKER_RECIPES`)."""
    if tier is not None and tier not in TIERS:
        raise PuzzleError(f"unknown tier {tier!r}; the tiers are {', '.join(TIERS)}")
    if Rules.named(rules).jokers and tier in JOKER_RECIPES:
        return JOKER_RECIPES[tier]
    return RECIPES[tier]


def attempt_id(rules: str, recipe: tuple[str, ...], seed: int, number: int) -> PuzzleId:
    """The attempt `number` of a seed: each seed has its own stream of SEED_STRIDE attempts, and
    the recipe's methods take turns."""
    if not 0 <= number < SEED_STRIDE:
        raise PuzzleError(f"attempt {number} is beyond the {SEED_STRIDE} attempts of a seed")
    if seed > MAX_SEED:
        # its IDs would be too long for `show` and `check` to read back
        raise PuzzleError(f"seed {seed} is more than {MAX_SEED}")
    return PuzzleId(rules, recipe[number % len(recipe)], seed * SEED_STRIDE + number)


def judged(result: Attempt, tier: str | None = None) -> Attempt:
    """The attempt with its real forks counted (`Attempt.real_forks`) when it made a puzzle of a
    tier that needs forks (Expert, Master; of `tier`, when given).

    A step of a run (`make_puzzle`, `generator._runs`, and so `puzzle_from_id` and `show`, which
    give the line a run wrote), not of the attempt: `attempt`, `verify` and every published ID
    replay as they did. The count has limits of work, not
    of the clock, so any machine judges the same; a card the solver proves neither weak nor real
    counts as weak."""
    puzzle = result.puzzle
    if puzzle is None or puzzle.tier not in LEAST_FORKS or (tier is not None and puzzle.tier != tier):
        return result
    assert result.position is not None, "an attempt that made a puzzle ended on its position"
    forcing = count_decisions(result.position, puzzle.max_placed)
    found = weak_forks(result.position, puzzle.max_placed, puzzle.laid_cards, forcing)
    # the line carries the verdict too: its real forks, and which of its key ideas are weak forks
    return replace(result, real_forks=found.forks_at_least, puzzle=puzzle.with_weak_forks(found))


def forks_enough(result: Attempt) -> bool:
    """Whether a run keeps the attempt's puzzle for its forks: at Expert and Master (judged by
    `judged`), as many real forks as the tier needs forks (`LEAST_FORKS`). A puzzle whose only forks
    are weak (a card laid in its one home, with nothing competing for what it needs) is left out."""
    puzzle = result.puzzle
    if puzzle is None or result.real_forks is None:
        return True
    return result.real_forks >= LEAST_FORKS.get(puzzle.tier, 0)


def make_puzzle(
    rules: str = "classic",
    tier: str | None = None,
    seed: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Puzzle:
    """The first puzzle of the seed's attempt stream (of the tier, when given) whose forks are
    enough (`forks_enough`: an Expert or Master whose only forks are weak is passed over).

    Deterministic: the same arguments give the same puzzle on any machine, as long as the solver
    proves each answer within `time_limit`. Raises PuzzleError after MAX_ATTEMPTS failures.
    """
    name = _preset_name(rules)
    recipe = recipe_for(tier, name)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise PuzzleError(f"seed {seed!r} is not a whole number of at least 0")
    for number in range(MAX_ATTEMPTS):
        result = attempt(attempt_id(name, recipe, seed, number), time_limit)
        puzzle = result.puzzle
        if puzzle is not None and (tier is None or puzzle.tier == tier):
            result = judged(result)
            if forks_enough(result) and result.puzzle is not None:
                return result.puzzle
    wanted = f"{tier} " if tier else ""
    raise PuzzleError(f"no {wanted}{name} puzzle in {MAX_ATTEMPTS} attempts from seed {seed}")


def puzzle_from_id(puzzle_id: str) -> Puzzle:
    """Replay the attempt an ID names, judged as a run judges it (its real forks), so that it equals
    the puzzle `make_puzzle` gave; PuzzleError for a bad ID or one that gives no puzzle."""
    parsed = PuzzleId.parse(puzzle_id)
    result = judged(attempt(parsed, REPLAY_TIME_LIMIT))
    if result.puzzle is None:
        raise PuzzleError(f"puzzle ID {puzzle_id!r} gives no puzzle ({result.outcome})")
    return result.puzzle


def verify(puzzle: Puzzle, time_limit: float = REPLAY_TIME_LIMIT) -> list[str]:
    """What the solver disagrees with in a stored puzzle; empty when it proves every claim."""
    deadline = time.perf_counter() + time_limit
    analysis = analyse(puzzle.position(), time_limit=time_limit)
    if not analysis.proven:
        return [f"the solver proved nothing within {time_limit:g} s"]
    problems = []
    if analysis.best.placed != puzzle.max_placed:
        problems.append(f"max_placed is {puzzle.max_placed}, but the maximum is {analysis.best.placed}")
    if analysis.uniqueness.unique is False:
        problems.append("the maximal play is not unique")
    elif (laid := play_of(analysis.position, analysis.best.play.table).laid) != puzzle.laid_cards:
        shown = " ".join(str(card) for card in laid)
        problems.append(f"laid is {' '.join(puzzle.laid)}, but the maximal play places {shown}")
    if analysis.depth.depth != puzzle.depth:
        problems.append(f"depth is {puzzle.depth}, but the chain depth is {analysis.depth.depth}")
    chain = analysis.chain.length
    forcing = count_decisions(analysis.position, analysis.best.placed)
    if chain != puzzle.chain:
        problems.append(f"chain is {puzzle.chain}, but the chain length is {chain}")
    elif (tier := graded_tier(puzzle.chain, forcing)) != puzzle.tier:
        problems.append(
            f"tier {puzzle.tier} does not match chain {puzzle.chain}, the decisions and the forks ({tier})"
        )
    if not problems and not is_publishable(analysis, _skill_check(analysis, puzzle.tier, deadline), forcing):
        problems.append(f"the skill-limited player below {puzzle.tier} solves it, or the hand is too small")
    live = live_decoys(analysis.position, puzzle.laid_cards, _left(deadline))
    if live is not None and live != puzzle.live_decoys:
        problems.append(f"live_decoys is {puzzle.live_decoys}, but {live} decoys fit some valid play")
    if puzzle.decisions is not None:
        decisions = forcing.decisions
        if decisions != puzzle.decisions:
            problems.append(f"decisions is {puzzle.decisions}, but the forcing player needs {decisions}")
    if puzzle.forks is not None and forcing.forks != puzzle.forks:
        problems.append(f"forks is {puzzle.forks}, but the forcing player needs {forcing.forks}")
    # a judged line (`judged`): its real forks, and its ideas marked and ordered as `judged` did
    weak = None
    if puzzle.real_forks is not None or any(idea.weak is not None for idea in puzzle.key_ideas or ()):
        weak = weak_forks(analysis.position, puzzle.max_placed, puzzle.laid_cards, forcing)
        if puzzle.real_forks is not None and weak.forks_at_least != puzzle.real_forks:
            problems.append(f"real_forks is {puzzle.real_forks}, but {weak.forks_at_least} are not weak")
    if puzzle.key_ideas is not None:
        ideas = key_ideas(puzzle.position(), [parse_cards(meld) for meld in puzzle.solution])
        if weak is not None:
            ideas = mark_weak(ideas, weak.weak)
        if ideas != puzzle.key_ideas:
            said = "; ".join(str(idea.words()) for idea in ideas) or "none"
            problems.append(f"key_ideas do not say the forcing player's decisions on the solution ({said})")
    return problems


def _preset_name(rules: str) -> str:
    try:
        return Rules.named(rules).name
    except RulesError as error:
        raise PuzzleError(str(error)) from None
