"""The expression language: parsed by lark, checked against the names a file declares,
compiled to closures once (never ``eval``)."""

from __future__ import annotations

import pytest

from nightfall.rulefile.builtins import BUILTINS, RECORDS
from nightfall.rulefile.expr import ExprError, Scope, compile_expr

SCOPE = Scope({"n": "int", "p": "player", "ps": "list[player]"}, BUILTINS,
              {"tied": ("list[player]", False), "partner": ("player", True)},
              {"role": frozenset({"pony", "shield"}), "status": frozenset({"leader"})},
              RECORDS)


def run(source: str, **env: object) -> object:
    return compile_expr(source, SCOPE).run({"n": 5, "p": "Ann", "ps": ["Ann", "Bob"], **env})


def test_arithmetic_conditions_and_comprehensions() -> None:
    assert run("2 if n <= 11 else 3 if n <= 17 else 4") == 2
    assert run("(n - 1) // 2 * 3") == 6
    assert run("[q for q in ps if q != p]") == ["Bob"]
    assert run("{q: 1 for q in ps}") == {"Ann": 1, "Bob": 1}
    assert run("p in ps and 'Cid' not in ps and not false") is True
    assert run("take(ps, 1) + ['Cid']") == ["Ann", "Cid"]
    assert run("ps[1]") == "Bob"


def test_what_an_expression_reads_is_known_before_it_runs() -> None:
    compiled = compile_expr("p in tied and partner(p) != none and len(alive()) > 1", SCOPE)
    assert compiled.type == "bool"
    assert compiled.variables == {"p"}
    assert compiled.facts == {"tied", "partner"}
    assert "players" in compiled.reads


@pytest.mark.parametrize(("source", "problem"), [
    ("has(p, 'leadr')", "unknown status 'leadr'"),
    ("nobody(p)", "unknown function 'nobody'"),
    ("q", "unknown name 'q'"),
    ("n + ps", "'+' needs numbers"),
    ("n and true", "'and' needs a bool, not an int"),
    ("partner", "kept per player"),
    ("len(1, 2)", "takes 1 argument"),
    ("__import__('os')", "unknown function '__import__'"),
    ("p.__class__", "no field '__class__'"),
    ("n; n", "cannot read the expression"),
])
def test_errors(source: str, problem: str) -> None:
    with pytest.raises(ExprError, match=problem.replace("(", r"\(").replace("+", r"\+")):
        compile_expr(source, SCOPE)


def test_the_wanted_type_is_checked() -> None:
    with pytest.raises(ExprError, match="a bool is needed"):
        compile_expr("n", SCOPE, "bool")
    with pytest.raises(ExprError, match="unknown role 'pegasus'"):
        compile_expr("'pegasus'", SCOPE, "role")
