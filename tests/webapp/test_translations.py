"""The catalogs are complete, and the site speaks the player's language: chosen in the settings, else
the browser's, else English; with the deck letters of that language and its dates and numbers."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import Markup

from puzzles import (
    PRESETS,
    AmbiguousCard,
    Card,
    Problem,
    ProblemCode,
    Rules,
    Words,
    read_card,
    read_entry,
    words,
)
from tests.webapp.conftest import csrf_token
from webapp.languages import LANGUAGE_COOKIE, LETTERS_COOKIE, SUIT_LETTERS
from webapp.templating import JINJA_OPTIONS
from webapp.wording import numbers_kept, problem_words, say

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("it", "de", "pl")
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    **{"words": None, "words_n": (1, 2), "N_": None, "Nn_": (1, 2), "lazy_gettext": None},
}
"""The Makefile's `make messages` keywords: Babel's own, and the engine's words and markers."""


def extracted() -> set[str]:
    """Every message the code and templates hold, as `make messages` extracts them."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS
    ):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


def catalog(language: str) -> Catalog:
    with open(ROOT / "webapp" / "translations" / language / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po, locale=language)


@pytest.fixture(scope="module")
def messages() -> set[str]:
    return extracted()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(language: str, messages: set[str]) -> None:
    translations = catalog(language)
    assert messages, "the extraction found no message at all"
    by_id = {
        message.id[0] if isinstance(message.id, tuple) else message.id: message for message in translations
    }
    missing = sorted(messages - set(by_id))
    assert not missing, f"{language}: not in the catalog (run make messages): {missing[:5]}"
    untranslated, fuzzy = [], []
    for text in messages:
        message = by_id[text]
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(forms):
            untranslated.append(text)
        if message.fuzzy:
            fuzzy.append(text)
    assert not untranslated, f"{language}: untranslated: {sorted(untranslated)[:5]}"
    assert not fuzzy, f"{language}: fuzzy: {sorted(fuzzy)[:5]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_keeps_the_placeholders_of_its_message(language: str) -> None:
    problems = [
        (message.id, [str(error) for error in errors])
        for message, errors in catalog(language).check()
        if errors
    ]
    assert not problems, problems[:3]


def test_a_catalog_with_an_empty_or_fuzzy_entry_is_caught(messages: set[str]) -> None:
    """The check above can fail: a message left empty, or marked fuzzy, shows up."""
    translations = catalog("de")
    text = sorted(messages)[0]
    message = translations[text]
    assert message is not None and message.string and not message.fuzzy
    message.string = ""
    assert not all(message.string if isinstance(message.string, tuple) else (message.string,))
    message.flags.add("fuzzy")
    assert message.fuzzy


def page(client: FlaskClient, path: str, **headers: str) -> str:
    return html.unescape(client.get(path, headers=headers).get_data(as_text=True))


def test_the_browser_language_picks_the_page_language_and_english_is_the_fallback(
    client: FlaskClient, published: int
) -> None:
    german = page(client, "/help", **{"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    assert '<html lang="de">' in german and "So wird gespielt" in german
    polish = page(client, "/help", **{"Accept-Language": "pl"})
    assert '<html lang="pl">' in polish and "Jak grać" in polish
    for unknown in ("fr-FR", "", "xx;q=garbage", "*"):
        english = page(client, "/help", **{"Accept-Language": unknown})
        assert '<html lang="en">' in english and "How to play" in english, unknown


def test_the_cookie_wins_over_the_browser_and_a_garbage_cookie_is_ignored(client: FlaskClient) -> None:
    client.set_cookie(LANGUAGE_COOKIE, "it")
    assert '<html lang="it">' in page(client, "/help", **{"Accept-Language": "de"})
    client.set_cookie(LANGUAGE_COOKIE, '"><script>')
    assert '<html lang="de">' in page(client, "/help", **{"Accept-Language": "de"})


def test_the_settings_save_the_language_and_say_so_in_it(client: FlaskClient) -> None:
    token = csrf_token(client, "/settings")
    saved = client.post(
        "/settings", data={"csrf_token": token, "deck": "two", "language": "pl", "letters": ""}
    )
    assert saved.status_code == 303
    cookies = saved.headers.getlist("Set-Cookie")
    assert any(cookie.startswith(f"{LANGUAGE_COOKIE}=pl;") and "HttpOnly" in cookie for cookie in cookies)
    settings = page(client, "/settings")
    assert '<p class="flash" role="status">Zapisano.</p>' in settings
    assert '<option value="pl" lang="pl" selected>Polski</option>' in settings
    refused = client.post("/settings", data={"csrf_token": token, "deck": "two", "language": "fr"})
    assert refused.status_code == 400 and "Wybierz język" in refused.get_data(as_text=True)


def test_pages_that_depend_on_the_language_say_so_in_vary(client: FlaskClient, published: int) -> None:
    for path in ("/", f"/puzzles/{published}", "/help", "/nowhere", f"/puzzles/{published}/preview.svg"):
        vary = client.get(path).headers.get("Vary", "")
        assert "Accept-Language" in vary and "Cookie" in vary, path
    assert "Accept-Language" not in client.get("/static/tavolo.css").headers.get("Vary", "")


def test_the_untouched_page_cache_keeps_one_rendering_per_language(app: Flask, published: int) -> None:
    """A puzzle nobody has moved a card of is rendered once per process: once per language."""
    for order in (("de", "en"), ("en", "de")):
        app.extensions.pop("tavolo.cache.untouched pages", None)
        for language in order:
            seen = page(app.test_client(), f"/puzzles/{published}", **{"Accept-Language": language})
            assert f'<html lang="{language}">' in seen
            assert ("Zug beenden" in seen) == (language == "de"), order
            assert ("End turn" in seen) == (language == "en"), order


def test_a_german_page_draws_the_queen_as_d_and_dates_as_germans_write_them(
    client: FlaskClient, published: int
) -> None:
    german = page(client, "/help", **{"Accept-Language": "de"})
    assert re.search(r'<span class="corner" aria-hidden="true">D<br>♣</span>', german)
    assert "Eine einsame D♣ findet einen Satz" in german
    assert "nie D-K-A" in german
    client.set_cookie(LETTERS_COOKIE, "english")  # a German who plays with an English deck
    assert "Eine einsame Q♣ findet einen Satz" in page(client, "/help", **{"Accept-Language": "de"})
    play = page(client, f"/puzzles/{published}", **{"Accept-Language": "de"})
    day = re.search(r'<span class="date">([^<]+)</span>', play)
    assert day and re.fullmatch(r"[A-Z][a-z]\., \d{1,2}\. [A-Z][a-zä]+\.? \d{4}", day.group(1)), day


def test_the_analyser_reads_the_decks_letters_where_no_suit_can_be_meant() -> None:
    german, polish = "BDKA", "WDKA"
    assert read_card("DH", german) == Card.parse("QH")
    assert read_card("BS", german) == Card.parse("JS")
    assert read_card("DD", german) == Card.parse("QD")  # the last letter is the suit
    assert read_card("WC", polish) == Card.parse("JC")
    assert read_card("QH", german) == Card.parse("QH")  # the engine's letters keep their meaning
    assert read_card("10D", german) == Card.parse("10D")
    with pytest.raises(ValueError):
        read_card("BS", "JQKA")  # B is no rank on an English deck


def test_the_analyser_page_reads_a_german_queen(client: FlaskClient) -> None:
    client.set_cookie(LANGUAGE_COOKIE, "de")
    answer = page(client, "/analyse?rules=classic&table=DH+DD+DS&hand=DC&objective=cards")
    assert "Der beste Zug legt deine einzige Karte ab" in answer
    assert "ist keine Karte" not in answer


def test_each_language_reads_its_own_suit_letters_and_refuses_a_letter_of_two_suits() -> None:
    italian, german, polish = SUIT_LETTERS["it"], SUIT_LETTERS["de"], SUIT_LETTERS["pl"]
    # Italian: picche, cuori, quadri, fiori; a C is cuori, never clubs; English S H D still read
    assert [read_card(token, "JQKA", italian) for token in ("QP", "QC", "QQ", "QF", "10S", "7H", "7D")] == [
        Card.parse(token) for token in ("QS", "QH", "QD", "QC", "10S", "7H", "7D")
    ]
    assert read_card("QC") == Card.parse("QC")  # on an English page, clubs
    # German: Pik and Herz; Karo and Kreuz are both K, so a K suit is refused with both readings
    assert read_card("DP", "BDKA", german) == Card.parse("QS")
    assert read_card("DH", "BDKA", german) == Card.parse("QH")
    assert read_card("DD", "BDKA", german) == Card.parse("QD")  # the English D: no German suit is D
    with pytest.raises(AmbiguousCard) as german_k:
        read_card("DK", "BDKA", german)
    assert german_k.value.readings == (Card.parse("QD"), Card.parse("QC"))
    # Polish: pik and trefl; kier and karo are both K
    assert read_card("KT", "WDKA", polish) == Card.parse("KC")
    with pytest.raises(AmbiguousCard):
        read_card("KK", "WDKA", polish)
    # symbols and the joker read the same everywhere
    for suits in (italian, german, polish):
        assert (
            read_card("10♥", "JQKA", suits) == Card.parse("10H") and read_card("JK", "JQKA", suits).is_joker
        )


@pytest.mark.parametrize(
    ("language", "hand", "drawn", "refused"),
    [
        ("en", "QC", "Q♣", None),
        ("it", "QC", "Q♥", None),
        ("it", "QF", "Q♣", None),
        ("de", "DK", None, "'DK' könnte D♦ oder D♣ sein"),
        ("pl", "DK", None, "'DK' może oznaczać D♥ albo D♦"),
    ],
)
def test_the_analyser_reads_the_pages_letters_and_says_which_it_reads(
    client: FlaskClient, language: str, hand: str, drawn: str | None, refused: str | None
) -> None:
    client.set_cookie(LANGUAGE_COOKIE, language)
    answer = page(client, f"/analyse?rules=classic&table=3S+4S+5S&hand={hand}&objective=cards")
    typed = re.search(r'<div class="meld-cards hand-cards">(.*?)</div>', answer, re.S)
    if drawn is not None:
        assert typed and f'aria-label="{drawn}"' in typed.group(1)
    if refused is not None:
        assert refused in answer
    # the legend by the fields names the letters read here
    legend = re.search(r'<p class="field-hint card-letters" id="card-letters">(.*?)</p>', answer, re.S)
    assert legend and {"en": "C = ♣", "it": "C = ♥", "de": "P = ♠", "pl": "T = ♣"}[language] in legend.group(
        1
    )


def test_the_engines_problems_are_values_worded_in_the_players_language(app: Flask) -> None:
    gap = Problem(ProblemCode.GAP, (Card.parse("4S"), Card.parse("7S")))
    assert str(gap) == "gap between 4♠ and 7♠"  # the CLI's English one-liner
    left = Problem(ProblemCode.LEFT_TABLE, (Card.parse("QH"),))
    in_meld = Problem(ProblemCode.MELD, (Card.parse("4S"), Card.parse("5S"), Card.parse("7S")), 2, inner=gap)
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert problem_words(gap) == "buco tra 4♠ e 7♠"
        assert problem_words(in_meld) == "combinazione 2 (4♠ 5♠ 7♠): buco tra 4♠ e 7♠"
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert problem_words(left) == "D♥ hat den Tisch verlassen"
        low = Problem(ProblemCode.GAP, gap.cards, rules=Rules.named("classic").name, ace_low_only=True)
        # the preset by its German title: `classic` is the name the CLI and the JSON API read
        assert problem_words(low).endswith("(bei den Regeln „Klassisch“ ist das Ass nur niedrig)")
        assert str(low).endswith("(the ace is low only in the classic rules)")
    with app.test_request_context(headers={"Accept-Language": "pl"}):
        assert problem_words(Problem(ProblemCode.TOO_FEW, count=2)) == "tylko 2 karty"
        assert problem_words(Problem(ProblemCode.TOO_FEW, count=1)) == "tylko 1 karta"


def test_plurals_follow_each_languages_rules(app: Flask) -> None:
    from puzzles import words_n
    from webapp.wording import say

    moves = {n: words_n("%(num)d move", "%(num)d moves", n) for n in (1, 2, 5, 22)}
    with app.test_request_context(headers={"Accept-Language": "pl"}):
        assert [say(moves[n]) for n in (1, 2, 5, 22)] == ["1 ruch", "2 ruchy", "5 ruchów", "22 ruchy"]
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert [say(moves[n]) for n in (1, 2)] == ["1 mossa", "2 mosse"]


def test_words_keep_their_cards_through_the_database() -> None:
    said = words("One meld of the best table: %(meld)s.", meld=(Card.parse("QH"), Card.parse("QD")))
    again = Words.from_json(said.to_json())
    assert again == said and str(again) == "One meld of the best table: Q♥ Q♦."
    assert str(Words.from_json("Older English text")) == "Older English text"


def test_german_pages_show_no_english_sentence_of_the_catalog(client: FlaskClient, published: int) -> None:
    """What the catalog translates, the page says translated: extraction and rendering agree."""
    sentences = [
        str(message.id)
        for message in catalog("de")
        if isinstance(message.id, str)
        and "%" not in message.id
        and "<" not in message.id
        and len(message.id.split()) >= 4
        and message.string != message.id
    ]
    assert len(sentences) > 50
    for path in (
        "/",
        f"/puzzles/{published}",
        "/help",
        "/settings",
        "/stats",
        "/archive",
        "/practice",
        "/analyse",
    ):
        seen = page(client, path, **{"Accept-Language": "de"})
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", seen))
        english = [sentence for sentence in sentences if sentence in text]
        assert english == [], (path, english[:3])


def vocabulary(language: str) -> dict[str, set[str]]:
    """Every word of the catalog's messages in `language`, and apart, its one-word messages."""
    texts = [
        str(message.id if language == "en" else message.string)
        for message in catalog("it" if language == "en" else language)
        if isinstance(message.id, str) and isinstance(message.string, str)
    ]
    return {
        "all": {word for text in texts for word in re.findall(r"\w+", text)},
        "alone": {text for text in texts if re.fullmatch(r"\w{4,}", text)},
    }


