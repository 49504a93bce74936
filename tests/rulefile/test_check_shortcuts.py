"""The rule-set checks compiled with shortcuts (issue 20, round 5: docs/performance.md)
refuse what the plain reading of their condition refuses: a target check whose first
terms do not read the target asks them once per actor (C5.3's tied players)."""

from __future__ import annotations

from nightfall.engine.abilities import ForTargets
from nightfall.engine.phase import Phase
from nightfall.engine.state import GameState, PlayerState
from nightfall.rulefile.ruleset import shipped


def _state(phase: Phase, tied: list[str] | None) -> GameState:
    state = GameState()
    state.phase = phase
    for seat, name in enumerate(["Ann", "Bob", "Cid", "Dee"]):
        state.players[name] = PlayerState(name, seat, role="pony")
    state.players["Ann"].statuses.add("leader")
    if tied is not None:
        state.flags["c.tied"] = tied
    return state


def test_a_target_check_asks_its_first_terms_once_per_actor() -> None:
    rules = shipped("changelings-data")
    ability = rules.book.abilities["tiebreak"]
    spec = rules.file.abilities["tiebreak"].checks[1]
    assert spec.refuse == "name_tied"  # phase.kind == 'day' and phase.stage == 2 and …
    prepared = [c for c in ability.checks if isinstance(c, ForTargets)]
    plain = rules._expr(f"({spec.if_}) if true else false", ("test",), "bool",
                        actor="player", target="player")
    for phase in (Phase("day", 2, 2), Phase("day", 2, 1), Phase("night", 2, 2)):
        for tied in (["Bob", "Cid"], None):
            state = _state(phase, tied)
            for target in ["Ann", "Bob", "Cid", "Dee"]:
                refusals = []
                for check in prepared:
                    on = check.prepare(state, ability, "Ann")
                    found = None if on is None else on(target)
                    if found is not None:
                        refusals.append(found)
                refused = plain.run(rules.env(state, actor="Ann", target=target))
                names = [r for r in refusals if r.msgid == rules.file.texts["name_tied"]]
                assert bool(names) is refused, (phase, tied, target)
    # in day 2/2 with a tie, a name that is not tied is refused; on day 2/1 nothing is
    state = _state(Phase("day", 2, 2), ["Bob", "Cid"])
    assert any(c.prepare(state, ability, "Ann") is not None for c in prepared)
    state = _state(Phase("day", 2, 1), ["Bob", "Cid"])
    assert all(c.prepare(state, ability, "Ann") is None for c in prepared)
