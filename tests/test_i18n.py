"""The German catalog is complete, consistent with the source, and renders the seed's texts.

The msgids are extracted from the source with Babel's own extractor, exactly as
``scripts/update_catalogs.sh`` does (``babel.cfg``, keywords ``N_`` and ``_``). After
changing an engine text run that script and translate what it reports as new or fuzzy.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from string import Formatter

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

import nightfall
from nightfall.demo import play_demo, setup_demo_game
from nightfall.engine.events import StepTraced
from nightfall.engine.phase import DAY, NIGHT, SETUP, SIGNUP
from nightfall.engine.text import Term, Text
from nightfall.i18n import LOCALES_DIR, gettext_for, localize
from nightfall.rulefile.ruleset import shipped

CHANGELINGS = shipped("changelings")  # registers the term names
assert CHANGELINGS.status_post is not None
status_post = CHANGELINGS.status_post.render

PACKAGE_DIR = Path(nightfall.__file__).parent
ROOT = PACKAGE_DIR.parent.parent
KEYWORDS = {"N_": None, "_": None}
#: Every translated locale (English is the msgid language and has no catalog).
LOCALES = ("de", "ru")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@cache
def source_msgids() -> dict[str, list[str]]:
    """msgid -> locations, extracted from src/nightfall with the project's babel.cfg."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)  # type: ignore[no-untyped-call]
    found: dict[str, list[str]] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
        PACKAGE_DIR, method_map, options_map, keywords=KEYWORDS
    ):
        msgid = message[0] if isinstance(message, tuple) else message
        if msgid:
            found.setdefault(msgid, []).append(f"{filename}:{lineno}")
    return found


@cache
def catalog(locale: str) -> Catalog:
    with (LOCALES_DIR / locale / "LC_MESSAGES" / "nightfall.po").open("rb") as handle:
        return read_po(handle, locale=locale, domain="nightfall")


def entries(locale: str) -> Iterator[tuple[str, str]]:
    for message in catalog(locale):
        if message.id:
            yield str(message.id), str(message.string or "")


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in Formatter().parse(text) if field is not None}


# -- (a) completeness -------------------------------------------------------------------
def test_extraction_finds_the_engine_texts() -> None:
    msgids = source_msgids()
    assert len(msgids) >= 150
    # a sample from every way texts are marked: trace, announce, Rejected, dicts of N_,
    # TermNames.register, status_post's _("...") calls
    for msgid in (
        "{name} is abducted (C7.6).",
        "{name} was elected leader.",
        "“{action}” is not an ability of your role.",
        "The changelings disagree: nobody will be abducted (C7.1, C7.2).",
        "{name} was banished. {name} was {role}.",
        "Researcher",
        "First",
        "Sign-up phase",
        "(until {date} at {time})",
        "finished",
    ):
        assert msgid in msgids, msgid


