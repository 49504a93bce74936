"""Every Changelings command and the checks that accept or reject it (C2.7, C3–C14).

A command is rejected at once when the acting player can know it is invalid (a dead
target, a lover's vote for the partner, the same shield target twice); what depends on
hidden facts (the abduction of another changeling's secret lover) is accepted and fails
at resolution. ``validate`` is pure: it is used both to accept commands and to list the
legal commands for a player (bots and the web page use the same list).
"""

from __future__ import annotations

from dataclasses import dataclass

from nightfall.engine import N_, Command, GameState, Rejected, Term
from nightfall.engine.phase import DAY, NIGHT
from nightfall.engine.text import TermNames
from nightfall.rulesets.changelings import memory
from nightfall.rulesets.changelings.roles import (
    BLACK_RAVEN,
    CHANGELING,
    DISGUISES,
    DRAMA_QUEEN,
    LEADER,
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


@dataclass(frozen=True, slots=True)
class Ability:
    action: str
    rule: str
    slot: str
    roles: frozenset[str] | None  # None: any player with a vote right
    when: str
    targets: int = 1
    standing: bool = False
    self_target: bool = True


ABILITIES: dict[str, Ability] = {
    a.action: a
    for a in (
        Ability("elect", "C5.1", "elect", None, DAY_VOTE),
        Ability("vote", "C3.1", "vote", None, DAY_VOTE),
        Ability("unvote", "C3.1", "vote", None, DAY_VOTE, targets=0),
        Ability("tiebreak", "C5.3", "tiebreak", None, ANY_TIME, standing=True),
        Ability("successor", "C5.4", "successor", None, ANY_TIME, standing=True,
                self_target=False),
        Ability("abduct", "C7.1", "kill", CHANGELING_SIDE, NIGHT_STAGE_1),
        Ability("replace", "C7.4", "kill", CHANGELING_SIDE, NIGHT_STAGE_1),
        Ability("shield", "C12.1", "shield", frozenset({SHIELD}), NIGHT_STAGE_1),
        Ability("investigate", "C9.1", "investigate", frozenset({RESEARCHER}), NIGHT_ANY),
        Ability("scry", "C9.1", "scry", frozenset({QUEEN}), NIGHT_ANY),
        Ability("disguise", "C9.2", "disguise", frozenset({LIAR}), NIGHT_ANY, targets=0),
        Ability("letter", "C10.1", "letter", frozenset({BLACK_RAVEN}), NIGHT_ANY),
        Ability("love", "C8.1", "love", frozenset({LOVE_POTION}), NIGHT_ANY, targets=2),
        Ability("visit", "C11.1", "visit", frozenset({NIGHT_OWL}), NIGHT_ANY),
        Ability("pinkie_save", "C13.2", "pinkie", frozenset({PINKIE_SENSE}), NIGHT_STAGE_2,
                targets=0),
        Ability("pinkie_chase", "C13.3", "pinkie", frozenset({PINKIE_SENSE}), NIGHT_ANY,
                self_target=False),
        Ability("drama_chase", "C14.1", "drama", frozenset({DRAMA_QUEEN}), ANY_TIME,
                standing=True, self_target=False),
        Ability("pass", "C2.3", "", None, ANY_TIME, targets=0),
        Ability("post", "C2.8", "", None, DAY_ANY, targets=0),
    )
}


def current_leader(state: GameState) -> str | None:
    """C5: the living player with the leader status (departed leaders keep the mark)."""
    for player in state.players.values():
        if player.alive and LEADER in player.statuses:
            return player.name
    return None


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


def _may_act_after_leaving(state: GameState, command: Command) -> bool:
    """C2.7: the drama queen's chase and the leader's successor choice."""
    if command.action == "drama_chase":
        return command.by in memory.names(state, memory.DRAMA_DUE)
    if command.action == "successor":
        return state.flags.get(memory.SUCCESSION) == command.by
    return False


def validate(state: GameState, command: Command) -> tuple[str, bool]:
    """Accept ``command`` (return its slot and whether it is a standing choice) or raise."""
    ability = ABILITIES.get(command.action)
    if ability is None:
        raise Rejected(N_("Unknown command {action}."), action=command.action)
    check_actor(state, ability, command)
    targets = _check_targets(state, command, ability)
    _SPECIFIC[command.action](state, command, targets)
    return ability.slot, ability.standing


def check_actor(state: GameState, ability: Ability, command: Command) -> None:
    """The checks that do not depend on the targets: who acts, and when."""
    actor = command.by
    if actor is None or actor not in state.players:
        raise Rejected(N_("There is no player called {name}."), name=actor)
    me = state.players[actor]
    if not me.alive and not _may_act_after_leaving(state, command):
        raise Rejected(N_("You have left the game and can no longer act (C2.7)."))
    if ability.roles is not None and me.role not in ability.roles:
        raise Rejected(
            N_("“{action}” is not an ability of your role."), action=Term("action", command.action)
        )
    if not _phase_allows(state, ability.when):
        raise Rejected(
            N_("{action} is not possible now ({phase})."),
            action=Term("action", command.action), phase=Term("phase", state.phase_label),
        )


def _check_targets(state: GameState, command: Command, ability: Ability) -> tuple[str, ...]:
    targets = command.all_targets
    if ability.targets == 0:
        return ()
    if len(targets) != ability.targets:
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


def _vote_right(state: GameState, actor: str) -> None:
    if VOICELESS in state.players[actor].statuses:
        raise Rejected(N_("You are voiceless and cannot vote (C6.4)."))


def _elect(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    if state.phase.number != 1:
        raise Rejected(N_("The leader is elected on day 1 only (C5.1)."))
    _vote_right(state, command.by or "")


def _vote(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    if state.phase.number == 1 and not state.options.get("first_day_banishment"):
        raise Rejected(N_("There is no banishment on day 1; vote for a leader (C2.2)."))
    actor = command.by or ""
    _vote_right(state, actor)
    partner = memory.partner_of(state, actor)
    if partner is not None and partner in targets:
        raise Rejected(N_("You cannot vote for your lover {name} (C8.2)."), name=partner)


def _unvote(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    actor = command.by or ""
    if state.submission(actor, "vote") is None and state.submission(actor, "elect") is None:
        raise Rejected(N_("You have no vote to withdraw."))


def _tiebreak(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    if current_leader(state) != command.by:
        raise Rejected(N_("Only the leader breaks ties (C5.3)."))
    tied = memory.names(state, memory.TIED)
    if state.phase.kind == DAY and state.phase.stage == 2 and targets[0] not in tied:
        raise Rejected(N_("Name one of the tied players: {names}."), names=tuple(tied))


def _successor(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    actor = command.by
    if current_leader(state) != actor and state.flags.get(memory.SUCCESSION) != actor:
        raise Rejected(N_("Only the leader names a successor (C5.4)."))


def _kill(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    target = targets[0]
    if is_changeling_side(state.players[target].role):
        raise Rejected(N_("{name} is a changeling; choose a pony (C7.2)."), name=target)
    if memory.partner_of(state, command.by or "") == target:
        raise Rejected(N_("You cannot abduct or replace your own lover (C7.3)."))
    if command.action == "replace" and state.flags.get(memory.REPLACE_USED):
        raise Rejected(N_("The changelings have already used their replacement (C7.4)."))


def _shield(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    last = state.flags.get(memory.last_shield_key(command.by or ""))
    if last == targets[0]:
        raise Rejected(
            N_("You protected {name} last night and cannot protect the same pony twice "
               "in a row (C12.2)."),
            name=targets[0],
        )


def _disguise(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    if command.choice not in DISGUISES:
        raise Rejected(
            N_("The liar can pretend to be one of these roles only: {roles} (C9.2)."),
            roles=tuple(Term("role", r) for r in sorted(DISGUISES)),
        )


def _love(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    if state.phase.number != 1:
        raise Rejected(N_("The love potion works in the first night only (C8.1)."))
    if targets[0] == targets[1]:
        raise Rejected(N_("Name two different players."))


def _pinkie_exclusive(state: GameState, command: Command) -> None:
    earlier = state.submission(command.by or "", "pinkie")
    if earlier is not None and earlier.action not in (command.action, "pass"):
        raise Rejected(
            N_("Only one of save and chase per night; you chose {action} already (C13.4)."),
            action=Term("action", earlier.action),
        )


def _pinkie_save(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    if state.flags.get(memory.pinkie_save_used_key(command.by or "")):
        raise Rejected(N_("The pinkie save works once per game and was used (C13.2)."))
    if memory.attack(state) is None:
        raise Rejected(N_("Your pinkie sense tells of no abduction tonight to prevent."))
    _pinkie_exclusive(state, command)


def _pinkie_chase(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    if state.flags.get(memory.pinkie_chase_used_key(command.by or "")):
        raise Rejected(N_("The pinkie chase works once per game and was used (C13.3)."))
    _pinkie_exclusive(state, command)


def _accept(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    """No check beyond the generic ones (role, phase, living targets)."""


def _post(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    """C2.8: the thread is open by day only (checked by the phase); C6.4 voiceless may post."""
    if not (command.text or "").strip():
        raise Rejected(N_("A post needs some text."))


def _pass(state: GameState, command: Command, targets: tuple[str, ...]) -> None:
    """``pass`` is handled by the rule set: it answers whatever the stage awaits."""


_SPECIFIC = {
    "elect": _elect,
    "vote": _vote,
    "unvote": _unvote,
    "tiebreak": _tiebreak,
    "successor": _successor,
    "abduct": _kill,
    "replace": _kill,
    "shield": _shield,
    "investigate": _accept,
    "scry": _accept,
    "disguise": _disguise,
    "letter": _accept,
    "love": _love,
    "visit": _accept,
    "pinkie_save": _pinkie_save,
    "pinkie_chase": _pinkie_chase,
    "drama_chase": _accept,
    "pass": _pass,
    "post": _post,
}

TermNames.register(
    "action",
    {
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
    },
)
