"""Puzzles as the site stores them: the position, its proved answer and grade, and a short ID.

An ID is a rules letter, a method and a base-36 attempt seed, e.g. `cb2n9c`; it names one
generation attempt exactly, so `python -m generator show ID` replays it. A method is one lower-case
letter, or (once the 26 letters were all taken) a digit and a lower-case letter, e.g. `c0a2n9c`: no
letter method starts with a digit, so every ID published before reads as it did.
"""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace

from generator._grading import TIERS, graded_tier, is_publishable, tier_of
from generator._themes import THEMES, themes_of
from puzzles import (
    PRESETS,
    Analysis,
    Card,
    CardError,
    Forcing,
    KeyIdea,
    KeyIdeaError,
    Meld,
    MeldError,
    Play,
    Position,
    PositionError,
    SkillRun,
    WeakForks,
    ideas_from_json,
    key_ideas,
    lay_play_apart,
    mark_weak,
    parse_cards,
    play_of,
    play_problems,
    sorted_cards,
)

RULES_LETTERS: dict[str, str] = {
    "classic": "c",
    "italian": "i",
    "jokers": "j",
    "german-jokers": "g",
    "three-decks": "t",
}
LETTER_RULES = {letter: name for name, letter in RULES_LETTERS.items()}
assert set(RULES_LETTERS) == set(PRESETS), "every preset needs an ID letter"

_DIGITS = string.digits + string.ascii_lowercase
MAX_ID_LENGTH = 16


class PuzzleError(ValueError):
    """A bad puzzle line, a bad puzzle ID, or no puzzle found; the message names the problem."""


@dataclass(frozen=True, slots=True)
class PuzzleId:
    """The three parts of a puzzle ID.

    >>> str(PuzzleId("classic", "b", 123456))
    'cb2n9c'
    >>> PuzzleId.parse("cb2n9c")
    PuzzleId.parse('cb2n9c')
    """

    rules: str
    """The preset name."""
    method: str
    """The generation method: one lower-case letter, or a digit and a lower-case letter."""
    seed: int
    """The seed of the attempt's `random.Random`."""

    def __post_init__(self) -> None:
        if self.rules not in RULES_LETTERS:
            raise PuzzleError(f"no ID letter for the rules {self.rules!r}")
        if not is_method_name(self.method):
            raise PuzzleError(
                f"method {self.method!r} is not one lower-case letter, or a digit and a lower-case letter"
            )
        if self.seed < 0:
            raise PuzzleError(f"negative seed {self.seed}")

    @classmethod
    def parse(cls, text: str) -> PuzzleId:
        if not isinstance(text, str):
            raise PuzzleError(f"puzzle ID {text!r} is not a string")
        token = text.strip().lower()
        if len(token) < 3 or len(token) > MAX_ID_LENGTH:
            raise PuzzleError(f"puzzle ID {text!r} should have 3 to {MAX_ID_LENGTH} characters")
        rules = LETTER_RULES.get(token[0])
        if rules is None:
            known = ", ".join(f"{letter} ({name})" for name, letter in RULES_LETTERS.items())
            raise PuzzleError(f"puzzle ID {text!r}: unknown rules letter {token[0]!r}; known: {known}")
        width = 2 if token[1] in string.digits else 1
        method, digits = token[1 : 1 + width], token[1 + width :]
        if not is_method_name(method):
            raise PuzzleError(f"puzzle ID {text!r}: {method!r} is not a method")
        if not digits:
            raise PuzzleError(f"puzzle ID {text!r} has no seed after the method {method!r}")
        if any(ch not in _DIGITS for ch in digits):
            raise PuzzleError(f"puzzle ID {text!r}: the seed {digits!r} is not base 36")
        return cls(rules, method, int(digits, 36))

    def __str__(self) -> str:
        return RULES_LETTERS[self.rules] + self.method + _base36(self.seed)

    def __repr__(self) -> str:
        return f"PuzzleId.parse({str(self)!r})"


def is_method_name(name: str) -> bool:
    """Whether `name` can name a method in an ID: `b`, or `0a` once the letters ran out."""
    if len(name) == 2 and name[0] in string.digits:
        name = name[1]
    return len(name) == 1 and name in string.ascii_lowercase


def _base36(number: int) -> str:
    digits = []
    while True:
        number, digit = divmod(number, 36)
        digits.append(_DIGITS[digit])
        if not number:
            return "".join(reversed(digits))


Melds = tuple[tuple[str, ...], ...]

