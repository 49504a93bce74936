"""The night moves, resolved at 21:00 after the lynch: steps 8–20 of I7.

Deaths of the night are pending until step 20, where the nurse saves her patient (I2.2)
and the rest die; so a player killed by an earlier step still has his move resolved
(I6.6). A lynched player makes no move, nor a blocked one (foggy night, voodoo doll, the
witch's cancel).
"""

from __future__ import annotations

from nightfall.engine import N_, Context, GameState, Step, Submission, Term, declare_steps
from nightfall.rulesets.island import effects, memory
from nightfall.rulesets.island.happenings import FOGGY_NIGHT, LUNAR_ECLIPSE
from nightfall.rulesets.island.items import (
    CAMO_CLOAK,
    DARK_GLASSES,
    MOON_FERN,
    VOODOO_DOLL,
    holds,
    items_work,
    used_items,
)
from nightfall.rulesets.island.roles import (
    EATEN,
    HALF_BLOOD,
    HAMSTER,
    HAMSTER_KILL,
    MANIAC,
    NURSE,
    SEER,
    SEER_CHECK,
    SLEEPWALKER,
    UNTOUCHABLE,
    WEREWOLF,
    WITCH,
    WITCH_KILL,
    is_mafia,
)
from nightfall.rulesets.island.seating import seating
from nightfall.rulesets.island.voting import ballot
from nightfall.rulesets.island.work import Work, work

#: the night slots and the role that fills each
NIGHT_SLOTS = {
    "check": SEER,
    "heal": NURSE,
    "witch": WITCH,
    "sleepwalk": SLEEPWALKER,
    "eat": WEREWOLF,
    "assault": MANIAC,
    "hamster": HAMSTER,
}


def moves(state: GameState, slot: str) -> list[Submission]:
    """Submissions in ``slot`` by living holders of its role, in seating order (I6.6: the
    lynched make no move; the night's dead are still alive until step 20)."""
    role = NIGHT_SLOTS[slot]
    submissions, players = state.submissions, state.players
    found = []
    for player in seating(state):  # read directly: asked by most of the 21 steps
        sub = submissions.get((player, slot))
        if sub is not None:
            holder = players.get(player)
            if holder is not None and holder.alive and holder.role == role:
                found.append(sub)
    return found


def free(ctx: Context, sub: Submission) -> bool:
    """Whether the move is neither blocked (fog, voodoo) nor cancelled by the witch."""
    w = work(ctx)
    reason = w.blocked.get(sub.player)
    if reason == "voodoo":
        ctx.trace(N_("{name} is under the voodoo doll's spell and cannot act."), name=sub.player)
        return False
    if reason == "fog":
        ctx.trace(N_("{name} gave no vote to his night target: the move fails in the fog."),
                  name=sub.player)
        return False
    return True


def cancelled(ctx: Context) -> bool:
    if work(ctx).cancelled:
        ctx.trace(N_("The witch cancelled every other move of this night (I2.5)."))
        return True
    return False


def pend(ctx: Context, target: str, cause: str) -> None:
    w = work(ctx)
    if target not in (name for name, _ in w.pending):
        w.pending.append((target, cause))


def wolf_plan(state: GameState, w: Work) -> tuple[list[str] | None, str]:
    """I2.8: the werewolves' targets, or ``None`` with the reason."""
    subs = [s for s in moves(state, "eat") if w.blocked.get(s.player) != "voodoo"]
    if not subs:
        return None, "none"
    wanted = {tuple(sorted(set(s.targets))) for s in subs}
    if len(wanted) > 1:
        return None, "disagreement"
    targets = [t for t in next(iter(wanted)) if state.is_alive(t) and not is_mafia(
        state.players[t].role)]
    if not targets:
        return None, "gone"
    return targets, "ok"


