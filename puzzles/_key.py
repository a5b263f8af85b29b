"""The key ideas of a puzzle in words: its decisions (RULES.md) said against its solution.

The forcing player's decision line says which cards need a decision, how their copies end (in
sets, in runs, kept) and of which kind each decision is (`Decision.kind`). These words say it with
the solution's own melds: a *decline* keeps back, or sends elsewhere, a hand card that fits a table
meld as it lies ("Keep 9♥ back, though it fits 9♠ 9♦ 9♣"; "10♠ goes to 10♥ 10♦ 10♣ 10♠, not onto
J♠ Q♠ K♠"); a *fork* gives a card a home that the forced moves cannot tell from another ("10♦ goes
to the run 10♦ J♦ Q♦, not to a set"). The line is asked to agree with the solution (`shown`); a
decision that still does not is left out: the words never say what the solution does not do.

A fork the generator judged weak (`puzzles.weak_forks`: the card goes to its one home and nothing
competes for what that home needs) is no key: `mark_weak` says it plainly ("2♠ goes to 2♠ 3♠ 4♠,
its only home: nothing else competes for it") after the real forks and the declines, and only a
fork judged real is called "The key" (`shown_ideas`).

They give the solution away: the site shows them only once the puzzle is finished, and its hint
ladder's first rung names the first key card alone (`key_card`). Finding them runs the forcing
player again (a large share of a second on a joker puzzle), so a puzzle stores them when it is made
(`KeyIdea.to_json`, `ideas_from_json`) and a page reads them back.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal, cast

from puzzles._candidates import JOKER_INDEX, Candidate, allowed_by, meld_of
from puzzles._cards import JOKER, Card, CardError, parse_cards
from puzzles._forcing import Decision, agreeing_line, decisions_of, open_values
from puzzles._melds import Meld, MeldError, MeldKind, meld_problem
from puzzles._model import Model, Objective
from puzzles._plays import play_of
from puzzles._position import Position
from puzzles._rules import Rules
from puzzles._solver import FORK_TIME_LIMIT, FORK_WORK_LIMIT, ends_of, reaches_otherwise
from puzzles._steps import Step, StepKind, apply_steps, lay_apart
from puzzles._words import Words, words, words_n

KeyKind = Literal["decline", "fork"]
KEY_KINDS: tuple[KeyKind, ...] = ("decline", "fork")
IDEA_FIELDS = ("kind", "card", "home", "home_kind", "instead")
"""The keys of one key idea's JSON form, every one required (`home`, `home_kind` and `instead` may
be null)."""
MORE_FIELDS = ("rival_kind", "copies", "kept", "leaves", "stands_for", "weak")
"""The keys an idea's JSON form has only where they differ from their defaults (ideas stored before
them read as they were said then, less any "not to a set" they could not back, less the card a
run's joker stands for, which was not checked before `stands_for`, and with every fork taken for a
real one, as before `weak`)."""


class KeyIdeaError(ValueError):
    """A stored key idea that cannot be read; the message names the problem."""


@dataclass(frozen=True, slots=True)
class KeyIdea:
    """One decision of the forcing player's line, placed on the solution's table."""

    kind: KeyKind
    card: Card
    home: tuple[Card, ...] | None
    """The solution's meld that holds the card, as the decision sends it; None: kept in the hand."""
    home_kind: MeldKind | None
    instead: tuple[Card, ...] | None
    """The table meld the card fits as it lies (the obvious move), where the solution does not
    put it; None when there is none."""
    rival_kind: MeldKind | None = None
    """The other kind of meld than the home's that some meld of the position's cards could take the
    card into: the choice the words say the card refuses. None when none could (no other fours
    for a set): the words then name no choice."""
    copies: int = 1
    """How many copies of the card end in melds of the home's kind: two where both must."""
    kept: int = 0
    """Hand copies of the card that stay in the hand while another goes home."""
    leaves: tuple[Card, ...] | None = None
    """A table meld of the other kind that a copy must leave to get there, where one does."""
    stands_for: Card | None = None
    """A joker's idea in a run: the card it stands for there, where every maximal play has a joker
    that can stand for it (`stands_otherwise`); None where that is not proved, and the words then
    say only that the joker goes to the run."""
    weak: bool | None = None
    """A fork's verdict (`puzzles.weak_forks`, set by `mark_weak`): True for a weak fork (the card
    goes to its one home and nothing competes for what that home needs), False for a real one; None
    for a decline, and for a fork not judged (an idea stored before, or of a puzzle below Expert,
    whose forks a run does not judge), which reads as a real one."""

    def words(self) -> Words:
        """The idea as one sentence, in the solution's terms."""
        card = (self.card,)
        if self.card.is_joker:
            return self._joker_words()
        if self.weak and self.home is not None:
            # no choice to name: the card has one place, and no other card wants it
            return words(
                "%(card)s goes to %(home)s, its only home: nothing else competes for it.",
                card=card,
                home=self.home,
            )
        if self.home is None:
            if self.instead is None:
                return words("Keep %(card)s back: the best play leaves it in the hand.", card=card)
            return words("Keep %(card)s back, though it fits %(meld)s.", card=card, meld=self.instead)
        split = self._split_words()
        if split is not None:
            return split
        if self.instead is not None:
            return words(
                "%(card)s goes to %(home)s, not onto %(meld)s.",
                card=card,
                home=self.home,
                meld=self.instead,
            )
        if self.rival_kind is None:
            # no meld of the other kind could take it: no choice to name
            if self.home_kind is MeldKind.SET:
                return words("%(card)s goes to the set %(home)s.", card=card, home=self.home)
            return words("%(card)s goes to the run %(home)s.", card=card, home=self.home)
        if self.home_kind is MeldKind.SET:
            return words("%(card)s goes to the set %(home)s, not to a run.", card=card, home=self.home)
        return words("%(card)s goes to the run %(home)s, not to a set.", card=card, home=self.home)

    @property
    def names_a_choice(self) -> bool:
        """Whether the words name what the card does not do (a meld it fits, the other kind, a copy
        kept or moved too), so that a player learns the choice from them; "7♠ goes to the run 7♠
        8♠ 9♠ 10♠." alone names none, nor does a weak fork's."""
        if self.weak:
            return False
        return (
            self.card.is_joker
            or self.home is None
            or self.instead is not None
            or self.rival_kind is not None
            or self.kept > 0
            or self.copies == 2
        )

    def _split_words(self) -> Words | None:
        """A decision about more than one copy: one goes home and another stays in the hand, or
        both go to melds of the home's kind (one leaving a meld of the other kind)."""
        card = (self.card,)
        if self.kept and self.home_kind is MeldKind.SET:
            return words_n(
                "One %(card)s goes to the set %(home)s; keep the other in the hand.",
                "One %(card)s goes to the set %(home)s; keep the other %(num)d in the hand.",
                self.kept,
                card=card,
                home=self.home,
            )
        if self.kept:
            return words_n(
                "One %(card)s goes to the run %(home)s; keep the other in the hand.",
                "One %(card)s goes to the run %(home)s; keep the other %(num)d in the hand.",
                self.kept,
                card=card,
                home=self.home,
            )
        if self.copies != 2:
            return None
        if self.leaves is not None:
            if self.home_kind is MeldKind.SET:
                return words(
                    "Both %(card)s end in sets (%(home)s), the one in %(meld)s too.",
                    card=card,
                    home=self.home,
                    meld=self.leaves,
                )
            return words(
                "Both %(card)s end in runs (%(home)s), the one in %(meld)s too.",
                card=card,
                home=self.home,
                meld=self.leaves,
            )
        if self.home_kind is MeldKind.SET:
            return words("Both %(card)s end in sets, one in %(home)s.", card=card, home=self.home)
        return words("Both %(card)s end in runs, one in %(home)s.", card=card, home=self.home)

    def _joker_words(self) -> Words:
        """A joker's decision is where it goes, and so which card it takes: in a run the one card
        of its place, which the words name; in a set a missing suit of its rank, any of them."""
        card = (self.card,)
        if self.home is None:
            return words("Keep %(card)s back: the best play leaves it in the hand.", card=card)
        if self.home_kind is MeldKind.SET:
            return words("%(card)s goes to the set %(home)s, not to a run.", card=card, home=self.home)
        if self.stands_for is None:
            # the jokers' split is true, the card not proved: another best play may fill another gap
            return words("%(card)s goes to the run %(home)s, not to a set.", card=card, home=self.home)
        return words(
            "The joker stands for %(card)s in the run %(home)s.",
            card=(self.stands_for,),
            home=self.home,
        )

    def to_json(self) -> dict[str, object]:
        """The idea as stored with its puzzle: cards as tokens, melds as lists of them; the
        `MORE_FIELDS` only where they are not their defaults."""
        data: dict[str, object] = {
            "kind": self.kind,
            "card": str(self.card),
            "home": None if self.home is None else [str(card) for card in self.home],
            "home_kind": None if self.home_kind is None else self.home_kind.value,
            "instead": None if self.instead is None else [str(card) for card in self.instead],
        }
        if self.rival_kind is not None:
            data["rival_kind"] = self.rival_kind.value
        if self.copies != 1:
            data["copies"] = self.copies
        if self.kept:
            data["kept"] = self.kept
        if self.leaves is not None:
            data["leaves"] = [str(card) for card in self.leaves]
        if self.stands_for is not None:
            data["stands_for"] = str(self.stands_for)
        if self.weak is not None:
            data["weak"] = self.weak
        return data

    @classmethod
    def from_json(cls, data: object) -> KeyIdea:
        """An idea `to_json` wrote; KeyIdeaError names what is wrong with anything else."""
        if not isinstance(data, Mapping):
            raise KeyIdeaError("a key idea must be a JSON object")
        missing = [name for name in IDEA_FIELDS if name not in data]
        if missing:
            raise KeyIdeaError(f"a key idea lacks {missing[0]!r}")
        unknown = sorted(str(name) for name in data if name not in IDEA_FIELDS + MORE_FIELDS)
        if unknown:
            raise KeyIdeaError(f"a key idea has an unknown field {unknown[0][:40]!r}")
        kind = data["kind"]
        if kind not in KEY_KINDS:
            raise KeyIdeaError(f"a key idea's kind is 'decline' or 'fork', not {str(kind)[:40]!r}")
        card = _one_card(data["card"])
        home, instead = _maybe_meld(data["home"], "home"), _maybe_meld(data["instead"], "instead")
        home_kind = data["home_kind"]
        if home_kind is not None and home_kind not in ("set", "run"):
            raise KeyIdeaError(f"a key idea's home_kind is 'set', 'run' or null, not {str(home_kind)[:40]!r}")
        if (home is None) != (home_kind is None):
            raise KeyIdeaError("a key idea has a home and its kind, or neither")
        if home is not None and card not in home:
            raise KeyIdeaError(f"a key idea's home does not hold its card {card}")
        rival_kind = data.get("rival_kind")
        if rival_kind is not None and rival_kind not in ("set", "run"):
            raise KeyIdeaError(
                f"a key idea's rival_kind is 'set', 'run' or null, not {str(rival_kind)[:40]!r}"
            )
        stands_for = data.get("stands_for")
        if stands_for is not None:
            stands_for = _one_card(stands_for)
            suits = {held.suit for held in home or () if not held.is_joker}
            if (
                not card.is_joker
                or home_kind != "run"
                or stands_for in (home or ())
                or suits != {stands_for.suit}
            ):
                raise KeyIdeaError("a key idea's stands_for is a card its run's joker stands for")
        weak = data.get("weak")
        if weak is not None and (not isinstance(weak, bool) or kind != "fork" or card.is_joker):
            raise KeyIdeaError("a key idea's weak is true or false, on a fork of a card that is no joker")
        copies, kept = data.get("copies", 1), data.get("kept", 0)
        for name, count in (("copies", copies), ("kept", kept)):
            if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 8:
                raise KeyIdeaError(f"a key idea's {name} must be a whole number from 0 to 8")
        return cls(
            cast(KeyKind, kind),
            card,
            home,
            None if home_kind is None else MeldKind(home_kind),
            instead,
            None if rival_kind is None else MeldKind(rival_kind),
            cast(int, copies),
            cast(int, kept),
            _maybe_meld(data.get("leaves"), "leaves"),
            stands_for,
            weak,
        )


