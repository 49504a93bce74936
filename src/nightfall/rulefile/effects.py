"""Effect lists: the closed vocabulary a rule file changes a game with.

Every effect maps onto one engine call, so a data rule set emits the very events the
Python plugins emit (same types, same order, same draws):

============  ==========================================  =========================
effect        what it does                                 engine event
============  ==========================================  =========================
submit        the command goes into its slot               ``Submitted``
post          a post in the thread                         ``Posted``
leave         a player leaves (cascades: ``on_departure``)  ``PlayerLeft``
status        a status on or off                           ``StatusChanged``
role          a player's role changes                      ``RoleAssigned``
set           a fact (engine flag)                         ``FlagSet``
notify        a private notice                             ``NoticeSent``
announce      a public announcement                        ``Announced``
trace         a line of the running step's explanation     (``StepTraced``)
withdraw      an input is withdrawn                        ``SubmissionWithdrawn``
count_votes   a tally is published                         ``VotesCounted``
draw          chance picks one (recorded)                  ``RandomDrawn``
============  ==========================================  =========================

and the control forms ``if``/``then``/``else``, ``for``/``in``/``do``, ``let``,
``call`` (a procedure of the file), ``stop`` (leave the step or procedure), ``hook``
(a registered Python hook, ``hooks.py``, whose effect requests run like these).

Compiling an effect list checks every name and expression and records which facts it
reads and writes, which procedures it calls and which texts it uses.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from nightfall.engine.events import (
    Announced,
    Posted,
    StatusChanged,
    SubmissionWithdrawn,
    VotesCounted,
)
from nightfall.engine.events import RoleAssigned as RoleAssignedEvent
from nightfall.engine.state import FLAGS
from nightfall.engine.text import Term, Text
from nightfall.rulefile.expr import (
    NAME_KINDS,
    Env,
    Expr,
    ExprError,
    RoleFilter,
    Scope,
    compile_expr,
    fits,
)
from nightfall.rulefile.kept import written

Path = tuple[str | int, ...]
Run = Callable[[Env], None]

#: types whose values a text shows by their translated name
TERM_KINDS = frozenset({"role", "action", "faction", "cause", "status"})


class Stop(Exception):
    """``stop``: leave the running step or procedure."""


@dataclass
class Problem:
    path: Path
    message: str
    #: the line, when it is not the first one of ``path`` (the second of two equal keys)
    line: int | None = None


@dataclass
class Usage:
    """What compiled code reads, writes, calls and says."""

    reads: set[str] = field(default_factory=set)
    writes: set[str] = field(default_factory=set)
    calls: set[str] = field(default_factory=set)
    texts: set[str] = field(default_factory=set)
    hooks: set[str] = field(default_factory=set)
    #: the statuses it sets or clears (their ``on_status`` triggers run)
    statuses: set[str] = field(default_factory=set)

    def merge(self, other: Usage) -> None:
        self.statuses |= other.statuses
        self.reads |= other.reads
        self.writes |= other.writes
        self.calls |= other.calls
        self.texts |= other.texts
        self.hooks |= other.hooks


def as_param(value: Any, kind: str) -> Any:
    """A value as a text parameter: named things as terms, lists as tuples (what the
    Python plugins pass, so that the events compare equal)."""
    if kind.startswith("list["):
        item = kind[5:-1]
        return tuple(as_param(v, item) for v in value or ())
    if kind in TERM_KINDS and value is not None:
        return Term(kind, str(value))
    if isinstance(value, list):
        return tuple(value)
    return value


def param_converter(kind: str) -> Callable[[Any], Any]:
    """:func:`as_param` for values of type ``kind``, chosen once at load (a text's
    parameters are converted every time it is built)."""
    if kind.startswith("list["):
        item = param_converter(kind[5:-1])
        return lambda value: tuple([item(v) for v in value or ()])
    if kind in TERM_KINDS:
        return lambda value: None if value is None else Term(kind, str(value))
    return _plain


def _plain(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def placeholders(msgid: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(msgid) if name}


class EffectCompiler:
    """Compiles effect lists of one rule file; problems are collected, not raised."""

    def __init__(self, scope: Scope, texts: Mapping[str, str],
                 procedures: Mapping[str, Mapping[str, str]],
                 hooks: Mapping[str, Any], problems: list[Problem]) -> None:
        self.scope = scope
        #: each text without parameters (built once) by the function that returns it
        self.fixed_texts: dict[Callable[[Env], Text], Text] = {}
        #: each compiled ``if`` without ``else``: its test and its effects
        self.guards: dict[Run, tuple[Callable[[Env], Any], Run, RoleFilter | None]] = {}
        self.texts = texts
        self.procedures = procedures
        self.hooks = hooks
        self.problems = problems
        #: set by the rule set once every procedure is compiled (calls are late-bound)
        self.procedure_runs: dict[str, Callable[[Env], None]] = {}

    # -- expressions ---------------------------------------------------------------------
    def expr(self, source: Any, scope: Scope, path: Path, usage: Usage,
             want: str | None = None) -> Expr | None:
        try:
            compiled = compile_expr(source, scope, want)
        except ExprError as error:
            self.problems.append(Problem(path, str(error)))
            return None
        usage.reads |= compiled.facts
        return compiled

    def name(self, value: Any, kind: str, path: Path) -> str | None:
        known = self.scope.names.get(kind, frozenset())
        if not isinstance(value, str) or value not in known:
            self.problems.append(Problem(path, f"unknown {kind} {value!r} (known: "
                                                f"{', '.join(sorted(known))})"))
            return None
        return value

    def text(self, key: Any, params: Mapping[str, Any], scope: Scope, path: Path,
             usage: Usage) -> Callable[[Env], Text] | None:
        """A text by key with its parameters, each converted by its type."""
        if not isinstance(key, str) or key not in self.texts:
            self.problems.append(Problem(path, f"unknown text {key!r}"))
            return None
        usage.texts.add(key)
        msgid = self.texts[key]
        missing = placeholders(msgid) - set(params)
        if missing:
            self.problems.append(Problem(path, f"text {key!r} needs the parameters "
                                                f"{', '.join(sorted(missing))}"))
        compiled: list[tuple[str, Expr]] = []
        for name, source in params.items():
            found = self.expr(source, scope, (*path, "params", name), usage)
            if found is not None:
                compiled.append((name, found))
        converters = tuple((name, e.run, param_converter(e.type)) for name, e in compiled)
        if not converters:
            # a text without parameters is built once (refusals that every legal list
            # meets: "not the leader", "nothing awaited from you"); a Text is never changed
            made = Text(msgid)

            def fixed(env: Env) -> Text:
                return made

            self.fixed_texts[fixed] = made
            return fixed

        def build(env: Env) -> Text:
            params = {}
            for name, run, convert in converters:  # a loop: a comprehension is a call
                params[name] = convert(run(env))
            return Text(msgid, params)

        return build

    def texts_by(self, spec: Mapping[str, Any], scope: Scope, path: Path, usage: Usage
                 ) -> Callable[[Env], Text] | None:
        """``announce``/``trace`` with one key, or a mapping value -> key chosen ``by``
        an expression (``else``: the key for any other value)."""
        head = spec.get("announce", spec.get("trace"))
        params = spec.get("params") or {}
        if not isinstance(head, Mapping):
            return self.text(head, params, scope, path, usage)
        by = self.expr(spec.get("by"), scope, (*path, "by"), usage)
        choices = {value: self.text(key, params, scope, (*path, str(value)), usage)
                   for value, key in head.items()}
        fallback = self.text(spec.get("else"), params, scope, (*path, "else"), usage)
        if by is None or fallback is None or None in choices.values():
            return None
        by_run = by.run
        built = {k: v for k, v in choices.items() if v is not None}

        def build(env: Env) -> Text:
            return built.get(by_run(env), fallback)(env)

        return build

    # -- effect lists --------------------------------------------------------------------
    def effects(self, items: Any, scope: Scope, path: Path, usage: Usage) -> Run:
        if not isinstance(items, list):
            self.problems.append(Problem(path, "an effect list must be a list"))
            return _nothing
        runs: list[Run] = []
        for index, item in enumerate(items):
            here = (*path, index)
            if not isinstance(item, dict) or not item:
                self.problems.append(Problem(here, "an effect must be a mapping"))
                continue
            keyword = next((k for k in _KEYWORDS if k in item), None)
            if keyword is None:
                self.problems.append(Problem(here, f"unknown effect {next(iter(item))!r} "
                                                   f"(known: {', '.join(_KEYWORDS)})"))
                continue
            allowed = _KEYWORDS[keyword]
            extra = [k for k in item if k != keyword and k not in allowed]
            if extra:
                self.problems.append(Problem((*here, extra[0]),
                                             f"unknown key {extra[0]!r} of {keyword}"))
            if keyword == "let":
                # a let adds names for the effects after it
                values = item["let"]
                if not isinstance(values, dict):
                    self.problems.append(Problem(here, "let needs a mapping name: expression"))
                    continue
                bound: list[tuple[str, Callable[[Env], Any]]] = []
                more: dict[str, str] = {}
                for name, source in values.items():
                    found = self.expr(source, scope.with_vars(**more), (*here, "let", name),
                                      usage)
                    if found is not None:
                        bound.append((name, found.run))
                        more[name] = found.type
                scope = scope.with_vars(**more)
                runs.append(_let(tuple(bound)))
                continue
            if keyword == "draw":
                run, name, kind = self._draw(item, scope, here, usage)
                runs.append(run)
                scope = scope.with_vars(**{name: kind})
                continue
            method: Callable[[dict[str, Any], Scope, Path, Usage], Run] = getattr(
                self, "_" + keyword)
            runs.append(method(item, scope, here, usage))
        sequence = tuple(runs)
        if not sequence:
            return _nothing
        if len(sequence) == 1:
            return sequence[0]

        def run_all(env: Env) -> None:
            for run in sequence:
                run(env)

        return run_all

    # -- each effect ---------------------------------------------------------------------
    def _if(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage) -> Run:
        cond = self.expr(item["if"], scope, (*path, "if"), usage, "bool")
        then = self.effects(item.get("then", []), scope, (*path, "then"), usage)
        other = self.effects(item.get("else", []), scope, (*path, "else"), usage)
        if cond is None:
            return _nothing
        test = cond.run
        if other is _nothing:  # no ``else``: nothing to call when the test fails
            def run_then(env: Env) -> None:
                if test(env):
                    then(env)

            # a ``for`` whose body is just this asks the test itself (``_for``)
            self.guards[run_then] = (test, then, cond.role_filter)
            return run_then

        def run(env: Env) -> None:
            if test(env):
                then(env)
            else:
                other(env)

        return run

    def _for(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage) -> Run:
        name = item["for"]
        over = self.expr(item.get("in"), scope, (*path, "in"), usage)
        if over is None or not isinstance(name, str):
            self.effects(item.get("do", []), scope, (*path, "do"), usage)
            return _nothing
        if not (over.type.startswith("list[") or over.type in ("any", "list")):
            self.problems.append(Problem((*path, "in"), f"'for' needs a list, not a "
                                                        f"{over.type}"))
        inner = scope.with_vars(**{name: over.type[5:-1] if over.type.startswith("list[")
                                   else "any"})
        body = self.effects(item.get("do", []), inner, (*path, "do"), usage)
        source = over.run
        guarded = self.guards.get(body)
        if guarded is not None:
            # ``for p in players(): if COND: …`` (C15.4's pinkie sense told, C11.3's
            # stalker): the test asked here, not by a function of its own per item
            test, then, by_role = guarded
            if by_role is not None and by_role[0] == name:
                # ``for p in alive(): if role(p) == 'pinkie_sense': …`` (C13.1, every
                # night): each role read in place, the rest of the test (if any) asked
                # only of those it admits
                _, roles, rest = by_role

                def run_roles(env: Env) -> None:
                    players = env["$state"].players
                    for value in list(source(env) or ()):
                        env[name] = value
                        p = players.get(value)
                        if p is not None and p.role in roles and (rest is None or rest(env)):
                            then(env)

                return run_roles

            def run_if(env: Env) -> None:
                for value in list(source(env) or ()):
                    env[name] = value
                    if test(env):
                        then(env)

            return run_if

        def run(env: Env) -> None:
            # the body runs in the same environment: a ``let`` in it carries over to the
            # next round (an accumulator, e.g. the raven's rumour votes)
            for value in list(source(env) or ()):
                env[name] = value
                body(env)

        return run

    def _stop(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage) -> Run:
        def run(env: Env) -> None:
            raise Stop

        return run

    def _call(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage) -> Run:
        name = item["call"]
        params = self.procedures.get(name)
        if params is None:
            self.problems.append(Problem((*path, "call"), f"unknown procedure {name!r}"))
            return _nothing
        usage.calls.add(name)
        given = item.get("with") or {}
        bound: list[tuple[str, Callable[[Env], Any]]] = []
        for param, kind in params.items():
            if param not in given:
                self.problems.append(Problem(path, f"procedure {name!r} needs {param!r}"))
                continue
            found = self.expr(given[param], scope, (*path, "with", param), usage, kind)
            if found is not None:
                bound.append((param, found.run))
        for param in given:
            if param not in params:
                self.problems.append(Problem((*path, "with", param),
                                             f"procedure {name!r} takes no {param!r}"))
        runs = self.procedure_runs
        frozen = tuple(bound)

        def run(env: Env) -> None:
            # the procedure reads the game and its own parameters only: the checker
            # compiled its body in a scope of its parameters, so the caller's names that
            # come along in the copy are never read, and what the body binds stays in
            # the copy (one ``dict.copy`` in C costs ~1/3 of picking the ``$`` names out
            # one by one); the arguments are worked out in the caller's environment
            inner = env.copy()
            for param, value in frozen:
                inner[param] = value(env)
            try:  # noqa: SIM105 - no context manager per call: a hot path
                runs[name](inner)
            except Stop:
                pass

        return run

    def _hook(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage) -> Run:
        name = item["hook"]
        hook = self.hooks.get(name)
        if hook is None:
            self.problems.append(Problem((*path, "hook"), f"the file does not declare the "
                                                          f"hook {name!r}"))
            return _nothing
        usage.hooks.add(name)
        given = item.get("with") or {}
        bound = [(k, e.run) for k, e in (
            (k, self.expr(v, scope, (*path, "with", k), usage)) for k, v in given.items())
            if e is not None]
        compiler = self

        def run(env: Env) -> None:
            requests = hook.run(env["$state"], {k: v(env) for k, v in bound})
            problems: list[Problem] = []
            local = EffectCompiler(compiler.scope, compiler.texts, compiler.procedures, {},
                                   problems)
            local.procedure_runs = compiler.procedure_runs
            effect = local.effects(list(requests), scope, path, Usage())
            if problems:
                raise ValueError(f"hook {name!r} asked for an invalid effect: "
                                 f"{problems[0].message}")
            effect(env)

        return run

    def _submit(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage) -> Run:
        slot_source = item["submit"]
        slot = None if slot_source is True else self.expr(slot_source, scope,
                                                           (*path, "submit"), usage, "slot")

        def run(env: Env) -> None:
            ctx, command, ability = env["$ctx"], env["command"], env["$ability"]
            ctx.submit(command, slot.run(env) if slot is not None else ability.slot,
                       standing=ability.standing)

        return run

    def _post(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage) -> Run:
        text = self.expr(item["post"], scope, (*path, "post"), usage, "str")
        if text is None:
            return _nothing
        value = text.run

        def run(env: Env) -> None:
            state = env["$state"]
            env["$ctx"].emit(Posted(env["actor"], state.phase_label, value(env)))

        return run

    def _leave(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage) -> Run:
        who = self.expr(item["leave"], scope, (*path, "leave"), usage, "player")
        cause = self.expr(item.get("cause"), scope, (*path, "cause"), usage, "cause")
        if who is None or cause is None:
            return _nothing
        w, c = who.run, cause.run

        def run(env: Env) -> None:
            env["$ctx"].leave(w(env), c(env))

        return run

    def _status(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage) -> Run:
        status = self.name(item["status"], "status", (*path, "status"))
        who = self.expr(item.get("of"), scope, (*path, "of"), usage, "player")
        present = bool(item.get("present", True))
        if status is None or who is None:
            return _nothing
        usage.statuses.add(status)
        w = who.run

        def run(env: Env) -> None:
            player = w(env)
            env["$ctx"].emit(StatusChanged(player, status, present))
            env["$rules"].status_changed(env["$ctx"], player, status, present)

        return run

    def _role(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage) -> Run:
        role = self.expr(item["role"], scope, (*path, "role"), usage, "role")
        who = self.expr(item.get("of"), scope, (*path, "of"), usage, "player")
        if role is None or who is None:
            return _nothing
        r, w = role.run, who.run

        def run(env: Env) -> None:
            env["$ctx"].emit(RoleAssignedEvent(w(env), r(env)))

        return run

    def _set(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage) -> Run:
        fact = item["set"]
        spec = self.scope.facts.get(fact)
        if spec is None:
            self.problems.append(Problem((*path, "set"), f"unknown fact {fact!r}"))
            return _nothing
        kind, per_player = spec
        usage.writes.add(fact)
        value = self.expr(item.get("to", "none"), scope, (*path, "to"), usage)
        if value is not None and not fits(value.type, kind):
            self.problems.append(Problem((*path, "to"), f"fact {fact!r} holds a {kind}, "
                                                        f"not a {value.type}"))
        who = None
        if per_player:
            who = self.expr(item.get("of"), scope, (*path, "of"), usage, "player")
        elif "of" in item:
            self.problems.append(Problem((*path, "of"), f"fact {fact!r} is not kept per "
                                                        f"player"))
        if value is None or (per_player and who is None):
            return _nothing
        v = value.run
        w = who.run if who is not None else None
        base = self.scope.keys.get(fact)

        def run(env: Env) -> None:
            # the flag's key known at load when it can be; the write is recorded as a
            # change of this fact (the kept answers that read it, ``kept.py``)
            if base is None:
                key = env["$facts"].key(fact, w(env) if w is not None else None)
            else:
                key = base if w is None else base + (w(env) or "")
            ctx = env["$ctx"]
            state = ctx.state
            value = v(env)
            if state.flags.get(key) != value:  # (``Context.flag`` sets only a change)
                before = state.stamp[FLAGS]
                ctx.flag(key, value)
                written(state, fact, before)

        return run

    def _notify(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage) -> Run:
        who = self.expr(item["notify"], scope, (*path, "notify"), usage, "player")
        kind = item.get("kind")
        if not isinstance(kind, str):
            self.problems.append(Problem(path, "notify needs a kind"))
        fields = [(name, e.run) for name, e in (
            (name, self.expr(source, scope, (*path, "fields", name), usage))
            for name, source in (item.get("fields") or {}).items()) if e is not None]
        if who is None or not isinstance(kind, str):
            return _nothing
        w = who.run

        def run(env: Env) -> None:
            values = {}
            for name, f in fields:  # a loop: a comprehension is a call of its own
                values[name] = f(env)
            env["$ctx"].notify(w(env), kind, **values)

        return run

    def _announce(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage) -> Run:
        text = self.texts_by(item, scope, path, usage)
        if text is None:
            return _nothing

        def run(env: Env) -> None:
            # the event ``Context.announce`` emits, with the text as built
            env["$ctx"].emit(Announced(env["$state"].phase_label, text(env)))

        return run

    def _trace(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage) -> Run:
        text = self.texts_by(item, scope, path, usage)
        if text is None:
            return _nothing

        def run(env: Env) -> None:
            ctx = env["$ctx"]
            if ctx.tracing:  # a line nobody keeps is not worked out (a simulation's game)
                made = text(env)
                ctx.trace(made.msgid, **made.params)

        return run

    def _withdraw(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage) -> Run:
        who = self.expr(item["withdraw"], scope, (*path, "withdraw"), usage, "player")
        slot = self.expr(item.get("slot"), scope, (*path, "slot"), usage, "slot")
        if who is None or slot is None:
            return _nothing
        w, s = who.run, slot.run

        def run(env: Env) -> None:
            env["$ctx"].emit(SubmissionWithdrawn(w(env), s(env)))

        return run

    def _count_votes(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage
                     ) -> Run:
        ballot = self.name(item["count_votes"], "slot", (*path, "count_votes"))
        tally = self.expr(item.get("tally"), scope, (*path, "tally"), usage, "map")
        ballots = self.expr(item.get("ballots"), scope, (*path, "ballots"), usage, "map")
        if ballot is None or tally is None or ballots is None:
            return _nothing
        t, b = tally.run, ballots.run

        def run(env: Env) -> None:
            state = env["$state"]
            env["$ctx"].emit(VotesCounted(state.phase_label, ballot, dict(t(env)),
                                          dict(b(env))))

        return run

    def _draw(self, item: dict[str, Any], scope: Scope, path: Path, usage: Usage
              ) -> tuple[Run, str, str]:
        purpose = item["draw"]
        name = item.get("as")
        source = self.expr(item.get("from"), scope, (*path, "from"), usage, "list")
        if not isinstance(name, str):
            self.problems.append(Problem(path, "draw needs 'as: NAME'"))
            name = "_"
        if purpose not in self.scope.names.get("draw", frozenset()):
            self.problems.append(Problem((*path, "draw"), f"unknown draw {purpose!r} "
                                                          f"(declare it under draws)"))
        if source is None:
            return _nothing, name, "any"
        s = source.run
        kind = source.type[5:-1] if source.type.startswith("list[") else "any"
        bound = name

        def run(env: Env) -> None:
            env[bound] = env["$ctx"].draw(purpose, list(s(env)))

        return run, name, kind


def _nothing(env: Env) -> None:
    return None


def _let(bound: tuple[tuple[str, Callable[[Env], Any]], ...]) -> Run:
    if len(bound) == 1:
        ((one, its),) = bound

        def run_one(env: Env) -> None:
            env[one] = its(env)

        return run_one

    def run(env: Env) -> None:
        for name, value in bound:
            env[name] = value(env)

    return run


#: effect keyword -> the other keys it takes (order: the first keyword found decides)
_KEYWORDS: dict[str, tuple[str, ...]] = {
    "if": ("then", "else"), "for": ("in", "do"), "let": (), "stop": (),
    "call": ("with",), "hook": ("with",), "submit": (), "post": (),
    "leave": ("cause",), "status": ("of", "present"), "role": ("of",),
    "set": ("of", "to"), "notify": ("kind", "fields"),
    "announce": ("params", "by", "else"), "trace": ("params", "by", "else"),
    "withdraw": ("slot",), "count_votes": ("tally", "ballots"),
    "draw": ("from", "as"),
}

assert "draw" not in NAME_KINDS  # draws are names of their own (declared under draws)
