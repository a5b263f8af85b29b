"""What production refuses to start with (`settings` reads the configuration, this says no): an
unknown environment, rate limits off without a load test, and guessable secrets (too short, too few
characters, a placeholder word, one block repeated, or too few bits as estimated from its characters
and from the steps between them)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any

import click


class SettingsError(click.ClickException):
    """A configuration the site refuses to start with. A `flask` command (`db upgrade` before the
    server starts, the clock) says it in one line and exits 2, as every command refuses bad input."""

    exit_code = 2


ENVIRONMENTS = ("production", "development")


def environment_name(text: object) -> str:
    """`TAVOLO_ENV` in any case (`Production` is production); anything else is refused, since a
    misspelt production would otherwise start with insecure cookies and no secrets required."""
    name = str(text).strip().lower()
    if name not in ENVIRONMENTS:
        raise SettingsError(f"TAVOLO_ENV {str(text)[:30]!r} is not one of: {', '.join(ENVIRONMENTS)}")
    return name


def check_environment(config: dict[str, Any]) -> None:
    """The merged settings' environment, whichever source set it (`instance/config.py` too):
    production always has Secure cookies (and so HSTS)."""
    config["ENV_NAME"] = environment_name(config.get("ENV_NAME") or "development")
    if config["ENV_NAME"] == "production":
        config["SESSION_COOKIE_SECURE"] = True


def check_rate_limits(config: Mapping[str, Any]) -> None:
    """Production with the rate limits off only for a load test that says so: a leftover
    `TAVOLO_RATE_LIMITS=off` would otherwise open every page to a flood without a word."""
    production = config.get("ENV_NAME") == "production"
    if production and not config.get("RATELIMIT_ENABLED", True) and not config.get("LOAD_TEST"):
        raise SettingsError(
            "TAVOLO_RATE_LIMITS is off: production refuses to start so unless TAVOLO_LOAD_TEST=yes"
        )


SECRET_LEAST_LENGTH = 32
"""Characters a production secret needs at least: a short key can be guessed offline from any one
signed cookie, and then a cookie forged for a known player id."""
MAKE_SECRET = "(python3 -c 'import secrets; print(secrets.token_hex(32))')"
"""How to make a secret that passes, said by both refusals."""
SECRET_LEAST_KINDS = 8
"""Different characters a production secret needs at least: 64 times one letter is as easily guessed
as one letter (a hex token of 32 characters has 8 or more but once in about 10^15)."""


def refusal(variable: str, secret: str) -> str | None:
    """Why production refuses `secret` as `variable`, in one line naming it; None when it passes."""
    if len(secret) < SECRET_LEAST_LENGTH:
        return (
            f"{variable} is {len(secret)} characters long: production needs at least "
            f"{SECRET_LEAST_LENGTH} {MAKE_SECRET}"
        )
    kinds = len(set(secret))
    if kinds < SECRET_LEAST_KINDS:
        plural = "s" if kinds > 1 else ""
        return f"{variable} repeats {kinds} character{plural}: production needs a random one {MAKE_SECRET}"
    weak = weakness(secret)
    return None if weak is None else f"{variable} {weak}: production needs a random one {MAKE_SECRET}"


PLACEHOLDERS = ("changeme", "change-me", "change_me", "password", "secret", "example", "default", "tavolo")
"""Words a secret copied from a sample or typed by hand holds; a random one never does."""
SECRET_LEAST_BITS = 80
"""The least a secret may hold, as `weakness` estimates it: a random hex secret of 32 characters holds
about 115, `abcdefgh` four times 96 by its characters but 19 by its steps."""


def weakness(secret: str) -> str | None:
    """Why `secret` is guessable, or None: it holds a placeholder word, repeats one block over and over,
    or holds too little, estimated from how often each character comes and how often each step from
    one character to the next (`0123456789abcdef...` has many characters but one step)."""
    lowered = secret.lower()
    for word in PLACEHOLDERS:
        if word in lowered:
            return f"holds the word {word!r}"
    length = len(secret)
    for period in range(1, length // 2 + 1):
        if all(secret[index] == secret[index - period] for index in range(period, length)):
            return f"repeats a block of {period} characters"
    steps = [ord(after) - ord(before) for before, after in itertools.pairwise(secret)]
    bits = min(_bits(list(secret)), _bits(steps))
    if bits < SECRET_LEAST_BITS:
        return f"holds about {bits} bits, fewer than {SECRET_LEAST_BITS}"
    return None


def _bits(symbols: list[Any]) -> int:
    """How many bits `symbols` hold if each were drawn at random as often as it comes (Shannon)."""
    counts: dict[Any, int] = {}
    for symbol in symbols:
        counts[symbol] = counts.get(symbol, 0) + 1
    total = len(symbols)
    return round(-sum(count * math.log2(count / total) for count in counts.values()))