def ideas_from_json(data: object) -> tuple[KeyIdea, ...]:
    """A puzzle's stored key ideas (a JSON list of `KeyIdea.to_json`); KeyIdeaError if they are not."""
    if not isinstance(data, list):
        raise KeyIdeaError("key ideas must be a list")
    return tuple(KeyIdea.from_json(item) for item in data)


def _one_card(value: object) -> Card:
    if not isinstance(value, str):
        raise KeyIdeaError(f"a key idea's card must be a card token, not {str(value)[:40]!r}")
    try:
        return Card.parse(value)
    except CardError as error:
        raise KeyIdeaError(f"a key idea's card: {error}") from None


def _maybe_meld(value: object, name: str) -> tuple[Card, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(token, str) for token in value) or not value:
        raise KeyIdeaError(f"a key idea's {name} must be a list of card tokens or null")
    try:
        return parse_cards(value)
    except CardError as error:
        raise KeyIdeaError(f"a key idea's {name}: {error}") from None


def key_ideas(position: Position, solution: Sequence[Sequence[Card]]) -> tuple[KeyIdea, ...]:
    """The decisions of a forcing player's line that the solution (a maximal play's final table)
    bears out, forks first, each group in line order: the line of the count the grade reads
    (`decisions_of`) where its search found one that agrees with the solution (not one laid along
    it, which says more than the key), else the fewest decisions that reach the solution
    (`agreeing_line`), a joker's first: where it goes and so which card it stands for
    (`_joker_line`). Empty when the line needs none or none was found within the searches' limits
    of decisions tried. Their melds are the solution's laid apart (`lay_apart`), as its steps show
    it: a solution stored with two untouched runs joined is said with them apart."""
    table = [meld.cards for meld in position.table]
    return _key_ideas(position, lay_apart(table, [tuple(meld) for meld in solution], position.rules))


