"""Run a loaded scenario against the engine and check every ``expect``."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from nightfall.engine import (
    N_,
    Command,
    Game,
    NightfallError,
    Rejected,
    Ruleset,
    SetupError,
    render,
)
from nightfall.engine.text import TermNames, Text
from nightfall.rulesets import get_ruleset, new_game
from nightfall.scenario.loader import LoadedScenario, ScenarioError, load_scenario
from nightfall.scenario.model import CommandStep, ExpectBlock, ExpectStep, GmStep

_GM_COMMANDS = {"modkill": "modkill", "extend": "extend", "shorten": "shorten", "skip": "skip",
                "say": "say", "tell": "tell", "admit": "admit"}


@dataclass
class ScenarioResult:
    path: str
    ok: bool
    failures: list[dict[str, Any]] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "failures": self.failures, "state": self.state}


def run_file(path: str | Path, ruleset: Ruleset | None = None) -> ScenarioResult:
    """Load and run a file; raises :class:`ScenarioError` if the file is invalid.
    ``ruleset``: play it with this rule set instead of the one the file names (a data
    rule set of the same rules, ``nightfall.rulefile``)."""
    return run_scenario(load_scenario(path), ruleset)


def build_game(loaded: LoadedScenario, ruleset: Ruleset | None = None) -> Game:
    spec = loaded.scenario
    scripted = (ruleset or get_ruleset(spec.ruleset)).scenario_options
    options = {"early_close": False, **scripted, **spec.options}
    try:
        game = (Game.new(ruleset, spec.seed, options, spec.locale) if ruleset is not None
                else new_game(spec.ruleset, spec.seed, options, spec.locale))
    except SetupError as error:  # an option value the game cannot be played with
        raise ScenarioError(f"{loaded.path}: key 'options': {error}") from None
    for player in spec.players:
        game.join(player.name, player.description)
    game.assign(
        {p.name: p.role for p in spec.players},
        {p.name: p.statuses for p in spec.players if p.statuses},
        {p.name: p.items for p in spec.players if p.items},
    )
    game.start()
    return game


def run_scenario(loaded: LoadedScenario, ruleset: Ruleset | None = None) -> ScenarioResult:
    try:
        game = build_game(loaded, ruleset)
    except NightfallError as error:
        raise ScenarioError(f"{loaded.path}: key 'players': {error}") from None
    result = ScenarioResult(loaded.path, ok=True)
    for number, step in enumerate(loaded.steps, start=1):
        if isinstance(step, ExpectStep):
            result.failures += _check(game, step.expect, number)
            continue
        failure = _run_command(game, step, number)
        if failure is not None:
            result.failures.append(failure)
            break  # the script depends on each command; stop at the first that went wrong
    result.ok = not result.failures
    result.state = state_json(game)
    return result


def _command_for(step: CommandStep | GmStep) -> Command:
    if isinstance(step, CommandStep):
        if step.do == "advance":
            return Command("advance")
        return Command(step.do, by=step.by, target=step.target,
                       targets=tuple(step.targets or ()), choice=step.choice, text=step.text)
    action = _GM_COMMANDS.get(step.gm, "gm_" + step.gm)
    minutes = step.minutes or (60 if action in ("extend", "shorten") else None)
    answer = step.answer
    if isinstance(answer, bool):  # YAML reads yes/no as booleans
        answer = "yes" if answer else "no"
    return Command(action, target=step.target, choice=step.event or step.choice or answer,
                   text=step.text, minutes=minutes)


def _run_command(game: Game, step: CommandStep | GmStep, number: int) -> dict[str, Any] | None:
    command = _command_for(step)
    label = step.do if isinstance(step, CommandStep) else f"gm {step.gm}"
    if command.action.startswith("gm_") and command.action[3:] in game.ruleset.gm_actions:
        command = replace(command, action=command.action[3:])  # the rule set's own GM act
    try:
        if command.action.startswith("gm_"):
            raise Rejected(N_("The {ruleset} rule set has no GM directive {action}."),
                           ruleset=game.state.ruleset, action=command.action[3:])
        game.execute(command)
    except Rejected as error:
        if step.expect_error:
            return None
        return {"step": number, "key": label, "expected": "accepted",
                "actual": f"rejected: {_rendered(game, error.reason)}"}
    except Exception as error:  # an engine bug must be reported, never a traceback
        return {"step": number, "key": label, "expected": "accepted",
                "actual": f"internal error: {type(error).__name__}: {error}"}
    if step.expect_error:
        return {"step": number, "key": label, "expected": "rejected", "actual": "accepted"}
    return None


def _check(game: Game, block: ExpectBlock, number: int) -> list[dict[str, Any]]:
    actual = state_json(game)
    failures: list[dict[str, Any]] = []

    def fail(key: str, expected: Any, got: Any) -> None:
        failures.append({"step": number, "key": key, "expected": expected, "actual": got})

    given = block.model_fields_set
    if "phase" in given and block.phase != actual["phase"]:
        fail("phase", block.phase, actual["phase"])
    if "alive" in given and set(block.alive or []) != set(actual["alive"]):
        fail("alive", block.alive, actual["alive"])
    for name, cause in (block.left or {}).items():
        got = actual["left"].get(name, {}).get("cause")
        if got != cause:
            fail(f"left.{name}", cause, got)
    if "winner" in given and block.winner != actual["winner"]:
        fail("winner", block.winner, actual["winner"])
    for name, role in (block.roles or {}).items():
        if actual["roles"].get(name) != role:
            fail(f"roles.{name}", role, actual["roles"].get(name))
    for name, statuses in (block.statuses or {}).items():
        have = actual["statuses"].get(name, [])
        if not set(statuses) <= set(have):
            fail(f"statuses.{name}", statuses, have)
    if "leader" in given and block.leader != actual["leader"]:
        fail("leader", block.leader, actual["leader"])
    for name, items in (block.items or {}).items():
        have = actual["items"].get(name, [])
        if not all(have.count(i) >= items.count(i) for i in items):
            fail(f"items.{name}", items, have)
    for name, count in (block.votes or {}).items():
        got = actual["votes"].get(name, 0)
        if got != count:
            fail(f"votes.{name}", count, got)
    for name, wanted in (block.notices or {}).items():
        have = actual["notices"].get(name, [])
        for notice in wanted:
            if not any(_matches(notice, n) for n in have):
                fail(f"notices.{name}", notice, have)
    posts = [_post_fields(p) for p in game.state.thread]
    for post in block.posts or []:
        if not any(_matches(post, p) for p in posts):
            fail("posts", post, posts)
    said = [_rendered(game, a.text) for a in game.state.announcements]
    for words in block.announced or []:
        if not any(words in line for line in said):
            fail("announced", words, said)
    for words in block.not_announced or []:
        found = [line for line in said if words in line]
        if found:
            fail("not_announced", words, found)
    return failures


def _post_fields(post: Any) -> dict[str, Any]:
    """A thread post as the ``posts`` key compares it: ``player`` (``null``: the game
    master), ``text``, ``phase`` and ``voice`` (``dead``/``observer``; ``null``: a living
    player or the game master)."""
    return {"player": post.player, "text": post.text, "phase": post.phase,
            "voice": post.voice}


def _matches(expected: dict[str, Any], notice: dict[str, Any]) -> bool:
    return all(notice.get(key) == value for key, value in expected.items())


def state_json(game: Game) -> dict[str, Any]:
    """The state summary of the ``--json`` output (scenario-format.md)."""
    state = game.state
    return {
        "phase": state.phase_label,
        "alive": state.alive(),
        "left": {
            p.name: {"cause": p.left_cause, "phase": p.left_phase}
            for p in state.players.values()
            if not p.alive
        },
        "winner": state.winner,
        "leader": game.ruleset.leader(state),
        "roles": {p.name: p.role for p in state.players.values()},
        "statuses": {p.name: sorted(p.statuses) for p in state.players.values() if p.statuses},
        "items": game.ruleset.items(state),
        "votes": dict(state.last_votes),
        "notices": {p: [dict(n) for n in ns] for p, ns in state.notices.items() if ns},
    }


def _rendered(game: Game, text: Text) -> str:
    """``text`` in English, its terms named as the game's rule set titles them (a rule
    file's own scope, issue 20)."""
    with TermNames.scoped(game.ruleset.term_scope):
        return render(text)
