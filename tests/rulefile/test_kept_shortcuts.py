"""The kept answers and the check shortcuts of issue 20's round 6 (docs/performance.md)
give, at every turn of real games, what their plain readings give on the same state:

- the questions kept by ``kept.keeper`` (what a stage awaits, C2.3; the win check,
  C1.3-C1.6; definitions that read facts, such as C7.1-C7.3's plan) against the same
  question worked out afresh;
- the pass's check ``len(awaited(actor)) == 0`` (C2.3), asked by the rule set without an
  environment, against the condition read plainly;
- an actor check that reads the flags but not the actor (C7.4's ``replace_used == true``,
  C13.2's ``attack == none``) is asked per actor, not shared, with the same verdicts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from nightfall.engine import Command, Game
from nightfall.rulefile.ruleset import _COMMAND_VARS, DataRuleset, shipped
from nightfall.sim.play import play_game
from nightfall.sim.setup import preset_setup

SEEDS = range(6)


def _plain(rules: DataRuleset, source: str) -> Any:
    # ``(…) if true else false``: the same condition, but not the shape a shortcut takes
    return rules._expr(f"({source}) if true else false", ("test",), "bool", actor="player")


def _wanted_plainly(rules: DataRuleset, state: Any, stage: Any) -> frozenset[Any]:
    """What a stage awaits, each ``awaits`` entry read on its own (C2.3)."""
    found = set()
    for var, over, cond, who, slot in stage.awaits:
        env = rules.env(state)
        if who is not None:
            if who.run(env) is not None:
                found.add((who.run(env), slot.run(env)))
            continue
        for name in over.run(env):
            env[var] = name
            if cond is None or cond.run(env):
                found.add((name, slot.run(env)))
    return frozenset(found)


def _as_test(check: Any, ability: Any) -> Any:
    """An actor check as a test of the actor (refused: ``True``)."""
    return lambda rules, state, actor: check(state, ability, actor) is not None


def _turns(ruleset: str, preset: str, seed: int, bots: str,
           check: Any) -> int:
    turns = 0

    def on_turn(game: Game, name: str, view: Mapping[str, Any],
                legal: Sequence[Command]) -> None:
        nonlocal turns
        turns += 1
        check(game.state)

    play_game(preset_setup(ruleset, preset), seed, bots, on_turn=on_turn)
    return turns


@pytest.mark.parametrize(("ruleset", "preset"), [("changelings", "canterlot-15"),
                                                   ("changelings", "village-8"),
                                                   ("werwolf-classic", "duesterwald-12")])
@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_kept_answers_equal_fresh_ones_at_every_turn(ruleset: str, preset: str,
                                                     bots: str) -> None:
    rules = shipped(ruleset)
    assert isinstance(rules, DataRuleset)
    seen_awaits = seen_wins = 0
    kept_definitions = {
        head: (rules.scope.functions[head], rules._expr(body, ("test",), None))
        for head, body in rules.file.define.items()
        if "(" not in head and rules.scope.functions[head].facts}
    if ruleset == "changelings":
        assert "plan_reason" in kept_definitions  # C7.1-C7.3, read by C13.1

    def check(state: Any) -> None:
        nonlocal seen_awaits, seen_wins
        assert rules.winner(state) == rules._winner(state)
        stage = rules.stages.get((state.phase.kind, state.phase.stage))
        if stage is not None and stage.awaits is not None:
            seen_awaits += 1
            wanted = rules._wanted(state, stage)
            assert stage.wanted_now(state) == wanted
            # and what ``_wanted``'s one pass by role gives is what each entry gives
            assert wanted == _wanted_plainly(rules, state, stage)
            assert rules.all_inputs_in(state) == (state.submissions.keys() >= wanted)
            assert rules._missing(state) == frozenset(
                key for key in wanted if key not in state.submissions)
            for name in state.players:
                assert rules.awaited_slots(state, name) == sorted(
                    slot for who, slot in wanted
                    if who == name and (name, slot) not in state.submissions)
        for name, (function, body) in kept_definitions.items():
            # a definition that reads facts, kept: the same as its body read afresh
            assert function.run(rules.env(state)) == body.run(rules.env(state)), name
        seen_wins += 1

    turns = sum(_turns(ruleset, preset, seed, bots, check) for seed in SEEDS)
    assert turns > 50 and seen_awaits > 10 and seen_wins == turns


@pytest.mark.parametrize(("ruleset", "preset"), [("changelings", "canterlot-15"),
                                                   ("werwolf-classic", "duesterwald-12")])
def test_the_pass_check_refuses_exactly_when_nothing_is_awaited(ruleset: str,
                                                                 preset: str) -> None:
    rules = shipped(ruleset)
    assert isinstance(rules, DataRuleset)
    ability = rules.book.abilities["pass"]
    (check,) = ability.late_actor_checks
    assert check.__name__ == "nothing_awaited"  # the shortcut is the one compiled
    plain = _plain(rules, "len(awaited(actor)) == 0")
    verdicts = {True: 0, False: 0}

    def compare(state: Any) -> None:
        for name in state.players:
            refused = check(state, ability, name) is not None
            assert refused is plain.run(rules.env(state, actor=name)), name
            verdicts[refused] += 1

    for seed in SEEDS:
        _turns(ruleset, preset, seed, "random", compare)
    assert verdicts[True] > 0 and verdicts[False] > 0  # both answers were met


def test_a_check_of_the_flags_alone_is_asked_per_actor_with_the_same_verdicts() -> None:
    rules = shipped("changelings")
    book = rules.book
    for action, source in (("replace", "replace_used == true"),
                           ("pinkie_save", "attack == none")):
        ability = book.abilities[action]
        # the check of the flags alone is the one whose reads are not declared, so its
        # verdict is not shared: the listing asks it per actor
        (check,) = [c for c in ability.late_actor_checks if c not in rules.check_reads]
        assert check not in book._shared
        plain = _plain(rules, source)
        verdicts = {True: 0, False: 0}

        def compare(state: Any, check: Any = check, plain: Any = plain,
                    ability: Any = ability, verdicts: dict[bool, int] = verdicts) -> None:
            for name in state.players:
                refused = check(state, ability, name) is not None
                assert refused is plain.run(rules.env(state, actor=name)), name
                verdicts[refused] += 1

        for seed in SEEDS:
            _turns("changelings", "canterlot-15", seed, "random", compare)
        assert verdicts[True] > 0 and verdicts[False] > 0, action


@pytest.mark.parametrize(("ruleset", "preset"), [("changelings", "canterlot-15"),
                                                   ("werwolf-classic", "duesterwald-12")])
def test_an_actor_check_asked_without_an_environment_gives_the_plain_verdicts(
        ruleset: str, preset: str) -> None:
    """Actor checks that test the actor's value alone (C3.1's ``has(actor,
    'voiceless')``, C5.3's ``leader != actor``, C5.4's ``succession != actor and leader
    != actor``, C3.1's unvote ``sub(actor, 'vote') == none and …``) are asked as
    ``of_player`` tests, without an environment: the same verdict as the condition read
    plainly, for every player at every turn (and the rule set's checks use them)."""
    rules = shipped(ruleset)
    assert isinstance(rules, DataRuleset)
    shortcuts = []
    for aid, spec in rules.file.abilities.items():
        for check in spec.checks:
            cond = rules._expr(check.if_, ("test",), "bool", **_COMMAND_VARS)
            if cond.of_player is not None and cond.of_player[0] == "actor":
                shortcuts.append((aid, check.if_, cond.of_player[1],
                                  _plain(rules, check.if_)))
    if ruleset == "changelings":
        assert {source for _, source, _, _ in shortcuts} >= {
            "has(actor, 'voiceless')", "leader != actor",
            "succession != actor and leader != actor",
            "sub(actor, 'vote') == none and sub(actor, 'elect') == none"}
        # the checks as the listing asks them: C5.3's and C5.4's read the leader and the
        # pending succession in place (``of_lookups``), C3.1's through ``of_player``
        for action, source, reads in (
                ("tiebreak", "leader != actor", "lookups"),
                ("successor", "succession != actor and leader != actor", "lookups"),
                ("vote", "has(actor, 'voiceless')", "of_actor"),
                ("unvote", "sub(actor, 'vote') == none and sub(actor, 'elect') == none",
                 "of_actor")):
            ability = rules.book.abilities[action]
            (check,) = [c for c in ability.late_actor_checks
                        if reads in getattr(getattr(c, "__code__", None), "co_freevars", ())]
            shortcuts.append((action, source, _as_test(check, ability), _plain(rules, source)))
    static = {"$rules": rules, "$facts": rules.facts}
    verdicts = {True: 0, False: 0}

    def compare(state: Any) -> None:
        for name in [*state.players, "nobody"]:
            for aid, source, test, plain in shortcuts:
                answer = test(static, state, name)
                assert answer is plain.run(rules.env(state, actor=name)), (aid, source, name)
                verdicts[answer] += 1

    for seed in SEEDS:
        _turns(ruleset, preset, seed, "random", compare)
    assert shortcuts and verdicts[True] > 0 and verdicts[False] > 0


#: comprehensions whose condition tests the item alone (:attr:`_Out.of_player`), read
#: without binding its name: C3.2's valid ballots (the body of ``valid_ballots('vote')``),
#: C7.1's choices, and ``first``/``some`` of such conditions
_TESTED = (
    "{s.player: s.target for s in subs('vote') if s.target != none and is_alive(s.player)"
    " and is_alive(s.target) and not has(s.player, 'voiceless')"
    " and not (partner(s.player) == s.target)}",
    "[s for s in subs('kill') if is_alive(s.player) and s.action != 'pass']",
    "[s for s in subs('kill') if not is_alive(s.target) or s.action == 'pass']",
    "first([s for s in subs('vote') if s.target != none and not has(s.target, 'lover')])",
    "first([s.target for s in subs('vote') if is_alive(s.player) and s.target != none])",
    "some([s for s in subs('vote') if partner(s.player) != s.target and s.action == 'vote'])",
    "[p for p in players() if sub(p, 'vote') != none and leader != p]",
    # C15's ``acting`` and C7.1's choices: the role or faction of the item's player
    "[s for s in subs('kill') if s.action != 'pass' and role(s.player) == 'changeling']",
    "[s for s in subs('kill') if is_alive(s.player) and team(s.player) and s.action != 'pass']",
    "[s for s in subs('vote') if faction(s.target) != 'changelings']",
)


def _plainly(source: str) -> str:
    # the condition wrapped in ``(…) if true else false``: not a test of the item
    head, _, rest = source.rpartition(" if ")
    closing = rest[-2:] if rest.endswith(("])", "})")) else rest[-1:]
    return f"{head} if (({rest[:-len(closing)]}) if true else false){closing}"


@pytest.mark.parametrize("source", _TESTED)
def test_a_comprehension_testing_its_items_alone_gives_the_plain_answer(source: str) -> None:
    rules = shipped("changelings")
    assert isinstance(rules, DataRuleset)
    tested = rules._expr(source, ("test",), None)
    plain = rules._expr(_plainly(source), ("test",), None)
    assert "tested" in tested.run.__qualname__, tested.run.__qualname__  # the shortcut
    assert "tested" not in plain.run.__qualname__
    answers = set()

    def compare(state: Any) -> None:
        answer = tested.run(rules.env(state))
        assert answer == plain.run(rules.env(state))
        answers.add(repr(answer))

    for seed in SEEDS:
        _turns("changelings", "canterlot-15", seed, "random", compare)
    assert len(answers) >= 2  # several answers were met
