"""A rule set read from a rule file: the engine's plugin interface (``engine/ruleset.py``)
implemented by interpreting the file's compiled declarations.

Compiling (:func:`compile_rules`) checks every name, type and expression and collects
every problem with its key and line (``RuleFileError``); a rule set that compiles runs
its abilities through the engine's own :class:`~nightfall.engine.abilities.AbilityBook`
(so the legal list is exactly what the command path accepts) and its resolution
through ``Context.run_steps`` (so the trace is the engine's).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from copy import copy
from dataclasses import dataclass, field
from datetime import time
from functools import cache
from operator import itemgetter
from pathlib import Path
from typing import Any

from nightfall.engine import Command, Context, GameState, Phase, Preset
from nightfall.engine import Ruleset as RulesetBase
from nightfall.engine.abilities import (
    ACTOR,
    ANY,
    Ability,
    AbilityBook,
    ActorStep,
    Check,
    ForActor,
    ForTargets,
    OnCommand,
    OnPhase,
    OnTarget,
    has_role,
    not_now,
    refusal,
    two_different,
)
from nightfall.engine.errors import SetupError
from nightfall.engine.phase import ENDED, DeadlineRule, known_zone
from nightfall.engine.ruleset import Role, Step
from nightfall.engine.state import FLAGS, PLAYERS, SUBMISSIONS
from nightfall.engine.state import PHASE as PHASE_PART
from nightfall.engine.text import N_, Term, TermNames, Text
from nightfall.rulefile import hooks as hook_registry
from nightfall.rulefile.builtins import (
    BUILTINS,
    FLAG_READS,
    OPTIONS,
    PHASE,
    RECORDS,
    SUBS,
    alive_pool,
)
from nightfall.rulefile.builtins import PLAYERS as READS_PLAYERS
from nightfall.rulefile.effects import (
    EffectCompiler,
    Problem,
    Run,
    Stop,
    Usage,
    as_param,
)
from nightfall.rulefile.explain import check_explanations
from nightfall.rulefile.expr import (
    Compiled,
    Env,
    Expr,
    ExprError,
    Function,
    Inline,
    Scope,
    all_of,
    compile_expr,
    lookup_value,
)
from nightfall.rulefile.kept import keeper
from nightfall.rulefile.load import RuleFileError, RuleProblem, Source, read_source
from nightfall.rulefile.model import FORMAT, AbilitySpec, RuleFile
from nightfall.rulefile.rulemap import check_rule_index
from nightfall.rulefile.status_post import compile_status_post

_LEFT_GAME = N_("You have left the game and can no longer act (C2.7).")
_DEFINITION = re.compile(r"^([a-z_][a-z0-9_]*)(?:\((.*)\))?$")
_STAGE = re.compile(r"^(day|night)/([1-9])$")


class Facts:
    """The file's facts as engine flags: ``key`` or ``key`` + player."""

    def __init__(self, specs: Mapping[str, tuple[str, bool]]) -> None:
        self.specs = dict(specs)

    def key(self, name: str, player: str | None) -> str:
        base, per_player = self.specs[name]
        return base + (player or "") if per_player else base

    def get(self, env: Env, name: str, player: str | None) -> Any:
        return env["$state"].flags.get(self.key(name, player))


@dataclass
class CompiledStep:
    id: str
    rule: str
    title: str
    run: Run
    usage: Usage
    condition: Expr | None = None


@dataclass
class CompiledStage:
    id: str
    kind: str
    stage: int
    label: str
    deadline: DeadlineRule
    awaits: list[tuple[str, Expr, Expr | None, Expr | None, Expr]] | None
    before: list[CompiledStep]
    steps: list[CompiledStep]
    after: Run
    on_start: Run
    next: list[tuple[Expr | None, str, Expr | None]]
    #: the parts of the state the ``awaits`` read (``FLAGS`` only if they read the flags
    #: in general) and the facts they read (``kept.py``)
    await_parts: tuple[int, ...] = (PLAYERS, PHASE_PART, SUBMISSIONS, FLAGS)
    await_facts: tuple[str, ...] = ()

    #: what the inputs still missing depend on: the awaits and the submissions
    missing_parts: tuple[int, ...] = field(init=False)
    #: the ``state.memo`` keys of what the stage awaits and of what is still missing, and
    #: the functions that work them out (made once: asked after every command)
    wanted_key: tuple[str, Any, str] = field(init=False)
    missing_key: tuple[str, Any, str] = field(init=False)
    wanted: Callable[[GameState], frozenset[tuple[str, str]]] = field(init=False)
    still_missing: Callable[[GameState], frozenset[tuple[str, str]]] = field(init=False)
    by_player_key: tuple[str, Any, str] = field(init=False)
    #: the engine's steps: those before the numbered ones (each run if its condition
    #: holds) and the numbered ones
    engine_before: tuple[Step, ...] = field(init=False)
    before_conditions: tuple[tuple[str, Expr | None], ...] = field(init=False)
    engine_steps: tuple[Step, ...] = field(init=False)
    by_player: Callable[[GameState], dict[str, list[str]]] = field(init=False)
    #: the ``awaits`` entries over ``alive()`` whose test is a role filter on their
    #: player (C2.3: the changelings' choice, the shield, stage 2's roles), by role: (the
    #: entry's name, the rest of its test, its slot's code, or the slot itself when it is
    #: a constant); one pass over the living players asks them all (``_wanted``)
    alive_by_role: dict[str | None, list[tuple[str, Any, Any, Any]]] = field(init=False)
    #: the other entries, asked one by one
    other_awaits: list[tuple[str, Expr, Expr | None, Expr | None, Expr]] = field(init=False)
    #: the same three, kept (``kept.keeper``): what is wanted, what is missing, and what
    #: is wanted by player
    wanted_now: Callable[[GameState], frozenset[tuple[str, str]]] = field(init=False)
    missing_now: Callable[[GameState], frozenset[tuple[str, str]]] = field(init=False)
    by_player_now: Callable[[GameState], dict[str, list[str]]] = field(init=False)

    def __post_init__(self) -> None:
        self.missing_parts = tuple(sorted({*self.await_parts, SUBMISSIONS}))