def page_words(client: FlaskClient, path: str, language: str) -> set[str]:
    seen = page(client, path, **{"Accept-Language": language})
    return set(re.findall(r"\w+", re.sub(r"<[^>]+>", " ", seen)))


@pytest.mark.parametrize(("first", "then"), [("de", "en"), ("en", "de"), ("pl", "it")])
def test_a_page_in_one_language_leaves_no_word_in_the_next(
    client: FlaskClient, published: int, first: str, then: str
) -> None:
    """Words are looked up per request: none is kept from the language a process rendered first.

    The templates' compiled code is shared by every app of the process, so it is emptied first: the
    first language really is the first."""
    JINJA_OPTIONS["bytecode_cache"].code.clear()
    foreign = vocabulary(first)["alone"] - vocabulary(then)["all"]
    assert len(foreign) > 20
    paths = (
        "/",
        f"/puzzles/{published}",
        "/practice",
        "/archive",
        "/stats",
        "/help",
        "/settings",
        "/analyse",
    )
    for path in paths:
        page_words(client, path, first)
    for path in paths:
        shown = page_words(client, path, then)
        assert shown & foreign == set(), (path, sorted(shown & foreign)[:5])


@pytest.mark.parametrize(
    ("language", "three_decks"), [("en", "Three decks"), ("it", "Tre mazzi"), ("pl", "Trzy talie")]
)
def test_the_presets_are_named_and_described_in_the_players_language(
    client: FlaskClient, language: str, three_decks: str
) -> None:
    """A choice of rules names each preset, never by its bare identifier, and says below the picker
    what each one means."""
    description = catalog("it" if language == "en" else language).get(
        "German variant for 5-6 players: three decks, no jokers, ace low only"
    )
    assert description is not None
    described = description.id if language == "en" else description.string
    for path in ("/practice", "/analyse"):
        shown = page(client, path, **{"Accept-Language": language})
        options = re.findall(r"<option[^>]*>([^<]*)</option>", shown)
        assert three_decks in options, (path, options)
        assert not [option for option in options if option in PRESETS], (path, options)
        about = dict(re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)</dd>", shown))
        assert about[three_decks] == described and len(about) == len(PRESETS), (path, about)