FIELDS = (
    "id", "rules", "table", "hand", "max_placed", "laid", "solution",
    "depth", "chain", "tier", "themes", "hand_size", "decoys", "live_decoys", "decisions",
    "decisions_at_least", "forks", "forks_at_least", "real_forks", "key_ideas", "canonical",
)  # fmt: skip
"""The keys of one puzzle line, in the order they are written."""
OPTIONAL_FIELDS = frozenset(
    {"decisions", "decisions_at_least", "forks", "forks_at_least", "real_forks", "key_ideas", "canonical"}
)
"""Keys a line may lack: `decisions` came after the first pools were written, `forks` and `key_ideas`
after issue 38; `decisions_at_least` and `forks_at_least` are written only when the count is not
proved; `real_forks` only where a run judged the forks (`with_weak_forks`)."""
OLD_FIELDS = {"max_played": "max_placed", "played": "laid"}
"""Keys that files written before the words were settled use, and the key each one now is."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One accepted puzzle: a position whose unique maximal play the solver proved, and its grade.

    Cards are tokens as `str(card)` writes them (`10H`, `JK`); melds in table order.
    """

    id: str
    rules: str
    """The preset name."""
    table: Melds
    hand: tuple[str, ...]
    """Sorted by suit then rank, jokers last."""
    max_placed: int
    """Cards the maximal play places: the number by which the hand shrinks."""
    laid: tuple[str, ...]
    """The hand cards every maximal play lays on the table (unique as a multiset)."""
    solution: Melds
    """The final table of the graded play: a maximal play whose rearrangements each break at most
    `chain` original melds (in all it may break more than `depth`)."""
    depth: int
    """Chain depth: the fewest original melds a maximal play must break (at least 1)."""
    chain: int
    """Chain length: the most melds one rearrangement must break (at least 1); the tier follows it."""
    tier: str
    themes: tuple[str, ...]
    """What the solution does, as names of `THEMES`, in their order."""
    hand_size: int
    decoys: int
    """Hand cards the maximal play leaves in the hand."""
    live_decoys: int
    """Decoys that some valid play places (they tempt); the others fit nowhere at all."""
    decisions: int | None = None
    """The forcing player's fewest decisions to a maximal play (RULES.md), which the tier reads with
    the chain length (`tier_of`); None when not proved (the tier then read the lower bound the
    player proved), for a position with jokers (the tier follows the chain length) and for a line
    written before the forcing player."""
    decisions_at_least: int | None = None
    """When `decisions` is None but the forcing player counted: the lower bound it proved, which the
    tier read."""
    forks: int | None = None
    """The fewest forks (decisions that are not declines, RULES.md) among the forcing player's lines
    of fewest decisions, which the tier reads too; None when not proved and for a line written
    before forks were counted."""
    forks_at_least: int | None = None
    """When `forks` is None but the forcing player counted: the lower bound it proved, which the
    tier read."""
    key_ideas: tuple[KeyIdea, ...] | None = None
    """The decisions in words against `solution` (`puzzles.key_ideas`), found when the puzzle was
    made so that no page runs the forcing player again; None for a line written before they were
    stored. They give the solution away: the site shows them only once the puzzle is finished.
    Where the forks were judged (`with_weak_forks`), each fork's idea says whether it is weak."""
    real_forks: int | None = None
    """The forks a strong player feels: the fewest forks that are not weak among the lines of fewest
    decisions (`puzzles.weak_forks`), a proved lower bound (a card the solver proved neither weak nor
    real counts as weak). None where the forks were not judged: a run judges them at Expert and
    Master only (the tiers that need forks, `generator.judged`), and a line written before they were
    judged lacks it; its forks then all read as real."""

    @classmethod
    def from_analysis(
        cls,
        puzzle_id: PuzzleId | str,
        analysis: Analysis,
        defeated: SkillRun | None,
        live_decoys: int,
        forcing: Forcing | None = None,
    ) -> Puzzle:
        """The puzzle of a publishable analysis (see `is_publishable`); PuzzleError if it is not one."""
        if not is_publishable(analysis, defeated, forcing):
            raise PuzzleError(f"{puzzle_id}: the analysis does not prove a publishable puzzle")
        position = analysis.position
        # the graded play, not the depth play: the solution must show what the tier says, one
        # rearrangement of at most `chain` breaks at a time, even where that breaks more in all
        play = analysis.chain.play
        assert play is not None, "a publishable analysis"
        # runs the play does not touch lie as they lay, not joined to the next one (`lay_play_apart`)
        play = lay_play_apart(position, play)
        depth, chain = analysis.depth.depth, analysis.chain.length
        assert play is not None and depth is not None and chain is not None, "a publishable analysis"
        tier = graded_tier(chain, forcing)
        assert tier is not None
        # read the laid cards off the final table, as `from_json` does, so the two always agree
        laid = play_of(position, play.table).laid
        solution = tuple(tuple(meld.tokens()) for meld in play.table)
        return cls(
            id=str(puzzle_id),
            rules=position.rules.name,
            table=tuple(tuple(meld.tokens()) for meld in position.table),
            hand=tuple(str(card) for card in position.hand),
            max_placed=play.placed,
            laid=tuple(str(card) for card in laid),
            solution=solution,
            depth=depth,
            chain=chain,
            tier=tier,
            themes=themes_of(analysis),
            hand_size=len(position.hand),
            decoys=len(position.hand) - len(laid),
            live_decoys=live_decoys,
            decisions=None if forcing is None else forcing.decisions,
            decisions_at_least=_bound(forcing, forcing.decisions, forcing.at_least) if forcing else None,
            forks=None if forcing is None else forcing.forks,
            forks_at_least=_bound(forcing, forcing.forks, forcing.forks_at_least) if forcing else None,
            key_ideas=key_ideas(position, [meld.cards for meld in play.table]),
        )

    def with_weak_forks(self, found: WeakForks) -> Puzzle:
        """The puzzle with its forks judged (`puzzles.weak_forks` of its position, maximum and laid
        cards): its real forks counted and its key ideas marked and ordered (`puzzles.mark_weak`:
        a real fork first, a weak fork last)."""
        ideas = None if self.key_ideas is None else mark_weak(self.key_ideas, found.weak)
        return replace(self, real_forks=found.forks_at_least, key_ideas=ideas)

    @property
    def canonical(self) -> str:
        """The position with table and hand as multisets: the same puzzle gives the same string.

        It reads back with `Position.parse`. Runs keep their order, because a joker's place in a
        run says which card it stands for.
        """
        return canonical_form(self.position())

    @property
    def laid_cards(self) -> tuple[Card, ...]:
        return parse_cards(self.laid)

    def position(self) -> Position:
        return Position.build(self.rules, self.table, self.hand)

    def to_json(self) -> dict[str, object]:
        """One puzzle line of a JSONL file."""
        return {
            "id": self.id,
            "rules": self.rules,
            "table": [list(meld) for meld in self.table],
            "hand": list(self.hand),
            "max_placed": self.max_placed,
            "laid": list(self.laid),
            "solution": [list(meld) for meld in self.solution],
            "depth": self.depth,
            "chain": self.chain,
            "tier": self.tier,
            "themes": list(self.themes),
            "hand_size": self.hand_size,
            "decoys": self.decoys,
            "live_decoys": self.live_decoys,
            "decisions": self.decisions,
            **({} if self.decisions_at_least is None else {"decisions_at_least": self.decisions_at_least}),
            "forks": self.forks,
            **({} if self.forks_at_least is None else {"forks_at_least": self.forks_at_least}),
            **({} if self.real_forks is None else {"real_forks": self.real_forks}),
            **({} if self.key_ideas is None else {"key_ideas": [idea.to_json() for idea in self.key_ideas]}),
            "canonical": self.canonical,
        }

    @classmethod
    def from_json(cls, data: object) -> Puzzle:
        """Read a puzzle line and check everything but the solver's proofs (see `verify`).

        Checked: the fields and their types, the ID, a legal position, a solution that is a legal
        play laying exactly `laid`, the counts, the tier of the chain length, known themes and
        the canonical form. A line of an older file may say `max_played` and `played` instead.
        """
        fields = _fields(data)
        parsed_id, position = _position_of(fields)
        final, read = _solution_of(fields, position)
        puzzle = cls(
            id=str(parsed_id),
            rules=position.rules.name,
            table=tuple(tuple(meld.tokens()) for meld in position.table),
            hand=tuple(str(card) for card in position.hand),
            max_placed=_count(fields, "max_placed"),
            laid=tuple(str(card) for card in read.laid),
            solution=tuple(tuple(meld.tokens()) for meld in final),
            depth=_count(fields, "depth"),
            chain=_count(fields, "chain"),
            tier=_text(fields, "tier"),
            themes=_themes(fields),
            hand_size=_count(fields, "hand_size"),
            decoys=_count(fields, "decoys"),
            live_decoys=_count(fields, "live_decoys"),
            decisions=_maybe_count(fields, "decisions"),
            decisions_at_least=_maybe_count(fields, "decisions_at_least"),
            forks=_maybe_count(fields, "forks"),
            forks_at_least=_maybe_count(fields, "forks_at_least"),
            key_ideas=_ideas(fields, position, final),
            real_forks=_maybe_count(fields, "real_forks"),
        )
        _check_counts(puzzle, position, read)
        if "canonical" in fields and fields["canonical"] != puzzle.canonical:
            raise PuzzleError(f"canonical {fields['canonical']!r} does not match the table and hand")
        return puzzle