# -- the steps -------------------------------------------------------------------------------
def step_fog(ctx: Context) -> None:
    """Step 8 (I5 foggy night): a move needs one of the actor's votes on its target; for
    the werewolves one vote of a werewolf on the victim suffices."""
    state = ctx.state
    w = work(ctx)
    if memory.today_event(state) != FOGGY_NIGHT:
        return
    for slot in NIGHT_SLOTS:
        if slot == "eat":
            continue
        for sub in moves(state, slot):
            if not sub.targets:  # the witch's cancel needs no vote [R]
                continue
            if not set(sub.targets) & set(ballot(state, sub.player)):
                w.blocked.setdefault(sub.player, "fog")
                ctx.trace(N_("{name} gave none of his votes to {target}: his move fails in "
                             "the fog (I5)."), name=sub.player, target=tuple(sub.targets))
    targets, _ = wolf_plan(state, w)
    if targets:
        victim = targets[0]
        w.fog_wolves = [p for p in state.alive() if state.players[p].role == WEREWOLF
                        and victim in ballot(state, p)]
        if w.fog_wolves:
            ctx.trace(N_("Werewolves who voted for {target}: {names}."), target=victim,
                      names=tuple(w.fog_wolves))
        else:
            ctx.trace(N_("No werewolf voted for {target}: the werewolves eat nobody in the "
                         "fog (I5)."), target=victim)


def step_voodoo(ctx: Context) -> None:
    """Step 9 (I4): the voodoo doll blocks its target's night moves."""
    state = ctx.state
    w = work(ctx)
    for player in seating(state):
        sub = state.submission(player, "item:" + VOODOO_DOLL)
        if sub is None or sub.target is None:
            continue
        if not state.is_alive(sub.target):
            ctx.trace(N_("{name}'s {item} finds no living target."), name=player,
                      item=Term("item", VOODOO_DOLL))
            continue
        if not state.is_alive(player):  # I6.6: the lynched make no night move
            ctx.trace(N_("{name}'s {item} does not work."), name=player,
                      item=Term("item", VOODOO_DOLL))
            continue
        if not items_work(state) or not holds(state, player, VOODOO_DOLL, unused=True):
            ctx.trace(N_("{name}'s {item} does not work."), name=player,
                      item=Term("item", VOODOO_DOLL))
            continue
        w.blocked[sub.target] = "voodoo"
        ctx.trace(N_("{name} uses the voodoo doll on {target}: no night move for {target} "
                     "(I4)."), name=player, target=sub.target)
        effects.activate(ctx, player, VOODOO_DOLL, sub.target)


def step_witch(ctx: Context) -> None:
    """Step 10 (I2.5): the witch kills, or cancels every other move of the night."""
    w = work(ctx)
    subs = sorted(moves(ctx.state, "witch"), key=lambda s: s.action != "witch_cancel")
    for sub in subs:
        if not free(ctx, sub):
            continue
        if sub.action == "witch_cancel":
            w.cancelled = True
            ctx.flag(memory.witch_cancel_key(sub.player), True)
            ctx.trace(N_("{name} cancels every other move of this night (I2.5)."),
                      name=sub.player)
        elif w.cancelled:
            ctx.trace(N_("The witch cancelled every other move of this night (I2.5)."))
        elif sub.target is not None and ctx.state.is_alive(sub.target):
            ctx.flag(memory.witch_kill_key(sub.player), True)
            pend(ctx, sub.target, WITCH_KILL)
            ctx.trace(N_("{name} casts a deadly spell on {target} (I2.5)."), name=sub.player,
                      target=sub.target)


def step_sleepwalker(ctx: Context) -> None:
    """Step 11 (I2.6): swap the items of two players, or recharge a used item."""
    state = ctx.state
    if cancelled(ctx):
        return
    for sub in moves(state, "sleepwalk"):
        if not free(ctx, sub):
            continue
        if sub.action == "swap_items":
            a, b = sub.targets
            if not (state.is_alive(a) and state.is_alive(b)):
                ctx.trace(N_("{a} or {b} is gone: no swap."), a=a, b=b)
                continue
            effects.swap_holdings(ctx, a, b)
            ctx.trace(N_("{name} swaps the items of {a} and {b} (I2.6)."), name=sub.player,
                      a=a, b=b)
            for holder in (a, b):  # [R] each learns what he holds now, not who did it
                ctx.notify(holder, "items_swapped",
                           items=[item.id for item in state.players[holder].items])
        else:
            target = sub.target or ""
            if not state.is_alive(target):
                ctx.trace(N_("{target} is gone: nothing to recharge."), target=target)
                continue
            used = used_items(state, target)  # I2.6 [R]: judged now, not when sent
            item = sub.choice if sub.choice is not None else (used[0] if used else None)
            if item is None or item not in used:
                ctx.trace(N_("{target} holds no used item to recharge: the recharge lapses "
                             "(I2.6)."), target=target)
                continue
            effects.recharge(ctx, target, item)
            ctx.trace(N_("{name} recharges {target}'s {item} (I2.6)."), name=sub.player,
                      target=target, item=Term("item", item))
            ctx.notify(target, "item_recharged", item=item)  # [R] as for a swap