NUMBERS = ("share", "num", "count", "number", "goal", "faster", "fewer", "chain", "day")
"""Placeholders that stand for a number (or a date, which starts with one)."""


def test_italian_puts_no_article_before_a_number() -> None:
    """Italian's article depends on how the number is said (il 5%, l'8%, lo 0%): the Italian sentences
    are worded so that no article stands before one."""
    article = re.compile(
        r"\b(il|lo|i|gli|del|dello|dei|degli|dal|dallo|dai|al|allo|ai|nel|sul)\s+%\(("
        + "|".join(NUMBERS)
        + r")\)",
        re.IGNORECASE,
    )
    found = [
        form
        for message in catalog("it")
        for form in (message.string if isinstance(message.string, tuple) else (message.string,))
        if form and article.search(form)
    ]
    assert found == []


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_each_menu_label_names_the_page_it_opens(client: FlaskClient, language: str) -> None:
    """The word under a menu icon is the word of the page's heading (Esercizi leads to Esercizi)."""
    menu = page(client, "/help", **{"Accept-Language": language})
    links = re.findall(
        r'<a href="([^"]+)" class="icon-link".*?<span class="icon-label"[^>]*>([^<]+)</span>', menu
    )
    assert len(links) >= 5
    for path, label in links:
        if path.endswith(("/help", "/analyse")):
            continue  # "Help" opens "How to play", "Analyse" a form: a verb, not a title
        heading = re.search(r"<h1[^>]*>(.*?)</h1>", page(client, path, **{"Accept-Language": language}), re.S)
        assert heading, path
        assert label.strip().lower() in re.sub(r"<[^>]+>", "", heading.group(1)).lower(), (path, label)