@functools.lru_cache(maxsize=256)
def _key_ideas(position: Position, solution: tuple[tuple[Card, ...], ...]) -> tuple[KeyIdea, ...]:
    rules = position.rules
    table = tuple(Meld.of(meld, rules) for meld in solution)
    play = play_of(position, table)
    forcing = decisions_of(position, play.placed, shown=table)
    found: list[KeyIdea | None] | None = None
    if forcing.agrees and not forcing.laid_along:
        found = [_placed(position, table, decision) for decision in forcing.line]
    # with a joker the grade's count most often stops at its limit, and where it does not, its
    # line, with the joker's place left open, is longer than the joker's line
    with_joker = _joker_line(position, table, play.placed)
    if with_joker is not None and (found is None or len(with_joker) <= len(found)):
        found = with_joker
    if found is None:
        # the grade's line leads elsewhere than the solution
        found = [
            _placed(position, table, decision)
            for decision in agreeing_line(position, play.placed, table) or ()
        ]
    ideas = [idea for idea in found if idea is not None and _true(position, table, play.placed, idea)]
    # as many as the puzzle's decisions, or where they are not proved (a joker puzzle, mostly) the
    # proved bound the grade read
    wanted = forcing.decisions if forcing.decisions is not None else forcing.at_least
    if len(ideas) < wanted:
        ideas += _forced_forks(position, table, play.placed, ideas, wanted - len(ideas))
    ideas.sort(key=lambda idea: idea.kind == "decline")
    # a line that agrees with the solution may be longer than the count: say no more ideas than
    # the puzzle has decisions, the forks first
    return tuple(ideas if forcing.decisions is None else ideas[: forcing.decisions])


