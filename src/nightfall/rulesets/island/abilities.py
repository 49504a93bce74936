"""Every Island command and the checks that accept or reject it (I2, I4, I5, I6.2).

All moves are made by day (I6.2: the last submission of a kind counts). A command is
rejected at once when the player can know it is invalid (a dead target, a used-up
ability, a vote for a handcuffed neighbour, an ``eat`` under the lunar eclipse); what
depends on later or hidden facts (a totem vote, a palms-bloom slip, a love note used after
the vote) is accepted and lost at 21:00. Each ability lists its checks once (see
:mod:`nightfall.engine.abilities`): the same predicates accept commands (``validate``)
and list the legal commands (bots and the web page use the same list).
"""

from __future__ import annotations

from collections.abc import Sequence

from nightfall.engine import N_, Command, GameState, Term, Text
from nightfall.engine.abilities import (
    ANY,
    Ability,
    AbilityBook,
    ActorCheck,
    ActorStep,
    Candidates,
    Check,
    ForActor,
    ForCommands,
    ForCount,
    ForTargets,
    OnCommand,
    OnPhase,
    OnTarget,
    PreparedActorCheck,
    PreparedCommandCheck,
    PreparedCountCheck,
    PreparedTargetCheck,
    all_different,
    has_role,
    listed,
    not_now,
    refusal,
    two_different,
)
from nightfall.engine.guests import DEAD, OBSERVER
from nightfall.engine.phase import DAY
from nightfall.engine.state import FLAGS, PLAYERS
from nightfall.engine.text import TermNames
from nightfall.rulesets.island import memory, spirit
from nightfall.rulesets.island.happenings import (
    BUNKER,
    EXCHANGE,
    FEAR,
    FULL_MOON,
    LUNAR_ECLIPSE,
    MAGNETIC_STORM,
    MYSTIC_LIGHT,
    PICK_ME,
    SPIRIT,
)
from nightfall.rulesets.island.items import (
    AUTOMATIC,
    HANDCUFFS,
    ITEM_IDS,
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
from nightfall.rulesets.island.voting import love_note_partners, voiceless_reason, vote_count

#: I6.7 [R]: besides the living, the dead and outside observers (whom the GM lets in with
#: an observer link) may post in the thread; unlike Changelings (C2.7)
THREAD_GUESTS = frozenset({DEAD, OBSERVER})

ANY_STAGE = "any_stage"
STAGE_ONE = "stage_one"  # event applications close at 13:00 (I7 stage 1 step 1)

__all__ = ["ABILITIES", "BOOK", "THREAD_GUESTS", "Ability", "slot_of", "validate"]


def slot_of(state: GameState, command: Command) -> str:
    """The submission slot: one per kind of move (I6.2); items and mystic light apart."""
    if command.action == "use_item":
        return "item:" + (command.choice or "")
    if command.action == "recharge" and is_mystic_recharge_of(state, command):
        return "mystic"
    return ABILITIES[command.action].slot


def is_mystic_recharge_of(state: GameState, command: Command) -> bool:
    """Whether a ``recharge`` is the mystic light's of one's own item (I5) rather than
    the sleepwalker's night move (I2.6): one naming nobody is; one naming the sender is,
    unless the sender is the sleepwalker, who may recharge his own item at night [R]."""
    if command.target is None:
        return True
    by = command.by or ""
    return command.target == by and (by not in state.players
                                     or state.players[by].role != SLEEPWALKER)


def validate(state: GameState, command: Command) -> str:
    """Accept ``command`` (return its slot) or raise :class:`Rejected` with the first
    reason that refuses it."""
    BOOK.check(state, command)
    return slot_of(state, command)


# -- who may act, and when ------------------------------------------------------------------
def _alive(state: GameState, actor: str) -> PreparedActorCheck | None:
    """The departed act no more; prepared once per actor (``ForActor``)."""
    if state.players[actor].alive:
        return None
    return _gone


_LEFT = refusal(N_("You have left the game and can no longer act."))


def _gone(ability: Ability) -> Text | None:
    return _LEFT


_ALIVE = ForActor(_alive)


def _alive_or_guest(state: GameState, ability: Ability, actor: str) -> Text | None:
    """I6.7 [R]: the dead may keep posting in the thread (marked as theirs); nothing else."""
    if not state.players[actor].alive and DEAD not in THREAD_GUESTS:
        return refusal(N_("You have left the game and can no longer act."))
    return None


def _stage(when: str) -> ActorCheck:
    def in_stage(state: GameState, ability: Ability, actor: str) -> Text | None:
        phase = state.phase
        if phase.kind != DAY or (when == STAGE_ONE and phase.stage != 1):
            return not_now(ability.action, state.phase_label)
        return None

    return in_stage


#: the checks made by :func:`_on_event` (they read the day's event, a flag, only)
_EVENT_CHECKS: list[ActorCheck] = []


def _on_event(event: str) -> ActorCheck:
    refusals: dict[str, Text] = {}  # by action: built once

    def event_today(state: GameState, ability: Ability, actor: str) -> Text | None:
        if memory.today_event(state) != event:
            text = refusals.get(ability.action)
            if text is None:
                text = refusals[ability.action] = Text(
                    N_("{action} is possible only on a day of the event {event}."),
                    {"action": Term("action", ability.action), "event": Term("event", event)})
            return text
        return None

    _EVENT_CHECKS.append(event_today)
    return event_today


# -- the checks of each ability (I2, I4, I5, I6) -------------------------------------------
def _has_voice(state: GameState, ability: Ability, actor: str) -> Text | None:
    """I6.3, I2.7, I4: who may vote at all today."""
    reason = voiceless_reason(state, actor)
    if reason is not None:
        return Text(N_("You are {status} and cannot vote today."),
                    {"status": Term("status", reason)})
    return None


def _votes_left(state: GameState, ability: Ability, actor: str) -> PreparedCountCheck:
    """I6.3, I5, I4, I2.4: a vote names at most as many players as the voter has votes
    (a check of the number alone: the list asks it once for one player, once for two)."""
    count = vote_count(state, actor)

    def check(named: int) -> Text | None:
        if named > count:
            text = _TOO_MANY.get(count)
            if text is None:  # every list of a voter with one vote meets it: built once
                text = _TOO_MANY[count] = Text(
                    N_("You have {count} vote(s) today; name at most that many players."),
                    {"count": count})
            return text
        return None

    return check


#: by number of votes: the refusal of a vote naming more players (see ``_votes_left``)
_TOO_MANY: dict[int, Text] = {}


def _items_bind(state: GameState) -> bool:
    """I5: under fear the vote elects the leader; items change nothing (and nothing works
    under the magnetic storm, see ``items_work``)."""
    event = memory.today_event(state)
    return event != FEAR and event != MAGNETIC_STORM


def _not_cuffed_to(state: GameState, ability: Ability, actor: str
                   ) -> PreparedTargetCheck | None:
    # whether he holds handcuffs first: a loop over his two or three items, and most
    # voters hold none (the day's event is read only for those who do)
    if not (holds(state, actor, HANDCUFFS) and _items_bind(state)):
        return None
    near = neighbours(state, actor)

    def check(target: str) -> Text | None:
        if target in near:
            return Text(N_("Your handcuffs forbid a vote for your neighbour {name} (I4)."),
                        {"name": target})
        return None

    return check


def _no_love_note(state: GameState, ability: Ability, actor: str
                  ) -> PreparedTargetCheck | None:
    if not state.flags.get(memory.LOVE_NOTES) and (
            actor, "item:love_note") not in state.submissions:
        return None  # no note today, none sent by him: nothing forbidden (most voters)
    if not _items_bind(state):
        return None
    forbidden = love_note_partners(state, actor)
    own = _own_note(state, actor)
    if own is not None:
        forbidden.add(own)
    if not forbidden:
        return None

    def check(target: str) -> Text | None:
        if target in forbidden:
            return Text(N_("A love note forbids votes between you and {name} (I4)."),
                        {"name": target})
        return None

    return check


def _own_note(state: GameState, actor: str) -> str | None:
    """The recipient of a love note ``actor`` has sent today but not yet activated."""
    sub = state.submission(actor, "item:love_note")
    return sub.target if sub is not None else None


_NO_VOTE = refusal(N_("You have no vote to withdraw."))


def _has_vote(state: GameState, ability: Ability, actor: str) -> Text | None:
    if (actor, "vote") not in state.submissions:
        return _NO_VOTE
    return None


def _has_text(state: GameState, ability: Ability, command: Command) -> Text | None:
    if not (command.text or "").strip():
        return refusal(N_("A post needs some text."))
    return None


def _authority_left(state: GameState, ability: Ability, actor: str) -> Text | None:
    used = state.flags.get(memory.authority_key(actor))
    if used is not None and used != state.phase.number:
        return refusal(N_("The authority takes a vote once per game and has done so (I2.4)."))
    return None


def _self_heal_left(state: GameState, ability: Ability, actor: str
                    ) -> PreparedTargetCheck | None:
    if not state.flags.get(memory.nurse_self_key(actor)):
        return None

    def check(target: str) -> Text | None:
        if target == actor:
            return refusal(N_("The nurse heals herself once per game and has done so (I2.2)."))
        return None

    return check


def _witch_kill_left(state: GameState, ability: Ability, actor: str) -> Text | None:
    if state.flags.get(memory.witch_kill_key(actor)):
        return refusal(N_("The witch kills once per game and has done so (I2.5)."))
    return None


def _witch_cancel_left(state: GameState, ability: Ability, actor: str) -> Text | None:
    if state.flags.get(memory.witch_cancel_key(actor)):
        return refusal(N_("The witch cancels a night once per game and has done so (I2.5)."))
    return None


def _may_recharge(state: GameState, ability: Ability, actor: str) -> Text | None:
    """Only the sleepwalker recharges, but for the owners on a day of mystic light (the
    details are :func:`_rechargeable`'s; this lets the list skip everybody else)."""
    if state.players[actor].role != SLEEPWALKER and memory.today_event(state) != MYSTIC_LIGHT:
        return _not_your_ability(ability.action)
    return None


_NOT_YOURS: dict[str, Text] = {}


def _not_your_ability(action: str) -> Text:
    """"Not an ability of your role", built once per action: most lists meet it."""
    text = _NOT_YOURS.get(action)
    if text is None:
        text = _NOT_YOURS[action] = Text(N_("“{action}” is not an ability of your role."),
                                         {"action": Term("action", action)})
    return text


def _rechargeable(state: GameState, ability: Ability, command: Command) -> Text | None:
    """I5: under mystic light every owner may recharge his own used item until 13:00
    (judged now: it resolves at 13:00). I2.6 [R]: the sleepwalker names any living player,
    himself included; whether that player holds a used item is judged when the move
    resolves (step 11), so nothing about it is refused now."""
    actor = command.by or ""
    if memory.today_event(state) == MYSTIC_LIGHT and is_mystic_recharge_of(state, command):
        if state.phase.stage != 1:
            return Text(N_("{action} is possible only until {until}."),
                        {"action": Term("action", command.action),
                         "until": memory.midday(state)})
        used = used_items(state, actor)
        if not used:
            return Text(N_("{name} holds no used item."), {"name": actor})
        if command.choice is not None and command.choice not in used:
            return Text(N_("{name} holds no used {item}."),
                        {"name": actor, "item": Term("item", command.choice)})
        return None
    if state.players[actor].role != SLEEPWALKER:
        return _not_your_ability(command.action)
    if not command.all_targets:
        return refusal(N_("Name exactly one player."))
    if command.choice is not None and command.choice not in ITEM_IDS:
        return Text(N_("Unknown item {item}."), {"item": command.choice})
    return None


def _no_eclipse(state: GameState, ability: Ability, actor: str) -> Text | None:
    if memory.today_event(state) == LUNAR_ECLIPSE:
        return refusal(N_("Lunar eclipse: the werewolves eat nobody tonight (I5)."))
    return None


_EAT_LIMIT = refusal(N_("The werewolves may eat two players only under the full moon, "
                        "one otherwise (I5)."))


def _eat_limit(state: GameState, ability: Ability, actor: str) -> PreparedCountCheck:
    """I2.8, I5: one victim; two under the full moon (a check of the number alone: the
    list asks it once for one victim, once for two; [R] two different victims is
    ``all_different``, right after it)."""
    limit = 2 if memory.today_event(state) == FULL_MOON else 1

    def check(named: int) -> Text | None:
        if named > limit:
            return _EAT_LIMIT
        return None

    return check


def _not_mafia(state: GameState, ability: Ability, actor: str, target: str) -> Text | None:
    if is_mafia(state.players[target].role):
        return Text(N_("{name} is on your side; choose another victim."), {"name": target})
    return None


def _usable_item(state: GameState, ability: Ability, actor: str) -> PreparedCommandCheck:
    """I4: shocker, love note and voodoo doll are used by their owner on a player. Read
    once per actor (his unused items, whether items work today), then asked of each of
    his ``use_item`` commands: the listing offers every item on every target."""
    unused = {i.id for i in state.players[actor].items if not i.used}
    works = items_work(state)

    def check(command: Command) -> Text | None:
        item = command.choice or ""
        if item in AUTOMATIC:
            return Text(N_("The {item} works by itself when needed (I4)."),
                        {"item": Term("item", item)})
        if item not in ON_PLAYER:
            return refusal(N_("This item cannot be used on a player."))
        if item not in unused:
            return Text(N_("You hold no usable {item}."), {"item": Term("item", item)})
        if not works:
            return refusal(N_("Magnetic storm: no item works today (I5)."))
        return None

    return check


_NO_ITEM_ON_PLAYER = refusal(N_("You hold no item that can be used on a player."))


def _holds_item_on_player(state: GameState, ability: Ability, actor: str) -> Text | None:
    """I4: ``use_item`` needs an unused shocker, love note or voodoo doll. Declared after
    :func:`_usable_item`, which refuses every command this refuses (naming the item), so
    the command path answers as before; the listing, which runs actor checks before it
    looks at targets, skips the ability for the many players who hold no such item."""
    for item in state.players[actor].items:
        if item.id in ON_PLAYER and not item.used:
            return None
    return _NO_ITEM_ON_PLAYER


def _item_candidates(state: GameState, ability: Ability, actor: str, targets: Sequence[str]
                     ) -> Sequence[Command]:
    """Each unused item the actor holds that works on a player, on each valid target."""
    usable = sorted({i.id for i in state.players[actor].items
                     if i.id in ON_PLAYER and not i.used})
    if not usable:  # most players hold no such item: nothing to list
        return ()
    return listed(ability, actor, targets, 1, tuple(usable))


def _bunker_ticket(state: GameState, ability: Ability, command: Command) -> Text | None:
    actor = command.by or ""
    if not state.players[actor].items:
        return refusal(N_("You hold no item to swap."))
    if command.choice is not None and not holds(state, actor, command.choice):
        return Text(N_("You hold no {item}."), {"item": Term("item", command.choice)})
    return None


def _picked(state: GameState, ability: Ability, actor: str) -> Text | None:
    if state.flags.get(memory.PICK_ME) != actor:
        return refusal(N_("Only the player chance picked today names a partner (I5)."))
    return None


def _a_question(state: GameState, ability: Ability, command: Command) -> Text | None:
    if not (command.text or "").strip():
        return refusal(N_("Ask a question that can be answered yes or no."))
    return None


def _may_ask(state: GameState, ability: Ability, actor: str) -> Text | None:
    """I5 spirit [R]: the chosen asker only; after 13:00 only in place of a refused one."""
    return spirit.question_refusal(state, actor)


def _may_nominate(state: GameState, ability: Ability, actor: str) -> Text | None:
    """I5 spirit [R]: the players choose one asker; once chosen, the choice is final."""
    return spirit.nomination_refusal(state)


#: when each ability may be sent (``ANY_STAGE`` or ``STAGE_ONE``) and the event it belongs
#: to, as declared below: the forms' explanations read them (``hints.py``)
WHEN: dict[str, str] = {}
EVENT_OF: dict[str, str] = {}


def _ability(action: str, rule: str, slot: str, roles: frozenset[str] | None,
             when: str = ANY_STAGE, *, targets: int = 1, self_target: bool = True,
             event: str | None = None, checks: tuple[Check, ...] = (),
             candidates: Candidates | None = None, target_optional: bool = False,
             listed_text: str | None = None, guests: bool = False, offered: bool = True,
             listed_counts: tuple[int, ...] = (1,)) -> Ability:
    alive: ActorCheck = _alive_or_guest if guests else _ALIVE
    actor_checks: tuple[ActorStep, ...] = (alive, has_role, OnPhase(_stage(when)))
    WHEN[action] = when
    if event is not None:
        EVENT_OF[action] = event
        actor_checks += (_on_event(event),)
    return Ability(action, rule, slot, roles, targets=targets, self_target=self_target,
                   actor_checks=actor_checks, checks=checks, candidates=candidates,
                   target_optional=target_optional, listed_text=listed_text, offered=offered,
                   listed_counts=listed_counts)


BOOK = AbilityBook((
    # listed: one player, or two different ones (a player with two votes or more: the
    # count check says which, once per number)
    _ability("vote", "I6.3", "vote", None, targets=ANY,
             checks=(_has_voice, ForCount(_votes_left), ForTargets(_not_cuffed_to),
                     ForTargets(_no_love_note)), listed_counts=(1, 2)),
    _ability("unvote", "I6.2", "vote", None, targets=0, checks=(_has_vote,)),
    # a post needs a free text: never listed (the pages ask the command path)
    _ability("post", "I6.7", "", None, targets=0, checks=(OnCommand(_has_text),),
             guests=True, offered=False),
    _ability("authority", "I2.4", "authority", frozenset({AUTHORITY}), self_target=False,
             checks=(_authority_left,)),
    _ability("check", "I2.1", "check", frozenset({SEER}), self_target=False),
    _ability("heal", "I2.2", "heal", frozenset({NURSE}), checks=(ForTargets(_self_heal_left),)),
    _ability("witch_kill", "I2.5", "witch", frozenset({WITCH}), self_target=False,
             checks=(_witch_kill_left,)),
    _ability("witch_cancel", "I2.5", "witch", frozenset({WITCH}), targets=0,
             checks=(_witch_cancel_left,)),
    _ability("swap_items", "I2.6", "sleepwalk", frozenset({SLEEPWALKER}), targets=2,
             checks=(OnCommand(two_different),)),
    _ability("recharge", "I2.6", "sleepwalk", None,
             checks=(_may_recharge, OnCommand(_rechargeable)), target_optional=True),
    _ability("assault", "I2.7", "assault", frozenset({MANIAC}), self_target=False),
    _ability("eat", "I2.8", "eat", frozenset({WEREWOLF}), targets=ANY,
             checks=(_no_eclipse, ForCount(_eat_limit), OnCommand(all_different),
                     OnTarget(_not_mafia)), listed_counts=(1, 2)),
    _ability("hamster_kill", "I2.9", "hamster", frozenset({HAMSTER}), self_target=False),
    _ability("use_item", "I4", "item", None, self_target=False,
             checks=(ForCommands(_usable_item), _holds_item_on_player),
             candidates=_item_candidates),
    _ability("bunker_apply", "I5", "bunker", None, STAGE_ONE, targets=0, event=BUNKER,
             checks=(OnCommand(_bunker_ticket),)),
    _ability("exchange_offer", "I5", "exchange", None, STAGE_ONE, self_target=False,
             event=EXCHANGE),
    _ability("fear_pick", "I6.5", "fear", None, event=FEAR),
    _ability("pick_me_partner", "I5", "pick_me", None, STAGE_ONE, self_target=False,
             event=PICK_ME, checks=(_picked,)),
    _ability("spirit_nominate", "I5", spirit.NOMINATION, None, STAGE_ONE, event=SPIRIT,
             checks=(_may_nominate,)),
    _ability("spirit_ask", "I5", "spirit", None, targets=0, event=SPIRIT,
             checks=(_may_ask, OnCommand(_a_question)), listed_text="?"),
    # what checks read that do not look at the actor (the legal lists share their
    # verdicts within a stage, see AbilityBook); a check not named here reads everything
), reads={_not_mafia: (PLAYERS,), _no_eclipse: (FLAGS,),
          **{check: (FLAGS,) for check in _EVENT_CHECKS}})
ABILITIES: dict[str, Ability] = BOOK.abilities


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
        "spirit_nominate": N_("choose who asks the spirit"),
    },
)
TermNames.register(
    "check",
    {"werewolf": N_("werewolf"), "not_werewolf": N_("no werewolf"),
     "blocked": N_("the check was blocked")},
)
TermNames.register("answer", {"yes": N_("yes"), "no": N_("no")})