def test_a_preset_inside_a_sentence_is_named_by_its_title(app: Flask) -> None:
    """Typed positions name their preset by its title in the player's language; the CLI keeps the
    identifier a player types, and a stored sentence keeps knowing which word is the preset."""
    (problem,) = read_entry("classic", "3S 4S 5S / 3S 4S 5S", "3S").problems
    said = problem.message
    assert isinstance(said, Words)
    assert "but the classic rules have 2" in str(said)
    stored = Words.from_json(json.loads(json.dumps(said.to_json())))
    for language, expected in [
        ("en", "Classic rules"),
        ("pl", "zasady „Klasyczne”"),
        ("it", "regole «Classiche»"),
    ]:
        with app.test_request_context(headers={"Accept-Language": language}):
            assert expected in say(said)
            assert say(stored) == say(said)


def test_a_number_keeps_the_words_either_side_of_it_on_its_line() -> None:
    """Polish "w 3 minuty" and "1 podpowiedź" never leave their number at a line's end on a phone; a card
    name (10♠) and markup stay as they are, and the text is escaped once."""
    nbsp = "\u00a0"
    assert numbers_kept("w 3 minuty, 10 sekund") == f"w{nbsp}3{nbsp}minuty,{nbsp}10{nbsp}sekund"
    assert numbers_kept("from meld 1 to meld 12") == f"from meld{nbsp}1{nbsp}to meld{nbsp}12"
    assert numbers_kept("Break 10♠ <b>") == f"Break{nbsp}10♠ &lt;b&gt;"
    assert numbers_kept(Markup("<strong>5/5</strong> · 0 moves")) == (
        f"<strong>5/5</strong> ·{nbsp}0{nbsp}moves"
    )


