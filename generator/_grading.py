"""What the site publishes as a puzzle, and how hard it is: one predicate and one grade.

The grade reads three figures (RULES.md): the chain length, what a player must hold in their head
at once, and the forcing player's decisions and forks, how much of it they must think of. The chain
length gives the tier; too few decisions bring a deep puzzle down, because a forced sweep of any
length is one idea, and so do too few forks, because declines alone yield to one rule ("never play
the obvious card"). The skill-limited player checks the grade, as Tatham's puzzles are graded: a
puzzle of a tier must defeat the player that breaks one meld fewer at a time than the tier's lowest
chain length.
"""

from __future__ import annotations

from puzzles import Analysis, Forcing, SkillRun, is_puzzle

TIERS: tuple[str, ...] = ("easy", "medium", "hard", "expert", "master")
"""The named tiers, easiest first."""

LOWEST_CHAIN: dict[str, int] = {"easy": 1, "medium": 2, "hard": 3, "expert": 4, "master": 6}
"""The shortest chain length of each tier."""

FLOOR_TIER = "hard"
"""From this tier on a puzzle needs a real hand: HAND_FLOOR cards or more, MAXIMUM_FLOOR placed."""
HAND_FLOOR = 4
MAXIMUM_FLOOR = 2


LEAST_DECISIONS: dict[str, int] = {"expert": 2, "master": 3}
"""The fewest decisions of the forcing player each tier needs (none below Expert). The generator's
traps read it too (`generator._make._trapped`), so published IDs replay only while it stands."""
LEAST_FORKS: dict[str, int] = {"expert": 1, "master": 2}
"""The fewest forks (decisions that are not declines) each tier needs (none below Expert)."""


def tier_of(chain: int, decisions: int | None = None, forks: int | None = None) -> str | None:
    """The tier of a chain length, a count of decisions and a count of forks.

    The chain length says how high a puzzle may go: 1 easy, 2 medium, 3 hard, 4-5 expert, 6 and
    more master. Then each tier needs its `LEAST_DECISIONS` and its `LEAST_FORKS`: a chain of 6 or
    more is Master with 3 decisions or more of which 2 are forks, Expert with 2 decisions of which
    one is a fork, else Hard; a chain of 4 or 5 is Expert with 2 decisions or more and a fork, else
    Hard. `decisions` None (not counted: a line written before the forcing player counted, or
    before it modelled jokers) leaves the chain length alone to say; `forks` None (a line written
    before forks were counted) leaves the chain length and the decisions to say.

    Chain length 0 (new melds and extensions suffice) is no puzzle at all: None.

    >>> tier_of(8, 1), tier_of(8, 2), tier_of(8, 3), tier_of(4, 0), tier_of(3, 0)
    ('hard', 'expert', 'master', 'hard', 'hard')
    >>> tier_of(8, 3, 2), tier_of(8, 3, 1), tier_of(8, 5, 0), tier_of(4, 2, 1), tier_of(4, 2, 0)
    ('master', 'expert', 'hard', 'expert', 'hard')
    """
    if chain <= 0:
        return None
    tier = next(tier for tier in reversed(TIERS) if chain >= LOWEST_CHAIN[tier])
    if decisions is not None:
        while decisions < LEAST_DECISIONS.get(tier, 0) or (
            forks is not None and forks < LEAST_FORKS.get(tier, 0)
        ):
            tier = TIERS[TIERS.index(tier) - 1]
    return tier


def graded_decisions(forcing: Forcing | None) -> int | None:
    """The count of decisions a grade reads: the fewest the forcing player proved, or when its search
    stopped at its limit, the lower bound it proved (every line of fewer fails), which never grades a
    puzzle above what it is; None when it did not count."""
    if forcing is None or not forcing.modelled:
        return None
    return forcing.decisions if forcing.decisions is not None else forcing.at_least


def graded_forks(forcing: Forcing | None) -> int | None:
    """The count of forks a grade reads: the fewest among the lines of fewest decisions when the
    forcing player proved it, else the lower bound it proved; None when it did not count."""
    if forcing is None or not forcing.modelled:
        return None
    return forcing.forks if forcing.forks is not None else forcing.forks_at_least


def graded_tier(chain: int, forcing: Forcing | None) -> str | None:
    """`tier_of` the chain length with the decisions and forks a grade reads of `forcing`."""
    return tier_of(chain, graded_decisions(forcing), graded_forks(forcing))


def tier_rank(tier: str) -> int:
    """0 for easy up to 4 for master; raises ValueError for an unknown tier."""
    try:
        return TIERS.index(tier)
    except ValueError:
        raise ValueError(f"unknown tier {tier!r}; the tiers are {', '.join(TIERS)}") from None


def skill_below(tier: str) -> int | None:
    """The skill (melds broken at a time) of the player a puzzle of this tier must defeat: one
    below the tier's lowest chain length; None for easy, which any player with skill 1 solves."""
    skill = LOWEST_CHAIN[tier] - 1
    return skill if skill >= 1 else None


def is_publishable(analysis: Analysis, defeated: SkillRun | None, forcing: Forcing | None = None) -> bool:
    """A puzzle the site may publish at the tier of its chain length, decisions and forks
    (`graded_tier`).

    A proved, unique maximum of at least one card (the engine's `is_puzzle`) whose proved chain
    length is at least 1; from Hard on, a hand of HAND_FLOOR cards or more and a maximum of
    MAXIMUM_FLOOR or more; and above Easy, `defeated` is the skill-limited player of the tier's
    `skill_below`, proved to place fewer cards than the maximum.
    """
    chain = analysis.chain.length
    if not is_puzzle(analysis) or chain is None:
        return False
    if (tier := graded_tier(chain, forcing)) is None:
        return False
    if tier_rank(tier) >= tier_rank(FLOOR_TIER) and (
        len(analysis.position.hand) < HAND_FLOOR or analysis.best.value < MAXIMUM_FLOOR
    ):
        return False
    skill = skill_below(tier)
    if skill is None:
        return True
    return (
        defeated is not None
        and defeated.skill == skill
        and defeated.proven
        and defeated.placed < analysis.best.value
    )