def _forced_forks(
    position: Position, table: tuple[Meld, ...], maximum: int, said: Sequence[KeyIdea], most: int
) -> list[KeyIdea]:
    """Up to `most` forks that the line's ideas leave unsaid, where the line's own were not true (or
    too few for the decisions, or their proved bound):
    cards that the forced moves leave open (`open_values`) and whose every other end the solver
    proves places fewer cards: those that end on the table first, each group in card order."""
    taken = {idea.card for idea in said}
    found: list[KeyIdea] = []
    opened = open_values(position, maximum)
    # cards that go somewhere first: a kept hand card is forced by the puzzle's one best hand alone
    laid = [card for card in opened if any(meld.cards.count(card) for meld in table)]
    for card in [*laid, *(card for card in opened if card not in laid)]:
        values = opened[card]
        if len(found) == most:
            break
        if card.is_joker or card in taken:
            continue
        sets, runs = ends_of(table, card)
        lying = sum(meld.cards.count(card) for meld in position.table)
        value = (sets, runs, position.hand.count(card) + lying - sets - runs)
        if value not in values or reaches_otherwise(position, maximum, card, sets, runs) is not False:
            continue
        idea = _placed(position, table, Decision(card, *value, kind="fork"))
        if idea is not None:
            found.append(idea)
    return found


