"""Read a rule file: YAML with the line of every key, the models of ``model.py``, and
errors that name the key path and its line (``nightfall rules check`` prints them)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from nightfall.rulefile.model import RuleFile
from nightfall.yamllines import line_of

#: the largest rule file read (Changelings is ~40 kB)
MAX_RULE_BYTES = 2 * 1024 * 1024


@dataclass(frozen=True)
class RuleProblem:
    """One error of a rule file: where (key path, line) and what."""

    path: tuple[str | int, ...]
    line: int | None
    message: str

    @property
    def key(self) -> str:
        return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in self.path
                       ).lstrip(".") or "<top>"

    def __str__(self) -> str:
        where = f" (line {self.line})" if self.line else ""
        return f"key '{self.key}'{where}: {self.message}"


class RuleFileError(ValueError):
    """The rule file is invalid; ``problems`` lists every error found."""

    def __init__(self, name: str, problems: Sequence[RuleProblem]) -> None:
        self.name = name
        self.problems = tuple(problems)
        super().__init__(f"{name}: " + "; ".join(str(p) for p in problems[:5]))


class Locator:
    """Finds the line of a key path in the YAML node tree."""

    def __init__(self, root: yaml.Node | None) -> None:
        self.root = root

    def line(self, path: Sequence[str | int]) -> int | None:
        return line_of(self.root, path)

    def problem(self, path: Sequence[str | int], message: str) -> RuleProblem:
        return RuleProblem(tuple(path), self.line(path), message)


@dataclass(frozen=True)
class Source:
    """A rule file as read: its model, where its keys are, and its hash."""

    name: str
    model: RuleFile
    locator: Locator
    sha256: str
    #: the bytes read (what the store keeps of an accepted file, by ``sha256``)
    data: bytes = b""


def read_source(path: str | Path) -> Source:
    name = str(path)
    try:
        with Path(path).open("rb") as stream:
            data = stream.read(MAX_RULE_BYTES + 1)
    except OSError as error:
        raise RuleFileError(name, [RuleProblem((), None, f"cannot read the file: {error}")]
                            ) from None
    if len(data) > MAX_RULE_BYTES:
        raise RuleFileError(name, [RuleProblem((), None, "the file is larger than 2 MB")])
    return parse_source(data, name)


def duplicate_keys(root: yaml.Node | None) -> list[RuleProblem]:
    """Every key given twice in one mapping, anywhere in the file, at the line of its
    second occurrence (YAML itself keeps the last one silently: a GM who pasted a role
    twice would play the second without knowing). The numbers of the ``rules:`` section
    are left to its own check (``rulemap.py``: "rule 'C1.1' is listed twice")."""
    found: list[RuleProblem] = []
    stack: list[tuple[yaml.Node, tuple[str | int, ...]]] = [(root, ())] if root else []
    while stack:
        node, path = stack.pop()
        if isinstance(node, yaml.MappingNode):
            first: dict[str, int] = {}
            for key, value in node.value:
                label = str(key.value) if isinstance(key, yaml.ScalarNode) else None
                if label is not None and label in first and path != ("rules",):
                    found.append(RuleProblem(
                        (*path, label), key.start_mark.line + 1,
                        f"the key {label!r} is given twice (first at line {first[label]})"))
                elif label is not None:
                    first[label] = key.start_mark.line + 1
                stack.append((value, (*path, label if label is not None else "?")))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, (*path, i)) for i, item in enumerate(node.value))
    return sorted(found, key=lambda p: p.line or 0)


def parse_source(data: bytes, name: str = "<rules>", *, stored: bool = False) -> Source:
    """Read a rule file's bytes. A key given twice is an error (:func:`duplicate_keys`)
    except for a ``stored`` file: a game's file kept by the store before that check
    existed must still replay with its bytes as they were played (the last of two equal
    keys counted, as YAML reads them)."""
    digest = hashlib.sha256(data).hexdigest()
    try:
        text = data.decode("utf-8")
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        raw: Any = yaml.safe_load(text)
    except UnicodeDecodeError as error:
        raise RuleFileError(name, [RuleProblem((), None, f"not UTF-8: {error}")]) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        problem = getattr(error, "problem", None) or str(error)
        raise RuleFileError(name, [RuleProblem((), mark.line + 1 if mark else None,
                                               f"not valid YAML: {problem}")]) from None
    locator = Locator(root)
    duplicates = [] if stored else duplicate_keys(root)
    if duplicates:
        raise RuleFileError(name, duplicates)
    if not isinstance(raw, dict):
        raise RuleFileError(name, [RuleProblem((), 1, "a rule file is a mapping "
                                                      "(format, id, roles, ...)")])
    try:
        model = RuleFile.model_validate(raw)
    except ValidationError as error:
        problems = [locator.problem(tuple(e["loc"]), e["msg"]) for e in error.errors()]
        raise RuleFileError(name, problems) from None
    return Source(name, model, locator, digest, data)
