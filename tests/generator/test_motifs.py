"""Chains that mix sets and runs (issue 21): each trick's worked example in docs/RULES.md, solved
and graded, and the shapes `sample_chain` lays."""

from __future__ import annotations

import random

import pytest

from generator import Puzzle, motif_of, puzzle_from_id, puzzle_of
from generator._make import _obvious, recipe_for
from generator._methods import CHAINS, METHODS, RECIPES, SEARCH_EXPERT_BASES, SEARCH_MASTER_BASES, TRAPPING
from generator._motifs import MOTIF_KINDS, sample_chain
from generator._shapes import is_figure, mixes
from generator._tables import rank_of, suit_of, supply, to_meld
from puzzles import JOKER, MeldKind, Position, Rules, parse_cards, step_check

# the worked examples of docs/RULES.md ("Chains that mix sets and runs"), as the chain methods made them
SWAP = (
    "classic | 2S 2D 2C / 5H 5D 5C / 8S 8H 8D / JS JD JC / 3S 4S 5S / 9H 10H JH / 6C 7C 8C | "
    "9S 10S QS KS 2H QH 9C"
)
CYCLE = (
    "classic | 4S 4D 4C / 7S 7H 7C / 10H 10D 10C / KS KH KD / 10S JS QS / 4H 5H 6H / 7D 8D 9D | "
    "KS 3H JH QH 6D JD QD 2C 3C 5C 6C"
)
SPLIT = (
    "classic | 4S 4H 4C / 7S 7D 7C / 10H 10D 10C / 8S 9S 10S JS QS KS / 5H 6H 7H / AD 2D 3D 4D | "
    "8H 5D 5D 8C 9C JC QC"
)
END = (
    "classic | 4S 4H 4C / 7S 7D 7C / 10H 10D 10C / 10S JS QS KS / 7H 8H 9H / 4D 5D 6D | 2S 3S 5S 6S 9S 3D 3D"
)
BRIDGE = "classic | 7S 7H 7C / 10S 10H 10D / AD 2D 3D / 5D 6D 7D / 8C 9C 10C | 8S 9S JS QS AH 4D 5D 8D AC"
# the methods of issue 21's second round: a swap at Master size (2a), a set of four at the end (2b, 2c)
MASTER_SWAP = (
    "classic | 2H 2D 2C / 5S 5H 5C / 8S 8H 8D / JH JD JC / 9S 10S JS / 3D 4D 5D / 6C 7C 8C | "
    "2S QS 6D 9D 10D QD KD 4C 4C 9C"
)
MASTER_FOUR = (
    "classic | 4H 4D 4C / 7S 7D 7C / 10S 10H 10C / KS KH KD KC / 4S 5S 6S / 7H 8H 9H / 10D JD QD | "
    "3S 3S 8S 6H 2D 3D 5D 6D 9D"
)
FOUR = (
    "classic | AS AH AC / AH AD AC / 2H 2D 2C / 4S 4H 4D 4C / 7S 7H 7D / 10S 10H 10C / 8D 9D 10D / "
    "5C 6C 7C | AS 8H 9H JH QH JD JD 8C"
)


@pytest.mark.parametrize(
    ("name", "text", "tier", "chain", "decisions", "forks", "motif"),
    [
        # made as Expert and Master: their decisions are declines, so with issue 38 they are Hard
        ("cy1", SWAP, "hard", 7, 2, 0, "swap"),
        ("cz1", CYCLE, "hard", 6, 3, 0, "runs-to-sets"),
        ("cy2", SPLIT, "hard", 6, 2, 0, "split-run"),
        ("cy3", END, "hard", 6, 2, 0, "end-card"),
        ("cy4", BRIDGE, "expert", 5, 2, 1, "bridge"),
        ("c2at", MASTER_SWAP, "hard", 7, 3, 0, "swap"),
        ("c2bd", MASTER_FOUR, "hard", 7, 3, 0, "set-of-four"),
        ("c2c5", FOUR, "hard", 5, 2, 0, "set-of-four"),
    ],
)
def test_each_chain_example_is_graded_as_the_docs_say_and_mixes(
    name: str, text: str, tier: str, chain: int, decisions: int, forks: int, motif: str
) -> None:
    puzzle = puzzle_of(name, Position.parse(text), time_limit=60)
    assert (puzzle.tier, puzzle.chain, puzzle.decisions, puzzle.forks) == (tier, chain, decisions, forks)
    # a chain is named by how it ends: every link passes a card on, and none goes round a circle
    assert motif_of(puzzle.themes) == motif
    assert "pass-on" in puzzle.themes and "cycle" not in puzzle.themes
    # the best play breaks a set and a run, and the table is no block of sets or parallel runs
    assert mixes(puzzle.position(), puzzle.solution)
    assert not is_figure(puzzle.position().table)


