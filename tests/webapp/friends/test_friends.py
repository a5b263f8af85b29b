"""Friends' tables: made and joined by a link, names checked and escaped, each puzzle's results shown
to a member only once they have finished it, leaving, a revoked link, and the player's own data."""

from __future__ import annotations

import re
from datetime import timedelta

from flask import Flask
from sqlalchemy import select

import generator
from tests.webapp.conftest import LAUNCH, TODAY, FrozenClock, Player
from tests.webapp.playing import solve
from webapp import models
from webapp.db import database
from webapp.players import records
from webapp.schedule.days import Calendar


def make(player: Player, table: str = "Family", name: str = "Anna") -> str:
    """Make a table; returns its page's path."""
    answer = player.post("/friends", htmx=False, table=table, name=name)
    assert answer.status_code == 303, answer.get_data(as_text=True)
    path = str(answer.headers["Location"])
    assert re.fullmatch(r"/friends/\d+", path)
    return path


def join_path(player: Player, table_path: str) -> str:
    page = player.client.get(table_path).get_data(as_text=True)
    found = re.search(r'<code id="friend-link">https?://[^/]+(/friends/join/[\w-]+)</code>', page)
    assert found, "the table page shows its link"
    return found.group(1)


def newcomer(app: Flask) -> Player:
    return Player(app.test_client())


def test_a_table_is_made_and_joined_by_its_link(app: Flask, player: Player) -> None:
    path = make(player)
    link = join_path(player, path)
    assert len(link.rsplit("/", 1)[1]) == 43  # 256 random bits
    friend = newcomer(app)
    invitation = friend.client.get(link)
    assert invitation.status_code == 200 and "Join Family" in invitation.get_data(as_text=True)
    joined = friend.post(link, htmx=False, name="Bruno")
    assert joined.status_code == 303 and joined.headers["Location"] == path
    page = friend.client.get(path).get_data(as_text=True)
    assert "Anna" in page and "Bruno" in page
    # the link again, once in: straight to the table
    assert friend.client.get(link).headers["Location"] == path
    mine = player.client.get("/friends").get_data(as_text=True)
    assert "Family" in mine and "2 members" in mine


def test_names_are_checked_and_shown_escaped(app: Flask, player: Player) -> None:
    path = make(player, name="<b>Anna</b>")
    page = player.client.get(path).get_data(as_text=True)
    assert "&lt;b&gt;Anna&lt;/b&gt;" in page and "<b>Anna</b>" not in page
    link = join_path(player, path)
    friend = newcomer(app)
    too_long = friend.post(link, htmx=False, name="x" * 25)
    assert too_long.status_code == 422 and "at most 24 characters" in too_long.get_data(as_text=True)
    empty = friend.post(link, htmx=False, name="   ")
    assert empty.status_code == 422 and "may not be empty" in empty.get_data(as_text=True)
    hidden = friend.post(link, htmx=False, name="Bru\u200bno")
    assert hidden.status_code == 422 and "invisible characters" in hidden.get_data(as_text=True)
    taken = friend.post(link, htmx=False, name="<B>ANNA</B>")
    assert taken.status_code == 409 and "pick another name" in taken.get_data(as_text=True)
    assert friend.post(link, htmx=False, name=" Bruno   Rossi ").status_code == 303
    assert "Bruno Rossi" in friend.client.get(path).get_data(as_text=True)
    bad_table = player.post("/friends", htmx=False, table="t" * 41, name="Anna")
    assert bad_table.status_code == 422 and "at most 40 characters" in bad_table.get_data(as_text=True)


def test_a_member_renames_themselves_checked_as_when_joining(app: Flask, player: Player) -> None:
    path = make(player)
    friend = newcomer(app)
    assert friend.post(join_path(player, path), htmx=False, name="Bruno").status_code == 303
    renamed = friend.post(f"{path}/name", htmx=False, name="  Bruno   R. ")
    assert renamed.status_code == 303 and renamed.headers["Location"] == f"{path}#you"
    page = player.client.get(path).get_data(as_text=True)
    assert "Bruno R." in page and ">Bruno<" not in page
    # another member's name, in any case, is refused and the page keeps what was typed
    taken = friend.post(f"{path}/name", htmx=False, name="ANNA")
    answer = taken.get_data(as_text=True)
    assert taken.status_code == 409 and "pick another name" in answer and 'value="ANNA"' in answer
    # one's own name in another case is one's own
    assert friend.post(f"{path}/name", htmx=False, name="bruno r.").status_code == 303
    assert "bruno r." in player.client.get(path).get_data(as_text=True)
    empty = friend.post(f"{path}/name", htmx=False, name=" ")
    assert empty.status_code == 422 and "may not be empty" in empty.get_data(as_text=True)
    stranger = newcomer(app).post(f"{path}/name", htmx=False, name="Mallory")
    assert stranger.status_code == 404
    assert "Mallory" not in player.client.get(path).get_data(as_text=True)