def _true(position: Position, table: tuple[Meld, ...], maximum: int, idea: KeyIdea) -> bool:
    """Whether the idea is one: no play that ends its card otherwise (another split between sets
    and runs) places as many cards, as the solver finds within its time limit (where it proves
    neither, the idea stands: the forcing player found it needed). A joker's idea is checked the
    same way, on the jokers together: where another maximal play splits them otherwise between
    sets and runs (j8m1tytgqz: both in runs, where the solution lays one in a set), no joker's
    place is a key. Which card a joker stands for in a run the split does not tell: that stands."""
    return _reaches_otherwise(position, maximum, idea.card, *ends_of(table, idea.card)) is not True


@functools.lru_cache(maxsize=256)
def _reaches_otherwise(position: Position, maximum: int, card: Card, sets: int, runs: int) -> bool | None:
    """`reaches_otherwise`, asked once for each card of a solution (two jokers' ideas ask alike)."""
    return reaches_otherwise(position, maximum, card, sets, runs)


def _joker_line(position: Position, table: tuple[Meld, ...], placed: int) -> list[KeyIdea | None] | None:
    """The key ideas of a solution that lays every joker: first each joker's own fork, where the
    solution puts it (and so which card it stands for; none for a table joker that stays where it
    lies), then the decisions that reach the solution on the table with each joker read as that
    card (`agreeing_line`). A joker can fill any gap, so while it is free the forced moves tell
    little apart, and the lines the forcing player finds are long; once it is placed, a joker
    Expert needs a decision or three. None where no joker is in play, or one ends in the hand (a
    freed joker stands for nothing), or no line was found."""
    jokers = sum(meld.jokers for meld in position.table) + position.hand.count(JOKER)
    if not jokers or sum(meld.jokers for meld in table) != jokers:
        return None
    ends = Counter(_stand_ins(table))
    # a table joker that ends standing for the card it stands for now has no fork; the others and
    # the hand's take the rest of the solution's stand-ins
    left = Counter(ends)
    lying: list[Card | None] = []
    for card in _stand_ins(position.table):
        kept = left[card] > 0
        left[card] -= kept
        lying.append(card if kept else None)
    moved = list(left.elements())
    rest = iter(moved)
    given = iter([card if card is not None else next(rest) for card in lying])
    rules = replace(position.rules, decks=position.rules.decks + jokers)
    hand = tuple(card for card in position.hand if not card.is_joker)
    read = Position(rules, tuple(_read_as(meld, given) for meld in position.table), (*hand, *rest))
    read_table = tuple(_read_as(meld, iter(_stand_ins((meld,)))) for meld in table)
    line = agreeing_line(read, placed, read_table)
    if line is None:
        return None
    ideas: list[KeyIdea | None] = []
    in_runs = Counter(_stand_ins([meld for meld in table if meld.kind is MeldKind.RUN]))
    for meld in table:
        for card in _stand_ins((meld,)):
            if card in moved:
                moved.remove(card)
                # the card it stands for, only where every maximal play fills that place with a joker
                stands = (
                    meld.kind is MeldKind.RUN
                    and _stands_otherwise(position, placed, card, in_runs[card]) is False
                )
                ideas.append(
                    KeyIdea("fork", JOKER, meld.cards, meld.kind, None, stands_for=card if stands else None)
                )
    for decision in line:
        idea = _placed(read, read_table, decision)
        if idea is None:
            continue
        home = None
        if idea.home is not None:
            home = table[next(k for k, meld in enumerate(read_table) if meld.cards == idea.home)]
            if idea.card not in home.cards:
                continue  # a card a joker stands for: the joker's own fork says where it goes
        instead = _obvious_meld(position, idea.card, home)
        ideas.append(
            replace(
                idea,
                home=None if home is None else home.cards,
                instead=None if instead is None else instead.cards,
                rival_kind=None if home is None else _rival_kind(position, idea.card, home.kind),
                leaves=_left_meld(position, idea.card, table, None if home is None else home.kind),
            )
        )
    return ideas


@functools.lru_cache(maxsize=256)
def _stands_otherwise(position: Position, maximum: int, card: Card, jokers: int) -> bool | None:
    """`stands_otherwise`, asked once for each joker's card of a solution."""
    return stands_otherwise(position, maximum, card, jokers)


