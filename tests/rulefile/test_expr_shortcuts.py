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
from nightfall.rulefile.expr import Scope, compile_expr

SCOPE = Scope({"p": "player", "ps": "list[player]", "s": "sub", "slot": "slot"}, BUILTINS,
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
