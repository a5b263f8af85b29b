"""The analyser page: typed positions under every preset, the worked examples, every kind of bad input
marked inline, the time limit, the URL, and the rate limit shared with the API."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.webapp.conftest import FUZZ_EXAMPLES, FrozenClock, make_app
from webapp.analyser import solving

HARD_TABLE = (
    "2S 2H 2D / AS 2S 3S / 3S 4S 5S 6S / 10S 10D 10C / 9D 10D JD QD KD AD / AC 2C 3C / 8S 9S 10S JS QS KS"
    " / 10H JH JK KH / 5C 6C 7C 8C 9C 10C / 4D 5D 6D 7D / 8H 9H 10H / QS QH QC JK / 5H 6H 7H 8H"
    " / 5S 6S 7S 8S / AH JK 3H 4H 5H / 3D 4D 5D / JS JD JC / 7S 7H 7C / AH 2H JK / 6D 7D 8D 9D"
)
HARD_HAND = "AS 4S 9S KS 6H 9H KH 3D QD KD AC 3C 4C 6C QC KC"
"""A `jokers` position from bench/corpus.py that no solve proves in a millisecond."""


def page(client: FlaskClient, rules: str, table: str, hand: str, **more: str) -> Any:
    return client.get("/analyse", query_string={"rules": rules, "table": table, "hand": hand, **more})


def text_of(response: Any) -> str:
    """The page as a reader sees it: tags gone, entities decoded, spaces folded."""
    body = re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))
    return re.sub(r"\s+", " ", html.unescape(body))


def chain_url(response: Any) -> str:
    """Where the page's chain length cell asks for itself."""
    found = re.search(r'<dd id="chain-length"[^>]* hx-get="([^"]+)"', response.get_data(as_text=True))
    assert found, "the page asks for the chain length"
    return html.unescape(found.group(1))


def chain_text(client: FlaskClient, response: Any) -> str:
    """The chain length's cell, as htmx gets it once the page has loaded."""
    cell = client.get(chain_url(response), headers={"HX-Request": "true"})
    assert cell.status_code == 200
    assert cell.get_data(as_text=True).lstrip().startswith('<dd id="chain-length">')
    return "Chain length " + text_of(cell).strip()


def answer_text(response: Any) -> str:
    body = response.get_data(as_text=True)
    assert 'id="analysis"' in body, "the page has an answer"
    return text_of(response).split("The final table")[0].split("Your hand")[-1]


def problems(response: Any) -> list[str]:
    items = re.findall(r'<li><span aria-hidden="true">✗</span>([^<]*)</li>', response.get_data(as_text=True))
    return [html.unescape(item).strip() for item in items]


def test_a_blank_page_has_the_form_and_the_palette_and_no_problem(client: FlaskClient) -> None:
    response = client.get("/analyse")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert '<textarea id="table" name="table"' in body
    assert 'data-token="10♥"' in body and 'data-token="JK"' in body
    assert problems(response) == []
    assert 'id="analysis"' not in body
    # every preset can be chosen, and every page links to the analyser
    for name in ("classic", "italian", "jokers", "german-jokers", "three-decks"):
        assert f'<option value="{name}"' in body
    assert 'href="/analyse"' in client.get("/help").get_data(as_text=True)


@pytest.mark.parametrize(
    ("rules", "table", "hand", "placed", "facts"),
    [
        ("classic", "3S 4S 5S / 7H 7D 7C", "6S 7S KD", 2, ["no meld needs to break", "10 points"]),
        ("italian", "KH KD KC / QH QD QC / JH JD JC", "AC", 1, ["melds 1, 2 and 3 must break"]),
        ("jokers", "5H JK 7H / 9C 10C JC", "6H QC", 2, ["nothing: you go out"]),
        ("german-jokers", "5H JK 7H / 8S 8D 8C", "6H 8H", 2, ["no meld needs to break"]),
        ("three-decks", "7H 7D 7C / 7H 7D 7C", "7H 7S 7S", 3, ["meld 2 must break"]),
    ],
    ids=["classic", "italian", "jokers", "german-jokers", "three-decks"],
)
def test_every_preset(
    client: FlaskClient, rules: str, table: str, hand: str, placed: int, facts: list[str]
) -> None:
    response = page(client, rules, table, hand)
    assert response.status_code == 200
    answer = answer_text(response)
    assert f'data-max-placed="{placed}"' in response.get_data(as_text=True)
    assert "Proven" in answer
    for fact in facts:
        assert fact in answer


