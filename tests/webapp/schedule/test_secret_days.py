"""Secret dailies: the day's puzzle follows HMAC-SHA256(secret, number), and motifs keep apart."""

from __future__ import annotations

from flask import Flask

import generator
from tests.webapp.conftest import DAILY_SECRET, DECOY_PAIRS, store, unlike_known, variant
from tests.webapp.schedule.test_daily import schedule
from webapp.schedule import daily, days


def test_the_days_digest_needs_the_secret() -> None:
    assert days.day_digest("a", 3) == days.day_digest("a", 3)
    assert days.day_digest("a", 3) != days.day_digest("b", 3)
    assert days.day_digest("a", 3) != days.day_digest("a", 4)
    seeds = {days.daily_seed(days.day_digest("a", 3), attempt) for attempt in range(3)}
    assert len(seeds) == 3 and all(days.DAILY_SEED_BASE <= seed < 2 * days.DAILY_SEED_BASE for seed in seeds)
    assert len(str(generator.PuzzleId("classic", "b", max(seeds)))) <= 16


def test_the_secret_picks_the_days_pool_puzzle(app: Flask, known_puzzle: generator.Puzzle) -> None:
    codes = [f"cx{index}" for index in range(8)]
    for index, code in enumerate(codes):
        store(app, variant(known_puzzle, " ".join(DECOY_PAIRS[index]), "hard", code))
    with app.app_context():
        daily.publish(3)
    chosen = days.pool_choice(days.day_digest(DAILY_SECRET, 3)) % len(codes)
    assert schedule(app)[3] == ("hard", codes[chosen])


def test_no_motif_twice_within_seven_days(app: Flask, known_puzzle: generator.Puzzle) -> None:
    # Wednesday #3 is a ladder; Thursday #4 has three ladders and one swap to choose from
    store(app, unlike_known(variant(known_puzzle, "2H 3H", "hard", "cw1", ("extend", "ladder"))), 3)
    # the swap goes where the secret would not have chosen without the rule
    swap_at = (days.pool_choice(days.day_digest(DAILY_SECRET, 4)) + 1) % 4
    for index in range(4):
        themes = ("swap",) if index == swap_at else ("new-meld", "ladder")
        store(app, variant(known_puzzle, " ".join(DECOY_PAIRS[index]), "hard", f"cx{index}", themes))
    with app.app_context():
        daily.publish(4)
        # a week on, the ladder may come back
        daily.publish(10)
    assert schedule(app)[4] == ("hard", f"cx{swap_at}")
    assert schedule(app)[10][1] != f"cx{swap_at}"
