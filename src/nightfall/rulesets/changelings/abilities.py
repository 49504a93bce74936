"""Every Changelings command and the checks that accept or reject it (C2.7, C3–C14).

A command is rejected at once when the acting player can know it is invalid (a dead
target, a lover's vote for the partner, the same shield target twice); what depends on
hidden facts (the abduction of another changeling's secret lover) is accepted and fails
at resolution. Each ability lists its checks once (see :mod:`nightfall.engine.abilities`):
the same predicates accept commands (``validate``, the command path) and list the legal
commands for a player (bots and the web page use the same list).
"""

from __future__ import annotations

from nightfall.engine import N_, Command, GameState, Term, Text
from nightfall.engine.abilities import (
    Ability,
    AbilityBook,
    ActorCheck,
    Check,
    ForActor,
    ForTargets,
    OnCommand,
    OnPhase,
    OnTarget,
    PreparedActorCheck,
    PreparedTargetCheck,
    has_role,
    not_now,
    refusal,
    two_different,
)
from nightfall.engine.phase import DAY, NIGHT
from nightfall.engine.state import FLAGS, PHASE, PLAYERS
from nightfall.engine.text import TermNames
from nightfall.rulesets.changelings import memory
from nightfall.rulesets.changelings.awaiting import current_leader, is_awaited
from nightfall.rulesets.changelings.roles import (
    BLACK_RAVEN,
    CHANGELING,
    DISGUISES,
    DRAMA_QUEEN,
    LIAR,
    LOVE_POTION,
    NIGHT_OWL,
    PINKIE_SENSE,
    QUEEN,
    RESEARCHER,
    SHIELD,
    VOICELESS,
    is_changeling_side,
)

CHANGELING_SIDE = frozenset({CHANGELING, QUEEN, LIAR})

# When an ability may be submitted.
DAY_VOTE = "day_vote"  # a day's first stage (voting)
DAY_ANY = "day_any"  # any stage of a day, the tie-break wait included (C2.8)
NIGHT_STAGE_1 = "night_stage_1"
NIGHT_ANY = "night_any"  # stage-2 abilities may be given from the start of the night
NIGHT_STAGE_2 = "night_stage_2"
ANY_TIME = "any_time"  # standing choices

__all__ = ["ABILITIES", "AGAINST_LOVER", "BOOK", "Ability", "against_lover", "current_leader",
           "validate"]


# -- who may act, and when ----------------------------------------------------------------
def _phase_allows(state: GameState, when: str) -> bool:
    phase = state.phase
    if when == ANY_TIME:
        return True
    if when == DAY_VOTE:
        return phase.kind == DAY and phase.stage == 1
    if when == DAY_ANY:  # C2.8: only the night closes the thread
        return phase.kind == DAY
    if phase.kind != NIGHT:
        return False
    if when == NIGHT_STAGE_1:
        return phase.stage == 1
    if when == NIGHT_STAGE_2:
        return phase.stage == 2
    return True


def _in_game(state: GameState, actor: str) -> PreparedActorCheck | None:
    """C2.7: a departed player acts no more, but for the drama queen's chase and the
    leader's successor choice. Prepared once per actor (``ForActor``): it refuses a
    player still in the game nothing, whatever the ability."""
    if state.players[actor].alive:
        return None

    def check(ability: Ability) -> Text | None:
        if ability.action == "drama_chase" and actor in memory.names(state,
                                                                     memory.DRAMA_DUE):
            return None
        if ability.action == "successor" and state.flags.get(memory.SUCCESSION) == actor:
            return None
        return refusal(N_("You have left the game and can no longer act (C2.7)."))

    return check


_IN_GAME = ForActor(_in_game)


def _stage(when: str) -> ActorCheck:
    def in_stage(state: GameState, ability: Ability, actor: str) -> Text | None:
        if _phase_allows(state, when):
            return None
        return not_now(ability.action, state.phase_label)

    return in_stage


# -- the checks of each ability (C3–C14) ----------------------------------------------------
def _vote_right(state: GameState, ability: Ability, actor: str) -> Text | None:
    if VOICELESS in state.players[actor].statuses:
        return refusal(N_("You are voiceless and cannot vote (C6.4)."))
    return None


def _election_day(state: GameState, ability: Ability, actor: str) -> Text | None:
    if state.phase.number != 1:
        return refusal(N_("The leader is elected on day 1 only (C5.1)."))
    return None


