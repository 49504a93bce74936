"""Every Island command and the checks that accept or reject it (I2, I4, I5, I6.2).

All moves are made by day (I6.2: the last submission of a kind counts). A command is
rejected at once when the player can know it is invalid (a dead target, a used-up
ability, a vote for a handcuffed neighbour, an ``eat`` under the lunar eclipse); what
depends on later or hidden facts (a totem vote, a palms-bloom slip, a love note used after
the vote) is accepted and lost at 21:00. ``validate`` is pure; the legal-command list
uses it too.
"""

from __future__ import annotations

from dataclasses import dataclass

from nightfall.engine import N_, Command, GameState, Rejected, Term
from nightfall.engine.phase import DAY
from nightfall.engine.text import TermNames
from nightfall.rulesets.island import memory
from nightfall.rulesets.island.happenings import (
    BUNKER,
    EXCHANGE,
    FEAR,
    FULL_MOON,
    LUNAR_ECLIPSE,
    MYSTIC_LIGHT,
    PICK_ME,
    SPIRIT,
)
from nightfall.rulesets.island.items import (
    AUTOMATIC,
    HANDCUFFS,
    ON_PLAYER,
    holds,
    items_work,
    used_items,
)
from nightfall.rulesets.island.roles import (
    AUTHORITY,
    HAMSTER,
    MANIAC,
    NURSE,
    SEER,
    SLEEPWALKER,
    WEREWOLF,
    WITCH,
    is_mafia,
)
from nightfall.rulesets.island.seating import neighbours
from nightfall.rulesets.island.voting import forbidden_by_love_note, voiceless_reason, vote_count

ANY_STAGE = "any_stage"
STAGE_ONE = "stage_one"  # event applications close at 13:00 (I7 stage 1 step 1)


@dataclass(frozen=True, slots=True)
class Ability:
    action: str
    rule: str
    slot: str
    roles: frozenset[str] | None  # None: every living player
    when: str = ANY_STAGE
    targets: int = 1  # -1: one or more (vote, eat)
    self_target: bool = True
    event: str | None = None  # only on a day with this event


ABILITIES: dict[str, Ability] = {
    a.action: a
    for a in (
        Ability("vote", "I6.3", "vote", None, targets=-1),
        Ability("unvote", "I6.2", "vote", None, targets=0),
        Ability("post", "I5", "", None, targets=0),
        Ability("authority", "I2.4", "authority", frozenset({AUTHORITY}), self_target=False),
        Ability("check", "I2.1", "check", frozenset({SEER}), self_target=False),
        Ability("heal", "I2.2", "heal", frozenset({NURSE})),
        Ability("witch_kill", "I2.5", "witch", frozenset({WITCH}), self_target=False),
        Ability("witch_cancel", "I2.5", "witch", frozenset({WITCH}), targets=0),
        Ability("swap_items", "I2.6", "sleepwalk", frozenset({SLEEPWALKER}), targets=2),
        Ability("recharge", "I2.6", "sleepwalk", None),
        Ability("assault", "I2.7", "assault", frozenset({MANIAC}), self_target=False),
        Ability("eat", "I2.8", "eat", frozenset({WEREWOLF}), targets=-1),
        Ability("hamster_kill", "I2.9", "hamster", frozenset({HAMSTER}), self_target=False),
        Ability("use_item", "I4", "item", None, self_target=False),
        Ability("bunker_apply", "I5", "bunker", None, STAGE_ONE, targets=0, event=BUNKER),
        Ability("exchange_offer", "I5", "exchange", None, STAGE_ONE, self_target=False,
                event=EXCHANGE),
        Ability("fear_pick", "I6.5", "fear", None, event=FEAR),
        Ability("pick_me_partner", "I5", "pick_me", None, STAGE_ONE, self_target=False,
                event=PICK_ME),
        Ability("spirit_ask", "I5", "spirit", None, STAGE_ONE, targets=0, event=SPIRIT),
    )
}


def slot_of(command: Command) -> str:
    """The submission slot: one per kind of move (I6.2); items and mystic light apart."""
    if command.action == "use_item":
        return "item:" + (command.choice or "")
    if command.action == "recharge" and is_mystic_recharge_of(command):
        return "mystic"
    return ABILITIES[command.action].slot


def is_mystic_recharge_of(command: Command) -> bool:
    return command.target in (None, command.by)


def validate(state: GameState, command: Command) -> str:
    """Accept ``command`` (return its slot) or raise :class:`Rejected`."""
    ability = ABILITIES.get(command.action)
    if ability is None:
        raise Rejected(N_("Unknown command {action}."), action=command.action)
    check_actor(state, ability, command)
    targets = _check_targets(state, command, ability)
    _SPECIFIC[command.action](state, command, targets)
    return slot_of(command)


