"""Translations (Babel/gettext) and rendering of engine texts for people.

Catalogs are the ``.po`` files under ``locales/``; they are compiled in memory on first
use, so a fresh checkout needs no build step. English is the msgid language.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import tzinfo
from functools import cache
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from nightfall.engine.phase import known_zone as known_zone  # one parser, re-exported
from nightfall.engine.text import N_, Text, render

LOCALES_DIR = Path(__file__).parent / "locales"
DOMAIN = "nightfall"
SUPPORTED_LOCALES = ("de", "en", "ru")

#: Display names of the rule sets (msgids), for texts that name a rule set to people.
RULESET_NAMES = {"changelings": N_("Changelings"), "island": N_("Island of Fear")}


def default_locale(ruleset: str) -> str:
    """The language of a game of ``ruleset`` when none is chosen: the one its forums play
    in (Island of Fear on Russian boards; a rule file's first language, German for
    Changelings; English for a rule set that names none). One rule for ``game new``, the
    service and the vote counter's post."""
    if ruleset == "island":
        return "ru"
    from nightfall.rulefile.ruleset import registered

    found = registered(ruleset)
    languages = found.file.languages if found is not None else ()
    return next((code for code in languages if code in SUPPORTED_LOCALES), "en")


def ruleset_name(ruleset: str, locale: str) -> str:
    """The rule set's display name in ``locale`` (an unknown id is shown as it is)."""
    msgid = RULESET_NAMES.get(ruleset)
    return gettext_for(locale)(msgid) if msgid else ruleset


@cache
def translations(locale: str) -> NullTranslations:
    """The compiled catalog for ``locale`` (English and unknown locales: identity)."""
    po_file = LOCALES_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not po_file.exists():
        return NullTranslations()
    with po_file.open("rb") as handle:
        catalog = read_po(handle, locale=locale, domain=DOMAIN)
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def gettext_for(locale: str) -> Callable[[str], str]:
    trans = translations(locale)

    def gettext(msgid: str) -> str:
        return str(trans.gettext(msgid)) if msgid else msgid

    return gettext


def localize(text: Text, locale: str, tz: tzinfo | None = None) -> str:
    """Render an engine :class:`Text` in ``locale``, moments in the time zone ``tz``."""
    return render(text, gettext_for(locale), tz)