def _banishment_day(state: GameState, ability: Ability, actor: str) -> Text | None:
    if state.phase.number == 1 and not state.options.get("first_day_banishment"):
        return refusal(N_("There is no banishment on day 1; vote for a leader (C2.2)."))
    return None


#: C8.2 [R]: what each ability that could act against the partner says when it names him
_AGAINST_LOVER: dict[str, str] = {
    "vote": N_("You cannot vote for your lover {name} (C8.2)."),
    "abduct": N_("You cannot abduct or replace your own lover (C7.3)."),
    "replace": N_("You cannot abduct or replace your own lover (C7.3)."),
    "tiebreak": N_("You cannot banish your lover {name} by your tie-break: lovers never act "
                   "against each other (C8.2)."),
    "pinkie_chase": N_("You cannot chase away your lover {name}: lovers never act against "
                       "each other (C8.2)."),
    "letter": N_("You cannot send your letter to your lover {name}: lovers never act "
                 "against each other (C8.2)."),
    "drama_chase": N_("You cannot take your lover {name} with you in your drama chase: "
                      "lovers never act against each other (C8.2)."),
}


def _partner_refused(state: GameState, ability: Ability, actor: str
                     ) -> PreparedTargetCheck | None:
    """C8.2 [R], C7.3: lovers never act against each other — every ability that could
    remove the partner or turn the village on him refuses him at once (the actor knows
    his partner). One check, prepared per actor, declared by every such ability; it
    refuses nobody for an actor without a lover."""
    partner = memory.partner_of(state, actor)
    if partner is None:
        return None
    refused = Text(_AGAINST_LOVER[ability.action], {"name": partner})

    def check(target: str) -> Text | None:
        return refused if target == partner else None

    return check


#: the check every ability of :data:`_AGAINST_LOVER` declares (see :func:`against_lover`)
_NOT_AGAINST_LOVER = ForTargets(_partner_refused)


#: refusals that most players' lists meet on every turn, built once
_NO_VOTE = refusal(N_("You have no vote to withdraw."))
_NOT_LEADER = refusal(N_("Only the leader breaks ties (C5.3)."))
_NOT_SUCCESSION = refusal(N_("Only the leader names a successor (C5.4)."))
_NOT_AWAITED = refusal(N_("Nothing is awaited from you right now."))


def _has_vote(state: GameState, ability: Ability, actor: str) -> Text | None:
    submissions = state.submissions
    if (actor, "vote") not in submissions and (actor, "elect") not in submissions:
        return _NO_VOTE
    return None


def _is_leader(state: GameState, ability: Ability, actor: str) -> Text | None:
    if current_leader(state) != actor:
        return _NOT_LEADER
    return None


def _among_tied(state: GameState, ability: Ability, actor: str, target: str) -> Text | None:
    if state.phase.kind == DAY and state.phase.stage == 2:
        tied = memory.names(state, memory.TIED)
        if target not in tied:
            return Text(N_("Name one of the tied players: {names}."), {"names": tuple(tied)})
    return None


def _names_successor(state: GameState, ability: Ability, actor: str) -> Text | None:
    if state.flags.get(memory.SUCCESSION) != actor and current_leader(state) != actor:
        return _NOT_SUCCESSION
    return None


def _a_pony(state: GameState, ability: Ability, actor: str, target: str) -> Text | None:
    if is_changeling_side(state.players[target].role):
        return Text(N_("{name} is a changeling; choose a pony (C7.2)."), {"name": target})
    return None


def _replacement_left(state: GameState, ability: Ability, actor: str) -> Text | None:
    if state.flags.get(memory.REPLACE_USED):
        return refusal(N_("The changelings have already used their replacement (C7.4)."))
    return None


def _not_shielded_last(state: GameState, ability: Ability, actor: str
                       ) -> PreparedTargetCheck | None:
    last = state.flags.get(memory.last_shield_key(actor))
    if last is None:
        return None

    def check(target: str) -> Text | None:
        if last == target:
            return Text(
                N_("You protected {name} last night and cannot protect the same pony twice "
                   "in a row (C12.2)."),
                {"name": target},
            )
        return None

    return check


