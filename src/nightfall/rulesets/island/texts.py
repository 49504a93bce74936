"""What each Island role does, in a few sentences for the player's private page (I1, I2),
and the player's private notices as sentences (``notice_text``).

The web page asks the rule set first (``Ruleset.role_text``); these texts restate the
numbered rules a player needs at the table — how his side wins, what his move does and
where it stops — so that he need not read docs/rules/island.md to play.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nightfall.engine import N_, Term, Text
from nightfall.rulesets.island.roles import (
    AUTHORITY,
    HALF_BLOOD,
    HAMSTER,
    MANIAC,
    NURSE,
    PASSENGER,
    SEER,
    SLEEPWALKER,
    UNTOUCHABLE,
    WEREWOLF,
    WITCH,
)

_ROLES: dict[str, str] = {
    PASSENGER: N_("You are a passenger, one of the peaceful islanders. You have no night "
                  "move: find the werewolves in the thread and lynch them. Your side wins "
                  "when only peaceful islanders are left alive (I1.2)."),
    SEER: N_("You are the seer. Each day you name one player and in the evening learn "
             "whether he is a werewolf. The half-blood and the hamster look innocent, dark "
             "glasses block your look, and a hamster you look at dies of it (I2.1)."),
    NURSE: N_("You are the nurse. Each day you name one player whom the coming night "
              "cannot harm — werewolves, witch, hamster, maniac. Yourself only once per "
              "game; against the lynch you cannot help (I2.2)."),
    UNTOUCHABLE: N_("You are the untouchable, a peaceful islander: the werewolves cannot "
                    "kill you. The witch, the hamster, the seer, the maniac and every item "
                    "work on you as on anybody (I2.3)."),
    AUTHORITY: N_("You are the authority. Once per game, during a day, you may reveal "
                  "yourself and take one vote of a living player, to cast as you like: "
                  "that day your vote may name one player for both votes, or two players, "
                  "one vote each. Everybody sees your role from then on (I2.4)."),
    WITCH: N_("You are the witch. You have two spells, each once per game and not both in "
              "one night: kill a player, or cancel every other night move of that evening "
              "(I2.5)."),
    SLEEPWALKER: N_("You are the sleepwalker. Each night you either swap all items of two "
                    "players or make a used item usable again — anybody's, your own too. "
                    "Whether it is used is judged in the evening, so an item played that "
                    "same night counts (I2.6)."),
    MANIAC: N_("You are the sex maniac. Each night you visit one player: the next day he "
               "has no vote and may not argue in the thread. A camouflage cloak protects "
               "against you (I2.7)."),
    WEREWOLF: N_("You are a werewolf. Each day the pack names one victim (two under the "
                 "full moon) whom it eats in the evening; if the werewolves name different "
                 "victims, nobody is eaten (I2.8). The mafia win when only they are left "
                 "alive, or, if the game has the parity option, as soon as they are as many "
                 "as the rest (I1.2)."),
    HALF_BLOOD: N_("You are the half-blood: you play for the werewolves but cannot kill, "
                   "and the seer sees no werewolf in you. When the last werewolf dies, you "
                   "become a werewolf and eat from the next evening on (I1.3)."),
    HAMSTER: N_("You are the mutant hamster and play only for yourself: each night you "
                "kill one player. You win if you are the last one left alive. If the seer "
                "looks at you, you die of it (I2.1, I2.9)."),
}


def role_text(role: str) -> Text:
    """The player's own role in a few sentences."""
    found = _ROLES.get(role)
    if found is None:
        return Text(N_("You are {role}."), {"role": Term("role", role)})
    return Text(found)


def notice_text(notice: Mapping[str, Any]) -> Text | None:
    """The sentence a player reads for one of his private notices (the kinds the Island
    rule set sends; ``None`` for any other kind)."""
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
    if kind == "items_swapped":  # I2.6 [R]
        items = tuple(Term("item", str(item)) for item in notice.get("items") or ())
        if not items:
            return Text(N_("In the night your items were exchanged for another player's: "
                           "you now hold nothing."))
        return Text(N_("In the night your items were exchanged for another player's: you "
                       "now hold {items}."), {"items": items})
    if kind == "spirit_refused":  # I5 spirit [R]
        return Text(N_("The Island Spirit refuses your question “{text}”: {reason} Ask "
                       "another one."), {"text": notice.get("text"),
                                          "reason": notice.get("reason")})
    if kind == "item_recharged":  # I2.6 [R]
        return Text(N_("In the night your {item} was recharged: you can use it again."),
                    {"item": Term("item", str(notice.get("item")))})
    return None