def _fields(data: object) -> dict[str, object]:
    """A puzzle line's fields under their current names, every one there and no other."""
    if not isinstance(data, Mapping):
        raise PuzzleError("a puzzle must be a JSON object")
    fields = _current_names(data)
    missing = [name for name in FIELDS if name not in fields and name not in OPTIONAL_FIELDS]
    if missing:
        raise PuzzleError(f"missing field {missing[0]!r}")
    unknown = sorted(set(fields) - set(FIELDS))
    if unknown:
        raise PuzzleError(f"unknown field {unknown[0]!r}")
    return fields


def _position_of(fields: Mapping[str, object]) -> tuple[PuzzleId, Position]:
    """The line's ID and its position, which must be a legal one of the ID's preset."""
    puzzle_id = _text(fields, "id")
    parsed_id = PuzzleId.parse(puzzle_id)
    rules = _text(fields, "rules")
    if rules not in PRESETS:
        raise PuzzleError(f"rules: unknown preset {rules!r}; the presets are {', '.join(PRESETS)}")
    if parsed_id.rules != rules:
        raise PuzzleError(f"id {puzzle_id!r} is a {parsed_id.rules} puzzle, not {rules}")
    try:
        return parsed_id, Position.build(rules, _melds(fields, "table"), _cards(fields, "hand"))
    except PositionError as error:
        raise PuzzleError(f"position: {error}") from None


