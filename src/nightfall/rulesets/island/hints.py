"""What each Island move does and what it costs, in a few sentences under its form.

A bare button ("Cancel the night") tells a player neither what it does nor what it costs
him. Each form on the private page gets: what the move does (one sentence per action,
below), then what it costs or needs *now*, worked out from the rule set's declarations
and the state, not from a table of the web app:

- when it may be sent — until 13:00 or all day (``abilities.WHEN``), and for which day's
  event (``abilities.EVENT_OF``);
- when it works — a night move (its slot is in ``night.NIGHT_SLOTS``) at 21:00 (I7);
- once per game (the authority, each of the witch's spells; the nurse on herself), and
  whether it is spent already;
- an item used up until recharged, secret until then (``items.ON_PLAYER``, I4);
- today's event: under foggy night a night move with a target needs one of the actor's
  votes on it (I5), the full moon lets the pack eat two, rage and fog give two votes.

``Ruleset.action_hints`` hands them to the pages (``web/forms.py``).
"""

from __future__ import annotations

from nightfall.engine import N_, GameState, Term, Text
from nightfall.rulesets.island import memory
from nightfall.rulesets.island.abilities import ABILITIES, EVENT_OF, STAGE_ONE, WHEN
from nightfall.rulesets.island.happenings import FOGGY_NIGHT, FULL_MOON, MYSTIC_LIGHT
from nightfall.rulesets.island.items import ON_PLAYER, SHOCKER, VOODOO_DOLL
from nightfall.rulesets.island.night import NIGHT_SLOTS
from nightfall.rulesets.island.roles import SLEEPWALKER
from nightfall.rulesets.island.voting import vote_count

#: what each move does (I2, I4, I5, I6)
WHAT: dict[str, str] = {
    "vote": N_("Whom you want lynched today: the most votes at 21:00 lynch (I6.4). Only "
               "your last vote counts; without one, your vote counts for yourself (I6.3)."),
    "unvote": N_("Take your vote back: it then counts for yourself (I6.3)."),
    "authority": N_("Reveal yourself as the authority to everybody and take the named "
                    "player's vote for today: it goes where your own vote goes (I2.4)."),
    "check": N_("The player you look at: in the evening you learn whether he is a werewolf "
                "(I2.1)."),
    "heal": N_("The player whom nothing of tonight's moves can harm (I2.2)."),
    "witch_kill": N_("The player your spell kills tonight (I2.5)."),
    "witch_cancel": N_("Your spell cancels every other night move of this evening, the "
                       "roles' and the items' (I2.5)."),
    "swap_items": N_("The two players whose items you swap tonight (I2.6)."),
    "recharge": N_("The player whose used item works again after tonight (I2.6)."),
    "assault": N_("The player you visit tonight: tomorrow he has no vote and may not argue "
                  "(I2.7)."),
    "eat": N_("The pack's victim tonight; werewolves who name different victims eat "
              "nobody (I2.8)."),
    "hamster_kill": N_("The player you kill tonight (I2.9)."),
    "use_item": N_("Play an item on a player (I4)."),
    "bunker_apply": N_("Trade your item at 13:00 for a random one nobody holds (I5 "
                       "bunker)."),
    "exchange_offer": N_("Offer a player to swap items; at 13:00 you swap if he names you "
                         "too (I5 exchange)."),
    "fear_pick": N_("Whom to lynch if the vote elects you leader: only the leader's pick "
                    "counts (I6.5)."),
    "pick_me_partner": N_("The player who is immune to the lynch today with you (I5 pick "
                          "me!)."),
    "spirit_ask": N_("Your yes/no question to the Island Spirit (the game master); it must "
                     "not give a role away outright. Question, asker and answer are "
                     "published (I5)."),
    "spirit_nominate": N_("Whom you want to ask the spirit: once more than half of the "
                          "living name the same player, only his question counts today "
                          "(I5)."),
}
#: I2.4, I2.5: once per game
ONCE_PER_GAME = frozenset({"authority", "witch_kill", "witch_cancel"})
#: I4: what a played item does, and when
ITEM_EFFECT: dict[str, str] = {
    SHOCKER: N_("Shocker: at 13:00 (or 21:00) the target has no vote and no word today."),
    "love_note": N_("Love note: at 13:00 (or 21:00) no votes between you and the "
                    "recipient today."),
    VOODOO_DOLL: N_("Voodoo doll: tonight the target makes no night move."),
}


def action_hints(state: GameState, player: str, action: str) -> tuple[Text, ...]:
    """What ``action`` does and what it costs ``player`` now, as sentences."""
    ability = ABILITIES.get(action)
    if ability is None or action not in WHAT:
        return ()
    me = state.players.get(player)
    event = memory.today_event(state)
    hints: list[Text] = []
    mystic = action == "recharge" and event == MYSTIC_LIGHT and (
        me is None or me.role != SLEEPWALKER)
    hints.append(Text(N_("Under mystic light: your own used item works again, at 13:00 "
                         "(I5).") if mystic else WHAT[action]))
    if action in EVENT_OF:
        hints.append(Text(N_("Only today, the day of the event {event}."),
                          {"event": Term("event", EVENT_OF[action])}))
    if WHEN.get(action) == STAGE_ONE or mystic:
        hints.append(Text(N_("Until 13:00.")))
    night = ability.slot in NIGHT_SLOTS
    if night:
        hints.append(Text(N_("Sent by day, it works at 21:00, after the lynch (I7); you can "
                             "change it until then.")))
    if action in ONCE_PER_GAME:
        hints.append(Text(N_("Once per game.")))
    if action in ("witch_kill", "witch_cancel"):
        hints.append(Text(N_("Not both spells in the same night (I2.5).")))
    if action == "heal":
        hints.append(Text(N_("Yourself only once per game (I2.2).") if not state.flags.get(
            memory.nurse_self_key(player)) else N_("You have healed yourself already.")))
    if action == "use_item" and me is not None:
        for item in sorted({i.id for i in me.items if i.id in ON_PLAYER and not i.used}):
            hints.append(Text(ITEM_EFFECT.get(item, N_("{item}: played on a player.")),
                              {"item": Term("item", item)}))
        hints.append(Text(N_("Secret until played; then everybody sees who played it on "
                             "whom, and it is used up until the sleepwalker or mystic light "
                             "recharges it (I4).")))
    if night and event == FOGGY_NIGHT and ability.targets != 0:
        hints.append(Text(N_("Foggy night: one werewolf's vote must go to the victim today, "
                             "or the pack eats nobody (I5).") if action == "eat" else
                          N_("Foggy night: give one of your votes today to the player you "
                             "name here, or the move fails (I5).")))
    elif night and event == FOGGY_NIGHT:
        hints.append(Text(N_("Foggy night: this move has no target and needs no vote (I5).")))
    if action == "eat" and event == FULL_MOON:
        hints.append(Text(N_("Full moon: the pack may eat two players tonight (I5).")))
    if action == "vote" and me is not None and me.alive:
        count = vote_count(state, player)
        if count > 1:
            hints.append(Text(N_("You have {count} votes today: name one player for all of "
                                 "them or one player per vote."), {"count": count}))
    return tuple(hints)
