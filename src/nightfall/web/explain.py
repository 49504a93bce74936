"""What each action and item does, in a sentence or two for the player's private page.

Roles are explained by their rule set (``Ruleset.role_text``); this module holds the
one-line explanations of the forms' actions (a rule file's) and of Island's items. English msgids,
translated in the catalogs; the numbered rules are the full story.
"""

from __future__ import annotations

from nightfall.engine import Ruleset, Text
from nightfall.engine.text import N_

ITEMS: dict[str, str] = {
    "trap": N_("Harmful, public: a tie in the lynch vote is decided against you."),
    "poison_thorn": N_("Harmful, public: if you break the rules of silence you lose your "
                       "votes."),
    "totem": N_("Harmful, public: your vote counts only for a player your neighbours voted "
                "for, or for a neighbour."),
    "handcuffs": N_("Harmful, public: you may not vote for your neighbours."),
    "bomb": N_("Harmful, public: with two votes or more against you, you are lynched "
               "instead of the leader."),
    "dark_glasses": N_("Useful, public: the seer's check of you is blocked."),
    "wolf_fang": N_("Useful, public: it saves you from a tie in the lynch vote."),
    "megaphone": N_("Useful, public: your vote counts twice."),
    "sheep_skin": N_("Useful, secret until used: the lynch passes to the runner-up instead "
                     "of you."),
    "moon_fern": N_("Useful, secret until used: it saves you from the werewolves once."),
    "camo_cloak": N_("Useful, secret until used: it hides you from the maniac."),
    "shocker": N_("Useful, secret until used: the player you shock has no vote and no word "
                  "that day."),
    "love_note": N_("Useful, secret until used: no votes between you and the player you "
                    "send it to that day."),
    "voodoo_doll": N_("Useful, secret until used: the player you name makes no night move."),
}


def action_explanation(ruleset: Ruleset, action: str) -> str | None:
    """One line saying what ``action`` does (an English msgid), if there is one: a rule
    file's own (an ability's ``explain:``, Changelings' too), so that a player knows what
    he is choosing and when it takes effect; Island's plugin explains its items only."""
    from nightfall.rulefile.explain import explanation
    from nightfall.rulefile.ruleset import DataRuleset

    if isinstance(ruleset, DataRuleset):
        return explanation(ruleset, action)
    return None


def role_explanation(ruleset: Ruleset, role: str | None) -> Text | None:
    """What the role does, in its rule set's words."""
    if role is None:
        return None
    return ruleset.role_text(role)


def item_explanation(item: str) -> str | None:
    return ITEMS.get(item)