def test_the_bridge_joins_two_runs_that_then_give_both_end_cards() -> None:
    puzzle = puzzle_of("cy4", Position.parse(BRIDGE), time_limit=60)
    assert puzzle.laid == ("8S", "9S", "JS", "QS", "AH", "4D", "AC")
    solution = [tuple(meld) for meld in puzzle.solution]
    # 4D joins A-3 and 5-7 of diamonds; AD goes to the hand's aces, 7D to the sevens
    assert ("2D", "3D", "4D", "5D", "6D") in solution
    assert {("AH", "AD", "AC"), ("7S", "7H", "7D")} <= set(solution)


def test_the_traps_are_the_obvious_moves_that_lose() -> None:
    # 8H lengthens 5H 6H 7H at the end the chain takes, 5D lengthens AD-4D at the end it takes
    puzzle = puzzle_of("cy2", Position.parse(SPLIT), time_limit=60)
    position = puzzle.position()
    assert {"8H", "5D"}.isdisjoint(puzzle.laid)
    for card in parse_cards("8H 5D"):
        assert _obvious(card, position)
        check = step_check(position, [card], time_limit=60)
        assert check.reachable is not None and check.reachable < puzzle.max_placed


@pytest.mark.parametrize("kind", MOTIF_KINDS)
def test_sample_chain_lays_sets_and_runs_with_the_hand_around_a_set_card(kind: str) -> None:
    rules = Rules.named("classic")
    # a bridge lays two runs at its end: four melds before it fill the ranks
    length = 4 if kind == "bridge" else 6
    figures = [sample_chain(rules, random.Random(seed), supply(rules), length, 0, kind) for seed in range(20)]
    found = [figure for figure in figures if figure is not None]
    assert len(found) >= 10
    for figure in found:
        melds = [to_meld(meld, rules) for meld in figure.melds]
        kinds = {meld.kind for meld in melds}
        assert kinds == {MeldKind.SET, MeldKind.RUN}
        assert not is_figure(melds)
        # the hand opens with two pairs of a suit around a card of a set of three
        sets = {
            (rank_of(i), suit_of(i))
            for meld in figure.melds
            if len({rank_of(i) for i in meld}) == 1
            for i in meld
        }
        hand = {(rank_of(i), suit_of(i)) for i in figure.extras}
        assert any(
            {(rank + d, suit) for d in (-2, -1, 1, 2)} <= hand
            or {(rank - d, suit) for d in (-2, -1, 1, 2)} <= hand
            for rank, suit in sets
        )


def test_the_chain_letters_start_the_searches() -> None:
    assert set(CHAINS) >= {"swap", "cycle", "split", "end", "bridge", "four", "master-swap", "long-four"}
    assert {"y", "z", "2a", "2b", "2c"} <= set(METHODS) and {"y", "z", "2a", "2b", "2c"} <= TRAPPING
    # their traps are declines, so Expert and Master search from them (generator._search)
    assert set(RECIPES["expert"]) == {"6e", "2e", "8e"} and RECIPES["master"] == ("5t",)
    assert len(SEARCH_EXPERT_BASES) == len(set(SEARCH_EXPERT_BASES)) >= 3
    assert len(SEARCH_MASTER_BASES) == len(set(SEARCH_MASTER_BASES)) >= 3


def test_the_master_set_of_four_gives_the_chains_last_card_and_keeps_three() -> None:
    puzzle = puzzle_of("c2bd", Position.parse(MASTER_FOUR), time_limit=60)
    assert puzzle.laid == ("8S", "2D", "3D", "5D", "6D")
    solution = {tuple(meld) for meld in puzzle.solution}
    # K♦ goes to J♦ Q♦, which gave 10♦ to the tens; K♠ K♥ K♣ stay a set
    assert {("KS", "KH", "KC"), ("JD", "QD", "KD"), ("10S", "10D", "10C")} <= solution
    # 3♠, 6♥ and 9♦ each lengthen a run of the chain at the end it gives: the three traps
    position = puzzle.position()
    for card in parse_cards("3S 6H 9D"):
        assert _obvious(card, position)
        check = step_check(position, [card], time_limit=60)
        assert check.reachable is not None and check.reachable < puzzle.max_placed


