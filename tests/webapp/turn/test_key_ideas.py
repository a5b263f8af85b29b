"""A puzzle's key ideas: the result card says its decisions in words once the puzzle is finished,
solved or given up; before that only the first hint names the key card, and nothing says where it
goes."""

from __future__ import annotations

import html
import re
import threading
from dataclasses import replace

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner

import generator
from puzzles import KeyIdea, Position
from tests.webapp.conftest import TODAY, Player, store
from tests.webapp.playing import card_id, solve
from webapp import models
from webapp.db import database
from webapp.languages import LANGUAGE_COOKIE
from webapp.turn import actions

MASTER = (
    "classic | 3S 3D 3C / 6H 6D 6C / 9S 9H 9D / QS QH QC / 6S 7S 8S / 3H 4H 5H / 9C 10C JC"
    " | 10S JS 2H 10H JH QH AD 2D 4D 5D 8C 8C"
)
"""A generated Master (seed 38): two declines (2♥ and 8♣ kept); its line's fork, 10♠ to the tens,
is not said: 10♠ may as well go to 7♠ 8♠ 9♠ (tests/puzzles/test_key.py)."""
IDEAS = (
    "Keep 2♥ back, though it fits 3♥\u00a04♥\u00a05♥.",
    "Keep 8♣ back, though it fits 9♣\u00a010♣\u00a0J♣.",
)

PLAY = (
    "9♣\u00a010♣\u00a0J♣ breaks up into sets.",
    "3♦ leaves 3♠\u00a03♦\u00a03♣ for A♦\u00a02♦\u00a03♦\u00a04♦\u00a05♦.",
)
"""What the Master's play does first (`puzzles.shown_ideas`), said after its two declines."""
EASY = "classic | AC 2C 3C 4C 5C / 9S 10S JS / 7H 8H 9H | 4C 6C 7C 10H"
"""An Easy without a decision: its key idea is its play's, 5♣ leaving A♣ ... 5♣ for 4♣ 5♣ 6♣ 7♣."""


@pytest.fixture(scope="module")
def master() -> generator.Puzzle:
    return generator.puzzle_of("cz9", Position.parse(MASTER), time_limit=20)


@pytest.fixture
def stored(app: Flask, master: generator.Puzzle) -> int:
    store(app, master, TODAY)
    return TODAY


def text(response: object) -> str:
    return html.unescape(response.get_data(as_text=True))  # type: ignore[attr-defined]


def test_giving_up_shows_the_key_ideas(player: Player, stored: int) -> None:
    page = text(player.client.get("/"))
    assert "The key ideas" not in page and not any(idea in page for idea in IDEAS)
    result = text(player.post(f"/puzzles/{TODAY}/give-up"))
    section = re.search(r'<div class="key-ideas" id="key-ideas">(.*?)</div>', result, re.S)
    assert section is not None
    assert "<h3>The key ideas</h3>" in section.group(1)
    said = re.findall(r"<li>(.*?)</li>", section.group(1))
    # two declines say what not to do: the play's own idea follows, the start of its chain
    assert said == [*IDEAS, *PLAY]
    # and on the page reloaded
    assert IDEAS[0] in text(player.client.get("/"))


def test_solving_shows_them_too_in_the_players_language(
    player: Player, stored: int, master: generator.Puzzle
) -> None:
    solve(player, TODAY, master)
    result = text(player.post(f"/puzzles/{TODAY}/end"))
    assert "Solved!" in result and all(idea in result for idea in IDEAS)
    player.client.set_cookie(LANGUAGE_COOKIE, "it")
    italian = text(player.client.get("/"))
    assert "Le idee chiave" in italian and "Tieni 2♥ in mano" in italian


def test_the_first_hint_names_the_key_card_and_nothing_more(player: Player, stored: int) -> None:
    page = text(player.client.get("/"))
    two = card_id(page, "2♥")
    board = text(player.post(f"/puzzles/{TODAY}/hint"))
    assert "💡 Hint 1:</span> 2♥ is the key card: think twice before you lay it where it fits." in board
    marked = re.findall(r'class="card [^"]*\bhinted"\s+data-card="(\w+)"', board)
    assert marked == [two], "the hint marks the card alone, no meld"
    assert "hinted-meld" not in board
    assert not any(idea in board for idea in IDEAS)
    assert "though it fits" not in board and "key ideas" not in board
    # the JSON API says nothing of it either
    api = player.client.get(f"/api/puzzles/{TODAY}").get_data(as_text=True)
    assert "key" not in api.lower() and "2H" not in api.split('"hand"')[0]