_NO_MEAL = {
    "none": N_("No werewolf named a victim."),
    "disagreement": N_("The werewolves named different victims: nobody is eaten (I2.8)."),
    "gone": N_("The werewolves' victim is gone: nobody is eaten."),
}


def step_werewolves(ctx: Context) -> None:
    """Step 12 (I2.8, I5 lunar eclipse, full moon, foggy night)."""
    state = ctx.state
    w = work(ctx)
    if cancelled(ctx):
        return
    if memory.today_event(state) == LUNAR_ECLIPSE:
        ctx.trace(N_("Lunar eclipse: the werewolves eat nobody tonight (I5)."))
        return
    for sub in moves(state, "eat"):
        if w.blocked.get(sub.player) == "voodoo":
            ctx.trace(N_("{name} is under the voodoo doll's spell and cannot act."),
                      name=sub.player)
    targets, reason = wolf_plan(state, w)
    if targets is None:
        ctx.trace(_NO_MEAL[reason])
        return
    if w.fog_wolves is not None:
        able = [p for p in w.fog_wolves if w.blocked.get(p) != "voodoo"]
        if not able:
            ctx.trace(N_("No werewolf who voted for the victim can act: nobody is eaten "
                         "(I5)."))
            return
    w.attacks = targets
    ctx.trace(N_("The werewolves attack {names} (I2.8)."), names=tuple(targets))


def step_untouchable(ctx: Context) -> None:
    """Step 13 (I2.3): werewolf attacks on the untouchable fail."""
    state = ctx.state
    w = work(ctx)
    for target in list(w.attacks):
        if state.players[target].role == UNTOUCHABLE:
            w.attacks.remove(target)
            ctx.trace(N_("{target} is untouchable: the werewolves cannot harm him (I2.3)."),
                      target=target)


def step_moon_fern(ctx: Context) -> None:
    """Step 14 (I4): the moon fern saves its holder from the werewolves; the rest are
    eaten (pending until step 20)."""
    state = ctx.state
    w = work(ctx)
    for target in w.attacks:
        if items_work(state) and holds(state, target, MOON_FERN, unused=True):
            ctx.trace(N_("{target}'s moon fern saves him from the werewolves (I4)."),
                      target=target)
            effects.activate(ctx, target, MOON_FERN)
        else:
            pend(ctx, target, EATEN)
            ctx.trace(N_("{target} is eaten."), target=target)
    w.attacks = []


def step_seer(ctx: Context) -> None:
    """Step 15 (I2.1): the seer looks at a player."""
    if cancelled(ctx):
        return
    for sub in moves(ctx.state, "check"):
        if free(ctx, sub) and ctx.state.is_alive(sub.target):
            work(ctx).checks.append((sub.player, sub.target or ""))
            ctx.trace(N_("{name} checks {target} (I2.1)."), name=sub.player, target=sub.target)


def step_glasses(ctx: Context) -> None:
    """Step 16 (I2.1, I4): dark glasses block the check; the half-blood looks peaceful; a
    checked hamster dies (cause ``seer_check``) unless the nurse saves him."""
    state = ctx.state
    for seer, target in work(ctx).checks:
        role = state.players[target].role
        if items_work(state) and holds(state, target, DARK_GLASSES):
            result = "blocked"
            ctx.trace(N_("{target} wears dark glasses: the check is blocked (I4)."),
                      target=target)
        elif role == WEREWOLF:
            result = "werewolf"
        else:
            result = "not_werewolf"
            if role == HALF_BLOOD:
                ctx.trace(N_("{target} is a half-blood and looks like no werewolf (I2.1)."),
                          target=target)
        ctx.notify(seer, "check", target=target, result=result)
        ctx.trace(N_("The seer learns: {target} — {result}."), target=target,
                  result=Term("check", result))
        if role == HAMSTER and result != "blocked":
            pend(ctx, target, SEER_CHECK)
            ctx.trace(N_("The hamster's brain cannot stand the check (I2.1)."))