def test_worked_example_1_under_italian_and_classic(client: FlaskClient) -> None:
    table = "KH KD KC / QH QD QC / JH JD JC"
    italian = text_of(page(client, "italian", table, "AC"))
    assert "The best play places your only card" in italian
    assert "Break meld 1" in italian and "Lay A ♣ ♣ from the hand as a new meld 4" in italian
    classic = page(client, "classic", table, "AC")
    assert classic.status_code == 200
    answer = text_of(classic)
    assert "No card of your hand can be placed" in answer
    assert "Play this as a puzzle" not in answer


def test_worked_example_2_shows_every_step_on_the_cards(client: FlaskClient) -> None:
    response = page(client, "classic", "10H 10D 10S / JH JD JS / QH QD QC", "9S QD QS")
    body = response.get_data(as_text=True)
    assert "The best play places all 3 of your cards" in text_of(response)
    steps = re.findall(r'<li class="step step-(\w+)">', body)
    assert steps.count("break") == 3 and steps.count("lay") == 3
    # the final table: four melds, and the three hand cards marked as laid from the hand
    final = body.split('class="table still numbered final-table"')[1].split("</div>\n  </div>")[0]
    assert final.count('class="meld meld-valid"') == 4
    assert final.count("from-hand") == 3


def test_worked_example_3_cuts_the_long_run(client: FlaskClient) -> None:
    answer = text_of(page(client, "classic", "3C 4C 5C 6C 7C 8C 9C", "6H 6D"))
    assert "The best play places all 2 of your cards" in answer
    assert "meld 1 must break" in answer
    assert "from meld 1 to a new meld 3" in answer
    # a step's meld number never wraps onto a line of its own
    response = page(client, "classic", "3C 4C 5C 6C 7C 8C 9C", "6H 6D")
    assert "from meld\u00a01\u00a0to a new meld\u00a03" in response.get_data(as_text=True)
    # one break is its own chain length: the page holds it at once, with nothing to ask after
    assert "Chain length 1: the most melds one rearrangement must break at once" in answer
    assert 'hx-trigger="load' not in response.get_data(as_text=True)


TWO_CUTS = ("classic", "3C 4C 5C 6C 7C 8C 9C / 3H 4H 5H 6H 7H 8H 9H", "6S 6S 6D 6D")
"""Two long runs, each cut to free its middle card: two breaks (depth 2), but one at a time."""


def test_the_page_answers_before_the_chain_length_which_follows(client: FlaskClient) -> None:
    first = page(client, *TWO_CUTS)
    assert first.status_code == 200
    answer = answer_text(first)
    assert "The best play places all 4 of your cards" in answer and "Proven" in answer
    assert "melds 1 and 2 must break" in answer
    assert "yes: every best play places these same cards" in answer
    # no chain length yet: the cell asks for it once the page is shown, and links to it without htmx
    assert "the most melds one rearrangement" not in answer and "at most" not in answer
    body = first.get_data(as_text=True)
    assert 'hx-trigger="load, chain-retry"' in body and 'class="chain-work-out" href="/analyse/chain?' in body
    assert "Chain length 1: the most melds one rearrangement must break at once" in chain_text(client, first)
    # now it is kept, the page holds it from the start, and asks for nothing
    again = page(client, *TWO_CUTS)
    assert "Chain length 1: the most melds one rearrangement must break at once" in answer_text(again)
    assert "(2 independent rearrangements)" in answer_text(again)
    assert "hx-trigger" not in again.get_data(as_text=True).split('id="analysis"')[1]


def test_without_javascript_the_chain_link_opens_the_whole_answer(
    client: FlaskClient, database_url: str, clock: FrozenClock
) -> None:
    link = chain_url(page(client, *TWO_CUTS))
    whole = client.get(link)
    assert whole.status_code == 200 and "<html" in whole.get_data(as_text=True)
    answer = answer_text(whole)
    assert "The best play places all 4 of your cards" in answer and "melds 1 and 2 must break" in answer
    assert "Chain length 1: the most melds one rearrangement must break at once" in answer
    # and straight away, with nothing kept: the chain length is solved before the page is drawn
    fresh = make_app(database_url, clock).test_client().get(link)
    assert "Chain length 1: the most melds" in answer_text(fresh)