TRAP = "classic | QS QH QD QC / QH QD QC / 4S 5S 6S 7S / AH 2H 3H / 2D 3D 4D | 8S 7D 7C"
"""A fresh Easy (c0a21k9cma, seed 4242) with no fork: its key idea declines 8♠, which fits 4♠ 5♠ 6♠
7♠ as it lies and laid there keeps 7♠ from the sevens."""


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "8♠ is the key card: think twice before you lay it where it fits."),
        ("it", "8♠ è la carta chiave: pensaci bene prima di calarla dove si attacca."),
        ("de", "8♠ ist die Schlüsselkarte: überlege gut, bevor du sie dort anlegst, wo sie passt."),
        ("pl", "8♠ to kluczowa karta: zastanów się dwa razy, zanim dołożysz ją tam, gdzie pasuje."),
    ],
)
def test_a_declined_key_card_is_not_sent_where_it_fits(
    app: Flask, player: Player, language: str, said: str
) -> None:
    puzzle = generator.puzzle_of("cz9", Position.parse(TRAP), time_limit=20)
    assert [idea.kind for idea in puzzle.key_ideas or ()] == ["decline"]
    store(app, puzzle, TODAY)
    player.client.set_cookie(LANGUAGE_COOKIE, language)
    page = text(player.client.get("/"))
    eight = card_id(page, "8♠")
    board = text(player.post(f"/puzzles/{TODAY}/hint"))
    assert said in board.replace("\u00a0", " ")
    assert "think about where it goes" not in board and "pensa a dove va" not in board
    assert re.findall(r'class="card [^"]*\bhinted"\s+data-card="(\w+)"', board) == [eight]
    assert "hinted-meld" not in board


