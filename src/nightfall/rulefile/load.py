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


def parse_source(data: bytes, name: str = "<rules>") -> Source:
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
    if not isinstance(raw, dict):
        raise RuleFileError(name, [RuleProblem((), 1, "a rule file is a mapping "
                                                      "(format, id, roles, ...)")])
    try:
        model = RuleFile.model_validate(raw)
    except ValidationError as error:
        problems = [locator.problem(tuple(e["loc"]), e["msg"]) for e in error.errors()]
        raise RuleFileError(name, problems) from None
    return Source(name, model, locator, digest, data)
