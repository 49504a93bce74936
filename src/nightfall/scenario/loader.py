"""Read and check a scenario file; every problem names the key and line (exit code 2)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from nightfall.scenario.model import (
    COMMANDS,
    GM_DIRECTIVES,
    CommandStep,
    ExpectStep,
    GmStep,
    Scenario,
)
from nightfall.yamllines import line_of

Step = CommandStep | GmStep | ExpectStep


class ScenarioError(ValueError):
    """The scenario file itself is invalid; nothing of it runs."""


#: the largest scenario file read (the longest in tests/scenarios has a few kB); a larger
#: one, or a device such as /dev/zero, is refused after reading no more than this
MAX_SCENARIO_BYTES = 1024 * 1024


@dataclass(frozen=True)
class LoadedScenario:
    path: str
    scenario: Scenario
    steps: tuple[Step, ...]


def load_scenario(path: str | Path) -> LoadedScenario:
    name = str(path)
    try:
        with Path(path).open("rb") as stream:
            data = stream.read(MAX_SCENARIO_BYTES + 1)
        if len(data) > MAX_SCENARIO_BYTES:
            raise ScenarioError(f"{name}: the file is larger than "
                                f"{MAX_SCENARIO_BYTES // 1024 // 1024} MB, more than a "
                                f"scenario can be")
        source = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ScenarioError(f"{name}: cannot read the file: {error}") from None
    return parse_scenario(source, name)


def parse_scenario(source: str, name: str = "<scenario>") -> LoadedScenario:
    """The checked scenario of ``source``; any problem is a :class:`ScenarioError` (a
    number of thousands of digits and lists nested thousands deep too, never a crash)."""
    try:
        return _parse(source, name)
    except RecursionError:
        raise ScenarioError(f"{name}: not a usable scenario: its lists or mappings are "
                            f"nested too deeply") from None


def _parse(source: str, name: str) -> LoadedScenario:
    try:
        root = yaml.compose(source, Loader=yaml.SafeLoader)
        data = yaml.safe_load(source)
    except yaml.reader.ReaderError as error:  # a character YAML forbids (no mark, a position)
        code = error.character if isinstance(error.character, int) else ord(error.character)
        line = source.count("\n", 0, error.position) + 1
        column = error.position - (source.rfind("\n", 0, error.position) + 1) + 1
        raise ScenarioError(f"{name}: not valid YAML (line {line}, column {column}): "
                            f"character #x{code:04x} is not allowed") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        problem = getattr(error, "problem", None) or str(error)
        raise ScenarioError(f"{name}: not valid YAML{where}: {problem}") from None
    except ValueError:  # Python's int() refuses more than 4300 digits
        raise ScenarioError(f"{name}: not a usable scenario: a number has more digits than "
                            f"any value of a scenario may have") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{name}: the file must be a mapping with ruleset, players, steps")
    locate = _Locator(name, root)
    scenario = _validate(Scenario, data, (), locate)
    steps = tuple(_parse_step(raw, i, locate) for i, raw in enumerate(scenario.steps))
    _check_names(scenario, steps, locate)
    return LoadedScenario(name, scenario, steps)


def _parse_step(raw: Any, index: int, locate: _Locator) -> Step:
    path: tuple[str | int, ...] = ("steps", index)
    if not isinstance(raw, dict):
        raise ScenarioError(locate.message(path, "a step must be a mapping (do:, gm: or expect:)"))
    kinds = [key for key in ("do", "gm", "expect") if key in raw]
    if len(kinds) != 1:
        raise ScenarioError(
            locate.message(path, "a step needs exactly one of the keys do, gm, expect")
        )
    models: dict[str, type[BaseModel]] = {"do": CommandStep, "gm": GmStep, "expect": ExpectStep}
    model = models[kinds[0]]
    step = _validate(model, raw, path, locate)
    if isinstance(step, CommandStep) and step.do != "advance" and step.by is None:
        raise ScenarioError(locate.message(path, f"command {step.do!r} needs 'by'"))
    if isinstance(step, GmStep) and step.gm not in GM_DIRECTIVES:
        raise ScenarioError(locate.message((*path, "gm"), f"unknown GM directive {step.gm!r}"))
    assert isinstance(step, (CommandStep, GmStep, ExpectStep))
    return step


def _check_names(scenario: Scenario, steps: Sequence[Step], locate: _Locator) -> None:
    from nightfall.rulefile.ruleset import ALIASES, SHIPPED
    from nightfall.rulesets import RULESET_IDS, get_ruleset

    names = [p.name for p in scenario.players]
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name in seen:
            raise ScenarioError(locate.message(("players", i, "name"), f"duplicate name {name!r}"))
        seen.add(name)
    if scenario.ruleset not in {*RULESET_IDS, *SHIPPED, *ALIASES}:
        raise ScenarioError(locate.message(
            ("ruleset",), f"rule set {scenario.ruleset!r} is not available (known: "
                          f"{', '.join(sorted({*RULESET_IDS, *SHIPPED}))})"))
    from nightfall.i18n import SUPPORTED_LOCALES

    if scenario.locale not in SUPPORTED_LOCALES:
        raise ScenarioError(locate.message(
            ("locale",), f"unknown locale {scenario.locale!r} (known: "
                         f"{', '.join(SUPPORTED_LOCALES)})"))
    ruleset = get_ruleset(scenario.ruleset)
    # the commands of a rule file are its abilities (docs/rules-format.md)
    commands = COMMANDS | frozenset(getattr(getattr(ruleset, "file", None), "abilities", ()))
    for i, step in enumerate(steps):
        if isinstance(step, CommandStep) and step.do not in commands:
            raise ScenarioError(locate.message(("steps", i, "do"),
                                               f"unknown command {step.do!r}"))
    for i, player in enumerate(scenario.players):
        if player.role not in ruleset.roles:
            raise ScenarioError(locate.message(
                ("players", i, "role"),
                f"unknown role {player.role!r} (known: {', '.join(sorted(ruleset.roles))})",
            ))
    for key, value in scenario.options.items():
        if key not in ruleset.default_options:
            raise ScenarioError(locate.message(
                ("options", key),
                f"unknown option {key!r} (known: {', '.join(sorted(ruleset.default_options))})",
            ))
        default = ruleset.default_options[key]
        if type(value) is not type(default):  # bool is an int in Python: compare exactly
            raise ScenarioError(locate.message(
                ("options", key), f"option {key!r} must be a {type(default).__name__} "
                                  f"like its default {default!r}, not {value!r}"))

    def known(value: str | None, path: tuple[str | int, ...]) -> None:
        if value is not None and value not in seen:
            raise ScenarioError(locate.message(path, f"no player called {value!r}"))

    # an observer the file lets in (``gm: admit``, I6.7) may post (``by``) like a player
    observers = {s.target for s in steps if isinstance(s, GmStep) and s.gm == "admit"}
    for i, step in enumerate(steps):
        path: tuple[str | int, ...] = ("steps", i)
        if isinstance(step, GmStep) and step.gm == "admit":
            continue
        if isinstance(step, CommandStep):
            if step.by not in observers:
                known(step.by, (*path, "by"))
            known(step.target, (*path, "target"))
            for j, target in enumerate(step.targets or ()):
                known(target, (*path, "targets", j))
        elif isinstance(step, GmStep):
            known(step.target, (*path, "target"))
        else:
            block = step.expect
            for key in ("left", "roles", "statuses", "items", "votes", "notices"):
                for name in getattr(block, key) or {}:
                    known(name, (*path, "expect", key, name))
            for name in block.alive or ():
                known(name, (*path, "expect", "alive"))
            if block.leader is not None:
                known(block.leader, (*path, "expect", "leader"))


def _validate(model: type[Any], data: Any, path: tuple[str | int, ...], locate: _Locator) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = (*path, *first["loc"])
        raise ScenarioError(locate.message(where, first["msg"])) from None


def _printable(text: str) -> str:
    """A key as the message shows it: a line break or other control character in a
    (garbled) key is written escaped, so the message stays one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class _Locator:
    """Finds the line of a key path in the YAML node tree, for error messages."""

    def __init__(self, name: str, root: yaml.Node | None) -> None:
        self.name, self.root = name, root

    def message(self, path: Sequence[str | int], problem: str) -> str:
        key = "".join(f"[{p}]" if isinstance(p, int) else f".{_printable(p)}"
                      for p in path).lstrip(".")
        line = self.line(path)
        where = f" (line {line})" if line else ""
        return f"{self.name}: key '{key or '<top>'}'{where}: {problem}"

    def line(self, path: Sequence[str | int]) -> int | None:
        return line_of(self.root, path)