def test_results_show_only_once_the_viewer_has_finished_the_puzzle(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle
) -> None:
    path = make(player)
    friend = newcomer(app)
    assert friend.post(join_path(player, path), htmx=False, name="Bruno").status_code == 303
    moves = solve(player, TODAY, known_puzzle)
    assert player.post(f"/puzzles/{TODAY}/end").status_code == 200
    waiting = friend.client.get(path).get_data(as_text=True)
    assert 'id="locked"' in waiting and "1 member has finished" in waiting
    assert "friend-results" not in waiting and "✅" not in waiting.split('id="week"')[0]
    assert "🔒" in waiting  # the week's column of today, hidden from Bruno
    # Anna sees that Bruno has not finished, and her own result
    seen = player.client.get(path).get_data(as_text=True)
    assert "friend-results" in seen and "not finished yet" in seen
    assert f"<td>{moves}</td>" in seen
    # Bruno gives up: now he sees Anna's solve, her moves and her streak
    friend.post(f"/puzzles/{TODAY}/move", card="h0", to="new")
    assert friend.post(f"/puzzles/{TODAY}/give-up").status_code == 200
    after = friend.client.get(path).get_data(as_text=True)
    rows = re.findall(
        r"<tr[^>]*>\s*<th scope=\"row\" class=\"friend-name\">(\w+)", after.split('id="week"')[0]
    )
    assert rows == ["Anna", "Bruno"]  # the solve first
    assert f"<td>{moves}</td>" in after and "5/5" in after and "0/5" in after