def button_labels(board: str) -> set[str]:
    """The words the play board's buttons show: their labels under the icons, and the named ones."""
    found = re.findall(r'<span class="[^"]*button-label[^"]*">([^<]+)</span>', board)
    found += re.findall(r'<button class="button primary" id="end-turn"[^>]*>([^<]+)</button>', board)
    found += re.findall(r'<span class="when-closed">([^<]+)</span>', board)
    return {label.strip() for label in found}


@pytest.mark.parametrize("language", ("en", *LANGUAGES))
def test_the_walkthrough_names_the_buttons_by_their_labels(
    client: FlaskClient, published: int, language: str
) -> None:
    headers = {"Accept-Language": language}
    labels = button_labels(page(client, "/", **headers))
    assert len(labels) >= 4, labels  # undo, reset, hint, give up, end turn
    tour = page(client, "/tour", **headers)
    named = re.findall(r'<strong class="button-name">([^<]+)</strong>', tour)
    # the walkthrough names undo, reset and end turn, each as its button says it in this language
    assert len(named) == 3 and set(named) <= labels, (named, labels)


def test_italian_calls_a_puzzle_a_rompicapo_throughout() -> None:
    # one word for one thing: "problema" only as chess's (a chess problem), or a placeholder's name
    said = []
    for message in catalog("it"):
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            text = re.sub(r"%\(problem\)s|problem[ai] di scacchi", "", text or "")
            if re.search(r"problem", text, re.IGNORECASE):
                said.append(text)
    assert said == []


def test_a_long_meld_in_a_sentence_breaks_only_between_groups_of_cards(app: Flask) -> None:
    """A meld is read as one: no-break spaces keep a set, or a run of up to five, on one line. A run
    of ten (a fresh jokers Medium, j8m21k9cln: "3♥ 🃏 5♥ ... D♥") is wider than a 320 px phone's
    line: it may break between groups of cards, never inside one, so it no longer runs off the card."""
    nbsp = "\u00a0"
    short = tuple(Card.parse(token) for token in ["4S", "5S", "6S", "JK", "8S"])
    long = tuple(Card.parse(token) for token in ["3H", "JK", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH"])
    said = words("%(card)s goes to the run %(home)s, not to a set.", card=long[:1], home=long)
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert say(words("%(meld)s", meld=short)) == nbsp.join(["4♠", "5♠", "6♠", "🃏", "8♠"])
        german = say(said)
    meld = german.split("Reihe ")[1].split(",")[0]
    groups = [group.split(nbsp) for group in meld.split(" ")]
    assert groups == [["3♥", "🃏", "5♥", "6♥", "7♥"], ["8♥", "9♥", "10♥", "B♥", "D♥"]]
