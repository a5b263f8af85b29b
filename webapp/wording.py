"""What the pages say, in the player's language: `Words` from the pure modules, the engine's
`Problem` values, and cards in the player's deck letters.

`say(value)` renders any of them (and passes other values through); Jinja calls it on every
`{{ ... }}` (the environment's `finalize`), so a template prints a `Words` or a `Problem` as it prints
text.
"""

from __future__ import annotations

import re
from datetime import date
from typing import TYPE_CHECKING, Any

from babel.dates import format_skeleton, get_day_names
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.support import NullTranslations
from flask import Flask
from flask_babel import format_date, format_percent, get_locale, get_translations, lazy_gettext
from flask_babel import gettext as babel_gettext
from flask_babel import ngettext as babel_ngettext
from markupsafe import Markup, escape

from puzzles import Card, PresetName, Problem, Rules, RulesError, Suit, Words
from webapp.languages import (
    letters,
    page_language,
    per_locale,
    rank_text,
    shown_card,
    suit_legend,
    suit_letters,
)

if TYPE_CHECKING:
    from limits import RateLimitItem


def say(value: Any) -> Any:
    """Words or a problem as the player reads them; anything else as it is (a card stays a card: a
    template prints its token, `10H`, in attributes)."""
    if isinstance(value, Words):
        return value.render(gettext, ngettext, _shown)
    if isinstance(value, Problem):
        return problem_words(value)
    return value


def _shown(value: Any) -> str:
    """A value inside a sentence: cards in the player's letters, a day in words, words said."""
    if isinstance(value, Card):
        return shown_card(value, letters())
    if isinstance(value, tuple) and value and all(isinstance(card, Card) for card in value):
        return cards_text([shown_card(card, letters()) for card in value])
    if isinstance(value, date):
        return day_words(value, "long")
    if isinstance(value, PresetName):
        return rules_title(value)
    return str(say(value))


UNBROKEN_CARDS = 5
"""The most cards of a meld that a sentence keeps on one line whatever the width: a run of ten
joined by no-break spaces is wider than a 320 px phone's line, and ran off the result card."""


