"""The compiler's shortcuts (issue 20, round 3: docs/performance.md) give what the plain
reading of an expression gives: a test of one player's record for a name that is no
player, ``first``/``some``/``len(...) == 0`` of a comprehension that stop at the first
item, conditions known at load, ``not`` of a comparison, the round's submissions by slot
and the shared list of the living players."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from nightfall.engine.phase import Phase
from nightfall.engine.state import PLAYERS, SUBMISSIONS, GameState, PlayerState, Submission
from nightfall.rulefile.builtins import BUILTINS, RECORDS
from nightfall.rulefile.expr import Function, Scope, compile_expr

SCOPE = Scope({"p": "player", "q": "player", "ps": "list[player]", "s": "sub",
               "slot": "slot"}, BUILTINS,
              {"partner": ("player", True), "tied": ("list[player]", False)},
              {"role": frozenset({"pony", "shield", "changeling"}),
               "status": frozenset({"leader", "voiceless"}),
               "slot": frozenset({"vote", "kill", "shield"}),
               "action": frozenset({"vote", "pass", "abduct"})},
              RECORDS, {"partner": "c.partner:", "tied": "c.tied"})


class _Rules:
    """What the builtins read of a rule set: the factions of the roles."""

    role_factions: ClassVar[dict[str, str]] = {
        "pony": "ponies", "shield": "ponies", "changeling": "changelings"}
    role_tags: ClassVar[dict[str, frozenset[str]]] = {}


def _state() -> GameState:
    state = GameState()
    state.phase = Phase("night", 2, 1)
    for seat, (name, role) in enumerate([("Ann", "pony"), ("Bob", "changeling"),
                                         ("Cid", "shield"), ("Dee", "pony")]):
        state.players[name] = PlayerState(name, seat, role=role)
    state.players["Bob"].statuses.add("leader")
    state.players["Dee"].alive = False
    state.flags["c.partner:Ann"] = "Cid"
    state.submissions[("Ann", "vote")] = Submission("Ann", "vote", "vote", ("Bob",))
    state.submissions[("Bob", "kill")] = Submission("Bob", "abduct", "kill", ("Ann",))
    state.submissions[("Cid", "vote")] = Submission("Cid", "pass", "vote")
    return state


def run(source: str, state: GameState | None = None, **env: Any) -> Any:
    found = state if state is not None else _state()
    return compile_expr(source, SCOPE).run({"$state": found, "$rules": _Rules(), **env})


@pytest.mark.parametrize(("source", "p", "expected"), [
    ("role(p) == 'pony'", "Ann", True),
    ("role(p) == 'pony'", "Nobody", False),  # no such player: his role is none
    ("role(p) != 'pony'", "Nobody", True),
    ("role(p) in ['pony', 'shield']", "Cid", True),
    ("role(p) in ['pony', 'shield']", "Nobody", False),
    ("faction(p) == 'changelings'", "Bob", True),
    ("not (faction(p) == 'changelings')", "Nobody", True),
    ("is_alive(p)", "Dee", False),
    ("not is_alive(p)", "Nobody", True),
    ("has(p, 'leader')", "Bob", True),
    ("not has(p, 'leader')", "Nobody", True),
    ("partner(p) != none", "Ann", True),
    ("partner(p) == none", "Bob", True),
    ("partner(p) == none", None, True),  # none names nobody: no flag of that key
    ("sub(p, 'vote') == none", "Ann", False),
    ("sub(p, 'vote') != none", "Cid", True),  # a pass is a submission too
    ("sub(p, 'kill') == none", "Ann", True),
    ("sub(p, 'vote') == none", None, True),
    ("partner(p) != p", "Ann", True),  # a fact compared with a variable
    ("partner(p) == p", None, True),  # none's partner is none
])
def test_a_test_of_one_players_record(source: str, p: str | None, expected: bool) -> None:
    assert run(source, p=p) is expected


@pytest.mark.parametrize(("source", "expected"), [
    ("is_alive(s.player)", True),
    ("not is_alive(s.target)", False),
    ("has(s.player, 'voiceless')", False),
    ("not has(s.target, 'leader')", False),
    ("partner(s.player) == s.target", False),
])
def test_a_test_of_a_field(source: str, expected: bool) -> None:
    assert run(source, s=Submission("Ann", "vote", "vote", ("Bob",))) is expected
    # a submission that is none has every field none: nobody's record
    assert run(source, s=None) is (source.startswith("not") or "==" in source)


def test_first_and_some_of_a_comprehension_stop_at_the_first_item() -> None:
    # the item after the first that passes is never looked at: ps[5] would fail for it
    assert run("first([q for q in ps if q == 'Ann' or ps[5] == q])", ps=["Ann", "Bob"]) == "Ann"
    assert run("some([q for q in ps if q == 'Ann' or ps[5] == q])", ps=["Ann", "Bob"]) is True
    assert run("len([q for q in ps if q == 'Ann' or ps[5] == q]) > 0", ps=["Ann", "Bob"])
    # the same answers as the whole list's, and the name bound by the loop put back
    assert run("first([role(q) for q in ps if is_alive(q)])", ps=["Dee", "Cid"]) == "shield"
    assert run("first([q for q in ps if q == 'Eve'])", ps=["Ann"]) is None
    assert run("some([q for q in ps if q == 'Eve'])", ps=["Ann"]) is False
    assert run("first([p for p in ps if p != 'Ann']) == 'Bob' and p == 'Cid'",
               ps=["Ann", "Bob"], p="Cid") is True


@pytest.mark.parametrize(("source", "ps", "expected"), [
    ("len(ps) == 0", [], True),
    ("len(ps) == 0", ["Ann"], False),
    ("len(ps) != 0", ["Ann"], True),
    ("0 < len(ps)", ["Ann"], True),
    ("0 == len(ps)", [], True),
    ("len(tied) == 0", ["Ann"], True),  # a fact that is none counts as empty
    ("len([q for q in ps if is_alive(q)]) == 0", ["Dee"], True),
    ("len([q for q in ps if is_alive(q)]) == 0", ["Dee", "Ann"], False),
    ("len(ps) == 1", ["Ann"], True),
])
def test_the_length_compared_with_nought(source: str, ps: list[str], expected: bool) -> None:
    assert run(source, ps=ps) is expected


@pytest.mark.parametrize(("source", "expected"), [
    ("'vote' == 'vote' and p == 'Ann'", True),
    ("'vote' == 'kill' and ps[5] == p", False),  # known false: the rest is not asked
    ("'vote' != 'kill' or ps[5] == p", True),
    ("not ('vote' == 'kill') and p != 'Bob'", True),
    ("1 < 2 and not (p == 'Ann')", False),
    ("not true or p == 'Ann'", True),
])
def test_conditions_known_at_load(source: str, expected: bool) -> None:
    assert run(source, p="Ann", ps=[]) is expected


def test_subs_by_slot_in_the_order_given_and_anew_after_a_change() -> None:
    state = _state()
    assert run("[s.player for s in subs('vote')]", state) == ["Ann", "Cid"]
    assert run("[s.player for s in subs('kill') if s.action != 'pass']", state) == ["Bob"]
    assert run("subs('shield')", state) == []
    state.submissions[("Dee", "vote")] = Submission("Dee", "vote", "vote", ("Ann",))
    state.stamp[SUBMISSIONS] += 1  # what applying the event does
    assert run("[s.player for s in subs('vote')]", state) == ["Ann", "Cid", "Dee"]


def test_the_living_players_are_shared_but_never_changed() -> None:
    state = _state()
    assert run("alive() + ['Eve']", state) == ["Ann", "Bob", "Cid", "Eve"]
    assert run("alive()", state) == ["Ann", "Bob", "Cid"]
    state.players["Ann"].alive = False
    state.stamp[PLAYERS] += 1
    assert run("alive()", state) == ["Bob", "Cid"]



#: (a condition the shortcuts read, the same written so that they do not: ``X if true
#: else false`` is no record test, so each term is worked out and combined by itself)
RECORD_TESTS = [
    ("not (faction(q) == 'changelings') and not has(q, 'voiceless')",  # C1.4's voters
     "(not (faction(q) == 'changelings') if true else false)"
     " and (not has(q, 'voiceless') if true else false)"),
    ("faction(q) == 'changelings' and is_alive(q)",
     "(faction(q) == 'changelings' if true else false) and (is_alive(q) if true else false)"),
    ("role(q) != 'pony' and not is_alive(q)",
     "(role(q) != 'pony' if true else false) and (not is_alive(q) if true else false)"),
    ("not (role(q) == 'shield' and has(q, 'leader'))",
     "not ((role(q) == 'shield' if true else false) and (has(q, 'leader') if true else false))"),
    ("has(q, 'leader') and role(q) == 'changeling' and is_alive(q)",
     "(has(q, 'leader') if true else false) and (role(q) == 'changeling' if true else false)"
     " and (is_alive(q) if true else false)"),
    ("is_alive(q)", "(is_alive(q) if true else false)"),
    ("not has(q, 'leader')", "(not has(q, 'leader') if true else false)"),
]


@pytest.mark.parametrize(("condition", "plain"), RECORD_TESTS)
def test_tests_of_one_record_read_once_give_the_plain_answers(condition: str, plain: str
                                                              ) -> None:
    # round 4: an ``and`` of record tests reads the record once and a comprehension
    # filtering on one tests each record as it is read; names that are no player too
    state = _state()
    state.players["Ann"].statuses.add("voiceless")
    names = ["Ann", "Bob", "Cid", "Dee", "Nobody", None]
    answers = [run(plain, state, q=q) for q in names]
    assert [run(condition, state, q=q) for q in names] == answers
    assert run(f"[q for q in ps if {condition}]", state, ps=names) == [
        q for q, yes in zip(names, answers, strict=True) if yes]


@pytest.mark.parametrize("target", ["Bob", "Cid", "Dee", "Nobody", None])
@pytest.mark.parametrize("player", ["Ann", "Bob", "Dee", "Nobody"])
def test_a_chain_of_tests_of_fields_gives_the_plain_answers(player: str,
                                                             target: str | None) -> None:
    # C3.2's ballots: tests of the records of two fields in one chain; the plain reading
    # works each term out by itself
    state = _state()
    state.players["Bob"].statuses.add("voiceless")
    joined = ("s.target != none and is_alive(s.player) and is_alive(s.target)"
              " and not has(s.player, 'voiceless') and not has(s.target, 'leader')")
    plain = " and ".join(f"({term} if true else false)" for term in joined.split(" and "))
    for s in (Submission(player, "vote", "vote", (target,) if target else ()), None):
        assert run(joined, state, s=s) is run(plain, state, s=s)
    # (Ann's ballot for Cid is the one that passes)
    assert run(joined, state, s=Submission(player, "vote", "vote", (target,) if target else ()))\
        is (player == "Ann" and target == "Cid")


#: the scope with the file's role table, so that ``faction(q) == …`` is a role filter too
ROLE_SCOPE = Scope(dict(SCOPE.variables), SCOPE.functions, SCOPE.facts, SCOPE.names,
                   SCOPE.records, SCOPE.keys, _Rules.role_factions)

#: (a condition that is a role filter on ``q``, the same written so that it is none)
ROLE_FILTERS = [
    ("role(q) == 'shield'", "(role(q) == 'shield' if true else false)"),
    ("role(q) in ['pony', 'shield']", "(role(q) in ['pony', 'shield'] if true else false)"),
    ("faction(q) == 'changelings'", "(faction(q) == 'changelings' if true else false)"),
    ("faction(q) == 'nobody'", "(faction(q) == 'nobody' if true else false)"),  # no role
    ("role(q) == 'pony' and is_alive(q)",  # the rest asked of those the role admits
     "(role(q) == 'pony' if true else false) and (is_alive(q) if true else false)"),
    ("faction(q) == 'ponies' and partner(q) == p and q != none",
     "(faction(q) == 'ponies' if true else false) and (partner(q) == p if true else false)"
     " and (q != none if true else false)"),
    ("role(q) == 'pony' and not has(q, 'leader')",  # with a record test: both shortcuts
     "(role(q) == 'pony' if true else false) and (not has(q, 'leader') if true else false)"),
]


@pytest.mark.parametrize(("condition", "plain"), ROLE_FILTERS)
def test_loops_filtering_on_roles_give_the_plain_answers(condition: str, plain: str) -> None:
    # round 5: a comprehension (and ``first``, ``some``, ``len(...) == 0`` of one) whose
    # condition tests its variable's role reads each role in place and asks the rest of
    # the condition only of the players it admits; names that are no player too
    state = _state()
    names = ["Ann", "Bob", "Cid", "Dee", "Nobody", None]

    for source in (f"[q for q in ps if {condition}]", f"first([q for q in ps if {condition}])",
                   f"some([q for q in ps if {condition}])",
                   f"len([q for q in ps if {condition}]) == 0",
                   f"[[q, 1] for q in ps if {condition}]"):
        for ps in (names, list(reversed(names)), []):
            answers = []
            for text in (source, source.replace(condition, plain)):
                env = {"$state": state, "$rules": _Rules(), "ps": ps, "p": "Cid", "q": "Bob"}
                answers.append(compile_expr(text, ROLE_SCOPE).run(env))
                assert env["q"] == "Bob"  # the comprehension's variable put back
            assert answers[0] == answers[1], (source, ps)
    shortcut = compile_expr(condition, ROLE_SCOPE)
    assert shortcut.role_filter is not None and shortcut.role_filter[0] == "q"
    assert compile_expr(plain, ROLE_SCOPE).role_filter is None


def test_parts_that_do_not_read_the_item_are_worked_out_once_per_run() -> None:
    # round 5: a part of a comprehension's condition or element that does not read its
    # variable is worked out at its first use in each run, then read (C1.7's roles of
    # the game, C2.4's ``phase.number - 1``, C7.2's ``agreed.target``)
    calls: list[str] = []

    def tick(env: Any, who: str) -> str:
        calls.append(who)
        return who

    functions = {**BUILTINS, "tick": Function(("player",), "player", tick)}
    scope = Scope({"ps": "list[player]", "q": "player", "ys": "list[player]"}, functions,
                  SCOPE.facts, SCOPE.names, SCOPE.records, SCOPE.keys)
    state = _state()

    def run_in(source: str, **env: Any) -> Any:
        return compile_expr(source, scope).run({"$state": state, "$rules": _Rules(), **env})

    names = ["Ann", "Bob", "Cid", "Bob"]
    assert run_in("[p for p in ps if p == tick(q)]", ps=names, q="Bob") == ["Bob", "Bob"]
    assert calls == ["Bob"]  # once for the four items
    assert run_in("[p for p in ps if p == tick(q)]", ps=[], q="Bob") == []
    assert calls == ["Bob"]  # no item: never worked out
    calls.clear()
    # a part that an earlier term skips is not worked out (``ys[0]`` of no ``ys``)
    assert run_in("[p for p in ps if len(ys) > 0 and ys[0] == p]", ps=names, ys=[]) == []
    assert run_in("[p for p in ps if len(ys) > 0 and ys[0] == p]", ps=names,
                  ys=["Cid"]) == ["Cid"]
    # nested: the inner list once per run of the outer one, afresh in each run
    nested = "[[p, [tick(q) for r in ys]] for p in ps]"
    assert run_in(nested, ps=["Ann", "Bob"], ys=["Ann", "Cid"], q="Dee") == [
        ["Ann", ["Dee", "Dee"]], ["Bob", ["Dee", "Dee"]]]
    assert calls == ["Dee"]
    calls.clear()
    assert run_in(nested, ps=["Ann"], ys=["Ann"], q="Cid") == [["Ann", ["Cid"]]]
    assert calls == ["Cid"]
    # an inner comprehension that reads the outer item is worked out per item
    calls.clear()
    assert run_in("[[p, [tick(p) for r in ys]] for p in ps]", ps=["Ann", "Bob"],
                  ys=["Ann", "Cid"]) == [["Ann", ["Ann", "Ann"]], ["Bob", ["Bob", "Bob"]]]
    assert calls == ["Ann", "Bob"]
    # the roles of the game (C1.7): the plain reading's answer
    assert run_in("[r for r in ['pony', 'shield', 'changeling'] if r in "
                  "[role(p) for p in players()]]") == ["pony", "shield", "changeling"]
    assert run_in("first([p for p in ps if p == tick(q)])", ps=names, q="Cid") == "Cid"


@pytest.mark.parametrize("source", [
    "partner(s.player) == s.target", "partner(s.player) != s.target",
    "s.target == partner(s.player)", "not (partner(s.player) == s.target)"])
def test_a_fact_of_a_field_compared_with_a_field_gives_the_plain_answer(source: str) -> None:
    # round 5: C3.2's ``partner(s.player) == s.target`` reads both fields in one function
    state = _state()
    state.flags["c.partner:"] = "Bob"  # the key of nobody's partner: what the plain reads
    subs = [Submission("Ann", "vote", "vote", ("Cid",)), Submission("Ann", "vote", "vote",
                                                                    ("Bob",)),
            Submission("Bob", "vote", "vote", ("Ann",)), Submission("Bob", "pass", "vote"),
            None]
    plain = source.replace("partner(s.player)", "(partner(s.player) if true else none)")
    for s in subs:
        assert run(source, state, s=s) is run(plain, state, s=s), (source, s)
    assert {run(source, state, s=s) for s in subs} == {True, False}  # both answers met
