"""Game operations for the GM command line, the web app and the vote counter.

Each public method is one transaction. Player commands carry the clock's time, so a
late submission is rejected with the deadline (the scheduler, or the GM's ``close``,
then resolves the stage); the GM's own acts are accepted after a deadline too, so he can
still extend a stage whose deadline passed while the scheduler was down.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import Connection, Engine

from nightfall.engine import Command, Game, Rejected, SetupError
from nightfall.engine import events as ev
from nightfall.engine.text import N_
from nightfall.i18n import default_locale
from nightfall.notify.contacts import normalize_email
from nightfall.rulesets import get_ruleset, new_game
from nightfall.service.clock import Clock, SystemClock
from nightfall.service.rules import RulesCheck, check_rules
from nightfall.store import EventStore, GameMeta, make_engine, migrate
from nightfall.store.cache import Loaded

if TYPE_CHECKING:
    from nightfall.notify.config import NotifyConfig


class DeadlineHook(Protocol):
    """Work that must happen when a deadline passes but before its stage closes (the
    forum thread read at the vote stop, :mod:`nightfall.service.forum_link`).

    :meth:`hold` runs inside the transaction that would close the stage, with the game
    claimed (so one process decides for all): ``True`` keeps the stage open for now (it
    may record a claim on ``conn``, or add events to ``game``, e.g. a GM post).
    :meth:`run` then does the held work outside any transaction; ``True`` when it
    finished something, so the due games are looked at once more.
    """

    def hold(self, game_id: str, game: Game, conn: Connection, now: datetime) -> bool: ...

    def run(self) -> bool: ...

    def holding(self, game_id: str, now: datetime) -> bool:
        """Whether the hook knows, without asking the database, that it holds the stage
        now (so a page load need not open a transaction to find out)."""
        ...


@dataclass(frozen=True)
class CreatedGame:
    id: str
    gm_token: str


class RulesRefused(ValueError):
    """The rule file was refused (``check.problems``); nothing was stored or registered."""

    def __init__(self, check: RulesCheck) -> None:
        self.check = check
        super().__init__(f"{check.name}: {len(check.problems)} problem(s)")


class GameIdTaken(ValueError):
    """A game of that id exists already (a create form sent twice); nothing was stored."""


class GameService:
    def __init__(self, engine: Engine | None = None, clock: Clock | None = None,
                 url: str | None = None, notify: NotifyConfig | None = None) -> None:
        from nightfall.notify.outbox import Notifier
        from nightfall.notify.service import Notifications

        self.engine = engine or make_engine(url)
        migrate(self.engine)
        self.store = EventStore(self.engine)
        self.clock = clock or SystemClock()
        self.deadline_hooks: list[DeadlineHook] = []
        #: the transactional outbox: every append writes its messages in its transaction
        self.notifier = Notifier(notify, self.clock)
        self.store.on_append.append(self.notifier.plan)
        self.notifications = Notifications(self.store, self.notifier)

    # -- set-up -----------------------------------------------------------------------
    def create(self, ruleset: str, seed: int, options: Mapping[str, Any] | None = None,
               locale: str | None = None, title: str = "",
               game_id: str | None = None) -> CreatedGame:
        """Create a game of a built-in rule set or shipped rule file (by id); a shipped
        file's bytes are stored with the game (``EventStore.create_game``), so the game
        keeps its rules when a later release ships another file under that id."""
        plugin = get_ruleset(ruleset)
        game = new_game(plugin.id, seed, options, locale or default_locale(ruleset))
        created_id, token = self.store.create_game(game, title, game_id)
        return CreatedGame(created_id, token)

    # -- rule files (issue 20, docs/rules-format.md) ----------------------------------
    def check_rules(self, data: bytes, name: str = "<rules>") -> RulesCheck:
        """Check a GM's rule file as ``nightfall rules check`` does (every problem with its
        key and line), and as one site's store needs (``service/rules.py``); stores and
        registers nothing."""
        return check_rules(data, name)

    def create_from_rules(self, data: bytes, seed: int, options: Mapping[str, Any] | None = None,
                          locale: str | None = None, title: str = "",
                          game_id: str | None = None, name: str = "<rules>") -> CreatedGame:
        """Create a game played by the rule file ``data``: checked again here (whatever a
        form previewed), then the game and the file's bytes are stored in one transaction
        and the file's term names registered. :class:`RulesRefused` for a refused file,
        :class:`SetupError` for a bad option, :class:`GameIdTaken` for a taken
        ``game_id``: each leaves no game, no stored file and no registered name."""
        from sqlalchemy.exc import IntegrityError

        check = self.check_rules(data, name)
        rules = check.rules
        if rules is None:
            raise RulesRefused(check)
        # the file's hash is what a game of it records, never an option to choose
        chosen = {k: v for k, v in (options or {}).items() if k not in rules.recorded_options}
        languages = rules.file.languages
        game = Game.new(rules, seed, chosen, locale or (languages[0] if languages else "en"))
        if game_id is not None:
            try:
                self.store.meta(game_id)
            except LookupError:
                pass
            else:
                raise GameIdTaken(game_id)
        try:
            created_id, token = self.store.create_game(game, title, game_id)
        except IntegrityError:
            if game_id is not None:  # sent twice at once: the other one created it
                raise GameIdTaken(game_id) from None
            raise
        rules.register_terms()
        return CreatedGame(created_id, token)

    def signup(self, game_id: str, name: str, description: str = "",
               timezone: str | None = None, locale: str | None = None,
               email: str | None = None, vouched: bool = False) -> str:
        """Sign a player up; returns his private token (the key of his private link).
        With ``email``, in the same transaction: its confirmation mail (unless the GM
        ``vouched`` for the address) and his link, sent once the address is confirmed."""
        if email:
            normalize_email(email)  # a clear refusal before anything is written

        def work(game: Game, conn: Connection) -> str:
            game.join(name, description)
            token = self.store.add_player_row(conn, game_id, name.strip(), description,
                                              timezone, locale)
            if email:
                self.notifications.on_signup(conn, game_id, game, name.strip(), token,
                                             email, vouched)
            return token

        return self.store.transact(game_id, work)

    def admit_observer(self, game_id: str, name: str) -> str:
        """Let an outsider into the thread as an observer (Island I6.7; the engine refuses
        where the rule set admits none, or the name is taken); returns his private token."""

        def work(game: Game, conn: Connection) -> str:
            game.execute(Command("admit", target=name, at=self.clock.now()))
            return self.store.add_observer_token(conn, game_id, name.strip())

        return self.store.transact(game_id, work)

    def withdraw(self, game_id: str, name: str) -> None:
        def work(game: Game, conn: Connection) -> None:
            game.withdraw(name)
            self.store.withdraw_player_row(conn, game_id, name)

        self.store.transact(game_id, work)

    def deal(self, game_id: str, preset: str | None = None,
             roles: Sequence[str] | None = None) -> None:
        """Deal a preset, an explicit role list, or the default roles for the count."""

        def work(game: Game, conn: Connection) -> None:
            game.deal(self._roles(game, preset, roles))

        self.store.transact(game_id, work)

    def assign(self, game_id: str, roles: Mapping[str, str]) -> None:
        def work(game: Game, conn: Connection) -> None:
            game.assign(roles)

        self.store.transact(game_id, work)

    def _roles(self, game: Game, preset: str | None, roles: Sequence[str] | None
               ) -> Sequence[str]:
        if roles:
            return roles
        if preset:
            presets = game.ruleset.presets()
            if preset not in presets:
                raise SetupError(N_("Unknown preset {preset}; known: {known}."),
                                 preset=preset, known=tuple(sorted(presets)))
            return presets[preset].roles
        try:
            return game.ruleset.roles_for(len(game.state.players))
        except ValueError:
            raise SetupError(N_("No preset for {count} players; name the roles."),
                             count=len(game.state.players)) from None

    def start(self, game_id: str) -> None:
        def work(game: Game, conn: Connection) -> None:
            game.start(at=self.clock.now())

        self.store.transact(game_id, work)

    # -- play -------------------------------------------------------------------------
    def submit(self, game_id: str, command: Command, at: datetime | None = None
               ) -> list[ev.Event]:
        """A player's (or the GM's on a player's behalf) command, made at the clock's time
        or at ``at`` (the time of a forum post the vote counter read)."""
        now = at or self.clock.now()
        stamped = Command(command.action, command.by, command.target, command.targets,
                          command.choice, command.text, command.minutes, at=now)

        def work(game: Game, conn: Connection) -> list[ev.Event]:
            self._check_deadline(game, now)
            return game.execute(stamped)

        return self.store.transact(game_id, work)

    def submit_each(self, game_id: str, commands: Sequence[Command]
                    ) -> list[Rejected | None]:
        """Several players' commands in one transaction, each made at its own ``at`` (else
        the clock's time) and judged on its own as :meth:`submit` judges it: a refused one
        leaves the others standing and its :class:`Rejected` comes back in its place
        (``None``: accepted). The vote counter submits a day's forum votes so."""

        def work(game: Game, conn: Connection) -> list[Rejected | None]:
            outcome: list[Rejected | None] = []
            for command in commands:
                now = command.at or self.clock.now()
                try:
                    self._check_deadline(game, now)
                    game.execute(replace(command, at=now))
                except Rejected as error:  # the engine rolled this command back
                    outcome.append(error)
                else:
                    outcome.append(None)
            return outcome

        return self.store.transact(game_id, work)

    def _check_deadline(self, game: Game, now: datetime) -> None:
        deadline = game.state.deadline
        if deadline is not None and now >= deadline:
            raise Rejected(N_("Too late: the deadline passed at {deadline}."), deadline=deadline)

    def gm(self, game_id: str, action: str, target: str | None = None,
           minutes: int | None = None, text: str | None = None,
           choice: str | None = None) -> list[ev.Event]:
        """A GM act: advance (close now), extend, shorten, skip, modkill, or a rule set's."""
        now = self.clock.now()

        def work(game: Game, conn: Connection) -> list[ev.Event]:
            if action == "advance":
                return game.advance(now)
            return game.execute(Command(action, target=target, minutes=minutes, text=text,
                                        choice=choice, at=now))

        return self.store.transact(game_id, work)

    def undo(self, game_id: str, minutes: int | None = None) -> list[ev.Event]:
        """Reopen the last closed stage: its old deadline stays if still ahead, else it
        has none until the GM sets one — ``minutes`` from now, in the same transaction."""

        def work(game: Game, conn: Connection) -> list[ev.Event]:
            return game.undo(self.clock.now(), minutes)

        return self.store.transact(game_id, work, full=True)

    def tick(self, game_id: str, run_hooks: bool = True) -> list[ev.Event]:
        """Close the game's passed deadlines now. A :class:`DeadlineHook` may hold the
        stage (``[]``); with ``run_hooks`` its work then runs here and the game is ticked
        again, else it is left to the scheduler's next pass (a page that loads the game
        must not wait for a forum)."""
        now = self.clock.now()
        if not run_hooks and any(hook.holding(game_id, now) for hook in self.deadline_hooks):
            return []

        def work(game: Game, conn: Connection) -> list[ev.Event]:
            return self._close_passed(game_id, game, conn, now) or []

        events = self.store.transact(game_id, work)
        if run_hooks and any([hook.run() for hook in self.deadline_hooks]):
            return events + self.tick(game_id, run_hooks=False)
        return events

    def tick_due(self) -> dict[str, int]:
        """Resolve every passed deadline of every game, oldest first (catch-up too).

        Each game is claimed in the transaction that resolves it (``resolve_due``): a game
        another process is resolving right now is skipped (it is not in the result), and
        one whose resolution died with its process is due again at the next call. So every
        server process may run the scheduler and a deadline still fires exactly once.

        A :class:`DeadlineHook` may hold a stage open in that transaction (a forum read
        claimed for the deadline); its work runs after the pass, outside any
        transaction, and then the due games are ticked once more.
        """
        done = self._tick_due(self.clock.now())
        if any([hook.run() for hook in self.deadline_hooks]):  # every hook runs
            done.update(self._tick_due(self.clock.now()))
        return done

    def _close_passed(self, game_id: str, game: Game, conn: Connection, now: datetime
                      ) -> list[ev.Event] | None:
        """Close the passed stages one by one, asking the hooks before each: after a
        downtime that spans several vote stops, each of them is held for its own forum
        read (a single ``game.tick`` would close the later ones unread). ``None`` when
        the first passed stage is held open (a GM post the hook made is still stored)."""
        if not self.deadline_hooks:
            return game.tick(now)
        produced: list[ev.Event] = []
        while (game.state.phase.is_play() and game.state.deadline is not None
               and now >= game.state.deadline):
            if any([hook.hold(game_id, game, conn, now) for hook in self.deadline_hooks]):
                return produced or None
            produced += game.advance(game.state.deadline)
        return produced

    def _tick_due(self, now: datetime) -> dict[str, int]:
        def work_for(game_id: str) -> Callable[[Game, Connection], list[ev.Event] | None]:
            def work(game: Game, conn: Connection) -> list[ev.Event] | None:
                return self._close_passed(game_id, game, conn, now)

            return work

        done: dict[str, int] = {}
        for game_id in self.store.due_games(now):
            for events in self.store.resolve_due(game_id, now, work_for(game_id)):
                if events is not None:
                    done[game_id] = len(events)
        return done

    # -- reading ----------------------------------------------------------------------
    def load(self, game_id: str) -> Game:
        return self.store.load(game_id)

    def meta(self, game_id: str) -> GameMeta:
        return self.store.meta(game_id)

    def read(self, game_id: str) -> tuple[GameMeta, Loaded]:
        """The game's row, the game and its log for a page, in one round trip (the game is
        shared with other readers of this process: only look at it; see ``store.read``)."""
        return self.store.read(game_id)

    def replay_matches(self, game_id: str) -> bool:
        """Rebuild the game from its whole log and compare with the snapshot-based load."""
        game = self.store.load(game_id)
        replayed = Game.from_events(game.ruleset, self.store.events(game_id))
        return replayed.state == game.state
