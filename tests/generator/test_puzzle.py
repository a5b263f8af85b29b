"""Puzzle values: IDs, the canonical form, the JSON line and its validation."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from generator import Puzzle, PuzzleError, PuzzleId, verify
from generator._puzzle import canonical_form
from puzzles import Position, forcing_player, key_ideas, parse_cards


def line(puzzle: Puzzle, **changes: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(puzzle.to_json()))
    data.update(changes)
    return data


def _idea(**changes: object) -> dict[str, object]:
    """cl37's first key idea as its line writes it, changed."""
    idea: dict[str, object] = {
        "kind": "fork",
        "card": "8S",
        "home": ["8S", "9S", "10S", "JS", "QS"],
        "home_kind": "run",
        "instead": None,
    }
    return {**idea, **changes}


@pytest.mark.parametrize("text", ["cb0", "cm3", "gh0", "ixzz9", "tw1a2b3c", "c0a0", "j9z1a2b"])
def test_ids_round_trip(text: str) -> None:
    parsed = PuzzleId.parse(text)
    assert str(parsed) == text
    assert PuzzleId.parse(text.upper()) == parsed
    assert eval(repr(parsed), {"PuzzleId": PuzzleId}) == parsed


def test_id_parts() -> None:
    assert PuzzleId.parse("gm2s") == PuzzleId("german-jokers", "m", 2 * 36 + 28)
    # a digit opens a two-character method: no one-letter method starts with one
    assert PuzzleId.parse("g3m2s") == PuzzleId("german-jokers", "3m", 2 * 36 + 28)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "3 to 16 characters"),
        ("cb", "3 to 16 characters"),
        ("xb12", "unknown rules letter 'x'"),
        ("c112", "'11' is not a method"),
        ("c1", "3 to 16 characters"),
        ("c1a", "no seed after the method '1a'"),
        ("c-a1", "'-' is not a method"),
        ("cb1-2", "'1-2' is not base 36"),
        ("cb" + "1" * 20, "3 to 16 characters"),
    ],
)
def test_bad_ids_say_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(PuzzleError, match=problem):
        PuzzleId.parse(text)


def test_json_round_trip(master: Puzzle) -> None:
    data = master.to_json()
    assert list(data) == [
        "id", "rules", "table", "hand", "max_placed", "laid", "solution",
        "depth", "chain", "tier", "themes", "hand_size", "decoys", "live_decoys", "decisions", "forks",
        "key_ideas", "canonical",
    ]  # fmt: skip
    assert Puzzle.from_json(json.loads(json.dumps(data))) == master


def test_a_line_keeps_its_key_ideas_said_against_its_solution(master: Puzzle) -> None:
    assert master.key_ideas is not None
    # the line's free choice, 8♠ to a run, is not said (another play places as many with 8♠ elsewhere);
    # 9♠, which the forced moves leave open and every other end of which places fewer, is
    assert [str(idea.words()) for idea in master.key_ideas] == [
        "9♠ goes to the run 8♠ 9♠ 10♠ J♠ Q♠, not to a set.",
        "Keep J♣ back, though it fits J♠ J♥ J♦.",
    ]
    assert master.key_ideas == key_ideas(master.position(), [parse_cards(meld) for meld in master.solution])
    assert verify(master) == []
    # a line that says another key idea than its solution's is refuted
    swapped = replace(master, key_ideas=())
    assert any("key_ideas do not say" in problem for problem in verify(swapped))


def test_a_line_from_before_key_ideas_reads_without_them(master: Puzzle) -> None:
    data = master.to_json()
    del data["key_ideas"]
    assert Puzzle.from_json(data).key_ideas is None
    assert "key_ideas" not in replace(master, key_ideas=None).to_json()


def test_a_line_whose_counts_are_not_proved_carries_the_bounds_the_tier_read(master: Puzzle) -> None:
    bounded = replace(master, decisions=None, decisions_at_least=2, forks=None, forks_at_least=0)
    data = bounded.to_json()
    assert (data["decisions"], data["decisions_at_least"], data["forks"], data["forks_at_least"]) == (
        None,
        2,
        None,
        0,
    )
    assert Puzzle.from_json(json.loads(json.dumps(data))) == bounded


