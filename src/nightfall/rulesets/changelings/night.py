"""The two-stage night (C2.3) and its resolution in the order of C15.

Stage 1 ends at 22:00: the changelings' agreement and the shield are settled and the
pinkie sense learns whom the changelings will take (C13.1). Stage 2 ends at 20:00 the
next day: the eleven steps of C15 run in order, each recorded in the trace.
"""

from __future__ import annotations

from typing import Any

from nightfall.engine import N_, Context, GameState, Step, Term, declare_steps
from nightfall.engine.events import RoleAssigned, StatusChanged, SubmissionWithdrawn
from nightfall.engine.state import Submission
from nightfall.rulesets.changelings import memory
from nightfall.rulesets.changelings.abilities import against_lover
from nightfall.rulesets.changelings.roles import (
    ABDUCTED,
    ATHLETE,
    AWAY_WHEN_ACTING,
    BLACK_RAVEN,
    CHANGELING,
    CHASED,
    DRAMA,
    DRAMA_QUEEN,
    LIAR,
    LOVE_POTION,
    LOVER,
    NEVER_HOME,
    NIGHT_OWL,
    PINKIE_SENSE,
    QUEEN,
    RESEARCHER,
    SHIELD,
    STALKER,
    VILLAGE_IDIOT,
    VOICELESS,
    is_changeling_side,
)


# -- helpers ------------------------------------------------------------------------------
def acting(state: GameState, role: str, slot: str) -> list[tuple[str, Any]]:
    """Submissions in ``slot`` by players who still hold ``role`` (C15: a player who left
    earlier this night still has his own submitted action resolved)."""
    result = []
    for sub in state.submissions_in(slot):
        if sub.action == "pass":
            continue
        if state.players[sub.player].role == role:
            result.append((sub.player, sub))
    return result


def reported_role(state: GameState, target: str) -> str:
    """C9.2: investigations and scries of a disguised liar report the disguise."""
    role = state.players[target].role or ""
    if role == LIAR:
        return str(state.flags.get(memory.disguise_key(target)) or role)
    return role


# -- stage 1 (C7, C12, C13.1) -------------------------------------------------------------
def team_choices(state: GameState) -> list[Submission]:
    """The changelings' choices that count for C7.1: those of changelings still in the
    game, without passes (a pass names no target, so it is no disagreement, C2.3)."""
    return [
        sub
        for sub in state.submissions_in("kill")
        if state.is_alive(sub.player) and is_changeling_side(state.players[sub.player].role)
        and sub.action != "pass"
    ]


def plan_attack(state: GameState) -> tuple[dict[str, str] | None, str]:
    """What the changelings will do tonight after the shield, and why (C7.1–C7.3, C12.1).

    Returns the attack (``action``/``target``) or ``None`` with a reason code.
    """
    choices = team_choices(state)
    if not choices:
        return None, "none"
    wanted = {(sub.action, sub.target) for sub in choices}
    if len(wanted) > 1:
        return None, "disagreement"  # C7.1/C7.2: different targets or abduct vs replace
    action, target = next(iter(wanted))
    if target is None or not state.is_alive(target) or is_changeling_side(
        state.players[target].role
    ):
        return None, "invalid"
    changelings = [p for p in state.alive() if is_changeling_side(state.players[p].role)]
    if any(memory.partner_of(state, c) == target for c in changelings):
        return None, "lover"  # C7.3: another changeling's secret lover
    for shield, sub in acting(state, SHIELD, "shield"):
        if state.is_alive(shield) and sub.target == target:
            return None, "shield"  # C12.1
    return {"action": action, "target": target}, "ok"


def close_stage_one(ctx: Context) -> None:
    """End of stage 1: settle the attack and tell the pinkie sense (C13.1)."""
    state = ctx.state
    attack, reason = plan_attack(state)
    ctx.flag(memory.ATTACK, attack)
    ctx.flag(memory.ATTACK_REASON, reason)
    target = attack["target"] if attack else None
    _trace_plan(ctx, attack, reason)
    for player in state.alive():
        if state.players[player].role == PINKIE_SENSE:
            ctx.notify(player, "pending_abduction", target=target)
    # C2.3 [R]: a drama queen about to be abducted is asked for her target.
    if (
        attack is not None
        and attack["action"] == "abduct"
        and state.players[attack["target"]].role == DRAMA_QUEEN
    ):
        ctx.notify(attack["target"], "drama_prompt")


