"""Friends' tables for the daily puzzle: a player makes a group and shares its link, and the members,
each under a display name of their own picking (no account), see each other's results for today and
the week, each puzzle's only once they have finished it themselves.

`groups` keeps the groups, their links and their members (making, joining, leaving, revoking a link);
`table` (pure) decides what a member sees of the others' daily results; `views` are the pages under
`/friends`. A player's memberships are part of their record: `players.privacy` exports and erases them.
"""