def test_a_line_from_before_forks_reads_without_them(master: Puzzle) -> None:
    data = master.to_json()
    del data["forks"]
    # written then, its tier was its chain length's and its decisions'
    data["tier"] = "expert"
    assert Puzzle.from_json(data).forks is None


def test_a_line_from_before_decisions_reads_without_them(master: Puzzle) -> None:
    data = master.to_json()
    del data["decisions"]
    assert Puzzle.from_json(data).decisions is None


def test_decisions_must_be_a_count(master: Puzzle) -> None:
    with pytest.raises(PuzzleError, match="decisions must be a whole number"):
        Puzzle.from_json({**master.to_json(), "decisions": "three"})


def test_a_line_of_an_older_file_still_reads(master: Puzzle) -> None:
    data = master.to_json()
    older = {
        "max_played" if name == "max_placed" else "played" if name == "laid" else name: value
        for name, value in data.items()
    }
    assert "max_placed" not in older and older["played"] == data["laid"]
    assert Puzzle.from_json(older) == master


def test_canonical_form_ignores_the_order_of_melds_and_hand(master: Puzzle) -> None:
    shuffled = line(
        master,
        table=[list(reversed(meld)) for meld in reversed(master.table)],
        hand=list(reversed(master.hand)),
        canonical=None,
    )
    del shuffled["canonical"]
    again = Puzzle.from_json(shuffled)
    assert again.canonical == master.canonical
    assert Position.parse(master.canonical).table_counts() == master.position().table_counts()


def test_canonical_form_tells_different_tables_apart(master: Puzzle) -> None:
    # the same cards, laid as one run less and two runs more, are another puzzle
    other = Position.build(master.rules, [["2H", "3H", "4H"], ["5H", "6H", "7H", "8H"]], ["2H"])
    same_cards = Position.build(master.rules, [["2H", "3H", "4H", "5H", "6H", "7H", "8H"]], ["2H"])
    assert canonical_form(other) != canonical_form(same_cards)
    assert canonical_form(master.position()) == master.canonical


def test_counts_of_a_puzzle(master: Puzzle) -> None:
    assert master.hand_size == len(master.hand) == 7
    assert master.decoys == master.live_decoys == 1
    assert master.max_placed == len(master.laid) == 6
    assert set(master.laid) <= set(master.hand)
    assert master.chain <= master.depth
    assert "sets-to-runs" in master.themes


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"id": 7}, "id must be a string"),
        ({"id": "zz1"}, "unknown rules letter 'z'"),
        ({"id": "im2"}, "is a italian puzzle, not classic"),
        ({"rules": "poker"}, "unknown preset 'poker'"),
        ({"hand": ["4S", "9S", "JS", "6X"]}, "hand: '6X' is not a card"),
        ({"hand": "4S 9S JS"}, "hand must be a list of card tokens"),
        ({"table": [["AS", "2H", "3D"]]}, "table meld 1"),
        ({"solution": [["JS"]]}, "solution: only 1 card"),
        ({"laid": ["2S", "6S"]}, "the solution places 2S 6S 8S 10H KD 4C, not 2S 6S"),
        ({"max_placed": 2}, "max_placed is 2, but the puzzle gives 6"),
        ({"max_placed": True}, "max_placed must be a whole number"),
        ({"depth": -1}, "depth must be a whole number"),
        ({"chain": 2}, "tier 'hard' does not match chain 2 and 2 decisions with 0 forks \\(medium\\)"),
        (
            {"decisions": 3, "forks": 2},
            "tier 'hard' does not match chain 6 and 3 decisions with 2 forks \\(master\\)",
        ),
        ({"decisions": None, "tier": "medium"}, "tier 'medium' does not match chain 6 \\(master\\)"),
        ({"forks": 1}, "tier 'hard' does not match chain 6 and 2 decisions with 1 forks \\(expert\\)"),
        ({"forks": 3}, "forks is 3, more than the 2 decisions"),
        ({"forks": -1}, "forks must be a whole number"),
        ({"decisions_at_least": 1}, "decisions_at_least: a line with a proved count"),
        ({"forks_at_least": 1}, "forks_at_least: a line with a proved count"),
        (
            {"decisions": None, "decisions_at_least": 3, "forks": None, "forks_at_least": 2},
            "tier 'hard' does not match chain 6 and 3 decisions with 2 forks \\(master\\)",
        ),
        ({"chain": 0, "tier": "easy"}, "chain 0"),
        ({"chain": 6, "depth": 5}, "chain 6 is more than depth 5"),
        ({"themes": ["ladder", "poker-face"]}, "unknown theme 'poker-face'"),
        ({"themes": "ladder"}, "themes must be a list"),
        ({"live_decoys": 2}, "live_decoys is 2, but there are 1 decoys"),
        ({"hand_size": 5}, "hand_size is 5, but the puzzle gives 7"),
        ({"decoys": 3}, "decoys is 3, but the puzzle gives 1"),
        ({"canonical": "classic | 3S 4S 5S | 6S"}, "canonical .* does not match"),
        ({"colour": "red"}, "unknown field 'colour'"),
        ({"key_ideas": "fork"}, "key_ideas: key ideas must be a list"),
        ({"key_ideas": [{"kind": "fork"}]}, "key_ideas: a key idea lacks 'card'"),
        ({"key_ideas": [_idea(kind="trap")]}, "kind is 'decline' or 'fork', not 'trap'"),
        ({"key_ideas": [_idea(card="8X")]}, "key_ideas: a key idea's card: '8X' is not a card"),
        ({"key_ideas": [_idea(card="KC")]}, "home does not hold its card KC"),
        ({"key_ideas": [_idea(home_kind=None)]}, "a home and its kind, or neither"),
        ({"key_ideas": [_idea(home=["8S", "9S", "10S"])]}, "8S's home is no meld of the solution"),
        ({"key_ideas": [_idea(instead=["JS", "JH", "JC"])]}, "fit a meld the table does not hold"),
        ({"key_ideas": [_idea(card="KS", home=None, home_kind=None)]}, "KS is neither in the hand nor"),
        ({"key_ideas": [{**_idea(), "why": "x"}]}, "unknown field 'why'"),
    ],
)
def test_from_json_names_the_problem(master: Puzzle, changes: dict[str, Any], problem: str) -> None:
    with pytest.raises(PuzzleError, match=problem):
        Puzzle.from_json(line(master, **changes))


