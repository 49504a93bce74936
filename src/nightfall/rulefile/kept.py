"""Kept answers keyed by the facts they read.

A definition of a rule file, its win conditions and what a stage awaits are worked out
once and kept in ``state.memo`` while what they read is unchanged (the engine's
``derived``, ``engine/state.py``). The engine counts changes per part of the state, and
all of a rule set's flags are one part (``FLAGS``): every fact any step writes moves
that counter. Keyed by it, the win check (C1.5: the mixed couple reads the lovers, set
once on the first night) was worked out again after nearly every resolution, because
some other fact (the attack, the rumours) had changed.

So facts get versions of their own: the interpreter's ``set`` effect, the only writer of
a fact, records the FLAGS counter at which it changed that fact. Anything else that
changes a flag (a scenario's setup, another writer) is noticed by the counter having
moved past the last write recorded: then every fact counts as changed at once. A kept
answer is keyed by the counters of the other parts it reads and the version of each fact
it reads; one that reads the flags in general (``awaited``) keeps ``FLAGS`` among its
parts. The versions live in ``state.memo`` like the answers (a rebuilt or unpickled
state starts without them), and the entry is replaced whole, never changed in place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import repeat
from operator import itemgetter
from typing import Any

from nightfall.engine.state import FLAGS, GameState

#: ``state.memo`` key of the versions: (FLAGS counter seen, base version, fact -> version)
_VERSIONS = "rf.fact_versions"

Versions = tuple[int, int, dict[str, int]]


def versions(state: GameState) -> Versions:
    """The facts' versions (a fact not in the mapping has the base version), started
    afresh when a flag changed since the last recorded write."""
    now = state.stamp[FLAGS]
    entry: Versions | None = state.memo.get(_VERSIONS)
    if entry is None or entry[0] != now:
        entry = (now, now, {})
        state.memo[_VERSIONS] = entry
    return entry


def written(state: GameState, fact: str, before: int) -> None:
    """Record that ``fact`` was written by an event that moved the FLAGS counter from
    ``before`` (nothing happens when the write changed nothing)."""
    now = state.stamp[FLAGS]
    if now == before:
        return
    entry: Versions | None = state.memo.get(_VERSIONS)
    if entry is not None and entry[0] == before:
        known = dict(entry[2])
        known[fact] = now
        state.memo[_VERSIONS] = (now, entry[1], known)
    else:  # a change not recorded here came first (or nothing was kept yet)
        state.memo[_VERSIONS] = (now, now, {})


def no_counters(stamp: list[int]) -> tuple[int, ...]:
    """The mark of a question that reads no part of the state."""
    return ()


def keeper(key: Any, parts: Sequence[int], facts: Sequence[str],
           compute: Callable[[GameState], Any]) -> Callable[[GameState], Any]:
    """One kept question, made once at load: ``keeper(...)(state)`` is ``compute(state)``,
    kept in ``state.memo`` under ``key`` while ``parts`` and the versions of ``facts`` are
    unchanged (without facts, as the engine's ``derived`` keeps it).

    The entry also holds the counters of ``parts`` and of the flags as a whole when it
    was last found valid: while none of them moved, nothing it reads can have changed,
    and the facts' versions need not be looked up (most questions are asked again and
    again with nothing changed in between: what a stage awaits after every command and
    on every legal list, C2.3; the win check after every resolution, C1.7). The
    counters are read by ``operator.itemgetter`` objects built here (a tuple built by
    ``map`` and unpacking on every call cost ~3x as much)."""
    if not facts:
        # one part: the counter itself is the mark, as ``derived`` makes it
        counters: Callable[[list[int]], Any] = (itemgetter(*parts) if parts
                                                 else no_counters)

        def plain(state: GameState) -> Any:
            mark = counters(state.stamp)
            memo = state.memo
            entry = memo.get(key)
            if entry is not None and entry[0] == mark:
                return entry[1]
            value = compute(state)
            memo[key] = (mark, value)
            return value

        return plain
    coarse_of = itemgetter(*parts, FLAGS)
    parts_of: Callable[[list[int]], Any] = itemgetter(*parts) if parts else no_counters
    facts = tuple(facts)

    def get(state: GameState) -> Any:
        stamp = state.stamp
        coarse = coarse_of(stamp)
        memo = state.memo
        entry = memo.get(key)
        if entry is not None and entry[0] == coarse:
            return entry[2]
        # the valid-for mark: the counters of the parts, the versions of the facts
        _, base, known = versions(state)
        now = (parts_of(stamp), tuple(map(known.get, facts, repeat(base))))
        if entry is not None and entry[1] == now:
            memo[key] = (coarse, now, entry[2])
            return entry[2]
        value = compute(state)
        memo[key] = (coarse, now, value)
        return value

    return get
