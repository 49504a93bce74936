"""The game: a rule set plus an event log plus the state folded from it.

``Game.execute(command)`` validates a command against the state and appends the events it
causes, or raises :class:`Rejected` and changes nothing. Deadlines are inputs, never
read from a clock: ``advance()`` says "the current deadline passed", ``tick(now)`` says
"the time is now".
"""

from __future__ import annotations

import pickle
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from nightfall.engine import events as ev
from nightfall.engine.commands import GM_ACTIONS, Command
from nightfall.engine.errors import Rejected, SetupError
from nightfall.engine.guests import ADMIT, admit, observer_acts, observer_view
from nightfall.engine.names import name_keys, name_problem
from nightfall.engine.phase import DAY, ENDED, NIGHT, SETUP, SIGNUP, Phase
from nightfall.engine.rng import draw_index
from nightfall.engine.ruleset import Ruleset, Step
from nightfall.engine.state import FOLDS, GameState, apply
from nightfall.engine.talk import TALK_ACTIONS, speak
from nightfall.engine.text import N_, Term, TermNames, Text

#: what each random draw is for, by the part of its purpose before ":" (the rest names the
#: player it is for): the reveal page says "Seer (role for Ann)", not "seer (deal:Ann)".
#: Rule sets register their own draws the same way.
TermNames.register("draw", {"deal": N_("role for")})


class Context:
    """What a rule set may do while handling a command or resolving a stage.

    Every ``emit`` is applied to the state at once, so a step sees the effects of the
    steps before it. Trace lines go to the step that is running. Slotted: one is built
    per command and per resolution.
    """

    __slots__ = ("_trace", "at", "emit", "game", "ruleset", "scratch", "state")

    def __init__(self, game: Game, at: datetime | None) -> None:
        self.game = game
        self.state = game.state
        self.ruleset = game.ruleset
        self.at = at
        #: record one event (``Game._record``: folded into the state at once); bound
        #: here, not a method, because every event of a game passes through it
        self.emit: Callable[[ev.Event], None] = game._record
        self._trace: list[Text] | None = None
        #: working memory of one transaction, e.g. what a resolution step hands to a later
        #: step of the same resolution; never stored (everything that lasts is an event)
        self.scratch: dict[str, Any] = {}

    # -- events -----------------------------------------------------------------------
    def flag(self, key: str, value: Any) -> None:
        """Set (or with ``None`` clear) a rule-set flag."""
        if self.state.flags.get(key) != value:
            self.emit(ev.FlagSet(key, value))

    def notify(self, player: str, kind: str, **fields: Any) -> None:
        self.emit(ev.NoticeSent(player, {"kind": kind, **fields}))

    def announce(self, msgid: str, **params: Any) -> None:
        self.emit(ev.Announced(self.state.phase_label, Text(msgid, params)))

    @property
    def tracing(self) -> bool:
        """Whether trace lines are kept now (a step runs in a game that traces): outside
        of that :meth:`trace` drops them, so a rule set may skip working them out."""
        return self._trace is not None

    def trace(self, msgid: str, **params: Any) -> None:
        """Explain what the running step applied and why."""
        if self._trace is not None:
            self._trace.append(Text(msgid, params))

    def submit(self, command: Command, slot: str, *, standing: bool = False) -> None:
        assert command.by is not None
        self.emit(
            ev.Submitted(
                command.by, command.action, slot, command.all_targets, command.choice,
                command.text, standing,
            )
        )

    # -- chance -----------------------------------------------------------------------
    def draw(self, purpose: str, population: Sequence[str]) -> str:
        """Draw one element by the seeded RNG; the draw is recorded in the log."""
        if not population:
            raise ValueError("empty population")
        index = self.state.draws
        chosen = population[draw_index(self.state.seed, index, len(population))]
        self.emit(ev.RandomDrawn(purpose, index, tuple(population), chosen))
        return chosen

    # -- departures -------------------------------------------------------------------
    def leave(self, player: str, cause: str) -> None:
        """Remove ``player`` from the game and let the rule set cascade at once."""
        if not self.state.is_alive(player):
            return
        # the phase of departure is the round ("night 1"), not the stage (scenario format)
        self.emit(ev.PlayerLeft(player, cause, self.state.phase_label.split("/")[0]))
        self.ruleset.on_departure(self, player, cause)

    # -- resolution pipeline ----------------------------------------------------------
    def run_steps(self, steps: Sequence[Step]) -> None:
        """Run the declared steps in order, each recorded with its trace lines (unless the
        game does not trace: then the steps just run, see :attr:`Game.tracing`)."""
        if not self.game.tracing:
            for step in steps:
                step.run(self)
            return
        for step in steps:
            self._trace = []
            step.run(self)
            lines, self._trace = tuple(self._trace), None
            self.emit(ev.StepTraced(self.state.phase_label, step.number, step.id, step.rule, lines))


