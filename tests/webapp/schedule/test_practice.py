"""Practice: puzzles by tier or near the player's rating, every preset, and the pool the clock tops up."""

from __future__ import annotations

import html
import random
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

import generator
from puzzles import Board, Position
from tests.webapp.conftest import DECOY_PAIRS, TODAY, Player, attempts, store, variant
from tests.webapp.playing import share_text, solve
from webapp import models
from webapp.db import database
from webapp.schedule import practice
from webapp.schedule.pool import make_exact
from webapp.schedule.scheduler import practice_job, scheduler


def practise(app: Flask, puzzle: generator.Puzzle, rating: float | None = None) -> int:
    """Store a puzzle for practice (with its rating, when given); returns its row id."""
    row_id = store(app, puzzle)
    with app.app_context(), database().write() as session:
        row = session.get_one(models.PoolPuzzle, row_id)
        row.practice = True
        if rating is not None:
            row.rating = rating
    return row_id


def pool(known: generator.Puzzle, count: int, tier: str = "hard", first: int = 0) -> list[generator.Puzzle]:
    return [variant(known, " ".join(DECOY_PAIRS[first + i]), tier, f"cp{first + i}") for i in range(count)]


def test_the_practice_page_offers_every_preset_and_tier(client: FlaskClient) -> None:
    page = client.get("/practice").get_data(as_text=True)
    for name in ("classic", "italian", "jokers", "german-jokers", "three-decks"):
        assert f'<option value="{name}"' in page
    for tier in ("easy", "medium", "hard", "expert", "master", "rating"):
        assert f'name="tier" value="{tier}"' in page


