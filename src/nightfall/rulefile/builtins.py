"""The closed set of functions a rule file's expressions may call.

Each reads the game through the environment (``env["$state"]``, the
:class:`~nightfall.engine.state.GameState`) and never changes it: changes are effects
(``effects.py``). ``reads`` names the part of the game a function looks at; the
validator uses it to tell an actor check from one that reads the submissions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from nightfall.engine.state import PLAYERS as PLAYERS_PART
from nightfall.engine.state import SUBMISSIONS as SUBMISSIONS_PART
from nightfall.rulefile.expr import Env, Function, item_of, list_of

PLAYERS, PHASE, SUBS, OPTIONS, ROLES = "players", "phase", "submissions", "options", "roles"
#: what reads the rule set's flags other than through a fact (what a stage awaits)
FLAG_READS = "flags"


def _state(env: Env) -> Any:
    return env["$state"]


def _rules(env: Env) -> Any:
    return env["$rules"]


def _same(types: Sequence[str]) -> str:
    return types[0] if types else "any"


def _item(types: Sequence[str]) -> str:
    return item_of(types[0]) if types else "any"


def _unique(values: list[Any]) -> list[Any]:
    found: list[Any] = []
    for value in values:
        if value not in found:
            found.append(value)
    return found


def _tally(ballots: Mapping[str, str]) -> dict[str, int]:
    """The votes per name, in the order the names were first voted for (as
    ``dict(Counter(...))`` gives them; a ``Counter`` cost a Python-level constructor per
    day's count, C3.3)."""
    counts: dict[str, int] = {}
    for name in ballots.values():
        counts[name] = counts.get(name, 0) + 1
    return counts


def _plus_one(tally: Mapping[str, int], extra: Sequence[str]) -> dict[str, int]:
    """``tally`` with one more vote for each name of ``extra`` (C10.2's rumours), new names
    after the others."""
    counts = dict(tally)
    for name in extra:
        counts[name] = counts.get(name, 0) + 1
    return counts


#: ``state.memo`` key of the living players, shared (see :func:`alive_pool`)
_ALIVE = "rf.alive"


def alive_pool(state: Any) -> list[str]:
    """The players still in the game, in seating order, worked out once while no player
    changes: every legal list's targets and every ``alive()`` of an expression (the win
    check, what a stage awaits, the resolution steps). Shared: an expression's value is
    never changed in place (the interpreter builds every list anew: comprehensions,
    ``+``, ``sorted``; ``for`` and ``draw`` copy their list first)."""
    entry = state.memo.get(_ALIVE)  # ``derived`` inlined: asked by every list
    mark = state.stamp[PLAYERS_PART]
    if entry is not None and entry[0] == mark:
        kept: list[str] = entry[1]
        return kept
    alive: list[str] = state.alive()
    state.memo[_ALIVE] = (mark, alive)
    return alive


#: ``state.memo`` key of the round's submissions by slot (see :func:`_subs`)
_BY_SLOT = "rf.subs_by_slot"
_NO_SUBS: list[Any] = []


def _subs(env: Env, slot: str) -> list[Any]:
    """The round's submissions in ``slot``, in the order given (the engine's
    ``submissions_in``), from an index by slot kept while the submissions are unchanged:
    a night's resolution asks one slot per step (C15), each a scan of all of them.
    Shared, like :func:`alive_pool`."""
    state = env["$state"]
    entry = state.memo.get(_BY_SLOT)
    mark = state.stamp[SUBMISSIONS_PART]
    if entry is None or entry[0] != mark:
        by_slot: dict[str, list[Any]] = {}
        for (_, in_slot), submission in state.submissions.items():
            found = by_slot.get(in_slot)
            if found is None:
                by_slot[in_slot] = [submission]
            else:
                found.append(submission)
        entry = state.memo[_BY_SLOT] = (mark, by_slot)
    subs: list[Any] = entry[1].get(slot, _NO_SUBS)
    return subs


def _phase(env: Env) -> Any:
    return env["$state"].phase


def _awaited(env: Env, player: str) -> list[str]:
    found: list[str] = env["$rules"].awaited_slots(env["$state"], player)
    return found


# the functions every legal list and every resolution asks for each player: the state
# read straight from the environment (``players.get(None)`` is ``None`` too)
def _role(env: Env, player: str | None) -> str | None:
    found = env["$state"].players.get(player)
    return None if found is None else found.role


def _faction_of(env: Env, role: str | None) -> str | None:
    found: str | None = env["$rules"].role_factions.get(role)
    return found


def _faction(env: Env, player: str | None) -> str | None:
    found = env["$state"].players.get(player)
    return None if found is None else env["$rules"].role_factions.get(found.role)


def _has(env: Env, player: str | None, status: str) -> bool:
    found = env["$state"].players.get(player)
    return found is not None and status in found.statuses


def _is_alive(env: Env, player: str | None) -> bool:
    found = env["$state"].players.get(player)
    return found is not None and found.alive


def _tagged(env: Env, role: str | None, tag: str) -> bool:
    tags = env["$rules"].role_tags.get(role)
    return tags is not None and tag in tags


def _has_tag(env: Env, player: str | None, tag: str) -> bool:
    found = env["$state"].players.get(player)
    tags = None if found is None else env["$rules"].role_tags.get(found.role)
    return tags is not None and tag in tags


def _sub(env: Env, player: str | None, slot: str) -> Any:
    return env["$state"].submissions.get((player, slot)) if player is not None else None


def _strip(env: Env, text: str | None) -> str:
    return (text or "").strip()


def _fn(params: tuple[str, ...], result: str | Callable[[Sequence[str]], str],
        run: Callable[..., Any], *reads: str, varargs: bool = False,
        reduces: str | None = None, reads_player: str | None = None) -> Function:
    # every function here that returns a bool returns True or False itself
    return Function(params, result, run, frozenset(reads), varargs, strict=result == "bool",
                    reduces=reduces, reads_player=reads_player)


BUILTINS: dict[str, Function] = {
    # the players
    "alive": _fn((), list_of("player"), lambda env: alive_pool(env["$state"]), PLAYERS),
    "players": _fn((), list_of("player"), lambda env: list(env["$state"].players), PLAYERS),
    "is_alive": _fn(("player",), "bool", _is_alive, PLAYERS, reads_player="is_alive"),
    "role": _fn(("player",), "role", _role, PLAYERS, reads_player="role"),
    "faction": _fn(("player",), "faction", _faction, PLAYERS, reads_player="faction"),
    "has": _fn(("player", "status"), "bool", _has, PLAYERS, reads_player="has"),
    "has_tag": _fn(("player", "tag"), "bool", _has_tag, PLAYERS),
    # (a player still in the game has no phase of leaving: no label built for him, C2.4)
    "left_during": _fn(("player", "str", "int"), "bool", lambda env, p, kind, number: (
        (left := _state(env).players[p].left_phase) is not None
        and left == f"{kind} {number}"), PLAYERS),
    "winner": _fn((), "faction", lambda env: _state(env).winner or "draw", PLAYERS),
    "winners": _fn((), list_of("player"), lambda env: list(_state(env).winners), PLAYERS),
    # the role table (no game state)
    "roles": _fn((), list_of("role"), lambda env: list(_rules(env).file.roles)),
    "faction_of": _fn(("role",), "faction", _faction_of),
    "tagged": _fn(("role", "tag"), "bool", _tagged),
    "special": _fn(("role",), "bool",
                   lambda env, r: bool(r in _rules(env).file.roles
                                       and _rules(env).file.roles[r].special)),
    # the round's inputs
    "sub": _fn(("player", "slot"), "sub", _sub, SUBS, reads_player="sub"),
    "subs": _fn(("slot",), list_of("sub"), _subs, SUBS),
    "standing_subs": _fn((), list_of("sub"), lambda env: [
        s for s in _state(env).submissions.values() if s.standing], SUBS),
    "awaited": _fn(("player",), list_of("slot"), _awaited, PLAYERS, PHASE, SUBS, FLAG_READS,
                   reads_player="awaited"),
    # the phase and the options
    "phase": _fn((), "phase", _phase, PHASE, reads_player="phase"),
    "option": _fn(("option",), "any", lambda env, name: _state(env).options.get(name),
                  OPTIONS),
    # lists and numbers
    "len": _fn(("any",), "int", lambda env, xs: len(xs or ()), reduces="len"),
    "some": _fn(("list",), "bool", lambda env, xs: bool(xs), reduces="some"),
    "first": _fn(("list",), _item, lambda env, xs: xs[0] if xs else None, reduces="first"),
    "unique": _fn(("list",), _same, lambda env, xs: _unique(list(xs))),
    "sorted": _fn(("list",), _same, lambda env, xs: sorted(xs)),
    "take": _fn(("list", "int"), _same, lambda env, xs, n: list(xs[:n])),
    "repeat": _fn(("any", "int"), lambda ts: list_of(ts[0]), lambda env, x, n: [x] * n),
    "replace": _fn(("list", "any", "any"), _same,
                   lambda env, xs, a, b: [b if x == a else x for x in xs]),
    "without": _fn(("list", "any"), _same, lambda env, xs, a: [x for x in xs if x != a]),
    "max": _fn(("int", "int"), "int", lambda env, a, b: max(a, b)),
    "min": _fn(("int", "int"), "int", lambda env, a, b: min(a, b)),
    "max_of": _fn(("list[int]",), "int", lambda env, xs: max(xs) if xs else 0),
    "values": _fn(("map",), lambda ts: list_of(ts[0][4:-1].split(",", 1)[1])
                  if ts[0].startswith("map[") else "list[any]",
                  lambda env, m: list(m.values())),
    "get": _fn(("map", "any", "any"), "any", lambda env, m, k, d: m.get(k, d)),
    "tally": _fn(("map",), "map[player,int]", lambda env, m: _tally(m)),
    "plus_one": _fn(("map", "list[player]"), "map[player,int]",
                    lambda env, m, xs: _plus_one(m, xs)),
    "strip": _fn(("str",), "str", _strip),
    # casts: a string read from a submission's choice is a role
    "to_role": _fn(("str",), "role", lambda env, x: x),
    "to_action": _fn(("str",), "action", lambda env, x: x),
    "to_cause": _fn(("str",), "cause", lambda env, x: x),
    "to_faction": _fn(("str",), "faction", lambda env, x: x),
}

#: the fields of an engine submission and of the phase, as record types
RECORDS: dict[str, dict[str, str]] = {
    "sub": {"player": "player", "action": "action", "slot": "slot", "target": "player",
            "targets": list_of("player"), "choice": "str", "text": "str", "standing": "bool"},
    "phase": {"kind": "str", "number": "int", "stage": "int", "label": "str"},
}
