"""The README and the pages under docs/: every relative link reaches a file that exists (and, with a
`#fragment`, a heading in it), and the README stays short enough to read on one screen or two."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
README_MOST_LINES = 150

FENCED = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
INDENTED = re.compile(r"^(?: {4}|\t).*$", re.MULTILINE)
CODE_SPAN = re.compile(r"(`+).*?\1", re.DOTALL)
MARKDOWN_LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"""<(?:a|img)\b[^>]*?\b(?:href|src)=["']([^"']+)["']""", re.IGNORECASE)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)


def prose(text: str) -> str:
    """The text without its code, where a bracket or a URL is no link."""
    return CODE_SPAN.sub("", INDENTED.sub("", FENCED.sub("", text)))


def links(text: str) -> list[str]:
    found = prose(text)
    return MARKDOWN_LINK.findall(found) + HTML_LINK.findall(found)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    words = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    kept = "".join(
        character
        for character in words
        if character in " -_" or unicodedata.category(character)[0] in {"L", "N"}
    )
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCED.sub("", text)):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in links(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
            continue  # an absolute URL (https:, mailto:): not a file of the repository
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif fragment and file.suffix == ".md" and fragment not in anchors(file.read_text(encoding="utf-8")):
            broken.append(f"{target}: no such heading")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_reaches_a_file_and_heading(page: Path) -> None:
    assert broken_links(page) == []


def test_the_link_check_finds_a_broken_link(tmp_path: Path) -> None:
    (tmp_path / "OTHER.md").write_text("# Other page\n\n## Its part: `code`\n", encoding="utf-8")
    page = tmp_path / "PAGE.md"
    page.write_text(
        "[ok](OTHER.md) [ok](OTHER.md#its-part-code) [web](https://example.com/x.md)\n"
        "[gone](MISSING.md) [no part](OTHER.md#nowhere) <img src='pic.png' alt=''>\n"
        "`[not a link](NOWHERE.md)`\n\n    [nor this](NOWHERE.md)\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "MISSING.md: no such file",
        "OTHER.md#nowhere: no such heading",
        "pic.png: no such file",
    ]


def test_headings_are_anchored_as_github_anchors_them() -> None:
    text = "# Today's page for newcomers\n## The analyser: `/analyse`\n## Tiers\n## Tiers\n"
    assert anchors(text) == {"todays-page-for-newcomers", "the-analyser-analyse", "tiers", "tiers-1"}


def test_the_readme_fits_on_a_screen_or_two() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= README_MOST_LINES


def test_every_page_of_the_manual_is_reached_from_the_readme() -> None:
    """Each page under docs/ is linked from the README, or from a page the README leads to."""
    reached = {ROOT / "README.md"}
    waiting = [ROOT / "README.md"]
    while waiting:
        page = waiting.pop()
        for target in links(page.read_text(encoding="utf-8")):
            path = target.partition("#")[0]
            file = (page.parent / path).resolve()
            if path.endswith(".md") and file.exists() and file not in reached:
                reached.add(file)
                waiting.append(file)
    assert {page.resolve() for page in PAGES} - reached == set()