def step_maniac(ctx: Context) -> None:
    """Step 17 (I2.7): the maniac's victim is silenced for the next day."""
    if cancelled(ctx):
        return
    for sub in moves(ctx.state, "assault"):
        if free(ctx, sub) and ctx.state.is_alive(sub.target):
            work(ctx).assaults.append(sub.target or "")
            ctx.trace(N_("{name} assaults {target} (I2.7)."), name=sub.player, target=sub.target)


def step_camo_cloak(ctx: Context) -> None:
    """Step 18 (I4): the camouflage cloak saves its holder from the maniac."""
    state = ctx.state
    w = work(ctx)
    for target in w.assaults:
        if items_work(state) and holds(state, target, CAMO_CLOAK, unused=True):
            ctx.trace(N_("{target}'s camouflage cloak hides him from the maniac (I4)."),
                      target=target)
            effects.activate(ctx, target, CAMO_CLOAK)
        elif target not in w.silences:
            w.silences.append(target)
    w.assaults = []


def step_hamster(ctx: Context) -> None:
    """Step 19 (I2.9): the mutant hamster kills a player."""
    if cancelled(ctx):
        return
    for sub in moves(ctx.state, "hamster"):
        if free(ctx, sub) and sub.target is not None and ctx.state.is_alive(sub.target):
            pend(ctx, sub.target, HAMSTER_KILL)
            ctx.trace(N_("{name} attacks {target} (I2.9)."), name=sub.player, target=sub.target)


def step_nurse(ctx: Context) -> None:
    """Step 20 (I2.2): the nurse saves her patient from everything of this night; then the
    night's dead die and the silenced are told."""
    state = ctx.state
    w = work(ctx)
    if not cancelled(ctx):
        for sub in moves(state, "heal"):
            if not free(ctx, sub) or sub.target is None:
                continue
            target = sub.target
            if target == sub.player:
                ctx.flag(memory.nurse_self_key(sub.player), True)
            saved = [cause for name, cause in w.pending if name == target]
            w.pending = [(name, cause) for name, cause in w.pending if name != target]
            if target in w.silences:
                w.silences.remove(target)
                saved.append("silence")
            if saved:
                ctx.trace(N_("{name} heals {target} and saves him (I2.2)."), name=sub.player,
                          target=target)
            else:
                ctx.trace(N_("{name} heals {target}, who needed no help."), name=sub.player,
                          target=target)
    for target, cause in w.pending:
        if state.is_alive(target):
            ctx.leave(target, cause)
    silenced = [p for p in w.silences if state.is_alive(p)]
    ctx.flag(memory.SILENCE_NEXT, silenced or None)
    if silenced:
        ctx.trace(N_("Silenced tomorrow: {names}."), names=tuple(silenced))


NIGHT_STEPS: tuple[Step, ...] = declare_steps(
    Step(8, "foggy_night", "I7.2.8", step_fog, N_("Foggy night")),
    Step(9, "voodoo_doll", "I7.2.9", step_voodoo, N_("Voodoo doll")),
    Step(10, "witch", "I7.2.10", step_witch, N_("Witch")),
    Step(11, "sleepwalker", "I7.2.11", step_sleepwalker, N_("Sleepwalker")),
    Step(12, "werewolves", "I7.2.12", step_werewolves, N_("Werewolves")),
    Step(13, "untouchable", "I7.2.13", step_untouchable, N_("Untouchable's protection")),
    Step(14, "moon_fern", "I7.2.14", step_moon_fern, N_("Moon fern")),
    Step(15, "seer", "I7.2.15", step_seer, N_("Seer")),
    Step(16, "dark_glasses", "I7.2.16", step_glasses, N_("Dark glasses and half-blood protection")),
    Step(17, "maniac", "I7.2.17", step_maniac, N_("Maniac")),
    Step(18, "camo_cloak", "I7.2.18", step_camo_cloak, N_("Camouflage cloak")),
    Step(19, "hamster", "I7.2.19", step_hamster, N_("Hamster")),
    Step(20, "nurse", "I7.2.20", step_nurse, N_("Nurse")),
)
