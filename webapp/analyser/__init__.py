"""The position analyser: a player's own table and hand, its best play, and playing it.

A position as typed is read by the engine, every problem named (`puzzles.read_entry`); the engine's
analysis in its two phases through the solver gate, kept under the canonical position (`solving`);
the page and its chain length's cell drawn from the answers the views solved (`rendering`); the
spoiler guard that keeps back the answer of a puzzle the caller may still play, an open daily or
their own unfinished attempt (`guard`); the answer as the page shows it (`answer`, pure); the pages
`/analyse`, `/analyse/chain` and `/analyse/play`, and `POST /api/solve` (`views`).
"""