def stands_otherwise(
    position: Position,
    maximum: int,
    card: Card,
    jokers: int,
    time_limit: float = FORK_TIME_LIMIT,
    work_limit: float = FORK_WORK_LIMIT,
) -> bool | None:
    """Whether some play places `maximum` hand cards with fewer than `jokers` jokers in runs that
    can stand for `card`: True, and "the joker stands for `card`" is not true of every maximal
    play; False when proved that none does; None when the solve proved neither within its limits
    (the limits of `reaches_otherwise`).

    A joker at a run's end can stand for the card at either end (🃏 8♥ 9♥ reads 7♥ 8♥ 9♥ or 8♥ 9♥
    10♥): it counts for both, for the player may read it either way. The solver's runs are pieces of
    three to five cards joined, so a joker that ends a piece counts for both of its ends even where
    the piece is joined to another: the check is of the cards a joker's place allows."""
    model = Model(position, Objective.CARDS)
    model.add(model.cards >= maximum)
    standing = [
        model.model.get_int_var_from_proto_index(var)
        for var, piece, _ in model.pieces
        if card in _fills(piece, position.rules)
    ]
    model.add(sum(standing) <= jokers - 1)
    return model.solve(time_limit, work_limit=work_limit).status.exists


@functools.lru_cache(maxsize=4096)
def _fills(piece: Candidate, rules: Rules) -> frozenset[Card]:
    """The cards a run candidate's joker can stand for: the one card of its gap, or where it ends
    the run, the card at either end; none for a set or a candidate without a joker."""
    if not any(index == JOKER_INDEX for index, _ in piece) or meld_of(piece, rules).kind is not MeldKind.RUN:
        return frozenset()
    cards = tuple(
        Card.from_index(index) for index, copies in piece if index != JOKER_INDEX for _ in range(copies)
    )
    suit = cards[0].suit
    return frozenset(
        filler
        for rank in range(1, 14)
        if (filler := Card(rank, suit)) not in cards and meld_problem((*cards, filler), rules) is None
    )


def _stand_ins(melds: Sequence[Meld]) -> list[Card]:
    """The card each joker of these melds stands for, in order: in a run the one card of its place;
    in a set the first suit the set lacks (any would do: the others are alike to the search)."""
    return [min(options, key=lambda card: card.index) for meld in melds for options in meld.stand_ins()]


def _read_as(meld: Meld, standing: Iterator[Card]) -> Meld:
    """The meld with each joker read as the next card of `standing`."""
    if not meld.jokers:
        return meld
    return Meld(
        tuple(next(standing) if card.is_joker else card for card in meld.cards), meld.kind, meld.start
    )


def _placed(position: Position, table: tuple[Meld, ...], decision: Decision) -> KeyIdea | None:
    """The decision on the solution's table, or None when the solution ends its card otherwise, or
    the decision is neither a decline nor a fork (a free choice: another home wins as well)."""
    if decision.kind not in KEY_KINDS:
        return None
    card = decision.card
    ends = Counter(meld.kind for meld in table for copy in meld.cards if copy == card)
    kept = (
        position.hand.count(card)
        - sum(ends.values())
        + sum(meld.cards.count(card) for meld in position.table)
    )
    if (ends[MeldKind.SET], ends[MeldKind.RUN], kept) != (decision.sets, decision.runs, decision.kept):
        return None
    lying = Counter(meld.kind for meld in position.table for copy in meld.cards if copy == card)
    # the kind of meld that gains a copy names the home; a card that only stays back has none
    gained = [kind for kind in (MeldKind.SET, MeldKind.RUN) if ends[kind] > lying[kind]]
    kind = gained[0] if gained else None
    home = None if kind is None else next(meld for meld in table if card in meld.cards and meld.kind is kind)
    instead = _obvious_meld(position, card, home)
    if home is None and decision.kept == 0:
        # a table card that stays where the forced moves would leave it: no idea to say
        return None
    leaves = _left_meld(position, card, table, kind)
    # both copies are said where both move: both join melds of the kind, or one leaves the other
    copies = 1 if kind is None or (ends[kind] - lying[kind] < 2 and leaves is None) else ends[kind]
    return KeyIdea(
        "decline" if decision.kind == "decline" else "fork",
        card,
        None if home is None else home.cards,
        kind,
        None if instead is None else instead.cards,
        None if kind is None else _rival_kind(position, card, kind),
        copies,
        0 if home is None else decision.kept,
        leaves,
    )


