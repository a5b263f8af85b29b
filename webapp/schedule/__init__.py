"""Which puzzle is played when: days and puzzle numbers, the pool, daily publishing, practice.

Puzzle numbers and days (`days`, pure), the site's time (`clock`), the puzzle pool (`pool`: imported
from generator files or made on demand), the daily schedule and its publishing (`daily`), the
practice pool and its fill (`practice`), the archive list (`archive`), the clock process that
publishes ahead (`scheduler`, `flask clock`) and the commands that feed it (`cli`), with the pages
that pick a puzzle (`views`: today, the archive, practice) and the JSON API of the daily puzzles
(`api`).
"""