def _a_disguise(state: GameState, ability: Ability, command: Command) -> Text | None:
    if command.choice not in DISGUISES:
        return Text(
            N_("The liar can pretend to be one of these roles only: {roles} (C9.2)."),
            {"roles": tuple(Term("role", r) for r in sorted(DISGUISES))},
        )
    return None


def _first_night(state: GameState, ability: Ability, actor: str) -> Text | None:
    if state.phase.number != 1:
        return refusal(N_("The love potion works in the first night only (C8.1)."))
    return None


def _pinkie_exclusive(state: GameState, ability: Ability, actor: str) -> Text | None:
    earlier = state.submission(actor, "pinkie")
    if earlier is not None and earlier.action not in (ability.action, "pass"):
        return Text(
            N_("Only one of save and chase per night; you chose {action} already (C13.4)."),
            {"action": Term("action", earlier.action)},
        )
    return None


def _save_unused(state: GameState, ability: Ability, actor: str) -> Text | None:
    if state.flags.get(memory.pinkie_save_used_key(actor)):
        return refusal(N_("The pinkie save works once per game and was used (C13.2)."))
    return None


def _abduction_planned(state: GameState, ability: Ability, actor: str) -> Text | None:
    if not state.flags.get(memory.ATTACK):
        return refusal(N_("Your pinkie sense tells of no abduction tonight to prevent."))
    return None


def _chase_unused(state: GameState, ability: Ability, actor: str) -> Text | None:
    if state.flags.get(memory.pinkie_chase_used_key(actor)):
        return refusal(N_("The pinkie chase works once per game and was used (C13.3)."))
    return None


def _has_text(state: GameState, ability: Ability, command: Command) -> Text | None:
    """C2.8: the thread is open by day only (checked by the phase); C6.4 voiceless may post."""
    if not (command.text or "").strip():
        return refusal(N_("A post needs some text."))
    return None


def _awaited(state: GameState, ability: Ability, actor: str) -> Text | None:
    """C2.3: ``pass`` answers whatever the stage awaits from the player."""
    if not is_awaited(state, actor):
        return _NOT_AWAITED
    return None


def _ability(action: str, rule: str, slot: str, roles: frozenset[str] | None, when: str, *,
             targets: int = 1, standing: bool = False, self_target: bool = True,
             checks: tuple[Check, ...] = (), choices: tuple[str, ...] | None = None,
             offered: bool = True) -> Ability:
    return Ability(action, rule, slot, roles, targets=targets, self_target=self_target,
                   standing=standing, actor_checks=(_IN_GAME, has_role, OnPhase(_stage(when))),
                   checks=checks, choices=choices, offered=offered)