def test_the_chain_cell_costs_no_second_solve_of_the_rest(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    settled: list[str] = []
    real = solving.settle

    def counted(*args: Any) -> Any:
        settled.append(str(args[0]))
        return real(*args)

    monkeypatch.setattr(solving, "settle", counted)
    first = page(client, *TWO_CUTS)
    assert len(settled) == 1
    chain_text(client, first)
    assert len(settled) == 1, "the chain length solved the maximum, uniqueness and depth again"


def test_a_chain_length_not_proven_in_time_reads_as_a_bound(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a budget of nothing, whatever the machine: the depth play's two breaks bound the chain length
    monkeypatch.setattr(solving, "chain_time_limit", lambda *args: 0.0)
    first = page(client, *TWO_CUTS)
    assert "melds 1 and 2 must break" in answer_text(first)
    chain = chain_text(client, first)
    assert "Chain length at most 2: no smaller one was ruled out in time" in chain
    assert "Chain length 2:" not in chain
    # the page drawn again holds the same bound, not a bare number
    assert "Chain length at most 2: no smaller one" in answer_text(page(client, *TWO_CUTS))


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"table": "3S 4S 5X", "hand": "6S"}, "meld 1: '5X' is not a card"),
        ({"table": "3S 4S 5S", "hand": "6S", "objective": "fame"}, "'fame' is not an objective"),
        ({"table": "3S 4S 5S", "hand": ""}, "the hand is empty"),
    ],
)
def test_the_chain_cell_refuses_bad_input_by_name(
    client: FlaskClient, query: dict[str, str], message: str
) -> None:
    for headers in ({}, {"HX-Request": "true"}):
        refused = client.get("/analyse/chain", query_string={"rules": "classic", **query}, headers=headers)
        assert refused.status_code == 400
        assert "This position cannot be analysed: " + message in text_of(refused)


def test_a_second_best_play_is_shown_when_the_best_is_not_unique(client: FlaskClient) -> None:
    answer = text_of(page(client, "classic", "4S 5S 6S 7S", "7H 7D 4H 4D"))
    assert "places 2 of your 4 cards" in answer
    # one best play lays the two sevens, the other the two fours: the sentence names the other's
    sevens, fours = "7 ♥ ♥ 7 ♦ ♦", "4 ♥ ♥ 4 ♦ ♦"  # each card as the text reads: rank, suit, suit mark
    shown = sevens if f"Cards laid {sevens}" in answer else fours
    other = fours if shown == sevens else sevens
    assert f"Cards laid {shown}" in answer
    assert f"no: another best play places {other} (below)" in answer
    assert "Another best play" in answer


def test_the_objective_switch_counts_points(client: FlaskClient) -> None:
    cards = page(client, "classic", "4S 5S 6S 7S", "7H 7D 4H 4D")
    body = cards.get_data(as_text=True)
    switch = re.search(r'href="([^"]*objective=points[^"]*)"', body)
    assert switch, "the answer links to the other objective"
    points = client.get(html.unescape(switch.group(1)))
    answer = text_of(points)
    # by points the sevens win: 8 points left (the two fours), and that play is unique
    assert "The best play leaves 8 points in your hand" in answer
    assert "yes: every best play leaves the same hand" in answer
    assert 'value="points" checked' in points.get_data(as_text=True)


def test_the_url_holds_the_position_in_its_tidy_form(client: FlaskClient) -> None:
    typed = page(client, "classic", "qc qd qh\n4s,5S,6♠", "T♠ KD", objective="cards")
    assert typed.status_code == 200
    body = typed.get_data(as_text=True)
    link = re.search(r'id="permalink" href="([^"]+)"', body)
    assert link
    url = html.unescape(link.group(1))
    # suits as symbols: the link reads as the same cards on a page of any language
    assert unquote(url) == "/analyse?rules=classic&table=Q♥+Q♦+Q♣+/+4♠+5♠+6♠&hand=10♠+K♦&objective=cards"
    again = client.get(url)
    assert answer_text(again) == answer_text(typed)
    italian = client.get(url, headers={"Accept-Language": "it"})
    assert 'aria-label="Q♣"' in italian.get_data(as_text=True)  # never read as cuori there
    # htmx gets the section alone, and the address bar gets the tidy link
    fragment = client.get(typed.request.full_path, headers={"HX-Request": "true"})
    assert "<html" not in fragment.get_data(as_text=True)
    assert fragment.headers["HX-Push-Url"] == url


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ({"table": "3S 4S 5X", "hand": "6S"}, "table", "meld 1: '5X' is not a card: unknown suit 'X'"),
        ({"table": "3S 4S 5S", "hand": "6S 11H"}, "hand", "'11H' is not a card: unknown rank '11'"),
        ({"table": "3S 4S 5S / 7H 7H 7D", "hand": "6S"}, "table", "meld 2 (7♥ 7♥ 7♦): 7♥ twice in a set"),
        ({"table": "3S 4S", "hand": "6S"}, "table", "meld 1 (3♠ 4♠): only 2 cards"),
        ({"table": "3S 5S 6S", "hand": "6S"}, "table", "meld 1 (3♠ 5♠ 6♠): gap between 3♠ and 5♠"),
        ({"table": "QS KS AS", "hand": "6S"}, "table", "(the ace is low only in the Classic rules)"),
        ({"table": "3S JK 5S", "hand": "6S"}, "table", "no jokers in the Classic rules"),
        (
            {"table": "3S 4S 5S / 3S 4S 5S", "hand": "3S"},
            "position",
            "3 copies of 3♠ on the table and in the hand, but the Classic rules have 2",
        ),
        ({"table": "3S 4S 5S", "hand": ""}, "hand", "the hand is empty: type the cards you held"),
        ({"table": "3S 4S 5S", "hand": "6S", "rules": "poker"}, "rules", "unknown rules 'poker'"),
        ({"table": "3S 4S 5S", "hand": "6S", "objective": "fame"}, "objective", "'fame' is not an objective"),
        ({"table": "3S " * 500, "hand": "6S"}, "table", "the table is too long"),
        ({"table": "3S 4S 5S", "hand": "6S " * 200}, "hand", "the hand is too long"),
    ],
)
def test_bad_input_is_marked_inline_and_nothing_typed_is_lost(
    client: FlaskClient, query: dict[str, str], field: str, message: str
) -> None:
    response = client.get("/analyse", query_string={"rules": "classic", **query})
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert 'id="analysis"' not in body
    listed = re.search(rf'<ul class="problems" id="{field}-problems"[^>]*>(.*?)</ul>', body, re.S)
    assert listed and message in html.unescape(listed.group(1))
    assert html.escape(query["hand"]) in body
    assert html.escape(query["table"]) in body


