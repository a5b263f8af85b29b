"""A turn at a puzzle as the site keeps it: requests, the stored attempt, timed turns and the result.

What a turn does to the cards (the board, its moves and meld states, the step check's verdict, the
hint ladder) is the engine's (`puzzles.Board`, `puzzles.progress`, `puzzles.hint`). A player's turn
lives in the database as an attempt; this package owns everything that reads or changes one: what
an action does to an attempt (`attempts`), a request's action answered as a `Turn` (`actions`) and
how it is stored with compare and swap (`store`), the page a turn is played on (`modes`, `result`,
`rendering`, `turn_view`) and the one turn blueprint (`views`) that `create_app` registers once per
`Mode`: the daily puzzle, the archive, practice and review; and the pages that lead to a turn
(`choosing`: the home page `/`, today's puzzle; the archive list of `archive`, practice's chooser,
the review list).
"""
