"""The migrations: one head, the schema they build matches the models, and data survives the upgrade."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask
from sqlalchemy import text

import generator
from tests.webapp.conftest import LAUNCH, FrozenClock
from tests.webapp.review import test_queue_bounded as review_tests
from webapp import create_app
from webapp.db import alembic_config, database, upgrade
from webapp.errors import Refusal
from webapp.friends import groups
from webapp.models import Base


@pytest.fixture
def bare_app(database_url: str, clock: FrozenClock) -> Iterator[Flask]:
    """The app on an empty database: no tables until a test migrates."""
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": database_url,
            "SECRET_KEY": "x",
            "NOW": clock,
            "LAUNCH_DATE": LAUNCH,
        }
    )
    yield app
    with app.app_context():
        database().dispose()


def migrate(revision: str, down: bool = False) -> None:
    db = database()
    with db.write_engine.connect() as connection:
        config = alembic_config(db)
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)


def rows(sql: str) -> list[Any]:
    with database().engine.connect() as connection:
        return list(connection.execute(text(sql)))


def test_there_is_one_head() -> None:
    with create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": "sqlite://"}).app_context():
        heads = ScriptDirectory.from_config(alembic_config(database())).get_heads()
    assert len(heads) == 1


def test_the_migrated_schema_is_the_models(bare_app: Flask) -> None:
    with bare_app.app_context():
        upgrade(database())
        with database().engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            differences = compare_metadata(context, Base.metadata)
    assert differences == []


def test_the_players_revision_keeps_the_data_and_rates_puzzles_by_tier(bare_app: Flask) -> None:
    with bare_app.app_context():
        migrate("0001")
        with database().write_engine.begin() as connection:
            connection.execute(
                text(
                    'INSERT INTO puzzle (id, code, canonical, rules, tier, depth, max_played, "table", hand,'
                    " solution, added) VALUES (1, 'cm1', 'x', 'classic', 'master', 6, 2, '[]', '[]', '[]',"
                    " '2026-11-29 12:00:00+00:00'),"
                    " (2, 'cb1', 'y', 'classic', 'easy', 1, 2, '[]', '[]', '[]', '2026-11-29 12:00:00+00:00')"
                )
            )
            connection.execute(
                text("INSERT INTO player (id, created) VALUES ('p1', '2026-11-29 12:00:00+00:00')")
            )
            connection.execute(
                text(
                    "INSERT INTO attempt (player_id, puzzle_id, melds, history, moves, hints, status, placed,"
                    " started) VALUES ('p1', 1, '[]', '[]', 3, 0, 'solved', 2, '2026-11-29 12:00:00+00:00')"
                )
            )
        migrate("head")
        assert rows("SELECT id, rating, practice FROM puzzle ORDER BY id") == [
            (1, 1900.0, False),
            (2, 1100.0, False),
        ]
        assert rows("SELECT rating, deviation, volatility FROM player") == [(1500.0, 350.0, 0.06)]
        assert rows("SELECT moves, hints, time_limit, rating_after FROM attempt") == [(3, 0, None, None)]
        assert [str(row[0]).replace(" ", "") for row in rows("SELECT hint_log FROM attempt")] == ["[]"]
        # and back down, with the data still there
        migrate("0001", down=True)
        assert rows("SELECT moves FROM attempt") == [(3,)]
        assert "transfer_code" not in {name for (name,) in rows(_TABLES[database().is_sqlite])}


_TABLES = {
    True: "SELECT name FROM sqlite_master WHERE type = 'table'",
    False: "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
}


def test_the_sizes_revision_counts_the_hand_and_its_decoys(bare_app: Flask) -> None:
    with bare_app.app_context():
        migrate("0002")
        with database().write_engine.begin() as connection:
            connection.execute(
                text(
                    'INSERT INTO puzzle (id, code, canonical, rules, tier, depth, max_played, "table", hand,'
                    " solution, added) VALUES (1, 'cm1', 'x', 'classic', 'easy', 1, 1,"
                    ' \'[["3S", "4S", "5S"]]\', \'["6S", "KD", "2C"]\', \'[["3S", "4S", "5S", "6S"]]\','
                    " '2026-11-29 12:00:00+00:00')"
                )
            )
        migrate("head")
        assert rows("SELECT hand_size, decoys FROM puzzle") == [(3, 2)]
        migrate("0002", down=True)
        assert rows("SELECT max_played FROM puzzle") == [(1,)]


def test_the_chains_revision_leaves_old_puzzles_ungraded_until_a_rescore(bare_app: Flask) -> None:
    with bare_app.app_context():
        migrate("0003")
        with database().write_engine.begin() as connection:
            connection.execute(
                text(
                    'INSERT INTO puzzle (id, code, canonical, rules, tier, depth, max_played, "table", hand,'
                    " solution, added) VALUES (1, 'cm1', 'x', 'classic', 'easy', 1, 1, '[]', '[]', '[]',"
                    " '2026-11-29 12:00:00+00:00')"
                )
            )
        migrate("head")
        assert rows("SELECT chain, live_decoys FROM puzzle") == [(None, None)]
        assert [str(row[0]).replace(" ", "") for row in rows("SELECT themes FROM puzzle")] == ["[]"]
        migrate("0003", down=True)
        assert rows("SELECT tier, depth FROM puzzle") == [("easy", 1)]
        columns = rows(_COLUMNS[database().is_sqlite])
        assert not {"chain", "themes", "live_decoys"} & {str(name) for (name,) in columns}


_COLUMNS = {
    True: "SELECT name FROM pragma_table_info('puzzle')",
    False: "SELECT column_name FROM information_schema.columns WHERE table_name = 'puzzle'",
}


def test_the_max_placed_revision_renames_the_column_and_keeps_its_values(bare_app: Flask) -> None:
    with bare_app.app_context():
        migrate("0004")
        with database().write_engine.begin() as connection:
            connection.execute(
                text(
                    'INSERT INTO puzzle (id, code, canonical, rules, tier, depth, max_played, "table", hand,'
                    " solution, added) VALUES (1, 'cm1', 'x', 'classic', 'easy', 1, 3, '[]', '[]', '[]',"
                    " '2026-11-29 12:00:00+00:00')"
                )
            )
        migrate("0005")
        assert rows("SELECT max_placed FROM puzzle") == [(3,)]
        migrate("0004", down=True)
        assert rows("SELECT max_played FROM puzzle") == [(3,)]


def test_the_friend_name_keys_revision_makes_every_key_again_by_lookalikes(bare_app: Flask) -> None:
    with bare_app.app_context():
        migrate("0009")
        moment = "'2026-11-29 12:00:00+00:00'"
        with database().write_engine.begin() as connection:
            for player in ("p1", "p2", "p3", "p4"):
                connection.execute(text(f"INSERT INTO player (id, created) VALUES ('{player}', {moment})"))
            connection.execute(
                text(
                    "INSERT INTO friend_group (id, name, created)"
                    f" VALUES (1, 'A', {moment}), (2, 'B', {moment})"
                )
            )
            # the old keys, the names case-folded: `Аnna` (a Cyrillic А) sat beside `Anna`
            members = [
                (1, 1, "p1", "Anna"),
                (2, 1, "p2", "\u0410nna"),
                (3, 2, "p3", "\u0420\u0430ul"),
                (4, 2, "p4", "Eva"),
            ]
            for member_id, group_id, player, name in members:
                connection.execute(
                    text(
                        "INSERT INTO friend_member (id, group_id, player_id, name, name_key, joined)"
                        f" VALUES (:id, :group, :player, :name, :key, {moment})"
                    ),
                    {
                        "id": member_id,
                        "group": group_id,
                        "player": player,
                        "name": name,
                        "key": name.casefold(),
                    },
                )
        migrate("head")
        keys = rows("SELECT id, name, name_key FROM friend_member ORDER BY id")
        assert [(member_id, key) for member_id, _, key in keys] == [
            (1, "anna"),
            (2, "anna#2"),
            (3, "paul"),
            (4, "eva"),
        ]
        assert [name for _, name, _ in keys] == [name for _, _, _, name in members]  # names kept
    with bare_app.app_context(), database().reader() as session:
        # a third lookalike of the first is refused now, at either table
        for group_id, name in ((1, "ANNA"), (2, "\u0420aul")):
            with pytest.raises(Refusal):
                groups._check_name_free(session, group_id, name, "p9")
    with bare_app.app_context():
        migrate("0009", down=True)
        assert [key for _, _, key in rows("SELECT id, name, name_key FROM friend_member ORDER BY id")] == [
            "anna",
            "\u0430nna",
            "\u0440\u0430ul",
            "eva",
        ]


def test_the_readable_friend_names_revision_renames_names_that_show_nothing(bare_app: Flask) -> None:
    with bare_app.app_context():
        migrate("0012_attempt_puzzle_index")
        moment = "'2026-11-29 12:00:00+00:00'"
        with database().write_engine.begin() as connection:
            for player in range(1, 9):
                connection.execute(text(f"INSERT INTO player (id, created) VALUES ('p{player}', {moment})"))
            for group_id, name in ((1, "\u3164"), (2, "Club\u2800"), (3, "Chess")):
                connection.execute(
                    text(f"INSERT INTO friend_group (id, name, created) VALUES (:id, :name, {moment})"),
                    {"id": group_id, "name": name},
                )
            members = [
                (1, 1, "Anna"),
                (2, 1, "\u3164"),  # a Hangul filler: an empty row
                (3, 1, "Anna\u2800"),  # `Anna` beside `Anna`, with a blank Braille pattern
                (4, 1, "#5"),  # typed by its member: the next blank one is not called so
                (5, 1, "\u2800 \u115f"),
                (6, 2, "Eva\u200b"),  # a zero-width space: `Eva` is free at its table
                (7, 2, ""),
                (8, 3, "\u0410nna"),  # a lookalike, not a blank: 0010's keys hold it
            ]
            for member_id, group_id, name in members:
                connection.execute(
                    text(
                        "INSERT INTO friend_member (id, group_id, player_id, name, name_key, joined)"
                        f" VALUES (:id, :group, :player, :name, :key, {moment})"
                    ),
                    {
                        "id": member_id,
                        "group": group_id,
                        "player": f"p{member_id}",
                        "name": name,
                        "key": groups.name_key(name),
                    },
                )
        migrate("head")
        renamed = [
            (1, "Anna", "anna"),
            (2, "#2", "#2"),
            (3, "#3", "#3"),
            (4, "#5", "#5"),
            (5, "#5-5", "#5-5"),
            (6, "Eva", "eva"),
            (7, "#2", "#2"),
            (8, "\u0410nna", "anna"),
        ]
        assert rows("SELECT id, name, name_key FROM friend_member ORDER BY id") == renamed
        assert rows("SELECT id, name FROM friend_group ORDER BY id") == [(1, "#1"), (2, "Club"), (3, "Chess")]
    with bare_app.app_context(), database().reader() as session:
        # every name shows (the lookalike aside), and holds its place: nobody else joins as `#2` or
        # `Eva` beside it
        for _, name, _ in renamed[:-1]:
            groups.tidy_name(name, groups.NAME_MOST)
        for group_id, name in ((1, "#2"), (2, "EVA")):
            with pytest.raises(Refusal):
                groups._check_name_free(session, group_id, name, "p9")
    with bare_app.app_context():
        migrate("0012_attempt_puzzle_index", down=True)  # nothing to undo: the names stay readable
        assert rows("SELECT id, name, name_key FROM friend_member ORDER BY id") == renamed


def test_the_review_due_revision_sets_when_each_puzzle_comes_back_from_the_turns(
    bare_app: Flask, known_puzzle: generator.Puzzle
) -> None:
    with bare_app.app_context():
        migrate("head")
    ids = review_tests.puzzles(bare_app, known_puzzle, 16)
    for seed in range(3):
        player = f"{seed:032d}"
        run = review_tests.run_of(bare_app, player)
        # written with what the turns say (`due.refill`), then dropped and made again by the revision
        review_tests.record(bare_app, player, review_tests.random_turns(random.Random(seed), ids, run))
    with bare_app.app_context():
        expected = rows("SELECT id, comes_back FROM attempt ORDER BY id")
        assert sum(at is not None for _, at in expected) > 10
        migrate("0015_attempt_last_request", down=True)
        migrate("head")
        assert rows("SELECT id, comes_back FROM attempt ORDER BY id") == expected