def test_every_problem_is_listed_at_once(client: FlaskClient) -> None:
    response = page(client, "classic", "3S 4S 5X / 7H 7H 7D / 9C", "6S ZZ")
    assert problems(response) == [
        "meld 1: '5X' is not a card: unknown suit 'X'",
        "meld 2 (7♥ 7♥ 7♦): 7♥ twice in a set",
        "meld 3 (9♣): only 1 card",
        "'ZZ' is not a card: unknown suit 'Z'",
    ]
    # the melds that did read are drawn, the bad ones marked
    assert response.get_data(as_text=True).count('class="meld meld-invalid"') == 3


@pytest.fixture
def slow_app(database_url: str, clock: FrozenClock) -> Iterator[Flask]:
    # the page's solve has its settled share of that: half, 0.001 s
    app = make_app(database_url, clock, SOLVE_TIME_LIMIT=0.002)
    yield app


def test_a_solve_out_of_time_says_so_and_shows_the_best_found(slow_app: Flask) -> None:
    response = page(slow_app.test_client(), "jokers", HARD_TABLE, HARD_HAND)
    assert response.status_code == 200
    answer = text_of(response)
    assert "Not proven within 0.001 s: this is the best play found" in answer
    # here the best found in a millisecond is the table as it was: never passed off as the answer
    assert "No play found within the time limit" in answer
    assert "No card of your hand can be placed" not in answer


def test_solves_are_charged_in_solver_seconds_per_client_page_and_api_together(
    database_url: str, clock: FrozenClock
) -> None:
    # the frozen clock times every solve at 0 s, so each is charged the least charge, 1 s
    limits = {"SOLVE_SECONDS_LIMIT": "3 per minute", "SOLVE_LEAST_CHARGE": 1.0}
    app = make_app(database_url, clock, RATELIMIT_ENABLED=True, **limits)
    client = app.test_client()
    assert client.get("/analyse").status_code == 200  # nothing to solve: not charged
    assert page(client, "classic", "3S 4S 5S", "6S").status_code == 200
    assert page(client, "classic", "3S 4S 5S", "6S").status_code == 200  # a kept answer is free
    assert page(client, "classic", "3S 4S 5S", "7S").status_code == 200
    api = client.post("/api/solve", json={"rules": "classic", "table": [["3H", "4H", "5H"]], "hand": ["6H"]})
    assert api.status_code == 200 and "Retry-After" not in api.headers
    refused = page(client, "classic", "3S 4S 5S", "2S")
    assert refused.status_code == 429
    assert "at most 3 solver seconds per minute" in text_of(refused)
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    again = client.post("/api/solve", json={"rules": "classic", "table": [], "hand": ["6H"]})
    assert again.status_code == 429 and "solver seconds" in again.get_json()["error"]
    # a kept answer still costs nothing once the budget is spent, in any meld order
    assert client.post("/api/solve", json={"table": [["5H", "3H", "4H"]], "hand": ["6H"]}).status_code == 200
    # another client has its own budget
    other = app.test_client()
    query = {"rules": "classic", "table": "3S 4S 5S", "hand": "2S"}
    assert (
        other.get("/analyse", query_string=query, environ_overrides={"REMOTE_ADDR": "10.0.0.9"}).status_code
        == 200
    )


