"""The Changelings rule-set plugin: glues roles, abilities, steps and views together."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import time
from typing import Any

from nightfall.engine import N_, Command, Context, DeadlineRule, GameState, Phase, Preset
from nightfall.engine import Ruleset as RulesetBase
from nightfall.engine.events import Posted, SubmissionWithdrawn, Submitted
from nightfall.engine.phase import DAY, ENDED, NIGHT
from nightfall.engine.ruleset import Role
from nightfall.engine.text import Term, Text
from nightfall.rulesets.changelings import (
    awaiting,
    day,
    departures,
    memory,
    night,
    presets,
    texts,
    victory,
    view,
)
from nightfall.rulesets.changelings.abilities import BOOK, validate
from nightfall.rulesets.changelings.awaiting import current_leader
from nightfall.rulesets.changelings.roles import (
    ATHLETE,
    FACTIONS,
    LOVER,
    ROLES,
    SHIELD,
    STALKER,
    is_changeling_side,
)


class Changelings(RulesetBase):
    id = "changelings"
    roles: Mapping[str, Role] = ROLES  # typed as the base declares it (mypyc)
    factions: Sequence[str] = FACTIONS
    default_options: Mapping[str, Any] = {
        "first_day_banishment": False,  # C2.2
        "raven_vote_persists": False,  # C10.1
        "early_close": True,  # C2.3
        "timezone": "Europe/Berlin",  # C2.3
    }
    option_titles: Mapping[str, str] = {
        "first_day_banishment": N_("Day 1 also banishes a player, not only elects the "
                                   "leader (C2.2)"),
        "raven_vote_persists": N_("The black raven's rumour votes count beyond the day "
                                  "after the letter (C10.1)"),
        "early_close": N_("A night stage, and the day's wait for the leader's tie-break, "
                          "ends as soon as every awaited move is in (C2.3)"),
        "timezone": N_("Time zone of the deadlines"),
    }
    min_players = 2
    max_players = 60
    #: C2.7: the thread is for the living; no dead and no observers post (cf. Island I6.7)
    thread_guests: frozenset[str] = frozenset()

    # -- phases (C2) --------------------------------------------------------------------
    # C2.1: sign-up and setup are the engine's; play starts with day 1 (the election),
    # then night 1 (two stages), day 2, night 2, ...
    def first_phase(self, state: GameState) -> Phase:
        return Phase(DAY, 1)

    def next_phase(self, state: GameState) -> Phase:
        phase = state.phase
        skipping = bool(state.flags.get(memory.SKIPPING))
        if phase.kind == NIGHT:
            if phase.stage == 1 and not skipping:
                return Phase(NIGHT, phase.number, 2)
            return Phase(DAY, phase.number + 1)
        if phase.stage == 1 and not skipping and state.flags.get(memory.TIED):
            return Phase(DAY, phase.number, 2)
        return Phase(NIGHT, phase.number, 1)

    def phase_label(self, phase: Phase) -> str:
        if phase.kind == NIGHT:
            return f"night {phase.number}/{phase.stage}"
        if phase.kind == DAY:
            return f"day {phase.number}" if phase.stage == 1 else f"day {phase.number}/2"
        return phase.kind

    def deadline_rule(self, state: GameState, phase: Phase) -> DeadlineRule | None:
        tz = str(state.options.get("timezone") or "Europe/Berlin")
        if phase.kind == DAY:  # C2.5, C5.3
            return DeadlineRule(time(19, 30), 1, tz) if phase.stage == 1 else DeadlineRule(
                time(20, 0), 0, tz)
        if phase.kind == NIGHT:  # C2.3
            return DeadlineRule(time(22, 0), 0, tz) if phase.stage == 1 else DeadlineRule(
                time(20, 0), 1, tz)
        return None

    # -- play ---------------------------------------------------------------------------
    def begin(self, ctx: Context) -> None:
        state = ctx.state
        lovers = [p for p in state.players if LOVER in state.players[p].statuses]
        if len(lovers) == 2 and memory.partner_of(state, lovers[0]) is None:
            # a hand-made setup (scenario) that starts with a couple: pair them (C8)
            ctx.flag(memory.partner_key(lovers[0]), lovers[1])
            ctx.flag(memory.partner_key(lovers[1]), lovers[0])
        team = [p for p in state.players if is_changeling_side(state.players[p].role)]
        for member in team:  # C1.7: changelings know each other
            ctx.notify(member, "team", members=team)
        athletes = [p for p in state.players if state.players[p].role == ATHLETE]
        for stalker in [p for p in state.players if state.players[p].role == STALKER]:
            for athlete in athletes:  # C11.3
                ctx.notify(stalker, "athlete", name=athlete)
        in_play = sorted({p.role for p in state.players.values() if p.role}, key=_role_order)
        ctx.announce(
            N_("The game begins. Players: {count}; changelings among them: {changelings}. "
               "Roles in play: {roles}."),
            count=len(state.players), changelings=len(team),
            roles=tuple(Term("role", r) for r in in_play),
        )

    def on_phase_start(self, ctx: Context) -> None:
        state = ctx.state
        ctx.flag(memory.SKIPPING, None)
        phase = state.phase
        if phase.kind == DAY and phase.stage == 1:
            if phase.number == 1:
                ctx.announce(N_("Day 1 begins. Elect your leader!"))
            else:
                night = f"{NIGHT} {phase.number - 1}"
                if not any(p.left_phase == night for p in state.players.values()):
                    # C2.4: the morning announcement names who left; a quiet night is
                    # said so, not left to be guessed from silence [R]
                    ctx.announce(N_("Nobody left the game last night."))
                ctx.announce(N_("Day {number} begins. The thread is open."), number=phase.number)
        elif phase.kind == NIGHT and phase.stage == 1:
            ctx.announce(N_("Night {number} falls. The thread is closed until morning."),  # C2.8
                         number=phase.number)
        elif phase.kind == ENDED:
            ctx.announce(N_("The game is over: {winner} won. Winners: {names}."),
                         winner=Term("faction", state.winner or "draw"),
                         names=tuple(state.winners))

    def handle(self, ctx: Context, command: Command) -> None:
        state = ctx.state
        if command.action == "pass":
            self._pass(ctx, command)
            return
        slot, standing = validate(state, command)
        actor = command.by or ""
        if command.action == "unvote":
            for vote_slot in ("vote", "elect"):
                if state.submission(actor, vote_slot) is not None:
                    ctx.emit(SubmissionWithdrawn(actor, vote_slot))
            return
        if command.action == "post":
            ctx.emit(Posted(actor, state.phase_label, (command.text or "").strip()))
            return
        ctx.submit(command, slot, standing=standing)
        if command.action == "successor" and state.flags.get(memory.SUCCESSION) == actor:
            departures.install_leader(ctx, command.target or "", actor)  # C5.4, C2.7

    def _pass(self, ctx: Context, command: Command) -> None:
        validate(ctx.state, command)
        for slot in awaiting.awaited_slots(ctx.state, command.by or ""):
            ctx.emit(Submitted(command.by or "", "pass", slot))

    def resolve(self, ctx: Context) -> None:
        phase = ctx.state.phase
        persist = bool(ctx.state.options.get("raven_vote_persists"))
        if phase.kind == NIGHT and ctx.state.flags.get(memory.SUCCESSION) is not None:
            # C5.4: chance picks the successor at the next deadline, also when that
            # deadline ends a night stage (a leader banished or modkilled before it).
            ctx.run_steps(day.NIGHT_SUCCESSION_STEPS)
        if phase.kind == NIGHT and phase.stage == 1:
            ctx.run_steps(night.STAGE_ONE_STEPS)
        elif phase.kind == NIGHT:
            ctx.run_steps(night.NIGHT_STEPS)
            ctx.flag(memory.ATTACK, None)
            ctx.flag(memory.ATTACK_REASON, None)
        else:
            ctx.run_steps(day.DAY_STEPS if phase.stage == 1 else day.TIEBREAK_STEPS)
            if not ctx.state.flags.get(memory.TIED) and not persist:
                ctx.flag(memory.RUMOURS, None)

    def skip(self, ctx: Context) -> None:
        """C2.6: the phase ends; nothing planned in it happens."""
        ctx.flag(memory.SKIPPING, True)
        for key in (memory.ATTACK, memory.ATTACK_REASON, memory.TIED):
            ctx.flag(key, None)
        if ctx.state.phase.kind == NIGHT:
            ctx.flag(memory.DRAMA_DUE, None)
            # C12.2: a skipped night protected nobody, so the nights before and after it
            # are not consecutive shields.
            for name, player in ctx.state.players.items():
                if player.role == SHIELD:
                    ctx.flag(memory.last_shield_key(name), None)
        elif not ctx.state.options.get("raven_vote_persists"):
            ctx.flag(memory.RUMOURS, None)

    def on_departure(self, ctx: Context, player: str, cause: str) -> None:
        departures.on_departure(ctx, player, cause)

    def awaiting_inputs(self, state: GameState) -> set[tuple[str, str]] | None:
        """C2.3: the inputs a stage waits for before it may close early."""
        return awaiting.awaiting_inputs(state)

    def all_inputs_in(self, state: GameState) -> bool:
        # ``awaiting.all_inputs_in`` inlined: asked after every command (C2.3)
        wanted = awaiting.wanted_inputs(state)
        return wanted is not None and state.submissions.keys() >= wanted

    def leader(self, state: GameState) -> str | None:
        return current_leader(state)

    def notice_text(self, notice: Mapping[str, Any]) -> Text:
        return texts.notice_text(notice) or super().notice_text(notice)

    def role_text(self, role: str) -> Text:
        return texts.role_text(role)

    def winner(self, state: GameState) -> tuple[str, tuple[str, ...]] | None:
        return victory.winner(state)

    # -- views --------------------------------------------------------------------------
    def project(self, state: GameState, player: str | None) -> dict[str, Any]:
        return view.project(state, player)

    def gm_view(self, state: GameState) -> dict[str, Any]:
        return view.project(state, None, gm=True)

    def legal_commands(self, state: GameState, player: str) -> list[Command]:
        # ``view.legal_commands`` inlined (one call less per list)
        if state.phase.kind == ENDED:
            return []
        return BOOK.legal_commands(state, player, view.alive_pool(state))

    # -- setup --------------------------------------------------------------------------
    def presets(self) -> Mapping[str, Preset]:
        return presets.PRESETS

    def roles_for(self, player_count: int) -> tuple[str, ...]:
        return presets.roles_for(player_count)


def _role_order(role: str) -> int:
    return list(ROLES).index(role)


CHANGELINGS = Changelings()