def cards_text(shown: list[str]) -> str:
    """Cards in a sentence, kept together: no-break spaces inside groups of at most UNBROKEN_CARDS
    of about equal size, a plain space between groups. A set, or a run of up to five, never splits;
    a longer run splits, where the line is too narrow for it, only between its groups, never inside
    a card."""
    groups = -(-len(shown) // UNBROKEN_CARDS)
    size, extra = divmod(len(shown), groups)
    parts, start = [], 0
    for group in range(groups):
        end = start + size + (group < extra)
        parts.append("\u00a0".join(shown[start:end]))
        start = end
    return " ".join(parts)


def problem_words(problem: Problem) -> str:
    """The engine's problem in the player's language, its cards in their deck letters."""
    return problem.render(gettext, ngettext, _shown)


def gettext(message: str, **values: Any) -> str:
    """Flask-Babel's `gettext`, typed."""
    return str(babel_gettext(message, **values))


def ngettext(singular: str, plural: str, count: int, /, **values: Any) -> str:
    """Flask-Babel's `ngettext`, typed: `%(num)d` is the count."""
    return str(babel_ngettext(singular, plural, count, **values))


def rate_limit_words(limit: RateLimitItem, solver: bool = False, seconds: bool = False) -> str:
    """A rate limit in the player's language: `30 per minute`, `3 solver seconds per 5 minutes`
    (limits' own text, `30 per 1 minute`, is English whatever the page's language)."""
    amount, multiples, granularity = limit.amount, limit.multiples, limit.GRANULARITY.name
    windows = {
        "second": lambda: ngettext("second", "%(num)d seconds", multiples),
        "minute": lambda: ngettext("minute", "%(num)d minutes", multiples),
        "hour": lambda: ngettext("hour", "%(num)d hours", multiples),
        "day": lambda: ngettext("day", "%(num)d days", multiples),
        "month": lambda: ngettext("month", "%(num)d months", multiples),
        "year": lambda: ngettext("year", "%(num)d years", multiples),
    }
    window = windows[granularity]() if granularity in windows else f"{multiples} {granularity}"
    if solver:
        return ngettext(
            "%(num)d solver second per %(window)s",
            "%(num)d solver seconds per %(window)s",
            amount,
            window=window,
        )
    if seconds:
        return ngettext(
            "%(num)d second per %(window)s", "%(num)d seconds per %(window)s", amount, window=window
        )
    return gettext("%(count)s per %(window)s", count=amount, window=window)


TIERS = {
    "easy": lazy_gettext("Easy"),
    "medium": lazy_gettext("Medium"),
    "hard": lazy_gettext("Hard"),
    "expert": lazy_gettext("Expert"),
    "master": lazy_gettext("Master"),
}
"""The tiers' names, as the chips show them."""


def tier_name(tier: str) -> str:
    return str(TIERS[tier]) if tier in TIERS else tier


def numbers_kept(text: str) -> Markup:
    """A sentence whose numbers stay on the line of the words either side of them ("meld 3" never
    wraps into "meld / 3", nor "3 minutes" into "3 / minutes"): each space before or after a number
    becomes a no-break space."""
    return Markup(re.sub(r" (?=\d)|(?<=\d) ", "\u00a0", str(escape(text))))


def rules_title(rules: Rules | str) -> str:
    """A preset's name in the player's language (`Three decks`); an unknown name as it is."""
    try:
        preset = rules if isinstance(rules, Rules) else Rules.named(rules)
    except RulesError:
        return str(rules)
    return gettext(preset.title)


def rules_about(rules: Rules | str) -> str:
    """A preset's one-line description (`German leaflet: two decks, ...`) in the player's language."""
    preset = rules if isinstance(rules, Rules) else Rules.named(rules)
    return gettext(preset.description)


def day_words(day: date, length: str = "short") -> str:
    """A day as the player's language writes it: `Tue, 1 Dec 2026` (short), `1 December 2026` (long),
    `Tuesday, 1 December 2026` (full) or `1 Dec` (brief: a chart's axis)."""
    if length == "brief":
        return str(format_skeleton("MMMd", day, locale=get_locale()))
    if length == "short":
        return str(format_skeleton("yMMMEd", day, locale=get_locale()))
    return str(format_date(day, length))


def month_words(day: date) -> str:
    """The month's short name, standing alone (a calendar's column head)."""
    return str(format_date(day, "LLL"))


def weekday_words(weekday: int) -> str:
    """Monday (0) to Sunday (6), in the short form a calendar's row head takes."""
    return str(get_day_names("short", locale=get_locale())[weekday])


def number_words(value: float) -> str:
    """`2,5` in German, `2.5` in English; without grouping, as a rating of 1662 is written."""
    return str(format_decimal(value, locale=get_locale(), group_separator=False))


def percent_words(percent: float) -> str:
    """`57 %` in German, `57%` in English: from a number of percent."""
    return str(format_percent(percent / 100))


def hand_points(rules: Rules) -> str:
    """The preset's hand points: `A 1, 2-9 face value, 10 J Q K 10`, in the player's deck letters."""
    points, deck = rules.points, letters()
    values = {
        "ace": rank_text(Card(1, Suit.SPADES), deck),
        "courts": " ".join(rank_text(Card(rank, Suit.SPADES), deck) for rank in (11, 12, 13)),
        "ace_points": points.ace,
        "ten": points.ten,
        "face": points.face,
    }
    if points.ten == points.face:
        said = gettext("%(ace)s %(ace_points)s, 2-9 face value, 10 %(courts)s %(face)s", **values)
    else:
        said = gettext("%(ace)s %(ace_points)s, 2-9 face value, 10 %(ten)s, %(courts)s %(face)s", **values)
    if rules.jokers:
        said = gettext("%(points)s, joker %(joker)s", points=said, joker=points.joker)
    return said


def list_words(items: list[str] | tuple[str, ...]) -> str:
    """`1, 2 and 4`, with the player's language's `and`."""
    return str(format_list(list(items), locale=get_locale())) if items else ""


def script_words() -> dict[str, str]:
    """What play.js and analyser.js write by themselves, in the player's language."""
    return {
        "unanswered": gettext("The server did not answer. Check the connection and try again."),
        "copied": gettext("Copied"),
        "reload": gettext("now: reload"),
        "left": gettext("left: %(count)s", count="%s"),
        "none_left": gettext("none left in these rules"),
        "earlier_answer": gettext("The last answer, to the position before:"),
        "chain_retry": gettext("The solver is busy: trying again in %(seconds)s s.", seconds="%s"),
        "chain_gave_up": gettext("The solver is busy: the chain length was not worked out."),
    }


def _translations() -> NullTranslations:
    """This request's catalogue for the templates' `_()`, looked up once per request and locale.

    Flask-Babel's own template callables look it up on every call: four context lookups and the
    locale named again (`str(Locale)`), about 15 µs each, and a board says some 80 words: 1 ms of a
    step POST's CPU. Kept with the locale it was found for, so `force_locale` still switches it."""
    translations: NullTranslations = per_locale("tavolo_translations", get_translations)
    return translations


def init_app(app: Flask) -> None:
    # in place of Flask-Babel's (installed by `languages.init_app`): the same calls, the catalogue
    # looked up once per request
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: _translations().ugettext(s),
        ngettext=lambda s, p, n: _translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: _translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: _translations().unpgettext(c, s, p, n),
    )
    app.jinja_env.finalize = say
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.jinja_env.filters.update(
        say=say,
        tier=tier_name,
        rules_title=rules_title,
        numbers_kept=numbers_kept,
        rules_about=rules_about,
        day=day_words,
        month=month_words,
        number=number_words,
        percent=percent_words,
        list_words=list_words,
        say_cards=_shown,
    )
    app.jinja_env.globals.update(
        page_language=page_language,
        script_words=script_words,
        weekday=weekday_words,
        hand_points=hand_points,
        suit_legend=suit_legend,
        suit_letters=suit_letters,
        gettext_of=gettext,
    )
