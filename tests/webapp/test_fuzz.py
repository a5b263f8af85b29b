"""Property-based fuzzing: whatever a client sends to the move and check endpoints, the answer is a
200 or a 4xx with a message, never a 500, and a refused move stores nothing."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.webapp.conftest import TODAY, Player, attempts

TOKENS = st.sampled_from(
    ["10H", "JH", "QH", "QD", "QS", "9S", "8C", "KH", "2D", "4C", "JK", "ZZ", "", "10♥", "1H"]
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6) | TOKENS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=30,
)
BODIES = (
    st.builds(lambda table: {"table": table}, st.lists(st.lists(TOKENS, max_size=6), max_size=6))
    | st.builds(lambda value: {"table": value}, JSON_VALUES)
    | JSON_VALUES
)
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(body=BODIES)
def test_the_check_never_fails_whatever_the_body(app: Flask, published: int, body: Any) -> None:
    response = app.test_client().post(
        f"/api/puzzles/{TODAY}/check", data=json.dumps(body), content_type="application/json"
    )
    assert response.status_code in (200, 400)
    answer = response.get_json()
    if response.status_code == 200:
        assert set(answer) == {"valid", "placed", "max", "solved", "errors"}
        assert answer["valid"] == (answer["errors"] == [])
    else:
        assert answer["error"]


@FUZZ
@given(
    card=st.sampled_from(["h0", "h5", "h6", "t0", "t12", "t13", "x", "", "h-1", "ｈ0"]) | st.text(max_size=8),
    target=st.sampled_from(["0", "3", "4", "99", "new", "hand", "", "-1", "１"]) | st.text(max_size=8),
    seen_at=st.none() | st.sampled_from(["hand", "0", "4"]) | st.text(max_size=4),
)
def test_a_move_is_a_new_board_or_a_refusal_that_stores_nothing(
    app: Flask, player: Player, published: int, card: str, target: str, seen_at: str | None
) -> None:
    before = attempts(app)
    response = player.move(TODAY, card, target, seen_at)
    assert response.status_code in (200, 400, 422)
    if response.status_code != 200:
        assert attempts(app) == before
        assert "notice-text" in response.get_data(as_text=True)