@pytest.mark.parametrize("locale", LOCALES)
def test_every_msgid_is_translated(locale: str) -> None:
    cat = catalog(locale)
    problems = []
    for msgid, where in source_msgids().items():
        message = cat.get(msgid)
        if message is None:
            problems.append(f"missing: {msgid!r} ({where[0]})")
        elif not message.string:
            problems.append(f"untranslated: {msgid!r} ({where[0]})")
        elif message.fuzzy:
            problems.append(f"fuzzy: {msgid!r} ({where[0]})")
    assert not problems, (
        f"{len(problems)} msgid(s) lack a {locale} translation; run "
        "scripts/update_catalogs.sh and translate them:\n" + "\n".join(problems)
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_no_obsolete_entries(locale: str) -> None:
    cat = catalog(locale)
    stale = sorted(msgid for msgid, _ in entries(locale) if msgid not in source_msgids())
    obsolete = sorted(str(msgid) for msgid in cat.obsolete)
    assert not stale and not obsolete, (
        "entries no longer in the source (run scripts/update_catalogs.sh): "
        + "\n".join(map(repr, stale + obsolete))
    )


def test_template_is_up_to_date() -> None:
    with (PACKAGE_DIR / "i18n" / "messages.pot").open("rb") as handle:
        template = read_po(handle)
    assert {str(m.id) for m in template if m.id} == set(source_msgids()), (
        "src/nightfall/i18n/messages.pot is stale: run scripts/update_catalogs.sh"
    )


# -- (b) placeholders -------------------------------------------------------------------
@pytest.mark.parametrize("locale", LOCALES)
def test_translations_keep_the_placeholders(locale: str) -> None:
    wrong = [
        f"{msgid!r} -> {string!r}: {sorted(placeholders(msgid))} != {sorted(placeholders(string))}"
        for msgid, string in entries(locale)
        if string and placeholders(msgid) != placeholders(string)
    ]
    assert not wrong, "\n".join(wrong)


# -- (c) terms --------------------------------------------------------------------------
SEED_NAMES = {
    ("role", "pony"): "Pony",
    ("role", "changeling"): "Changeling",
    ("role", "queen"): "Königin",
    ("role", "liar"): "Lügner",
    ("role", "researcher"): "Forscher",
    ("role", "black_raven"): "Der Schwarze Rabe",
    ("role", "village_idiot"): "Dorfdepp",
    ("role", "love_potion"): "Love Potion",
    ("role", "night_owl"): "Nachtaktiv",
    ("role", "athlete"): "Spitzensportler",
    ("role", "stalker"): "Stalker",
    ("role", "shield"): "Anti-Hate-Shield",
    ("role", "pinkie_sense"): "Pinkie Sense",
    ("role", "drama_queen"): "Drama Queen",
    ("status", "leader"): "Anführer",
    ("status", "voiceless"): "stimmlos",
    ("status", "lover"): "verliebt",
    ("cause", "banished"): "verbannt",
    ("cause", "abducted"): "entführt",
}


@pytest.mark.parametrize(("term", "german"), SEED_NAMES.items(), ids=lambda v: str(v))
def test_term_names_are_the_seeds(term: tuple[str, str], german: str) -> None:
    assert localize(Text("{value}", {"value": Term(*term)}), "de") == german


def test_role_term_in_a_sentence() -> None:
    text = Text(
        "{actor} investigates {name}: {role}.",
        {"actor": "appleblack", "name": "Twonky", "role": Term("role", "researcher")},
    )
    assert localize(text, "de") == "appleblack nimmt Twonky unter die Lupe: Forscher."
    assert localize(text, "en") == "appleblack investigates Twonky: Researcher."


def test_term_lists_are_translated() -> None:
    roles = tuple(Term("role", r) for r in ("queen", "liar", "night_owl"))
    text = Text("The liar can pretend to be one of these roles only: {roles} (C9.2).",
                {"roles": roles})
    assert "Königin, Lügner, Nachtaktiv" in localize(text, "de")


# -- status post (C16.1, the seed's exact format) ----------------------------------------
def test_status_post_phase_titles() -> None:
    """The status post's round titles (C16.1) in German, as the file composes them."""
    _ = gettext_for("de")
    texts = CHANGELINGS.file.texts

    def title(kind: str, number: int) -> str:
        key = {SIGNUP: "post_signup", SETUP: "post_setup", NIGHT: "post_night"}.get(
            kind, "post_first_day" if number == 1 else "post_day")
        return _(texts[key]).format(ordinal=_(texts[f"ord_{number}"]) if number else "")

    assert title(SIGNUP, 0) == "Anmeldephase"
    assert title(SETUP, 0) == "Rollenverteilung"
    assert title(DAY, 1) == "Erste Tagphase und Anführerwahl"
    assert title(DAY, 5) == "Fünfte Tagphase"
    assert title(NIGHT, 6) == "Sechste Nachtphase"
    assert title(NIGHT, 20) == "Zwanzigste Nachtphase"
    assert all(_(texts[f"ord_{n}"]) != texts[f"ord_{n}"] for n in range(1, 21))
    assert _("running") == "running" and _("finished") == "finished"


def test_status_post_of_a_running_game() -> None:
    lines = status_post(setup_demo_game(2012).state, gettext_for("de")).splitlines()
    assert lines[:3] == [
        "Anmeldephase... finished",
        "Rollenverteilung... finished",
        "Erste Tagphase und Anführerwahl... running",
    ]
    assert re.fullmatch(r"\(bis zum \d\d\.\d\d\.\d\d um \d\d:\d\d\)", lines[3])
    assert "appleblack: übermüdeter Hobbyklempner" in lines


# -- (d) a German demo game -------------------------------------------------------------
def test_german_demo_game_renders() -> None:
    game = play_demo(locale="de")
    assert game.state.ended
    de = catalog("de")
    texts = [a.text for a in game.state.announcements]
    texts += [line for e in game.events if isinstance(e, StepTraced) for line in e.lines]
    assert texts
    for text in texts:
        rendered = localize(text, "de")
        assert not PLACEHOLDER.search(rendered), rendered
        message = de.get(text.msgid)
        assert message is not None and message.string, text.msgid
    post = status_post(game.state, gettext_for("de"))
    assert "Das Spiel ist vorbei" in post and not PLACEHOLDER.search(post)
