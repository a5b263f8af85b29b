"""The solver gate: one solve at a time per client, a bounded number per process with a short queue,
answers kept under the canonical position, and nothing that depends on how fast the machine is: the
blocked solves below wait on events, never on the clock."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask

import generator
from puzzles import Objective, Position, Settled
from tests.webapp.analyser.test_analyser import HARD_HAND, HARD_TABLE
from tests.webapp.conftest import TODAY, FrozenClock, Player, make_app, store
from webapp import solver_gate
from webapp.analyser import solving
from webapp.errors import Wait

HARD: dict[str, Any] = {
    "rules": "jokers",
    "table": [meld.split() for meld in HARD_TABLE.split(" / ")],
    "hand": HARD_HAND.split(),
}
SOLVE = {"rules": "classic", "table": [["10H", "10D", "10S"], ["3S", "4S", "5S"]], "hand": ["6S", "10C"]}


@pytest.fixture
def solves(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every position the analyser solves (its settled part first, always), as text."""
    seen: list[str] = []
    real = solving.settle

    def counted(position: Position, objective: Objective, time_limit: float) -> Settled:
        seen.append(str(position))
        return real(position, objective, time_limit)

    monkeypatch.setattr(solving, "settle", counted)
    return seen


def test_shuffled_melds_and_other_spellings_cost_one_solve_and_keep_their_numbers(
    client: Any, solves: list[str]
) -> None:
    first = client.post("/api/solve", json=SOLVE).get_json()
    shuffled = {**SOLVE, "table": [["5♠", "3S", "4s"], ["TS", "10h", "10D"]], "hand": ["10C", "6S"]}
    second = client.post("/api/solve", json=shuffled).get_json()
    assert len(solves) == 1
    assert first["max_placed"] == second["max_placed"] == 2
    # the run takes the 6♠ and the set the 10♣: each answer numbers those melds in its own order
    assert targets(first) == {"6S": 1, "10C": 0}
    assert targets(second) == {"6S": 0, "10C": 1}


def targets(answer: dict[str, Any]) -> dict[str, int]:
    return {card: step["target"] for step in answer["steps"] for card in step["cards"]}


def test_a_hard_position_broken_melds_follow_the_callers_order(client: Any) -> None:
    melds = HARD["table"]
    body = HARD
    first = client.post("/api/solve?time_limit=0.5", json=body).get_json()
    reversed_body = {**body, "table": melds[::-1]}
    second = client.post("/api/solve?time_limit=0.5", json=reversed_body).get_json()
    last = len(melds) - 1
    assert sorted(last - meld for meld in first["broken"]) == second["broken"]
    assert second["table"] == first["table"]


def test_an_unproven_answer_is_kept_for_a_while(
    database_url: str, clock: FrozenClock, solves: list[str]
) -> None:
    body = HARD
    kept = make_app(database_url, clock, SOLVE_TIME_LIMIT=0.001).test_client()
    answers = [kept.post("/api/solve", json=body).get_json() for _ in range(2)]
    assert answers[0]["optimal"] is False and answers[0] == answers[1]
    assert len(solves) == 1
    never = make_app(database_url, clock, SOLVE_TIME_LIMIT=0.001, UNPROVEN_KEEP_SECONDS=0).test_client()
    for _ in range(2):
        never.post("/api/solve", json=body)
    assert len(solves) == 3


@pytest.fixture
def one_slot(database_url: str, clock: FrozenClock) -> Iterator[tuple[Flask, Callable[[], None]]]:
    """An app whose only solving slot is taken, with no queue, by a solve from 10.0.0.1 that goes on
    until the test lets it end."""
    # the site's own limit: a busy answer's Retry-After is one solve's time
    app = make_app(database_url, clock, SOLVER_SLOTS=1, SOLVER_QUEUE=0, SOLVE_TIME_LIMIT=2.0)
    started, release = threading.Event(), threading.Event()

    def hold() -> None:
        started.set()
        release.wait()

    def solve_from_elsewhere() -> None:
        with app.test_request_context("/api/solve", environ_base={"REMOTE_ADDR": "10.0.0.1"}):
            solver_gate.run(hold)

    def end_it() -> None:
        release.set()
        worker.join()

    worker = threading.Thread(target=solve_from_elsewhere)
    worker.start()
    started.wait()
    yield app, end_it
    end_it()


