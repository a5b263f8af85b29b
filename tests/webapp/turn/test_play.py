"""The play pages and every move, good and bad."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

import generator
from tests.webapp.conftest import NOON, TODAY, FrozenClock, Player, attempts, csrf_token, make_app, store
from tests.webapp.playing import card_id, card_places, share_text, solve


def test_today_shows_the_puzzle_as_cards_and_the_goal(client: FlaskClient, published: int) -> None:
    page = client.get("/").get_data(as_text=True)
    assert "Tavolo #7" in page
    assert "Place <strong>5</strong> of your 6 cards" in page
    # each figure of the chip says what it is, and 0 decisions say nothing
    chip = (
        r'<summary><span class="chip tier-hard"><span class="chip-tier">Hard</span>\s*'
        r'<span class="chip-fact"><svg[^>]+>.+?</svg>chain 3</span></span></summary>'
    )
    assert re.search(chip, page)
    assert "take apart up to 3 melds of the table at once" in page  # the chip explains itself
    assert 'data-src="/tour"' in page  # where the first visit's walkthrough comes from
    assert "Tap a card, then a meld" in page  # no verdict before the first move
    places = card_places(page)
    assert sorted(p for p in places.values() if p == "hand") == ["hand"] * 6
    assert len([p for p in places.values() if p != "hand"]) == 13
    assert (
        'aria-label="9♠' in page and 'class="card black spades' in page and 'class="card red hearts' in page
    )


def test_pages_use_no_inline_script_or_style(client: FlaskClient, published: int) -> None:
    response = client.get("/")
    page = response.get_data(as_text=True)
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert re.search(r"<script(?![^>]*\ssrc=)", page) is None
    assert " style=" not in page and "<style" not in page
    assert " on" + "click=" not in page


def test_the_solution_is_not_on_the_page_before_the_end(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle
) -> None:
    page = client.get("/").get_data(as_text=True)
    assert "The solution" not in page
    # only the 13 table cards and the 6 hand cards are drawn: no solution table
    assert page.count('class="card ') == 19


def test_the_puzzle_by_number_is_open_while_its_day_lasts(
    client: FlaskClient, published: int, clock: FrozenClock
) -> None:
    assert client.get("/puzzles/7").status_code == 200
    future = client.get("/puzzles/9")
    assert future.status_code == 404
    assert "Puzzle #9 is not out yet." in future.get_data(as_text=True)
    clock.moment = NOON.replace(day=30, hour=12)
    closed = client.get("/puzzles/7")
    assert closed.status_code == 410
    assert "has closed" in closed.get_data(as_text=True)


def test_the_time_zone_picks_the_players_day(
    client: FlaskClient, app: Flask, known_puzzle: generator.Puzzle
) -> None:
    from tests.webapp.conftest import store, variant

    store(app, known_puzzle, 7)
    store(app, variant(known_puzzle, "3D", "hard", "cy3"), 8)
    assert "Tavolo #7" in client.get("/").get_data(as_text=True)
    # at noon UTC it is already the 30th in Kiribati
    assert "Tavolo #8" in client.get("/?tz=Pacific/Kiritimati").get_data(as_text=True)
    client.set_cookie("tz", "Pacific/Kiritimati")
    assert "Tavolo #8" in client.get("/").get_data(as_text=True)
    # as the page's script writes it, with encodeURIComponent
    client.set_cookie("tz", "Pacific%2FKiritimati")
    assert "Tavolo #8" in client.get("/").get_data(as_text=True)
    client.set_cookie("tz", "Not/AZone")
    assert "Tavolo #7" in client.get("/").get_data(as_text=True)
    bad = client.get("/?tz=Not/AZone")
    assert bad.status_code == 400
    assert "unknown time zone" in bad.get_data(as_text=True)


def test_before_the_launch_the_home_page_says_when(client: FlaskClient, clock: FrozenClock) -> None:
    clock.moment = NOON.replace(month=10)
    page = client.get("/")
    assert page.status_code == 200
    assert "Tavolo starts on Monday, 23 November 2026" in page.get_data(as_text=True)


def test_help_draws_the_worked_examples(client: FlaskClient) -> None:
    page = client.get("/help").get_data(as_text=True)
    assert "A lonely Q♣ finds a set" in page
    assert page.count('class="card') > 20


def test_htmx_is_served_from_node_modules(client: FlaskClient) -> None:
    script = client.get("/vendor/htmx.min.js")
    assert script.status_code == 200
    assert b"htmx" in script.data[:2000]
    assert client.get("/vendor/jquery.js").status_code == 404


def test_a_move_answers_with_the_checked_board(app: Flask, player: Player, published: int) -> None:
    page = player.client.get("/").get_data(as_text=True)
    nine = card_id(page, "9♠")
    response = player.move(TODAY, nine, "new", "hand")
    assert response.status_code == 200
    board = response.get_data(as_text=True)
    assert board.startswith('<section id="board"')  # only the fragment, for htmx to swap in
    assert card_places(board)[nine] == "4"
    assert "meld-incomplete" in board and "needs 2 more cards" in board
    assert "on track" in board
    assert attempts(app)[0][2:] == ("playing", 1)


def test_the_step_check_sees_off_track_and_dead_ends(player: Player, published: int) -> None:
    page = player.client.get("/").get_data(as_text=True)
    two = card_id(page, "2♦")
    off = player.move(TODAY, two, "new").get_data(as_text=True)
    assert "dead end: no valid table holds 2♦ with these cards" in html.unescape(off)
    assert "track-dead-end" in off
    back = player.move(TODAY, two, "hand").get_data(as_text=True)
    assert "on track" in back


SHORT_RUN = generator.Puzzle(
    id="cs1", rules="classic", table=(("3S", "4S", "5S", "6S"),), hand=("7S", "6H", "6D"),
    max_placed=2, laid=("6H", "6D"), solution=(("3S", "4S", "5S"), ("6S", "6H", "6D")),
    depth=1, chain=1, tier="easy", themes=("new-meld", "end-card"), hand_size=3, decoys=1, live_decoys=1,
)  # fmt: skip
"""The 6♠ leaves the run for 6♥ 6♦; 7♠ on the run keeps it there, and only one card can be placed."""


def test_the_step_check_says_off_track_with_the_most_still_placeable(app: Flask, player: Player) -> None:
    store(app, SHORT_RUN, TODAY)
    seven = card_id(player.client.get("/").get_data(as_text=True), "7♠")
    off = player.move(TODAY, seven, "0").get_data(as_text=True)
    assert "track-off-track" in off
    assert "off track: at most 1 now" in off
    back = player.move(TODAY, seven, "hand").get_data(as_text=True)
    assert "on track" in back


def test_the_step_check_counts_what_is_still_reachable(player: Player, published: int) -> None:
    # K♥ on the Q♥ set would make a meld no valid table keeps: laying K♥ and 2♦... use Q♦ in a new meld
    page = player.client.get("/").get_data(as_text=True)
    qd = [
        i for i in re.findall(r'data-card="(h\d+)" data-from="hand" draggable="true"\s+aria-label="Q♦', page)
    ]
    assert qd
    board = player.move(TODAY, qd[0], "new").get_data(as_text=True)
    assert "on track" in board  # Q♦ belongs to the best play


def test_solving_ends_with_the_share_text(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle
) -> None:
    solve(player, TODAY, known_puzzle)
    page = player.client.get("/").get_data(as_text=True)
    assert "End turn" in page and 'id="end-turn" disabled' not in page
    staircase = generator.THEMES["staircase"].title
    assert "staircase" in known_puzzle.themes and staircase not in page  # themes would give the trick away
    result = player.post(f"/puzzles/{TODAY}/end").get_data(as_text=True)
    assert "Solved!" in result
    assert "Themes:" in result and staircase in result
    moves = attempts(app)[0][3]
    # the streak of one: #7 is the first daily puzzle this player solved
    assert share_text(result) == f"Tavolo #7 ⛓3 ✅ 5/5 · {moves} moves · 💡0 · 🔥1"
    # the share carries the puzzle's own address, absolute, for the share sheet or the copy
    assert f'data-share="share-text" data-share-url="http://localhost/puzzles/{TODAY}"' in result
    assert f'id="share-link" href="http://localhost/puzzles/{TODAY}"' in result
    assert 'class="countdown"' in result and "12 h 00 min" in result
    assert attempts(app)[0][2] == "solved"
    # the turn is over: no more moves
    refused = player.move(TODAY, "h0", "new")
    assert refused.status_code == 409
    assert "finished" in refused.get_data(as_text=True)


def test_ending_below_the_maximum_is_a_miss_with_the_solution(
    app: Flask, player: Player, published: int
) -> None:
    page = player.client.get("/").get_data(as_text=True)
    # 8♣ extends the clubs run: a valid table placing 1 of 5
    player.move(TODAY, card_id(page, "8♣"), "3")
    result = player.post(f"/puzzles/{TODAY}/end").get_data(as_text=True)
    assert "You placed 1; 5 was possible" in result
    assert "The solution" in result
    assert "❌ 1/5" in result
    assert attempts(app)[0][2] == "missed"


def test_end_turn_is_refused_while_a_meld_is_invalid(app: Flask, player: Player, published: int) -> None:
    page = player.client.get("/").get_data(as_text=True)
    player.move(TODAY, card_id(page, "2♦"), "new")
    before = attempts(app)
    refused = player.post(f"/puzzles/{TODAY}/end")
    assert refused.status_code == 422
    assert "meld 5 is not valid yet: needs 2 more cards" in refused.get_data(as_text=True)
    assert refused.headers["HX-Retarget"] == "#notice"
    assert attempts(app) == before


def test_end_turn_needs_a_card_from_the_hand(app: Flask, player: Player, published: int) -> None:
    page = player.client.get("/").get_data(as_text=True)
    eight = card_id(page, "8♣")
    player.move(TODAY, eight, "3")
    player.move(TODAY, eight, "hand")
    refused = player.post(f"/puzzles/{TODAY}/end")
    assert refused.status_code == 422
    assert "no card from the hand is on the table" in refused.get_data(as_text=True)


def test_give_up_restores_the_table_and_shows_the_solution(
    app: Flask, player: Player, published: int
) -> None:
    page = player.client.get("/").get_data(as_text=True)
    player.move(TODAY, card_id(page, "10♥"), "new")
    result = player.post(f"/puzzles/{TODAY}/give-up").get_data(as_text=True)
    assert "You gave up" in result and "The solution" in result
    assert "🏳️ 0/5" in result
    # a first miss is greeted with what a streak is, not with "Streak 0 · best 0"
    assert "Your streak starts with your first solved daily puzzle" in result and "Streak 0" not in result
    status = attempts(app)[0]
    assert status[2] == "gave-up"
    assert status[1] == [
        ["t0", "t1", "t2"],
        ["t3", "t4", "t5"],
        ["t6", "t7", "t8"],
        ["t9", "t10", "t11", "t12"],
    ]


def test_undo_and_reset(app: Flask, player: Player, published: int) -> None:
    page = player.client.get("/").get_data(as_text=True)
    nine = card_id(page, "9♠")
    ten = card_id(page, "10♠")
    player.move(TODAY, nine, "new")
    player.move(TODAY, ten, "4")
    assert attempts(app)[0][1][-1] == [nine, ten]
    player.post(f"/puzzles/{TODAY}/undo")
    assert attempts(app)[0][1][-1] == [nine]
    player.post(f"/puzzles/{TODAY}/reset")
    assert attempts(app)[0][1] == [
        ["t0", "t1", "t2"],
        ["t3", "t4", "t5"],
        ["t6", "t7", "t8"],
        ["t9", "t10", "t11", "t12"],
    ]
    # a reset can be undone too
    player.post(f"/puzzles/{TODAY}/undo")
    assert attempts(app)[0][1][-1] == [nine]
    assert attempts(app)[0][3] == 1  # the undone move is not counted; reset and undo are no moves


@pytest.mark.parametrize(
    ("form", "status", "message"),
    [
        ({"card": "t0", "to": "hand"}, 422, "no table card may go to the hand"),
        ({"card": "h0", "to": "hand"}, 422, "already in the hand"),
        ({"card": "t0", "to": "0"}, 422, "already in meld 1"),
        ({"card": "h99", "to": "0"}, 422, "there is no card 'h99'"),
        ({"card": "h0", "to": "17"}, 422, "there is no meld 18"),
        ({"card": "h0", "to": "up"}, 422, "'up' is not a meld"),
        ({"card": "h0", "to": "0", "from": "2"}, 422, "not where the page showed it"),
        ({"card": "h0"}, 400, "a move needs a card and where it goes"),
        ({}, 400, "a move needs a card and where it goes"),
    ],
)
def test_bad_moves_are_refused_and_store_nothing(
    app: Flask, player: Player, published: int, form: dict[str, str], status: int, message: str
) -> None:
    response = player.post(f"/puzzles/{TODAY}/move", **form)
    assert response.status_code == status
    assert message in html.unescape(response.get_data(as_text=True))
    assert attempts(app) == []


def test_undo_with_nothing_to_undo_is_refused(app: Flask, player: Player, published: int) -> None:
    response = player.post(f"/puzzles/{TODAY}/undo")
    assert response.status_code == 422
    assert "nothing to undo" in response.get_data(as_text=True)
    assert attempts(app) == []


def test_moves_on_closed_or_future_puzzles_are_refused(
    app: Flask, player: Player, published: int, clock: FrozenClock
) -> None:
    assert player.move(9, "h0", "new").status_code == 404
    clock.moment = NOON.replace(day=30, hour=12)
    assert player.move(TODAY, "h0", "new").status_code == 410
    assert attempts(app) == []


def test_every_post_needs_the_csrf_token(app: Flask, client: FlaskClient, published: int) -> None:
    client.get("/")
    for path in ("move", "undo", "reset", "end", "give-up"):
        response = client.post(f"/puzzles/{TODAY}/{path}", data={"card": "h0", "to": "new"})
        assert response.status_code == 400
        assert "CSRF" in response.get_data(as_text=True)
    wrong = client.post(
        f"/puzzles/{TODAY}/move", data={"card": "h0", "to": "new"}, headers={"X-CSRFToken": "forged"}
    )
    assert wrong.status_code == 400
    assert attempts(app) == []


def test_a_tampered_cookie_names_nobody(app: Flask, player: Player, published: int) -> None:
    player.move(TODAY, "h0", "new")
    cookie = player.client.get_cookie("tavolo")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax"
    player.client.set_cookie("tavolo", cookie.value[:-3] + "abc")
    response = player.move(TODAY, "h1", "new")
    assert response.status_code == 400  # the CSRF token lived in the session the forgery lost
    assert len(attempts(app)) == 1 and attempts(app)[0][3] == 1


def test_forms_work_without_javascript(app: Flask, player: Player, published: int) -> None:
    player.move(TODAY, "h0", "new")
    response = player.post(f"/puzzles/{TODAY}/undo", htmx=False, csrf_token=player.token)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/puzzles/{TODAY}")


def test_an_attempt_survives_a_reload_and_a_restart(
    app: Flask, player: Player, published: int, database_url: str, clock: FrozenClock
) -> None:
    page = player.client.get("/").get_data(as_text=True)
    nine = card_id(page, "9♠")
    player.move(TODAY, nine, "new")
    assert card_places(player.client.get("/").get_data(as_text=True))[nine] == "4"
    restarted = make_app(database_url, clock)
    other = restarted.test_client()
    other.set_cookie("tavolo", player.client.get_cookie("tavolo").value)
    assert card_places(other.get("/").get_data(as_text=True))[nine] == "4"


def test_the_untouched_page_is_shared_but_every_visitor_gets_their_own_token(
    app: Flask, published: int
) -> None:
    first, second = app.test_client(), app.test_client()
    for visitor in (first, second):
        visitor.get("/token")  # a session: today's page then carries its own token
    tokens = [csrf_token(visitor, "/") for visitor in (first, second)]
    assert tokens[0] != tokens[1]
    page = second.get("/").get_data(as_text=True)
    assert "__csrf" not in page
    moved = second.post(
        f"/puzzles/{TODAY}/move", data={"card": "h0", "to": "new"}, headers={"X-CSRFToken": tokens[1]}
    )
    assert moved.status_code == 303
    forged = second.post(
        f"/puzzles/{TODAY}/move", data={"card": "h1", "to": "new"}, headers={"X-CSRFToken": tokens[0]}
    )
    assert forged.status_code == 400
    assert attempts(app)[0][3] == 1


def test_a_number_with_leading_zeros_redirects_to_the_one_address(
    client: FlaskClient, published: int
) -> None:
    moved = client.get(f"/puzzles/000{published}?tz=Europe/Rome")
    assert moved.status_code == 308
    assert moved.headers["Location"] == f"/puzzles/{published}?tz=Europe/Rome"
    assert client.get(f"/api/puzzles/0{published}").headers["Location"] == f"/api/puzzles/{published}"
    assert client.get(f"/puzzles/{published}").status_code == 200


def test_end_turn_short_of_the_maximum_asks_first(player: Player, published: int) -> None:
    page = player.client.get("/").get_data(as_text=True)
    assert 'id="end-turn" aria-disabled="true"' in page
    assert "place at least one card from your hand on the table first" in page
    board = player.move(TODAY, card_id(page, "8♣"), "3").get_data(as_text=True)
    assert '<details class="confirm end-short">' in board
    assert "You can still place 4 more cards. End anyway?" in board


def test_the_given_up_solution_draws_every_meld_number_it_names(
    app: Flask, player: Player, published: int
) -> None:
    result = player.post(f"/puzzles/{TODAY}/give-up").get_data(as_text=True)
    solution = result[result.index('class="solution-title"') :]
    given = solution[solution.index("given-table") : solution.index("Step by step")]
    final = solution[solution.index("final-table") :]
    drawn_given = re.findall(r'<span class="meld-number">(\d+)</span>', given)
    drawn_final = re.findall(r'<span class="meld-number">(\d+)</span>', final)
    # the table the puzzle gave, numbered 1-4 in its order, its cards drawn beside each number
    assert drawn_given == ["1", "2", "3", "4"]
    first = given[: given.index('<span class="meld-number">2</span>')]
    assert re.findall(r'aria-label="([^"]+)">\s*<span class="corner"', first) == ["10♠", "10♥", "10♦"]
    steps = solution[solution.index("Step by step") : solution.index("final-table")]
    named = set(re.findall(r"meld (\d+)", re.sub(r"<[^>]+>|&nbsp;|\u00a0|\u2060", " ", steps)))
    assert named, "the steps name no meld"
    # every meld the steps name is drawn under its number: a meld of the table given, or a new one
    assert named <= set(drawn_given) | set(drawn_final)
