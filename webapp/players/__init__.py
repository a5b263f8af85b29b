"""Players: who they are, and what their record says.

An anonymous id in the session cookie (`identity`); the record read from their attempts (`records`):
streaks (`streaks`, pure), Glicko-2 ratings (`glicko`, pure), the stats page's pictures (`charts`,
pure); transfer codes that move a record to another browser (`transfer`); idle players removed
(`pruning`); and the stats page (`views`).
"""
