"""Friends' tables in headless Chromium: one player makes a table and gives up today's puzzle, a friend
joins by the link and sees the results locked until they finish too. On a 360 px phone and a desktop,
light and dark, with axe-core on every page; and at 320 and 360 px in each language, no page wider
than the phone.

Screenshots go to artifacts/friends-*.png for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS, DEVICES, accessibility_problems
from tests.browser.test_widths_in_chromium import LOCALES, too_wide


def shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"friends-{name}.png"), full_page=True)  # type: ignore[attr-defined]


def make_table(page: object, site: str, table: str, name: str) -> str:
    """Make a table through its form; returns its invitation link."""
    page.goto(site + "/friends")  # type: ignore[attr-defined]
    page.fill("#table", table)  # type: ignore[attr-defined]
    page.fill("#name", name)  # type: ignore[attr-defined]
    page.click(".friend-form .button")  # type: ignore[attr-defined]
    page.wait_for_selector("#friend-link")  # type: ignore[attr-defined]
    return str(page.text_content("#friend-link")).strip()


def give_up_today(page: object, site: str) -> None:
    page.goto(site + "/")  # type: ignore[attr-defined]
    page.click(".give-up summary")  # type: ignore[attr-defined]
    page.click(".give-up .danger")  # type: ignore[attr-defined]
    page.wait_for_selector("#result")  # type: ignore[attr-defined]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_table_made_joined_and_played_passes_axe(
    browser: object, site: str, device: str, scheme: str
) -> None:
    options = {"color_scheme": scheme, "timezone_id": "UTC", **DEVICES[device]}
    anna = browser.new_context(**options).new_page()  # type: ignore[attr-defined]
    bruno = browser.new_context(**options).new_page()  # type: ignore[attr-defined]
    found: dict[str, list[str]] = {}

    def check(page: object, name: str) -> None:
        page.wait_for_load_state("load")  # type: ignore[attr-defined]
        shot(page, f"{device}-{scheme}-{name}")
        problems = accessibility_problems(page)
        if problems:
            found[name] = problems

    link = make_table(anna, site, "Family", "Anna <3")
    give_up_today(anna, site)
    anna.goto(site + "/friends")
    check(anna, "list")
    anna.click(".friend-tables a")
    anna.wait_for_selector(".friend-results")
    bruno.goto(link)
    check(bruno, "join")
    bruno.fill("#name", "anna <3")  # taken, whatever the case
    bruno.click(".friend-form .button")
    assert bruno.locator("#join-error").is_visible()
    check(bruno, "join-taken")
    bruno.fill("#name", "Bruno")
    bruno.click(".friend-form .button")
    bruno.wait_for_selector("#locked")
    assert bruno.locator(".friend-results").count() == 0  # Anna's result stays hidden from Bruno
    check(bruno, "locked")
    table_url = bruno.url
    give_up_today(bruno, site)
    bruno.goto(table_url)
    bruno.wait_for_selector(".friend-results")
    names = bruno.locator(".friend-results tbody .friend-name").all_text_contents()
    assert [name.split("(")[0].strip() for name in names] == ["Anna <3", "Bruno"]  # both gave up: by name
    check(bruno, "open")
    # the keeper replaces the link: the old one says it is no longer valid
    anna.reload()
    anna.click("form[action$='/revoke'] .button")
    anna.wait_for_selector("#friend-link")
    assert str(anna.text_content("#friend-link")).strip() != link
    check(anna, "keeper")
    late = browser.new_context(**options).new_page()  # type: ignore[attr-defined]
    answer = late.goto(link)
    assert answer is not None and answer.status == 410
    check(late, "revoked")
    assert found == {}


@pytest.mark.parametrize("width", [320, 360])
@pytest.mark.parametrize("language", sorted(LOCALES))
def test_the_friends_pages_fit_the_phone_in_each_language(
    browser: object, site: str, language: str, width: int
) -> None:
    options = {
        "locale": LOCALES[language],
        "viewport": {"width": width, "height": 740},
        "device_scale_factor": 2,
        "has_touch": True,
    }
    anna = browser.new_context(**options).new_page()  # type: ignore[attr-defined]
    bruno = browser.new_context(**options).new_page()  # type: ignore[attr-defined]

    def check(page: object, name: str) -> None:
        assert page.get_attribute("html", "lang") == language, name  # type: ignore[attr-defined]
        shot(page, f"{language}-{width}-{name}")
        assert too_wide(page, width) == [], name

    link = make_table(anna, site, "Wielka rodzina Kowalskich", "Małgorzata Brzęczyszczyk")
    bruno.goto(link)
    check(bruno, "join")
    bruno.fill("#name", "Bartholomäus-Friedrich X")
    bruno.click(".friend-form .button")
    bruno.wait_for_selector("#locked")
    check(bruno, "locked")
    give_up_today(anna, site)
    anna.goto(site + "/friends")
    check(anna, "list")
    anna.click(".friend-tables a")
    anna.wait_for_selector(".friend-results")
    check(anna, "open")