def check_actor(state: GameState, ability: Ability, command: Command) -> None:
    """The checks that do not depend on the targets: who acts, and when."""
    actor = command.by
    if actor is None or actor not in state.players:
        raise Rejected(N_("There is no player called {name}."), name=actor)
    me = state.players[actor]
    if not me.alive:
        raise Rejected(N_("You have left the game and can no longer act."))
    if ability.roles is not None and me.role not in ability.roles:
        raise Rejected(
            N_("“{action}” is not an ability of your role."), action=Term("action", command.action)
        )
    phase = state.phase
    if phase.kind != DAY or (ability.when == STAGE_ONE and phase.stage != 1):
        raise Rejected(
            N_("{action} is not possible now ({phase})."),
            action=Term("action", command.action), phase=Term("phase", state.phase_label),
        )
    if ability.event is not None and memory.today_event(state) != ability.event:
        raise Rejected(N_("{action} is possible only on a day of the event {event}."),
                       action=Term("action", command.action), event=Term("event", ability.event))


def _check_targets(state: GameState, command: Command, ability: Ability) -> tuple[str, ...]:
    targets = command.all_targets
    if ability.targets == 0 and command.action != "recharge":
        return ()
    if command.action == "recharge" and not targets:
        return ()
    if ability.targets == -1:
        if not targets:
            raise Rejected(N_("Name at least one player."))
    elif len(targets) != ability.targets:
        if ability.targets == 2:
            raise Rejected(N_("Name two different players."))
        raise Rejected(N_("Name exactly one player."))
    for target in targets:
        if target not in state.players:
            raise Rejected(N_("There is no player called {name}."), name=target)
        if not state.players[target].alive:
            raise Rejected(N_("{name} is no longer in the game."), name=target)
    if not ability.self_target and command.by in targets:
        raise Rejected(N_("Choose another player than yourself."))
    return targets


