"""The archive: every past daily puzzle, marked for the player, playable once closed, never for the streak."""

from __future__ import annotations

import html
import re
from datetime import timedelta

from flask import Flask

import generator
from tests.webapp.conftest import NOON, FrozenClock, Player, attempts
from tests.webapp.players.test_stats import on_day, solve_daily, tile, week
from tests.webapp.playing import share_text, solve

__all__ = ["week"]  # the fixture, shared with the stats tests


def marks(page: str) -> dict[int, str]:
    return {int(n): mark for n, mark in re.findall(r'#(\d+)</span>.*?class="mark mark-([\w-]+)"', page, re.S)}


def test_the_archive_lists_every_puzzle_with_the_players_mark(
    app: Flask, player: Player, week: list[int], clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    on_day(clock, 4)
    solve_daily(player, 4, known_puzzle)
    on_day(clock, 5)
    solve_daily(player, 5, known_puzzle, hints=2)
    on_day(clock, 6)
    player.post("/puzzles/6/give-up")
    on_day(clock, 7)
    player.move(7, "h0", "new")
    page = player.client.get("/archive").get_data(as_text=True)
    # newest first: #8 is open somewhere (it is the 30th in Kiribati), #7 is in progress
    assert marks(page) == {8: "ahead", 7: "playing", 6: "gave-up", 5: "solved", 4: "clean"}
    assert ">given up<" in page and ">clean<" in page and ">in progress<" in page
    assert ">open in time zones ahead<" in page and "today's" not in page
    assert 'href="/puzzles/8"' in page and 'href="/puzzles/7"' in page and 'href="/archive/6"' in page


def test_only_the_players_own_day_is_marked_today(
    app: Flask, player: Player, week: list[int], clock: FrozenClock
) -> None:
    on_day(clock, 7)
    # noon of the 29th in UTC: #7 is today's, #8 already open in Kiribati
    here = marks(player.client.get("/archive").get_data(as_text=True))
    assert (here[8], here[7]) == ("ahead", "today")
    # in Kiribati it is the 30th already: #8 is today's, and #7 still open (in zones behind)
    player.client.set_cookie("tz", "Pacific%2FKiritimati")
    there = player.client.get("/archive").get_data(as_text=True)
    assert (marks(there)[8], marks(there)[7]) == ("today", "behind")
    assert list(marks(there).values()).count("today") == 1


def test_a_newcomer_sees_every_past_puzzle_unplayed(
    app: Flask, player: Player, week: list[int], clock: FrozenClock
) -> None:
    on_day(clock, 10)
    page = player.client.get("/archive").get_data(as_text=True)
    assert marks(page) == {8: "unplayed", 7: "unplayed", 6: "unplayed", 5: "unplayed", 4: "unplayed"}
    assert 'href="/archive/4"' in page
    # the list starts at #4, not #1: it says why
    start = html.unescape(page.split('id="archive-start">')[1].split("</p>")[0])
    assert "#1 on 23 November 2026" in start and "published on this site is #4" in start


def test_an_archive_play_never_touches_the_streak(
    app: Flask, player: Player, week: list[int], clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    on_day(clock, 7)
    solve_daily(player, 7, known_puzzle)
    assert tile(player.client.get("/stats").get_data(as_text=True), "streak") == "🔥1"
    # #5 and #6 closed long ago: solve them from the archive
    for number in (5, 6):
        page = player.client.get(f"/archive/{number}").get_data(as_text=True)
        assert "archive" in page and f"Tavolo #{number}" in page
        moves = solve(player, number, known_puzzle, base="/archive")
        result = player.post(f"/archive/{number}/end").get_data(as_text=True)
        assert share_text(result) == f"Tavolo #{number} (archive) ⛓3 ✅ 5/5 · {moves} moves · 💡0"
        assert "🔥" not in share_text(result)
    stats = player.client.get("/stats").get_data(as_text=True)
    assert (tile(stats, "streak"), tile(stats, "best-streak"), tile(stats, "played")) == ("🔥1", "1", "3")
    assert marks(player.client.get("/archive").get_data(as_text=True))[5] == "clean"


def test_a_turn_begun_while_open_and_ended_in_the_archive_does_not_count(
    app: Flask, player: Player, week: list[int], clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    on_day(clock, 6)
    solve_daily(player, 6, known_puzzle)
    on_day(clock, 7)
    player.move(7, "h0", "new")
    player.move(7, "h0", "hand")
    on_day(clock, 9)
    assert player.client.get("/puzzles/7").status_code == 410
    solve(player, 7, known_puzzle, base="/archive")
    player.post("/archive/7/end")
    assert attempts(app)[-1][2] == "solved"
    assert tile(player.client.get("/stats").get_data(as_text=True), "streak") == "🔥0"


def test_an_archive_result_offers_a_challenge_link(
    app: Flask, player: Player, week: list[int], clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    moves = solve(player, 5, known_puzzle, base="/archive")
    result = html.unescape(player.post("/archive/5/end").get_data(as_text=True))
    assert (
        f"Can you solve this Tavolo puzzle in {moves} moves? http://localhost/archive/5?beat={moves}"
        in result
    )
    friend = Player(app.test_client())
    page = friend.client.get(f"/archive/5?beat={moves}").get_data(as_text=True)
    assert f"A friend solved this in {moves} moves. Can you match it?" in page


def test_an_open_puzzle_is_played_as_the_daily_one(
    app: Flask, player: Player, week: list[int], clock: FrozenClock
) -> None:
    on_day(clock, 7)
    redirect = player.client.get("/archive/7")
    assert redirect.status_code == 303 and redirect.headers["Location"].endswith("/puzzles/7")
    refused = player.post("/archive/7/move", card="h0", to="new")
    assert refused.status_code == 409
    assert "still open: play it as the daily puzzle" in refused.get_data(as_text=True)


def test_puzzles_never_published_or_not_out_yet_are_not_found(
    app: Flask, player: Player, week: list[int], clock: FrozenClock
) -> None:
    assert player.client.get("/archive/2").status_code == 404  # the site was not up that day
    assert player.client.get("/archive/30").status_code == 404
    assert player.post("/archive/2/move", card="h0", to="new").status_code == 404
    assert attempts(app) == []


def test_the_archive_pages_back_through_older_puzzles(
    app: Flask, player: Player, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    from tests.webapp.conftest import DECOY_PAIRS, store, variant
    from webapp.turn import archive

    clock.moment = NOON + timedelta(days=70)
    for number in range(1, archive.PER_PAGE + 6):
        store(app, variant(known_puzzle, " ".join(DECOY_PAIRS[number]), "hard", f"ca{number}"), number)
    first = player.client.get("/archive").get_data(as_text=True)
    assert len(marks(first)) == archive.PER_PAGE and max(marks(first)) == archive.PER_PAGE + 5
    older = re.search(r'href="(/archive\?before=\d+)">Older puzzles', first)
    assert older
    rest = player.client.get(older.group(1)).get_data(as_text=True)
    assert sorted(marks(rest)) == [1, 2, 3, 4, 5] and "Older puzzles" not in rest