class DataRuleset(RulesetBase):
    """A rule set read from a rule file (see docs/rules-format.md)."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.file: RuleFile = source.model
        file = self.file
        self.id = file.id
        #: what every game of this rule set records (``GameCreated.options``)
        self.rules_file = f"{FORMAT}:sha256:{source.sha256}"
        #: the scope of the file's term names: its hash, as the store keys files
        self.term_scope = f"rules:{source.sha256}"
        self.roles = {rid: Role(rid, r.faction, r.rule, r.special) for rid, r in file.roles.items()}
        #: each role's faction and tags, for the functions ``faction``, ``has_tag`` …
        self.role_factions = {rid: r.faction for rid, r in file.roles.items()}
        self.role_tags = {rid: frozenset(r.tags) for rid, r in file.roles.items()}
        self.factions = tuple(file.factions)
        self.default_options = {**{k: o.default for k, o in file.options.items()},
                                "rules_file": self.rules_file}
        self.recorded_options = frozenset({"rules_file"})  # the hash, checked at setup
        self.option_titles = {k: o.title for k, o in file.options.items() if o.title}
        self.scenario_options = dict(file.scenario_options)
        self.min_players, self.max_players = file.min_players, file.max_players
        self.problems: list[Problem] = []
        self._compile()

    # -- compiling -----------------------------------------------------------------------
    def _compile(self) -> None:
        file, problems = self.file, self.problems
        names: dict[str, frozenset[str]] = {
            "role": frozenset(file.roles), "faction": frozenset(file.factions),
            "status": frozenset(file.statuses), "cause": frozenset(file.causes),
            "action": frozenset(file.abilities), "option": frozenset(self.default_options),
            "slot": frozenset({*(a.slot for a in file.abilities.values() if a.slot),
                               *file.slots}),
            "tag": frozenset(t for r in file.roles.values() for t in r.tags),
            "draw": frozenset(file.draws),
        }
        for rid, role in file.roles.items():
            if role.faction not in file.factions:
                problems.append(Problem(("roles", rid, "faction"),
                                        f"unknown faction {role.faction!r}"))
            if role.text is not None and role.text not in file.texts:
                problems.append(Problem(("roles", rid, "text"), f"unknown text {role.text!r}"))
        records = {**RECORDS, **file.records}
        functions: dict[str, Function] = dict(BUILTINS)
        for record, fields in file.records.items():
            functions[record] = _record_constructor(record, tuple(fields), tuple(fields.values()))
        facts = {name: (spec.type, spec.per_player) for name, spec in file.facts.items()}
        self.facts = Facts({name: (spec.key, spec.per_player) for name, spec in file.facts.items()})
        keys = {name: spec.key for name, spec in file.facts.items()}
        self.scope = Scope({}, functions, facts, names, records, keys, self.role_factions)
        for name, spec in file.facts.items():
            if spec.type not in _known_types(records):
                problems.append(Problem(("facts", name, "type"), f"unknown type {spec.type!r}"))
        for head, body in file.define.items():
            self._define(head, body, functions)
        self.scope = Scope({}, functions, facts, names, records, keys, self.role_factions)
        hooks: dict[str, hook_registry.Hook] = {}
        for name, wanted in file.hooks.items():
            found = hook_registry.find(name, wanted.version)
            if found is None:
                problems.append(Problem(("hooks", name), f"no hook {name!r} of version "
                                                         f"{wanted.version} is registered"))
            else:
                hooks[name] = found
        self.effects = EffectCompiler(self.scope, file.texts,
                                      {n: p.params for n, p in file.procedures.items()},
                                      hooks, problems)
        self.procedure_usage: dict[str, Usage] = {}
        for name, proc in file.procedures.items():
            usage = Usage()
            for param, kind in proc.params.items():
                if kind not in _known_types(records):
                    problems.append(Problem(("procedures", name, "params", param),
                                            f"unknown type {kind!r}"))
            run = self.effects.effects(proc.do, self.scope.with_vars(**proc.params),
                                       ("procedures", name, "do"), usage)
            self.effects.procedure_runs[name] = run
            self.procedure_usage[name] = usage
        self._check_calls()
        self.steps: dict[str, CompiledStep] = {}
        for sid, step in file.steps.items():
            usage = Usage()
            run = self.effects.effects(step.do, self.scope, ("steps", sid, "do"), usage)
            self._close_usage(usage)
            self.steps[sid] = CompiledStep(sid, step.rule, step.title, run, usage)
            undeclared = sorted(usage.writes - set(step.writes))
            if undeclared:
                problems.append(Problem(("steps", sid, "writes"),
                                        f"the step writes {', '.join(undeclared)} but does not "
                                        f"declare it"))
            unread = sorted(usage.reads - set(step.reads) - set(step.writes))
            if unread:
                problems.append(Problem(("steps", sid, "reads"),
                                        f"the step reads {', '.join(unread)} but does not "
                                        f"declare it"))
            for key in ("reads", "writes"):
                for i, fact in enumerate(getattr(step, key)):
                    if fact not in file.facts:
                        problems.append(Problem(("steps", sid, key, i), f"unknown fact {fact!r}"))
        self.hooks_used: set[str] = set()
        self.on_begin = self._effects(file.on_begin, ("on_begin",))
        self.on_ended = self._effects(file.on_ended, ("on_ended",))
        self.on_skip = self._effects(file.on_skip, ("on_skip",))
        self.on_leave = self._effects(file.on_departure, ("on_departure",),
                                      player="player", cause="cause")
        self.status_usage: dict[str, Usage] = {}
        self.on_status: dict[str, Run] = {}
        for status, effects in file.on_status.items():
            if status not in file.statuses:
                problems.append(Problem(("on_status", status), f"unknown status {status!r}"))
                continue
            usage = Usage()
            self.on_status[status] = self.effects.effects(
                effects, self.scope.with_vars(player="player", present="bool"),
                ("on_status", status), usage)
            self._close_usage(usage)
            self.status_usage[status] = usage
        self._check_status_cycles()
        self._compile_schedule()
        self._compile_abilities()
        self.victory = [
            (self._expr(v.if_, ("victory", i, "if"), "bool"), v.faction,
             self._expr(v.winners, ("victory", i, "winners"), "list[player]"))
            for i, v in enumerate(file.victory)]
        self.victory_parts, self.victory_facts = keyed_by(
            [e for c, _, w in self.victory for e in (c, w)])
        self._winner_now = keeper(("rf.winner", self), self.victory_parts,
                                  self.victory_facts, self._winner)
        for i, v in enumerate(file.victory):
            if v.faction not in file.factions:
                problems.append(Problem(("victory", i, "faction"),
                                        f"unknown faction {v.faction!r}"))
        self._compile_notices()
        self._check_bot_hints()
        self._compile_view()
        self.status_post = compile_status_post(self)
        check_explanations(self)
        self._compile_setup()
        self._check_texts()
        self._check_forum_votes()
        self.problems += check_rule_index(file, self.source.locator.root)

    def _check_forum_votes(self) -> None:
        """``forum_votes:`` is read by the forum vote counter, never by a rule; the checker
        refuses what would make a count fail or count nothing: a pattern that is no regular
        expression or has no ``name`` group, a zone this machine does not know, a deadline
        that is not HH:MM, a section with neither red votes nor a pattern."""
        votes = self.file.forum_votes
        if votes is None:
            return
        for index, pattern in enumerate(votes.patterns):
            path: tuple[str | int, ...] = ("forum_votes", "patterns", index, "regex")
            try:
                regex = re.compile(pattern.regex)
            except re.error as error:
                self.problems.append(Problem(path, f"not a regular expression: {error}"))
                continue
            if "name" not in regex.groupindex:
                self.problems.append(Problem(path, "a vote pattern needs a group named "
                                                   "'name': (?P<name>...)"))
        if not votes.red and not votes.patterns:
            self.problems.append(Problem(("forum_votes",), "forum votes need red: true or "
                                                           "at least one pattern"))
        if known_zone(votes.timezone) is None:
            self.problems.append(Problem(("forum_votes", "timezone"),
                                         f"unknown time zone {votes.timezone!r}"))
        hour, _, minute = votes.deadline.partition(":")
        try:
            time(int(hour), int(minute))
        except ValueError:
            self.problems.append(Problem(("forum_votes", "deadline"), "a time is HH:MM"))

    def _check_bot_hints(self) -> None:
        """An ability's ``bots: learns:`` names a notice kind the file declares (the hints
        are read by no rule, but a misspelt kind would silently teach the bots nothing)."""
        file = self.file
        for aid, spec in file.abilities.items():
            for index, learns in enumerate(spec.bots.learns if spec.bots else ()):
                path: tuple[str | int, ...] = ("abilities", aid, "bots", "learns", index)
                if learns.notice not in file.notices:
                    self.problems.append(Problem((*path, "notice"),
                                                 f"unknown notice kind {learns.notice!r}"))

    @property
    def bot_hints(self) -> dict[str, dict[str, Any]]:
        """Per ability, how the simulator's heuristic bots play it (``bots:``; ``{}``: the
        default play). Public facts of the rules, read by the bots through
        :class:`~nightfall.sim.bots.base.RulesInfo`."""
        return {aid: spec.bots.model_dump() if spec.bots is not None else {}
                for aid, spec in self.file.abilities.items()}

    @property
    def ability_slots(self) -> dict[str, str]:
        """Per ability, its slot (a bot that follows the crowd reads the votes in it)."""
        return {aid: spec.slot for aid, spec in self.file.abilities.items()}

    def term_names(self) -> list[tuple[str, str, dict[str, str]]]:
        """The display names of the file's terms: (domain, key of the file, names)."""
        file = self.file
        return [
            ("role", "roles", {k: r.title for k, r in file.roles.items()}),
            ("faction", "factions", {k: f.title for k, f in file.factions.items()}),
            ("status", "statuses", {k: s.title for k, s in file.statuses.items()}),
            ("cause", "causes", {k: c.title for k, c in file.causes.items()}),
            ("draw", "draws", dict(file.draws)),
            ("action", "abilities", {k: a.title for k, a in file.abilities.items()}),
            ("slot", "slots", dict(file.slots)),
            ("step", "steps", {k: s.title for k, s in file.steps.items()}),
        ]

    def register_terms(self) -> None:
        """Give the file's terms their display names (done once the file is accepted:
        :func:`compile_rules`, the store's rule files): always in the file's own scope
        (:attr:`term_scope`, which pages of its games are rendered in), so a GM's file may
        title ``seer`` "Oracle" while another rule set says "Seer" (issue 20). In the
        global table a shipped file's names are set as the built-in plugins' are; a GM's
        file sets only names no rule set has given a title yet, so it never changes what
        another game's pages say."""
        own = self.source.sha256 in _shipped_hashes()
        for domain, _, names in self.term_names():
            TermNames.register(domain, names, self.term_scope)
            if own:
                TermNames.register(domain, names)
            else:
                TermNames.register_missing(domain, names)

    def _define(self, head: str, body: Any, functions: dict[str, Function]) -> None:
        match = _DEFINITION.match(head.replace(" ", ""))
        path = ("define", head)
        if match is None:
            self.problems.append(Problem(path, "a definition is NAME or NAME(param: type, ...)"))
            return
        name, params_text = match.group(1), match.group(2) or ""
        params: list[tuple[str, str]] = []
        for part in filter(None, params_text.split(",")):
            pname, _, kind = part.partition(":")
            params.append((pname, kind or "any"))
        if name in functions:
            self.problems.append(Problem(path, f"{name!r} is already a function"))
            return
        scope = Scope(dict(params), functions, self.scope.facts, self.scope.names,
                      self.scope.records, self.scope.keys, self.scope.role_factions)
        try:
            compiled = compile_expr(body, scope)
        except ExprError as error:
            self.problems.append(Problem(path, str(error)))
            return
        run, names = compiled.run, tuple(p for p, _ in params)
        if compiled.inlinable:
            # no comprehension: compiled into every expression that calls it, its
            # arguments' code in place of its parameters (a call and a cache lookup cost
            # more than ``faction(p) == 'changelings'`` itself)
            rules = self

            def direct(env: Env, *args: Any) -> Any:
                inner = {"$state": env.get("$state"), "$rules": rules, "$facts": rules.facts}
                inner.update(zip(names, args, strict=True))
                return run(inner)

            functions[name] = Function(
                tuple(k for _, k in params), compiled.type, direct, compiled.reads,
                facts=compiled.facts, strict=compiled.strict,
                inline=Inline(compiled.tree, tuple(params), scope))
            return
        parts, facts = keyed_by([compiled])
        key, rules = ("rf.define", self, name), self
        if not params and not compiled.reads and not compiled.facts:
            # it reads nothing of the game (only the file's tables: roles, factions):
            # worked out once here, and compiled into its callers as a literal is
            # (``choice not in disguises`` tests a tuple)
            try:
                value = run(self.env(None))
            except Exception as error:  # reported as the file's problem
                self.problems.append(Problem(path, f"cannot work out {name!r}: {error}"))
                return
            functions[name] = Function((), compiled.type, lambda env: copy(value), frozenset(),
                                       strict=compiled.strict, value=value, constant=True)
            return
        if not params:
            # a definition without parameters is a function of the parts of the state it
            # reads: worked out once while they are unchanged (who leads, the mixed
            # couple, the changelings' plan: asked by every player's legal list)
            def compute(state: GameState) -> Any:
                return run(rules.env(state))

            if len(parts) == 1 and not facts:
                (part,) = parts

                def constant(env: Env) -> Any:
                    state = env.get("$state")
                    if state is None:
                        return run(rules.env(None))
                    # ``derived`` inlined: asked for every player of every legal list
                    entry = state.memo.get(key)
                    mark = state.stamp[part]
                    if entry is not None and entry[0] == mark:
                        return entry[1]
                    value = compute(state)
                    state.memo[key] = (mark, value)
                    return value
            elif len(parts) == 2 and not facts:
                one, two = parts

                def constant(env: Env) -> Any:
                    state = env.get("$state")
                    if state is None:
                        return run(rules.env(None))
                    # ``derived`` inlined, the mark of two parts built in place (the
                    # team's choices, their plan, C7.1: the players and the submissions;
                    # read several times a night by every step that asks the plan)
                    entry = state.memo.get(key)
                    stamp = state.stamp
                    mark = (stamp[one], stamp[two])
                    if entry is not None and entry[0] == mark:
                        return entry[1]
                    value = compute(state)
                    state.memo[key] = (mark, value)
                    return value
            else:  # more parts, or facts (C7.1-C7.3's plan reads the lovers)
                known_now = keeper(key, parts, facts, compute)

                def constant(env: Env) -> Any:
                    state = env.get("$state")
                    if state is None:
                        return run(rules.env(None))
                    return known_now(state)

            memo = (key, parts[0]) if len(parts) == 1 and not facts else None
            functions[name] = Function((), compiled.type, constant, compiled.reads,
                                       facts=compiled.facts, strict=compiled.strict,
                                       memo=memo)
            return

        def fresh(state: GameState) -> dict[Any, Any]:
            return {}

        missing = object()
        single = parts[0] if len(parts) == 1 else None
        several = itemgetter(*parts) if len(parts) > 1 else None
        answers_now = keeper(key, parts, facts, fresh) if facts else None

        def call(env: Env, *args: Any) -> Any:
            state = env.get("$state")
            # the answers for given arguments are kept while the parts of the state the
            # definition reads are unchanged (``valid_ballots(slot)`` is asked for every
            # ballot); arguments that are lists are not kept
            known: dict[Any, Any] | None = None
            if state is not None:
                if not facts:  # ``derived`` inlined (most definitions)
                    entry = state.memo.get(key)
                    stamp = state.stamp
                    mark: Any = (stamp[single] if single is not None
                                 else several(stamp) if several is not None else ())
                    if entry is not None and entry[0] == mark:
                        known = entry[1]
                    else:
                        known = {}
                        state.memo[key] = (mark, known)
                else:
                    assert answers_now is not None
                    known = answers_now(state)
                try:
                    found = known.get(args, missing)
                except TypeError:  # an unhashable argument
                    known = None
                else:
                    if found is not missing:
                        return found
            inner = {"$state": state, "$rules": rules, "$facts": rules.facts}
            inner.update(zip(names, args, strict=True))
            value = run(inner)
            if known is not None:
                known[args] = value
            return value

        # called with constants only, it is compiled in place (a call, a memo lookup and
        # an environment of its own cost more than the comprehension over one slot's
        # submissions, asked once per resolution)
        functions[name] = Function(tuple(k for _, k in params), compiled.type, call,
                                   compiled.reads, facts=compiled.facts,
                                   strict=compiled.strict,
                                   inline=Inline(compiled.tree, tuple(params), scope,
                                                 constants_only=True))

    def _check_calls(self) -> None:
        """Trigger cycles: a procedure that calls itself, directly or through others,
        would never end."""
        graph = {name: usage.calls for name, usage in self.procedure_usage.items()}
        for start in _on_a_cycle(graph):
            self.problems.append(Problem(("procedures", start),
                                         f"procedure {start!r} calls itself (a cycle)"))

    def _check_status_cycles(self) -> None:
        """Trigger cycles: a status trigger that (through the triggers it sets off) sets
        its own status again would never end."""
        graph = {status: usage.statuses for status, usage in self.status_usage.items()}
        for start in _on_a_cycle(graph):
            self.problems.append(Problem(("on_status", start),
                                         f"the trigger of {start!r} sets {start!r} "
                                         f"again (a cycle)"))

    def status_changed(self, ctx: Context, player: str, status: str, present: bool) -> None:
        """Run the ``on_status`` trigger of ``status`` (right after the change)."""
        run = self.on_status.get(status)
        if run is not None:
            self._run(run, self.ctx_env(ctx, player=player, present=present))

    def _close_usage(self, usage: Usage) -> None:
        """A step's usage with that of every procedure it calls."""
        pending, seen = list(usage.calls), set()
        while pending:
            name = pending.pop()
            if name in seen or name not in self.procedure_usage:
                continue
            seen.add(name)
            called = self.procedure_usage[name]
            usage.merge(called)
            pending.extend(called.calls)

    def _expr(self, source: Any, path: tuple[str | int, ...], want: str | None = None,
              **variables: str) -> Expr:
        try:
            return compile_expr(source, self.scope.with_vars(**variables), want)
        except ExprError as error:
            self.problems.append(Problem(path, str(error)))
            return compile_expr("none", self.scope)

    def _effects(self, items: Any, path: tuple[str | int, ...], **variables: str) -> Run:
        usage = Usage()
        run = self.effects.effects(items, self.scope.with_vars(**variables), path, usage)
        self._close_usage(usage)
        self.hooks_used |= usage.hooks
        return run

    def _compile_schedule(self) -> None:
        schedule, problems = self.file.schedule, self.problems
        self.windows = {name: self._expr(src, ("schedule", "windows", name), "bool")
                        for name, src in schedule.windows.items()}
        self.stages: dict[tuple[str, int], CompiledStage] = {}
        if _STAGE.match(schedule.first) is None or schedule.first not in schedule.stages:
            problems.append(Problem(("schedule", "first"),
                                    f"unknown stage {schedule.first!r}"))
        for sid, spec in schedule.stages.items():
            path: tuple[str | int, ...] = ("schedule", "stages", sid)
            match = _STAGE.match(sid)
            if match is None or match.group(1) != spec.kind or int(match.group(2)) != spec.stage:
                problems.append(Problem(path, f"a stage is named KIND/STAGE by its kind and "
                                              f"stage ({spec.kind}/{spec.stage}), not {sid!r}"))
            hour, _, minute = spec.deadline.at.partition(":")
            try:
                at = time(int(hour), int(minute))
            except ValueError:
                problems.append(Problem((*path, "deadline", "at"), "a time is HH:MM"))
                at = time(0, 0)
            awaits = None
            if spec.awaits is not None:
                awaits = []
                for i, entry in enumerate(spec.awaits):
                    awaits.append(self._await(entry, (*path, "awaits", i)))
            before = [self._stage_step(s, (*path, "before", i), conditional=True)
                      for i, s in enumerate(spec.before)]
            steps = [self._stage_step(s, (*path, "steps", i))
                     for i, s in enumerate(spec.steps)]
            nexts = []
            for i, entry in enumerate(spec.next):
                where = (*path, "next", i)
                go = entry.get("go")
                if go not in schedule.stages:
                    problems.append(Problem((*where, "go"), f"unknown stage {go!r}"))
                cond = self._expr(entry["if"], (*where, "if"), "bool") if "if" in entry else None
                number = (self._expr(entry["number"], (*where, "number"), "int")
                          if "number" in entry else None)
                for key in entry:
                    if key not in ("go", "if", "number"):
                        problems.append(Problem((*where, key), f"unknown key {key!r}"))
                nexts.append((cond, str(go), number))
            if not spec.next or "if" in spec.next[-1]:
                problems.append(Problem((*path, "next"), "the last entry of next needs no "
                                                         "'if': play must go on somewhere"))
            self.stages[(spec.kind, spec.stage)] = CompiledStage(
                sid, spec.kind, spec.stage, spec.label, DeadlineRule(at, spec.deadline.days,
                                                                     "UTC"),
                awaits, [s for s in before if s is not None], [s for s in steps if s is not None],
                self._effects(spec.after, (*path, "after")),
                self._effects(spec.on_start, (*path, "on_start")), nexts,
                *keyed_by([e for entry in awaits or () for e in entry
                           if isinstance(e, Expr)]))
            self._check_order(sid, [s for s in [*before, *steps] if s is not None], path)
            self._bind_awaits(self.stages[(spec.kind, spec.stage)])

    def _bind_awaits(self, stage: CompiledStage) -> None:
        """The memo keys and compute functions of what ``stage`` awaits (``_missing``),
        and the engine's steps of its resolution."""
        stage.engine_before = self._engine_steps(stage.before, 0)
        stage.before_conditions = tuple((s.id, s.condition) for s in stage.before)
        stage.engine_steps = self._engine_steps(stage.steps, 1)
        stage.wanted_key = ("rf.wanted", self, stage.id)
        stage.missing_key = ("rf.missing", self, stage.id)

        def wanted(state: GameState) -> frozenset[tuple[str, str]]:
            return self._wanted(state, stage)

        def still_missing(state: GameState) -> frozenset[tuple[str, str]]:
            return self._still_missing(state, stage)

        def by_player(state: GameState) -> dict[str, list[str]]:
            found: dict[str, list[str]] = {}
            for name, slot in stage.wanted_now(state):
                found.setdefault(name, []).append(slot)
            for slots in found.values():
                slots.sort()
            return found

        stage.wanted, stage.still_missing, stage.by_player = wanted, still_missing, by_player
        stage.alive_by_role, stage.other_awaits = {}, []
        for entry in stage.awaits or ():
            var, over, cond, who, slot = entry
            by_role = cond.role_filter if cond is not None else None
            if (who is not None or by_role is None or by_role[0] != var
                    or over.source.replace(" ", "") != "alive()"):
                stage.other_awaits.append(entry)
                continue
            constant = None
            if not slot.variables and not slot.reads and not slot.facts:
                constant = slot.run(self.env(None))  # ``'kill'``: a name, known at load
            for role in by_role[1]:
                stage.alive_by_role.setdefault(role, []).append(
                    (var, by_role[2], slot.run if constant is None else None, constant))
        stage.by_player_key = ("rf.awaited", self, stage.id)
        stage.wanted_now = keeper(stage.wanted_key, stage.await_parts, stage.await_facts,
                                  wanted)
        stage.missing_now = keeper(stage.missing_key, stage.missing_parts,
                                   stage.await_facts, still_missing)
        stage.by_player_now = keeper(stage.by_player_key, stage.await_parts,
                                     stage.await_facts, by_player)

    def _await(self, entry: Mapping[str, Any], path: tuple[str | int, ...]
               ) -> tuple[str, Expr, Expr | None, Expr | None, Expr]:
        var = str(entry.get("for", "p"))
        over = self._expr(entry.get("in", "alive()"), (*path, "in"), "list[player]")
        variables = {var: "player"}
        cond = (self._expr(entry["if"], (*path, "if"), "bool", **variables)
                if "if" in entry else None)
        who = self._expr(entry["who"], (*path, "who"), "player") if "who" in entry else None
        slot = self._expr(entry.get("slot"), (*path, "slot"), "slot", **variables)
        for key in entry:
            if key not in ("for", "in", "if", "who", "slot"):
                self.problems.append(Problem((*path, key), f"unknown key {key!r}"))
        return var, over, cond, who, slot

    def _stage_step(self, entry: str | Mapping[str, Any], path: tuple[str | int, ...],
                    conditional: bool = False) -> CompiledStep | None:
        sid = entry if isinstance(entry, str) else entry.get("step")
        step = self.steps.get(str(sid))
        if step is None:
            self.problems.append(Problem(path, f"unknown step {sid!r}"))
            return None
        condition = None
        if isinstance(entry, Mapping) and "if" in entry:
            condition = self._expr(entry["if"], (*path, "if"), "bool")
        elif conditional:
            self.problems.append(Problem(path, "a step before the numbered ones needs 'if'"))
        return CompiledStep(step.id, step.rule, step.title, step.run, step.usage, condition)

    def _check_order(self, stage: str, steps: Sequence[CompiledStep],
                     path: tuple[str | int, ...]) -> None:
        """Reads before writes: a fact kept for one resolution must be written by an
        earlier step of the stage before a step reads it."""
        transient = {n for n, f in self.file.facts.items() if f.lasts == "resolution"}
        written: set[str] = set()
        for index, step in enumerate(steps):
            declared = self.file.steps[step.id]
            for fact in sorted(set(declared.reads) & transient - written):
                later = next((s.id for s in steps[index + 1:]
                              if fact in self.file.steps[s.id].writes), None)
                where = f" before step {later!r} writes it" if later else (
                    ", which no earlier step writes")
                self.problems.append(Problem(
                    ("steps", step.id, "reads"),
                    f"in stage {stage} step {step.id!r} reads {fact!r}{where}"))
            written |= set(declared.writes)

    # -- abilities -----------------------------------------------------------------------
    def _compile_abilities(self) -> None:
        #: what each check function reads (parts of the state, and ACTOR): the engine
        #: shares a check's verdicts between players while those parts are unchanged
        self.check_reads: dict[object, tuple[int, ...]] = {}
        #: C2.7: per generic ability, whether a player who left may still use it
        self.after_leaving: dict[str, Expr] = {}
        self.in_game = ForActor(self._in_game)
        abilities = [self._ability(aid, spec) for aid, spec in self.file.abilities.items()]
        self.book = AbilityBook(abilities, reads=self.check_reads)
        self.does: dict[str, Run] = {}
        #: the abilities whose command is just submitted in its slot (``does`` left as
        #: it is by default): handled without an environment
        self.plain_submit: frozenset[str] = frozenset(
            aid for aid, spec in self.file.abilities.items() if spec.does == [{"submit": True}])
        variables = _COMMAND_VARS
        for aid, spec in self.file.abilities.items():
            self.does[aid] = self._effects(spec.does, ("abilities", aid, "does"), **variables)
        self._check_reachable()

    def _ability(self, aid: str, spec: AbilitySpec) -> Ability:
        path: tuple[str | int, ...] = ("abilities", aid)
        roles: set[str] = set()
        for i, who in enumerate(spec.who):
            if who.startswith("tag:"):
                tagged = {r for r, role in self.file.roles.items() if who[4:] in role.tags}
                if not tagged:
                    self.problems.append(Problem((*path, "who", i), f"no role has the tag "
                                                                    f"{who[4:]!r}"))
                roles |= tagged
            elif who in self.file.roles:
                roles.add(who)
            else:
                self.problems.append(Problem((*path, "who", i), f"unknown role {who!r}"))
        window = None
        if spec.when != "always":
            window = self.windows.get(spec.when)
            if window is None:
                self.problems.append(Problem((*path, "when"), f"unknown window {spec.when!r}"))
        rules = self
        actor_checks: list[ActorStep] = []
        if spec.generic:
            self.after_leaving[aid] = self._expr(spec.after_leaving, (*path, "after_leaving"),
                                                 "bool", actor="player")
            actor_checks.append(self.in_game)
            actor_checks.append(has_role)
            if window is not None:
                test = window.run

                def in_window(state: GameState, ability: Ability, actor: str) -> Text | None:
                    if test(rules.env(state)):
                        return None
                    return not_now(ability.action, state.phase_label)

                actor_checks.append(OnPhase(in_window))
        checks = [self._check(spec, i, (*path, "checks", i)) for i in range(len(spec.checks))]
        choices = None
        if spec.choices is not None:
            found = self._expr(spec.choices, (*path, "choices"), "list")
            try:
                choices = tuple(found.run(self.env(None)) or ())
            except Exception as error:  # an expression that needs a game
                self.problems.append(Problem((*path, "choices"), f"choices must not depend "
                                                                 f"on the game: {error}"))
        targets = ANY if spec.targets == "any" else spec.targets
        return Ability(aid, spec.rule, spec.slot, frozenset(roles) if spec.who else None,
                       targets=targets, self_target=spec.self_target, standing=spec.standing,
                       actor_checks=tuple(actor_checks),
                       checks=tuple(c for c in checks if c is not None),
                       choices=choices, offered=spec.offered)

    def _in_game(self, state: GameState, actor: str) -> Callable[[Ability], Text | None] | None:
        """C2.7: a player who left acts no more, but for the abilities whose
        ``after_leaving`` holds. One check for all of a player's abilities (a
        :class:`ForActor`: the listing prepares it once per list, not once per ability),
        which refuses a player still in the game nothing."""
        if state.players[actor].alive:
            return None
        env = self.env(state, actor=actor)
        after = self.after_leaving

        def check(ability: Ability) -> Text | None:
            found = after.get(ability.action)
            return None if found is not None and found.run(env) else refusal(_LEFT_GAME)

        return check

    def _check(self, spec: AbilitySpec, index: int, path: tuple[str | int, ...]) -> Check | None:
        """One refusal, classified by what its condition reads: the target (a target
        check, prepared per actor if it also reads the actor), the command (a command
        check), only the phase (a phase check) or else the actor."""
        check = spec.checks[index]
        cond = self._expr(check.if_, (*path, "if"), "bool", **_COMMAND_VARS)
        usage = Usage()
        text = self.effects.text(check.refuse, check.params,
                                 self.scope.with_vars(**_COMMAND_VARS), (*path, "refuse"), usage)
        if text is None:
            return None
        if (spec.targets == 2 and not check.params and _names_one_player_twice(cond.tree)
                and text(self.env(None)) == two_different(GameState(), _PAIR, _TWICE)):
            # the engine's own check, refusing with the same text: the listing skips it,
            # since the pairs it offers are of two different players by construction
            return OnCommand(two_different)
        used = cond.variables | {v for source in check.params.values()
                                 for v in _variables(source, self.scope)}
        test = cond.run
        reads = parts_of([cond]) + ((ACTOR,) if "actor" in used else ())
        check_fn = self._check_function(test, text, used, reads, cond)
        if not isinstance(check_fn, (OnCommand, ForTargets)):
            inner = check_fn.check if isinstance(check_fn, (OnTarget, OnPhase)) else check_fn
            if not (FLAGS in reads and ACTOR not in reads and cond.inlinable
                    and not isinstance(check_fn, (OnTarget, OnPhase))):
                self.check_reads[inner] = reads
            # else: an actor check that reads the flags but not the actor (C7.4's
            # ``replace_used == true``, C13.2's ``attack == none``) and no comprehension
            # is not declared, so the listing asks it per actor instead of sharing its
            # verdict among the players of a stage: every fact a step writes moves the
            # flags' counter, so a shared verdict was worked out again every stage, and
            # keeping it cost every list of those roles the memo's bookkeeping (more
            # than one test of a flag)
        return check_fn

    def _check_function(self, test: Callable[[Env], Any], text: Callable[[Env], Text],
                        used: frozenset[str] | set[str], reads: tuple[int, ...], cond: Expr
                        ) -> Check:
        # the environments are built here as literals: a check runs for every ability of
        # every player of every legal list
        rules, facts = self, self.facts
        if used & {"command", "choice", "text", "targets"}:
            def on_command(state: GameState, ability: Ability, command: Command) -> Text | None:
                env = rules.command_env(state, command)
                return text(env) if test(env) else None

            return OnCommand(on_command)
        if "target" in used:
            split = _free_start(cond)
            if split is not None:
                return ForTargets(self._refuse_when(*split, text))
            if "actor" in used:
                if cond.equals is not None and cond.equals[0] == "target":
                    return ForTargets(self._refuse_one(cond.equals[1], text))

                def prepare(state: GameState, ability: Ability, actor: str
                            ) -> Callable[[str], Text | None]:
                    env = {"$state": state, "$rules": rules, "$facts": facts, "actor": actor}

                    def on(target: str) -> Text | None:
                        env["target"] = target  # one environment for all targets
                        return text(env) if test(env) else None

                    return on

                return ForTargets(prepare)

            def on_target(state: GameState, ability: Ability, actor: str, target: str
                          ) -> Text | None:
                env = {"$state": state, "$rules": rules, "$facts": facts, "actor": actor,
                       "target": target}
                return text(env) if test(env) else None

            return OnTarget(on_target)

        fixed = self.effects.fixed_texts.get(text)
        if fixed is not None and cond.nothing_awaited_of == "actor":
            # ``len(awaited(actor)) == 0`` (the pass, C2.3: every legal list): the rule
            # set asked whether anything is awaited, no environment and no list built
            awaits_any = self.awaits_any
            refused = fixed

            def nothing_awaited(state: GameState, ability: Ability, actor: str
                                ) -> Text | None:
                return None if awaits_any(state, actor) else refused

            return nothing_awaited
        if fixed is not None and cond.of_lookups is not None and cond.of_player is not None \
                and cond.of_player[0] == "actor" and used == {"actor"}:
            # C5.3's ``leader != actor``, C5.4's ``succession != actor and leader !=
            # actor`` (every legal list asks both): each fact or kept definition read in
            # place, the same verdicts as the condition's
            lookups, static = cond.of_lookups, {"$rules": rules, "$facts": facts}

            def on_actor(state: GameState, ability: Ability, actor: str) -> Text | None:
                for lookup in lookups:
                    if (lookup_value(lookup, state, static) == actor) is not lookup[4]:
                        return None  # a term is false: not refused
                return fixed
        elif fixed is not None and cond.of_player is not None and cond.of_player[0] == "actor" \
                and used == {"actor"}:
            # a test of the actor's value alone (C3.1's ``has(actor, 'voiceless')`` and
            # the unvote's ``sub(actor, 'vote') == none and …``): asked without an
            # environment, the same verdicts
            of_actor, static = cond.of_player[1], {"$rules": rules, "$facts": facts}

            def on_actor(state: GameState, ability: Ability, actor: str) -> Text | None:
                return fixed if of_actor(static, state, actor) else None
        elif fixed is not None:
            # a refusal without parameters, returned as it is (most actor checks refuse
            # most players: not the leader, nothing awaited from you)
            def on_actor(state: GameState, ability: Ability, actor: str) -> Text | None:
                return fixed if test({"$state": state, "$rules": rules, "$facts": facts,
                                      "actor": actor}) else None
        else:
            def on_actor(state: GameState, ability: Ability, actor: str) -> Text | None:
                env = {"$state": state, "$rules": rules, "$facts": facts, "actor": actor}
                return text(env) if test(env) else None

        if "actor" not in used and not cond.facts and cond.reads <= {PHASE}:
            return OnPhase(on_actor)
        return on_actor

    def _refuse_when(self, first: Callable[[Env], Any], rest: Callable[[Env], Any],
                     text: Callable[[Env], Text]
                     ) -> Callable[[GameState, Ability, str], Callable[[str], Text | None] | None]:
        """A target check ``A and B`` whose first terms A do not read the target (C5.3's
        ``phase.kind == 'day' and phase.stage == 2 and target not in tied``): A is asked
        once per actor (a target check was asked it for every player of the pool), and
        when it does not hold no target is refused and the listing skips the check; B is
        asked per target. The same verdicts: A reads nothing that a target changes."""
        rules, facts = self, self.facts

        def prepare(state: GameState, ability: Ability, actor: str
                    ) -> Callable[[str], Text | None] | None:
            env = {"$state": state, "$rules": rules, "$facts": facts, "actor": actor}
            if not first(env):
                return None

            def on(target: str) -> Text | None:
                env["target"] = target  # one environment for all targets
                return text(env) if rest(env) else None

            return on

        return prepare

    def _refuse_one(self, other: Callable[[Env], Any], text: Callable[[Env], Text]
                    ) -> Callable[[GameState, Ability, str], Callable[[str], Text | None] | None]:
        """A check ``target == OTHER`` (C8.2: not your lover; C12.2: not the one you
        shielded last): OTHER is worked out once per actor, and when it is nobody no
        target is refused and the listing skips the check (a target is always a
        player's name, never ``none``)."""
        rules, facts = self, self.facts

        def prepare(state: GameState, ability: Ability, actor: str
                    ) -> Callable[[str], Text | None] | None:
            env = {"$state": state, "$rules": rules, "$facts": facts, "actor": actor}
            refused = other(env)
            if refused is None:
                return None

            def on(target: str) -> Text | None:
                if target != refused:
                    return None
                env["target"] = target
                return text(env)

            return on

        return prepare

    def _check_reachable(self) -> None:
        """An ability no stage's window admits can never be used."""
        stages = [Phase(kind, number, stage) for kind, stage in self.stages
                  for number in (1, 2, 3)]
        for aid, spec in self.file.abilities.items():
            window = self.windows.get(spec.when)
            if window is None or window.reads - {PHASE} or window.facts:
                continue
            if not any(_phase_true(window, self, phase) for phase in stages):
                self.problems.append(Problem(("abilities", aid, "when"),
                                             f"no stage of the schedule admits {aid!r}: "
                                             f"the ability is unreachable"))

    # -- texts ---------------------------------------------------------------------------
    def _compile_notices(self) -> None:
        self.notices: dict[str, list[tuple[Expr, Callable[[Env], Text]]]] = {}
        for kind, entries in self.file.notices.items():
            found = []
            for i, entry in enumerate(entries):
                path = ("notices", kind, i)
                cond = self._expr(entry.if_, (*path, "if"), "bool", notice="any")
                text = self.effects.text(entry.text, entry.params,
                                         self.scope.with_vars(notice="any"), path, Usage())
                if text is not None:
                    found.append((cond, text))
            self.notices[kind] = found

    def _check_texts(self) -> None:
        """Every declared language has a translation of every text and name."""
        from nightfall.i18n import SUPPORTED_LOCALES

        file = self.file
        msgids: list[tuple[tuple[str | int, ...], str]] = [
            (("texts", k), m) for k, m in file.texts.items()]
        msgids += self._titles()
        for i, language in enumerate(file.languages):
            if language not in SUPPORTED_LOCALES:
                self.problems.append(Problem(("languages", i), f"unknown language "
                                                               f"{language!r}"))
                continue
            if language == "en":
                continue
            translated = _catalog(language)
            for path, msgid in msgids:
                if msgid not in translated:
                    self.problems.append(Problem(path, f"no {language} translation of "
                                                       f"{msgid!r}"))

    def _titles(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Every name the pages show translated, with its key path: the file's title, the
        options' titles, the presets' descriptions and the title of every term — faction,
        role, status, cause, draw, ability, slot, step (:meth:`term_names`)."""
        file = self.file
        found: list[tuple[tuple[str | int, ...], str]] = [(("title",), file.title)]
        found += [(("options", k, "title"), o.title) for k, o in file.options.items() if o.title]
        for _, key, names in self.term_names():
            found += [((key, name) if key in ("draws", "slots") else (key, name, "title"), title)
                      for name, title in names.items()]
        found += [(("presets", k, "description"), p.description)
                  for k, p in file.presets.items() if p.description]
        return found

    # -- view ----------------------------------------------------------------------------
    def _compile_view(self) -> None:
        view = self.file.view
        self.role_seen = self._expr(view.role_seen, ("view", "role_seen"), "bool",
                                    viewer="player", p="player")
        self.status_seen = self._expr(view.status_seen, ("view", "status_seen"), "bool",
                                      viewer="player", p="player", s="status")
        #: C1.7's ``team(viewer) and team(p)``: the terms that read only the viewer asked
        #: once per view, the rest per player (``view.project``)
        self.role_seen_split = _free_start(self.role_seen, "p")
        self.me_fields: dict[str, tuple[Expr, Expr | None]] = {}
        for key, spec in view.me.items():
            path: tuple[str | int, ...] = ("view", "me", key)
            if isinstance(spec, dict):  # {value: expression, if: condition}
                self.me_fields[key] = (
                    self._expr(spec.get("value"), (*path, "value"), None, viewer="player"),
                    self._expr(spec.get("if", True), (*path, "if"), "bool", viewer="player"))
            else:
                self.me_fields[key] = (self._expr(spec, path, None, viewer="player"), None)
        self.public_statuses = frozenset(k for k, s in self.file.statuses.items() if s.public)
        self.notes: dict[str, tuple[Expr, list[tuple[str | None, Expr | None, Expr,
                                                     Callable[[Env], Text]]]]] = {}
        for field_name, notes in view.notes.items():
            path = ("view", "notes", field_name)
            shown = self._expr(notes.if_, (*path, "if"), "bool", viewer="player")
            lines = []
            for i, note in enumerate(notes.lines):
                where = (*path, "lines", i)
                variables = {"viewer": "player"}
                over = None
                if note.for_ is not None:
                    over = self._expr(note.in_, (*where, "in"), "list", viewer="player")
                    variables[note.for_] = (over.type[5:-1] if over.type.startswith("list[")
                                            else "any")
                cond = self._expr(note.if_, (*where, "if"), "bool", **variables)
                text = self.effects.text(note.text, note.params,
                                         self.scope.with_vars(**variables), where, Usage())
                if text is not None:
                    lines.append((note.for_, over, cond, text))
            self.notes[field_name] = (shown, lines)

    def _compile_setup(self) -> None:
        deal = self.file.deal
        for name, preset in self.file.presets.items():
            for i, role in enumerate(preset.roles):
                if role not in self.file.roles:
                    self.problems.append(Problem(("presets", name, "roles", i),
                                                 f"unknown role {role!r}"))
        self.deal_let: list[tuple[str, Expr]] = []
        self.deal_roles: Expr | None = None
        if deal is not None:
            variables = {"n": "int"}
            for name, source in deal.let.items():
                found = self._expr(source, ("deal", "let", name), None, **variables)
                self.deal_let.append((name, found))
                variables[name] = found.type
            self.deal_roles = self._expr(deal.roles, ("deal", "roles"), "list[role]",
                                         **variables)

    # -- environments --------------------------------------------------------------------
    def env(self, state: GameState | None, **variables: Any) -> Env:
        if not variables:  # (most callers: the kept questions, the win check)
            return {"$state": state, "$rules": self, "$facts": self.facts}
        return {"$state": state, "$rules": self, "$facts": self.facts, **variables}

    def command_env(self, state: GameState, command: Command) -> Env:
        return {"$state": state, "$rules": self, "$facts": self.facts, "actor": command.by,
                "target": command.target, "command": command,
                "targets": list(command.all_targets), "choice": command.choice,
                "text": command.text}

    def ctx_env(self, ctx: Context, **variables: Any) -> Env:
        return {"$state": ctx.state, "$rules": self, "$facts": self.facts, "$ctx": ctx,
                **variables}

    # -- the plugin interface: phases ----------------------------------------------------
    def _stage(self, phase: Phase) -> CompiledStage | None:
        return self.stages.get((phase.kind, phase.stage))

    def first_phase(self, state: GameState) -> Phase:
        kind, _, stage = self.file.schedule.first.partition("/")
        return Phase(kind, 1, int(stage))

    def next_phase(self, state: GameState) -> Phase:
        stage = self._stage(state.phase)
        assert stage is not None
        env = self.env(state)
        for cond, go, number in stage.next:
            if cond is None or cond.run(env):
                kind, _, part = go.partition("/")
                value = number.run(env) if number is not None else state.phase.number
                return Phase(kind, int(value), int(part))
        # unreachable: the checker refuses a stage whose last ``next`` has an ``if``
        raise RuntimeError(f"the schedule has no stage after {state.phase_label}")

    def phase_label(self, phase: Phase) -> str:
        stage = self._stage(phase)
        if stage is None:
            return phase.kind
        return stage.label.format(number=phase.number)

    def deadline_rule(self, state: GameState, phase: Phase) -> DeadlineRule | None:
        stage = self._stage(phase)
        if stage is None:
            return None
        tz = str(state.options.get("timezone") or "UTC")
        return DeadlineRule(stage.deadline.at, stage.deadline.day_offset, tz)

    def check_options(self, options: Mapping[str, Any]) -> None:
        super().check_options(options)
        if options.get("rules_file") != self.rules_file:
            raise SetupError(N_("This game was played with another rule file ({found}); "
                                "this one is {wanted}."),
                             found=str(options.get("rules_file")), wanted=self.rules_file)

    # -- play ----------------------------------------------------------------------------
    def _run(self, run: Run, env: Env) -> None:
        try:  # noqa: SIM105 - no context manager per call: a hot path
            run(env)
        except Stop:  # ``stop``: the rest of the list is skipped
            pass

    def begin(self, ctx: Context) -> None:
        self._run(self.on_begin, self.ctx_env(ctx))

    def on_phase_start(self, ctx: Context) -> None:
        if ctx.state.phase.kind == ENDED:
            self._run(self.on_ended, self.ctx_env(ctx))
            return
        stage = self._stage(ctx.state.phase)
        if stage is not None:
            self._run(stage.on_start, self.ctx_env(ctx))

    def handle(self, ctx: Context, command: Command) -> None:
        ability = self.book.check(ctx.state, command)
        if ability.action in self.plain_submit:  # most commands: the ``submit`` effect
            ctx.submit(command, ability.slot, standing=ability.standing)
            return
        env = self.command_env(ctx.state, command)
        env["$ctx"], env["$ability"] = ctx, ability
        self._run(self.does[ability.action], env)

    def resolve(self, ctx: Context) -> None:
        stage = self._stage(ctx.state.phase)
        if stage is None:
            return
        if stage.before:
            env = self.env(ctx.state)
            before = []
            for step, (_, condition) in zip(stage.engine_before, stage.before_conditions,
                                            strict=True):
                if condition is None or condition.run(env):
                    before.append(step)
            if before:
                ctx.run_steps(before)
        if stage.engine_steps:
            ctx.run_steps(stage.engine_steps)
        self._run(stage.after, self.ctx_env(ctx))

    def _engine_steps(self, steps: Sequence[CompiledStep], start: int) -> tuple[Step, ...]:
        """The engine's steps of a stage (the steps before the numbered ones are numbered
        0), made once at load (they were made per resolution)."""
        return tuple(Step(number if start else 0, step.id, step.rule,
                          self._step_runner(step.run), step.title)
                     for number, step in enumerate(steps, start))

    def _step_runner(self, run: Run) -> Callable[[Context], None]:
        rules, facts = self, self.facts

        def step(ctx: Context) -> None:
            try:  # noqa: SIM105 - no context manager per call: a hot path
                run({"$state": ctx.state, "$rules": rules, "$facts": facts, "$ctx": ctx})
            except Stop:
                pass

        return step

    def skip(self, ctx: Context) -> None:
        self._run(self.on_skip, self.ctx_env(ctx))

    def on_departure(self, ctx: Context, player: str, cause: str) -> None:
        self._run(self.on_leave, {"$state": ctx.state, "$rules": self, "$facts": self.facts,
                                  "$ctx": ctx, "player": player, "cause": cause})

    def awaiting_inputs(self, state: GameState) -> set[tuple[str, str]] | None:
        missing = self._missing(state)
        return None if missing is None else set(missing)

    def all_inputs_in(self, state: GameState) -> bool:
        """Asked after every command (C2.3, early close): whether the submissions hold
        every input of the kept set of what the stage awaits (one superset test, as the
        plugin does; the set of what is missing is not built)."""
        stage = self.stages.get((state.phase.kind, state.phase.stage))
        if stage is None or stage.awaits is None:
            return False
        return state.submissions.keys() >= stage.wanted_now(state)

    def _missing(self, state: GameState) -> frozenset[tuple[str, str]] | None:
        """The inputs the stage still waits for (``None``: it never closes early), kept
        while the parts of the state its ``awaits`` read and the submissions are
        unchanged: every command asks (early close), and every legal list (``awaited``,
        the pass)."""
        stage = self._stage(state.phase)
        if stage is None or stage.awaits is None:
            return None
        missing: frozenset[tuple[str, str]] = stage.missing_now(state)
        return missing

    def _still_missing(self, state: GameState, stage: CompiledStage
                       ) -> frozenset[tuple[str, str]]:
        wanted = stage.wanted_now(state)
        submissions = state.submissions
        return frozenset(key for key in wanted if key not in submissions)

    def awaited_slots(self, state: GameState, player: str) -> list[str]:
        """The slots the stage still waits for from ``player``, in order (the function
        ``awaited``: the pass of C2.3 asks it on every legal list)."""
        stage = self.stages.get((state.phase.kind, state.phase.stage))
        if stage is None or stage.awaits is None:
            return []
        # what the stage awaits by player, kept while what the awaits read is unchanged
        # (the missing set changes with every command: the lists come one per command)
        by_player: dict[str, list[str]] = stage.by_player_now(state)
        slots = by_player.get(player)
        if not slots:
            return []
        submissions = state.submissions
        found = []
        for slot in slots:  # a loop: a comprehension is a call of its own
            if (player, slot) not in submissions:
                found.append(slot)
        return found

    def awaits_any(self, state: GameState, player: str) -> bool:
        """Whether the stage still waits for anything from ``player``
        (``len(awaited(player)) > 0`` without the list)."""
        stage = self.stages.get((state.phase.kind, state.phase.stage))
        if stage is None or stage.awaits is None:
            return False
        slots = stage.by_player_now(state).get(player)
        if not slots:
            return False
        submissions = state.submissions
        for slot in slots:  # noqa: SIM110 - a loop: a generator is a call of its own
            if (player, slot) not in submissions:
                return True
        return False

    def _wanted(self, state: GameState, stage: CompiledStage) -> frozenset[tuple[str, str]]:
        """Every input the stage awaits, given or not (kept while the parts of the state
        its ``awaits`` read are unchanged)."""
        assert stage.awaits is not None
        wanted: set[tuple[str, str]] = set()
        base = self.env(state)
        of_role = stage.alive_by_role
        if of_role:
            # one pass over the living players for every entry over ``alive()`` with a
            # role filter: each player's role read once, the entries of that role asked
            # (an expression changes nothing, so the order they are asked in does not
            # matter; each reads only its own name)
            players = state.players
            for name in alive_pool(state):
                entries = of_role.get(players[name].role)
                if entries is None:
                    continue
                for var, rest, which, constant in entries:
                    base[var] = name
                    if rest is None or rest(base):
                        wanted.add((name, constant if which is None else which(base)))
        for var, over, cond, who, slot in stage.other_awaits:
            if who is not None:
                player = who.run(base)
                if player is not None:
                    wanted.add((player, slot.run(base)))
                continue
            # the player bound in one environment (a copy per player cost more than the
            # tests); each entry binds its own name, set afresh for every player
            test = cond.run if cond is not None else None
            which = slot.run
            by_role = cond.role_filter if cond is not None else None
            if by_role is not None and by_role[0] == var:
                # ``if: "role(p) == 'shield'"``: each role read in place, the rest of the
                # test asked only of those it admits
                _, roles, rest = by_role
                players = state.players
                for name in list(over.run(base)):
                    p = players.get(name)
                    if p is not None and p.role in roles:
                        base[var] = name
                        if rest is None or rest(base):
                            wanted.add((name, which(base)))
            else:
                for name in list(over.run(base)):
                    base[var] = name
                    if test is None or test(base):
                        wanted.add((name, which(base)))
            base.pop(var, None)
        return frozenset(wanted)

    def winner(self, state: GameState) -> tuple[str, tuple[str, ...]] | None:
        """C1-style win conditions in order; worked out once while the parts of the state
        they read are unchanged."""
        found: tuple[str, tuple[str, ...]] | None = self._winner_now(state)
        return found

    def _winner(self, state: GameState) -> tuple[str, tuple[str, ...]] | None:
        env = self.env(state)
        for cond, faction, winners in self.victory:
            if cond.run(env):
                return faction, tuple(winners.run(env) or ())
        return None

    def leader(self, state: GameState) -> str | None:
        function = self.scope.functions.get("leader")
        if function is None or function.params:
            return None
        found: str | None = function.run(self.env(state))
        return found

    # -- texts ---------------------------------------------------------------------------
    def notice_text(self, notice: Mapping[str, Any]) -> Text:
        env = self.env(None, notice=dict(notice))
        for cond, text in self.notices.get(str(notice.get("kind")), ()):
            if cond.run(env):
                return text(env)
        return super().notice_text(notice)

    def role_text(self, role: str) -> Text:
        spec = self.file.roles.get(role)
        msgid = self.file.texts[spec.text] if spec is not None and spec.text else N_(
            "You are {role}.")
        return Text(msgid, {"role": Term("role", role)})

    # -- views ---------------------------------------------------------------------------
    def project(self, state: GameState, player: str | None) -> dict[str, Any]:
        from nightfall.rulefile.view import project

        return project(self, state, player)

    def gm_view(self, state: GameState) -> dict[str, Any]:
        from nightfall.rulefile.view import project

        return project(self, state, None, gm=True)

    def legal_commands(self, state: GameState, player: str) -> list[Command]:
        if state.ended:
            return []
        return self.book.legal_commands(state, player, alive_pool(state))

    # -- setup ---------------------------------------------------------------------------
    def presets(self) -> Mapping[str, Preset]:
        return {name: Preset(name, tuple(p.roles), description=p.description)
                for name, p in self.file.presets.items()}

    def roles_for(self, player_count: int) -> tuple[str, ...]:
        deal = self.file.deal
        if deal is None or self.deal_roles is None:
            raise ValueError("this rule file has no deal")
        if not deal.min_players <= player_count <= deal.max_players:
            raise ValueError(f"presets exist for {deal.min_players}–{deal.max_players} "
                             f"players")
        env = self.env(None, n=player_count)
        for name, expr in self.deal_let:
            env[name] = expr.run(env)
        return tuple(self.deal_roles.run(env))


#: the parts of the engine state (``engine/state.py``) each kind of read is in
_PARTS = {READS_PLAYERS: PLAYERS, PHASE: PHASE_PART, OPTIONS: PHASE_PART, SUBS: SUBMISSIONS,
          FLAG_READS: FLAGS}


def keyed_by(exprs: Sequence[Any]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """What a kept answer of the expressions is keyed by (``kept.py``): the parts of the
    state they read but the flags (unless they read the flags in general), and the facts
    they read, each by its own version; at least one part, so that it is a mark."""
    parts = tuple(sorted({_PARTS[r] for e in exprs for r in e.reads if r in _PARTS}))
    facts = tuple(sorted({f for e in exprs for f in e.facts}))
    return parts or (PHASE_PART,), facts


def _free_start(cond: Expr, name: str = "target") -> tuple[Compiled, Compiled] | None:
    """Of a condition ``a and b and …``, the code of its first terms that do not read
    ``name`` and of the rest, if both are there (see ``_refuse_when``; the view's
    ``role_seen``, whose first terms read only the viewer)."""
    terms = cond.and_terms
    if terms is None:
        return None
    free = 0
    while free < len(terms) and name not in terms[free][1]:
        free += 1
    if free == 0 or free == len(terms):
        return None
    first, rest = [run for run, _ in terms[:free]], [run for run, _ in terms[free:]]
    return (first[0] if len(first) == 1 else all_of(tuple(first)),
            rest[0] if len(rest) == 1 else all_of(tuple(rest)))


def parts_of(exprs: Sequence[Any]) -> tuple[int, ...]:
    """The parts of the state the expressions read (facts are flags)."""
    parts = {_PARTS[r] for e in exprs for r in e.reads if r in _PARTS}
    if any(e.facts for e in exprs):
        parts.add(FLAGS)
    return tuple(sorted(parts))


_COMMAND_VARS = {"actor": "player", "target": "player", "command": "any",
                 "targets": "list[player]", "choice": "str", "text": "str"}


def _variables(source: Any, scope: Scope) -> frozenset[str]:
    try:
        return compile_expr(source, scope.with_vars(**_COMMAND_VARS)).variables
    except ExprError:
        return frozenset()


#: a command that names one player twice (what :func:`two_different` refuses)
_TWICE = Command("", "", targets=("", ""))
_PAIR = Ability("", "", "", targets=2)


def _names_one_player_twice(tree: Any) -> bool:
    """Whether an expression's parse tree is ``targets[0] == targets[1]`` (either way
    round): the command names one player twice."""
    if tree is None or getattr(tree, "data", None) != "compare":
        return False
    left, op, right = tree.children
    if str(op) != "==":
        return False
    found = []
    for side in (left, right):
        if getattr(side, "data", None) != "index":
            return False
        base, index = side.children
        if (getattr(base, "data", None) != "name" or str(base.children[0]) != "targets"
                or getattr(index, "data", None) != "int_"):
            return False
        found.append(int(index.children[0]))
    return sorted(found) == [0, 1]


def _phase_true(window: Expr, rules: DataRuleset, phase: Phase) -> bool:
    state = GameState()  # a fresh state per phase: nothing remembered of another
    state.phase = phase
    return bool(window.run(rules.env(state)))


@cache
def _catalog(language: str) -> frozenset[str]:
    """The msgids the ``.po`` catalog of ``language`` translates (a translation may be
    the English word itself: "Pony")."""
    from babel.messages.pofile import read_po

    from nightfall.i18n import DOMAIN, LOCALES_DIR

    po_file = LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not po_file.exists():
        return frozenset()
    with po_file.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=DOMAIN)
    return frozenset(str(m.id) for m in catalog if m.id and m.string and not m.fuzzy)


def _known_types(records: Mapping[str, Any]) -> set[str]:
    from nightfall.rulefile.expr import SCALARS

    simple = {*SCALARS, "any", *records}
    return simple | {f"list[{t}]" for t in simple}


def _record_constructor(name: str, fields: tuple[str, ...], kinds: tuple[str, ...]
                        ) -> Function:
    def make(env: Env, *values: Any) -> dict[str, Any]:
        return dict(zip(fields, values, strict=True))

    return Function(kinds, name, make)


def compile_rules(source: Source, register_terms: bool = True) -> DataRuleset:
    """The rule set of a read file, or :class:`RuleFileError` with every problem.

    Its term names are registered only when it compiled without a problem, and only with
    ``register_terms``: a caller with checks of its own (an upload, ``GameService
    .check_rules``) registers them with :meth:`DataRuleset.register_terms` once the file
    passed those too."""
    rules = DataRuleset(source)
    if rules.problems:
        raise RuleFileError(source.name, [
            RuleProblem(p.path, p.line or source.locator.line(p.path), p.message)
            for p in rules.problems])
    if register_terms:
        rules.register_terms()
    return rules


def load_rules(path: str | Path) -> DataRuleset:
    return compile_rules(read_source(path))


#: the shipped rule files by rule set id
SHIPPED = {"changelings": Path(__file__).parent / "sets" / "changelings.yaml",
           "werwolf-classic": Path(__file__).parent / "sets" / "classic.yaml"}
#: former ids of shipped rule sets: ``changelings-data`` named the Changelings file
#: while the Python plugin was ``changelings`` (issue 20); games stored under it and
#: links that name it still find the file
ALIASES = {"changelings-data": "changelings"}
_LOADED: dict[str, DataRuleset] = {}


@cache
def _shipped_hashes() -> frozenset[str]:
    """The SHA-256 of each shipped rule file (their names are Nightfall's own, like the
    plugins': :meth:`DataRuleset.register_terms`)."""
    import hashlib

    return frozenset(hashlib.sha256(path.read_bytes()).hexdigest() for path in SHIPPED.values())


def register(rules: DataRuleset) -> None:
    """Make ``rules`` known by its id to :func:`nightfall.rulesets.get_ruleset` in this
    process (the checker's bot run plays it through the simulator)."""
    _LOADED[rules.id] = rules


def registered(ruleset_id: str) -> DataRuleset | None:
    """The rule set of that id read from a rule file: registered, or shipped (compiled
    once per process), or ``None``."""
    found = _LOADED.get(ruleset_id)
    if found is None and ruleset_id in ALIASES:
        return registered(ALIASES[ruleset_id])
    if found is None and ruleset_id in SHIPPED:
        found = _LOADED[ruleset_id] = load_rules(SHIPPED[ruleset_id])
    return found


def shipped(ruleset_id: str) -> DataRuleset:
    """A shipped rule file's rule set (by its id or a former one), compiled once per
    process."""
    found = registered(ruleset_id) if ruleset_id in SHIPPED or ruleset_id in ALIASES else None
    if found is None:
        raise KeyError(ruleset_id)
    return found


__all__ = ["ALIASES", "SHIPPED", "DataRuleset", "as_param", "compile_rules", "load_rules",
           "register", "registered", "shipped"]


def _on_a_cycle(graph: Mapping[str, Iterable[str]]) -> list[str]:
    """The nodes of ``graph`` (each with the nodes it leads to) from which a path leads
    back to themselves, in the graph's order."""
    found = []
    for start in graph:
        seen: set[str] = set()
        stack = list(graph[start])
        while stack:
            name = stack.pop()
            if name == start:
                found.append(start)
                break
            if name not in seen:
                seen.add(name)
                stack.extend(graph.get(name, ()))
    return found
