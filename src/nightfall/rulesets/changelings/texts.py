"""Words for what a Changelings player reads privately: his notices and his role."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nightfall.engine import N_, Term, Text
from nightfall.rulesets.changelings.roles import (
    ATHLETE,
    BLACK_RAVEN,
    CHANGELING,
    DRAMA_QUEEN,
    LIAR,
    LOVE_POTION,
    NIGHT_OWL,
    PINKIE_SENSE,
    PONY,
    QUEEN,
    RESEARCHER,
    SHIELD,
    STALKER,
    VILLAGE_IDIOT,
)


def notice_text(notice: Mapping[str, Any]) -> Text | None:
    """The sentence a player reads for one of his notices (kinds of the scenario format);
    ``None`` for any other kind (the base rule set spells it out)."""
    kind = notice.get("kind")
    if kind == "investigation":
        return Text(N_("Your look at {target} reveals: {role}."),
                    {"target": notice["target"], "role": Term("role", notice["result"])})
    if kind == "visit":
        return Text(N_("You knocked at {target}'s door: somebody is at home.")
                    if notice["home"] else
                    N_("You knocked at {target}'s door: nobody is at home."),
                    {"target": notice["target"]})
    if kind == "pending_abduction":
        if notice.get("target") is None:
            return Text(N_("Your pinkie sense stays quiet: nobody will be abducted tonight."))
        return Text(N_("Your pinkie sense twitches: the changelings are coming for {target} "
                       "tonight."), {"target": notice["target"]})
    if kind == "lovers":
        return Text(N_("You are in love with {partner}. You are from different sides: now "
                       "you two win together if you are the last two left.")
                    if notice["mixed"] else
                    N_("You are in love with {partner}. You stand on the same side."),
                    {"partner": notice["partner"]})
    if kind == "replaced":
        return Text(N_("The changelings replaced you: from now on you are a changeling."))
    if kind == "joined":
        return Text(N_("{name} has been replaced and is one of you now."),
                    {"name": notice["name"]})
    if kind == "athlete":
        return Text(N_("You know everything about your idol: {name} is the athlete."),
                    {"name": notice["name"]})
    if kind == "athlete_replaced":
        return Text(N_("Your idol {name} has been replaced by a changeling!"),
                    {"name": notice["name"]})
    if kind == "team":
        return Text(N_("Your fellow changelings: {members}."),
                    {"members": tuple(notice["members"])})
    if kind == "drama_prompt":
        return Text(N_("The changelings are coming for you tonight. Whom will you drag "
                       "along? Name your drama chase before the night ends."))
    return None


_ROLES = {
    PONY: N_("You are a pony. You have no power at night: find the changelings by day "
             "and vote them out."),
    CHANGELING: N_("You are a changeling pretending to be a pony. Each night agree with "
                   "your fellow changelings on one pony to abduct (once per game you may "
                   "replace one instead). You win when you are as many as the ponies."),
    QUEEN: N_("You are the changeling queen. Besides the abduction you scry one player "
              "each night and learn his role."),
    LIAR: N_("You are the liar, a changeling. Each night you may pretend to be a special "
             "role: the researcher and the queen will see that role when they look at you."),
    RESEARCHER: N_("You are the researcher. Each night you investigate one player and learn "
                   "his role."),
    BLACK_RAVEN: N_("You are the black raven. Each night you may leave an anonymous letter: "
                    "its addressee has one rumour vote against him the next day."),
    VILLAGE_IDIOT: N_("You are the village idiot. If the ponies vote you out you stay, but "
                      "lose your vote; if the changelings take you they let you go, and you "
                      "lose your vote too."),
    LOVE_POTION: N_("You hold the love potion. In the first night name two players who fall "
                    "in love; they leave together when one of them leaves."),
    NIGHT_OWL: N_("You are the night owl. Each night you knock at one door and learn "
                  "whether anyone is at home."),
    ATHLETE: N_("You are the athlete. You train every night, so the night owl never finds "
                "you at home."),
    STALKER: N_("You are the stalker. You know who the athlete is, and you learn it when he "
                "is replaced."),
    SHIELD: N_("You are the anti-hate shield. Each night (before 22:00) protect one player "
               "from the changelings — not the same one two nights in a row."),
    PINKIE_SENSE: N_("You have the pinkie sense. Each night you learn whom the changelings "
                     "will take. Once per game you may save that pony, and once per game "
                     "chase another player away — not both in one night."),
    DRAMA_QUEEN: N_("You are the drama queen. If you are abducted or banished, name a "
                    "player who runs away with you."),
}


def role_text(role: str) -> Text:
    return Text(_ROLES.get(role, N_("You are {role}.")), {"role": Term("role", role)})