def test_an_archive_play_is_not_the_daily(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    path = make(player)
    clock.moment += timedelta(days=3)  # puzzle 7 closed; today is #10, not published: the table still shows
    player.post(f"/archive/{TODAY}/move", card="h0", to="new")
    assert player.post(f"/archive/{TODAY}/give-up").status_code == 200
    page = player.client.get(path).get_data(as_text=True)
    assert "Today: puzzle #10" in page
    week = page.split('id="week"')[1].split("</table>")[0]
    # Anna has seen #7 (from the archive), so its column shows: no daily result there
    assert "#7" in week and "week-none" in week and "week-missed" not in week


def test_leaving_takes_the_name_off_and_the_last_one_out_deletes_the_table(
    app: Flask, player: Player
) -> None:
    path = make(player)
    friend = newcomer(app)
    link = join_path(player, path)
    assert friend.post(link, htmx=False, name="Bruno").status_code == 303
    assert friend.post(f"{path}/leave", htmx=False).status_code == 303
    assert "Bruno" not in player.client.get(path).get_data(as_text=True)
    gone = friend.client.get(path)
    assert gone.status_code == 404 and "You are not at this friends" in gone.get_data(as_text=True)
    assert friend.client.post(f"{path}/leave", data={}).status_code == 400  # no CSRF token
    assert player.post(f"{path}/leave", htmx=False).status_code == 303
    with app.app_context(), database().reader() as session:
        assert session.scalars(select(models.FriendGroup)).all() == []
        assert session.scalars(select(models.FriendLink)).all() == []
    assert friend.client.get(link).status_code == 404


def test_the_keeper_replaces_the_link_and_the_old_one_says_so(app: Flask, player: Player) -> None:
    path = make(player)
    old = join_path(player, path)
    friend = newcomer(app)
    assert friend.post(old, htmx=False, name="Bruno").status_code == 303
    refused = friend.post(f"{path}/revoke", htmx=False)
    assert refused.status_code == 403 and "keeper" in refused.get_data(as_text=True)
    assert player.post(f"{path}/revoke", htmx=False).status_code == 303
    new = join_path(player, path)
    assert new != old
    late = newcomer(app)
    stale = late.client.get(old)
    assert stale.status_code == 410 and "no longer valid" in stale.get_data(as_text=True)
    assert late.post(old, htmx=False, name="Carla").status_code == 410
    assert late.post(new, htmx=False, name="Carla").status_code == 303
    assert "Bruno" in player.client.get(path).get_data(as_text=True)  # the members stay
    # the keeper leaves: the next member keeps the link
    assert player.post(f"{path}/leave", htmx=False).status_code == 303
    assert friend.post(f"{path}/revoke", htmx=False).status_code == 303


def test_strangers_and_bad_links_get_a_readable_4xx(app: Flask, player: Player) -> None:
    path = make(player)
    stranger = newcomer(app)
    assert stranger.client.get(path).status_code == 404
    assert stranger.post(f"{path}/revoke", htmx=False).status_code == 404
    unknown = stranger.client.get("/friends/join/nothing-like-a-token")
    assert unknown.status_code == 404 and "not valid" in unknown.get_data(as_text=True)
    assert stranger.client.get("/friends/999999").status_code == 404
    # a number past the column's range is no table either (SQLite and PostgreSQL refuse to compare it)
    for beyond in ("/friends/99999999999999999999", "/friends/2147483648"):
        assert stranger.client.get(beyond).status_code == 404
        for action in ("name", "leave", "revoke"):
            assert stranger.post(f"{beyond}/{action}", htmx=False, name="Bea").status_code == 404


def test_the_export_holds_the_tables_and_forgetting_leaves_them(app: Flask, player: Player) -> None:
    path = make(player, table="Office")
    friend = newcomer(app)
    assert friend.post(join_path(player, path), htmx=False, name="Bruno").status_code == 303
    make(friend, table="Just me", name="B")
    record = friend.client.get("/me/export.json").get_json()
    assert [(row["table"], row["name"]) for row in record["friends_tables"]] == [
        ("Office", "Bruno"),
        ("Just me", "B"),
    ]
    assert friend.post("/me/forget", htmx=False, confirm="erase").status_code == 303
    assert "Bruno" not in player.client.get(path).get_data(as_text=True)
    with app.app_context(), database().reader() as session:
        # Office keeps Anna; Just me had nobody else and went
        assert [group.name for group in session.scalars(select(models.FriendGroup))] == ["Office"]
        assert len(session.scalars(select(models.FriendMember)).all()) == 1


def test_a_player_has_a_limited_number_of_tables(app: Flask, player: Player) -> None:
    app.config["FRIENDS_GROUPS_MOST"] = 2
    make(player, table="One")
    make(player, table="Two")
    third = player.post("/friends", htmx=False, table="Three", name="Anna")
    assert third.status_code == 409 and "leave one first" in third.get_data(as_text=True)


def test_the_week_begins_at_the_sites_first_daily_puzzle(app: Flask, player: Player, published: int) -> None:
    # the site's first daily puzzle is today's #7: #1 to #6 were never published here, nobody could
    # have played them, and the week shows none of them as "not played"
    page = player.client.get(make(player)).get_data(as_text=True)
    week = page[page.index('class="friend-week"') :]
    assert re.findall(r'<th scope="col">#(\d+)</th>', week) == [str(published)]


def test_every_members_streak_is_read_at_once_as_one_by_one(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    path = make(player)
    friend = newcomer(app)
    assert friend.post(join_path(player, path), htmx=False, name="Bruno").status_code == 303
    solve(player, TODAY, known_puzzle)
    assert player.post(f"/puzzles/{TODAY}/end").status_code == 200
    friend.post(f"/puzzles/{TODAY}/move", card="h0", to="new")
    assert friend.post(f"/puzzles/{TODAY}/give-up").status_code == 200
    dates = Calendar(LAUNCH)
    with app.app_context(), database().reader() as session:
        ids = [
            *session.scalars(select(models.FriendMember.player_id).order_by(models.FriendMember.id)),
            "x" * 32,
        ]
        together = records.player_streaks(session, ids, dates, clock.moment)
        alone = {each: records.player_streak(session, each, dates, clock.moment) for each in ids}
    assert together == alone and [streak.current for streak in together.values()] == [1, 0, 0]
