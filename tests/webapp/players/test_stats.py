"""The stats page and transfer codes: streaks over several days, and moving a record between browsers."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

import generator
from tests.webapp.conftest import NOON, FrozenClock, Player, store, variant
from tests.webapp.playing import share_text, solve
from webapp import models
from webapp.db import database
from webapp.schedule.clock import TZ_COOKIE


@pytest.fixture
def week(app: Flask, known_puzzle: generator.Puzzle) -> list[int]:
    """The known puzzle (with other decoys) as the daily puzzles #4 to #8."""
    for number, decoy in zip(range(4, 9), ("2H", "3D", "3H", "2D", "AD"), strict=True):
        store(app, variant(known_puzzle, decoy, "hard", f"cw{number}"), number)
    return list(range(4, 9))


def on_day(clock: FrozenClock, number: int) -> None:
    """Noon UTC on the day of puzzle `number`."""
    clock.moment = NOON + timedelta(days=number - 7)


def solve_daily(player: Player, number: int, puzzle: generator.Puzzle, hints: int = 0) -> str:
    for _ in range(hints):
        player.post(f"/puzzles/{number}/hint")
    solve(player, number, puzzle)
    return str(player.post(f"/puzzles/{number}/end").get_data(as_text=True))


def tile(page: str, name: str) -> str:
    match = re.search(rf'<dd id="{name}">(.*?)</dd>', page)
    assert match, f"no {name} tile"
    return re.sub(r"<[^>]+>", "", match.group(1))


def player_of(client: FlaskClient) -> str | None:
    with client.session_transaction() as session:
        return session.get("player")


def attempt_count(app: Flask, player: str | None) -> int:
    with app.app_context(), database().reader() as session:
        return (
            session.scalar(
                select(func.count())
                .select_from(models.PlayerAttempt)
                .where(models.PlayerAttempt.player_id == player)
            )
            or 0
        )


def test_a_newcomer_sees_empty_stats_and_the_code_form(client: FlaskClient, published: int) -> None:
    page = client.get("/stats").get_data(as_text=True)
    assert "Nothing played yet" in page
    assert tile(page, "played") == "0" and tile(page, "streak") == "🔥0"
    assert 'name="code"' in page and "Show a transfer code" not in page
    assert " style=" not in page and "<script>" not in page


