"""The position analyser: a player's own table and hand, its best play, and playing it.

A position as typed, with every problem named (`entry`, pure); the engine's analysis, cached, and the
guard that keeps an open daily puzzle's answer back (`solving`); the answer as the page shows it
(`answer`, pure); the pages `/analyse` and `/analyse/play` and `POST /api/solve` (`views`).
"""
