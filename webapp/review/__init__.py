"""Review: the puzzles a player failed, gave up, or solved with hints or slips come back after 1, 3
and 7 days (then every 7) until they are solved clean, as Lichess's puzzle dashboard sends back what
went wrong.

Each return is a *review round*: an attempt of its own (`PlayerAttempt.review`, 1, 2, ...) played
on the turn blueprint's `review` registration, `/review/<code>`. It counts as practice does (the
stats' practice figures, the player's rating), never for the daily streak, and moves no puzzle's
rating (the player has seen its solution). `spacing` (pure) says what comes back when; `queue`
reads it from the player's attempts. Like `schedule`, the area imports no other; `players` and `turn`
import it, so that the stats page can say how many wait and the turn can find a review round's page.
"""