def test_a_set_of_four_ends_a_chain_that_needs_no_hand_card_to_end() -> None:
    rules = Rules.named("classic")
    figures = [sample_chain(rules, random.Random(seed), supply(rules), 5, 0, "four") for seed in range(20)]
    found = [figure for figure in figures if figure is not None]
    assert len(found) >= 10
    for figure in found:
        sets = [meld for meld in figure.melds if len({rank_of(i) for i in meld}) == 1]
        # one set of four, and an odd number of melds: the chain ends at a set
        assert sum(len(meld) == 4 for meld in sets) == 1
        assert len(figure.melds) % 2 == 1


# issue 38: Hard and Medium from short chains beside a mid-game table (methods 8h and 8m), as these
# IDs make them; docs/RULES.md ("Short chains for Hard and Medium") walks through each
HARD_SPLIT = (
    "classic | 5S 5H 5C / 8S 8H 8D / KS KH KD / 2D 3D 4D 5D 6D 7D 8D / 6C 7C 8C 9C 10C JC | "
    "6S 7S 9S 10S KS 7C KC"
)
HARD_FOUR = "classic | 4S 4H 4C / 7S 7D 7C / 10S 10H 10D 10C / 7H 8H 9H / 4D 5D 6D | 6H 3D 3D 2C 3C 5C 6C"
MEDIUM_MIDDLE = (
    "classic | 4S 4D 4C / 10S 10H 10D / 10H 10D 10C / AH 2H 3H 4H 5H 6H 7H / JD QD KD | 2S 3S 5S 6S 10S 3H 9H"
)


@pytest.mark.parametrize(
    ("name", "text", "tier", "chain", "decisions", "forks", "motif", "laid"),
    [
        ("c8h1vf9h", HARD_SPLIT, "hard", 4, 1, 1, "split-run", "6S 7S 9S 10S KC"),
        ("c8h1vfae", HARD_FOUR, "hard", 5, 2, 0, "set-of-four", "2C 3C 5C 6C"),
        ("c8m1vf9r", MEDIUM_MIDDLE, "medium", 2, 1, 1, "split-run", "2S 3S 5S 6S 10S"),
    ],
)
def test_the_short_chains_of_hard_and_medium_mix_sets_and_runs_as_the_docs_say(
    name: str, text: str, tier: str, chain: int, decisions: int, forks: int, motif: str, laid: str
) -> None:
    puzzle = a_twist(name, text, tier, chain, motif)
    assert (puzzle.decisions, puzzle.forks) == (decisions, forks)
    assert puzzle.laid == tuple(laid.split())


def a_twist(name: str, text: str, tier: str, chain: int, motif: str) -> Puzzle:
    """The puzzle of a twist's ID, checked as every twist must be: of its tier and chain, its ID
    replaying the position (the methods' draws stand once published), of its motif and no end
    card, with a live decoy, its best play breaking a set and a run, its table no figure."""
    puzzle = puzzle_of(name, Position.parse(text), time_limit=60)
    assert (puzzle.tier, puzzle.chain) == (tier, chain)
    assert str(puzzle_from_id(name).position()) == text
    assert motif_of(puzzle.themes) == motif and "end-card" not in puzzle.themes
    assert puzzle.live_decoys >= 1
    assert mixes(puzzle.position(), puzzle.solution)
    assert not is_figure(puzzle.position().table)
    return puzzle


def test_the_medium_split_run_frees_the_middle_card_and_the_decoy_competes_for_it() -> None:
    puzzle = puzzle_of("c8m1vf9r", Position.parse(MEDIUM_MIDDLE), time_limit=60)
    solution = {tuple(meld) for meld in puzzle.solution}
    # 4♥ leaves the middle of A♥ … 7♥ for the fours, which give 4♠ to 2♠ 3♠ 5♠ 6♠
    split = {("AH", "2H", "3H"), ("5H", "6H", "7H")}
    assert split | {("4H", "4D", "4C"), ("2S", "3S", "4S", "5S", "6S")} <= solution
    # the second 3♥ fits A♥ 2♥ 3♥ / 3♥ … 7♥, which keeps 4♥ in a run: a play placing it places fewer
    check = step_check(puzzle.position(), parse_cards("3H"), time_limit=60)
    assert check.reachable is not None and check.reachable < puzzle.max_placed
    # 9♥ fits nowhere
    assert step_check(puzzle.position(), parse_cards("9H"), time_limit=60).reachable is None


