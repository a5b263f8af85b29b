"""Training against the clock and against oneself: the rush (`/rush`, three minutes on the server's
clock, puzzles rising with each solve, seconds lost for slips and failed turns) and the streak
(`/streak`, no clock, puzzles rising until the first one failed, one skip per run).

A run deals practice puzzles from the stored pool (never daily ones, never the generator on a
request) and plays each one as a turn, with the turn area's actions, board and compare-and-swap store:
each puzzle is an attempt that points back at its run (`models.Run`, `PlayerAttempt.run_id`). This
package owns what a run adds: the rules of each kind of run and its state read off its attempts
(`runs`, pure), dealing the next puzzle and ending a run that is over (`dealing`), and the two
blueprint registrations of `views`. Runs are unrated: they keep their own best scores
(`players.bests`) and touch neither the ratings nor the daily streak.
"""