def _solution_of(fields: Mapping[str, object], position: Position) -> tuple[list[Meld], Play]:
    """The solution's melds, a legal play of the position that lays exactly the line's `laid`
    cards; and that play."""
    laid = _cards(fields, "laid")
    laid_cards = sorted_cards(parse_cards(laid))
    try:
        final = [Meld.of(parse_cards(meld), position.rules) for meld in _melds(fields, "solution")]
    except (CardError, MeldError) as error:
        raise PuzzleError(f"solution: {error}") from None
    problems = play_problems(position, [meld.cards for meld in final])
    if problems:
        raise PuzzleError(f"solution: {problems[0]}")
    read = play_of(position, final)
    if read.laid != laid_cards:
        shown = " ".join(str(card) for card in read.laid) or "nothing"
        raise PuzzleError(f"laid: the solution places {shown}, not {' '.join(laid) or 'nothing'}")
    return final, read


def _check_counts(puzzle: Puzzle, position: Position, read: Play) -> None:
    """The counts the line claims agree with its solution, and its tier with its chain length."""
    expected = {
        "max_placed": len(read.laid) - len(read.freed),
        "hand_size": len(position.hand),
        "decoys": len(position.hand) - len(read.laid),
    }
    for name, value in expected.items():
        if getattr(puzzle, name) != value:
            raise PuzzleError(f"{name} is {getattr(puzzle, name)}, but the puzzle gives {value}")
    if puzzle.max_placed < 1:
        raise PuzzleError("max_placed: a puzzle places at least one card")
    if puzzle.live_decoys > puzzle.decoys:
        raise PuzzleError(f"live_decoys is {puzzle.live_decoys}, but there are {puzzle.decoys} decoys")
    highest = tier_of(puzzle.chain)
    if highest is None:
        raise PuzzleError(f"chain {puzzle.chain}: a published puzzle has chain length 1 or more")
    if puzzle.chain > puzzle.depth:
        raise PuzzleError(f"chain {puzzle.chain} is more than depth {puzzle.depth}")
    if puzzle.decisions is not None and puzzle.decisions_at_least is not None:
        raise PuzzleError("decisions_at_least: a line with a proved count of decisions has no lower bound")
    if puzzle.forks is not None and puzzle.forks_at_least is not None:
        raise PuzzleError("forks_at_least: a line with a proved count of forks has no lower bound")
    decisions = puzzle.decisions if puzzle.decisions is not None else puzzle.decisions_at_least
    forks = puzzle.forks if puzzle.forks is not None else puzzle.forks_at_least
    if decisions is not None and forks is not None and forks > decisions:
        raise PuzzleError(f"forks is {forks}, more than the {decisions} decisions")
    if puzzle.real_forks is not None and puzzle.forks is not None and puzzle.real_forks > puzzle.forks:
        raise PuzzleError(f"real_forks is {puzzle.real_forks}, more than the {puzzle.forks} forks")
    if decisions is not None:
        tier = tier_of(puzzle.chain, decisions, forks)
        if puzzle.tier != tier:
            counts = f"{decisions} decisions" + ("" if forks is None else f" with {forks} forks")
            raise PuzzleError(
                f"tier {puzzle.tier!r} does not match chain {puzzle.chain} and {counts} ({tier})"
            )
    # decisions not counted (a line written before they were), or only as a lower bound: any tier
    # the chain length allows with some count of decisions
    elif (
        puzzle.tier not in TIERS[TIERS.index(tier_of(puzzle.chain, 0) or highest) : TIERS.index(highest) + 1]
    ):
        raise PuzzleError(f"tier {puzzle.tier!r} does not match chain {puzzle.chain} ({highest})")


