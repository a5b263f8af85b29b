"""Review: the puzzles a player failed, gave up, or solved with hints or slips come back after 1, 3 and 7
days (then every 7) until they are solved clean, as Lichess's puzzle dashboard sends back what went
wrong.

Each return is a *review round*: an attempt of its own (`PlayerAttempt.review`, 1, 2, ...) played on
the turn blueprint's `review` registration, `/review/<code>`. It counts among the stats' practice
figures, never for the daily streak, and moves no rating, the player's or the puzzle's: every finished
turn's result shows the solution, so a round is a replay of it. `spacing` (pure) says what comes back
when; `queue` reads it from the player's attempts. Like `schedule`, the area imports no other;
`players` and `turn` import it, so that the stats page can say how many wait and the turn can find a
review round's page.
"""

from webapp.review import due as due  # the turns' writes keep `comes_back` from import on