def test_the_solver_budget_holds_with_the_rate_limits_off(database_url: str, clock: FrozenClock) -> None:
    """`TAVOLO_RATE_LIMITS=off` (a load test) turns off the limits in requests, not the solver's."""
    limits = {"SOLVE_SECONDS_LIMIT": "2 per minute", "SOLVE_LEAST_CHARGE": 1.0}
    client = make_app(database_url, clock, RATELIMIT_ENABLED=False, **limits).test_client()
    assert page(client, "classic", "3S 4S 5S", "6S").status_code == 200
    assert page(client, "classic", "3S 4S 5S", "7S").status_code == 200
    refused = page(client, "classic", "3S 4S 5S", "2S")
    assert refused.status_code == 429 and "solver seconds" in text_of(refused)


def test_a_page_and_its_chain_length_pay_the_least_charge_once(database_url: str, clock: FrozenClock) -> None:
    # the frozen clock times every solve at 0 s: the page's settled part pays the least charge, 1 s,
    # and its chain length, the same answer's second phase, only what it took
    limits = {"SOLVE_SECONDS_LIMIT": "2 per minute", "SOLVE_LEAST_CHARGE": 1.0}
    client = make_app(database_url, clock, RATELIMIT_ENABLED=True, **limits).test_client()
    first = page(client, *TWO_CUTS)
    assert "Chain length 1:" in chain_text(client, first)
    # charged twice, the budget of 2 would be spent here
    assert page(client, "classic", "3S 4S 5S", "6S").status_code == 200
    refused = page(client, "classic", "3S 4S 5S", "7S")
    assert refused.status_code == 429 and "solver seconds" in text_of(refused)


TOKENS = st.sampled_from(
    ["3S", "4s", "5♠", "JK", "T♥", "10h", "XX", "/", "\n", ",", "🃏", "Q", "", "AC", "KC"]
)
TYPED = st.lists(TOKENS, max_size=12).map(" ".join) | st.text(max_size=30)


@settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    rules=st.sampled_from(["classic", "jokers", "german-jokers", "", "x" * 50]),
    table=TYPED,
    hand=TYPED,
    objective=st.sampled_from(["cards", "points", "", "\x00"]),
    moves=st.lists(st.sampled_from(["h0-0", "h0-new", "t0-hand", "h1-9", "h0", "-", "t2-1"]), max_size=4),
)
def test_no_typed_position_or_move_list_is_ever_a_500(
    slow_app: Flask, rules: str, table: str, hand: str, objective: str, moves: list[str]
) -> None:
    client = slow_app.test_client()
    query = {"rules": rules, "table": table, "hand": hand, "objective": objective}
    assert client.get("/analyse", query_string=query).status_code in (200, 422)
    for headers in ({}, {"HX-Request": "true"}):
        chain = client.get("/analyse/chain", query_string=query, headers=headers)
        assert chain.status_code in (200, 400), chain.get_data(as_text=True)
    played = client.get("/analyse/play", query_string={**query, "moves": ".".join(moves)})
    assert played.status_code in (200, 400), played.get_data(as_text=True)


def test_a_kept_page_is_served_with_each_visitors_own_csrf_token(app: Flask) -> None:
    query = {"table": "3S 4S 5S / 7H 7D 7C", "hand": "6S 7S KD"}
    pages, tokens = [], []
    for _ in range(2):
        client = app.test_client()
        client.get("/token")  # a session: without one the page carries no token
        page = client.get("/analyse", query_string=query).get_data(as_text=True)
        token = re.search(r'<meta name="csrf-token" content="([^"]+)"', page)
        assert token and "The best play places" in page
        pages.append(page.replace(token.group(1), "TOKEN"))
        tokens.append(token.group(1))
        # the token on the kept page is this visitor's own: a form posted with it is taken
        taken = client.post("/me/forget", data={"csrf_token": token.group(1), "confirm": "no"})
        assert taken.status_code == 422
    assert tokens[0] != tokens[1] and pages[0] == pages[1]
    # another spelling of the same position shows what was typed, not the kept page's words
    other = app.test_client().get("/analyse", query_string={**query, "hand": "6s 7s kd"})
    assert 'value="6s 7s kd"' in other.get_data(as_text=True) or "6s 7s kd" in other.get_data(as_text=True)