class Game:
    """One game. Build with :meth:`new`, or from a log with :meth:`from_events`."""

    def __init__(self, ruleset: Ruleset, *, tracing: bool = True) -> None:
        self.ruleset = ruleset
        #: whether resolutions record their :class:`~nightfall.engine.events.StepTraced`
        #: explanations. No rule reads them (they are the GM's trace and the reveal page),
        #: so a simulation may leave them out: its log is the traced log without those
        #: events, folds to the same state but for ``traces``, and playing the same game
        #: again with tracing on rebuilds them (``nightfall.sim.play.replay_game``). Real
        #: games always trace.
        self.tracing = tracing
        self.state = GameState()
        #: the log since ``base_seq`` (all of it unless loaded from a snapshot)
        self.events: list[ev.Event] = []
        self.base_seq = 0
        #: the pickled state at ``base_seq`` (``None``: the empty state of a new game), the
        #: start of a rollback or an undo; never touched while commands succeed
        self._base: bytes | None = None

    # -- construction -----------------------------------------------------------------
    @classmethod
    def new(
        cls,
        ruleset: Ruleset,
        seed: int,
        options: Mapping[str, Any] | None = None,
        locale: str = "en",
        *,
        tracing: bool = True,
    ) -> Game:
        game = cls(ruleset, tracing=tracing)
        merged = dict(ruleset.default_options)
        for key, value in (options or {}).items():
            if key not in merged:
                raise SetupError(N_("Unknown option '{option}'."), option=key)
            merged[key] = value
        ruleset.check_options(merged)
        game._record(ev.GameCreated(ruleset.id, seed, merged, locale))
        game._record(ev.PhaseStarted(SIGNUP, 0, 1, SIGNUP))
        return game

    @classmethod
    def from_events(cls, ruleset: Ruleset, events: Iterable[ev.Event]) -> Game:
        """Rebuild a game by folding its log (replay); no rule is evaluated again."""
        game = cls(ruleset)
        for event in events:
            game._record(event)
        return game

    @classmethod
    def from_snapshot(
        cls, ruleset: Ruleset, state: GameState, base_seq: int, events: Iterable[ev.Event],
        pickled: bytes | None = None,
    ) -> Game:
        """Continue from a snapshot taken after ``base_seq`` events, then fold ``events``.
        ``pickled``: the bytes ``state`` was read from, kept as the base (else pickled)."""
        game = cls(ruleset)
        game.state, game.base_seq = state, base_seq
        game._base = pickled if pickled is not None else pickle.dumps(state)
        for event in events:
            game._record(event)
        return game

    @classmethod
    def from_pickled(
        cls, ruleset: Ruleset, data: bytes, base_seq: int, events: Iterable[ev.Event] = ()
    ) -> Game:
        """:meth:`from_snapshot` of the state pickled in ``data``: those bytes are the
        game's base as they are (for a rollback or an undo), not pickled once more."""
        game = cls(ruleset)
        game.state, game.base_seq = pickle.loads(data), base_seq
        game._base = data
        for event in events:
            game._record(event)
        return game

    def copy(self) -> Game:
        """A copy at the same head, to try a command on and throw away (the pages' probes
        and previews) or to continue from (a reader's next head): one pickling of the
        state, whose bytes are also the copy's base."""
        return Game.from_pickled(self.ruleset, pickle.dumps(self.state), self.seq)

    @property
    def seq(self) -> int:
        """How many events the whole log holds (the next event's position)."""
        return self.base_seq + len(self.events)

    def _record(self, event: ev.Event) -> None:
        """Fold one event into the state and append it to the log: the hot path of every
        game, so it does nothing else (an undo is the rare exception)."""
        kind = type(event)
        if kind is ev.RolledBack:
            self._undo_to(event)  # type: ignore[arg-type]
            return
        state = self.state
        applier, parts = FOLDS[kind]
        applier(state, event)
        stamp = state.stamp
        for part in parts:
            stamp[part] += 1
        self.events.append(event)

    def _undo_to(self, event: ev.RolledBack) -> None:
        if event.to_seq < self.base_seq:
            raise ValueError("undo reaches behind the snapshot: load the whole log")
        kept = [e for s, e in self._effective() if s < event.to_seq]
        self.state = self._base_state()
        for earlier in kept:
            apply(self.state, earlier)
        self.events.append(event)

    def _base_state(self) -> GameState:
        return pickle.loads(self._base) if self._base is not None else GameState()

    def _effective(self) -> list[tuple[int, ev.Event]]:
        """(log position, event) of the events that count after every undo so far."""
        effective: list[tuple[int, ev.Event]] = []
        for position, event in enumerate(self.events, self.base_seq):
            if isinstance(event, ev.RolledBack):
                effective = [(s, e) for s, e in effective if s < event.to_seq]
            else:
                effective.append((position, event))
        return effective

    # -- sign-up and setup ------------------------------------------------------------
    def join(self, name: str, description: str = "") -> None:
        name = name.strip()
        if self.state.phase.kind != SIGNUP:
            raise Rejected(N_("Sign-up is closed."))
        if not name:
            raise Rejected(N_("A player needs a name."))
        if not any(c.isalnum() for c in name):
            # "*" is the GM's "every player" on the links form; "---" no vote can name
            raise Rejected(N_("A name needs at least one letter or digit."))
        keys = name_keys(name)
        for taken in (*self.state.players, *self.state.observers):
            if keys.isdisjoint(name_keys(taken)):  # (no set built per name signed up)
                continue
            if unicodedata.normalize("NFKC", taken).casefold() == (
                    unicodedata.normalize("NFKC", name).casefold()):
                raise Rejected(N_("The name {name} is already taken."), name=name)
            # a look-alike ("Аsteria" with a Cyrillic А): names the player it mimics
            raise Rejected(N_("The name {name} looks too much like {taken}, who has "
                              "already signed up."), name=name, taken=taken)
        problem = name_problem(name)  # mixed alphabets, marks that form no letter
        if problem is not None:
            raise Rejected(problem)
        if len(self.state.players) >= self.ruleset.max_players:
            raise Rejected(N_("The game is full ({count} players)."), count=len(self.state.players))
        self._record(ev.PlayerJoined(name, description))

    def withdraw(self, name: str) -> None:
        if self.state.phase.kind != SIGNUP:
            raise Rejected(N_("Sign-up is closed."))
        if name not in self.state.players:
            raise Rejected(N_("There is no player called {name}."), name=name)
        self._record(ev.PlayerWithdrew(name))

    def assign(
        self,
        roles: Mapping[str, str],
        statuses: Mapping[str, Iterable[str]] | None = None,
        items: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        """Give each player exactly the listed role (scenarios, hand-picked setups)."""
        self._check_setup(list(roles.values()))
        unknown_items = sorted(
            {i for held in (items or {}).values() for i in held} - set(self.ruleset.item_ids)
        )
        if unknown_items:
            raise SetupError(N_("Unknown item: {items}."), items=tuple(unknown_items))
        missing = [p for p in self.state.players if p not in roles]
        if missing or len(roles) != len(self.state.players):
            raise SetupError(
                N_("These players have no role yet: {names}."), names=tuple(missing)
            )
        self._record(ev.PhaseStarted(SETUP, 0, 1, SETUP))
        for player, role in roles.items():
            self._record(ev.RoleAssigned(player, role))
        for player, names in (statuses or {}).items():
            for status in names:
                self._record(ev.StatusChanged(player, status, True))
        for player, held in (items or {}).items():
            for item in held:
                self._record(ev.ItemGiven(player, item))

    def deal(self, roles: Sequence[str]) -> None:
        """Deal ``roles`` to the signed-up players at random (draws recorded)."""
        self._check_setup(list(roles))
        if len(roles) != len(self.state.players):
            raise SetupError(
                N_("{roles} roles for {players} players."),
                roles=len(roles), players=len(self.state.players),
            )
        self._record(ev.PhaseStarted(SETUP, 0, 1, SETUP))
        ctx = Context(self, None)
        pool = list(roles)
        for player in list(self.state.players):
            role = ctx.draw("deal:" + player, pool)
            pool.remove(role)
            self._record(ev.RoleAssigned(player, role))
        self.ruleset.on_deal(ctx)

    def _check_setup(self, roles: list[str]) -> None:
        if self.state.phase.kind != SIGNUP:
            raise SetupError(N_("Roles were dealt already."))
        unknown = sorted({r for r in roles if r not in self.ruleset.roles})
        if unknown:
            raise SetupError(N_("Unknown role: {roles}. The roles of this game: {known}."),
                             roles=tuple(unknown), known=", ".join(self.ruleset.roles))
        count = len(self.state.players)
        if not self.ruleset.min_players <= count <= self.ruleset.max_players:
            raise SetupError(
                N_("This rule set needs {low} to {high} players, not {count}."),
                low=self.ruleset.min_players, high=self.ruleset.max_players, count=count,
            )

    def start(self, at: datetime | None = None) -> list[ev.Event]:
        """Begin play after roles are dealt."""
        if self.state.phase.kind != SETUP:
            if self.state.phase.is_play() or self.state.ended:
                raise SetupError(N_("The game has already started."))
            raise SetupError(N_("Deal the roles before the game starts."))
        return self._transaction(at, self._start)

    def _start(self, ctx: Context) -> None:
        self.ruleset.begin(ctx)
        self._begin_phase(ctx, self.ruleset.first_phase(self.state))

    # -- play -------------------------------------------------------------------------
    def execute(self, command: Command) -> list[ev.Event]:
        """Apply one command; returns its events, or raises Rejected (nothing changed)."""
        action = command.action  # (``is_gm``, ``ended``, ``is_play`` inlined: every command)
        gm_act = action in GM_ACTIONS or action in self.ruleset.gm_actions
        if gm_act and command.by is not None:
            # a GM act comes without ``by``: a player's form naming one (advance, modkill,
            # say) must not close a stage or speak as the game master
            raise Rejected(N_("Only the game master can do that."))
        if action in TALK_ACTIONS or action == ADMIT:
            # the GM may always speak and let observers in, after the end too
            return self._transaction(command.at, lambda ctx: self._gm(ctx, command))
        state = self.state
        kind = state.phase.kind
        if kind == ENDED:
            raise Rejected(N_("The game is over."))
        if kind != DAY and kind != NIGHT:
            raise Rejected(N_("The game has not started yet."))
        if action == "advance":
            return self.advance(command.at)
        if gm_act:
            # the GM may act after a deadline (extend it, skip the stage) before it closes
            return self._transaction(command.at, lambda ctx: self._gm(ctx, command))
        deadline = state.deadline
        if command.at is not None and deadline is not None and command.at >= deadline:
            raise Rejected(N_("Too late: the deadline passed at {deadline}."), deadline=deadline)
        if state.observers and command.by in state.observers:  # a guest, no player
            return self._transaction(command.at, lambda ctx: observer_acts(ctx, command))
        if command.by not in state.players:
            raise Rejected(N_("There is no player called {name}."), name=command.by)
        # a player's command: :meth:`_transaction` with :meth:`_player` inlined (the path
        # of every command a simulated game plays)
        mark = len(self.events)
        ctx = Context(self, command.at)
        try:
            self.ruleset.handle(ctx, command)
            self._maybe_close_early(ctx)
        except BaseException:
            self._rollback(mark)
            raise
        return self.events[mark:]

    def advance(self, at: datetime | None = None) -> list[ev.Event]:
        """The current deadline passed: resolve the stage and move on."""
        if self.state.ended:
            raise Rejected(N_("The game is over."))
        if not self.state.phase.is_play():
            raise Rejected(N_("The game has not started yet."))
        return self._transaction(at, self._close_stage)

    def tick(self, now: datetime) -> list[ev.Event]:
        """The time is ``now``: close every stage whose deadline has passed, in order."""
        produced: list[ev.Event] = []
        while (
            self.state.phase.is_play()
            and self.state.deadline is not None
            and now >= self.state.deadline
        ):
            produced += self.advance(self.state.deadline)
        return produced

    # -- internals --------------------------------------------------------------------
    def _transaction(self, at: datetime | None, body: Any) -> list[ev.Event]:
        mark = len(self.events)
        try:
            body(Context(self, at))
        except BaseException:
            self._rollback(mark)
            raise
        return self.events[mark:]

    def _rollback(self, mark: int) -> None:
        if len(self.events) == mark:
            return
        kept = self.events[:mark]
        self.state, self.events = self._base_state(), []
        for event in kept:
            self._record(event)

    def undo(self, at: datetime | None = None, minutes: int | None = None) -> list[ev.Event]:
        """GM: return to just before the last stage closed (its submissions intact).

        Appends a :class:`RolledBack` event, so the audit trail keeps what was undone. The
        reopened stage keeps its old deadline if that is still ahead of ``at``; otherwise
        (or without a time) the deadline is cleared and the stage waits for the GM, who
        sets a new one (``extend`` on a stage without deadline starts it from now) or
        closes it by hand. ``minutes`` sets the new deadline in the same step.
        """
        closes = [(s, e) for s, e in self._effective() if isinstance(e, ev.StageClosed)]
        if not closes:
            raise Rejected(N_("There is nothing to undo."))
        target, closed = closes[-1]
        label = closed.phase
        mark = len(self.events)
        try:
            self._record(ev.RolledBack(target, label))
            self._record(ev.GmActed("undo", None, label))
            kept_deadline = self.state.deadline
            if at is None or kept_deadline is None or kept_deadline <= at:
                self._record(ev.DeadlineChanged(None))  # passed: the stage waits for the GM
            if minutes is not None:
                self._transaction(at, lambda ctx: self._gm(
                    ctx, Command("extend", minutes=minutes, at=at)))
        except BaseException:
            self._rollback(mark)
            raise
        return self.events[mark:]

    def _gm(self, ctx: Context, command: Command) -> None:
        state = self.state
        if command.action == "modkill":
            target = command.target
            if target not in state.players:
                raise Rejected(N_("There is no player called {name}."), name=target)
            if not state.is_alive(target):
                raise Rejected(N_("{name} is no longer in the game."), name=target)
            assert target is not None
            ctx.emit(ev.GmActed("modkill", target, command.text))
            ctx.announce(N_("The game master removed {name} from the game."), name=target)
            ctx.leave(target, "modkill")
            if not self._check_winner(ctx):
                self._maybe_close_early(ctx)
        elif command.action in ("extend", "shorten"):
            minutes = command.minutes or 0
            if minutes <= 0:
                raise Rejected(N_("Give a positive number of minutes."))
            sign = 1 if command.action == "extend" else -1
            if sign < 0 and ctx.at is not None and state.deadline is None:
                raise Rejected(N_("This stage has no deadline to shorten; extend it or close "
                                  "it now."))  # a paused stage (after undo), on a clock
            ctx.emit(ev.GmActed(command.action, None, str(minutes)))
            ends_now = False
            if state.deadline is not None:
                moved = state.deadline + sign * timedelta(minutes=minutes)
                if ctx.at is not None and moved < ctx.at:
                    # C2.6: shortened past the present, the stage ends now (at the next
                    # tick), not at a moment long gone: the stages after it would have
                    # closed one after the other in the catch-up
                    moved, ends_now = ctx.at, True
                ctx.emit(ev.DeadlineChanged(moved))
            elif ctx.at is not None and sign > 0:  # a paused stage (after undo) restarts
                restarted = ctx.at + timedelta(minutes=minutes)
                ctx.emit(ev.DeadlineChanged(restarted))
                ctx.announce(N_("The game master set a new deadline for the phase: "
                                "{deadline}."), deadline=restarted)
                return
            if ends_now:
                ctx.announce(N_("The game master shortened the phase: it ends now."))
            else:
                ctx.announce(
                    N_("The game master extended the phase by {minutes} minutes.")
                    if sign > 0
                    else N_("The game master shortened the phase by {minutes} minutes."),
                    minutes=minutes,
                )
        elif command.action == "skip":
            ctx.emit(ev.GmActed("skip", None, state.phase_label))
            ctx.announce(N_("The game master skipped {phase}."),
                         phase=Term("phase", state.phase_label))
            ctx.emit(ev.StageClosed(state.phase_label, skipped=True))
            self.ruleset.skip(ctx)
            self._after_resolution(ctx)
        elif command.action in TALK_ACTIONS:
            speak(ctx, command)
        elif command.action == ADMIT:
            admit(ctx, command)
        elif command.action in self.ruleset.gm_actions:
            ctx.emit(ev.GmActed(command.action, command.target, command.choice or command.text))
            self.ruleset.handle_gm(ctx, command)
        else:  # pragma: no cover - GM_ACTIONS is closed
            raise Rejected(N_("Unknown command {action}."), action=command.action)

    def _close_stage(self, ctx: Context) -> None:
        ctx.emit(ev.StageClosed(self.state.phase_label))
        self.ruleset.resolve(ctx)
        self._after_resolution(ctx)

    def _after_resolution(self, ctx: Context) -> None:
        if self._check_winner(ctx):
            return
        self._begin_phase(ctx, self.ruleset.next_phase(self.state))

    def _check_winner(self, ctx: Context) -> bool:
        result = self.ruleset.winner(self.state)
        if result is None:
            return False
        winner, winners = result
        ctx.emit(ev.GameEnded(winner, winners))
        ctx.emit(ev.PhaseStarted(ENDED, self.state.phase.number, 1, ENDED, ctx.at, None))
        self.ruleset.on_phase_start(ctx)
        return True

    def _begin_phase(self, ctx: Context, phase: Phase) -> None:
        deadline = None
        if ctx.at is not None:  # without a time (a simulation) no rule is asked
            rule = self.ruleset.deadline_rule(self.state, phase)
            deadline = rule.after(ctx.at) if rule is not None else None
        label = self.ruleset.phase_label(phase)
        ctx.emit(ev.PhaseStarted(phase.kind, phase.number, phase.stage, label, ctx.at, deadline))
        self.ruleset.on_phase_start(ctx)
        self._maybe_close_early(ctx)

    def _maybe_close_early(self, ctx: Context) -> None:
        state = self.state
        if not state.options.get("early_close"):
            return
        kind = state.phase.kind  # ``is_play`` inlined: asked after every command
        if kind in (DAY, NIGHT) and self.ruleset.all_inputs_in(state):
            self._close_stage(ctx)

    # -- views ------------------------------------------------------------------------
    def view(self, player: str | None) -> dict[str, Any]:
        """The projection of the state for ``player`` (``None``: public view); an
        observer (``engine/guests.py``) gets the public view, nothing more."""
        if player is not None and player not in self.state.players and (
                player in self.state.observers):
            return observer_view(self.ruleset.project(self.state, None), player)
        return self.ruleset.project(self.state, player)

    def legal_commands(self, player: str) -> list[Command]:
        """What ``player`` may do now. A post takes a free text and is never listed (the
        pages ask the command path, ``web/forms.py`` ``probe``); an observer, who only
        posts, has nothing listed."""
        if player not in self.state.players:
            return []
        return self.ruleset.legal_commands(self.state, player)

