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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Union

from nightfall.engine.commands import Command, make_command
from nightfall.engine.errors import Rejected
from nightfall.engine.state import GameState
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


Check = Union[ActorCheck, OnTarget, OnCommand]  # noqa: UP007 - a runtime alias with a str ref


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
    actor_checks: tuple[ActorCheck, ...] = ()
    #: checks after the generic target checks, in order
    checks: tuple[Check, ...] = ()
    #: the choices the legal list offers (one command per choice); ``None``: no choice
    choices: tuple[str, ...] | None = None
    #: the text the legal list gives a command that needs one (e.g. a question)
    listed_text: str | None = None
    #: the rule set's own candidate list (``None``: by :attr:`targets` and :attr:`choices`)
    candidates: Candidates | None = None
    target_checks: tuple[TargetCheck, ...] = field(init=False, repr=False, compare=False)
    command_checks: tuple[CommandCheck, ...] = field(init=False, repr=False, compare=False)
    #: actor checks among :attr:`checks` (they do not depend on the targets either)
    late_actor_checks: tuple[ActorCheck, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        target_checks: list[TargetCheck] = []
        command_checks: list[CommandCheck] = []
        actor_checks: list[ActorCheck] = []
        for check in self.checks:
            if isinstance(check, OnTarget):
                target_checks.append(check.check)
            elif isinstance(check, OnCommand):
                command_checks.append(check.check)
            else:
                actor_checks.append(check)
        object.__setattr__(self, "target_checks", tuple(target_checks))
        object.__setattr__(self, "command_checks", tuple(command_checks))
        object.__setattr__(self, "late_actor_checks", tuple(actor_checks))


# -- generic checks -------------------------------------------------------------------------
_REFUSALS: dict[str, Text] = {}


def refusal(msgid: str) -> Text:
    """The reason ``msgid`` without parameters, built once: listing meets the same few
    refusals (not the leader, not today) for every player on every turn."""
    text = _REFUSALS.get(msgid)
    if text is None:
        text = _REFUSALS[msgid] = Text(msgid)
    return text


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
    for actor_check in ability.actor_checks:
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
        else:
            reason = check(state, ability, actor)
            if reason is not None:
                return reason
    return None


# -- the legal list --------------------------------------------------------------------------
def valid_targets(state: GameState, ability: Ability, actor: str, pool: Sequence[str]
                  ) -> list[str]:
    """The players of ``pool`` (in its order) that pass every target check."""
    found = []
    checks = ability.target_checks
    for target in pool:
        if target_problem(state, ability, actor, target) is not None:
            continue
        for target_check in checks:
            if target_check(state, ability, actor, target) is not None:
                break
        else:
            found.append(target)
    return found


def default_candidates(state: GameState, ability: Ability, actor: str, targets: Sequence[str]
                       ) -> list[Command]:
    """One command per valid target (pair of targets for two; singles for :data:`ANY`),
    times each listed choice."""
    action, text = ability.action, ability.listed_text
    shapes: list[tuple[str, ...]]
    if ability.targets == 0:
        shapes = [()]
    elif ability.targets == 2:
        shapes = list(combinations(targets, 2))
    else:
        shapes = [(t,) for t in targets]
    choices: tuple[str | None, ...] = ability.choices if ability.choices is not None else (None,)
    return [make_command(action, actor, shape, choice, text)
            for choice in choices for shape in shapes]


class AbilityBook:
    """A rule set's abilities, in listing order, with the two doors to them: ``check`` for
    the command path and ``legal_commands`` for the list (bots, web forms)."""

    def __init__(self, abilities: Iterable[Ability]) -> None:
        self.abilities: dict[str, Ability] = {a.action: a for a in abilities}
        #: per role: (ability, its actor checks but the role check), in listing order
        self._by_role: dict[str | None, list[tuple[Ability, tuple[ActorCheck, ...]]]] = {}

    def problem(self, state: GameState, command: Command) -> Text | None:
        return problem(self.abilities, state, command)

    def check(self, state: GameState, command: Command) -> Ability:
        """The ability ``command`` uses, if it is accepted; else raise
        :class:`~nightfall.engine.errors.Rejected` with the first reason."""
        reason = problem(self.abilities, state, command)
        if reason is not None:
            raise Rejected(reason.msgid, **reason.params)
        return self.abilities[command.action]

    def _of_role(self, role: str | None) -> list[tuple[Ability, tuple[ActorCheck, ...]]]:
        """The abilities :func:`has_role` lets ``role`` use (so listing skips that check)."""
        found = self._by_role.get(role)
        if found is None:
            found = [
                (a, tuple(c for c in (*a.actor_checks, *a.late_actor_checks) if c is not has_role))
                for a in self.abilities.values()
                if a.roles is None or role in a.roles or has_role not in a.actor_checks
            ]
            self._by_role[role] = found
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
        for ability, actor_checks in self._of_role(me.role):
            for actor_check in actor_checks:
                if actor_check(state, ability, player) is not None:
                    break
            else:
                targets = (valid_targets(state, ability, player, pool)
                           if ability.targets != 0 else [])
                build = ability.candidates or default_candidates
                checks = ability.command_checks
                for command in build(state, ability, player, targets):
                    for command_check in checks:
                        if command_check(state, ability, command) is not None:
                            break
                    else:
                        found.append(command)
        return found