def _rival_kind(position: Position, card: Card, kind: MeldKind) -> MeldKind | None:
    """The other kind of meld than `kind`, if some meld of the position's cards (table and hand
    together) of that kind could hold the card: the solver's candidate melds, which list them all."""
    other = MeldKind.RUN if kind is MeldKind.SET else MeldKind.SET
    allowed = allowed_by(position, False)
    for n in allowed.by_type.get(card.index, ()):
        if n >= allowed.candidates:
            continue
        if meld_of(cast(Candidate, allowed.every[n]), position.rules).kind is other:
            return other
    return None


def _left_meld(
    position: Position, card: Card, table: tuple[Meld, ...], kind: MeldKind | None
) -> tuple[Card, ...] | None:
    """A table meld of the other kind than `kind` that holds the card, where fewer copies end in
    that kind than lie in it now: a copy leaves it for the home."""
    if kind is None:
        return None
    other = MeldKind.RUN if kind is MeldKind.SET else MeldKind.SET
    ending = sum(meld.cards.count(card) for meld in table if meld.kind is other)
    lying = [meld for meld in position.table if meld.kind is other and card in meld.cards]
    if sum(meld.cards.count(card) for meld in lying) <= ending:
        return None
    return lying[0].cards


def _obvious_meld(position: Position, card: Card, home: Meld | None) -> Meld | None:
    """A table meld that a hand card fits as it lies and that does not end as the card's home,
    nor as a part of it: a home of the meld's kind that keeps some of its cards is where the card
    went onto it (4♠ in the joker's place of 3♠ 🃏 5♠ ... K♠, the run cut at 8♠), not elsewhere."""
    if card not in position.hand or card.is_joker:
        return None
    for meld in position.table:
        if meld_problem((*meld.cards, card), position.rules) is not None:
            continue
        if home is None:
            return meld
        shared = Counter(meld.cards) & Counter(home.cards)
        if Counter(meld.cards) - Counter(home.cards) and not (shared and meld.kind is home.kind):
            return meld
    return None


def mark_weak(ideas: Sequence[KeyIdea], weak: Iterable[Card]) -> tuple[KeyIdea, ...]:
    """The ideas with each fork judged: weak where its card is one of `weak` (`WeakForks.weak`, the
    cards a fork on which is weak), else real; a joker's fork is never weak. In the order the player
    reads them: the real forks (those that name a choice first), then the declines, then the weak
    forks, each group in the order it had. Pure: the caller has asked the solver already (the
    generator where its run judges the forks, `flask puzzles key-ideas` for stored puzzles)."""
    cards = set(weak)
    marked = [
        replace(idea, weak=not idea.card.is_joker and idea.card in cards) if idea.kind == "fork" else idea
        for idea in ideas
    ]

    def place(idea: KeyIdea) -> int:
        if idea.kind == "decline":
            return 2
        if idea.weak:
            return 3
        return 0 if idea.names_a_choice else 1

    return tuple(sorted(marked, key=place))


def key_card(ideas: Sequence[KeyIdea]) -> KeyIdea | None:
    """The idea whose card the hint ladder's first rung names: the first that names a choice
    (`KeyIdea.names_a_choice`: never a weak fork), forks before declines as `key_ideas` and
    `mark_weak` order them; None where none does (the rung then names the meld that must break)."""
    return next((idea for idea in ideas if idea.names_a_choice), None)


def the_key(ideas: Sequence[KeyIdea]) -> KeyIdea | None:
    """The idea the result card calls "The key": the first, where it is the hint ladder's key card
    (`key_card`) and a fork judged real (`KeyIdea.weak` False: a fork not judged is not called so,
    for it may be weak); None otherwise."""
    if not ideas or key_card(ideas) is not ideas[0]:
        return None
    return ideas[0] if ideas[0].kind == "fork" and ideas[0].weak is False else None


PLAY_IDEAS = 4
"""The most sentences `play_ideas` says: a puzzle's one idea, or a short chain, link by link."""


def shown_ideas(position: Position, steps: Sequence[Step], ideas: Sequence[KeyIdea]) -> tuple[Words, ...]:
    """What a finished puzzle's result card says of it: its key ideas, and where none of them is a
    fork that names a choice (most Easy and Medium puzzles have no fork, many no decision at all,
    and a decline says what not to do, not what to do), the play's own idea too: which melds break
    and where their cards go (`play_ideas`). A first idea that is the puzzle's key (`the_key`: a
    fork judged real) is said as such: "The key: 10♠ goes to 10♥ 10♦ 10♣ 10♠, not onto J♠ Q♠ K♠."."""
    said = tuple(idea.words() for idea in ideas)
    if the_key(ideas) is not None:
        said = (words("The key: %(idea)s", idea=said[0]), *said[1:])
    if any(idea.kind == "fork" and idea.names_a_choice for idea in ideas):
        return said
    # a few lines in all: the start of a long chain, after the declines, says how it goes
    return said + play_ideas(position, steps)[: max(PLAY_IDEAS - len(said), 1)]


