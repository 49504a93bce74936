"""The expression language of a rule file: parsed by ``lark``, type-checked and compiled
once at load into Python closures (no ``eval``).

Why a language of its own and not Python: a GM's file must not run arbitrary code, and
the checker must know, before any game, which names an expression uses (unknown names,
wrong types, which facts a step reads, whether a check looks at the target). The
grammar is small: literals, names, calls of a closed set of functions, ``.field``,
``[index]``, ``and/or/not``, comparisons, ``in``, ``+ - * //``, ``a if c else b``, list
and map comprehensions.

Types are names (``bool``, ``int``, ``str``, ``player``, ``role``, ``list[player]``,
``sub`` …) checked where the compiler can know them; ``any`` is what it cannot (the
value of a fact declared ``any``). A string literal compared with a typed name
(``role(p) == 'shield'``) must be a known name of that kind: that is how a misspelt
role is found at load.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import LarkError

GRAMMAR = r"""
?start: expr
?expr: or_expr
     | or_expr "if" or_expr "else" expr          -> ternary
?or_expr: and_expr
     | or_expr "or" and_expr                     -> or_
?and_expr: not_expr
     | and_expr "and" not_expr                   -> and_
?not_expr: cmp
     | "not" not_expr                            -> not_
?cmp: sum
     | sum COMP sum                              -> compare
     | sum "in" sum                              -> in_
     | sum "not" "in" sum                        -> not_in
?sum: product
     | sum PLUS product                          -> arith
     | sum MINUS product                         -> arith
?product: postfix
     | product TIMES postfix                     -> arith
     | product DIV postfix                       -> arith
?postfix: atom
     | postfix "." NAME                          -> attr
     | postfix "[" expr "]"                      -> index
?atom: INT                                       -> int_
     | STRING                                    -> string
     | "true"                                    -> true
     | "false"                                   -> false
     | "none"                                    -> none
     | NAME                                      -> name
     | NAME "(" [expr ("," expr)*] ")"           -> call
     | "[" [expr ("," expr)*] "]"                -> list_
     | "[" expr "for" NAME "in" or_expr ["if" or_expr] "]"            -> comp
     | "{" expr ":" expr "for" NAME "in" or_expr ["if" or_expr] "}"   -> map_comp
     | "(" expr ")"