def _ideas(fields: Mapping[str, object], position: Position, final: list[Meld]) -> tuple[KeyIdea, ...] | None:
    """The line's key ideas, each about a card of the puzzle, at home in a meld of its solution and
    kept from a meld of its table; None when the line has none (written before they were stored)."""
    if fields.get("key_ideas") is None:
        return None
    try:
        ideas = ideas_from_json(fields["key_ideas"])
    except KeyIdeaError as error:
        raise PuzzleError(f"key_ideas: {error}") from None
    finals = [Counter(meld.cards) for meld in final]
    table = [Counter(meld.cards) for meld in position.table]
    held = position.hand_counts() + position.table_counts()
    for idea in ideas:
        if not held[idea.card]:
            raise PuzzleError(f"key_ideas: {idea.card} is neither in the hand nor on the table")
        if idea.home is not None and Counter(idea.home) not in finals:
            raise PuzzleError(f"key_ideas: {idea.card}'s home is no meld of the solution")
        if idea.instead is not None and Counter(idea.instead) not in table:
            raise PuzzleError(f"key_ideas: {idea.card} is said to fit a meld the table does not hold")
    return ideas


def canonical_form(position: Position) -> str:
    """`rules | melds | hand`, melds and hand sorted, so equal multisets give equal text."""
    melds = sorted(position.table, key=lambda meld: [card.index for card in meld.cards])
    table = " / ".join(str(meld) for meld in melds)
    hand = " ".join(str(card) for card in position.hand)
    return f"{position.rules.name} | {table} | {hand}"


def _text(data: Mapping[str, object], name: str) -> str:
    value = data[name]
    if not isinstance(value, str):
        raise PuzzleError(f"{name} must be a string, not {value!r}")
    return value


def _current_names(data: Mapping[object, object]) -> dict[str, object]:
    """The line with each old key under the name it has now."""
    return {OLD_FIELDS.get(str(name), str(name)): value for name, value in data.items()}


def _bound(forcing: Forcing, count: int | None, at_least: int) -> int | None:
    """The lower bound a line writes: only where the forcing player counted but did not prove."""
    return at_least if forcing.modelled and count is None else None


def _maybe_count(data: Mapping[str, object], name: str) -> int | None:
    """A count the line may lack or leave null."""
    return None if data.get(name) is None else _count(data, name)


def _count(data: Mapping[str, object], name: str) -> int:
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PuzzleError(f"{name} must be a whole number of at least 0, not {value!r}")
    return value


def _themes(data: Mapping[str, object]) -> tuple[str, ...]:
    value = data["themes"]
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise PuzzleError("themes must be a list of theme names")
    unknown = [name for name in value if name not in THEMES]
    if unknown:
        raise PuzzleError(f"themes: unknown theme {unknown[0][:40]!r}")
    return tuple(value)


def _cards(data: Mapping[str, object], name: str) -> list[str]:
    value = data[name]
    if not isinstance(value, list) or not all(isinstance(token, str) for token in value):
        raise PuzzleError(f"{name} must be a list of card tokens")
    try:
        parse_cards(value)
    except CardError as error:
        raise PuzzleError(f"{name}: {error}") from None
    return value


def _melds(data: Mapping[str, object], name: str) -> list[list[str]]:
    value = data[name]
    if not isinstance(value, list) or not all(
        isinstance(meld, list) and all(isinstance(token, str) for token in meld) for meld in value
    ):
        raise PuzzleError(f"{name} must be a list of melds, each a list of card tokens")
    return value