def play_ideas(position: Position, steps: Sequence[Step]) -> tuple[Words, ...]:
    """The melds that the plan `steps` (`plan_steps`, to a maximal play) breaks, in its order, and
    what becomes of each, at most `PLAY_IDEAS` sentences: "8♠ leaves 8♠ 8♥ 8♦ 8♣ for 7♠ 8♠ 9♠
    10♠." (cards go to a meld of the other kind, or to another meld, while the rest stays), "3♣ ...
    10♣ splits into 3♣ 4♣ 5♣ 6♣ and 6♣ 7♣ 8♣ 9♣ 10♣." (a run cut in two), "K♥ K♦ K♣ breaks up
    into runs." (nothing of it stays together). True of the play shown; the solution they give
    away is shown beside them."""
    rules = position.rules
    final = apply_steps([meld.cards for meld in position.table], steps)
    said: list[Words] = []
    for broken in steps:
        if broken.kind is not StepKind.BREAK or broken.source is None:
            continue
        source = broken.source
        # where the meld's cards end: each step's target, and the meld itself for those that stay
        ends: dict[int, Counter[Card]] = {}
        left = Counter(position.table[source].cards)
        for step in steps:
            if step.kind is StepKind.MOVE and step.source == source and step.target is not None:
                ends.setdefault(step.target, Counter()).update(step.cards)
                left.subtract(step.cards)
            elif step.kind is StepKind.TAKE and step.source == source:
                left.subtract(step.cards)
        if +left:
            ends[source] = Counter(ends.get(source, Counter())) + (+left)
        found = {k: _final_meld(final[k], rules) for k in ends}
        homes = {k: home for k, home in found.items() if home is not None}
        if len(homes) < len(found):
            continue  # not a valid final table: no idea to say
        kind = position.table[source].kind
        stays = [k for k, cards in ends.items() if homes[k].kind is kind and cards.total() >= 2]
        said += _fate(position.table[source], ends, homes, stays)
    return tuple(said[:PLAY_IDEAS])


def _final_meld(cards: Sequence[Card], rules: Rules) -> Meld | None:
    try:
        return Meld.of(cards, rules)
    except MeldError:
        return None


def _fate(
    meld: Meld, ends: dict[int, Counter[Card]], homes: dict[int, Meld], stays: list[int]
) -> list[Words]:
    """What becomes of one broken meld, in one sentence."""
    if not stays:
        kinds = {homes[k].kind for k in ends}
        if kinds == {MeldKind.RUN}:
            return [words("%(meld)s breaks up into runs.", meld=meld.cards)]
        if kinds == {MeldKind.SET}:
            return [words("%(meld)s breaks up into sets.", meld=meld.cards)]
        return [words("%(meld)s breaks up into sets and runs.", meld=meld.cards)]
    leaving = [k for k in ends if k not in stays]
    if leaving and all(homes[k].kind is meld.kind is MeldKind.SET for k in leaving):
        return []  # a set of four lends a card to another set of its rank: the other cards say more
    if not leaving and len(stays) == 2:
        first, second = sorted((homes[k] for k in stays), key=lambda home: home.start)
        return [
            words(
                "%(meld)s splits into %(first)s and %(second)s.",
                meld=meld.cards,
                first=first.cards,
                second=second.cards,
            )
        ]
    if not leaving:
        return [words("%(meld)s breaks up into runs.", meld=meld.cards)]
    if len(leaving) > 1:
        gone = tuple(card for card in meld.cards if any(ends[k][card] for k in leaving))
        return [words("%(cards)s leave %(meld)s for other melds.", cards=gone, meld=meld.cards)]
    (k,) = leaving
    return [
        words_n(
            "%(cards)s leaves %(meld)s for %(home)s.",
            "%(cards)s leave %(meld)s for %(home)s.",
            ends[k].total(),
            cards=tuple(card for card in homes[k].cards if ends[k][card] > 0),
            meld=meld.cards,
            home=homes[k].cards,
        )
    ]
