"""What each ability of a rule file does, in a line under its form on the player's page
(an ability's ``explain:``, a key of ``texts``): a rule file says them itself, so a GM's
ability is explained as Changelings' are (docs/rules-format.md, "Abilities"); Island's
plugin explains only its items (``web/explain.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from nightfall.rulefile.effects import Problem

if TYPE_CHECKING:
    from nightfall.rulefile.ruleset import DataRuleset


def check_explanations(rules: DataRuleset) -> None:
    """An ``explain`` that names no text is an error (key and line, like any other)."""
    for aid, spec in rules.file.abilities.items():
        if spec.explain is not None and spec.explain not in rules.file.texts:
            rules.problems.append(Problem(("abilities", aid, "explain"),
                                          f"unknown text {spec.explain!r}"))


def explanation(rules: DataRuleset, action: str) -> str | None:
    """The English msgid explaining ``action``, or ``None`` when the file has none."""
    spec = rules.file.abilities.get(action)
    if spec is None or spec.explain is None:
        return None
    return rules.file.texts.get(spec.explain)