def _trace_plan(ctx: Context, attack: dict[str, str] | None, reason: str) -> None:
    if attack is not None:
        ctx.trace(
            N_("The changelings agree: {action} {name}."),
            action=Term("action", attack["action"]), name=attack["target"],
        )
    else:
        ctx.trace(_NO_ATTACK[reason])


_NO_ATTACK = {
    "none": N_("No changeling named a target: nobody will be abducted (C7.1)."),
    "disagreement": N_("The changelings disagree: nobody will be abducted (C7.1, C7.2)."),
    "invalid": N_("The agreed target can no longer be taken: nobody will be abducted."),
    "lover": N_("The target is a changeling's secret lover: the abduction fails (C7.3)."),
    "shield": N_("The anti-hate shield protects the target: nobody will be abducted (C12.1)."),
}


# -- stage 2: the steps of C15 ----------------------------------------------------------
def step_liar(ctx: Context) -> None:
    """C15.1 / C9.2: the liar's disguise holds from this night on."""
    for liar, sub in acting(ctx.state, LIAR, "disguise"):
        ctx.flag(memory.disguise_key(liar), sub.choice)
        ctx.trace(N_("{name} now pretends to be {role}."), name=liar, role=Term("role", sub.choice))


def step_researcher(ctx: Context) -> None:
    """C15.2 / C9.1, C9.3: sees the state before this night's replacement."""
    for researcher, sub in acting(ctx.state, RESEARCHER, "investigate"):
        result = reported_role(ctx.state, sub.target)
        ctx.notify(researcher, "investigation", target=sub.target, result=result)
        ctx.trace(
            N_("{actor} investigates {name}: {role}."),
            actor=researcher, name=sub.target, role=Term("role", result),
        )


def step_shield(ctx: Context) -> None:
    """C15.3 / C12: the shield protects; remember the target for C12.2."""
    state = ctx.state
    for shield in [p for p in state.players if state.players[p].role == SHIELD]:
        sub = state.submission(shield, "shield")
        target = sub.target if sub is not None and sub.action == "shield" else None
        ctx.flag(memory.last_shield_key(shield), target)
        if target is not None:
            ctx.trace(N_("{actor} shields {name}."), actor=shield, name=target)


def step_changelings(ctx: Context) -> None:
    """C15.4 / C7: the attack settled at the end of stage 1 takes effect."""
    state = ctx.state
    attack = memory.attack(state)
    if attack is None:
        _trace_plan(ctx, None, str(state.flags.get(memory.ATTACK_REASON) or "none"))
        return
    target = attack["target"]
    if not state.is_alive(target) or is_changeling_side(state.players[target].role):
        ctx.trace(_NO_ATTACK["invalid"])
        ctx.flag(memory.ATTACK, None)
        return
    if _pinkie_saver(state) is not None:
        ctx.trace(
            N_("The changelings come for {name}, but the pinkie sense intervenes (step 5)."),
            name=target,
        )
        return
    if attack["action"] == "replace":
        replace(ctx, target)
    else:
        _publish_scene(ctx, attack)
        abduct(ctx, target)


def _publish_scene(ctx: Context, attack: dict[str, str]) -> None:
    """C7.5: the changelings' scene text is published with the abduction (a replacement
    stays secret, so its scene is not published)."""
    state = ctx.state
    texts: list[str] = []
    for sub in state.submissions_in("kill"):
        text = (sub.text or "").strip()
        agreed = sub.action == attack["action"] and sub.target == attack["target"]
        if agreed and text and text not in texts:
            texts.append(text)
    for text in texts:
        ctx.announce(N_("The changelings' scene: “{text}”"), text=text)


def _pinkie_saver(state: GameState) -> str | None:
    for pinkie, sub in acting(state, PINKIE_SENSE, "pinkie"):
        if sub.action == "pinkie_save":
            return pinkie
    return None


def abduct(ctx: Context, target: str) -> None:
    """C7.6, C6.2: the target leaves, unless he is a village idiot with his voice. C6.3:
    a voiceless village idiot leaves only by the ways that call this (a second abduction),
    the pinkie sense's and the drama queen's chases, or his lover's departure; never by
    banishment (``day.banish``, C3.6)."""
    state = ctx.state
    victim = state.players[target]
    if victim.role == VILLAGE_IDIOT and VOICELESS not in victim.statuses:
        ctx.emit(StatusChanged(target, VOICELESS, True))
        ctx.trace(
            N_("{name} is abducted, but released the same night and loses his vote (C6.2)."),
            name=target,
        )
        ctx.announce(
            N_("The changelings abducted {name}, the village idiot, and let him go again "
               "before dawn. {name} has lost his vote."),
            name=target,
        )
        return
    ctx.trace(N_("{name} is abducted (C7.6)."), name=target)
    ctx.leave(target, ABDUCTED)


