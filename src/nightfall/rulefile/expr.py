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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
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


def is_str(kind: str) -> bool:
    return kind in ("str", "player", *NAME_KINDS)


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

    def with_vars(self, **more: str) -> Scope:
        return Scope({**self.variables, **more}, self.functions, self.facts, self.names,
                     self.records)


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


@dataclass
class _Out:
    run: Compiled
    type: str
    literal: str | None = None  # the value of a string literal (for name checks)


class _Compiler:
    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.variables: set[str] = set()
        self.facts: set[str] = set()
        self.reads: set[str] = set()
        self.local: list[dict[str, str]] = []

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
        return out

    # -- atoms ---------------------------------------------------------------------------
    def _int_(self, token: Token) -> _Out:
        value = int(token)
        return _Out(lambda env: value, "int")

    def _string(self, token: Token) -> _Out:
        value = str(token)[1:-1]
        return _Out(lambda env: value, "str", literal=value)

    def _true(self) -> _Out:
        return _Out(lambda env: True, "bool")

    def _false(self) -> _Out:
        return _Out(lambda env: False, "bool")

    def _none(self) -> _Out:
        return _Out(lambda env: None, "none")

    def _name(self, token: Token) -> _Out:
        name = str(token)
        kind = self.var_type(name)
        if kind is not None:
            if not any(name in frame for frame in self.local):
                self.variables.add(name)
            return _Out(lambda env: env[name], kind)
        fact = self.scope.facts.get(name)
        if fact is not None:
            kind, per_player = fact
            if per_player:
                raise ExprError(f"fact {name!r} is kept per player: write {name}(player)")
            self.facts.add(name)
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
            return _Out(lambda env: env["$facts"].get(env, name, prun(env)), kind)
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
        runs = tuple(o.run for o in outs)
        impl = function.run
        if not runs:
            return _Out(lambda env: impl(env), kind)
        if len(runs) == 1:
            (one,) = runs
            return _Out(lambda env: impl(env, one(env)), kind)
        return _Out(lambda env: impl(env, *[r(env) for r in runs]), kind)

    def _list_(self, *items: Tree[Token] | None) -> _Out:
        outs = [self.compile(i) for i in items if i is not None]
        kinds = {o.type for o in outs}
        item = kinds.pop() if len(kinds) == 1 else "str" if kinds and all(
            is_str(k) for k in kinds) else "any"
        for out in outs:
            self.check_literal(out, item)
        runs = tuple(o.run for o in outs)
        return _Out(lambda env: [r(env) for r in runs], list_of(item))

    def _comprehension(self, name: Token, source: Tree[Token], condition: Tree[Token] | None
                       ) -> tuple[Compiled, str, Compiled | None, dict[str, str]]:
        over = self.compile(source)
        if not (over.type.startswith("list[") or over.type in ("any", "list")):
            raise ExprError(f"'for {name} in …' needs a list, not {_article(over.type)}")
        frame = {str(name): item_of(over.type)}
        self.local.append(frame)
        cond = None
        if condition is not None:
            out = self.compile(condition)
            if not fits(out.type, "bool"):
                raise ExprError(f"the condition of a comprehension must be a bool, not "
                                f"{_article(out.type)}")
            cond = out.run
        return over.run, item_of(over.type), cond, frame

    def _comp(self, element: Tree[Token], name: Token, source: Tree[Token],
              condition: Tree[Token] | None) -> _Out:
        over, _, cond, _frame = self._comprehension(name, source, condition)
        elem = self.compile(element)
        self.local.pop()
        var = str(name)
        erun = elem.run

        def run(env: Env) -> list[Any]:
            found = []
            for value in over(env):
                inner = {**env, var: value}
                if cond is None or cond(inner):
                    found.append(erun(inner))
            return found

        return _Out(run, list_of(elem.type))

    def _map_comp(self, key: Tree[Token], value: Tree[Token], name: Token,
                  source: Tree[Token], condition: Tree[Token] | None) -> _Out:
        over, _, cond, _frame = self._comprehension(name, source, condition)
        k, v = self.compile(key), self.compile(value)
        self.local.pop()
        var, krun, vrun = str(name), k.run, v.run

        def run(env: Env) -> dict[Any, Any]:
            found = {}
            for item in over(env):
                inner = {**env, var: item}
                if cond is None or cond(inner):
                    found[krun(inner)] = vrun(inner)
            return found

        return _Out(run, f"map[{k.type},{v.type}]")

    # -- operators -----------------------------------------------------------------------
    def _bool(self, node: Tree[Token], what: str) -> _Out:
        out = self.compile(node)
        if not fits(out.type, "bool"):
            raise ExprError(f"'{what}' needs a bool, not {_article(out.type)}")
        return out

    def _or_(self, a: Tree[Token], b: Tree[Token]) -> _Out:
        x, y = self._bool(a, "or").run, self._bool(b, "or").run
        return _Out(lambda env: bool(x(env)) or bool(y(env)), "bool")

    def _and_(self, a: Tree[Token], b: Tree[Token]) -> _Out:
        x, y = self._bool(a, "and").run, self._bool(b, "and").run
        return _Out(lambda env: bool(x(env)) and bool(y(env)), "bool")

    def _not_(self, a: Tree[Token]) -> _Out:
        x = self._bool(a, "not").run
        return _Out(lambda env: not x(env), "bool")

    def _ternary(self, then: Tree[Token], cond: Tree[Token], other: Tree[Token]) -> _Out:
        c = self._bool(cond, "if").run
        t, o = self.compile(then), self.compile(other)
        kind = t.type if o.type in (t.type, "none") else o.type if t.type == "none" else (
            t.type if fits(o.type, t.type) else "any")
        trun, orun = t.run, o.run
        return _Out(lambda env: trun(env) if c(env) else orun(env), kind)

    def _compare(self, a: Tree[Token], op: Token, b: Tree[Token]) -> _Out:
        x, y = self.compile(a), self.compile(b)
        self.check_literal(x, y.type)
        self.check_literal(y, x.type)
        if not (fits(x.type, y.type) or fits(y.type, x.type)):
            raise ExprError(f"cannot compare {_article(x.type)} with {_article(y.type)}")
        xr, yr = x.run, y.run
        ops: dict[str, Callable[[Any, Any], bool]] = {
            "==": lambda p, q: bool(p == q), "!=": lambda p, q: bool(p != q),
            "<": lambda p, q: bool(p < q), "<=": lambda p, q: bool(p <= q),
            ">": lambda p, q: bool(p > q), ">=": lambda p, q: bool(p >= q)}
        fn = ops[str(op)]
        if str(op) in ("<", "<=", ">", ">=") and not (
                x.type == y.type == "int" or (is_str(x.type) and is_str(y.type))):
            raise ExprError(f"'{op}' compares numbers, not {_article(x.type)} and "
                            f"{_article(y.type)}")
        return _Out(lambda env: fn(xr(env), yr(env)), "bool")

    def _membership(self, a: Tree[Token], b: Tree[Token]) -> tuple[Compiled, Compiled]:
        x, y = self.compile(a), self.compile(b)
        if not (y.type.startswith(("list[", "map[")) or y.type in ("any", "list", "map")):
            raise ExprError(f"'in' needs a list, not {_article(y.type)}")
        self.check_literal(x, item_of(y.type))
        if not fits(x.type, item_of(y.type)):
            raise ExprError(f"{_article(x.type)} is never in {_article(y.type)}")
        return x.run, y.run

    def _in_(self, a: Tree[Token], b: Tree[Token]) -> _Out:
        x, y = self._membership(a, b)
        return _Out(lambda env: x(env) in (y(env) or ()), "bool")

    def _not_in(self, a: Tree[Token], b: Tree[Token]) -> _Out:
        x, y = self._membership(a, b)
        return _Out(lambda env: x(env) not in (y(env) or ()), "bool")

    def _arith(self, a: Tree[Token], op: Token, b: Tree[Token]) -> _Out:
        x, y = self.compile(a), self.compile(b)
        xr, yr = x.run, y.run
        if str(op) == "+" and x.type.startswith("list[") and y.type.startswith("list["):
            kind = x.type if fits(y.type, x.type) else "list[any]"
            return _Out(lambda env: [*xr(env), *yr(env)], kind)
        if not (x.type in ("int", "any") and y.type in ("int", "any")):
            raise ExprError(f"'{op}' needs numbers (or two lists for +), not {_article(x.type)} "
                            f"and {_article(y.type)}")
        ops: dict[str, Callable[[int, int], int]] = {
            "+": lambda p, q: p + q, "-": lambda p, q: p - q, "*": lambda p, q: p * q,
            "//": lambda p, q: p // q}
        fn = ops[str(op)]
        return _Out(lambda env: fn(xr(env), yr(env)), "int")

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
        getter = _FIELD_GETTERS.get(out.type, _getitem)

        def run(env: Env) -> Any:
            value = brun(env)
            return None if value is None else getter(value, key)

        return _Out(run, kind)

    def _index(self, base: Tree[Token], index: Tree[Token]) -> _Out:
        b, i = self.compile(base), self.compile(index)
        brun, irun = b.run, i.run
        if b.type.startswith("list["):
            if i.type not in ("int", "any"):
                raise ExprError(f"a list is indexed by a number, not {_article(i.type)}")
            return _Out(lambda env: brun(env)[irun(env)], item_of(b.type))
        if b.type.startswith("map["):
            value = b.type[4:-1].split(",", 1)[1]
            return _Out(lambda env: brun(env).get(irun(env)), value)
        raise ExprError(f"{_article(b.type)} cannot be indexed")


def _getitem(value: Any, key: str) -> Any:
    """A field of a value the compiler could not type (a notice, a fact declared
    ``any``): mappings only, so an expression never reaches a Python attribute."""
    return value.get(key) if isinstance(value, Mapping) else None


def _getattr(value: Any, key: str) -> Any:
    return getattr(value, key)


#: records whose values are objects (engine submissions, phases), not mappings
_FIELD_GETTERS: dict[str, Callable[[Any, str], Any]] = {"sub": _getattr, "phase": _getattr}


def compile_expr(source: str, scope: Scope, want: str | None = None) -> Expr:
    """Parse, check and compile ``source`` in ``scope``; raise :class:`ExprError`."""
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
                frozenset(compiler.facts), frozenset(compiler.reads))


def _article(type_name: str) -> str:
    """A type's name with its English article ("an int", "a bool") for the messages."""
    return f"an {type_name}" if type_name[:1] in "aeiou" else f"a {type_name}"
