"""What the site publishes as a puzzle, and how hard it is: one predicate and one grade.

The grade follows the chain length (RULES.md): what a player must hold in their head at once. The
skill-limited player checks it, as Tatham's puzzles are graded: a puzzle of a tier must defeat the
player that breaks one meld fewer at a time than the tier's lowest chain length.
"""

from __future__ import annotations

from puzzles import Analysis, SkillRun, is_puzzle

TIERS: tuple[str, ...] = ("easy", "medium", "hard", "expert", "master")
"""The named tiers, easiest first."""

LOWEST_CHAIN: dict[str, int] = {"easy": 1, "medium": 2, "hard": 3, "expert": 4, "master": 6}
"""The shortest chain length of each tier."""

FLOOR_TIER = "hard"
"""From this tier on a puzzle needs a real hand: HAND_FLOOR cards or more, MAXIMUM_FLOOR placed."""
HAND_FLOOR = 4
MAXIMUM_FLOOR = 2


def tier_of(chain: int) -> str | None:
    """The tier of a chain length: 1 easy, 2 medium, 3 hard, 4-5 expert, 6 and more master.

    Chain length 0 (new melds and extensions suffice) is no puzzle at all: None.
    """
    if chain <= 0:
        return None
    return next(tier for tier in reversed(TIERS) if chain >= LOWEST_CHAIN[tier])


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


def is_publishable(analysis: Analysis, defeated: SkillRun | None) -> bool:
    """A puzzle the site may publish at the tier of its chain length.

    A proved, unique maximum of at least one card (the engine's `is_puzzle`) whose proved chain
    length is at least 1; from Hard on, a hand of HAND_FLOOR cards or more and a maximum of
    MAXIMUM_FLOOR or more; and above Easy, `defeated` is the skill-limited player of the tier's
    `skill_below`, proved to place fewer cards than the maximum.
    """
    chain = analysis.chain.length
    if not is_puzzle(analysis) or chain is None or (tier := tier_of(chain)) is None:
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
