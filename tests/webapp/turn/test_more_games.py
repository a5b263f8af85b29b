"""Training one tap away: today's page links to practice, the rush, the streak run, review and friends,
and every result offers the next game before the countdown (issue 40, item 3)."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.webapp.conftest import TODAY, Player

GAMES = {
    "practice": "/practice/next?tier=rating",
    "rush": "/rush",
    "streak": "/streak",
    "review": "/review",
    "friends": "/friends",
}


def links(page: str) -> dict[str, str]:
    """The games a page's first "More to play" strip offers, and where each leads."""
    strip = re.search(r'<nav class="more-games".*?</nav>', page, re.S)
    assert strip, "the page offers more games"
    return {
        game: href.replace("&amp;", "&")
        for game, href in re.findall(r'data-game="(\w+)" href="([^"]+)"', strip.group(0))
    }


def test_todays_page_offers_every_other_game_one_tap_away(client: FlaskClient, published: int) -> None:
    page = client.get("/").get_data(as_text=True)
    assert links(page) == GAMES
    for path in GAMES.values():
        assert client.get(path).status_code in (200, 303, 404), path


def test_a_finished_daily_offers_a_practice_puzzle_then_the_rest(player: Player, published: int) -> None:
    result = player.post(f"/puzzles/{TODAY}/give-up").get_data(as_text=True)
    assert 'id="next-game" href="/practice/next?rules=classic&amp;tier=rating"' in result
    assert "Next daily puzzle in" in result  # the countdown stays
    offered = links(result)
    assert set(offered) == {"rush", "streak", "review", "friends"}