def test_from_json_needs_an_object_with_every_field(master: Puzzle) -> None:
    with pytest.raises(PuzzleError, match="must be a JSON object"):
        Puzzle.from_json([master.to_json()])
    data = line(master)
    del data["depth"]
    with pytest.raises(PuzzleError, match="missing field 'depth'"):
        Puzzle.from_json(data)


def test_a_solution_that_drops_a_table_card_is_refused(master: Puzzle) -> None:
    solution = [list(meld) for meld in master.solution]
    assert solution[0] == ["AS", "AH", "AD"]
    solution[0] = ["AS", "AH", "AD", "AC"]
    with pytest.raises(PuzzleError, match="A♣ is not in the hand"):
        Puzzle.from_json(line(master, solution=solution))
    solution = [meld for meld in master.solution if meld != ("AS", "AH", "AD")]
    with pytest.raises(PuzzleError, match="A♠ left the table"):
        Puzzle.from_json(line(master, solution=[list(meld) for meld in solution]))


def test_the_engine_reads_past_every_field_of_a_generator_line() -> None:
    from generator._puzzle import FIELDS
    from puzzles._position import ACCEPTED_FIELDS

    assert set(FIELDS) <= ACCEPTED_FIELDS


@pytest.mark.parametrize("tier", ["hard", "expert", "master"])
def test_a_line_without_a_count_of_decisions_may_have_any_tier_its_chain_allows(
    master: Puzzle, tier: str
) -> None:
    # jokers, or a count the forcing player only bounded: the tier read a count the line lacks
    line = {**master.to_json(), "decisions": None, "tier": tier}
    assert Puzzle.from_json(line).tier == tier


def test_a_generated_line_counts_the_forcing_players_decisions(master: Puzzle) -> None:
    assert master.decisions is not None
    found = forcing_player(master.position(), master.max_placed)
    assert master.decisions == found.decisions
    assert master.forks == found.forks is not None and master.forks <= master.decisions
    # cl37's one decision not a decline, 8♠ to a run, is a free choice since issue 38: another
    # maximal play ends 8♠ otherwise; it was Expert by its fork, and is Hard
    assert [d.kind for d in found.line] == ["decline", "choice"]
    assert (master.forks, master.tier) == (0, "hard")
