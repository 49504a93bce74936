"""What the game master still has to decide, and the fields of the rule set's own GM acts.

*Island of Fear* (I5 palms bloom, I8): the rule set finds forbidden words in a post and
takes the vote unless the GM overrules; a detection lives only in the rule set's memory
(engine flags), so the dashboard's rows ("nothing yet") did not show it and the GM could
not see whom to confirm or overrule. :func:`pending` reads those flags from the GM's view
and lists each player with what was found and what the GM decided so far.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from nightfall.engine import Game, Ruleset
from nightfall.i18n import SUPPORTED_LOCALES
from nightfall.web.i18n import Translator
from nightfall.web.pages import gm_view
from nightfall.web.texts import OVERRULE

#: the Island's memory keys (``rulesets/island/memory.py``): today's detections
#: ``{player: [words]}``, the GM's marks ``{player: reason}``, the overruled players
DETECTIONS, VIOLATIONS, OVERRULED = "i.detections", "i.violations", "i.overruled"

#: which fields each rule-set GM act takes on the dashboard (one form per act, so the
#: choice is a list of names and no field is offered that the act ignores); an act not
#: listed gets every field
ACT_FIELDS: Mapping[str, tuple[str, ...]] = {
    "event": ("choice", "target"),  # I5; the player only for pick me!
    "answer": ("choice",),  # I5 spirit
    "refuse": ("text",),  # I5 spirit [R]: the reason, announced with the refused question
    "violation": ("target", "text"),  # I4, I5, I8
}


@dataclass
class GmAct:
    """One rule-set act as a form: its id, the choices by term, the fields it takes."""

    id: str
    choices: tuple[Any, ...] = ()
    fields: tuple[str, ...] = ("choice", "target", "text")


def gm_acts(ruleset: Ruleset) -> list[GmAct]:
    acts = []
    for act in sorted(ruleset.gm_actions):
        choices = tuple(ruleset.gm_choices.get(act, ()))
        wanted = ACT_FIELDS.get(act, ("choice", "target", "text"))
        acts.append(GmAct(act, choices, tuple(f for f in wanted if f != "choice" or choices)))
    return acts


def choice_id(ruleset: Ruleset, action: str, raw: str, tr: Translator) -> str:
    """The id of a GM act's choice given by id or by its name in any of the app's
    languages ("Вызов духа", "да", "Spirit Call" → ``spirit``, ``yes``); anything else is
    returned as sent, for the rule set to refuse in its own words."""
    wanted = raw.strip().casefold()
    for term in ruleset.gm_choices.get(action, ()):
        if term.id.casefold() == wanted:
            return term.id
        names = {Translator(locale).term(term.domain, term.id).casefold()
                 for locale in (tr.locale, "en", *SUPPORTED_LOCALES)}
        if wanted in names:
            return term.id
    return raw


@dataclass
class Pending:
    """A player whose post the rule set flagged (or the GM marked) today."""

    player: str
    words: list[str] = field(default_factory=list)
    reason: str | None = None  # the GM's mark, if any
    overruled: bool = False

    @property
    def counts(self) -> bool:
        """Whether the detection costs the vote now (I5: unless overruled). What a mark
        costs depends on the day and the items (I4 poison thorn): the preview tells."""
        return bool(self.words) and not self.overruled

    @property
    def undecided(self) -> bool:
        """Found by the rule set, neither confirmed nor overruled by the GM yet."""
        return bool(self.words) and self.reason is None and not self.overruled


def pending(game: Game) -> list[Pending]:
    """Today's detections and marks, in sign-up order, for the GM to confirm (mark) or
    overrule. Empty for rule sets without them."""
    flags = gm_view(game).get("flags")
    if not isinstance(flags, dict):
        return []
    detected: dict[str, Any] = dict(flags.get(DETECTIONS) or {})
    marked: dict[str, Any] = dict(flags.get(VIOLATIONS) or {})
    overruled = {str(name) for name in flags.get(OVERRULED) or []}
    found = []
    for player in game.state.players:
        if player not in detected and player not in marked and player not in overruled:
            continue
        reason = marked.get(player)
        found.append(Pending(player, [str(w) for w in detected.get(player) or []],
                             None if reason is None else str(reason), player in overruled))
    return found


__all__ = ["ACT_FIELDS", "OVERRULE", "GmAct", "Pending", "choice_id", "gm_acts", "pending"]