def test_a_middle_chain_of_two_lays_a_set_and_a_run_of_seven_that_gives_it_the_suit_it_lacks() -> None:
    rules = Rules.named("classic")
    figures = [sample_chain(rules, random.Random(seed), supply(rules), 2, 0, "middle") for seed in range(20)]
    found = [figure for figure in figures if figure is not None]
    assert len(found) >= 10
    for figure in found:
        melds = [to_meld(meld, rules) for meld in figure.melds]
        assert sorted((meld.kind.value, len(meld.cards)) for meld in melds) == sorted(
            [(MeldKind.SET.value, 3), (MeldKind.RUN.value, 7)]
        )
        run = next(meld for meld in melds if meld.kind is MeldKind.RUN)
        chosen = next(meld for meld in melds if meld.kind is MeldKind.SET)
        middle = run.cards[3]
        assert middle.rank == chosen.start and middle.suit not in {card.suit for card in chosen.cards}


def test_the_hard_and_medium_twists_are_no_figure_and_under_jokers_are_the_old_letters() -> None:
    classic, jokers = Rules.named("classic"), Rules.named("jokers")
    tables = [position.table for position in made_by("8h", classic)]
    assert not any(is_figure(table) for table in tables)
    assert any(len({meld.kind for meld in table}) == 2 for table in tables)
    # a hand joker would fill a chain's gap: under joker rules the letters are q and n
    for letter, old in (("8h", "q"), ("8m", "n")):
        for seed in range(10):
            assert METHODS[letter](jokers, random.Random(seed)) == METHODS[old](jokers, random.Random(seed))


def made_by(letter: str, rules: Rules) -> list[Position]:
    """The positions the letter's method makes on seeds 0 to 59: at least 15 (it gives up a try
    now and then)."""
    made = [METHODS[letter](rules, random.Random(seed)) for seed in range(60)]
    positions = [candidate.position for candidate in made if candidate is not None]
    assert len(positions) >= 15
    return positions


def test_the_twists_take_turns_at_hard_and_medium() -> None:
    assert RECIPES["hard"].count("8h") * 2 == len(RECIPES["hard"])
    assert RECIPES["medium"].count("8m") * 3 == len(RECIPES["medium"]) - 1
    # rivals take an end card: one turn in 25, so that at most half of Medium takes one
    assert RECIPES["medium"].count("0b") == 1


# issue 38 item 5: under rules with jokers, Hard's and Medium's twists with no joker in the hand
# (methods 1h and 1d), where 8h and 8m are q and n; these IDs make them
JOKER_HARD_SPLIT = (
    "german-jokers | 2S 2D 2C / 2S 2H 2C / 7S 7H 7C / 10S 10H 10D / 4D 5D 6D 7D 8D 9D / "
    "7C 8C 9C 10C JC QC KC | 7S 2H 5H 6H 8H 9H"
)
JOKER_HARD_FOUR = (
    "german-jokers | AS AD AC / 3S 3D JK / 4S 4H 4C / 7S 7H 7D 7C / 10S 10H 10D / AH 2H JK 4H / "
    "8C 9C 10C | AS 10H 4D 8D 9D JD QD JC JC"
)
JOKER_MEDIUM_MIDDLE = (
    "jokers | AH AD AC / 6S 6H 6C / JH JD JC / QS QH QD / QH KH AH / 3D 4D 5D 6D 7D 8D 9D / QD KD AD | "
    "6S 7D 4C 5C 7C 8C QC"
)


@pytest.mark.parametrize(
    ("name", "text", "tier", "chain", "motif"),
    [
        ("g1h4dbmc", JOKER_HARD_SPLIT, "hard", 4, "split-run"),
        ("g1h4dbmz", JOKER_HARD_FOUR, "hard", 3, "set-of-four"),
        ("j1d4dblv", JOKER_MEDIUM_MIDDLE, "medium", 2, "split-run"),
    ],
)
def test_the_twists_under_joker_rules_mix_sets_and_runs_beside_the_tables_jokers(
    name: str, text: str, tier: str, chain: int, motif: str
) -> None:
    a_twist(name, text, tier, chain, motif)


