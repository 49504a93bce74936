"""Abilities as data, and the one set of checks that both accepts a command and lists the
legal ones.

Why one set: a command path that validates and a legal-command list that is built some
other way drift apart, and a list built by trying every candidate through validation
pays for an exception and a ``Command`` per rejected candidate. Here a rule set declares
each ability with its checks, split by what a check depends on:

- *actor checks* (the actor alone: alive, role, stage, once-per-game flags), run before
  the targets are looked at;
- :class:`OnTarget` checks (one named target, for this actor), and :class:`OnCommand`
  checks (the whole command: its choice, its text, the number of targets), run after the
  generic target checks, in the declared order.

:func:`problem` runs them in order on a command and returns the first reason it is
refused (the command path raises it). :func:`legal_commands` runs the actor checks once
per ability, the target checks once per candidate target and the command checks once per
candidate command: the same predicates, so the list holds exactly what :func:`problem`
accepts (``tests/test_legality.py`` checks it on random reachable states). No check
raises, and no candidate is built to be thrown away, so listing is cheap.

A target or command check that reads something about the actor (his lover, his
handcuffs, his number of votes, today's event) is declared *prepared* (:class:`ForTargets`,
:class:`ForCommands`): it reads that once per actor and returns the check of one target
or one command. The listing prepares it once per actor and ability instead of once per
candidate (a vote is checked against every living player), the command path once per
command; it is still one predicate for both doors.

A command check that reads nothing of the command but how many players it names (and the
actor: his number of votes today) is declared :class:`ForCount`: prepared once per actor
like the others, it is asked once per number of targets the list offers (a vote of one
player, of two), and a whole group of commands passes or fails with that one verdict
instead of one call per command (an Island day lists every pair of players for an actor
with two votes). The command path asks it with the command's number of targets.

An actor check that most actors pass for every ability at once (he is still in the
game) is declared :class:`ForActor`: prepared once per actor for his whole list, it
returns ``None`` when it refuses him no ability, else the check of one ability. The
listing asks it once per list instead of once per ability; the command path calls it in
its place like any actor check.

An actor check that reads nothing but the phase (kind, number, stage), like "by night
only", is declared :class:`OnPhase`. The command path runs it in its place like any
other; the listing runs it once per role and phase and remembers which abilities it
leaves (most abilities of most roles are out of season most of the time).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, repeat
from operator import is_
from typing import Any, Union

from nightfall.engine.caches import keep
from nightfall.engine.commands import Command, make_command
from nightfall.engine.errors import Rejected
from nightfall.engine.state import PARTS, PHASE, PLAYERS, GameState
from nightfall.engine.text import N_, Term, Text

#: ``Ability.targets`` for "one or more players"
ANY = -1

ActorCheck = Callable[[GameState, "Ability", str], Text | None]
TargetCheck = Callable[[GameState, "Ability", str, str], Text | None]
CommandCheck = Callable[[GameState, "Ability", Command], Text | None]
#: the rule set's own candidates of an ability for an actor, given the targets that pass
#: every target check (in listing order); each is still put through the command checks
Candidates = Callable[[GameState, "Ability", str, Sequence[str]], Iterable[Command]]


@dataclass(frozen=True, slots=True)
class OnTarget:
    """A check of every named target (``check(state, ability, actor, target)``)."""

    check: TargetCheck


@dataclass(frozen=True, slots=True)
class OnCommand:
    """A check of the whole command (``check(state, ability, command)``)."""

    check: CommandCheck


#: a target check prepared for one actor (see :class:`ForTargets`)
PreparedTargetCheck = Callable[[str], Text | None]
#: a command check prepared for one actor (see :class:`ForCommands`)
PreparedCommandCheck = Callable[[Command], Text | None]
#: a check of the number of players a command names, prepared for one actor
#: (see :class:`ForCount`)
PreparedCountCheck = Callable[[int], Text | None]


@dataclass(frozen=True, slots=True)
class ForTargets:
    """A target check prepared once per actor: ``prepare(state, ability, actor)`` reads
    what the check needs about the actor and returns the check of one target, or ``None``
    when it refuses no target of this actor now."""

    prepare: Callable[[GameState, Ability, str], PreparedTargetCheck | None]


@dataclass(frozen=True, slots=True)
class ForCommands:
    """A command check prepared once per actor, like :class:`ForTargets`: ``prepare``
    returns the check of one command of this actor, or ``None`` when it refuses none."""

    prepare: Callable[[GameState, Ability, str], PreparedCommandCheck | None]


@dataclass(frozen=True, slots=True)
class ForCount:
    """A command check that reads only how many players the command names, prepared once
    per actor: ``prepare(state, ability, actor)`` returns the check of a number of
    targets, or ``None`` when it refuses no number. The list asks it once per number it
    offers (:attr:`Ability.listed_counts`), the command path once per command."""

    prepare: Callable[[GameState, Ability, str], PreparedCountCheck | None]


@dataclass(frozen=True, slots=True)
class OnPhase:
    """An actor check that reads only ``state.phase`` (and the ability): its verdict holds
    for every player of a role through a whole stage (its refusal may name the stage)."""

    check: ActorCheck


#: an actor check prepared for one actor, asked of each ability (see :class:`ForActor`)
PreparedActorCheck = Callable[["Ability"], Text | None]


@dataclass(frozen=True, slots=True)
class ForActor:
    """An actor check prepared once per actor for all his abilities:
    ``prepare(state, actor)`` returns ``None`` when it refuses him no ability now (most
    actors: "still in the game"), else the check of one ability. Itself an actor check
    (called with ``(state, ability, actor)``), so the command path and the declared
    order treat it like any other; the listing prepares it once per list."""

    prepare: Callable[[GameState, str], PreparedActorCheck | None]

    def __call__(self, state: GameState, ability: Ability, actor: str) -> Text | None:
        prepared = self.prepare(state, actor)
        return None if prepared is None else prepared(ability)


Check = Union[ActorCheck, OnTarget, OnCommand, ForTargets, ForCommands, ForCount,  # noqa: UP007
              OnPhase]
ActorStep = Union[ActorCheck, OnPhase]  # noqa: UP007


@dataclass(frozen=True, slots=True)
class Ability:
    """One command a player may give: its slot, who holds it, how many targets it names,
    and its checks (see the module docstring for their order)."""

    action: str
    rule: str
    slot: str
    #: roles that hold it; ``None``: every player (the actor checks say who else may not)
    roles: frozenset[str] | None = None
    #: 0 (none), 1, 2 (two different players) or :data:`ANY` (one or more)
    targets: int = 1
    self_target: bool = True
    #: a standing choice: it outlives the round it was given in
    standing: bool = False
    #: a targeted ability that may also be given without a target (it then names no one)
    target_optional: bool = False
    #: the actor checks, in order, after "the player exists"
    actor_checks: tuple[ActorStep, ...] = ()
    #: checks after the generic target checks, in order
    checks: tuple[Check, ...] = ()
    #: the choices the legal list offers (one command per choice); ``None``: no choice
    choices: tuple[str, ...] | None = None
    #: the text the legal list gives a command that needs one (e.g. a question)
    listed_text: str | None = None
    #: the rule set's own candidate list (``None``: by :attr:`targets` and :attr:`choices`)
    candidates: Candidates | None = None
    #: ``False``: the legal list never offers it, because every command of it needs what
    #: a list cannot give (a post's free text): its one candidate, without a text, would
    #: be refused by a check anyway, so the listing skips the ability and its checks (the
    #: legality test compares the list with what the command path accepts all the same)
    offered: bool = True
    #: for :data:`ANY`: how many players the listed commands name (the default lists one
    #: per target; ``(1, 2)`` adds every pair), each number asked of the :class:`ForCount`
    #: checks once; more may be accepted than the list offers
    listed_counts: tuple[int, ...] = (1,)
    target_checks: tuple[TargetCheck, ...] = field(init=False, repr=False, compare=False)
    command_checks: tuple[CommandCheck, ...] = field(init=False, repr=False, compare=False)
    #: the prepared checks among :attr:`checks` (:class:`ForTargets`, :class:`ForCommands`)
    target_preparers: tuple[ForTargets, ...] = field(init=False, repr=False, compare=False)
    command_preparers: tuple[ForCommands, ...] = field(init=False, repr=False, compare=False)
    #: the :class:`ForCount` checks among :attr:`checks`
    count_preparers: tuple[ForCount, ...] = field(init=False, repr=False, compare=False)
    #: the numbers of targets of the listed commands (by :attr:`targets`, and
    #: :attr:`listed_counts` for :data:`ANY`)
    arities: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: :attr:`command_checks` but :func:`two_different` and :func:`all_different`, which
    #: the default candidates pass by construction (each pair is two different players
    #: of a pool that names each player once): what the listing runs on them
    listed_command_checks: tuple[CommandCheck, ...] = field(
        init=False, repr=False, compare=False)
    #: actor checks among :attr:`checks` (they do not depend on the targets either)
    late_actor_checks: tuple[ActorCheck, ...] = field(init=False, repr=False, compare=False)
    #: :attr:`actor_checks` unwrapped, in order (the command path)
    actor_chain: tuple[ActorCheck, ...] = field(init=False, repr=False, compare=False)
    #: every :class:`OnPhase` check of :attr:`actor_checks` and :attr:`checks`
    phase_checks: tuple[ActorCheck, ...] = field(init=False, repr=False, compare=False)
    #: every :class:`ForActor` check of :attr:`actor_checks` and :attr:`checks`
    actor_preparers: tuple[ForActor, ...] = field(init=False, repr=False, compare=False)
    #: its legal commands are one per valid target and need no command check (most
    #: targeted abilities): the listing takes them straight from :func:`listed`'s table
    singles: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        target_checks: list[TargetCheck] = []
        command_checks: list[CommandCheck] = []
        target_preparers: list[ForTargets] = []
        command_preparers: list[ForCommands] = []
        count_preparers: list[ForCount] = []
        actor_checks: list[ActorCheck] = []
        phase_checks = [c.check for c in self.actor_checks if isinstance(c, OnPhase)]
        for check in self.checks:
            if isinstance(check, OnTarget):
                target_checks.append(check.check)
            elif isinstance(check, OnCommand):
                command_checks.append(check.check)
            elif isinstance(check, ForTargets):
                target_preparers.append(check)
            elif isinstance(check, ForCommands):
                command_preparers.append(check)
            elif isinstance(check, ForCount):
                count_preparers.append(check)
            elif isinstance(check, OnPhase):
                phase_checks.append(check.check)
            else:
                actor_checks.append(check)
        object.__setattr__(self, "target_checks", tuple(target_checks))
        object.__setattr__(self, "command_checks", tuple(command_checks))
        object.__setattr__(self, "target_preparers", tuple(target_preparers))
        object.__setattr__(self, "command_preparers", tuple(command_preparers))
        object.__setattr__(self, "count_preparers", tuple(count_preparers))
        object.__setattr__(self, "listed_command_checks", tuple(
            c for c in command_checks if c is not two_different and c is not all_different))
        wanted = self.targets
        object.__setattr__(self, "arities", (
            self.listed_counts if wanted == ANY else (2,) if wanted == 2 else (wanted,)))
        object.__setattr__(self, "late_actor_checks", tuple(actor_checks))
        object.__setattr__(self, "actor_chain", tuple(
            c.check if isinstance(c, OnPhase) else c for c in self.actor_checks))
        object.__setattr__(self, "phase_checks", tuple(phase_checks))
        object.__setattr__(self, "actor_preparers", tuple(
            c for c in (*self.actor_checks, *self.checks) if isinstance(c, ForActor)))
        object.__setattr__(self, "singles", (
            self.targets in (1, ANY) and self.candidates is None and self.choices is None
            and self.listed_text is None and not command_checks and not command_preparers
            and not count_preparers and self.arities == (1,)))


# -- generic checks -------------------------------------------------------------------------
_REFUSALS: dict[str, Text] = {}


def refusal(msgid: str) -> Text:
    """The reason ``msgid`` without parameters, built once: listing meets the same few
    refusals (not the leader, not today) for every player on every turn."""
    text = _REFUSALS.get(msgid)
    if text is None:
        text = _REFUSALS[msgid] = Text(msgid)
    return text


_NOT_NOW: dict[tuple[str, str], Text] = {}


def not_now(action: str, phase_label: str) -> Text:
    """"Not possible now", built once per action and stage: every legal list meets it for
    most abilities of every player."""
    key = (action, phase_label)
    text = _NOT_NOW.get(key)
    if text is None:  # stage labels grow with long games: bounded
        text = keep(_NOT_NOW, key, Text(N_("{action} is not possible now ({phase})."),
                                        {"action": Term("action", action),
                                         "phase": Term("phase", phase_label)}), 10_000)
    return text


def two_different(state: GameState, ability: Ability, command: Command) -> Text | None:
    """A command check: the two players named are not the same one."""
    targets = command.all_targets
    if targets[0] == targets[1]:
        return refusal(N_("Name two different players."))
    return None


def all_different(state: GameState, ability: Ability, command: Command) -> Text | None:
    """A command check: no player is named twice (any number of targets)."""
    targets = command.all_targets
    if len(targets) > 1 and len(set(targets)) != len(targets):
        return refusal(N_("Name two different players."))
    return None


def no_such_player(name: str | None) -> Text:
    return Text(N_("There is no player called {name}."), {"name": name})


def has_role(state: GameState, ability: Ability, actor: str) -> Text | None:
    """The actor holds a role that has ``ability`` (every role, if it names none)."""
    if ability.roles is not None and state.players[actor].role not in ability.roles:
        return Text(N_("“{action}” is not an ability of your role."),
                    {"action": Term("action", ability.action)})
    return None


def count_problem(ability: Ability, targets: tuple[str, ...]) -> Text | None:
    """The command names as many players as the ability takes."""
    wanted = ability.targets
    if wanted == ANY:
        if not targets:
            return refusal(N_("Name at least one player."))
    elif len(targets) != wanted:
        if wanted == 2:
            return refusal(N_("Name two different players."))
        return refusal(N_("Name exactly one player."))
    return None


def target_problem(state: GameState, ability: Ability, actor: str, target: str) -> Text | None:
    """A named player must be in the game; the actor himself only where allowed."""
    player = state.players.get(target)
    if player is None:
        return no_such_player(target)
    if not player.alive:
        return Text(N_("{name} is no longer in the game."), {"name": target})
    if not ability.self_target and target == actor:
        return refusal(N_("Choose another player than yourself."))
    return None


# -- the command path ------------------------------------------------------------------------
def problem(abilities: Mapping[str, Ability], state: GameState, command: Command) -> Text | None:
    """Why ``command`` is refused now (its first failing check), or ``None``: accepted."""
    ability = abilities.get(command.action)
    if ability is None:
        return Text(N_("Unknown command {action}."), {"action": command.action})
    actor = command.by
    if actor is None or actor not in state.players:
        return no_such_player(actor)
    for actor_check in ability.actor_chain:
        reason = actor_check(state, ability, actor)
        if reason is not None:
            return reason
    targets = command.all_targets
    if ability.targets != 0 and not (ability.target_optional and not targets):
        reason = count_problem(ability, targets)
        if reason is not None:
            return reason
        for target in targets:
            reason = target_problem(state, ability, actor, target)
            if reason is not None:
                return reason
    else:
        targets = ()
    for check in ability.checks:
        if isinstance(check, OnTarget):
            for target in targets:
                reason = check.check(state, ability, actor, target)
                if reason is not None:
                    return reason
        elif isinstance(check, OnCommand):
            reason = check.check(state, ability, command)
            if reason is not None:
                return reason
        elif isinstance(check, ForTargets):
            prepared_target = check.prepare(state, ability, actor)
            if prepared_target is not None:
                for target in targets:
                    reason = prepared_target(target)
                    if reason is not None:
                        return reason
        elif isinstance(check, ForCommands):
            prepared_command = check.prepare(state, ability, actor)
            if prepared_command is not None:
                reason = prepared_command(command)
                if reason is not None:
                    return reason
        elif isinstance(check, ForCount):
            prepared_count = check.prepare(state, ability, actor)
            if prepared_count is not None:
                reason = prepared_count(len(targets))
                if reason is not None:
                    return reason
        elif isinstance(check, OnPhase):
            reason = check.check(state, ability, actor)
            if reason is not None:
                return reason
        else:
            reason = check(state, ability, actor)
            if reason is not None:
                return reason
    return None


# -- the legal list --------------------------------------------------------------------------
def valid_targets(state: GameState, ability: Ability, actor: str, pool: Sequence[str]
                  ) -> list[str]:
    """The players of ``pool`` (in its order) that pass every target check: those of
    :func:`target_problem` (inlined: it runs for every player on every listing), then the
    declared ones."""
    players = state.players
    myself = None if ability.self_target else actor
    checks = ability.target_checks
    prepared = [check for check in (p.prepare(state, ability, actor)
                                    for p in ability.target_preparers) if check is not None]
    found = []
    for target in pool:
        player = players.get(target)
        if player is None or not player.alive or target == myself:
            continue
        for target_check in checks:
            if target_check(state, ability, actor, target) is not None:
                break
        else:
            for prepared_check in prepared:
                if prepared_check(target) is not None:
                    break
            else:
                found.append(target)
    return found


def listed(ability: Ability, actor: str, targets: Sequence[str], arity: int,
           choices: tuple[str | None, ...] = (None,), text: str | None = None
           ) -> list[Command]:
    """The commands of ``ability`` by ``actor``: one per target (``arity`` 1), per pair
    of targets (2) or one naming nobody (0), times each choice (the outer loop), all with
    ``text``; each command shared (:func:`~nightfall.engine.commands.make_command`)."""
    action = ability.action
    if arity == 1 and choices == (None,) and text is None:  # most lists: one per target
        by_target = _SINGLES.get((action, actor))
        if by_target is None or len(by_target) >= _SINGLES_LIMIT:  # (a call only when new)
            by_target = keep(_SINGLES, (action, actor), {}, _SINGLES_LIMIT)
        try:
            return list(map(by_target.__getitem__, targets))
        except KeyError:  # the first listing of these targets for this actor
            for target in targets:
                if target not in by_target:
                    by_target[target] = make_command(action, actor, (target,))
            return list(map(by_target.__getitem__, targets))
    if arity == 1:  # one per target, per choice: from the same kind of table
        found: list[Command] = []
        for choice in choices:
            key: tuple[str | int | None, ...] = (action, actor, choice, text)
            commands = _SINGLES.get(key)
            if commands is None or len(commands) >= _SINGLES_LIMIT:  # (a call only when new)
                commands = keep(_SINGLES, key, {}, _SINGLES_LIMIT)
            for target in targets:
                command = commands.get(target)
                if command is None:
                    command = commands[target] = make_command(action, actor, (target,),
                                                              choice, text)
                found.append(command)
        return found
    if arity == 2:  # one per pair of targets (in listing order), per choice: a table too
        found = []
        for choice in choices:
            key = (action, actor, choice, text, 2)
            commands = _SINGLES.get(key)
            if commands is None or len(commands) >= _SINGLES_LIMIT:  # (a call only when new)
                commands = keep(_SINGLES, key, {}, _SINGLES_LIMIT)
            try:
                found.extend(list(map(commands.__getitem__, combinations(targets, 2))))
            except KeyError:  # a pair not listed before for this actor
                for pair in combinations(targets, 2):
                    command = commands.get(pair)
                    if command is None:
                        command = commands[pair] = make_command(action, actor, pair, choice, text)
                    found.append(command)
        return found
    # none named (pass, unvote, a choice alone): one command per choice, from a table of
    # the same kind (every list of a stage that awaits a ``pass`` offers it)
    key = (action, actor, text, 0)
    commands = _SINGLES.get(key)
    if commands is None or len(commands) >= _SINGLES_LIMIT:  # (a call only when new)
        commands = keep(_SINGLES, key, {}, _SINGLES_LIMIT)
    try:
        return list(map(commands.__getitem__, choices))
    except KeyError:  # a choice not listed before for this actor
        for choice in choices:
            if choice not in commands:
                commands[choice] = make_command(action, actor, (), choice, text)
        return list(map(commands.__getitem__, choices))


#: (action, actor) -> target -> the command naming that target; (action, actor, choice,
#: text) -> target -> the same with that choice and text; (action, actor, choice, text,
#: 2) -> pair of targets -> the command naming both; (action, actor, text, 0) -> choice ->
#: the command naming nobody (see :func:`listed`)
_SINGLES: dict[tuple[str | int | None, ...], dict[Any, Command]] = {}
_SINGLES_LIMIT = 2_000


def default_candidates(state: GameState, ability: Ability, actor: str, targets: Sequence[str]
                       ) -> Sequence[Command]:
    """One command per valid target (pair of targets for two; for :data:`ANY`, per
    number of :attr:`Ability.listed_counts`), times each listed choice."""
    choices: tuple[str | None, ...] = ability.choices if ability.choices is not None else (None,)
    arities = ability.arities
    if len(arities) == 1:
        return listed(ability, actor, targets, arities[0], choices, ability.listed_text)
    found: list[Command] = []
    for arity in arities:
        found += listed(ability, actor, targets, arity, choices, ability.listed_text)
    return found


def counted_candidates(ability: Ability, actor: str, targets: Sequence[str],
                       counts: Sequence[PreparedCountCheck]) -> list[Command]:
    """:func:`default_candidates` but the numbers of targets a :class:`ForCount` check
    refuses: one verdict per number, for the whole group of commands naming that many."""
    choices: tuple[str | None, ...] = ability.choices if ability.choices is not None else (None,)
    found: list[Command] = []
    for arity in ability.arities:
        for count_check in counts:
            if count_check(arity) is not None:
                break
        else:
            found += listed(ability, actor, targets, arity, choices, ability.listed_text)
    return found


def _prepared(preparers: Sequence[Any], state: GameState, ability: Ability, actor: str
              ) -> list[Any]:
    """The prepared checks of ``preparers`` for ``actor`` that refuse something (those
    that return ``None`` refuse nothing)."""
    found = []
    for preparer in preparers:
        check = preparer.prepare(state, ability, actor)
        if check is not None:
            found.append(check)
    return found


#: the key (with the book) of the commands listed on a state, in ``state.memo``
_LISTED = "listed"
#: a pseudo-part for :class:`AbilityBook`'s ``reads``: the check reads who acts (an
#: :class:`OnTarget` check declared without it is the same for every actor)
ACTOR = -1
#: what an undeclared check is taken to read: everything, the actor included
READS_ALL: frozenset[int] = frozenset({*PARTS, ACTOR})


class AbilityBook:
    """A rule set's abilities, in listing order, with the two doors to them: ``check`` for
    the command path and ``legal_commands`` for the list (bots, web forms).

    ``reads`` declares, for a rule set's check functions (the functions of
    :class:`OnTarget` checks), which parts of the state each reads
    (:data:`~nightfall.engine.state.PARTS`, and :data:`ACTOR` if it looks at who acts).
    Within a stage the players of a game mostly ask for their lists one after another,
    each after the last one's command; a target check that reads neither the actor nor
    the submissions gives the same answer to all of them. So the players that pass the
    generic target checks and every declared :class:`OnTarget` check of an ability (its
    *target pool*) are worked out once and kept in ``state.memo`` until an event changes
    a part one of those checks reads (``state.stamp``); each actor's list only filters
    the pool by himself and his prepared checks. An undeclared check reads everything:
    the ability's pool is then worked out per actor, as before."""

    def __init__(self, abilities: Iterable[Ability],
                 reads: Mapping[object, Iterable[int]] | None = None) -> None:
        self.abilities: dict[str, Ability] = {a.action: a for a in abilities}
        declared = {check: frozenset(parts) for check, parts in (reads or {}).items()}
        #: per ability with targets: the parts its target pool depends on, or ``None`` when
        #: a target check may read the actor (no pool is shared)
        self._pool_parts: dict[str, tuple[int, ...] | None] = {}
        for ability in self.abilities.values():
            parts = {PLAYERS}  # the generic target checks: in the game
            for check in ability.target_checks:
                parts |= declared.get(check, READS_ALL)
            self._pool_parts[ability.action] = (
                None if ACTOR in parts else tuple(sorted(parts)))
        #: the ``state.memo`` key of each ability's target pool (built once): one key for
        #: every ability without :class:`OnTarget` checks, whose pool is the players of the
        #: pool still in the game whatever the ability (most of a stage's abilities are
        #: held by one player each, so a pool per ability was worked out once per list)
        pool_keys = {
            action: ("pool", self) if not ability.target_checks else ("pool", self, action)
            for action, ability in self.abilities.items()}
        #: per ability: (the parts its pool reads or ``None``, its pool's memo key)
        self._pools: dict[str, tuple[tuple[int, ...] | None, tuple[object, ...]]] = {
            action: (self._pool_parts[action], pool_keys[action]) for action in self.abilities}
        #: actor checks declared not to read the actor: their verdict holds for every
        #: player of a role while the parts they read are unchanged
        self._shared: dict[object, tuple[int, ...]] = {
            check: tuple(sorted(parts)) for check, parts in declared.items()
            if ACTOR not in parts and any(
                check in a.actor_chain or check in a.late_actor_checks
                for a in self.abilities.values())}
        #: the parts any shared actor check reads, and the phase: the verdicts of the
        #: shared checks per ability are kept in ``state.memo`` under ``_verdicts_key``
        #: while these are unchanged (see :meth:`_of_role_now`)
        self._shared_parts = tuple(sorted(
            {PHASE, *(part for parts in self._shared.values() for part in parts)}))
        self._verdicts_key = ("verdicts", self)
        #: per role: (ability, its actor checks but the role check, the phase checks and
        #: the :class:`ForActor` checks), in listing order
        self._by_role: dict[str | None, list[tuple[Ability, tuple[ActorCheck, ...]]]] = {}
        #: per role: the :class:`ForActor` checks of its abilities (each once), which the
        #: listing prepares once per list
        self._role_preparers: dict[str | None, tuple[ForActor, ...]] = {}
        #: per (role, phase): the same, only the abilities the phase checks leave, and
        #: the parts of the state the shared actor checks among them read
        self._in_phase: dict[tuple[str | None, str, int, int],
                             tuple[list[tuple[Ability, tuple[ActorCheck, ...]]],
                                   tuple[int, ...],
                                   list[tuple[Ability, tuple[ActorCheck, ...],
                                              tuple[ActorCheck, ...]]]]] = {}

    def problem(self, state: GameState, command: Command) -> Text | None:
        return problem(self.abilities, state, command)

    def check(self, state: GameState, command: Command) -> Ability:
        """The ability ``command`` uses, if it is accepted; else raise
        :class:`~nightfall.engine.errors.Rejected` with the first reason.

        A command that is one of the very objects this book listed on this state, with
        no event since (the state's stamp unchanged; see :meth:`legal_commands`), was
        accepted by the same checks on the same state when it was listed (the list holds
        exactly what :func:`problem` accepts: ``tests/test_legality.py``), so it is not
        checked again: the simulator executes only commands from a list of the state it
        executes them on. The proof is the engine's own record, never the caller's word:
        a command built elsewhere, equal or not, is checked in full."""
        listed = state.memo.get((_LISTED, self, command.by))
        if (listed is not None and listed[0] == tuple(state.stamp)
                and any(map(is_, listed[1], repeat(command)))):
            return self.abilities[command.action]
        reason = problem(self.abilities, state, command)
        if reason is not None:
            raise Rejected(reason.msgid, **reason.params)
        return self.abilities[command.action]

    def _of_role(self, role: str | None) -> list[tuple[Ability, tuple[ActorCheck, ...]]]:
        """The abilities :func:`has_role` lets ``role`` use (so listing skips that check)."""
        found = self._by_role.get(role)
        if found is None:
            found = [
                (a, tuple(c for c in (*a.actor_chain, *a.late_actor_checks)
                          if c is not has_role and c not in a.phase_checks
                          and c not in a.actor_preparers))
                for a in self.abilities.values()
                if a.offered and (a.roles is None or role in a.roles
                                  or has_role not in a.actor_chain)
            ]
            self._by_role[role] = found
            self._role_preparers[role] = tuple(dict.fromkeys(
                p for a, _ in found for p in a.actor_preparers))
        return found

    def _of_role_now(self, state: GameState, role: str | None, player: str
                     ) -> list[tuple[Ability, tuple[ActorCheck, ...]]]:
        """:meth:`_of_role` without the abilities an :class:`OnPhase` check refuses in
        the current phase (worked out once per role and phase), nor those a shared actor
        check refuses (declared in ``reads`` without :data:`ACTOR`: worked out once per
        role while the parts of the state it reads are unchanged, kept in ``state.memo``);
        each ability with its remaining actor checks."""
        phase = state.phase  # keyed by its fields: a dataclass hashes and compares in Python
        key = (role, phase.kind, phase.number, phase.stage)
        entry = self._in_phase.get(key)
        if entry is None:
            shared = self._shared
            found = [
                (ability, checks) for ability, checks in self._of_role(role)
                if all(check(state, ability, player) is None for check in ability.phase_checks)
            ]
            read = sorted({part for _, checks in found for check in checks
                           for part in shared.get(check, ())})
            if read and PHASE not in read:  # the entry is this phase's (see below)
                read = sorted({*read, PHASE})
            split = [(ability, tuple(c for c in checks if c in shared),
                      tuple(c for c in checks if c not in shared)) for ability, checks in found]
            # long games have many phases: bounded
            entry = keep(self._in_phase, key, (found, tuple(read), split), 10_000)
        found, parts, split = entry
        if not parts:
            return found
        mark = tuple(map(state.stamp.__getitem__, parts))  # PHASE among them
        memo_key = ("abilities", self, role)
        kept = state.memo.get(memo_key)
        if kept is not None and kept[0] == mark:
            now: list[tuple[Ability, tuple[ActorCheck, ...]]] = kept[1]
            return now
        # whether an ability passes its shared checks is the same for every role (they
        # read neither the actor nor his role): worked out once per ability while the
        # parts any shared check reads are unchanged, for all the roles of a stage (they
        # mostly differ: one list each)
        memo = state.memo
        book_mark = tuple(map(state.stamp.__getitem__, self._shared_parts))
        kept_verdicts = memo.get(self._verdicts_key)
        if kept_verdicts is not None and kept_verdicts[0] == book_mark:
            passes: dict[str, bool] = kept_verdicts[1]
        else:
            passes = {}
            memo[self._verdicts_key] = (book_mark, passes)
        now = []
        for ability, shared_checks, rest in split:
            if shared_checks:
                verdict = passes.get(ability.action)
                if verdict is None:
                    verdict = passes[ability.action] = all(
                        check(state, ability, player) is None for check in shared_checks)
                if not verdict:
                    continue
            now.append((ability, rest))
        memo[memo_key] = (mark, now)
        return now

    def target_pool(self, state: GameState, ability: Ability, pool: Sequence[str]
                    ) -> list[str] | None:
        """The players of ``pool`` that pass the generic target checks but "not himself"
        and every :class:`OnTarget` check of ``ability``, the same for every actor: kept
        in ``state.memo`` while the parts of the state those checks read are unchanged
        (and the pool is the same). ``None`` if a target check may read the actor. The
        list is shared: read it, never change it."""
        parts, key = self._pools[ability.action]
        if parts is None:
            return None
        stamp = state.stamp
        mark = stamp[parts[0]] if len(parts) == 1 else tuple(map(stamp.__getitem__, parts))
        memo = state.memo
        entry = memo.get(key)
        if entry is not None and entry[0] == mark and entry[1] == pool:
            shared: list[str] = entry[2]
            return shared
        players = state.players
        checks = ability.target_checks
        shared = []
        for target in pool:
            player = players.get(target)
            if player is None or not player.alive:
                continue
            for target_check in checks:
                if target_check(state, ability, "", target) is not None:
                    break
            else:
                shared.append(target)
        memo[key] = (mark, list(pool), shared)
        return shared

    def targets_for(self, state: GameState, ability: Ability, actor: str, pool: Sequence[str]
                    ) -> Sequence[str]:
        """What :func:`valid_targets` returns, from the shared :meth:`target_pool` (its
        memo read here first: one call less per targeted ability of every list)."""
        parts, key = self._pools[ability.action]
        if parts is None:
            return valid_targets(state, ability, actor, pool)
        stamp = state.stamp
        entry = state.memo.get(key)
        if entry is not None and entry[0] == (
                stamp[parts[0]] if len(parts) == 1 else tuple(map(stamp.__getitem__, parts))
        ) and entry[1] == pool:
            shared: list[str] = entry[2]
        else:
            shared = self.target_pool(state, ability, pool)  # type: ignore[assignment]
        prepared: list[PreparedTargetCheck] = []
        for preparer in ability.target_preparers:  # a loop: a comprehension is a call
            prepared_target = preparer.prepare(state, ability, actor)
            if prepared_target is not None:
                prepared.append(prepared_target)
        if not prepared:
            if ability.self_target or actor not in shared:
                return shared
            return [target for target in shared if target != actor]
        myself = None if ability.self_target else actor
        found = []
        for target in shared:
            if target == myself:
                continue
            for prepared_check in prepared:
                if prepared_check(target) is not None:
                    break
            else:
                found.append(target)
        return found

    def legal_commands(self, state: GameState, player: str, pool: Sequence[str]
                       ) -> list[Command]:
        """Every command ``player`` could give now that :func:`problem` accepts, in the
        order of the abilities; targets come from ``pool`` (the listing order, e.g.
        seating; players outside it are never listed)."""
        me = state.players.get(player)
        if me is None:
            return []
        found: list[Command] = []
        abilities = self._of_role_now(state, me.role, player)
        preparers = self._role_preparers[me.role]
        if preparers:  # the ForActor checks once for the whole list
            refusing = {}
            for preparer in preparers:
                prepared_actor = preparer.prepare(state, player)
                if prepared_actor is not None:
                    refusing[preparer] = prepared_actor
            if refusing:  # (rare: a departed player) ask each ability that declares one
                kept = []
                for entry in abilities:
                    for preparer in entry[0].actor_preparers:
                        refused = refusing.get(preparer)
                        if refused is not None and refused(entry[0]) is not None:
                            break
                    else:
                        kept.append(entry)
                abilities = kept
        for ability, actor_checks in abilities:
            for actor_check in actor_checks:
                if actor_check(state, ability, player) is not None:
                    break
            else:
                if ability.singles:  # what default_candidates and listed give, inlined
                    targets = self.targets_for(state, ability, player, pool)
                    by_target = _SINGLES.get((ability.action, player))
                    if by_target is not None:
                        try:
                            singles = list(map(by_target.__getitem__, targets))
                        except KeyError:  # a target not listed before for this actor
                            pass
                        else:
                            found.extend(singles)
                            continue
                    found.extend(listed(ability, player, targets, 1))
                    continue
                targets = (self.targets_for(state, ability, player, pool)
                           if ability.targets != 0 else ())
                counts = (_prepared(ability.count_preparers, state, ability, player)
                          if ability.count_preparers else ())
                candidates: Iterable[Command]
                checks = ability.command_checks
                if ability.candidates is None:
                    # the count checks once per number of targets, for the whole group
                    candidates = (counted_candidates(ability, player, targets, counts)
                                  if counts else
                                  default_candidates(state, ability, player, targets))
                    counts = ()
                    if len(set(targets)) == len(targets):  # (always: a pool is of names)
                        checks = ability.listed_command_checks
                else:
                    candidates = ability.candidates(state, ability, player, targets)
                    if candidates == ():  # the rule set's own "none": nothing to check
                        continue
                prepared = (_prepared(ability.command_preparers, state, ability, player)
                            if ability.command_preparers else ())
                if not checks and not prepared and not counts:
                    found.extend(candidates)
                    continue
                for command in candidates:
                    for count_check in counts:  # a rule set's own candidates: per command
                        if count_check(len(command.all_targets)) is not None:
                            break
                    else:
                        for command_check in checks:
                            if command_check(state, ability, command) is not None:
                                break
                        else:
                            for prepared_check in prepared:
                                if prepared_check(command) is not None:
                                    break
                            else:
                                found.append(command)
        self._remember(state, player, found)
        return found

    def _remember(self, state: GameState, player: str, found: list[Command]) -> None:
        """Keep which command objects were listed for ``player`` on this state, under its
        stamp, for :meth:`check` (which looks for the very object, by identity): a tuple
        of its own, whatever the caller does with the list. The entry is replaced whole
        (threads sharing a loaded game read the old or the new one)."""
        state.memo[(_LISTED, self, player)] = (tuple(state.stamp), tuple(found))