def test_a_tier_gives_a_puzzle_the_player_has_not_played(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    ids = {practise(app, puzzle) for puzzle in pool(known_puzzle, 2)}
    practise(app, variant(known_puzzle, "5S 5H", "easy", "ce1"))
    first = player.client.get("/practice/next?rules=classic&tier=hard")
    assert first.status_code == 303
    code = first.headers["Location"].rsplit("/", 1)[1]
    page = player.client.get(f"/practice/{code}").get_data(as_text=True)
    assert "Practice" in page and "Place <strong>5</strong>" in page and "Tavolo practice" in page
    player.post(f"/practice/{code}/give-up")
    second = player.client.get("/practice/next?rules=classic&tier=hard").headers["Location"].rsplit("/", 1)[1]
    assert second != code
    player.post(f"/practice/{second}/give-up")
    none = player.client.get("/practice/next?rules=classic&tier=hard")
    assert none.status_code == 404
    assert "No puzzle you have not played is ready (Hard, Classic)" in html.unescape(
        none.get_data(as_text=True)
    )
    assert {row_id(app, code), row_id(app, second)} == ids  # both hard ones, never the easy one


def row_id(app: Flask, code: str) -> int:
    with app.app_context(), database().reader() as session:
        return session.scalar(select(models.PoolPuzzle.id).where(models.PoolPuzzle.code == code)) or 0


def test_daily_puzzles_are_never_practice(app: Flask, player: Player, published: int) -> None:
    assert player.client.get("/practice/next?rules=classic&tier=hard").status_code == 404
    code = "cz1"  # the daily puzzle's code
    assert player.client.get(f"/practice/{code}").status_code == 404


def test_near_my_rating_picks_the_closest_puzzle(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    easy, near, hard = pool(known_puzzle, 3)
    practise(app, easy, rating=1000)
    practise(app, near, rating=1480)
    practise(app, hard, rating=2100)
    for _ in range(5):
        chosen = player.client.get("/practice/next?rules=classic&tier=rating").headers["Location"]
        assert chosen.endswith(f"/practice/{near.id}")  # a newcomer is rated 1500


def test_choose_widens_the_window_when_nothing_is_near(app: Flask, known_puzzle: generator.Puzzle) -> None:
    far = pool(known_puzzle, 1)[0]
    practise(app, far, rating=2300)
    with app.app_context(), database().reader() as session:
        found = practice.choose(session, None, "classic", None, 1500.0, random.Random(1))
        assert found is not None and found.code == far.id
        assert practice.choose(session, None, "italian", None, 1500.0, random.Random(1)) is None


def test_practice_attempts_are_rated_and_never_count_for_the_streak(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    puzzle = pool(known_puzzle, 1)[0]
    practise(app, puzzle)
    moves = solve(player, puzzle.id, known_puzzle, base="/practice")
    result = html.unescape(player.post(f"/practice/{puzzle.id}/end").get_data(as_text=True))
    # the share text names the tier, not the code; the challenge link carries that
    tier = puzzle.tier.capitalize()
    grade = f"⛓3 🧭{puzzle.decisions}" if puzzle.decisions else "⛓3"
    assert share_text(result) == f"Tavolo practice ({tier}) {grade} ✅ 5/5 · {moves} moves · 💡0"
    # the next practice puzzle is one tap away; the daily's countdown is not practice's business
    assert 'href="/practice/next?rules=classic&tier=rating">Next practice puzzle' in result
    assert "countdown" not in result
    assert "Rating 1" in result and "result-streak" not in result
    assert f"http://localhost/practice/{puzzle.id}?beat={moves}" in result
    stats = player.client.get("/stats").get_data(as_text=True)
    assert "Practice: 1 played, 1 solved." in stats
    assert re.search(r'<dd id="played">0</dd>', stats)


def test_a_practice_link_opens_the_puzzle_for_a_friend(
    app: Flask, client: FlaskClient, known_puzzle: generator.Puzzle
) -> None:
    puzzle = pool(known_puzzle, 1)[0]
    practise(app, puzzle)
    page = client.get(f"/practice/{puzzle.id}?beat=12").get_data(as_text=True)
    assert "A friend solved this in 12 moves. Can you match it?" in page
    assert client.get("/practice/nosuch").status_code == 404


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("rules=poker&tier=hard", "unknown rules 'poker'"),
        ("rules=classic&tier=hardest", "unknown tier 'hardest'"),
    ],
)
def test_bad_practice_choices_are_refused(client: FlaskClient, query: str, message: str) -> None:
    response = client.get(f"/practice/next?{query}")
    assert response.status_code == 400 and message in html.unescape(response.get_data(as_text=True))


def test_jokers_are_drawn_as_joker_cards(app: Flask, client: FlaskClient) -> None:
    puzzle = generator.puzzle_from_id("jb0")  # three jokers on its table
    practise(app, puzzle)
    page = client.get(f"/practice/{puzzle.id}").get_data(as_text=True)
    assert page.count('class="card joker"') == 3 and page.count('aria-label="joker"') == 3
    assert ">Jokers<" in page


def unplayed(app: Flask) -> dict[tuple[str, str], int]:
    with app.app_context(), database().reader() as session:
        rows = session.execute(
            select(models.PoolPuzzle.rules, models.PoolPuzzle.tier, func.count())
            .where(models.PoolPuzzle.practice.is_(True))
            .group_by(models.PoolPuzzle.rules, models.PoolPuzzle.tier)
        )
        return {(rules, tier): count for rules, tier, count in rows}


@pytest.mark.usefixtures("distinct_generator")
def test_the_clock_tops_the_pool_up_to_its_targets(
    app: Flask, fake_generator: list[tuple[str, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(app.config, "PRACTICE_POOL", {"classic": 3, "italian": 0})
    assert practice_job(app) == 15
    assert unplayed(app) == {("classic", tier): 3 for tier in generator.TIERS}
    # full: nothing more to make
    calls = len(fake_generator)
    assert practice_job(app) == 0 and len(fake_generator) == calls


@pytest.mark.usefixtures("distinct_generator")
def test_a_played_puzzle_no_longer_counts_as_unplayed(
    app: Flask, player: Player, fake_generator: list[tuple[str, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(app.config, "PRACTICE_POOL", {"classic": 1})
    practice_job(app)
    code = player.client.get("/practice/next?rules=classic&tier=easy").headers["Location"].rsplit("/", 1)[1]
    player.post(f"/practice/{code}/give-up")
    with app.app_context(), database().reader() as session:
        assert practice.unplayed_count(session, "classic", "easy") == 0
    assert practice_job(app) == 1
    assert unplayed(app)[("classic", "easy")] == 2


@pytest.mark.usefixtures("distinct_generator")
def test_the_top_up_stops_at_its_deadline_on_its_own_timer(
    app: Flask, fake_generator: list[tuple[str, int]]
) -> None:
    ticks = iter(range(1000))  # a timer that moves one second each time it is read, from 0

    def timer() -> float:
        return float(next(ticks))

    with app.app_context():
        # deadline 2.5: made at 1 (easy), at 2 (medium), read 3 after it, and stop
        added = practice.top_up({"classic": 50}, 2.5, 1.0, timer=timer)
    assert added == {("classic", "easy"): 1, ("classic", "medium"): 1}
    assert len(fake_generator) == 2


@pytest.mark.usefixtures("distinct_generator")
def test_the_top_up_stops_when_its_time_is_up(
    app: Flask, fake_generator: list[tuple[str, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(app.config, "PRACTICE_POOL", {"classic": 50})
    monkeypatch.setitem(app.config, "PRACTICE_FILL_SECONDS", 0.0)
    made = practice_job(app)
    assert made <= 1 and len(fake_generator) <= 1


def test_puzzles_whose_play_frees_a_joker_to_the_hand_are_kept_and_playable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    freeing = generator.Puzzle(
        id="gz1", rules="german-jokers", table=(("6H", "6S", "JK"),), hand=("6D", "6C"),
        max_placed=1, laid=("6D", "6C"), solution=(("6H", "6S", "6D", "6C"),),
        depth=1, chain=1, tier="easy", themes=("joker-to-hand",), hand_size=2, decoys=0, live_decoys=0,
    )  # fmt: skip
    monkeypatch.setattr("webapp.schedule.pool.make_puzzle", lambda *args, **kwargs: freeing)
    assert make_exact("german-jokers", "easy", 1, 1.0) is freeing
    # the board plays its solution: both sixes laid, the joker taken back
    board = Board.start(Position.parse("german-jokers | 6H 6S JK | 6D 6C"))
    board = board.move("h0", "0").move("h1", "0").move("t2", "hand")
    assert board.problems() == [] and board.play().placed == freeing.max_placed


def test_the_clock_runs_the_practice_job(app: Flask) -> None:
    job = scheduler(app).get_job("practice")
    assert job is not None and job.trigger.interval.total_seconds() == 600


@pytest.mark.usefixtures("distinct_generator")
def test_the_fill_command(app: Flask, fake_generator: list[tuple[str, int]]) -> None:
    result = app.test_cli_runner().invoke(args=["practice", "fill", "--target", "1"])
    assert result.exit_code == 0, result.output
    # one for each tier of each preset (the fake generator makes them all classic ones)
    assert "added 25 practice puzzles" in result.output
    assert attempts(app) == [] and TODAY == 7


def test_the_top_up_leaves_out_near_duplicates_of_the_pool(
    app: Flask, known_puzzle: generator.Puzzle, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def make(rules: str, tier: str | None = None, seed: int = 0, time_limit: float = 2.0) -> generator.Puzzle:
        # other hands, so other puzzles, but always the one table
        calls.append(seed)
        decoy = " ".join(DECOY_PAIRS[seed % len(DECOY_PAIRS)])
        return variant(known_puzzle, decoy, tier or "hard", f"cy{seed}")

    monkeypatch.setattr("webapp.schedule.pool.make_puzzle", make)
    with app.app_context():
        added = practice.top_up({"classic": 3}, 30.0, 1.0, timer=iter(range(40)).__next__)
    assert len(calls) > len(generator.TIERS)
    assert added == {("classic", tier): 1 for tier in generator.TIERS}
    assert unplayed(app) == {("classic", tier): 1 for tier in generator.TIERS}


def tier_buttons(page: str) -> dict[str, bool]:
    """Each tier button of the practice page, and whether it can be pressed."""
    return {
        match.group(1): "disabled" not in match.group(2)
        for match in re.finditer(r'<button class="button[^"]*" name="tier" value="([^"]*)"([^>]*)>', page)
    }


def test_practice_offers_the_theme_and_tier_pairs_the_pool_holds(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    # the pool: a ladder at Hard, a cycle at Expert; nothing themed under the other presets
    practise(app, variant(known_puzzle, "5S 5H", "hard", "cl1", themes=("ladder", "extend")))
    practise(app, variant(known_puzzle, "5S 5D", "expert", "cy1", themes=("cycle", "extend")))
    page = html.unescape(player.client.get("/practice").get_data(as_text=True))
    assert '<option value="ladder">Climb the ladder (Hard)</option>' in page
    assert '<option value="cycle">Go round in a circle (Expert)</option>' in page
    assert '<option value="extend">Add to a meld (Hard and Expert)</option>' in page
    assert 'value="bridge"' not in page and 'value="free-joker"' not in page  # none in the pool
    # without a theme every tier of a preset the clock fills; with one, only where the pool has it
    assert all(tier_buttons(page).values())
    themed = tier_buttons(player.client.get("/practice?theme=ladder").get_data(as_text=True))
    assert themed == {
        "rating": True,
        "easy": False,
        "medium": False,
        "hard": True,
        "expert": False,
        "master": False,
    }
    jokers = player.client.get("/practice?rules=jokers").get_data(as_text=True)
    assert 'value="ladder"' not in jokers and 'value="cycle"' not in jokers
    # a pair the pool does not hold (asked by hand) says where the theme is, never "topped up"
    asked = player.client.get("/practice/next?rules=classic&tier=easy&theme=ladder")
    said = html.unescape(asked.get_data(as_text=True))
    assert asked.status_code == 404 and "topped up" not in said
    assert (
        "No puzzle of this theme you have not played at this tier (Easy, Classic, Climb the ladder)." in said
    )
    assert "It has some at: Hard." in said
    # once played, the ladder is gone from the offer, and asking for it says to try another theme
    found = player.client.get("/practice/next?rules=classic&tier=hard&theme=ladder")
    player.post(found.headers["Location"] + "/give-up")
    assert 'value="ladder"' not in player.client.get("/practice").get_data(as_text=True)
    again = html.unescape(
        player.client.get("/practice/next?rules=classic&tier=hard&theme=ladder").get_data(as_text=True)
    )
    assert "in these rules (Hard, Classic, Climb the ladder). Try another theme." in again
    assert "topped up" not in again


def test_the_offer_follows_the_clocks_targets_for_tiers_without_a_theme(
    app: Flask, known_puzzle: generator.Puzzle
) -> None:
    practise(app, variant(known_puzzle, "5S 5H", "hard", "ci1"))
    with app.app_context(), database().reader() as session:
        offer = practice.offered(session, None, {"classic": 10})
        assert offer.of("classic") == generator.TIERS  # the clock fills each, the generator makes each
        assert offer.of("italian") == ()  # no target, nothing in the pool
        assert offer.of("classic", "ladder") == ()
        assert practice.offered(session, None, {}).of("classic") == ("hard",)  # what the pool holds
