"""Configuration: defaults, the environment, the secret key, production's refusals."""

from __future__ import annotations

import re
import secrets
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from webapp import create_app
from webapp.db import engine_url
from webapp.production import weakness
from webapp.settings import (
    SettingsError,
    base_url,
    check_environment,
    daily_secret,
    from_environment,
    secret_key,
)


def test_the_environment_sets_the_database_the_launch_and_the_proxies() -> None:
    config = from_environment(
        {
            "DATABASE_URL": "postgres://u@db/tavolo",
            "TAVOLO_LAUNCH_DATE": "2027-01-04",
            "TAVOLO_PROXIES": "1",
            "REDIS_URL": "redis://cache:6379/0",
            "TAVOLO_ENV": "production",
        }
    )
    assert config["DATABASE_URL"] == "postgres://u@db/tavolo"
    assert config["LAUNCH_DATE"] == date(2027, 1, 4)
    assert config["PROXIES"] == 1
    assert config["RATELIMIT_STORAGE_URI"] == "redis://cache:6379/0"
    assert config["SESSION_COOKIE_SECURE"] is True


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"TAVOLO_LAUNCH_DATE": "soon"}, "TAVOLO_LAUNCH_DATE 'soon' is not a date"),
        ({"TAVOLO_PROXIES": "one"}, "TAVOLO_PROXIES must be a whole number"),
    ],
)
def test_bad_settings_are_refused_with_a_message(environ: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        from_environment(environ)


@pytest.mark.parametrize("name", ["production", "Production", " PRODUCTION "])
def test_production_is_read_in_any_case(name: str) -> None:
    config = from_environment({"TAVOLO_ENV": name})
    assert config["ENV_NAME"] == "production" and config["SESSION_COOKIE_SECURE"] is True


@pytest.mark.parametrize("name", ["prod", "produciton", "staging", "live"])
def test_an_unknown_environment_is_refused(name: str) -> None:
    with pytest.raises(SettingsError, match=f"TAVOLO_ENV '{name}' is not one of: production, development"):
        from_environment({"TAVOLO_ENV": name})


def test_an_environment_set_in_the_instance_config_is_checked_too(tmp_path: Path) -> None:
    config: dict[str, Any] = {"ENV_NAME": "Production", "SESSION_COOKIE_SECURE": False}
    check_environment(config)
    assert config == {"ENV_NAME": "production", "SESSION_COOKIE_SECURE": True}
    with pytest.raises(SettingsError, match="TAVOLO_ENV 'prod'"):
        check_environment({"ENV_NAME": "prod"})
    with pytest.raises(SettingsError, match="TAVOLO_ENV"):
        create_app({"ENV_NAME": "Prod", "SECRET_KEY": "x", "DATABASE_URL": "sqlite://"})


@pytest.mark.parametrize(
    ("key", "variable"), [("SECRET_KEY", "SECRET_KEY"), ("DAILY_SECRET", "TAVOLO_DAILY_SECRET")]
)
def test_production_refuses_a_short_secret_naming_it(tmp_path: Path, key: str, variable: str) -> None:
    long = "7d0f3a9c2e51b84f6a0c9e37d2b15f48"
    config = {"ENV_NAME": "production", "SECRET_KEY": long, "DAILY_SECRET": long[::-1]}
    for short in ("x", long[:31]):
        with pytest.raises(
            SettingsError, match=f"^{variable} is {len(short)} characters long: .* at least 32"
        ):
            (secret_key if key == "SECRET_KEY" else daily_secret)({**config, key: short}, str(tmp_path))
    assert secret_key(config, str(tmp_path)) == long and daily_secret(config, str(tmp_path)) == long[::-1]
    # outside production a short secret is the developer's business
    assert secret_key({"SECRET_KEY": "x"}, str(tmp_path)) == "x"


@pytest.mark.parametrize(
    ("key", "variable"), [("SECRET_KEY", "SECRET_KEY"), ("DAILY_SECRET", "TAVOLO_DAILY_SECRET")]
)
@pytest.mark.parametrize(
    ("secret", "why"),
    [
        (" " * 40, "is 0 characters long"),
        ("\tkey\n" + " " * 40, "is 3 characters long"),
        ("a" * 64, "repeats 1 character"),
        ("abab" * 10, "repeats 2 characters"),
    ],
)
def test_production_refuses_a_blank_or_repetitive_secret(
    tmp_path: Path, key: str, variable: str, secret: str, why: str
) -> None:
    # the hole found: 40 spaces, or one letter 64 times, passed for a 32-character secret
    config = {
        "ENV_NAME": "production",
        "SECRET_KEY": "9f2c71d4e8a05b3f6c19e2d7a4b8f05c3e61d9a27b4c8e0f5a13d6b92e7c4f08",
        "DAILY_SECRET": "e41b7c0a9d35f826c7e04a1b9f3d62c85a7e0f49b13c6d28e5f7a0b4c91d36e2",
    }
    with pytest.raises(SettingsError, match=f"^{variable} {why}"):
        (secret_key if key == "SECRET_KEY" else daily_secret)({**config, key: secret}, str(tmp_path))


def test_hosting_urls_use_psycopg_3() -> None:
    assert engine_url("postgres://u:p@db:5432/t") == "postgresql+psycopg://u:p@db:5432/t"
    assert engine_url("postgresql://u@db/t") == "postgresql+psycopg://u@db/t"
    assert engine_url("sqlite:///x.sqlite3") == "sqlite:///x.sqlite3"


def test_a_missing_secret_key_is_generated_once_and_kept(tmp_path: Path) -> None:
    first = secret_key({}, str(tmp_path))
    assert len(first) == 64
    assert secret_key({}, str(tmp_path)) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0  # readable by its owner only
    assert secret_key({"SECRET_KEY": "set"}, str(tmp_path)) == "set"


def test_production_refuses_to_start_without_a_secret_key(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="SECRET_KEY is not set"):
        secret_key({"ENV_NAME": "production"}, str(tmp_path))
    assert not (tmp_path / "secret_key").exists()


def test_a_missing_daily_secret_is_generated_once_apart_from_the_key(tmp_path: Path) -> None:
    first = daily_secret({}, str(tmp_path))
    assert len(first) == 64 and first != secret_key({}, str(tmp_path))
    assert daily_secret({}, str(tmp_path)) == first
    assert (tmp_path / "daily_secret").stat().st_mode & 0o077 == 0
    assert daily_secret({"DAILY_SECRET": "set"}, str(tmp_path)) == "set"
    assert from_environment({"TAVOLO_DAILY_SECRET": "env"})["DAILY_SECRET"] == "env"


def test_production_refuses_to_start_without_a_daily_secret(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="TAVOLO_DAILY_SECRET is not set"):
        daily_secret({"ENV_NAME": "production", "SECRET_KEY": "set"}, str(tmp_path))
    assert not (tmp_path / "daily_secret").exists()


def test_the_factory_takes_a_test_config(app: Flask) -> None:
    assert app.testing
    assert app.config["SECRET_KEY"] == "test secret"
    assert app.config["SESSION_COOKIE_HTTPONLY"] and app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert (
        create_app({"SECRET_KEY": "x", "DATABASE_URL": "sqlite://"}).config["MAX_CONTENT_LENGTH"] == 32 * 1024
    )


def test_secure_cookies_bring_strict_transport_security(database_url: str, tmp_path: Path) -> None:
    app = create_app({"SECRET_KEY": "x", "DATABASE_URL": database_url, "SESSION_COOKIE_SECURE": True})
    response = app.test_client().get("/help")
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")


@pytest.mark.parametrize(
    "text", ["tavolo.example", "ftp://tavolo.example", "https://", "https://x.example/app"]
)
def test_a_base_url_that_is_not_a_sites_address_is_refused(text: str) -> None:
    with pytest.raises(SettingsError, match="is not a site's address"):
        base_url({"BASE_URL": text})


def test_the_base_url_names_the_one_trusted_host() -> None:
    config: dict[str, Any] = {"BASE_URL": "https://tavolo.example:8443/"}
    assert base_url(config) == "https://tavolo.example:8443"
    assert config["TRUSTED_HOSTS"] == ["tavolo.example"]
    with pytest.raises(SettingsError, match="TAVOLO_BASE_URL is not set"):
        base_url({"ENV_NAME": "production"})


KEY = "9f2c71d4e8a05b3f6c19e2d7a4b8f05c3e61d9a27b4c8e0f5a13d6b92e7c4f08"
DAILY = "e41b7c0a9d35f826c7e04a1b9f3d62c85a7e0f49b13c6d28e5f7a0b4c91d36e2"


@pytest.mark.parametrize(
    ("secret", "why"),
    [
        ("abcdefgh" * 4, "repeats a block of 8 characters"),
        ("changeme-0123456789abcdefghijklmnop", "holds the word 'changeme'"),
        ("CHANGE-ME-" + DAILY[:30], "holds the word 'change-me'"),
        ("k" + "0123456789" * 4, "holds about"),
        ("0123456789abcdefghijklmnopqrstuvwxyz", "holds about"),
        ("a" * 36 + "bcdefghij", "holds about"),
        ("my tavolo key, long enough to pass the length", "holds the word 'tavolo'"),
    ],
)
@pytest.mark.parametrize(
    ("key", "variable"), [("SECRET_KEY", "SECRET_KEY"), ("DAILY_SECRET", "TAVOLO_DAILY_SECRET")]
)
def test_production_refuses_a_secret_with_little_entropy(
    tmp_path: Path, key: str, variable: str, secret: str, why: str
) -> None:
    config = {"ENV_NAME": "production", "SECRET_KEY": KEY, "DAILY_SECRET": DAILY}
    with pytest.raises(SettingsError, match=f"^{variable} {re.escape(why)}.*secrets.token_hex"):
        (secret_key if key == "SECRET_KEY" else daily_secret)({**config, key: secret}, str(tmp_path))


def test_random_secrets_pass() -> None:
    for size in (16, 24, 32):
        for _ in range(300):
            assert weakness(secrets.token_hex(size)) is None
    assert weakness(secrets.token_urlsafe(32)) is None


def test_production_refuses_the_daily_secret_equal_to_the_key(tmp_path: Path) -> None:
    config = {"ENV_NAME": "production", "SECRET_KEY": KEY, "DAILY_SECRET": KEY}
    with pytest.raises(SettingsError, match=r"^TAVOLO_DAILY_SECRET is the same as SECRET_KEY"):
        daily_secret(config, str(tmp_path))
    assert daily_secret({**config, "ENV_NAME": "development"}, str(tmp_path)) == KEY


def production(tmp_path: Path, **environ: str) -> Flask:
    return create_app(
        {
            "ENV_NAME": "production",
            "SECRET_KEY": KEY,
            "DAILY_SECRET": DAILY,
            "BASE_URL": "https://tavolo.example",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'p.sqlite3'}",
            **from_environment(environ),
        }
    )


def test_production_refuses_rate_limits_off_unless_a_load_test_says_so(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match=r"^TAVOLO_RATE_LIMITS is off: .*TAVOLO_LOAD_TEST=yes"):
        production(tmp_path, TAVOLO_RATE_LIMITS="off")
    with pytest.raises(SettingsError, match="TAVOLO_RATE_LIMITS 'Of' is not on or off"):
        from_environment({"TAVOLO_RATE_LIMITS": "Of"})
    app = production(tmp_path, TAVOLO_RATE_LIMITS="off", TAVOLO_LOAD_TEST="yes")
    assert app.config["RATELIMIT_ENABLED"] is False
    assert production(tmp_path).config["RATELIMIT_ENABLED"] is True


def test_transfer_days_come_from_the_environment() -> None:
    assert from_environment({"TAVOLO_TRANSFER_DAYS": "7"})["TRANSFER_DAYS"] == 7
    for bad in ("0", "a week", "-3"):
        with pytest.raises(SettingsError, match="TAVOLO_TRANSFER_DAYS must be a whole number of days"):
            from_environment({"TAVOLO_TRANSFER_DAYS": bad})
