"""One player's morning at today's puzzle (#1), for bench/rush.py and tests/webapp/test_two_hosts.py:
the moves of its solution, each a step POST, and the requests that play them through the front door.

Imported by bench/rush.py as a script's neighbour (`import morning`) and by the tests as
`bench.morning`: it imports nothing of the project's but the engine.
"""

from __future__ import annotations

import http.client
import re
import secrets
import time
from collections.abc import Generator

from puzzles import Card, Rules, StepKind, steps_between

HOST = "tavolo.example"
CARD = re.compile(r'data-card="(\w+)" data-from="(\w+)" draggable="true"\s+aria-label="([^"(]+)')
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def address(number: int) -> str:
    """Player `number`'s own loopback address (127.x.y.z): nginx and the app limit per address."""
    return f"127.{10 + number // 60000}.{number // 250 % 240 + 1}.{number % 250 + 1}"


Move = tuple[str, str | None]
"""One step POST: the card's id, and a card already in the meld it joins (None: a new meld)."""


def label_of(token: str) -> str:
    """A solution card (`10H`) as the page's aria-label names it (`10♥`)."""
    return token[:-1] + SUITS[token[-1]]


def steps_plan(page: str, solution: list[list[str]], rules: Rules) -> list[Move]:
    """The moves of a player who plays the solution as the engine's plan does (`puzzles.steps_between`,
    what the hints and the solution's replay show): hand cards onto melds, and the table cards of
    the melds the solution breaks; a meld it keeps stays where it is. The plan builds on a meld of
    the other kind (`turned_new=False`) as the hints did when issue 42 set the rush's workload (the
    known puzzle in 10 steps, 12 requests): the hints now start a turned meld anew, which costs the
    known puzzle two moves more, and a rush measured that way is not the issue's."""
    table: dict[str, list[str]] = {}
    hand: dict[str, list[str]] = {}
    label_of_id: dict[str, str] = {}
    for card, where, label in CARD.findall(page):
        label_of_id[card] = label.strip()
        if where == "hand":
            hand.setdefault(label.strip(), []).append(card)
        else:
            table.setdefault(where, []).append(card)
    token_of = {label_of(token): token for meld in solution for token in meld}
    # the plan's melds as card ids: the table's first, in the page's order; new melds after them
    ids = [table[where] for where in sorted(table, key=int)]
    start = [[Card.parse(token_of[label_of_id[i]]) for i in meld] for meld in ids]
    moves: list[Move] = []
    final = [[Card.parse(token) for token in meld] for meld in solution]
    for step in steps_between(start, final, rules, turned_new=False):
        if step.kind is StepKind.BREAK:
            continue
        if step.kind is StepKind.TAKE or step.target is None:
            raise ValueError(f"the solution's plan takes cards back into the hand: {step}")
        if step.new:
            ids.append([])
        target = ids[step.target]
        for card in step.cards:
            label = label_of(str(card))
            if step.source is None:
                chosen = hand[label].pop(0)
            else:
                chosen = next(i for i in ids[step.source] if label_of_id[i] == label)
                ids[step.source].remove(chosen)
            moves.append((chosen, target[0] if target else None))
            target.append(chosen)
    return moves


def every_card_plan(page: str, solution: list[list[str]], rules: Rules) -> list[Move]:
    """The moves of a player who builds every meld of the solution card by card on a new place, the
    melds the solution keeps too (`--every-card`, the rush's first player model); the rules are
    `steps_plan`'s, unread."""
    del rules
    ids: dict[str, list[str]] = {}
    for card, _, label in CARD.findall(page):
        ids.setdefault(label.strip(), []).append(card)
    moves: list[Move] = []
    for meld in solution:
        first = None
        for token in meld:
            choices = sorted(ids.get(label_of(token), []), key=lambda i: (i[0] != "t", i))
            if not choices:
                raise ValueError(f"the page shows no {label_of(token)} left for the solution")
            chosen = choices[0]
            ids[label_of(token)].remove(chosen)
            moves.append((chosen, first))
            first = first or chosen
    return moves


Request = tuple[str, str, str | None]


class Player:
    """One player's morning, written once for both clients: the page, the plan's moves (each a step
    POST with its step check), the end of the turn. `script()` yields each request and is sent the
    answer's text (None for an error, which ends the morning); `headers` are the ones to send;
    `finished` says whether the end of the turn was answered."""

    def __init__(self, moves: list[Move]) -> None:
        self.moves = moves
        self.headers = {"Host": HOST}
        self.finished = False

    def took(self, cookies: list[str]) -> None:
        for value in cookies:
            self.headers["Cookie"] = value.split(";", 1)[0]

    def script(self) -> Generator[Request, str | None, None]:
        page = yield ("GET", "/puzzles/1", None)
        if page is None:
            return
        token = re.search(r'<meta name="csrf-token" content="([^"]+)"', page)
        self.headers |= {"X-CSRFToken": token.group(1) if token else "", "HX-Request": "true"}
        self.headers["Content-Type"] = "application/x-www-form-urlencoded"
        for card, beside in self.moves:
            target = "new"
            if beside is not None:
                found = re.search(f'data-card="{beside}" data-from="(\\w+)"', page)
                target = found.group(1) if found else "new"
            self.new_request()
            answer = yield ("POST", "/puzzles/1/move", f"card={card}&to={target}")
            if answer is None:
                return
            page = answer
        self.new_request()
        self.finished = (yield ("POST", "/puzzles/1/end", None)) is not None

    def new_request(self) -> None:
        """A POST's own id, as play.js gives every POST (webapp/turn/replays.py): nginx may send it
        again to another host, and the app applies it once."""
        self.headers["X-Tavolo-Request"] = secrets.token_hex(16)


Played = tuple[list[float], list[tuple[str, float]], bool]
"""A player's morning: the time of each request (ms), the errors (what each was, and when: the
epoch's seconds) and whether the turn was ended."""


def play_threaded(port: int, number: int, moves: list[Move], timeout: float = 60) -> Played:
    """A player on http.client (the rush's `--client threads`), each request answered within
    `timeout` seconds or an error."""
    times: list[float] = []
    errors: list[tuple[str, float]] = []
    link = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(address(number), 0))
    player = Player(moves)
    script = player.script()
    answer: str | None = None
    try:
        method, path, body = next(script)
        while True:
            started = time.perf_counter()
            try:
                link.request(method, path, body, player.headers)
                response = link.getresponse()
                text = response.read().decode()
            except OSError as error:
                errors.append((f"no answer ({type(error).__name__})", time.time()))
                break
            times.append((time.perf_counter() - started) * 1000)
            player.took(response.headers.get_all("Set-Cookie") or [])
            answer = text if 200 <= response.status < 300 else None
            if answer is None:
                errors.append((f"{method} {path.rsplit('/', 1)[1]} {response.status}", time.time()))
            method, path, body = script.send(answer)
    except StopIteration:
        pass
    link.close()
    return times, errors, player.finished