def replace(ctx: Context, target: str) -> None:
    """C7.4: the target becomes a plain changeling; statuses stay; the team is told."""
    state = ctx.state
    old_role = state.players[target].role or ""
    ctx.emit(RoleAssigned(target, CHANGELING))
    ctx.flag(memory.REPLACE_USED, True)
    ctx.trace(N_("{name} ({role}) is replaced and is now a changeling (C7.4)."),
              name=target, role=Term("role", old_role))
    ctx.notify(target, "replaced")
    for member in state.players:
        if member != target and is_changeling_side(state.players[member].role):
            ctx.notify(member, "joined", name=target)
    if old_role == ATHLETE:  # C11.3
        for stalker in state.alive():
            if state.players[stalker].role == STALKER:
                ctx.notify(stalker, "athlete_replaced", name=target)
    partner = memory.partner_of(state, target)
    if partner is not None:  # C8.4
        mixed = is_changeling_side(CHANGELING) != is_changeling_side(state.players[partner].role)
        ctx.notify(target, "lovers", partner=partner, mixed=mixed)
        ctx.notify(partner, "lovers", partner=target, mixed=mixed)
        ctx.trace(N_("The lovers {a} and {b} are told whether they are mixed now (C8.4)."),
                  a=target, b=partner)


def step_pinkie_save(ctx: Context) -> None:
    """C15.5 / C13.2: the save prevents this night's abduction or replacement."""
    state = ctx.state
    saver = _pinkie_saver(state)
    attack = memory.attack(state)
    if saver is None or attack is None:
        return
    ctx.flag(memory.pinkie_save_used_key(saver), True)
    ctx.trace(N_("{actor} prevents the attack on {name} (C13.2)."), actor=saver,
              name=attack["target"])


def step_drama_queen(ctx: Context) -> None:
    """C15.6 / C14: a drama queen abducted tonight or banished yesterday chases one."""
    state = ctx.state
    for queen in memory.names(state, memory.DRAMA_DUE):
        sub = state.submission(queen, "drama")
        target = sub.target if sub is not None and sub.action == "drama_chase" else None
        if sub is not None:  # spent, whatever comes of it [R] (departures.py)
            ctx.emit(SubmissionWithdrawn(queen, "drama"))
        if target is None:
            ctx.trace(N_("{actor} named nobody: her chase lapses (C14.1)."), actor=queen)
        elif not state.is_alive(target) or target == queen:
            ctx.trace(N_("{actor} chases {name}, who is gone already: it lapses (C14.3)."),
                      actor=queen, name=target)
        else:
            ctx.trace(N_("{actor} chases {name} away (C14.1)."), actor=queen, name=target)
            ctx.leave(target, DRAMA)
    ctx.flag(memory.DRAMA_DUE, None)


def step_pinkie_chase(ctx: Context) -> None:
    """C15.7 / C13.3: once per game the pinkie sense chases a player away."""
    state = ctx.state
    for pinkie, sub in acting(state, PINKIE_SENSE, "pinkie"):
        if sub.action != "pinkie_chase":
            continue
        if not state.is_alive(sub.target):
            ctx.trace(N_("{actor} would chase {name}, who is gone already: it lapses."),
                      actor=pinkie, name=sub.target)
            continue
        ctx.flag(memory.pinkie_chase_used_key(pinkie), True)
        ctx.trace(N_("{actor} chases {name} away (C13.3)."), actor=pinkie, name=sub.target)
        ctx.leave(sub.target, CHASED)


def step_black_raven(ctx: Context) -> None:
    """C15.8 / C10: the letter adds a rumour vote in the next day's tally."""
    state = ctx.state
    rumours = memory.names(state, memory.RUMOURS) if state.options.get(
        "raven_vote_persists") else []
    for raven, sub in acting(state, BLACK_RAVEN, "letter"):
        if not state.is_alive(sub.target):
            ctx.trace(N_("The letter to {name} finds nobody at home."), name=sub.target)
            continue
        rumours.append(sub.target)
        ctx.trace(N_("{actor} leaves a letter for {name}: one rumour vote (C10.1)."),
                  actor=raven, name=sub.target)
        if sub.text:
            ctx.announce(N_("An anonymous letter was found at {name}'s door: “{text}”"),
                         name=sub.target, text=sub.text)
        else:
            ctx.announce(N_("An anonymous letter was found at {name}'s door."), name=sub.target)
    ctx.flag(memory.RUMOURS, rumours or None)


