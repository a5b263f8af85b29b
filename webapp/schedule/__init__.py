"""Which puzzle is played when: days and puzzle numbers, the pool, daily publishing, practice.

Puzzle numbers and days (`days`, pure), the site's time (`clock`), the puzzle pool (`pool`: imported
from generator files or made by the clock), the daily schedule and its publishing (`daily`), the
practice pool and its fill (`practice`), the clock process that publishes ahead (`scheduler`, `flask
clock`) and the commands that feed it (`cli`, `rescore`), and the JSON API of the daily puzzles
(`api`). Like `review`, it imports no other area (the pages that pick a puzzle are `turn.choosing`).
"""