Held = tuple[Flask, Callable[[], None]]


def test_a_full_gate_is_a_503_at_once_and_pages_are_served(one_slot: Held) -> None:
    app, release = one_slot
    client = app.test_client()
    busy = client.post("/api/solve", json=SOLVE)
    assert busy.status_code == 503
    assert "busy" in busy.get_json()["error"] and busy.headers["Retry-After"] == "2"
    assert client.get("/analyse").status_code == 200  # a page needs no solve
    release()  # once the slot is free again, the same request is answered
    assert client.post("/api/solve", json=SOLVE).status_code == 200


def test_one_solve_at_a_time_per_client_address(one_slot: Held) -> None:
    app, _ = one_slot
    client = app.test_client()
    second = client.post("/api/solve", json=SOLVE, environ_overrides={"REMOTE_ADDR": "10.0.0.1"})
    assert second.status_code == 429
    assert "One solve at a time" in second.get_json()["error"]
    assert second.headers["Retry-After"] == "2"
    # the analyser's page and the API share the one at a time
    page = client.get(
        "/analyse",
        query_string={"rules": "classic", "table": "3S 4S 5S", "hand": "6S"},
        environ_overrides={"REMOTE_ADDR": "10.0.0.1"},
    )
    assert page.status_code == 429


def test_the_chain_length_solves_in_a_lane_of_its_own(database_url: str, clock: FrozenClock) -> None:
    # a player types the next position while the last one's chain length is still being solved
    app = make_app(database_url, clock, SOLVER_SLOTS=2, SOLVER_QUEUE=0, SOLVE_TIME_LIMIT=2.0)
    started, release = threading.Event(), threading.Event()

    def hold() -> None:
        started.set()
        release.wait()

    def chain_solve() -> None:
        with app.test_request_context("/analyse/chain", environ_base={"REMOTE_ADDR": "10.0.0.1"}):
            solver_gate.run(hold, solver_gate.CHAIN_LANE)

    worker = threading.Thread(target=chain_solve)
    worker.start()
    try:
        started.wait()
        page = app.test_client().get(
            "/analyse",
            query_string={"rules": "classic", "table": "3S 4S 5S", "hand": "6S"},
            environ_overrides={"REMOTE_ADDR": "10.0.0.1"},
        )
        assert page.status_code == 200 and "Chain depth" in page.get_data(as_text=True)
        # the lane itself is still one at a time
        with (
            app.test_request_context("/analyse/chain", environ_base={"REMOTE_ADDR": "10.0.0.1"}),
            pytest.raises(Wait, match="One solve at a time") as refusal,
        ):
            solver_gate.run(lambda: None, solver_gate.CHAIN_LANE)
        assert refusal.value.status == 429
    finally:
        release.set()
        worker.join()


def test_a_hint_is_a_solve_through_the_gate(one_slot: Held, known_puzzle: generator.Puzzle) -> None:
    app, release = one_slot
    store(app, known_puzzle, TODAY)
    player = Player(app.test_client())
    headers = {"X-CSRFToken": player.token, "HX-Request": "true"}

    def hint(address: str) -> Any:
        where = {"REMOTE_ADDR": address}
        return player.client.post(f"/puzzles/{TODAY}/hint", headers=headers, environ_overrides=where)

    same = hint("10.0.0.1")
    assert same.status_code == 429 and "One solve at a time" in same.get_data(as_text=True)
    busy = hint("10.0.0.2")
    assert busy.status_code == 503 and "busy" in busy.get_data(as_text=True)
    release()
    assert hint("10.0.0.2").status_code == 200