def _vote(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    """I6.3, I2.7, I4: who may vote, for whom, with how many votes."""
    actor = command.by or ""
    reason = voiceless_reason(state, actor)
    if reason is not None:
        raise Rejected(N_("You are {status} and cannot vote today."),
                       status=Term("status", reason))
    count = vote_count(state, actor)
    if len(targets) > count:
        raise Rejected(N_("You have {count} vote(s) today; name at most that many players."),
                       count=count)
    if memory.today_event(state) == FEAR:
        return  # I5: under fear the vote elects the leader; items change nothing
    if items_work(state) and holds(state, actor, HANDCUFFS):
        near = [t for t in targets if t in neighbours(state, actor)]
        if near:
            raise Rejected(N_("Your handcuffs forbid a vote for your neighbour {name} (I4)."),
                           name=near[0])
    for target in targets:
        if items_work(state) and (
            forbidden_by_love_note(state, actor, target) or _own_note(state, actor) == target
        ):
            raise Rejected(N_("A love note forbids votes between you and {name} (I4)."),
                           name=target)


def _own_note(state: GameState, actor: str) -> str | None:
    """The recipient of a love note ``actor`` has sent today but not yet activated."""
    sub = state.submission(actor, "item:love_note")
    return sub.target if sub is not None else None


def _unvote(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    if state.submission(command.by or "", "vote") is None:
        raise Rejected(N_("You have no vote to withdraw."))


def _post(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    if not (command.text or "").strip():
        raise Rejected(N_("A post needs some text."))


def _authority(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    used = state.flags.get(memory.authority_key(command.by or ""))
    if used is not None and used != state.phase.number:
        raise Rejected(N_("The authority takes a vote once per game and has done so (I2.4)."))


def _heal(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    actor = command.by or ""
    if targets[0] == actor and state.flags.get(memory.nurse_self_key(actor)):
        raise Rejected(N_("The nurse heals herself once per game and has done so (I2.2)."))


def _witch_kill(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    if state.flags.get(memory.witch_kill_key(command.by or "")):
        raise Rejected(N_("The witch kills once per game and has done so (I2.5)."))


def _witch_cancel(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    if state.flags.get(memory.witch_cancel_key(command.by or "")):
        raise Rejected(N_("The witch cancels a night once per game and has done so (I2.5)."))


def _swap(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    if targets[0] == targets[1]:
        raise Rejected(N_("Name two different players."))


def _recharge(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    """I2.6 the sleepwalker recharges anyone's used item; I5 under mystic light every
    owner may recharge his own."""
    actor = command.by or ""
    mystic = memory.today_event(state) == MYSTIC_LIGHT and is_mystic_recharge_of(command)
    if mystic:
        if state.phase.stage != 1:
            raise Rejected(N_("{action} is possible only until 13:00."),
                           action=Term("action", command.action))
        owner = actor
    else:
        if state.players[actor].role != SLEEPWALKER:
            raise Rejected(N_("“{action}” is not an ability of your role."),
                           action=Term("action", command.action))
        if not targets:
            raise Rejected(N_("Name exactly one player."))
        owner = targets[0]
    used = used_items(state, owner)
    if not used:
        raise Rejected(N_("{name} holds no used item."), name=owner)
    if command.choice is not None and command.choice not in used:
        raise Rejected(N_("{name} holds no used {item}."), name=owner,
                       item=Term("item", command.choice))


def _eat(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    """I2.8, I5: one victim; two under the full moon; none under the lunar eclipse."""
    event = memory.today_event(state)
    if event == LUNAR_ECLIPSE:
        raise Rejected(N_("Lunar eclipse: the werewolves eat nobody tonight (I5)."))
    limit = 2 if event == FULL_MOON else 1
    if len(targets) > limit or len(set(targets)) != len(targets):
        raise Rejected(N_("The werewolves may eat two players only under the full moon, "
                          "one otherwise (I5)."))
    for target in targets:
        if is_mafia(state.players[target].role):
            raise Rejected(N_("{name} is on your side; choose another victim."), name=target)


def _use_item(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    """I4: shocker, love note and voodoo doll are used by their owner on a player."""
    item = command.choice or ""
    if item in AUTOMATIC:
        raise Rejected(N_("The {item} works by itself when needed (I4)."),
                       item=Term("item", item))
    if item not in ON_PLAYER:
        raise Rejected(N_("This item cannot be used on a player."))
    if not holds(state, command.by or "", item, unused=True):
        raise Rejected(N_("You hold no usable {item}."), item=Term("item", item))
    if not items_work(state):
        raise Rejected(N_("Magnetic storm: no item works today (I5)."))


def _bunker(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    actor = command.by or ""
    if not state.players[actor].items:
        raise Rejected(N_("You hold no item to swap."))
    if command.choice is not None and not holds(state, actor, command.choice):
        raise Rejected(N_("You hold no {item}."), item=Term("item", command.choice))


def _pick_me_partner(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    if state.flags.get(memory.PICK_ME) != command.by:
        raise Rejected(N_("Only the player chance picked today names a partner (I5)."))


def _spirit(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    if not (command.text or "").strip():
        raise Rejected(N_("Ask a question that can be answered yes or no."))


def _accept(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    """No check beyond the generic ones (role, stage, event, living targets)."""


_SPECIFIC = {
    "vote": _vote,
    "unvote": _unvote,
    "post": _post,
    "authority": _authority,
    "check": _accept,
    "heal": _heal,
    "witch_kill": _witch_kill,
    "witch_cancel": _witch_cancel,
    "swap_items": _swap,
    "recharge": _recharge,
    "assault": _accept,
    "eat": _eat,
    "hamster_kill": _accept,
    "use_item": _use_item,
    "bunker_apply": _bunker,
    "exchange_offer": _accept,
    "fear_pick": _accept,
    "pick_me_partner": _pick_me_partner,
    "spirit_ask": _spirit,
}

TermNames.register(
    "action",
    {
        "vote": N_("vote"),
        "unvote": N_("withdraw your vote"),
        "post": N_("post"),
        "authority": N_("take a vote as the authority"),
        "check": N_("check"),
        "heal": N_("heal"),
        "witch_kill": N_("kill by witchcraft"),
        "witch_cancel": N_("cancel the night"),
        "swap_items": N_("swap items"),
        "recharge": N_("recharge an item"),
        "assault": N_("assault"),
        "eat": N_("eat"),
        "hamster_kill": N_("kill as the hamster"),
        "use_item": N_("use an item"),
        "bunker_apply": N_("apply at the bunker"),
        "exchange_offer": N_("offer an exchange"),
        "fear_pick": N_("name the one to lynch"),
        "pick_me_partner": N_("name a partner"),
        "spirit_ask": N_("ask the spirit"),
    },
)
TermNames.register(
    "check",
    {"werewolf": N_("werewolf"), "not_werewolf": N_("no werewolf"),
     "blocked": N_("the check was blocked")},
)
TermNames.register("answer", {"yes": N_("yes"), "no": N_("no")})