def step_love_potion(ctx: Context) -> None:
    """C15.9 / C8.1, C8.5: two players fall in love, if both are still here."""
    state = ctx.state
    for potion, sub in acting(state, LOVE_POTION, "love"):
        a, b = sub.targets
        if not (state.is_alive(a) and state.is_alive(b)):
            ctx.trace(N_("{a} or {b} left tonight: no couple forms (C8.5)."), a=a, b=b)
            continue
        mixed = is_changeling_side(state.players[a].role) != is_changeling_side(
            state.players[b].role
        )
        for me, other in ((a, b), (b, a)):
            ctx.emit(StatusChanged(me, LOVER, True))
            ctx.flag(memory.partner_key(me), other)
            ctx.notify(me, "lovers", partner=other, mixed=mixed)
        ctx.trace(N_("{actor} makes {a} and {b} fall in love (C8.1)."), actor=potion, a=a, b=b)
        for me, other in ((a, b), (b, a)):
            _void_choices_against(ctx, me, other)


def _void_choices_against(ctx: Context, lover: str, partner: str) -> None:
    """C8.2 [R]: a standing choice the new lover gave before he fell in love (a tie-break
    or a drama chase naming the partner) would now act against his partner: it lapses the
    moment the couple forms, as the command path would refuse it from now on. What has
    already resolved this night (a letter, a chase at steps 7-8) stands."""
    state = ctx.state
    for sub in [s for s in state.submissions.values() if s.player == lover and s.standing]:
        if against_lover(state, sub.action, lover, sub.targets):
            ctx.emit(SubmissionWithdrawn(lover, sub.slot))
            ctx.trace(N_("The standing choice of {actor} named {name}, now the lover: it "
                         "lapses (C8.2)."), actor=lover, name=partner)


def step_queen(ctx: Context) -> None:
    """C15.10 / C9.1, C9.3: the queen sees the state after this night's replacement."""
    for queen, sub in acting(ctx.state, QUEEN, "scry"):
        result = reported_role(ctx.state, sub.target)
        ctx.notify(queen, "investigation", target=sub.target, result=result)
        ctx.trace(N_("{actor} scries {name}: {role}."), actor=queen, name=sub.target,
                  role=Term("role", result))


def at_home(state: GameState, player: str) -> bool:
    """C11.2: who the night owl finds at home."""
    me = state.players[player]
    if not me.alive:
        return False
    if me.role in NEVER_HOME:
        return False
    if me.role in AWAY_WHEN_ACTING:
        slot = "pinkie" if me.role == PINKIE_SENSE else "love"
        sub = state.submission(player, slot)
        if sub is not None and sub.action != "pass":
            return False
    return True


def step_night_owl(ctx: Context) -> None:
    """C15.11 / C11.1: the night owl learns whether the target is at home."""
    for owl, sub in acting(ctx.state, NIGHT_OWL, "visit"):
        home = at_home(ctx.state, sub.target)
        ctx.notify(owl, "visit", target=sub.target, home=home)
        ctx.trace(
            N_("{actor} knocks at {name}'s door: at home.") if home
            else N_("{actor} knocks at {name}'s door: nobody at home."),
            actor=owl, name=sub.target,
        )


NIGHT_STEPS: tuple[Step, ...] = declare_steps(
    Step(1, "liar", "C15.1", step_liar, N_("Liar's disguise")),
    Step(2, "researcher", "C15.2", step_researcher, N_("Researcher's investigation")),
    Step(3, "shield", "C15.3", step_shield, N_("Anti-hate shield")),
    Step(4, "changelings", "C15.4", step_changelings, N_("Changelings' abduction or replacement")),
    Step(5, "pinkie_save", "C15.5", step_pinkie_save, N_("Pinkie sense: rescue")),
    Step(6, "drama_queen", "C15.6", step_drama_queen, N_("Drama queen's chase")),
    Step(7, "pinkie_chase", "C15.7", step_pinkie_chase, N_("Pinkie sense: chase")),
    Step(8, "black_raven", "C15.8", step_black_raven, N_("Black raven's letter")),
    Step(9, "love_potion", "C15.9", step_love_potion, N_("Love potion")),
    Step(10, "queen", "C15.10", step_queen, N_("Queen's scrying")),
    Step(11, "night_owl", "C15.11", step_night_owl, N_("Night owl's visit")),
)

STAGE_ONE_STEPS: tuple[Step, ...] = declare_steps(
    Step(1, "pending_abduction", "C13.1", close_stage_one,
         N_("The planned attack (end of stage 1)")),
)
