"""The plugin interface every rule set implements.

The core knows no role by name: a rule set declares its roles (with faction), its
resolution steps in order, its phase schedule and deadlines, and supplies the functions
the core calls. The core owns the event log, the RNG, the phase machine, early close,
win checks after every resolution, GM acts, and the resolution trace.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nightfall.engine.commands import Command
from nightfall.engine.errors import SetupError
from nightfall.engine.phase import DeadlineRule, Phase, known_zone
from nightfall.engine.state import GameState
from nightfall.engine.text import N_, Term, TermNames, Text

#: the words of a private notice whose kind its rule set does not word (spelled out field
#: by field, so that a notice is never lost to its reader)
UNKNOWN_NOTICE = N_("Notice “{kind}”: {details}")

if TYPE_CHECKING:
    from nightfall.engine.game import Context


@dataclass(frozen=True, slots=True)
class Role:
    """A role: stable ``id``, the ``faction`` it counts for, the rule that defines it."""

    id: str
    faction: str
    rule: str
    special: bool = True


@dataclass(frozen=True, slots=True)
class Step:
    """One numbered step of an ordered resolution (e.g. C15 step 4 'changelings').

    ``id`` is what the log stores (``StepTraced.step``); ``title`` is the msgid a reader
    sees for it (the GM's preview, the explanation after the game), registered as the
    term ``("step", id)`` by :func:`declare_steps`, so that pages can name a step of the
    log in their language without knowing the rule set's modules."""

    number: int
    id: str
    rule: str
    run: Callable[[Context], None]
    title: str


def declare_steps(*steps: Step) -> tuple[Step, ...]:
    """The steps, in order, with each ``title`` registered as the display name of the
    term ``("step", id)``. Two rule sets may share a step id only with the same title
    (the log names steps by id, and pages look the title up by it)."""
    for step in steps:
        known = TermNames.known(Term("step", step.id))
        if known is not None and known != step.title:
            raise ValueError(
                f"step id {step.id!r} is declared twice with different titles: "
                f"{known!r} and {step.title!r}")
        TermNames.register("step", {step.id: step.title})
    return steps


@dataclass(frozen=True, slots=True)
class Preset:
    """A named setup: the role list for a player count, and options."""

    id: str
    roles: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""


class Ruleset(ABC):
    """A rule-set plugin. Subclasses are stateless: all game data lives in the state."""

    id: str
    roles: Mapping[str, Role]
    factions: Sequence[str]
    default_options: Mapping[str, Any]
    #: option -> the msgid that explains it to a game master (the form that creates a
    #: game); an option without one is shown by its id
    option_titles: Mapping[str, str] = {}
    #: options the rule set records in every game itself (a rule file's hash), never a
    #: game master's choice: the create forms and ``game new`` leave them out
    recorded_options: frozenset[str] = frozenset()
    #: ids of the items this rule set knows (none for rule sets without items)
    item_ids: frozenset[str] = frozenset()
    #: the rule set's own game-master acts (e.g. forcing a daily event); the engine routes
    #: a command with one of these actions to :meth:`handle_gm` as a GM act
    gm_actions: frozenset[str] = frozenset()
    #: the choices a GM act takes (e.g. the events the GM may force), as terms: the GM's
    #: form offers them by name and sends the id
    gm_choices: Mapping[str, tuple[Term, ...]] = {}
    #: option values a scripted game (a scenario file) starts with unless the file sets
    #: them: whatever would otherwise be drawn at random during play is switched off there
    scenario_options: Mapping[str, Any] = {}
    min_players: int = 3
    max_players: int = 60
    #: who besides the living players may post in the thread (``engine/guests.py``):
    #: ``"dead"`` (departed players) and ``"observer"`` (outsiders the GM lets in with an
    #: observer link). Empty: only the living post (Changelings C2.7); Island: both (I6.7)
    thread_guests: frozenset[str] = frozenset()
    #: the scope of this rule set's term names in :class:`TermNames` (``None``: the global
    #: table, which the built-in rule sets fill): a rule file's own (``rules:<sha256>``), so
    #: that a GM's file may title its terms as it likes. Adapters render a game's texts in
    #: it (``TermNames.scoped(game.ruleset.term_scope)``)
    term_scope: str | None = None

    def choosable_options(self) -> dict[str, Any]:
        """The options a game master chooses when creating a game, with their defaults:
        all but :attr:`recorded_options`."""
        return {k: v for k, v in self.default_options.items()
                if k not in self.recorded_options}

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Raise :class:`SetupError` for an option value the game could not be played
        with, when the game is created (not when its first deadline is computed, which
        would leave a game that can never start). Here: ``timezone``, where a rule set
        has it; rule sets add their own and call this."""
        zone = options.get("timezone")
        if zone is not None and known_zone(zone) is None:
            raise SetupError(N_("Unknown time zone {zone} (e.g. Europe/Berlin)."), zone=zone)

    # -- phases -----------------------------------------------------------------------
    @abstractmethod
    def first_phase(self, state: GameState) -> Phase:
        """The phase play starts with once roles are dealt."""

    @abstractmethod
    def next_phase(self, state: GameState) -> Phase:
        """The phase that follows the current stage's resolution."""

    @abstractmethod
    def phase_label(self, phase: Phase) -> str:
        """The stable label used in logs and scenarios (``day 2``, ``night 1/2``)."""

    @abstractmethod
    def deadline_rule(self, state: GameState, phase: Phase) -> DeadlineRule | None:
        """When the given stage ends, relative to its start."""

    # -- play -------------------------------------------------------------------------
    @abstractmethod
    def begin(self, ctx: Context) -> None:
        """Called once after dealing, before the first phase: initial notices."""

    @abstractmethod
    def on_phase_start(self, ctx: Context) -> None:
        """Called after every PhaseStarted (announcements, prompts)."""

    @abstractmethod
    def handle(self, ctx: Context, command: Command) -> None:
        """Validate a player's command (raise ``Rejected``) and emit its events."""

    @abstractmethod
    def resolve(self, ctx: Context) -> None:
        """Resolve the current stage at its deadline (runs the declared steps)."""

    @abstractmethod
    def skip(self, ctx: Context) -> None:
        """The GM skips the current phase: end it without resolving its effects."""

    @abstractmethod
    def on_departure(self, ctx: Context, player: str, cause: str) -> None:
        """Cascades of a departure (lovers, succession); called right after it."""

    @abstractmethod
    def awaiting_inputs(self, state: GameState) -> set[tuple[str, str]] | None:
        """(player, slot) inputs the current stage still waits for; ``None``: never early.

        The engine closes a stage early (option ``early_close``) when this is empty, so
        the rule set, not each role, decides what a stage expects (the lesson of lykos).
        """

    def all_inputs_in(self, state: GameState) -> bool:
        """Whether :meth:`awaiting_inputs` is empty (not ``None``): the stage may close
        early. Asked after every command of a game with ``early_close``; a rule set may
        answer it without building the set of what is still missing."""
        return self.awaiting_inputs(state) == set()

    @abstractmethod
    def winner(self, state: GameState) -> tuple[str, tuple[str, ...]] | None:
        """The winning faction and winning players, or ``None`` while play goes on."""

    # -- views ------------------------------------------------------------------------
    @abstractmethod
    def project(self, state: GameState, player: str | None) -> dict[str, Any]:
        """Everything ``player`` may know (``None``: a spectator's public view)."""

    @abstractmethod
    def legal_commands(self, state: GameState, player: str) -> list[Command]:
        """Every command ``player`` could submit now that the rules would accept."""

    # -- setup ------------------------------------------------------------------------
    @abstractmethod
    def presets(self) -> Mapping[str, Preset]:
        """Named setups."""

    @abstractmethod
    def roles_for(self, player_count: int) -> tuple[str, ...]:
        """The default role list for a player count."""

    def on_deal(self, ctx: Context) -> None:  # noqa: B027 - optional hook, empty by default
        """Called once after :meth:`Game.deal` dealt the roles at random: deal whatever
        else the rule set deals at setup (items, a seating order), by ``ctx.draw``."""

    def action_hints(self, state: GameState, player: str, action: str) -> tuple[Text, ...]:
        """What ``action`` does and what it costs ``player`` now (once per game, needs a
        vote today, used up until recharged, …), as sentences for the form of the move;
        worked out from the rule set's own declarations. Empty: nothing to say."""
        return ()

    def guest_thread_closed(self, state: GameState) -> Text | None:
        """Why the thread is closed to its guests now (``None``: open), for a rule set
        with :attr:`thread_guests`; the rule set says it, e.g. for its nights."""
        return None

    def handle_gm(self, ctx: Context, command: Command) -> None:
        """A game-master act of the rule set's own (one of :attr:`gm_actions`)."""
        from nightfall.engine.errors import Rejected
        from nightfall.engine.text import N_

        raise Rejected(N_("Unknown command {action}."), action=command.action)

    def notice_text(self, notice: Mapping[str, Any]) -> Text:
        """A private notice (structured) as words for its reader. Rule sets word the kinds
        they send; this default spells out a kind they do not know field by field, so a
        notice is never lost to its reader."""
        details = ", ".join(f"{key}: {value}" for key, value in notice.items() if key != "kind")
        return Text(UNKNOWN_NOTICE,
                    {"kind": str(notice.get("kind", "")), "details": details or "—"})

    def role_text(self, role: str) -> Text:
        """What a role is and does, for the player who holds it."""
        from nightfall.engine.text import N_, Term

        return Text(N_("You are {role}."), {"role": Term("role", role)})

    def leader(self, state: GameState) -> str | None:
        """The current public leader, for rule sets that have one."""
        return None

    def items(self, state: GameState) -> dict[str, list[str]]:
        """Items each player holds (ids), for rule sets that have items."""
        return {p.name: [i.id for i in p.items] for p in state.players.values() if p.items}

    def faction_of(self, role: str | None) -> str | None:
        return self.roles[role].faction if role is not None and role in self.roles else None
