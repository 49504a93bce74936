"""The page's language: ``?lang=`` (remembered in a cookie), else the cookie, else the
player's own choice at sign-up, else the game's language, else the browser's, else English.

Templates get ``_`` (the catalog of that language, see :mod:`nightfall.i18n`) and the
helpers that render engine texts, terms, phases and moments in it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, tzinfo
from typing import Any

from starlette.requests import Request

from nightfall.engine.text import Term, TermNames, Text, render, render_phase
from nightfall.engine.text import from_data as from_data  # one inverse of to_data, re-exported
from nightfall.i18n import SUPPORTED_LOCALES, gettext_for

LANG_COOKIE = "nf_lang"
LANGUAGE_NAMES = {"de": "Deutsch", "en": "English", "ru": "Русский"}
#: the kinds of ids a command's ``choice`` names (the liar's disguise, an item, yes/no)
CHOICE_DOMAINS = ("role", "item", "answer")


def supported(locale: str | None) -> str | None:
    if locale is None:
        return None
    code = locale.strip().lower()[:2]
    return code if code in SUPPORTED_LOCALES else None


def chosen_locale(request: Request) -> str | None:
    """The language the reader chose himself (query or cookie), if any."""
    return supported(request.query_params.get("lang")) or supported(
        request.cookies.get(LANG_COOKIE))


def browser_locale(request: Request) -> str | None:
    """The browser's most wanted language we speak (``Accept-Language``, RFC 9110): by
    its ``q`` weight, the listed order among equal weights; ``q=0`` means "not this"."""
    wanted: list[tuple[float, int, str]] = []
    for position, part in enumerate(request.headers.get("accept-language", "")[:500]
                                    .split(",")):
        tag, _, params = part.partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        found = supported(tag)
        if found and weight > 0:
            wanted.append((-weight, position, found))
    return min(wanted)[2] if wanted else None


def page_locale(request: Request, *defaults: str | None) -> str:
    """The language of this page: the reader's choice, else the first of ``defaults``
    (player's, game's), else the browser's, else English."""
    for candidate in (chosen_locale(request), *defaults, browser_locale(request)):
        found = supported(candidate)
        if found:
            return found
    return "en"


class Translator:
    """Everything a template needs to speak one language."""

    def __init__(self, locale: str, tz: tzinfo | None = None) -> None:
        self.locale = locale
        self.tz = tz
        self.gettext: Callable[[str], str] = gettext_for(locale)

    def __call__(self, msgid: str, **params: Any) -> str:
        text = self.gettext(msgid)
        return text.format(**params) if params else text

    def text(self, value: Text | dict[str, Any]) -> str:
        """Render an engine :class:`Text` (or its ``to_data`` form)."""
        if isinstance(value, dict):
            value = from_data(value)
        assert isinstance(value, Text)
        return render(value, self.gettext, self.tz)

    def term(self, domain: str, term_id: str | None) -> str:
        if term_id is None:
            return "—"
        return self.gettext(TermNames.msgid(Term(domain, term_id)))

    def choice(self, choice: str | None) -> str:
        """A submission's choice by its name: a role, an item or an answer id is shown in
        this language ("Anti-Hate-Shield", not ``shield``); anything else as sent."""
        if not choice:
            return ""
        for domain in CHOICE_DOMAINS:
            msgid = TermNames.known(Term(domain, choice))
            if msgid is not None:
                return self.gettext(msgid)
        return choice

    def phase(self, label: str | None) -> str:
        return render_phase(label or "", self.gettext) if label else "—"

    def moment(self, when: datetime | None, with_zone: bool = True) -> str:
        if when is None:
            return "—"
        local = when.astimezone(self.tz) if self.tz is not None else when
        return local.strftime("%d.%m.%Y %H:%M" + (" %Z" if with_zone else "")).strip()