def test_the_pages_read_the_key_ideas_stored_with_the_puzzle(
    player: Player, stored: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_work(*args: object) -> tuple[KeyIdea, ...]:
        raise AssertionError("the forcing player ran on the request path")

    monkeypatch.setattr(actions, "key_ideas", no_work)
    page = text(player.client.get("/"))
    two = card_id(page, "2♥")
    board = text(player.post(f"/puzzles/{TODAY}/hint"))
    assert re.findall(r'class="card [^"]*\bhinted"\s+data-card="(\w+)"', board) == [two]
    result = text(player.post(f"/puzzles/{TODAY}/give-up"))
    assert all(idea in result for idea in IDEAS)


def without_ideas(app: Flask, master: generator.Puzzle) -> None:
    """Today's puzzle as a row stored before the key ideas were kept."""
    store(app, replace(master, key_ideas=None), TODAY)


def test_a_puzzle_stored_without_them_has_them_worked_out(
    app: Flask, player: Player, master: generator.Puzzle
) -> None:
    without_ideas(app, master)
    result = text(player.post(f"/puzzles/{TODAY}/give-up"))
    assert all(idea in result for idea in IDEAS)


def test_working_them_out_waits_no_longer_than_the_limit(
    app: Flask, player: Player, master: generator.Puzzle, monkeypatch: pytest.MonkeyPatch
) -> None:
    without_ideas(app, master)
    release = threading.Event()

    def slow(*args: object) -> tuple[KeyIdea, ...]:
        release.wait()  # as long as the test needs: past any limit
        return master.key_ideas or ()

    monkeypatch.setattr(actions, "key_ideas", slow)
    app.config["KEY_IDEAS_TIME_LIMIT"] = 0.05
    try:
        result = text(player.post(f"/puzzles/{TODAY}/give-up"))
    finally:
        release.set()
    # the declines are not said this time; the play's own idea, which needs no search, is
    assert "Solved!" not in result and not any(idea in result for idea in IDEAS)
    assert PLAY[0] in result
    assert "You gave up" in result and "The solution" in result, "the rest of the card still shows"


def test_the_command_stores_the_key_ideas_of_old_rows(
    app: Flask, runner: FlaskCliRunner, master: generator.Puzzle
) -> None:
    without_ideas(app, master)
    result = runner.invoke(args=["puzzles", "key-ideas"])
    assert result.exit_code == 0 and "found the key ideas of 1 puzzle" in result.output
    with app.app_context(), database().reader() as session:
        row = session.query(models.PoolPuzzle).one()
        assert row.key_ideas == [idea.to_json() for idea in master.key_ideas or ()]
        assert row.key_ideas and row.key_ideas[0]["card"] == "2H"
    again = runner.invoke(args=["puzzles", "key-ideas"])
    assert "found the key ideas of 0 puzzles" in again.output


def test_again_rewrites_stale_key_ideas_and_leaves_current_ones(
    app: Flask, runner: FlaskCliRunner, master: generator.Puzzle
) -> None:
    store(app, master, TODAY)
    with app.app_context(), database().write() as session:
        session.query(models.PoolPuzzle).one().key_ideas = []  # as an older engine stored them
    assert "of 0 puzzles" in runner.invoke(args=["puzzles", "key-ideas"]).output
    result = runner.invoke(args=["puzzles", "key-ideas", "--again"])
    assert result.exit_code == 0 and "found the key ideas of 1 puzzle" in result.output
    with app.app_context(), database().reader() as session:
        assert session.query(models.PoolPuzzle).one().key_ideas == [
            idea.to_json() for idea in master.key_ideas or ()
        ]
    assert "of 0 puzzles" in runner.invoke(args=["puzzles", "key-ideas", "--again"]).output


JOKERS = (
    "jokers | 5S 5H 5D / 8S 8H 8D 8C / 9S 9H 9D 9C / 10H 10D 10C / JS JH JC / QS QD QC / QS QH QD"
    " | 10S 6H 4D 9D JD KC JK"
)
"""A generated `jokers` Expert (seed 0) whose grade stops at its limit: its key is the joker's place."""
JOKER_IDEA = {
    "en": "The joker stands for 7♥ in the run 6♥\u00a0🃏\u00a08♥.",
    "it": "Il jolly sta per 7♥ nella scala 6♥\u00a0🃏\u00a08♥.",
    "de": "Der Joker steht für 7♥ in der Reihe 6♥\u00a0🃏\u00a08♥.",
    "pl": "Joker zastępuje 7♥ w sekwensie 6♥\u00a0🃏\u00a08♥.",
}


def test_a_joker_puzzle_says_which_card_the_joker_stands_for_in_each_language(
    app: Flask, player: Player
) -> None:
    puzzle = generator.puzzle_of("jk0", Position.parse(JOKERS), time_limit=20)
    assert puzzle.decisions is None, "the grade's count proves no line: the key ideas find their own"
    store(app, puzzle, TODAY)
    result = text(player.post(f"/puzzles/{TODAY}/give-up"))
    said = re.findall(r"<li>(.*?)</li>", result.split('id="key-ideas"')[1].split("</div>")[0])
    assert said[0] == JOKER_IDEA["en"] and len(said) == 4  # the joker, a fork, two declines
    for language, sentence in JOKER_IDEA.items():
        player.client.set_cookie(LANGUAGE_COOKIE, language)
        assert sentence in text(player.client.get("/")), language


def test_an_easy_puzzle_without_a_decision_shows_the_idea_of_its_play(app: Flask, player: Player) -> None:
    easy = generator.puzzle_of("cz9", Position.parse(EASY), time_limit=20)
    assert easy.tier == "easy" and easy.key_ideas == ()
    store(app, easy, TODAY)
    page = text(player.client.get("/"))
    assert "leaves" not in page
    result = text(player.post(f"/puzzles/{TODAY}/give-up"))
    section = re.search(r'<div class="key-ideas" id="key-ideas">(.*?)</div>', result, re.S)
    assert section is not None
    assert "<h3>The key idea</h3>" in section.group(1)
    assert re.findall(r"<li>(.*?)</li>", section.group(1)) == [
        "5♣ leaves A♣\u00a02♣\u00a03♣\u00a04♣\u00a05♣ for 4♣\u00a05♣\u00a06♣\u00a07♣."
    ]
    for language, words in (
        ("it", "5♣ lascia A♣\u00a02♣\u00a03♣\u00a04♣\u00a05♣ per 4♣\u00a05♣\u00a06♣\u00a07♣."),
        ("de", "5♣ wandert aus A♣\u00a02♣\u00a03♣\u00a04♣\u00a05♣ in 4♣\u00a05♣\u00a06♣\u00a07♣."),
        ("pl", "5♣ przechodzi z A♣\u00a02♣\u00a03♣\u00a04♣\u00a05♣ do 4♣\u00a05♣\u00a06♣\u00a07♣."),
    ):
        player.client.set_cookie(LANGUAGE_COOKIE, language)
        assert words in text(player.client.get("/")), language