COMP: "==" | "!=" | "<=" | ">=" | "<" | ">"
PLUS: "+"
MINUS: "-"
TIMES: "*"
DIV: "//"
NAME: /[a-z_][a-z0-9_]*/
STRING: /'[^']*'/
%import common.INT
%import common.WS
%ignore WS
"""

_PARSER = Lark(GRAMMAR, parser="lalr", maybe_placeholders=True)

#: the kinds of names a rule file declares; a string of one of these types is such a name
NAME_KINDS = ("role", "status", "cause", "faction", "slot", "action", "tag", "option")
SCALARS = ("bool", "int", "str", "player", *NAME_KINDS)

Env = dict[str, Any]
Compiled = Callable[[Env], Any]
#: (the variable naming a player, the roles that pass, the rest of the test or ``None``):
#: see :attr:`_Out.role_filter`
RoleFilter = tuple[str, frozenset[str], "Compiled | None"]
#: a test of one variable's value without an environment: ``test(rules, state, value)``,
#: ``rules`` holding ``$rules`` and ``$facts`` only (see :attr:`_Out.of_player`)
PlayerTest = Callable[[Env, Any, Any], bool]
#: ``FACT == VAR`` of a fact of nobody in particular or ``KEPT == VAR`` of a kept
#: definition (``!=`` when ``equal`` is false), as the value's lookup: (the definition's
#: memo key or ``None``, the fact's flag key or ``None``, the part the memo entry is
#: kept by, the definition's code, equal); see :attr:`_Out.of_lookups`
Lookup = tuple[Any, "str | None", int, "Compiled | None", bool]


class ExprError(ValueError):
    """An expression that does not parse, names what does not exist or mixes types."""


def list_of(item: str) -> str:
    return f"list[{item}]"


def item_of(kind: str) -> str:
    if kind.startswith("list[") and kind.endswith("]"):
        return kind[5:-1]
    if kind.startswith("map["):
        return kind[4:-1].split(",", 1)[0]
    return "any"


#: the types whose values are strings
_STR_KINDS = frozenset({"str", "player", *NAME_KINDS})


def is_str(kind: str) -> bool:
    return kind in _STR_KINDS


def fits(have: str, want: str) -> bool:
    """Whether a value of type ``have`` may stand where ``want`` is asked for."""
    if have == want or "any" in (have, want) or have == "none":
        return True
    if (want == "str" and is_str(have)) or (have == "str" and is_str(want)):
        return True  # a plain string may name a role (literals are checked by name)
    if have.startswith("list[") and want.startswith("list["):
        return fits(item_of(have), item_of(want))
    if want == "list" and have.startswith("list["):
        return True
    if want == "map" and have.startswith("map["):
        return True
    return have.startswith("rec") and want.startswith("rec")


@dataclass(frozen=True)
class Function:
    """A builtin: its parameter types, its result type (a fixed type, or a function of
    the argument types) and its implementation ``run(env, *args)``."""

    params: tuple[str, ...]
    result: str | Callable[[Sequence[str]], str]
    run: Callable[..., Any]
    #: the parts of the game the function reads (for the step's declared facts and the
    #: classification of checks): names like ``players``, ``phase``, ``submissions``
    reads: frozenset[str] = frozenset()
    #: variadic: the last parameter may repeat
    varargs: bool = False
    #: the facts it reads (a definition of the rule file that reads facts)
    facts: frozenset[str] = frozenset()
    #: ``run`` returns ``True`` or ``False`` itself (``and``/``or`` need not convert it)
    strict: bool = False
    #: a definition compiled into every expression that calls it (see :class:`Inline`)
    inline: Inline | None = None
    #: a definition without parameters that reads nothing of the game (the roles a liar
    #: may pretend to be), with ``constant``: its value, worked out at load and used as
    #: a literal is
    value: Any = None
    constant: bool = False
    #: ``first`` or ``some``: of a comprehension, it stops at the first item that passes
    #: the comprehension's condition (expressions have no effects, so the items after it
    #: need not be looked at)
    reduces: str | None = None
    #: a builtin that reads one player's record (``role``, ``faction``, ``is_alive``,
    #: ``has``) or the phase (``phase``): a test of it is compiled with the read in
    #: place (one call less)
    reads_player: str | None = None
    #: a definition without parameters kept in ``state.memo`` under this key while this
    #: one part of the state is unchanged (who leads): a comparison reads the entry itself
    memo: tuple[Any, int] | None = None


@dataclass(frozen=True)
class Inline:
    """A definition of the rule file that is compiled into each expression calling it,
    with the arguments' code in place of its parameters: no call, no environment of its
    own, no cache to look up. Only definitions without comprehensions are (they bind no
    names, so an argument read inside the body sees the caller's variables); the
    others are called and their answers kept (``ruleset.py``)."""

    tree: Any
    #: the parameters with their declared types, in order
    params: tuple[tuple[str, str], ...]
    #: the scope the definition was compiled in (its parameters as variables)
    scope: Scope
    #: a definition with a comprehension: compiled in place only where every argument
    #: is a constant (``acting('liar', 'disguise')``, one per night step, C15): then no
    #: argument can read a name the comprehension binds
    constants_only: bool = False


@dataclass
class Scope:
    """What names an expression may use: variables with types, facts, definitions,
    functions, and the names of each kind (for string literals)."""

    variables: dict[str, str] = field(default_factory=dict)
    functions: Mapping[str, Function] = field(default_factory=dict)
    #: fact -> (type, per_player)
    facts: Mapping[str, tuple[str, bool]] = field(default_factory=dict)
    #: kind -> the names declared for it (role ids, statuses, ...)
    names: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: record types: field -> type
    records: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: fact -> its engine flag key (the prefix, for a fact kept per player): a fact is
    #: then read straight from ``state.flags``; without it through ``env["$facts"]``
    keys: Mapping[str, str] = field(default_factory=dict)
    #: role -> its faction (the file's role table): ``faction(p) == 'x'`` is then a test
    #: of the player's role against the roles of that faction (:attr:`_Out.role_filter`)
    role_factions: Mapping[str, str] = field(default_factory=dict)

    def with_vars(self, **more: str) -> Scope:
        return Scope({**self.variables, **more}, self.functions, self.facts, self.names,
                     self.records, self.keys, self.role_factions)


@dataclass
class Expr:
    """A compiled expression: run it with an environment; ``type`` as checked; ``uses``
    the variables, facts and builtin functions it reads (the validator and the check
    classification read them)."""

    source: str
    run: Compiled
    type: str
    variables: frozenset[str]
    facts: frozenset[str]
    reads: frozenset[str]
    #: ``run`` returns ``True`` or ``False`` itself
    strict: bool = False
    #: the expression is ``VAR == OTHER`` (either way round) where ``OTHER`` does not
    #: read ``VAR``: (VAR, OTHER's code). A target check of that form refuses at most the
    #: one target equal to OTHER, worked out once per actor (``ruleset.py``)
    equals: tuple[str, Compiled] | None = None
    #: the parse tree and whether it has no comprehension (a definition of that kind is
    #: compiled into its callers, see :class:`Inline`)
    tree: Any = None
    inlinable: bool = False
    #: see :attr:`_Out.role_filter`
    role_filter: RoleFilter | None = None
    #: the expression is ``a and b and …``: each term's code with the variables it reads
    #: (a target check whose first terms do not read the target asks them once per actor)
    and_terms: tuple[tuple[Compiled, frozenset[str]], ...] | None = None
    #: see :attr:`_Out.nothing_awaited_of`
    nothing_awaited_of: str | None = None
    #: see :attr:`_Out.of_player`
    of_player: tuple[str, PlayerTest] | None = None
    #: see :attr:`_Out.of_lookups`
    of_lookups: tuple[Lookup, ...] | None = None


#: a value that is not a constant
_NO: Any = object()
#: numbers for the names under which an argument of an inlined definition is kept
_HIDDEN = itertools.count()


@dataclass
class _Out:
    run: Compiled
    type: str
    literal: str | None = None  # the value of a string literal (for name checks)
    #: a constant's value (a literal): what uses it reads the value, not ``run``
    value: Any = _NO
    #: ``run`` returns ``True`` or ``False`` itself
    strict: bool = False
    #: ``run`` reads just this variable (``env[var]``)
    var: str | None = None
    #: the variables ``run`` reads (the free ones of this part of the expression)
    uses: frozenset[str] = frozenset()
    #: a list literal of constants: its items
    items: tuple[Any, ...] | None = None
    #: ``VAR == OTHER`` (see :attr:`Expr.equals`)
    equals: tuple[str, Compiled] | None = None
    #: ``run`` calls a function with one variable: (its implementation, the variable),
    #: so that a comparison calls it itself (``role(p) == 'shield'``: one call less)
    call: tuple[Callable[[Env, Any], Any], str] | None = None
    #: ``run`` is ``a and b and …`` (``and_``) or ``a or b or …`` (``or_``) of strict
    #: terms: a longer chain is one function, not one per operator
    and_: tuple[Compiled, ...] | None = None
    or_: tuple[Compiled, ...] | None = None
    #: ``run`` reads a field of a variable holding an object (``s.action`` of a
    #: submission): (the variable, the field's getter), for a comparison to read itself
    field_of: tuple[str, Callable[[Any], Any]] | None = None
    #: ``run`` is a list comprehension: (its variable, source, condition, element; the
    #: element ``None``: the item itself), for ``first`` and ``some`` to stop early
    comp: tuple[str, Compiled, Compiled | None, Compiled | None] | None = None
    #: ``run`` is ``len(X)``: X's out, for ``len(X) == 0`` to be ``not X`` (a list is
    #: empty, or ``none``) and of a comprehension to stop at its first item
    len_of: _Out | None = None
    #: ``run`` is ``role(VAR)`` or ``faction(VAR)``: (which, VAR), for a comparison or a
    #: membership test with constants to read the player's record itself
    player_read: tuple[str, str] | None = None
    #: ``run`` is ``phase`` (the game's phase, never ``none`` in a game): a field of it
    #: is read in place (``phase.kind == 'night'``: the windows, C2.3)
    is_phase: bool = False
    #: ``run`` reads a field of the phase: the field's getter (see :attr:`is_phase`)
    phase_field: Callable[[Any], Any] | None = None
    #: the code of ``not`` this test, in one function (``not team(p)`` is
    #: ``faction(p) != 'changelings'``; ``not has(p, 'voiceless')``)
    negated: Compiled | None = None
    #: ``run`` reads a fact's flag: (its key, or the key's prefix and the variable naming
    #: the player), for ``FACT == none`` to read it itself (``attack != none``,
    #: ``partner(p) != none``)
    flag: tuple[str, str | None] | None = None
    #: ``run`` reads a per-player fact of a field of a variable (``partner(s.player)``):
    #: (the key's prefix, the variable, the field's getter), for a comparison with
    #: another field of the same variable to read both itself (C3.2's ballots)
    flag_field: tuple[str, str, Callable[[Any], Any]] | None = None
    #: ``run`` is ``sub(VAR, SLOT)`` of a constant slot: (VAR, SLOT), for
    #: ``sub(actor, 'vote') == none`` to be a test of the submissions' keys
    sub_key: tuple[str, Any] | None = None
    #: ``run`` is a kept definition (:attr:`Function.memo`): (memo key, part, ``run``)
    kept_read: tuple[Any, int, Compiled] | None = None
    #: ``run`` is ``awaited(VAR)``: VAR, for ``len(awaited(actor)) == 0`` (the pass,
    #: C2.3: every legal list) to ask the rule set itself
    awaited_of: str | None = None
    #: ``run`` is ``len(awaited(VAR)) == 0``: VAR (the pass's check, C2.3, asked by the
    #: rule set itself without an environment: ``ruleset._check_function``)
    nothing_awaited_of: str | None = None
    #: ``run`` is a test of one player's record (``team(p)``, ``is_alive(p)``,
    #: ``has(p, 'voiceless')``, ``not`` and ``and`` of such tests on the same player):
    #: (the variable naming him, the test of his record ``(env, record)``, the answer
    #: when there is no such player), so that an ``and`` of two reads the record once
    #: and a comprehension filtering on it reads the record without binding the variable
    record: tuple[str, Callable[[Env, Any], bool], bool] | None = None
    #: the test of :attr:`record`'s opposite, in one function (``not team(p)``)
    record_not: Callable[[Env, Any], bool] | None = None
    #: a condition that holds exactly when the player the variable names exists, his
    #: role is one of the roles and the rest holds (``None``: nothing more), as far as
    #: its truth goes: ``role(p) == 'shield'``, ``role(p) in [...]``, ``team(p)``,
    #: ``role(p) == 'love_potion' and phase.number == 1``. A loop over players that
    #: filters on it (comprehensions, ``for`` with an ``if``, what a stage awaits) reads
    #: each role in place and calls the rest only for those whose role passes
    role_filter: RoleFilter | None = None
    #: the variables each term of :attr:`and_` reads
    and_uses: tuple[frozenset[str], ...] | None = None
    #: of a list comprehension (:attr:`comp`), its condition's :attr:`role_filter` on its
    #: own variable, for ``first`` and ``some`` to read the roles in place too
    comp_filter: RoleFilter | None = None
    #: of a list comprehension (:attr:`comp`), its condition's :attr:`of_player` test on
    #: its own variable, for ``first`` and ``some`` to ask it without binding the name
    comp_test: PlayerTest | None = None
    #: a condition that reads one variable and the state only, as a test of that
    #: variable's value without an environment: (the variable, the test). An actor check
    #: of that form (C3.1's ``has(actor, 'voiceless')`` and unvote; C5.3's and C5.4's
    #: through :attr:`of_lookups`) is asked without one (``ruleset._check_function``):
    #: every legal list asks several; a comprehension whose condition has it binds no
    #: name. A test of a record (:attr:`record`) has this form too
    of_player: tuple[str, PlayerTest] | None = None
    #: :attr:`of_player` is ``a and b and …`` (``of_and``) or ``a or b or …`` of these
    #: tests: a longer chain is one function, not one per operator
    of_and: tuple[PlayerTest, ...] | None = None
    of_or: tuple[PlayerTest, ...] | None = None
    #: the test of ``not`` this condition, in one function (see :attr:`negated`)
    of_not: PlayerTest | None = None
    #: :attr:`of_player` is ``a and b and …`` of lookups compared with the variable
    #: (C5.3's ``leader != actor``, C5.4's ``succession != actor and leader != actor``:
    #: every legal list asks both), for an actor check to read them in place
    of_lookups: tuple[Lookup, ...] | None = None
    #: ``run`` is ``role(VAR.F)`` or ``faction(VAR.F)``: (which, VAR, F's getter), for a
    #: comparison with a constant to be a test of VAR's value (C15's ``acting``: ``role(
    #: s.player) == 'liar'``; C7.1's ``team(s.player)``)
    player_read_field: tuple[str, str, Callable[[Any], Any]] | None = None

    def __post_init__(self) -> None:
        if self.of_player is None and self.record is not None:
            self.of_player = (self.record[0], _record_of_player(self.record))


def _uses(*outs: _Out | None) -> frozenset[str]:
    return frozenset().union(*(o.uses for o in outs if o is not None))


def _constant(value: Any, kind: str, literal: str | None = None, strict: bool = False
              ) -> _Out:
    return _Out(lambda env: value, kind, literal=literal, value=value, strict=strict)


def _constant_value(value: Any, kind: str) -> _Out:
    """A value worked out at load (a definition that reads nothing of the game), used as
    a literal is: compared, tested for membership (a list's items as a tuple) and passed
    to calls as it is; a list is handed out as a new list each time, as a list literal
    is (what receives it may keep it)."""
    if isinstance(value, list):
        items = tuple(value)
        return _Out(lambda env: list(items), kind, value=value, items=items)
    return _Out(lambda env: value, kind, value=value)


def _reader(name: str) -> Compiled:
    return lambda env: env[name]


class _Compiler:
    def __init__(self, scope: Scope, bound: Mapping[str, _Out] | None = None) -> None:
        self.scope = scope
        #: an inlined definition's parameters: the code of the caller's arguments
        self.bound = dict(bound or {})
        self.variables: set[str] = set()
        self.facts: set[str] = set()
        self.reads: set[str] = set()
        self.local: list[dict[str, str]] = []
        #: per comprehension being compiled (as ``local``): the hidden names of the parts
        #: of its condition and element that do not read its variable (see :meth:`_hoist`)
        self.hoisted: list[list[str]] = []

    # -- helpers -------------------------------------------------------------------------
    def var_type(self, name: str) -> str | None:
        for frame in reversed(self.local):
            if name in frame:
                return frame[name]
        return self.scope.variables.get(name)

    def check_literal(self, out: _Out, kind: str) -> None:
        """A string literal where a name of ``kind`` is wanted must be one."""
        if out.literal is not None and kind in NAME_KINDS:
            known = self.scope.names.get(kind)
            if known is not None and out.literal not in known:
                raise ExprError(f"unknown {kind} {out.literal!r} (known: "
                                f"{', '.join(sorted(known))})")

    def compile(self, node: Tree[Token] | Token) -> _Out:
        if isinstance(node, Token):  # pragma: no cover - the grammar wraps every token
            raise ExprError(f"unexpected {node!r}")
        method = getattr(self, "_" + str(node.data))
        out: _Out = method(*node.children)
        if self.hoisted and node.data in _HOISTED and _plain(out) and out.uses.isdisjoint(
                self.local[-1]):
            return self._hoist(out)
        return out

    def _hoist(self, out: _Out) -> _Out:
        """A part of a comprehension's condition or element that does not read the
        comprehension's variable (``[role(p) for p in players()]`` inside ``[r for r in
        roles() if r in …]``, the roles of the game, C1.7; ``phase.number - 1`` in C2.4's
        test of every player; ``agreed.target`` in C7.2's lover test) is worked out once
        per run of the comprehension: at its first use (not before the loop: a part of a
        condition that an earlier term skips may not be worked out where the plain
        reading does not; an expression has no effects, so it is the same for every
        item). The comprehension marks it unknown as it starts (:func:`_marking`)."""
        hidden = f"$hoisted#{next(_HIDDEN)}"
        self.hoisted[-1].append(hidden)
        run = out.run

        def once(env: Env) -> Any:
            value = env[hidden]
            if value is _UNKNOWN:
                value = env[hidden] = run(env)
            return value

        return _Out(once, out.type, strict=out.strict, uses=out.uses)

    # -- atoms ---------------------------------------------------------------------------
    def _int_(self, token: Token) -> _Out:
        return _constant(int(token), "int")

    def _string(self, token: Token) -> _Out:
        value = str(token)[1:-1]
        return _constant(value, "str", literal=value)

    def _true(self) -> _Out:
        return _constant(True, "bool", strict=True)

    def _false(self) -> _Out:
        return _constant(False, "bool", strict=True)

    def _none(self) -> _Out:
        return _constant(None, "none")

    def _name(self, token: Token) -> _Out:
        name = str(token)
        local = any(name in frame for frame in self.local)
        if not local and name in self.bound:
            return self.bound[name]
        kind = self.var_type(name)
        if kind is not None:
            if not local:
                self.variables.add(name)
            return _Out(_reader(name), kind, var=name, uses=frozenset({name}))
        fact = self.scope.facts.get(name)
        if fact is not None:
            kind, per_player = fact
            if per_player:
                raise ExprError(f"fact {name!r} is kept per player: write {name}(player)")
            self.facts.add(name)
            key = self.scope.keys.get(name)
            if key is not None:
                return _Out(lambda env: env["$state"].flags.get(key), kind, flag=(key, None))
            return _Out(lambda env: env["$facts"].get(env, name, None), kind)
        if name in self.scope.functions and not self.scope.functions[name].params:
            return self._call(token)
        raise ExprError(f"unknown name {name!r}")

    def _call(self, token: Token, *args: Tree[Token] | None) -> _Out:
        name = str(token)
        given = [a for a in args if a is not None]
        fact = self.scope.facts.get(name)
        if fact is not None:
            kind, per_player = fact
            if not per_player or len(given) != 1:
                raise ExprError(f"fact {name!r} takes {'one player' if per_player else 'no'}"
                                f" argument")
            player = self.compile(given[0])
            if not fits(player.type, "player"):
                raise ExprError(f"{name}(…) needs a player, not {_article(player.type)}")
            self.facts.add(name)
            prun = player.run
            base = self.scope.keys.get(name)
            if base is not None:
                # the player read here when he is a variable or a field of one
                # (``partner(p)``, ``partner(s.player)``: C3.2's valid ballot)
                if player.var is not None:
                    v = player.var
                    return _Out(lambda env: env["$state"].flags.get(base + (env[v] or "")),
                                kind, uses=player.uses, flag=(base, v))
                if player.field_of is not None:
                    v, get = player.field_of
                    return _Out(lambda env: env["$state"].flags.get(
                        base + ((None if (o := env[v]) is None else get(o)) or "")),
                        kind, uses=player.uses, flag_field=(base, v, get))
                return _Out(lambda env: env["$state"].flags.get(base + (prun(env) or "")),
                            kind, uses=player.uses)
            return _Out(lambda env: env["$facts"].get(env, name, prun(env)), kind,
                        uses=player.uses)
        function = self.scope.functions.get(name)
        if function is None:
            raise ExprError(f"unknown function {name!r}")
        outs = [self.compile(a) for a in given]
        params = function.params
        if function.varargs and len(outs) >= len(params) - 1:
            params = (*params[:-1], *[params[-1]] * (len(outs) - len(params) + 1))
        if len(outs) != len(params):
            raise ExprError(f"{name}() takes {len(function.params)} argument(s), "
                            f"not {len(outs)}")
        for i, (out, want) in enumerate(zip(outs, params, strict=True)):
            self.check_literal(out, want)
            if not fits(out.type, want):
                raise ExprError(f"argument {i + 1} of {name}() must be {_article(want)}, "
                                f"not {_article(out.type)}")
        self.reads |= function.reads
        self.facts |= function.facts
        result = function.result
        kind = result if isinstance(result, str) else result([o.type for o in outs])
        if function.inline is not None and (not function.inline.constants_only or all(
                o.value is not _NO for o in outs)):
            return self._inline(function.inline, outs, kind)
        if function.constant and not outs:
            return _constant_value(function.value, kind)
        if function.reduces == "len" and len(outs) == 1:
            return _Out(_call_code(function.run, outs), kind, uses=outs[0].uses,
                        len_of=outs[0])
        if function.reduces is not None and len(outs) == 1 and outs[0].comp is not None:
            return _Out(_first_of(*outs[0].comp, function.reduces == "some",
                                  outs[0].comp_filter, outs[0].comp_test), kind,
                        strict=function.strict, uses=outs[0].uses)
        call = (function.run, outs[0].var) if len(outs) == 1 and outs[0].var is not None else (
            None)
        if function.memo is not None and not outs:
            return _Out(function.run, kind, strict=function.strict,
                        kept_read=(*function.memo, function.run))
        which = function.reads_player
        if which == "phase" and not outs:
            return _Out(function.run, kind, uses=frozenset(), is_phase=True)
        if which == "awaited" and len(outs) == 1 and outs[0].var is not None:
            return _Out(_call_code(function.run, outs), kind, uses=_uses(*outs),
                        awaited_of=outs[0].var)
        if which == "sub" and len(outs) == 2 and outs[0].var is not None and (
                outs[1].value is not _NO):
            return _Out(_call_code(function.run, outs), kind, uses=_uses(*outs),
                        sub_key=(outs[0].var, outs[1].value))
        if which in ("is_alive", "has") and outs and outs[0].field_of is not None and (
                len(outs) == 1 or outs[1].value is not _NO):
            # ``is_alive(s.target)``, ``has(s.player, 'voiceless')`` (C3.2's ballots):
            # the field and the player's record read here
            fv, get = outs[0].field_of
            if which == "is_alive" and len(outs) == 1:
                return _Out(lambda env: (o := env[fv]) is not None and (
                    p := env["$state"].players.get(get(o))) is not None and p.alive,
                    kind, strict=True, uses=_uses(*outs),
                    negated=lambda env: (o := env[fv]) is None or (
                        p := env["$state"].players.get(get(o))) is None or not p.alive,
                    of_player=(fv, lambda rules, state, o: o is not None and (
                        p := state.players.get(get(o))) is not None and p.alive),
                    of_not=lambda rules, state, o: o is None or (
                        p := state.players.get(get(o))) is None or not p.alive)
            if which == "has" and len(outs) == 2:
                status = outs[1].value
                return _Out(lambda env: (o := env[fv]) is not None and (
                    p := env["$state"].players.get(get(o))) is not None
                    and status in p.statuses, kind, strict=True, uses=_uses(*outs),
                    negated=lambda env: (o := env[fv]) is None or (
                        p := env["$state"].players.get(get(o))) is None
                    or status not in p.statuses,
                    of_player=(fv, lambda rules, state, o: o is not None and (
                        p := state.players.get(get(o))) is not None
                        and status in p.statuses),
                    of_not=lambda rules, state, o: o is None or (
                        p := state.players.get(get(o))) is None
                    or status not in p.statuses)
        if which is not None and outs and outs[0].var is not None:
            v = outs[0].var
            if which == "is_alive" and len(outs) == 1:
                return _Out(lambda env: (p := env["$state"].players.get(env[v])) is not None
                            and p.alive, kind, strict=True, uses=_uses(*outs), call=call,
                            negated=lambda env: (p := env["$state"].players.get(env[v]))
                            is None or not p.alive, record=(v, _alive_test, False),
                            record_not=_dead_test)
            if which == "has" and len(outs) == 2 and outs[1].value is not _NO:
                status = outs[1].value
                return _Out(lambda env: (p := env["$state"].players.get(env[v])) is not None
                            and status in p.statuses, kind, strict=True, uses=_uses(*outs),
                            negated=lambda env: (p := env["$state"].players.get(env[v]))
                            is None or status not in p.statuses,
                            record=(v, lambda env, p: status in p.statuses, False),
                            record_not=lambda env, p: status not in p.statuses)
            if which in ("role", "faction") and len(outs) == 1:
                return _Out(_call_code(function.run, outs), kind, strict=function.strict,
                            uses=_uses(*outs), call=call, player_read=(which, v))
        if which in ("role", "faction") and len(outs) == 1 and outs[0].field_of is not None:
            return _Out(_call_code(function.run, outs), kind, strict=function.strict,
                        uses=_uses(*outs), player_read_field=(which, *outs[0].field_of))
        return _Out(_call_code(function.run, outs), kind, strict=function.strict,
                    uses=_uses(*outs), call=call)

    def _inline(self, inline: Inline, outs: Sequence[_Out], kind: str) -> _Out:
        """A definition's body compiled in place, its parameters bound to the arguments'
        code. An argument the body reads more than once is worked out once first (kept
        in the environment under a name no expression can write) unless it is a constant
        or a variable."""
        bound: dict[str, _Out] = {}
        first: list[tuple[str, Compiled]] = []
        for (param, declared), out in zip(inline.params, outs, strict=True):
            # the body sees the parameter as declared, as when it was compiled alone
            arg = replace(out, type=declared, literal=None, equals=None)
            if out.value is _NO and out.var is None and _count_name(inline.tree, param) > 1:
                hidden = f"${param}#{next(_HIDDEN)}"
                first.append((hidden, out.run))
                arg = _Out(_reader(hidden), declared, strict=out.strict, var=hidden,
                           uses=out.uses)
            bound[param] = arg
        body = _Compiler(inline.scope, bound).compile(inline.tree)
        if not first:
            # what the body's code is known to be holds in the caller too (its variables
            # are the caller's): ``not team(p)`` uses the opposite test
            return replace(body, type=kind, literal=None)
        run = body.run
        if first:
            inner, pending = run, tuple(first)

            def run(env: Env) -> Any:
                for hidden, value in pending:
                    env[hidden] = value(env)
                return inner(env)

        return _Out(run, kind, value=body.value, strict=body.strict, uses=body.uses)

    def _list_(self, *items: Tree[Token] | None) -> _Out:
        outs = [self.compile(i) for i in items if i is not None]
        kinds = {o.type for o in outs}
        item = kinds.pop() if len(kinds) == 1 else "str" if kinds and all(
            is_str(k) for k in kinds) else "any"
        for out in outs:
            self.check_literal(out, item)
        if all(o.value is not _NO for o in outs):
            values = tuple(o.value for o in outs)
            # a new list each time: what receives it may keep it
            return _Out(lambda env: list(values), list_of(item), items=values)
        runs = tuple(o.run for o in outs)
        # one or two items (``[player]``, ``[p, partner(p)]``): no comprehension per list
        if len(runs) == 1:
            (a,) = runs
            return _Out(lambda env: [a(env)], list_of(item), uses=_uses(*outs))
        if len(runs) == 2:
            a, b = runs
            return _Out(lambda env: [a(env), b(env)], list_of(item), uses=_uses(*outs))
        return _Out(lambda env: [r(env) for r in runs], list_of(item), uses=_uses(*outs))

    def _comprehension(self, name: Token, source: Tree[Token], condition: Tree[Token] | None
                       ) -> tuple[_Out, str, _Out | None, dict[str, str]]:
        over = self.compile(source)
        if not (over.type.startswith("list[") or over.type in ("any", "list")):
            raise ExprError(f"'for {name} in …' needs a list, not {_article(over.type)}")
        frame = {str(name): item_of(over.type)}
        self.local.append(frame)
        self.hoisted.append([])
        cond = None
        if condition is not None:
            cond = self.compile(condition)
            if not fits(cond.type, "bool"):
                raise ExprError(f"the condition of a comprehension must be a bool, not "
                                f"{_article(cond.type)}")
        return over, item_of(over.type), cond, frame

    def _comp(self, element: Tree[Token], name: Token, source: Tree[Token],
              condition: Tree[Token] | None) -> _Out:
        over_out, _, cond_out, _frame = self._comprehension(name, source, condition)
        elem = self.compile(element)
        self.local.pop()
        over = _marking(over_out.run, self.hoisted.pop())
        var = str(name)
        uses = over_out.uses | (_uses(cond_out, elem) - {var})
        parts = (var, over, cond_out.run if cond_out else None,
                 None if elem.var == var else elem.run)
        by_role = None
        if cond_out is not None and cond_out.role_filter is not None and (
                cond_out.role_filter[0] == var):
            by_role = cond_out.role_filter
        if by_role is not None and elem.var == var:
            # ``[p for p in players() if role(p) == 'shield']`` (C15.3, every night): each
            # role read in place, the rest of the condition asked only of those it admits
            return _Out(_role_comprehension(var, over, by_role), list_of(elem.type),
                        uses=uses, comp=parts, comp_filter=by_role)
        if elem.var == var and cond_out is not None and cond_out.record is not None and (
                cond_out.record[0] == var):
            # ``[p for p in alive() if team(p)]`` (C1.3, C1.4): each player's record
            # tested as it is read, the variable never bound
            return _Out(_record_filter(over, cond_out.record), list_of(elem.type),
                        uses=uses, comp=parts)
        test = _test_of(cond_out, var)
        if test is not None and elem.var == var:
            # ``[s for s in subs('kill') if is_alive(s.player) and … s.action != 'pass']``
            # (C7.1's choices): each item tested as it is, the variable never bound
            return _Out(_tested_filter(over, test), list_of(elem.type), uses=uses,
                        comp=parts, comp_filter=by_role, comp_test=test)
        return _Out(_comprehension(*parts), list_of(elem.type), uses=uses, comp=parts,
                    comp_filter=by_role, comp_test=test)

    def _map_comp(self, key: Tree[Token], value: Tree[Token], name: Token,
                  source: Tree[Token], condition: Tree[Token] | None) -> _Out:
        over_out, _, cond_out, _frame = self._comprehension(name, source, condition)
        k, v = self.compile(key), self.compile(value)
        self.local.pop()
        var, krun, vrun = str(name), k.run, v.run
        over = _marking(over_out.run, self.hoisted.pop())
        cond = cond_out.run if cond_out is not None else None

        kget = k.field_of[1] if k.field_of is not None and k.field_of[0] == var else None
        vget = v.field_of[1] if v.field_of is not None and v.field_of[0] == var else None
        test = _test_of(cond_out, var)
        if kget is not None and vget is not None and test is not None:
            # ``{s.player: s.target for s in subs(slot) if …}`` (C3.2's valid ballots):
            # the fields read here, each item tested as it is, the variable never bound
            def tested_fields(env: Env) -> dict[Any, Any]:
                items = over(env)
                found: dict[Any, Any] = {}
                if not items and items is not None:
                    return found
                state = env["$state"]
                for item in items:
                    if test(env, state, item):
                        if item is None:
                            found[None] = None
                        else:
                            found[kget(item)] = vget(item)
                return found

            return _Out(tested_fields, f"map[{k.type},{v.type}]",
                        uses=over_out.uses | (_uses(cond_out, k, v) - {var}))
        if kget is not None and vget is not None:
            # ``{s.player: s.target for s in …}`` (C3.2's ballots): the fields read here
            def fields(env: Env) -> dict[Any, Any]:
                items = over(env)
                found: dict[Any, Any] = {}
                if not items and items is not None:
                    return found
                had, old = var in env, env.get(var)
                try:
                    for item in items:
                        env[var] = item
                        if cond is None or cond(env):
                            if item is None:
                                found[None] = None
                            else:
                                found[kget(item)] = vget(item)
                finally:
                    if had:
                        env[var] = old
                    else:
                        env.pop(var, None)
                return found

            return _Out(fields, f"map[{k.type},{v.type}]",
                        uses=over_out.uses | (_uses(cond_out, k, v) - {var}))

        def run(env: Env) -> dict[Any, Any]:
            # the item is bound in the environment itself and the name's old value put
            # back after (a copy of the environment per item cost more than the rest)
            found = {}
            had, old = var in env, env.get(var)
            try:
                for item in over(env):
                    env[var] = item
                    if cond is None or cond(env):
                        found[krun(env)] = vrun(env)
            finally:
                if had:
                    env[var] = old
                else:
                    env.pop(var, None)
            return found

        return _Out(run, f"map[{k.type},{v.type}]",
                    uses=over_out.uses | (_uses(cond_out, k, v) - {var}))

    # -- operators -----------------------------------------------------------------------
    def _bool(self, node: Tree[Token], what: str) -> _Out:
        out = self.compile(node)
        if not fits(out.type, "bool"):
            raise ExprError(f"'{what}' needs a bool, not {_article(out.type)}")
        return out

    def _or_(self, a: Tree[Token], b: Tree[Token]) -> _Out:
        xo, yo = self._bool(a, "or"), self._bool(b, "or")
        x, y = xo.run, yo.run
        kx, ky = _truth(xo), _truth(yo)  # a side known at load (an expression is pure)
        if kx is True or ky is True:
            return _constant(True, "bool", strict=True)
        if kx is False:
            return _as_bool(yo)
        if ky is False:
            return _as_bool(xo)
        if xo.strict and yo.strict:
            terms = (*(xo.or_ or (x,)), y)
            return _Out(_any_of(terms), "bool", strict=True, uses=_uses(xo, yo), or_=terms,
                        **_both_of_player(xo, yo, False))
        return _Out(lambda env: bool(x(env)) or bool(y(env)), "bool", strict=True,
                    uses=_uses(xo, yo))

    def _and_(self, a: Tree[Token], b: Tree[Token]) -> _Out:
        xo, yo = self._bool(a, "and"), self._bool(b, "and")
        x, y = xo.run, yo.run
        kx, ky = _truth(xo), _truth(yo)  # (``slot == 'vote'`` of C3.2 for a known slot)
        if kx is False or ky is False:
            return _constant(False, "bool", strict=True)
        if kx is True:
            return _as_bool(yo)
        if ky is True:
            return _as_bool(xo)
        role_filter = None
        if xo.role_filter is not None:
            # ``role(p) == 'pinkie_sense' and (…)``: the role first, then the rest (as
            # ``and`` asks them)
            fv, roles, rest = xo.role_filter
            # (of the rest, its truth is what counts)
            role_filter = (fv, roles, y if rest is None else all_of((rest, y)))
        if xo.record is not None and yo.record is not None and (
                xo.record[0] == yo.record[0]):
            # two tests of one player's record (``not team(p) and not has(p, 'voiceless')``,
            # C1.4's voters): the record read once, the same answers (a test returns
            # ``True`` or ``False`` and reads nothing else, so the order does not matter)
            record = _record_and(xo.record, yo.record)
            return _Out(_record_run(record), "bool", strict=True, uses=_uses(xo, yo),
                        record=record, role_filter=role_filter)
        if xo.strict and yo.strict:
            terms = (*(xo.and_ or (x,)), y)
            and_uses = (*(xo.and_uses or (xo.uses,)), yo.uses)
            return _Out(all_of(terms), "bool", strict=True, uses=_uses(xo, yo), and_=terms,
                        and_uses=and_uses, role_filter=role_filter,
                        **_both_of_player(xo, yo, True))
        return _Out(lambda env: bool(x(env)) and bool(y(env)), "bool", strict=True,
                    uses=_uses(xo, yo), role_filter=role_filter)

    def _not_(self, a: Tree[Token]) -> _Out:
        xo = self._bool(a, "not")
        x = xo.run
        if xo.value is not _NO:
            return _constant(not xo.value, "bool", strict=True)
        if xo.negated is not None:  # a comparison or a test of a record: its opposite
            record = None
            if xo.record is not None and xo.record_not is not None:
                rv, test, missing = xo.record
                record = (rv, xo.record_not, not missing)
            return _Out(xo.negated, "bool", strict=True, uses=xo.uses, negated=x,
                        record=record, record_not=None if record is None else test,
                        of_player=None if record is not None else (
                            (xo.of_player[0], xo.of_not) if xo.of_player is not None
                            and xo.of_not is not None else _not_of_player(xo)),
                        of_not=None if xo.of_player is None else xo.of_player[1])
        if xo.call is not None:  # ``not has(p, 'x')`` has two arguments; one: called here
            impl, v = xo.call
            return _Out(lambda env: not impl(env, env[v]), "bool", strict=True, uses=xo.uses)
        return _Out(lambda env: not x(env), "bool", strict=True, uses=xo.uses)

    def _ternary(self, then: Tree[Token], cond: Tree[Token], other: Tree[Token]) -> _Out:
        co = self._bool(cond, "if")
        c = co.run
        t, o = self.compile(then), self.compile(other)
        kind = t.type if o.type in (t.type, "none") else o.type if t.type == "none" else (
            t.type if fits(o.type, t.type) else "any")
        trun, orun = t.run, o.run
        return _Out(lambda env: trun(env) if c(env) else orun(env), kind,
                    strict=t.strict and o.strict, uses=_uses(co, t, o))

    def _compare(self, a: Tree[Token], op: Token, b: Tree[Token]) -> _Out:
        x, y = self.compile(a), self.compile(b)
        self.check_literal(x, y.type)
        self.check_literal(y, x.type)
        if not (fits(x.type, y.type) or fits(y.type, x.type)):
            raise ExprError(f"cannot compare {_article(x.type)} with {_article(y.type)}")
        if str(op) in ("<", "<=", ">", ">=") and not (
                x.type == y.type == "int" or (is_str(x.type) and is_str(y.type))):
            raise ExprError(f"'{op}' compares numbers, not {_article(x.type)} and "
                            f"{_article(y.type)}")
        equals = None
        if str(op) == "==":
            if x.var is not None and x.var not in y.uses:
                equals = (x.var, y.run)
            elif y.var is not None and y.var not in x.uses:
                equals = (y.var, x.run)
        if x.value is not _NO and y.value is not _NO:  # two constants: known at load
            compare: Callable[[Any, Any], bool] = {
                "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
                ">": operator.gt, ">=": operator.ge}[str(op)]
            return _constant(bool(compare(x.value, y.value)), "bool", strict=True)
        negated = (_compare_code("!=" if str(op) == "==" else "==", x, y)
                   if str(op) in ("==", "!=") else None)
        record = record_not = role_filter = None
        if str(op) in ("==", "!=") and x.player_read is not None and y.value is not _NO:
            record = _player_record(str(op), *x.player_read, y.value)
            record_not = _player_record("!=" if str(op) == "==" else "==", *x.player_read,
                                        y.value)[1]
            if str(op) == "==" and y.value is not None:
                role_filter = self._role_filter(*x.player_read, (y.value,))
        nothing_awaited_of = (
            x.len_of.awaited_of if str(op) == "==" and x.len_of is not None
            and type(y.value) is int and y.value == 0 else None)
        lookup = _lookup_of(str(op), x, y)
        return _Out(_compare_code(str(op), x, y), "bool", strict=True, uses=_uses(x, y),
                    equals=equals, negated=negated, record=record, record_not=record_not,
                    role_filter=role_filter, nothing_awaited_of=nothing_awaited_of,
                    of_player=None if record is not None else _compare_of_player(
                        str(op), x, y),
                    of_lookups=None if record is not None or lookup is None else (lookup[1],),
                    of_not=None if record is not None or str(op) not in ("==", "!=") else (
                        _test_only(_compare_of_player("!=" if str(op) == "==" else "==",
                                                      x, y))))

    def _role_filter(self, which: str, var: str, values: Sequence[Any]) -> RoleFilter | None:
        """``role(VAR)`` or ``faction(VAR)`` equal to one of ``values`` (no ``none``
        among them) as a test of the role (:attr:`_Out.role_filter`): a faction is the
        roles the file gives it (``None`` where the role table is not known)."""
        if which == "role":
            return var, frozenset(values), None
        table = self.scope.role_factions
        if not table:
            return None
        return var, frozenset(r for r, f in table.items() if f in values), None

    def _membership(self, a: Tree[Token], b: Tree[Token]) -> tuple[_Out, _Out]:
        x, y = self.compile(a), self.compile(b)
        if not (y.type.startswith(("list[", "map[")) or y.type in ("any", "list", "map")):
            raise ExprError(f"'in' needs a list, not {_article(y.type)}")
        self.check_literal(x, item_of(y.type))
        if not fits(x.type, item_of(y.type)):
            raise ExprError(f"{_article(x.type)} is never in {_article(y.type)}")
        return x, y

    def _in_(self, a: Tree[Token], b: Tree[Token]) -> _Out:
        xo, yo = self._membership(a, b)
        x, y = xo.run, yo.run
        if yo.items is not None:  # a list of constants: the same items, never rebuilt
            items = yo.items
            if xo.player_read is not None and xo.player_read[0] == "role":
                v = xo.player_read[1]  # ``role(p) in [...]``: the record read here
                return _Out(lambda env: (p := env["$state"].players.get(env[v])) is not None
                            and p.role in items, "bool", strict=True, uses=xo.uses,
                            role_filter=(v, frozenset(items), None))
            if xo.call is not None:  # ``role(p) in [...]``: the function called here
                impl, v = xo.call
                return _Out(lambda env: impl(env, env[v]) in items, "bool", strict=True,
                            uses=xo.uses)
            if xo.var is not None:  # a variable read here
                name = xo.var
                return _Out(lambda env: env[name] in items, "bool", strict=True,
                            uses=xo.uses)
            return _Out(lambda env: x(env) in items, "bool", strict=True, uses=xo.uses)
        if xo.var is not None:
            left = xo.var
            return _Out(lambda env: env[left] in (y(env) or ()), "bool", strict=True,
                        uses=_uses(xo, yo))
        return _Out(lambda env: x(env) in (y(env) or ()), "bool", strict=True,
                    uses=_uses(xo, yo))

    def _not_in(self, a: Tree[Token], b: Tree[Token]) -> _Out:
        xo, yo = self._membership(a, b)
        x, y = xo.run, yo.run
        if yo.items is not None:
            items = yo.items
            if xo.var is not None:  # ``choice not in disguises`` (C9.2): the variable here
                name = xo.var
                return _Out(lambda env: env[name] not in items, "bool", strict=True,
                            uses=xo.uses)
            return _Out(lambda env: x(env) not in items, "bool", strict=True, uses=xo.uses)
        if xo.var is not None:
            left = xo.var
            return _Out(lambda env: env[left] not in (y(env) or ()), "bool", strict=True,
                        uses=_uses(xo, yo))
        return _Out(lambda env: x(env) not in (y(env) or ()), "bool", strict=True,
                    uses=_uses(xo, yo))

    def _arith(self, a: Tree[Token], op: Token, b: Tree[Token]) -> _Out:
        x, y = self.compile(a), self.compile(b)
        xr, yr = x.run, y.run
        uses = _uses(x, y)
        if str(op) == "+" and x.type.startswith("list[") and y.type.startswith("list["):
            kind = x.type if fits(y.type, x.type) else "list[any]"
            return _Out(lambda env: [*xr(env), *yr(env)], kind, uses=uses)
        if not (x.type in ("int", "any") and y.type in ("int", "any")):
            raise ExprError(f"'{op}' needs numbers (or two lists for +), not {_article(x.type)} "
                            f"and {_article(y.type)}")
        if y.value is not _NO and str(op) in ("+", "-"):
            c = y.value
            if str(op) == "+":
                return _Out(lambda env: xr(env) + c, "int", uses=uses)
            return _Out(lambda env: xr(env) - c, "int", uses=uses)
        ops: dict[str, Callable[[int, int], int]] = {
            "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv}
        fn = ops[str(op)]
        return _Out(lambda env: fn(xr(env), yr(env)), "int", uses=uses)

    def _attr(self, base: Tree[Token], name: Token) -> _Out:
        out = self.compile(base)
        key = str(name)
        if key.startswith("_"):  # no way into Python's own attributes
            raise ExprError(f"there is no field {key!r}")
        record = self.scope.records.get(out.type)
        if record is not None:
            if key not in record:
                raise ExprError(f"{_article(out.type)} has no field {key!r} (fields: "
                                f"{', '.join(record)})")
            kind = record[key]
        elif out.type == "any":
            kind = "any"
        else:
            raise ExprError(f"{_article(out.type)} has no field {key!r}")
        brun = out.run
        if out.is_phase:  # ``phase.kind``: the state's phase read here
            get = operator.attrgetter(key)
            return _Out(lambda env: get(env["$state"].phase), kind, phase_field=get)
        if out.type in _OBJECT_RECORDS:
            get = operator.attrgetter(key)
            if out.var is not None:
                var = out.var

                def run(env: Env) -> Any:
                    value = env[var]
                    return None if value is None else get(value)

                return _Out(run, kind, uses=out.uses, field_of=(var, get))
            else:
                def run(env: Env) -> Any:
                    value = brun(env)
                    return None if value is None else get(value)
        else:
            def run(env: Env) -> Any:
                value = brun(env)
                if value is None:
                    return None
                if type(value) is dict:
                    return value.get(key)
                return _getitem(value, key)

        return _Out(run, kind, uses=out.uses)

    def _index(self, base: Tree[Token], index: Tree[Token]) -> _Out:
        b, i = self.compile(base), self.compile(index)
        brun, irun = b.run, i.run
        uses = _uses(b, i)
        if b.type.startswith("list["):
            if i.type not in ("int", "any"):
                raise ExprError(f"a list is indexed by a number, not {_article(i.type)}")
            if i.value is not _NO:
                at = i.value
                return _Out(lambda env: brun(env)[at], item_of(b.type), uses=uses)
            return _Out(lambda env: brun(env)[irun(env)], item_of(b.type), uses=uses)
        if b.type.startswith("map["):
            value = b.type[4:-1].split(",", 1)[1]
            return _Out(lambda env: brun(env).get(irun(env)), value, uses=uses)
        raise ExprError(f"{_article(b.type)} cannot be indexed")


#: the nodes a comprehension's condition or element may work out once (:meth:`_hoist`)
_HOISTED = frozenset({"comp", "map_comp", "call", "attr", "index", "arith"})
#: a hoisted part not worked out yet in this run of its comprehension
_UNKNOWN: Any = object()


def _plain(out: _Out) -> bool:
    """Whether ``out`` is worth working out once per comprehension: not a constant nor a
    variable, and none of the shortcuts a comparison or a test reads in place (a fact's
    flag, the phase, a kept definition, one player's record …), which a hoisted part
    would lose for no gain (they cost one call, as reading the hoisted value does)."""
    return (out.value is _NO and out.var is None and out.flag is None
            and out.kept_read is None and not out.is_phase and out.phase_field is None
            and out.field_of is None and out.flag_field is None and out.player_read is None
            and out.record is None and out.role_filter is None and out.sub_key is None
            and out.awaited_of is None)


def _marking(over: Compiled, hidden: Sequence[str]) -> Compiled:
    """A comprehension's source that first marks its hoisted parts unknown (each run of
    the comprehension works them out afresh, :meth:`_Compiler._hoist`): every loop over
    a comprehension's items reads its source once, as it starts."""
    if not hidden:
        return over
    names = tuple(hidden)

    def run(env: Env) -> Any:
        for name in names:  # a loop: a comprehension is a call of its own
            env[name] = _UNKNOWN
        return over(env)

    return run


def _truth(out: _Out) -> bool | None:
    """Whether a condition is known at load to hold (``None``: it is not known)."""
    return None if out.value is _NO else bool(out.value)


def _as_bool(out: _Out) -> _Out:
    """``out`` as a condition that returns ``True`` or ``False`` itself."""
    if out.strict:
        return out
    run = out.run
    return _Out(lambda env: bool(run(env)), "bool", strict=True, uses=out.uses)


def all_of(terms: tuple[Compiled, ...]) -> Compiled:
    """``a and b and …`` of terms that return ``True`` or ``False``: one function for
    the chain (``a and b and c`` parses as ``(a and b) and c``)."""
    if len(terms) == 2:
        a, b = terms
        return lambda env: a(env) and b(env)
    if len(terms) == 3:
        a, b, c = terms
        return lambda env: a(env) and b(env) and c(env)
    if len(terms) == 4:
        a, b, c, d = terms
        return lambda env: a(env) and b(env) and c(env) and d(env)
    if len(terms) == 5:  # (C3.2's valid ballot)
        a, b, c, d, e = terms
        return lambda env: a(env) and b(env) and c(env) and d(env) and e(env)
    first, rest = terms[0], all_of(terms[1:])
    return lambda env: first(env) and rest(env)


def _any_of(terms: tuple[Compiled, ...]) -> Compiled:
    """``a or b or …`` of terms that return ``True`` or ``False`` (see :func:`all_of`)."""
    if len(terms) == 2:
        a, b = terms
        return lambda env: a(env) or b(env)
    if len(terms) == 3:
        a, b, c = terms
        return lambda env: a(env) or b(env) or c(env)
    first, rest = terms[0], _any_of(terms[1:])
    return lambda env: first(env) or rest(env)


def _call_code(impl: Callable[..., Any], outs: Sequence[_Out]) -> Compiled:
    """The code of a call of ``impl(env, *args)``: constants passed as they are."""
    if not outs:
        return impl  # it takes the environment itself
    if len(outs) == 1:
        (one,) = outs
        if one.value is not _NO:
            c = one.value
            return lambda env: impl(env, c)
        if one.var is not None:  # a variable: read here, not by its own code
            v = one.var
            return lambda env: impl(env, env[v])
        if one.field_of is not None:  # ``is_alive(s.player)``: the field read here
            v, get = one.field_of
            return lambda env: impl(env, None if (o := env[v]) is None else get(o))
        a = one.run
        return lambda env: impl(env, a(env))
    if len(outs) == 2:
        first, second = outs
        a, b = first.run, second.run
        if second.value is not _NO:
            c = second.value
            if first.var is not None:
                v = first.var
                return lambda env: impl(env, env[v], c)
            if first.field_of is not None:  # ``has(s.player, 'voiceless')``
                v, get = first.field_of
                return lambda env: impl(env, None if (o := env[v]) is None else get(o), c)
            return lambda env: impl(env, a(env), c)
        if first.value is not _NO:
            c = first.value
            return lambda env: impl(env, c, b(env))
        return lambda env: impl(env, a(env), b(env))
    if len(outs) == 3:
        x, y, z = outs
        xr, yr, zr = x.run, y.run, z.run
        if x.var is not None and y.value is not _NO:
            # ``left_during(p, 'night', phase.number - 1)`` (C2.4)
            v, c = x.var, y.value
            return lambda env: impl(env, env[v], c, zr(env))
        if x.var is not None and y.var is not None and z.value is not _NO:
            # ``get(counted, p, 0)`` (C3.3's most votes, per player)
            v, w, c = x.var, y.var, z.value
            return lambda env: impl(env, env[v], env[w], c)
        return lambda env: impl(env, xr(env), yr(env), zr(env))
    runs = tuple(o.run for o in outs)
    return lambda env: impl(env, *[r(env) for r in runs])


def _compare_code(op: str, x: _Out, y: _Out) -> Compiled:
    """The code of ``x OP y``: a constant side compared as a value, ``none`` by
    identity (no value of a rule file equals ``None`` but ``None``)."""
    xr, yr = x.run, y.run
    if x.value is not _NO and y.value is _NO:
        x, y = y, x  # the constant on the right (``0 < len(xs)``)
        xr, yr = x.run, y.run
        op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
    if x.len_of is not None and y.value == 0 and type(y.value) is int and op in (
            "==", "!=", ">"):
        # ``len(X) == 0``: X is empty (a list, a map, a text, or ``none``); of a
        # comprehension, no item passes (stopping at the first that does)
        arg = x.len_of
        if arg.awaited_of is not None:
            asker = arg.awaited_of
            if op == "==":
                return lambda env: not env["$rules"].awaited_slots(env["$state"], env[asker])
            return lambda env: bool(env["$rules"].awaited_slots(env["$state"], env[asker]))
        found = (_first_of(*arg.comp, True, arg.comp_filter, arg.comp_test)
                 if arg.comp is not None
                 else arg.run)
        if op == "==":
            return lambda env: not found(env)
        return lambda env: bool(found(env))
    if op in ("==", "!="):
        if y.value is None or x.value is None:
            side = x if y.value is None else y
            if side.field_of is not None:  # ``s.target != none``
                return _field_compare(op, *side.field_of, None)
            if side.sub_key is not None:  # ``sub(actor, 'vote') == none`` (C3.1's unvote)
                giver, slot = side.sub_key
                if op == "==":
                    return lambda env: (p := env[giver]) is None or (
                        (p, slot) not in env["$state"].submissions)
                return lambda env: (p := env[giver]) is not None and (
                    (p, slot) in env["$state"].submissions)
            if side.flag is not None:  # ``attack != none``, ``partner(p) != none``
                key, who = side.flag
                if who is None:
                    if op == "==":
                        return lambda env: env["$state"].flags.get(key) is None
                    return lambda env: env["$state"].flags.get(key) is not None
                if op == "==":
                    return lambda env: env["$state"].flags.get(key + (env[who] or "")) is None
                return lambda env: env["$state"].flags.get(key + (env[who] or "")) is not None
            if side.var is not None:  # a variable read here, not by a function of its own
                v = side.var
                if op == "==":
                    return lambda env: env[v] is None
                return lambda env: env[v] is not None
            other = side.run
            if op == "==":
                return lambda env: other(env) is None
            return lambda env: other(env) is not None
        if x.value is not _NO and y.value is _NO:
            x, y = y, x  # the constant on the right
            xr, yr = x.run, y.run
        if y.value is not _NO and x.field_of is not None:  # ``s.action != 'pass'``
            return _field_compare(op, *x.field_of, y.value)
        if y.value is not _NO:
            c = y.value
            if x.var is not None:
                v = x.var
                if op == "==":
                    return lambda env: env[v] == c
                return lambda env: env[v] != c
            if x.player_read is not None:  # ``role(p) == 'shield'``: the record read here
                return _player_compare(op, *x.player_read, c)
            if x.phase_field is not None:  # ``phase.kind == 'night'``: in one function
                get = x.phase_field
                if op == "==":
                    return lambda env: get(env["$state"].phase) == c
                return lambda env: get(env["$state"].phase) != c
            if x.call is not None:  # ``role(p) == 'shield'``: the function called here
                impl, v = x.call
                if op == "==":
                    return lambda env: impl(env, env[v]) == c
                return lambda env: impl(env, env[v]) != c
            if op == "==":
                return lambda env: xr(env) == c
            return lambda env: xr(env) != c
        fused = (_fused_compare(op, x, y) or _fused_compare(op, y, x)
                 or _fact_of_field_compare(op, x, y) or _fact_of_field_compare(op, y, x))
        if fused is not None:
            return fused
        if x.var is not None and y.var is not None:
            a, b = x.var, y.var
            if op == "==":
                return lambda env: env[a] == env[b]
            return lambda env: env[a] != env[b]
        if y.var is not None:
            b = y.var
            if op == "==":
                return lambda env: xr(env) == env[b]
            return lambda env: xr(env) != env[b]
        if x.var is not None:
            a = x.var
            if op == "==":
                return lambda env: env[a] == yr(env)
            return lambda env: env[a] != yr(env)
        if op == "==":
            return lambda env: xr(env) == yr(env)
        return lambda env: xr(env) != yr(env)
    fn: Callable[[Any, Any], bool] = {"<": operator.lt, "<=": operator.le, ">": operator.gt,
                                      ">=": operator.ge}[op]
    if y.value is not _NO:
        c = y.value
        return lambda env: fn(xr(env), c)
    return lambda env: fn(xr(env), yr(env))


def _fused_compare(op: str, x: _Out, y: _Out) -> Compiled | None:
    """``FACT == VAR`` (``succession != actor``, C5.4) and ``KEPT == VAR`` (``leader !=
    actor``, C5.3: every legal list) in one function: the fact's flag or the kept
    definition's memo entry read here (the definition worked out when the entry is not
    valid), ``None`` for any other comparison. ``op`` is ``==`` or ``!=``."""
    if y.var is None:
        return None
    b = y.var
    if x.flag is not None:
        key, who = x.flag
        if who is None:
            if op == "==":
                return lambda env: env["$state"].flags.get(key) == env[b]
            return lambda env: env["$state"].flags.get(key) != env[b]
        if op == "==":
            return lambda env: env["$state"].flags.get(key + (env[who] or "")) == env[b]
        return lambda env: env["$state"].flags.get(key + (env[who] or "")) != env[b]
    if x.kept_read is not None:
        memo_key, part, compute = x.kept_read

        def run(env: Env) -> bool:
            state = env["$state"]
            entry = None if state is None else state.memo.get(memo_key)
            if entry is not None and entry[0] == state.stamp[part]:
                value = entry[1]
            else:
                value = compute(env)
            return bool(value == env[b]) if op == "==" else bool(value != env[b])

        return run
    return None


def _fact_of_field_compare(op: str, x: _Out, y: _Out) -> Compiled | None:
    """``FACT(VAR.F) == VAR.G`` (``!=``) in one function: C3.2's ``partner(s.player) ==
    s.target`` (of every ballot, and its ``not``), the variable and both fields read
    here, as each side reads them (a variable holding ``none``: the fact of nobody, the
    field ``none``). ``None`` for any other comparison."""
    if x.flag_field is None or y.field_of is None or y.field_of[0] != x.flag_field[1]:
        return None
    base, v, fact_get = x.flag_field
    field_get = y.field_of[1]
    if op == "==":
        return lambda env: (env["$state"].flags.get(base) == None  # noqa: E711
                            if (o := env[v]) is None else
                            env["$state"].flags.get(base + (fact_get(o) or "")) == field_get(o))
    return lambda env: (env["$state"].flags.get(base) != None  # noqa: E711
                        if (o := env[v]) is None else
                        env["$state"].flags.get(base + (fact_get(o) or "")) != field_get(o))


def _alive_test(env: Env, p: Any) -> bool:
    return bool(p.alive)


def _dead_test(env: Env, p: Any) -> bool:
    return not p.alive


def _player_record(op: str, which: str, var: str, c: Any
                   ) -> tuple[str, Callable[[Env, Any], bool], bool]:
    """:attr:`_Out.record` of ``role(VAR) == C`` / ``faction(VAR) == C`` (``!=``): the
    same answers as :func:`_player_compare`'s."""
    test: Callable[[Env, Any], bool]
    if which == "role":
        if op == "==":
            test = lambda env, p: bool(p.role == c)  # noqa: E731
        else:
            test = lambda env, p: bool(p.role != c)  # noqa: E731
    elif op == "==":
        test = lambda env, p: bool(env["$rules"].role_factions.get(p.role) == c)  # noqa: E731
    else:
        test = lambda env, p: bool(env["$rules"].role_factions.get(p.role) != c)  # noqa: E731
    return var, test, op == "!="


def _record_and(a: tuple[str, Callable[[Env, Any], bool], bool],
                b: tuple[str, Callable[[Env, Any], bool], bool]
                ) -> tuple[str, Callable[[Env, Any], bool], bool]:
    """The record test of ``a and b`` (both of the same player)."""
    (v, ta, ma), (_, tb, mb) = a, b
    return v, lambda env, p: ta(env, p) and tb(env, p), ma and mb


def _record_of_player(record: tuple[str, Callable[[Env, Any], bool], bool]) -> PlayerTest:
    """:attr:`_Out.of_player` of a record test: the same answers as :func:`_record_run`'s
    (a record's test reads nothing but the record and ``$rules``)."""
    _, test, missing = record
    return lambda rules, state, value: missing if (
        p := state.players.get(value)) is None else test(rules, p)


def _compare_of_player(op: str, x: _Out, y: _Out) -> tuple[str, PlayerTest] | None:
    """:attr:`_Out.of_player` of ``x OP y`` (``==``, ``!=``), the same answers as
    :func:`_compare_code`'s, for the shapes actor checks take: ``sub(VAR, SLOT) == none``
    (C3.1's unvote) and ``FACT == VAR`` / ``KEPT == VAR`` of a fact of nobody in
    particular or a kept definition (C5.3's ``leader != actor``, C5.4's ``succession !=
    actor``)."""
    if op not in ("==", "!="):
        return None
    if x.value is not _NO and y.value is _NO:
        x, y = y, x  # the constant on the right
    if y.value is not _NO and x.field_of is not None:
        # ``s.target != none``, ``s.action != 'pass'`` (C3.2's ballots, C7.1's choices)
        return x.field_of[0], _field_test(op, x.field_of[1], y.value)
    for a, b in ((x, y), (y, x)):
        if a.flag_field is not None and b.field_of is not None and (
                b.field_of[0] == a.flag_field[1]):
            return a.flag_field[1], _fact_of_field_test(op, a.flag_field, b.field_of[1])
    if y.value is not _NO and y.value is not None and x.player_read_field is not None:
        which, var, get = x.player_read_field
        return var, _player_field_test(op, which, get, y.value)
    if y.value is None:
        side = x
        if side.sub_key is None or side.value is not _NO:
            return None
        giver, slot = side.sub_key
        if op == "==":
            return giver, lambda rules, state, p: p is None or (
                (p, slot) not in state.submissions)
        return giver, lambda rules, state, p: p is not None and (
            (p, slot) in state.submissions)
    found = _lookup_of(op, x, y)
    return None if found is None else (found[0], _lookup_test(found[1]))


def _field_test(op: str, get: Callable[[Any], Any], c: Any) -> PlayerTest:
    """:func:`_field_compare`'s answers as a test of the variable's value."""
    if c is None:
        if op == "==":
            return lambda rules, state, o: o is None or get(o) is None
        return lambda rules, state, o: o is not None and get(o) is not None
    if op == "==":
        return lambda rules, state, o: o is not None and get(o) == c
    return lambda rules, state, o: o is None or get(o) != c


def _player_field_test(op: str, which: str, get: Callable[[Any], Any], c: Any
                       ) -> PlayerTest:
    """``role(VAR.F) == C`` / ``faction(VAR.F) == C`` (``!=``; C not ``none``) as a test
    of VAR's value: the builtin's answer (``none`` for nobody) compared."""
    if which == "role":
        if op == "==":
            return lambda rules, state, o: o is not None and (
                p := state.players.get(get(o))) is not None and p.role == c
        return lambda rules, state, o: o is None or (
            p := state.players.get(get(o))) is None or p.role != c
    if op == "==":
        return lambda rules, state, o: o is not None and (
            p := state.players.get(get(o))) is not None and (
            rules["$rules"].role_factions.get(p.role) == c)
    return lambda rules, state, o: o is None or (
        p := state.players.get(get(o))) is None or (
        rules["$rules"].role_factions.get(p.role) != c)


def _fact_of_field_test(op: str, flag_field: tuple[str, str, Callable[[Any], Any]],
                        field_get: Callable[[Any], Any]) -> PlayerTest:
    """:func:`_fact_of_field_compare`'s answers as a test of the variable's value."""
    base, _, fact_get = flag_field
    if op == "==":
        return lambda rules, state, o: (state.flags.get(base) == None  # noqa: E711
                                        if o is None else state.flags.get(
                                            base + (fact_get(o) or "")) == field_get(o))
    return lambda rules, state, o: (state.flags.get(base) != None  # noqa: E711
                                    if o is None else state.flags.get(
                                        base + (fact_get(o) or "")) != field_get(o))


def _lookup_of(op: str, x: _Out, y: _Out) -> tuple[str, Lookup] | None:
    """``FACT OP VAR`` of a fact of nobody in particular, or ``KEPT OP VAR`` of a kept
    definition (either way round; ``op``: ``==`` or ``!=``; see :func:`_fused_compare`),
    as VAR and the lookup of the other side (:data:`Lookup`)."""
    if op not in ("==", "!="):
        return None
    for a, b in ((x, y), (y, x)):
        if b.var is None:
            continue
        if a.flag is not None and a.flag[1] is None:
            return b.var, (None, a.flag[0], 0, None, op == "==")
        if a.kept_read is not None:
            memo_key, part, compute = a.kept_read
            return b.var, (memo_key, None, part, compute, op == "==")
    return None


def lookup_value(lookup: Lookup, state: Any, static: Env) -> Any:
    """What a lookup reads (``static``: ``$rules`` and ``$facts``): the fact's flag, or the
    kept definition's memo entry while it is valid, worked out by the definition's own
    code (and kept) when it is not."""
    memo_key, flag, part, compute, _ = lookup
    if flag is not None:
        return state.flags.get(flag)
    entry = state.memo.get(memo_key)
    if entry is not None and entry[0] == state.stamp[part]:
        return entry[1]
    assert compute is not None
    return compute({"$state": state, **static})


def _lookup_test(lookup: Lookup) -> PlayerTest:
    """A lookup compared with the value, as a test of the value (an actor check reads
    its lookups in place instead: ``ruleset._check_function``)."""
    equal = lookup[4]
    return lambda rules, state, value: (lookup_value(lookup, state, rules) == value) is equal


def _both_of_player(x: _Out, y: _Out, both: bool) -> dict[str, Any]:
    """:attr:`_Out.of_player` (with :attr:`_Out.of_and` or :attr:`_Out.of_or`) of ``x and
    y`` (``both``) or ``x or y``, two such tests of the same variable; ``{}`` if not."""
    if x.of_player is None or y.of_player is None or x.of_player[0] != y.of_player[0]:
        return {}
    chain = x.of_and if both else x.of_or
    tests = (*(chain or (x.of_player[1],)), y.of_player[1])
    if both:
        lookups = (None if x.of_lookups is None or y.of_lookups is None
                   else (*x.of_lookups, *y.of_lookups))
        return {"of_player": (x.of_player[0], _all_tests(tests)), "of_and": tests,
                "of_lookups": lookups}
    return {"of_player": (x.of_player[0], _any_test(tests)), "of_or": tests}


def _all_tests(tests: tuple[PlayerTest, ...]) -> PlayerTest:
    """``a and b and …`` of tests of one value, in one function (see :func:`all_of`)."""
    if len(tests) == 2:
        a, b = tests
        return lambda r, s, v: a(r, s, v) and b(r, s, v)
    if len(tests) == 3:
        a, b, c = tests
        return lambda r, s, v: a(r, s, v) and b(r, s, v) and c(r, s, v)
    if len(tests) == 4:
        a, b, c, d = tests
        return lambda r, s, v: a(r, s, v) and b(r, s, v) and c(r, s, v) and d(r, s, v)
    if len(tests) == 5:  # (C3.2's valid ballot)
        a, b, c, d, e = tests
        return lambda r, s, v: (a(r, s, v) and b(r, s, v) and c(r, s, v) and d(r, s, v)
                                and e(r, s, v))
    first, rest = tests[0], _all_tests(tests[1:])
    return lambda r, s, v: first(r, s, v) and rest(r, s, v)


def _any_test(tests: tuple[PlayerTest, ...]) -> PlayerTest:
    """``a or b or …`` of tests of one value, in one function."""
    if len(tests) == 2:
        a, b = tests
        return lambda r, s, v: a(r, s, v) or b(r, s, v)
    first, rest = tests[0], _any_test(tests[1:])
    return lambda r, s, v: first(r, s, v) or rest(r, s, v)


def _test_only(of_player: tuple[str, PlayerTest] | None) -> PlayerTest | None:
    return None if of_player is None else of_player[1]


def _not_of_player(x: _Out) -> tuple[str, PlayerTest] | None:
    """:attr:`_Out.of_player` of ``not x``."""
    if x.of_player is None:
        return None
    var, a = x.of_player
    return var, lambda rules, state, value: not a(rules, state, value)


def _record_run(record: tuple[str, Callable[[Env, Any], bool], bool]) -> Compiled:
    """The code of a record test: the player's record looked up once."""
    v, test, missing = record
    return lambda env: missing if (p := env["$state"].players.get(env[v])) is None else (
        test(env, p))


def _record_filter(over: Compiled, record: tuple[str, Callable[[Env, Any], bool], bool]
                   ) -> Compiled:
    """``[v for v in over if TEST(v)]`` of a record test: the same list as
    :func:`_comprehension`'s (the test reads nothing but the record and the rules)."""
    _, test, missing = record

    def run(env: Env) -> list[Any]:
        get = env["$state"].players.get
        found: list[Any] = []
        for value in over(env):
            p = get(value)
            if (missing if p is None else test(env, p)):
                found.append(value)
        return found

    return run


def _player_compare(op: str, which: str, var: str, c: Any) -> Compiled:
    """``role(VAR) == C`` / ``faction(VAR) == C`` (``!=``) with the player's record read
    here: what the builtin would return (``none`` for no such player, never equal to a
    constant that is not ``none``), compared, in one function."""
    if which == "role":
        if op == "==":
            return lambda env: (p := env["$state"].players.get(env[var])) is not None and (
                p.role == c)
        return lambda env: (p := env["$state"].players.get(env[var])) is None or p.role != c
    if op == "==":
        return lambda env: (p := env["$state"].players.get(env[var])) is not None and (
            env["$rules"].role_factions.get(p.role) == c)
    return lambda env: (p := env["$state"].players.get(env[var])) is None or (
        env["$rules"].role_factions.get(p.role) != c)


def _field_compare(op: str, var: str, get: Callable[[Any], Any], c: Any) -> Compiled:
    """``VAR.FIELD == C`` / ``!=`` for an object held in a variable, in one function: a
    variable holding ``none`` has every field ``none`` (``none == C`` is false unless C
    is ``none``)."""
    if c is None:
        if op == "==":
            return lambda env: (o := env[var]) is None or get(o) is None
        return lambda env: (o := env[var]) is not None and get(o) is not None
    if op == "==":
        return lambda env: (o := env[var]) is not None and get(o) == c
    return lambda env: (o := env[var]) is None or get(o) != c


def _role_comprehension(var: str, over: Compiled, by_role: RoleFilter) -> Compiled:
    """``[var for var in over if COND]`` of a condition that is a role filter on ``var``
    (:attr:`_Out.role_filter`): the same list as :func:`_comprehension`'s, each role
    read in place; the variable is bound (and its old value put back) only when the
    filter has a rest to ask."""
    _, roles, rest = by_role
    if rest is None:
        def run(env: Env) -> list[Any]:
            players = env["$state"].players
            found: list[Any] = []
            for value in over(env):
                p = players.get(value)
                if p is not None and p.role in roles:
                    found.append(value)
            return found

        return run

    def run_rest(env: Env) -> list[Any]:
        items = over(env)
        found: list[Any] = []
        if not items and items is not None:
            return found
        players = env["$state"].players
        had, old = var in env, env.get(var)
        try:
            for value in items:
                p = players.get(value)
                if p is not None and p.role in roles:
                    env[var] = value
                    if rest(env):
                        found.append(value)
        finally:
            if had:
                env[var] = old
            else:
                env.pop(var, None)
        return found

    return run_rest


def _test_of(cond: _Out | None, var: str) -> PlayerTest | None:
    """A comprehension's condition as a test of its item (:attr:`_Out.of_player` on the
    comprehension's own variable), or ``None``."""
    if cond is None or cond.of_player is None or cond.of_player[0] != var:
        return None
    return cond.of_player[1]


def _tested_filter(over: Compiled, test: PlayerTest) -> Compiled:
    """``[v for v in over if TEST(v)]`` of a test of the item: the same list as
    :func:`_comprehension`'s (the test reads the item, the state and the rules only; the
    environment holds ``$rules`` and ``$facts``)."""
    def run(env: Env) -> list[Any]:
        items = over(env)
        found: list[Any] = []
        if not items and items is not None:
            return found
        state = env["$state"]
        for value in items:
            if test(env, state, value):
                found.append(value)
        return found

    return run


def _comprehension(var: str, over: Compiled, cond: Compiled | None,
                   element: Compiled | None) -> Compiled:
    """``[element for var in over if cond]``: the item is bound in the environment itself
    and the name's old value put back after (a copy of the environment per item cost
    more than the rest); ``element`` ``None``: the item itself."""
    def run(env: Env) -> list[Any]:
        items = over(env)
        found: list[Any] = []
        if not items and items is not None:  # nothing to bind, nothing to put back
            # (most of a night's slots; ``none`` goes on to fail as it did)
            return found
        had, old = var in env, env.get(var)
        try:
            if cond is None:
                if element is None:
                    found.extend(items)
                else:
                    for value in items:
                        env[var] = value
                        found.append(element(env))
            elif element is None:
                for value in items:
                    env[var] = value
                    if cond(env):
                        found.append(value)
            else:
                for value in items:
                    env[var] = value
                    if cond(env):
                        found.append(element(env))
        finally:
            if had:
                env[var] = old
            else:
                env.pop(var, None)
        return found

    return run


def _first_of(var: str, over: Compiled, cond: Compiled | None, element: Compiled | None,
              some: bool, by_role: RoleFilter | None = None,
              test: PlayerTest | None = None) -> Compiled:
    """``first([element for var in over if cond])`` (``some``: ``some([…])``) without the
    list: the items are looked at until one passes ``cond`` (who leads, C5; whether
    anyone left last night, C2.4). The same answer as the whole comprehension's, as an
    expression changes nothing. ``by_role``: ``cond`` as a role filter on ``var`` (C7.2's
    lover: ``some([c for c in alive() if team(c) and …])``)."""
    if by_role is not None:
        _, roles, rest = by_role

        def by_roles(env: Env) -> Any:
            items = over(env)
            if not items and items is not None:
                return False if some else None
            players = env["$state"].players
            had, old = var in env, env.get(var)
            try:
                for value in items:
                    p = players.get(value)
                    if p is not None and p.role in roles:
                        env[var] = value
                        if rest is None or rest(env):
                            if some:
                                return True
                            return value if element is None else element(env)
            finally:
                if had:
                    env[var] = old
                else:
                    env.pop(var, None)
            return False if some else None

        return by_roles

    if test is not None:
        # ``cond`` as a test of the item (:attr:`_Out.of_player`): the name bound only
        # for the element of the item found
        def tested(env: Env) -> Any:
            items = over(env)
            if not items and items is not None:
                return False if some else None
            state = env["$state"]
            for value in items:
                if test(env, state, value):
                    if some:
                        return True
                    return value if element is None else _element_of(env, var, value,
                                                                      element)
            return False if some else None

        return tested

    def run(env: Env) -> Any:
        items = over(env)
        if not items and items is not None:
            return False if some else None
        had, old = var in env, env.get(var)
        try:
            for value in items:
                env[var] = value
                if cond is None or cond(env):
                    if some:
                        return True
                    return value if element is None else element(env)
        finally:
            if had:
                env[var] = old
            else:
                env.pop(var, None)
        return False if some else None

    return run


def _element_of(env: Env, var: str, value: Any, element: Compiled) -> Any:
    """``element`` with ``var`` bound to ``value``, the name's old value put back after."""
    had, old = var in env, env.get(var)
    env[var] = value
    try:
        return element(env)
    finally:
        if had:
            env[var] = old
        else:
            env.pop(var, None)


def _count_name(tree: Any, name: str) -> int:
    """How often ``name`` occurs in ``tree`` (as any name: a safe overcount)."""
    return sum(1 for token in tree.scan_values(lambda t: isinstance(t, Token))
               if token.type == "NAME" and str(token) == name)


def _has_comprehension(tree: Any) -> bool:
    return any(node.data in ("comp", "map_comp") for node in tree.iter_subtrees())


def _getitem(value: Any, key: str) -> Any:
    """A field of a value the compiler could not type (a notice, a fact declared
    ``any``): mappings only, so an expression never reaches a Python attribute."""
    return value.get(key) if isinstance(value, Mapping) else None


#: records whose values are objects (engine submissions, phases), not mappings
_OBJECT_RECORDS = frozenset({"sub", "phase"})


def compile_expr(source: Any, scope: Scope, want: str | None = None) -> Expr:
    """Parse, check and compile ``source`` in ``scope``; raise :class:`ExprError`.
    ``source`` is what YAML read: an expression, or a bool or number written plain."""
    if not isinstance(source, str):
        source = ("true" if source else "false") if isinstance(source, bool) else str(source)
    try:
        tree = _PARSER.parse(source)
    except LarkError as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else "syntax error"
        raise ExprError(f"cannot read the expression {source!r}: {first}") from None
    compiler = _Compiler(scope)
    out = compiler.compile(tree)
    if want is not None:
        compiler.check_literal(out, want)
        if not fits(out.type, want):
            raise ExprError(f"{source!r} is {_article(out.type)}, {_article(want)} is "
                            f"needed here")
    return Expr(source, out.run, out.type, frozenset(compiler.variables),
                frozenset(compiler.facts), frozenset(compiler.reads), strict=out.strict,
                equals=out.equals, tree=tree, inlinable=not _has_comprehension(tree),
                role_filter=out.role_filter, nothing_awaited_of=out.nothing_awaited_of,
                of_player=out.of_player, of_lookups=out.of_lookups,
                and_terms=None if out.and_ is None or out.and_uses is None else tuple(
                    zip(out.and_, out.and_uses, strict=True)))


def _article(type_name: str) -> str:
    """A type's name with its English article ("an int", "a bool") for the messages."""
    return f"an {type_name}" if type_name[:1] in "aeiou" else f"a {type_name}"
