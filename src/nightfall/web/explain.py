"""What each action and item does, in a sentence or two for the player's private page.

Roles are explained by their rule set (``Ruleset.role_text``); this module holds the
one-line explanations of the forms' actions and of Island's items. English msgids,
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


#: what each Changelings action does, one line under its form, so that a player knows
#: what he is choosing and when it takes effect: a standing choice ("Drama chase",
#: "Successor") reads like an act done now unless the form says otherwise
ACTIONS: dict[tuple[str, str], str] = {
    ("changelings", "elect"): N_(
        "Whom you want as the leader; the most votes at the deadline win (C5.1)."),
    ("changelings", "vote"): N_(
        "Whom you want banished today; the most votes at the deadline banish him. Only "
        "your last vote counts (C3.1, C3.4)."),
    ("changelings", "unvote"): N_("Take your vote back; then it counts for nobody."),
    ("changelings", "abduct"): N_(
        "The pony your team carries off tonight; every changeling who chooses must name "
        "the same one (C7.1). The optional text describes the scene for the announcement."),
    ("changelings", "replace"): N_(
        "Once per game instead of an abduction: the pony stays in the game as one of you "
        "(C7.4). Every changeling who chooses must replace the same one."),
    ("changelings", "shield"): N_(
        "The player you protect from the changelings tonight, until 22:00; not the same "
        "one two nights in a row (C12)."),
    ("changelings", "investigate"): N_(
        "The player whose role you learn; the answer comes as a private notice when the "
        "night ends (C9.1)."),
    ("changelings", "scry"): N_(
        "The player whose role you learn; the answer comes as a private notice when the "
        "night ends (C9.1)."),
    ("changelings", "disguise"): N_(
        "The special role the researcher and the queen see when they look at you, from "
        "tonight on (C9.2)."),
    ("changelings", "letter"): N_(
        "The player who finds your anonymous letter: he has one rumour vote against him in "
        "the next day's tally. The optional text is published (C10.1)."),
    ("changelings", "love"): N_(
        "First night only: the two players who fall in love; if one leaves the game, the "
        "other leaves too (C8)."),
    ("changelings", "visit"): N_(
        "The player you visit tonight; you learn whether he is at home (C11.1)."),
    ("changelings", "pinkie_save"): N_(
        "Once per game: save the pony your private notice names from tonight's abduction "
        "(C13.2)."),
    ("changelings", "pinkie_chase"): N_(
        "Once per game: drive a player out of the game tonight; not in the same night as a "
        "save (C13.3)."),
    ("changelings", "drama_chase"): N_(
        "Set in advance: if you are abducted or banished, this player runs off with you "
        "(C14.1). You can change it until then."),
    ("changelings", "tiebreak"): N_(
        "As leader: whom to banish if the vote ends in a tie that includes him (C5.3). You "
        "can set it in advance."),
    ("changelings", "successor"): N_(
        "As leader: who leads after you if you leave the game (C5.4). You can set it in "
        "advance."),
    ("changelings", "pass"): N_(
        "Do nothing this time; the stage stops waiting for you (C2.3)."),
}


def action_explanation(ruleset: Ruleset, action: str) -> str | None:
    """One line saying what ``action`` does (an English msgid), if there is one: a rule
    file's own (an ability's ``explain:``), else a Python plugin's from :data:`ACTIONS`."""
    from nightfall.rulefile.explain import explanation
    from nightfall.rulefile.ruleset import DataRuleset

    if isinstance(ruleset, DataRuleset):
        return explanation(ruleset, action)
    return ACTIONS.get((ruleset.id, action))


def role_explanation(ruleset: Ruleset, role: str | None) -> Text | None:
    """What the role does, in its rule set's words."""
    if role is None:
        return None
    return ruleset.role_text(role)


def item_explanation(item: str) -> str | None:
    return ITEMS.get(item)
