"""Private notices (structured ``{"kind": …, fields}``) as sentences for their reader.

A rule set that words its own notices (``Ruleset.notice_text``, e.g. Changelings) is
asked first; for the others (Island until it has its own) this module words the kinds
they send, and spells out any other kind field by field."""

from __future__ import annotations

from typing import Any

from nightfall.engine import Ruleset
from nightfall.engine.text import N_, Term, Text


def overrides(ruleset: Ruleset, method: str) -> bool:
    """Whether the rule set words this itself (not just the base class's default)."""
    own = getattr(type(ruleset), method, None)
    return own is not None and own is not getattr(Ruleset, method, None)


def notice_text(ruleset: Ruleset, notice: dict[str, Any]) -> Text:
    """The sentence for one notice."""
    if overrides(ruleset, "notice_text"):
        return ruleset.notice_text(notice)
    return fallback_notice_text(notice)


def fallback_notice_text(notice: dict[str, Any]) -> Text:
    """Island's notices (unknown kinds are spelled out field by field)."""
    kind = str(notice.get("kind", ""))
    if kind == "became_werewolf":
        return Text(N_("The last werewolf is dead: you are a werewolf now."))
    if kind == "team":
        return Text(N_("Your team, the werewolves: {names}."),
                    {"names": tuple(notice.get("members") or ())})
    if kind == "check":
        return Text(N_("Your check of {name}: {result}."),
                    {"name": notice.get("target"),
                     "result": Term("check", str(notice.get("result")))})
    if kind == "palms_bloom":
        return Text(N_("The palms bloom: you used forbidden words: {words}."),
                    {"words": tuple(str(w) for w in notice.get("words") or ())})
    details = ", ".join(f"{key}: {value}" for key, value in notice.items() if key != "kind")
    return Text(N_("Notice “{kind}”: {details}"), {"kind": kind, "details": details or "—"})