def test_the_split_run_under_german_jokers_gives_the_tens_a_club_and_the_sevens_a_diamond() -> None:
    puzzle = puzzle_of("g1h4dbmc", Position.parse(JOKER_HARD_SPLIT), time_limit=60)
    solution = {tuple(meld) for meld in puzzle.solution}
    # 7♥ leaves the sevens for 5♥ … 9♥; 7♦ leaves the middle of 4♦ … 9♦ for them, and 10♦ goes
    # on to 8♦ 9♦, so the tens take 10♣ from the middle of 7♣ … K♣
    assert {("5H", "6H", "7H", "8H", "9H"), ("7S", "7D", "7C"), ("8D", "9D", "10D")} <= solution
    assert {("10S", "10H", "10C"), ("7C", "8C", "9C"), ("JC", "QC", "KC")} <= solution
    assert (puzzle.decisions, puzzle.forks) == (1, 1)
    # the second 7♠ makes a second set of sevens with 7♦ and 7♣, and the hearts get no seven
    assert puzzle.max_placed == 5
    assert step_check(puzzle.position(), parse_cards("7S"), time_limit=60).reachable == 4


def test_the_twists_under_joker_rules_give_the_hand_no_joker_and_leave_the_tables_jokers() -> None:
    rules = Rules.named("german-jokers")
    for letter in ("1h", "1d"):
        positions = made_by(letter, rules)
        assert not any(JOKER in position.hand for position in positions)
        assert any(meld.jokers for position in positions for meld in position.table)
        assert any(len({meld.kind for meld in position.table}) == 2 for position in positions)
        if letter == "1h":
            assert not any(is_figure(position.table) for position in positions)


@pytest.mark.parametrize("rules", ["jokers", "german-jokers"])
def test_under_joker_rules_the_joker_free_twists_take_the_twists_turns(rules: str) -> None:
    for tier, twist, joker_free in (("hard", "8h", "1h"), ("medium", "8m", "1d")):
        assert recipe_for(tier, rules) == tuple(joker_free if m == twist else m for m in RECIPES[tier])
    assert recipe_for("hard", "classic") == RECIPES["hard"]


def test_under_joker_rules_experts_come_from_the_twists_with_a_joker_on_the_table() -> None:
    """3k lays Hard's twists with the table's jokers left on it, then changes a hand joker for a
    table card, so that the position holds a joker and the hand none that fills a twist's gap."""
    assert recipe_for("expert", "german-jokers") == recipe_for("expert", "jokers") == ("3k", "3k", "7e")
    positions = made_by("3k", Rules.named("german-jokers"))
    assert not any(JOKER in position.hand for position in positions)
    # the swap finds no table card to stand in for now and then
    assert sum(any(meld.jokers for meld in position.table) for position in positions) >= len(positions) - 2
    assert not any(is_figure(position.table) for position in positions)


GERMAN_JOKERS_EXPERT = (
    "german-jokers | 7S 7H 7C / 10S 10H 10D / AD 2D 3D / 5D 6D 7D / 8C 9C 10C | "
    "8S 9S 10S JS QS AH 3H 4D 10D AC JK"
)


def test_a_german_jokers_expert_from_a_twist_replays_and_forks() -> None:
    """The search may give the hand a joker back (`generator._search.JOKER_CHANGES`) where it keeps
    the position an Expert: here it stands for 10♠ in 8♠ 9♠ 🃏 J♠ Q♠, and 10♠ goes to the tens."""
    puzzle = puzzle_of("g3k4dblv", Position.parse(GERMAN_JOKERS_EXPERT), time_limit=60)
    assert str(puzzle_from_id("g3k4dblv").position()) == GERMAN_JOKERS_EXPERT
    assert (puzzle.tier, puzzle.chain, puzzle.decisions, puzzle.forks) == ("expert", 4, 3, 2)
    assert ("8S", "9S", "JK", "JS", "QS") in puzzle.solution and ("10S", "10D", "10C") in puzzle.solution
    assert mixes(puzzle.position(), puzzle.solution)
