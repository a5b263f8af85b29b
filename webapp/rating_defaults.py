"""Where every rating starts, a player's and a puzzle's: Glicko-2's own defaults.

The tables' columns (`models`) take them as their defaults and `players.glicko` reckons from them; they
live here, below both, so that the tables import no area. Pure: no Flask, no database.
"""

from __future__ import annotations

DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
