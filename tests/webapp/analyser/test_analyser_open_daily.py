"""The spoiler guard: the analyser never answers a daily puzzle that is still open for a caller who has
not finished it, nor the caller's own unfinished archive and practice attempts, under any preset,
spelling or rearrangement of the melds (each way round it found once has its test here)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient

import generator
from tests.webapp.conftest import TODAY, Player, store
from webapp import models
from webapp.db import database


def query(puzzle: generator.Puzzle) -> dict[str, Any]:
    return {
        "rules": puzzle.rules,
        "table": " / ".join(" ".join(meld) for meld in puzzle.table),
        "hand": " ".join(puzzle.hand),
    }


def test_the_api_refuses_todays_puzzle(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle
) -> None:
    body = json.dumps(known_puzzle.position().to_json())
    refused = client.post("/api/solve", data=body, content_type="application/json")
    assert refused.status_code == 403
    assert f"daily puzzle #{TODAY}, still open" in refused.get_data(as_text=True)
    assert "solution" not in refused.get_json() and "table" not in refused.get_json()


@pytest.mark.parametrize(
    "change",
    [
        "a decoy dropped from the hand",
        "a hand card added",
        "a meld added to the table",
        "melds reordered",
        "a table meld moved into the hand",
    ],
)
def test_the_api_refuses_todays_table_with_any_hand_or_more_melds(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle, change: str
) -> None:
    table = [list(meld) for meld in known_puzzle.table]
    hand = list(known_puzzle.hand)
    if change == "a decoy dropped from the hand":
        hand.remove(next(card for card in hand if card not in known_puzzle.laid))
    elif change == "a hand card added":
        hand.append("2C")
    elif change == "a meld added to the table":
        table.append(["KS", "KH", "KD"])
    elif change == "a table meld moved into the hand":
        hand += table.pop()
    else:
        table.reverse()
    body = json.dumps({"rules": known_puzzle.rules, "table": table, "hand": hand})
    refused = client.post("/api/solve", data=body, content_type="application/json")
    assert refused.status_code == 403, refused.get_data(as_text=True)


def solve(client: FlaskClient, rules: str, table: list[list[str]], hand: list[str]) -> Any:
    body = json.dumps({"rules": rules, "table": table, "hand": hand})
    return client.post("/api/solve", data=body, content_type="application/json")


def test_the_api_answers_a_table_with_less_than_most_of_todays(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle
) -> None:
    # 7 of the 13 table cards: not most of them (60%)
    table = [list(meld) for meld in known_puzzle.table[2:]]
    assert solve(client, known_puzzle.rules, table, list(known_puzzle.hand)).status_code == 200


@pytest.mark.parametrize(
    "near_copy",
    [
        "a placed hand card left out",
        "every hand card but the decoy left out",
        "every hand card but one placed card left out",
        "a card added to the table",
        "a meld split, a card of it in the hand",
        "a run split in two",
    ],
)
def test_the_api_refuses_near_copies_of_todays_puzzle(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle, near_copy: str
) -> None:
    # the hole found: today's position with 9S left out was answered with 8 of the solution's 9 melds
    table, hand = [list(meld) for meld in known_puzzle.table], list(known_puzzle.hand)
    if near_copy == "a placed hand card left out":
        hand.remove("9S")
    elif near_copy == "every hand card but the decoy left out":
        hand = ["2D"]
    elif near_copy == "every hand card but one placed card left out":
        hand = ["KH"]
    elif near_copy == "a card added to the table":
        table[-1] = [*table[-1], "8C"]
        hand.remove("8C")
    elif near_copy == "a meld split, a card of it in the hand":
        assert table[-1] == ["4C", "5C", "6C", "7C"]
        table[-1] = ["4C", "5C", "6C"]
        hand.append("7C")
    else:
        table[-1] = [*table[-1], "8C", "9C", "10C"]
        table += [table.pop()[:3], ["7C", "8C", "9C", "10C"]]
        hand.remove("8C")
        hand.append("9C")
    refused = solve(client, known_puzzle.rules, table, hand)
    assert refused.status_code == 403, (near_copy, refused.get_data(as_text=True))


@pytest.mark.parametrize("kept_on_the_table", [0, 1, 2])
def test_the_api_refuses_todays_table_carried_into_the_hand(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle, kept_on_the_table: int
) -> None:
    # the hole found: every table card moved into the hand left no table to recognise, and the answer
    # laid out the whole table and hand, which is the solution whenever the puzzle places every card
    table = [list(meld) for meld in known_puzzle.table]
    hand = list(known_puzzle.hand) + [card for meld in table[kept_on_the_table:] for card in meld]
    refused = solve(client, known_puzzle.rules, table[:kept_on_the_table], hand)
    assert refused.status_code == 403, refused.get_data(as_text=True)


def test_which_near_copies_are_refused_tells_nothing_of_the_solution(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle
) -> None:
    # the guard used to ask for every card the maximal play places: leaving each hand card out in
    # turn told the placed ones (answered) from the decoy (refused). Now each is refused alike
    table = [list(meld) for meld in known_puzzle.table]
    statuses = {
        card: solve(
            client, known_puzzle.rules, table, [other for other in known_puzzle.hand if other != card]
        ).status_code
        for card in known_puzzle.hand
    }
    assert set(statuses.values()) == {403}, statuses
    # and a hand with none of the puzzle's cards is answered: nothing of the puzzle to give away
    assert solve(client, known_puzzle.rules, table, ["AS", "AH"]).status_code == 200


def test_the_play_view_validates_the_whole_request_before_the_guard(
    player: Player, published: int, known_puzzle: generator.Puzzle
) -> None:
    # the oracle found: `moves=zz-zz` was a 403 for a guarded position and a 400 for any other
    guarded = query(known_puzzle)
    unguarded = {**guarded, "hand": "AS AH"}
    for args in (guarded, unguarded):
        bad = player.client.get("/analyse/play", query_string={**args, "moves": "zz-zz"})
        assert bad.status_code == 400, args
        move = player.post("/analyse/play/move?" + urlencode(args), card="zz", to="new")
        assert move.status_code == 422, args
    assert player.client.get("/analyse/play", query_string=guarded).status_code == 403
    assert player.client.get("/analyse/play", query_string=unguarded).status_code == 200
    moved = player.post("/analyse/play/move?" + urlencode(guarded), card="h0", to="new")
    assert moved.status_code == 403
    bad_objective = player.client.get("/analyse", query_string={**guarded, "objective": "x"})
    assert bad_objective.status_code == 422 and "not an objective" in bad_objective.get_data(as_text=True)
    # the chain length's cell too: a bad request is a 400 whether or not its position is guarded
    for args in (guarded, unguarded):
        bad_chain = player.client.get("/analyse/chain", query_string={**args, "objective": "x"})
        assert bad_chain.status_code == 400 and "not an objective" in bad_chain.get_data(as_text=True), args
    assert player.client.get("/analyse/chain", query_string=guarded).status_code == 403
    assert player.client.get("/analyse/chain", query_string=unguarded).status_code == 200


@pytest.mark.parametrize("rules", ["german-jokers", "italian", "jokers", "three-decks"])
def test_the_api_refuses_todays_puzzle_under_another_preset(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle, rules: str
) -> None:
    refused = solve(client, rules, [list(meld) for meld in known_puzzle.table], list(known_puzzle.hand))
    assert refused.status_code == 403
    assert f"daily puzzle #{TODAY}, still open" in refused.get_json()["error"]


@pytest.mark.parametrize(
    "disguise",
    [
        "a card of the kept run left out",
        "ranks mirrored, hearts and clubs swapped",
        "other spellings and card orders",
        "melds rebuilt",
        "a joker for a card the answer places",
        "a joker for a table card, a meld left out",
    ],
)
def test_the_api_refuses_todays_puzzle_in_disguise(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle, disguise: str
) -> None:
    rules = known_puzzle.rules
    table = [list(meld) for meld in known_puzzle.table]
    hand = list(known_puzzle.hand)
    if disguise == "a card of the kept run left out":  # the answer only extends it: 12 of 13 stay
        assert table.pop() == ["4C", "5C", "6C", "7C"]
        table.append(["5C", "6C", "7C"])
    elif disguise == "ranks mirrored, hearts and clubs swapped":  # r to 14 - r: the same puzzle
        table = [["4S", "4C", "4D"], ["3S", "3C", "3D"], ["2C", "2H", "2D"], ["7H", "8H", "9H", "10H"]]
        hand = ["5S", "2D", "2S", "6H", "AC", "QD"]
    elif disguise == "other spellings and card orders":
        table = [["TD", "10♠", "10h"], ["J♠", "jd", "JH"], ["QC", "QH", "Q♦"], ["7C", "6C", "5C", "4C"]]
        hand = ["2♦", "q♠", "8♣", "9s", "Q♦", "K♥"]
    elif disguise == "melds rebuilt":  # the sets' cards as runs, the run cut short, the rest in the hand
        table = [["10H", "JH", "QH"], ["10D", "JD", "QD"], ["4C", "5C", "6C"]]
        hand += ["7C", "10S", "JS", "QC"]
    elif disguise == "a joker for a card the answer places":
        rules = "jokers"
        hand = [card for card in hand if card != "KH"] + ["JK"]
    else:
        rules = "jokers"
        table = [["10S", "JK", "10D"], *table[1:3]]
        hand += ["4C", "5C", "6C", "7C"]
    refused = solve(client, rules, table, hand)
    assert refused.status_code == 403, (disguise, refused.get_data(as_text=True))


def test_the_api_answers_the_same_puzzle_once_its_day_has_closed(
    app: Flask, client: FlaskClient, known_puzzle: generator.Puzzle
) -> None:
    store(app, known_puzzle, 1)  # puzzle #1 closed days before the frozen noon of day #7
    body = json.dumps(known_puzzle.position().to_json())
    answered = client.post("/api/solve", data=body, content_type="application/json")
    assert answered.status_code == 200
    assert answered.get_json()["max_placed"] == known_puzzle.max_placed


def test_the_page_and_the_play_view_refuse_until_the_player_gives_up(
    player: Player, published: int, known_puzzle: generator.Puzzle
) -> None:
    for path in ("/analyse", "/analyse/play", "/analyse/chain"):
        for headers in ({}, {"HX-Request": "true"}):
            refused = player.client.get(path, query_string=query(known_puzzle), headers=headers)
            assert refused.status_code == 403, path
            assert "once you have solved it or given up" in refused.get_data(as_text=True)
            assert "the most melds one rearrangement" not in refused.get_data(as_text=True)
    player.client.get("/")
    assert player.post(f"/puzzles/{TODAY}/give-up").status_code == 200
    answered = player.client.get("/analyse", query_string=query(known_puzzle))
    assert answered.status_code == 200
    assert "The best play places" in answered.get_data(as_text=True)
    chain = player.client.get("/analyse/chain", query_string=query(known_puzzle), headers={"HX-Request": "1"})
    assert chain.status_code == 200 and "Chain length" not in chain.get_data(as_text=True)
    assert f"{known_puzzle.chain}: the most melds" in chain.get_data(as_text=True)


def test_the_callers_unfinished_practice_attempt_is_refused_until_they_give_up(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    # the bypass found: a practice puzzle's answer taken from /api/solve, moves the rating
    practice = practise(app, known_puzzle)
    player.client.get(f"/practice/{practice}")
    assert player.post(f"/practice/{practice}/move", card="h0", to="new").status_code == 200
    table, hand = [list(meld) for meld in known_puzzle.table], list(known_puzzle.hand)
    refused = solve(player.client, "classic", table, hand)
    assert refused.status_code == 403
    assert f"practice puzzle {practice}, which you have not finished" in refused.get_json()["error"]
    assert player.client.get("/analyse", query_string=query(known_puzzle)).status_code == 403
    # another browser is not playing it: the guard keeps only a caller's own attempts back
    assert solve(app.test_client(), "classic", table, hand).status_code == 200
    assert player.post(f"/practice/{practice}/give-up").status_code == 200
    assert solve(player.client, "classic", table, hand).status_code == 200


def test_the_callers_unfinished_archive_attempt_is_refused(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    store(app, known_puzzle, 1)  # closed days ago: played from the archive
    player.client.get("/archive/1")
    assert player.post("/archive/1/move", card="h0", to="new").status_code == 200
    table = [list(meld) for meld in known_puzzle.table]
    refused = solve(player.client, "italian", table, list(known_puzzle.hand))
    assert refused.status_code == 403
    assert "puzzle #1, which you have not finished" in refused.get_json()["error"]


def practise(app: Flask, puzzle: generator.Puzzle) -> str:
    """The puzzle stored for practice; returns its code."""
    row_id = store(app, puzzle)
    with app.app_context(), database().write() as session:
        session.get_one(models.PoolPuzzle, row_id).practice = True
    return puzzle.id


def test_a_late_games_big_table_is_answered_though_it_holds_todays_cards(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle
) -> None:
    # 13 cards of today's table among 28 others: a game of its own
    table = [list(meld) for meld in known_puzzle.table]
    table += [["AS", "2S", "3S"], ["AH", "2H", "3H"], ["AD", "2D", "3D"], ["5H", "6H", "7H", "8H"]]
    table += [["5D", "6D", "7D", "8D"], ["KC", "KD", "KS"], ["AC", "2C", "3C"], ["9H", "9D", "9C"]]
    assert solve(client, known_puzzle.rules, table, list(known_puzzle.hand)).status_code == 200
    # and so is one that holds today's cards and 9 more (more than a meld or 30% of today's table)
    assert solve(client, known_puzzle.rules, table[:7], list(known_puzzle.hand)).status_code == 200
    # a meld more is still today's puzzle
    assert solve(client, known_puzzle.rules, table[:5], list(known_puzzle.hand)).status_code == 403
