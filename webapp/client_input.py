"""Numbers a client writes in a URL or a form (a meld, the moves to beat, an archive page), pure.

Only ASCII digits count: `"²".isdigit()` is true but `int("²")` fails, and `int("١")` reads an
Arabic-Indic 1 that no page of the site ever writes.
"""

from __future__ import annotations


def small_number(text: str, most_digits: int) -> int | None:
    """`text` as a whole number written in at most `most_digits` ASCII digits (`"12"`), else None."""
    if not (text.isascii() and text.isdigit()) or len(text) > most_digits:
        return None
    return int(text)
