"""The Island of Fear rule-set plugin: glues roles, items, events, steps and views."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import time
from typing import Any

from nightfall.engine import (
    N_,
    Command,
    Context,
    DeadlineRule,
    GameState,
    Phase,
    Preset,
    Rejected,
    SetupError,
    Text,
)
from nightfall.engine import Ruleset as RulesetBase
from nightfall.engine.events import ItemGiven, Posted, StatusChanged, SubmissionWithdrawn
from nightfall.engine.guests import DEAD
from nightfall.engine.phase import DAY, ENDED
from nightfall.engine.ruleset import Role
from nightfall.engine.text import Term
from nightfall.rulesets.island import (
    daytime,
    departures,
    hints,
    memory,
    presets,
    spirit,
    texts,
    victory,
    view,
)
from nightfall.rulesets.island.abilities import THREAD_GUESTS, validate
from nightfall.rulesets.island.happenings import EVENT_IDS, PALMS_BLOOM
from nightfall.rulesets.island.items import ITEM_IDS
from nightfall.rulesets.island.night import NIGHT_STEPS
from nightfall.rulesets.island.palms import forbidden_words
from nightfall.rulesets.island.roles import FACTIONS, REVEALED, ROLES, is_mafia
from nightfall.rulesets.island.seating import seating
from nightfall.rulesets.island.voting import VOTE_STEPS


def _clock(value: Any, default: time) -> time:
    try:
        hours, minutes = str(value).split(":")
        return time(int(hours), int(minutes))
    except ValueError:
        return default


def _is_clock(value: Any) -> bool:
    """``HH:MM``, a time of day (I6.1 deadlines)."""
    hours, colon, minutes = str(value).partition(":")
    return (bool(colon) and hours.isdigit() and minutes.isdigit() and len(minutes) == 2
            and int(hours) < 24 and int(minutes) < 60)


class Island(RulesetBase):
    id = "island"
    roles: Mapping[str, Role] = ROLES  # typed as the base declares it (mypyc)
    factions: Sequence[str] = FACTIONS
    item_ids = frozenset(ITEM_IDS)
    gm_actions = frozenset({"event", "answer", "refuse", "violation"})
    gm_choices: Mapping[str, tuple[Term, ...]] = {
        "event": tuple(Term("event", event) for event in EVENT_IDS),  # I5
        "answer": (Term("answer", "yes"), Term("answer", "no")),  # I5 spirit
    }
    default_options: Mapping[str, Any] = {
        "mafia_wins_at_parity": False,  # I1.2
        "items_per_player": 1,  # I4
        "random_events": True,  # I5: one event drawn at random each day
        "early_close": False,  # I6.1: the day has fixed deadlines
        "timezone": "Europe/Moscow",  # I6.1
        "midday": "13:00",  # I6.1, I7 stage 1
        "evening": "21:00",  # I6.1, I7 stage 2
    }
    option_titles: Mapping[str, str] = {
        "mafia_wins_at_parity": N_("The mafia also win when they are as many as the rest "
                                   "(I1.2)"),
        "items_per_player": N_("Items dealt to each player (I4)"),
        "random_events": N_("An event is drawn at random for every day (I5)"),
        "early_close": N_("A stage ends as soon as every awaited move is in (I6.1: off, "
                          "the day has fixed deadlines)"),
        "timezone": N_("Time zone of the deadlines"),
        "midday": N_("Deadline of the first half of the day, HH:MM (I6.1)"),
        "evening": N_("Deadline of the second half of the day, HH:MM (I6.1)"),
    }
    #: scenario-format.md: no event is drawn at random in a scripted game
    scenario_options: Mapping[str, Any] = {"random_events": False}
    min_players = 3
    max_players = 40
    thread_guests = THREAD_GUESTS  # I6.7 [R]: the dead and observers may chat

    # -- phases (I6.1) ------------------------------------------------------------------
    def first_phase(self, state: GameState) -> Phase:
        return Phase(DAY, 1, 1)

    def next_phase(self, state: GameState) -> Phase:
        phase = state.phase
        if phase.stage == 1:
            return Phase(DAY, phase.number, 2)
        return Phase(DAY, phase.number + 1, 1)

    def phase_label(self, phase: Phase) -> str:
        if phase.kind == DAY:
            return f"day {phase.number}/{phase.stage}"
        return phase.kind

    def deadline_rule(self, state: GameState, phase: Phase) -> DeadlineRule | None:
        if phase.kind != DAY:
            return None
        tz = str(state.options.get("timezone") or "Europe/Moscow")
        if phase.stage == 1:
            return DeadlineRule(_clock(state.options.get("midday"), time(13, 0)), 0, tz)
        return DeadlineRule(_clock(state.options.get("evening"), time(21, 0)), 0, tz)

    def check_options(self, options: Mapping[str, Any]) -> None:
        super().check_options(options)
        for key in ("midday", "evening"):  # I6.1
            if key in options and not _is_clock(options[key]):
                raise SetupError(N_("The option {option} takes a time of day as HH:MM, not "
                                    "{value}."), option=key, value=str(options[key]))
        count = options.get("items_per_player")
        if count is not None and (not isinstance(count, int) or count < 0):  # I4
            raise SetupError(N_("The option {option} takes a whole number from 0, not "
                                "{value}."), option="items_per_player", value=str(count))

    # -- setup --------------------------------------------------------------------------
    def on_deal(self, ctx: Context) -> None:
        """I3.1: a random fixed seating order; I4: one random item per player."""
        remaining = list(ctx.state.players)
        order: list[str] = []
        while remaining:
            chosen = ctx.draw("seat", remaining)
            remaining.remove(chosen)
            order.append(chosen)
        ctx.flag(memory.SEATING, order)
        per_player = int(ctx.state.options.get("items_per_player") or 0)
        deck: list[str] = []
        for player in order:
            for _ in range(per_player):
                if not deck:
                    deck = list(ITEM_IDS)
                item = ctx.draw("item:" + player, deck)
                deck.remove(item)
                ctx.emit(ItemGiven(player, item))

    def begin(self, ctx: Context) -> None:
        state = ctx.state
        team = [p for p in seating(state) if is_mafia(state.players[p].role)]
        for member in team:  # [R] the werewolves and the half-blood know each other
            ctx.notify(member, "team", members=team)
        ctx.announce(N_("The game begins with {count} players. Seating order: {names}."),
                     count=len(state.players), names=tuple(seating(state)))

    # -- play ---------------------------------------------------------------------------
    def on_phase_start(self, ctx: Context) -> None:
        state = ctx.state
        ctx.flag(memory.SKIPPING, None)
        phase = state.phase
        if phase.kind == DAY and phase.stage == 1:
            daytime.start_day(ctx)
        elif phase.kind == DAY:
            ctx.announce(N_("The second half of day {number} begins."), number=phase.number)
        elif phase.kind == ENDED:
            ctx.announce(N_("The game is over: {winner} won. Winners: {names}."),
                         winner=Term("faction", state.winner or "draw"),
                         names=tuple(state.winners))

    def handle(self, ctx: Context, command: Command) -> None:
        state = ctx.state
        slot = validate(state, command)
        actor = command.by or ""
        if command.action == "unvote":
            ctx.emit(SubmissionWithdrawn(actor, "vote"))
            return
        if command.action == "post":
            self._post(ctx, actor, (command.text or "").strip())
            return
        ctx.submit(command, slot)
        if command.action == "authority" and memory.authority_key(actor) not in state.flags:
            ctx.flag(memory.authority_key(actor), state.phase.number)
            ctx.emit(StatusChanged(actor, REVEALED, True))
            ctx.announce(N_("{name} reveals himself: he is the {role} and takes a vote "
                            "today."), name=actor, role=Term("role", "authority"))  # I2.4
        elif command.action == "spirit_ask":  # I5 spirit
            spirit.ask(ctx, actor, (command.text or "").strip())
        elif command.action == "spirit_nominate":
            spirit.nominate(ctx)

    def _post(self, ctx: Context, actor: str, text: str) -> None:
        """A post in the thread; under palms bloom its forbidden words are found (I5).
        A dead player's post is marked as his (I6.7) and costs nothing: he has no vote."""
        state = ctx.state
        if not state.is_alive(actor):
            ctx.emit(Posted(actor, state.phase_label, text, DEAD))
            return
        ctx.emit(Posted(actor, state.phase_label, text))
        if memory.today_event(state) != PALMS_BLOOM:
            return
        words = forbidden_words(text)
        if not words:
            return
        found = memory.mapping(state, memory.DETECTIONS)
        found[actor] = [*found.get(actor, []), *(w for w in words if w not in found.get(
            actor, []))]
        ctx.flag(memory.DETECTIONS, found)
        ctx.notify(actor, "palms_bloom", words=words)

    def handle_gm(self, ctx: Context, command: Command) -> None:
        state = ctx.state
        if command.action == "event":
            if command.choice not in EVENT_IDS:
                raise Rejected(N_("Unknown event {event}."), event=command.choice)
            if command.target is not None and not state.is_alive(command.target):
                raise Rejected(N_("{name} is no longer in the game."), name=command.target)
            daytime.start_event(ctx, command.choice, command.target)
        elif command.action in ("answer", "refuse"):  # I5 spirit
            if command.action == "answer" and command.choice not in ("yes", "no"):
                raise Rejected(N_("The spirit answers yes or no."))
            if not memory.spirit(state).get("text"):
                raise Rejected(N_("Nobody asked the Island Spirit a question today."))
            if spirit.answered(state):
                raise Rejected(N_("The Island Spirit has answered today's question (I5)."))
            if command.action == "refuse":
                reason = (command.text or "").strip()
                if not reason:
                    raise Rejected(N_("Say why the spirit refuses the question."))
                spirit.refuse(ctx, reason)
            else:
                spirit.answer(ctx, command.choice or "")
        else:
            self._violation(ctx, command)

    def _violation(self, ctx: Context, command: Command) -> None:
        """I8, I4 poison thorn, I5 palms bloom: the GM marks, confirms or overrules."""
        state = ctx.state
        target = command.target
        if target is None or target not in state.players:
            raise Rejected(N_("There is no player called {name}."), name=target)
        marked = memory.mapping(state, memory.VIOLATIONS)
        overruled = memory.names(state, memory.OVERRULED)
        if command.choice in ("no", "overrule"):
            marked.pop(target, None)
            ctx.flag(memory.VIOLATIONS, marked or None)
            ctx.flag(memory.OVERRULED, sorted({*overruled, target}))
            ctx.announce(N_("The game master overrules the violation of {name}."), name=target)
            return
        marked[target] = command.text or "gm"
        ctx.flag(memory.VIOLATIONS, marked)
        ctx.flag(memory.OVERRULED, [p for p in overruled if p != target] or None)
        if command.text:  # the players learn what was wrong, not only who
            ctx.announce(N_("The game master marks a violation of the rules by {name}: "
                            "{reason}"), name=target, reason=command.text)
        else:
            ctx.announce(N_("The game master marks a violation of the rules by {name}."),
                         name=target)

    def resolve(self, ctx: Context) -> None:
        """I7: stage 1 at 13:00; stage 2 at 21:00 with the win checked after the lynch and
        after the night (I1.4)."""
        if ctx.state.phase.stage == 1:
            ctx.run_steps(daytime.STAGE_ONE_STEPS)
            return
        ctx.run_steps(VOTE_STEPS)
        if self.winner(ctx.state) is not None:
            return  # I1.4 [R]: the night steps do not resolve
        ctx.run_steps(NIGHT_STEPS)
        if self.winner(ctx.state) is not None:
            return
        ctx.run_steps((daytime.NEXT_EVENT_STEP,))

    def skip(self, ctx: Context) -> None:
        """The GM skips the stage: nothing planned in it happens; a skipped evening still
        draws tomorrow's event."""
        ctx.flag(memory.SKIPPING, True)
        state = ctx.state
        if state.phase.stage == 1 and memory.today_event(state) is None and state.phase.number > 1:
            daytime.reveal_night_dead(ctx, state.phase.number - 1)  # I5 [R]: due at 13:00
        if state.phase.stage == 2:
            ctx.run_steps((daytime.NEXT_EVENT_STEP,))

    def on_departure(self, ctx: Context, player: str, cause: str) -> None:
        departures.on_departure(ctx, player, cause)

    def awaiting_inputs(self, state: GameState) -> set[tuple[str, str]] | None:
        return None  # I6.1: the stages end at their deadlines only

    def guest_thread_closed(self, state: GameState) -> Text | None:
        """I6.7: the island has no night phase (every move is sent by day, I6.2), so the
        thread is open to the dead and observers in both halves of every day, as to the
        living; it closes with the game."""
        return None

    def winner(self, state: GameState) -> tuple[str, tuple[str, ...]] | None:
        return victory.winner(state)

    # -- views --------------------------------------------------------------------------
    def project(self, state: GameState, player: str | None) -> dict[str, Any]:
        return view.project(state, player)

    def gm_view(self, state: GameState) -> dict[str, Any]:
        return view.project(state, None, gm=True)

    def legal_commands(self, state: GameState, player: str) -> list[Command]:
        return view.legal_commands(state, player)

    def presets(self) -> Mapping[str, Preset]:
        return presets.PRESETS

    def roles_for(self, player_count: int) -> tuple[str, ...]:
        return presets.roles_for(player_count)

    def role_text(self, role: str) -> Text:
        return texts.role_text(role)

    def action_hints(self, state: GameState, player: str, action: str) -> tuple[Text, ...]:
        return hints.action_hints(state, player, action)  # what a move does and costs

    def notice_text(self, notice: Mapping[str, Any]) -> Text:
        return texts.notice_text(notice) or super().notice_text(notice)


ISLAND = Island()