BOOK = AbilityBook(
    (
        _ability("elect", "C5.1", "elect", None, DAY_VOTE,
                 checks=(OnPhase(_election_day), _vote_right)),
        # C5.2: the leader keeps his ordinary vote (no role or status check here)
        _ability("vote", "C3.1", "vote", None, DAY_VOTE,
                 checks=(_banishment_day, _vote_right, _NOT_AGAINST_LOVER)),
        _ability("unvote", "C3.1", "vote", None, DAY_VOTE, targets=0, checks=(_has_vote,)),
        _ability("tiebreak", "C5.3", "tiebreak", None, ANY_TIME, standing=True,
                 checks=(_is_leader, OnTarget(_among_tied), _NOT_AGAINST_LOVER)),
        _ability("successor", "C5.4", "successor", None, ANY_TIME, standing=True,
                 self_target=False, checks=(_names_successor,)),
        _ability("abduct", "C7.1", "kill", CHANGELING_SIDE, NIGHT_STAGE_1,
                 checks=(OnTarget(_a_pony), _NOT_AGAINST_LOVER)),
        _ability("replace", "C7.4", "kill", CHANGELING_SIDE, NIGHT_STAGE_1,
                 checks=(OnTarget(_a_pony), _NOT_AGAINST_LOVER, _replacement_left)),
        _ability("shield", "C12.1", "shield", frozenset({SHIELD}), NIGHT_STAGE_1,
                 checks=(ForTargets(_not_shielded_last),)),
        _ability("investigate", "C9.1", "investigate", frozenset({RESEARCHER}), NIGHT_ANY),
        _ability("scry", "C9.1", "scry", frozenset({QUEEN}), NIGHT_ANY),
        _ability("disguise", "C9.2", "disguise", frozenset({LIAR}), NIGHT_ANY, targets=0,
                 checks=(OnCommand(_a_disguise),), choices=tuple(sorted(DISGUISES))),
        _ability("letter", "C10.1", "letter", frozenset({BLACK_RAVEN}), NIGHT_ANY,
                 checks=(_NOT_AGAINST_LOVER,)),
        _ability("love", "C8.1", "love", frozenset({LOVE_POTION}), NIGHT_ANY, targets=2,
                 checks=(OnPhase(_first_night), OnCommand(two_different))),
        _ability("visit", "C11.1", "visit", frozenset({NIGHT_OWL}), NIGHT_ANY),
        _ability("pinkie_save", "C13.2", "pinkie", frozenset({PINKIE_SENSE}), NIGHT_STAGE_2,
                 targets=0, checks=(_save_unused, _abduction_planned, _pinkie_exclusive)),
        _ability("pinkie_chase", "C13.3", "pinkie", frozenset({PINKIE_SENSE}), NIGHT_ANY,
                 self_target=False,
                 checks=(_chase_unused, _pinkie_exclusive, _NOT_AGAINST_LOVER)),
        _ability("drama_chase", "C14.1", "drama", frozenset({DRAMA_QUEEN}), ANY_TIME,
                 standing=True, self_target=False, checks=(_NOT_AGAINST_LOVER,)),
        Ability("pass", "C2.3", "", None, targets=0, actor_checks=(_awaited,)),
        # a post needs a free text: never listed (the pages ask the command path)
        _ability("post", "C2.8", "", None, DAY_ANY, targets=0, checks=(OnCommand(_has_text),),
                 offered=False),
    ),
    # what checks read that do not look at the actor (the legal lists share their
    # verdicts within a stage, see AbilityBook); a check not named here reads everything
    reads={_among_tied: (PHASE, FLAGS), _a_pony: (PLAYERS,), _banishment_day: (PHASE,)},
)
ABILITIES: dict[str, Ability] = BOOK.abilities
#: C8.2 [R]: the abilities that may never name the actor's lover
AGAINST_LOVER = frozenset(a.action for a in BOOK.abilities.values()
                          if _NOT_AGAINST_LOVER in a.checks)


def against_lover(state: GameState, action: str, actor: str, targets: tuple[str, ...]
                  ) -> bool:
    """Whether ``actor``'s ``action`` naming ``targets`` acts against his lover now (C8.2):
    what the command path refuses, asked of a choice given before the couple formed."""
    if action not in AGAINST_LOVER:
        return False
    check = _partner_refused(state, ABILITIES[action], actor)
    return check is not None and any(check(t) is not None for t in targets)


def validate(state: GameState, command: Command) -> tuple[str, bool]:
    """Accept ``command`` (return its slot and whether it is a standing choice) or raise
    :class:`Rejected` with the first reason that refuses it."""
    ability = BOOK.check(state, command)
    return ability.slot, ability.standing


#: what each command is called on the pages (the legal list's forms, the log)
ACTION_NAMES: dict[str, str] = {
    "elect": N_("elect a leader"),
    "vote": N_("vote"),
    "unvote": N_("withdraw your vote"),
    "tiebreak": N_("break the tie"),
    "successor": N_("name a successor"),
    "abduct": N_("abduct"),
    "replace": N_("replace"),
    "shield": N_("shield"),
    "investigate": N_("investigate"),
    "scry": N_("scry"),
    "disguise": N_("disguise"),
    "letter": N_("write a letter"),
    "love": N_("use the love potion"),
    "visit": N_("visit"),
    "pinkie_save": N_("pinkie save"),
    "pinkie_chase": N_("pinkie chase"),
    "drama_chase": N_("drama chase"),
    "pass": N_("pass"),
    "post": N_("post"),
}
TermNames.register("action", ACTION_NAMES)
# The slots a stage awaits (C2.3), as the GM's dashboard names them: a slot is answered
# by one of several actions (the changelings' "kill" by abduct or replace).
TermNames.register(
    "slot",
    {
        **{slot: ACTION_NAMES[slot] for slot in ("shield", "investigate", "scry", "disguise",
                                                  "letter", "love", "visit", "tiebreak")},
        "kill": N_("abduct or replace"),
        "pinkie": N_("pinkie save or chase"),
        "drama": ACTION_NAMES["drama_chase"],
    },
)