def test_the_stats_of_a_week(
    app: Flask, player: Player, week: list[int], clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    on_day(clock, 4)
    solve_daily(player, 4, known_puzzle)
    on_day(clock, 5)
    solve_daily(player, 5, known_puzzle, hints=1)
    on_day(clock, 6)
    result = solve_daily(player, 6, known_puzzle)
    assert share_text(result).endswith("🔥3") and "Streak 3 · best 3" in result
    on_day(clock, 7)
    player.post("/puzzles/7/give-up")
    page = player.client.get("/stats").get_data(as_text=True)
    assert (tile(page, "played"), tile(page, "solve-rate")) == ("4", "75%")
    assert (tile(page, "streak"), tile(page, "best-streak"), tile(page, "clean")) == ("🔥0", "3", "2")
    # the calendar: two clean days, one with hints, one missed; #8 is tomorrow in UTC
    assert page.count('class="day day-clean"') == 2
    assert page.count('class="day day-solved"') == 1
    assert page.count('class="day day-missed"') == 1
    assert page.count('class="day day-open"') == 0
    ahead = player.client.get("/stats?tz=Pacific/Kiritimati").get_data(as_text=True)
    assert ahead.count('class="day day-open"') == 1 and "Mon, 30 Nov 2026, #8: still open" in ahead
    assert "Sun, 29 Nov 2026, #7: missed" in page
    # a histogram bar for the solves' moves, and the rating chart from four rated attempts
    assert '<svg class="histogram"' in page and "3 in 16-20 moves" in page
    assert '<polyline class="rating-line"' in page


def test_a_puzzle_left_unfinished_counts_as_played_once_it_has_closed(
    app: Flask, player: Player, week: list[int], clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    on_day(clock, 4)
    solve_daily(player, 4, known_puzzle)
    on_day(clock, 5)
    assert player.move(5, "h0", "new").status_code == 200
    still_open = player.client.get("/stats").get_data(as_text=True)
    assert (tile(still_open, "played"), tile(still_open, "solve-rate")) == ("1", "100%")
    on_day(clock, 7)  # #5 has closed everywhere, unfinished: played and not solved, as the calendar says
    page = player.client.get("/stats").get_data(as_text=True)
    assert (tile(page, "played"), tile(page, "solve-rate")) == ("2", "50%")
    assert page.count('class="day day-missed"') == 1


def test_a_timed_turn_past_its_time_counts_as_played(
    app: Flask, player: Player, published: int, clock: FrozenClock
) -> None:
    player.post(f"/puzzles/{published}/timed")
    assert player.move(published, "h0", "new").status_code == 200
    clock.moment += timedelta(minutes=10)  # nobody came back to the page
    page = player.client.get("/stats").get_data(as_text=True)
    assert (tile(page, "played"), tile(page, "solve-rate")) == ("1", "0%")


def test_a_day_off_ends_the_streak_but_an_unpublished_day_does_not(
    app: Flask, player: Player, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    # #4, #5 and #7 published; the site was down all through the day of #6
    for number, decoy in zip((4, 5, 7, 8), ("2H", "3D", "3H", "AD"), strict=True):
        store(app, variant(known_puzzle, decoy, "hard", f"cg{number}"), number)
    for number in (4, 5, 7):
        on_day(clock, number)
        result = solve_daily(player, number, known_puzzle)
    assert share_text(result).endswith("🔥3")
    on_day(clock, 9)  # #8 closed unplayed
    assert tile(player.client.get("/stats").get_data(as_text=True), "streak") == "🔥0"


def test_a_late_solve_in_another_time_zone_keeps_the_streak(
    app: Flask, player: Player, week: list[int], clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    on_day(clock, 5)
    solve_daily(player, 5, known_puzzle)
    # #6 (28 November) solved at 11:00 UTC on the 29th: still the 28th in Samoa's neighbour, UTC-11
    clock.moment = NOON + timedelta(hours=-1)
    assert player.client.get("/?tz=Pacific/Pago_Pago").status_code == 200
    result = solve_daily(player, 6, known_puzzle)
    assert share_text(result).endswith("🔥2")


def test_asking_for_a_transfer_code(app: Flask, player: Player, published: int) -> None:
    refused = player.post("/stats/code", htmx=False)
    assert refused.status_code == 409 and "Play a puzzle first" in refused.get_data(as_text=True)
    player.post("/puzzles/7/give-up")
    response = player.post("/stats/code", htmx=False)
    assert response.status_code == 303
    page = player.client.get("/stats").get_data(as_text=True)
    code = re.search(r'id="transfer-code">([A-Z0-9]{4}-[A-Z0-9]{4})<', page)
    assert code and not set(code.group(1)) & set("01IO")
    # asking again shows the same code
    player.post("/stats/code", htmx=False)
    assert code.group(1) in player.client.get("/stats").get_data(as_text=True)


def code_of(player: Player) -> str:
    player.post("/stats/code", htmx=False)
    found = re.search(r'id="transfer-code">([A-Z0-9-]+)<', player.client.get("/stats").get_data(as_text=True))
    assert found
    return found.group(1)


def test_a_new_browser_adopts_a_player_with_their_code(
    app: Flask, player: Player, week: list[int], clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    on_day(clock, 6)
    solve_daily(player, 6, known_puzzle)
    on_day(clock, 7)
    solve_daily(player, 7, known_puzzle)
    code = code_of(player)
    phone = Player(app.test_client())
    adopted = phone.post("/stats/adopt", htmx=False, code=code.lower().replace("-", " "))
    assert adopted.status_code == 303
    assert player_of(phone.client) == player_of(player.client)
    page = phone.client.get("/stats").get_data(as_text=True)
    assert "This browser now plays as the player of that code." in page
    assert tile(page, "streak") == "🔥2" and tile(page, "played") == "2"
    # the phone carries on the streak
    on_day(clock, 8)
    assert share_text(solve_daily(phone, 8, known_puzzle)).endswith("🔥3")


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("ABCD-2345", "No player has the code ABCD-2345: check it on the other device."),
        ("12", "'12' is not a transfer code: they have 8 letters and digits, like ABCD-2345"),
        ("ABCD-O0I1", "is not a transfer code"),
    ],
)
def test_a_wrong_code_is_refused(
    app: Flask, player: Player, published: int, typed: str, message: str
) -> None:
    player.post("/puzzles/7/give-up")
    before = player_of(player.client)
    refused = player.post("/stats/adopt", htmx=False, code=typed)
    assert refused.status_code == 422
    page = html.unescape(refused.get_data(as_text=True))
    assert message in page and 'aria-invalid="true"' in page
    assert player_of(player.client) == before


def test_a_used_code_is_refused(app: Flask, player: Player, published: int) -> None:
    player.post("/puzzles/7/give-up")
    code = code_of(player)
    assert Player(app.test_client()).post("/stats/adopt", htmx=False, code=code).status_code == 303
    late = Player(app.test_client())
    refused = late.post("/stats/adopt", htmx=False, code=code)
    assert refused.status_code == 422
    assert f"The code {code} was already used, on 29 November 2026" in html.unescape(
        refused.get_data(as_text=True)
    )
    assert player_of(late.client) is None


def test_a_browser_cannot_adopt_itself(app: Flask, player: Player, published: int) -> None:
    player.post("/puzzles/7/give-up")
    refused = player.post("/stats/adopt", htmx=False, code=code_of(player))
    assert refused.status_code == 422
    assert "this browser already is that player" in html.unescape(refused.get_data(as_text=True))


def test_adopting_merges_nothing_and_keeps_this_browsers_record_apart(
    app: Flask, player: Player, week: list[int], clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    on_day(clock, 6)
    solve_daily(player, 6, known_puzzle)
    code = code_of(player)
    laptop = Player(app.test_client())
    laptop.post("/puzzles/6/give-up")  # the laptop has a record of its own
    own = player_of(laptop.client)
    # first the laptop is told what happens, and nothing changes yet
    asked = laptop.post("/stats/adopt", htmx=False, code=code)
    assert asked.status_code == 200
    question = html.unescape(asked.get_data(as_text=True))
    assert f"Play as the player of {code}?" in question and "does not merge the two" in question
    assert "stays on the server exactly as it is" in question
    assert player_of(laptop.client) == own
    # then, confirmed, the laptop plays as the other player; each record is untouched
    done = laptop.post("/stats/adopt", htmx=False, code=code, confirm="yes")
    assert done.status_code == 303
    assert player_of(laptop.client) == player_of(player.client)
    assert attempt_count(app, own) == 1 and attempt_count(app, player_of(player.client)) == 1
    page = html.unescape(laptop.client.get("/stats").get_data(as_text=True))
    kept = re.search(r"kept apart under the code ([A-Z0-9]{4}-[A-Z0-9]{4})", page)
    assert kept and "was not merged" in page
    assert tile(page, "clean") == "1"  # the adopted player's solve, not the laptop's give-up
    # the left-behind record comes back with its own code
    back = Player(app.test_client())
    assert back.post("/stats/adopt", htmx=False, code=kept.group(1)).status_code == 303
    assert player_of(back.client) == own


def test_adopting_needs_the_csrf_token(app: Flask, client: FlaskClient, published: int) -> None:
    client.get("/stats")
    refused = client.post("/stats/adopt", data={"code": "ABCD-2345"})
    assert refused.status_code == 400
    assert "CSRF" in refused.get_data(as_text=True)


def test_codes_are_rate_limited(database_url: str, clock: FrozenClock, published: int) -> None:
    from tests.webapp.conftest import make_app

    limited = make_app(database_url, clock, RATELIMIT_ENABLED=True, TRANSFER_RATE_LIMIT="3 per minute")
    guesser = Player(limited.test_client())
    statuses = [guesser.post("/stats/adopt", htmx=False, code="ABCD-2345").status_code for _ in range(4)]
    assert statuses == [422, 422, 422, 429]


def test_todays_page_points_to_an_earlier_puzzle_still_open(
    app: Flask, player: Player, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    """Flown from Honolulu to Auckland: the local day is #8's, while #7 is open for hours yet."""
    for number, decoy in ((7, "3H"), (8, "AD")):
        store(app, variant(known_puzzle, decoy, "hard", f"ct{number}"), number)
    assert player.move(8, "h0", "new").status_code == 200  # a player with a record, so with a streak
    page = player.client.get("/?tz=Pacific/Auckland").get_data(as_text=True)
    assert "Tavolo #8" in page
    assert re.search(r'<a href="/puzzles/7">Puzzle #7</a> is still open for\s+\d+ h \d+ min', page), page
    player.post("/puzzles/7/give-up")
    assert "is still open for" not in player.client.get("/?tz=Pacific/Auckland").get_data(as_text=True)
    assert "is still open for" not in player.client.get("/puzzles/8").get_data(as_text=True)


def test_a_first_miss_on_an_earlier_puzzle_points_to_todays_not_to_tomorrow(
    app: Flask, player: Player, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    """In Auckland the day is #8's while #7 is still open: giving #7 up, the streak can start today."""
    for number, decoy in ((7, "3H"), (8, "AD")):
        store(app, variant(known_puzzle, decoy, "hard", f"ct{number}"), number)
    player.client.set_cookie(TZ_COOKIE, "Pacific/Auckland")
    assert "Tavolo #8" in player.client.get("/").get_data(as_text=True)
    earlier = player.post("/puzzles/7/give-up").get_data(as_text=True)
    assert "come back tomorrow" not in earlier
    assert 'daily puzzle: <a href="/" id="today-open">today\'s is still open</a>' in html.unescape(earlier)
    todays = player.post("/puzzles/8/give-up").get_data(as_text=True)
    assert "Your streak starts with your first solved daily puzzle: come back tomorrow." in todays
    assert "today-open" not in todays


def test_the_rating_is_drawn_over_time_from_the_first_puzzle(
    app: Flask, player: Player, published: int
) -> None:
    assert "rating-line" not in player.client.get("/stats").get_data(as_text=True)  # nothing rated yet
    player.post(f"/puzzles/{published}/give-up")
    page = player.client.get("/stats").get_data(as_text=True)
    # one rated puzzle: the line from where every player starts to the rating after it, on its day
    points = re.search(r'<polyline class="rating-line" [^>]*points="([^"]+)"', page)
    assert points and len(points.group(1).split()) == 2
    assert re.search(r'<text class="axis day-tick"[^>]*>29 Nov</text>', page)
    assert "Rating history on 29 November 2026: from 1300 to 1500" in page
