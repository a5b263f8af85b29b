"""`flask backup` and `flask restore`: a round trip while the site serves, on SQLite and on PostgreSQL
(scripts/test-postgres.sh), and bad input refused with one line and exit status 2."""

from __future__ import annotations

import threading
from pathlib import Path

from flask import Flask
from flask.testing import FlaskCliRunner

from tests.webapp.conftest import TODAY, Player, attempts


def serving(app: Flask, stop: threading.Event, answers: list[int]) -> threading.Thread:
    """Another visitor loading the home page over and over until `stop`; started once it has one answer."""
    first = threading.Event()

    def visit() -> None:
        client = app.test_client()
        while not stop.is_set():
            answers.append(client.get("/").status_code)
            first.set()

    thread = threading.Thread(target=visit)
    thread.start()
    first.wait()
    return thread


def test_a_restore_brings_back_the_records_as_backed_up_while_the_site_serves(
    app: Flask, runner: FlaskCliRunner, player: Player, published: int, tmp_path: Path
) -> None:
    assert player.move(TODAY, "h0", "new").status_code == 200
    stop, answers = threading.Event(), []
    visitor = serving(app, stop, answers)
    try:
        backup = tmp_path / "tavolo.backup"
        done = runner.invoke(args=["backup", str(backup)])
        assert done.exit_code == 0, done.output
        assert f"backed up to {backup}" in done.output and backup.stat().st_size > 0
        assert not list(tmp_path.glob("*.partial"))
        assert player.move(TODAY, "h1", "new").status_code == 200
        assert attempts(app)[0][3] == 2
        done = runner.invoke(args=["restore", "--yes", str(backup)])
        assert done.exit_code == 0, done.output
    finally:
        stop.set()
        visitor.join()
    assert attempts(app)[0][3] == 1  # the move made after the backup is gone, the one before is back
    assert set(answers) == {200}
    # and the site goes on from the restored table
    assert player.move(TODAY, "h1", "new").status_code == 200


def test_bad_input_is_one_line_and_exit_status_2(app: Flask, runner: FlaskCliRunner, tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.write_text("not a backup")
    cases = {
        ("backup", str(taken)): "exists already: a backup never overwrites a file",
        ("restore", "--yes", str(tmp_path / "missing")): "no such file",
        ("restore", "--yes", str(taken)): "",  # SQLite and pg_restore word it each their own way
    }
    for args, message in cases.items():
        done = runner.invoke(args=list(args))
        assert done.exit_code == 2, (args, done.output)
        assert done.output.startswith("Error: ") and done.output.count("\n") == 1, done.output
        assert message in done.output
    assert taken.read_text() == "not a backup"
    refused = runner.invoke(args=["restore", str(taken)], input="n\n")  # asked first
    assert refused.exit_code == 1 and "Replace the whole database" in refused.output
