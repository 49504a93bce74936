"""Checking a GM's rule file before a game is created with it (issue 20, docs/rules-format.md).

:func:`check_rules` is the checker of ``nightfall rules check`` (every problem with its key
and line) plus what a file must also be to be stored beside other GMs' files in one
database: its id is none of a built-in rule set's (a game of ``changelings`` must never
be played by somebody's upload; ids are at most 32 characters, the width of
``games.ruleset``). Its titles are its own business: a file's term names live in the
scope of its hash (``engine.text.TermNames``), so a GM's file may call ``seer`` "Oracle"
beside a rule set or another GM's file that says "Seer".

Nothing is registered or stored while checking: the file's term names are registered by
:meth:`nightfall.service.GameService.create_from_rules` once its game is stored, so a
refused file leaves no trace in the process or the database.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from nightfall.engine.text import N_, Text
from nightfall.rulefile.messages import checker_text

if TYPE_CHECKING:
    from nightfall.rulefile.ruleset import DataRuleset

#: the largest rule file a GM may upload (the shipped Changelings file has ~53 kB)
RULE_FILE_LIMIT = 1024 * 1024
#: the width of ``games.ruleset``
ID_LIMIT = 32
SETS = Path(__file__).resolve().parents[1] / "rulefile" / "sets"
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


@dataclass(frozen=True)
class RulesProblem:
    """One reason a rule file is refused: its key path, its line, the message (a
    :class:`Text`: the service's own are msgids translated in the catalogs, the checker's
    detailed ones are English, as ``nightfall rules check`` prints them)."""

    key: str
    line: int | None
    message: Text


@dataclass(frozen=True)
class RulesCheck:
    """What :func:`check_rules` found: the compiled rule set, or the problems."""

    name: str
    sha256: str
    rules: DataRuleset | None
    problems: tuple[RulesProblem, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        return self.rules is not None and not self.problems


@dataclass(frozen=True)
class ShippedFile:
    """A rule file shipped with Nightfall (``rulefile/sets/*.yaml``), offered on /new."""

    name: str
    path: Path
    title: str
    sha256: str


def shipped_files() -> list[ShippedFile]:
    """Every rule file in ``rulefile/sets`` (whatever the folder holds, by file name)."""
    return list(_shipped(tuple(sorted(p.name for p in SETS.glob("*.yaml")))))


@cache
def _shipped(names: tuple[str, ...]) -> tuple[ShippedFile, ...]:
    import hashlib

    import yaml

    found = []
    for name in names:
        path = SETS / name
        data = path.read_bytes()
        try:
            title = str(yaml.safe_load(data).get("title") or name)
        except (yaml.YAMLError, AttributeError):
            title = name
        found.append(ShippedFile(name, path, title, hashlib.sha256(data).hexdigest()))
    return tuple(found)


def shipped_file(name: str) -> ShippedFile | None:
    return next((s for s in shipped_files() if s.name == name), None)


def _reserved_ids() -> dict[str, set[str]]:
    """Rule set ids a GM's file may not take: the built-in ones' and the shipped files'
    former ids (any hash), and the shipped files' (allowed only for the shipped file
    itself: its hash)."""
    from nightfall.rulefile.ruleset import ALIASES, SHIPPED
    from nightfall.rulesets import RULESET_IDS

    reserved: dict[str, set[str]] = {rid: set() for rid in RULESET_IDS}
    for rid in (*SHIPPED, *ALIASES):  # a former id names the shipped file still
        reserved.setdefault(rid, set())
    for shipped in shipped_files():
        try:
            import yaml

            rid = str(yaml.safe_load(shipped.path.read_bytes()).get("id"))
        except (yaml.YAMLError, AttributeError):
            continue
        reserved.setdefault(rid, set()).add(shipped.sha256)
    return reserved


def check_rules(data: bytes, name: str) -> RulesCheck:
    """Check a rule file's bytes (``name``: what the GM calls it, for messages): the
    checker's problems, or the service's own refusals (see the module's docstring)."""
    import hashlib

    from nightfall.rulefile.load import RuleFileError, parse_source
    from nightfall.rulefile.ruleset import compile_rules

    sha256 = hashlib.sha256(data).hexdigest()
    if not data.strip():
        return RulesCheck(name, sha256, None, (RulesProblem("<top>", None, Text(N_(
            "The rule file is empty."))),))
    if len(data) > RULE_FILE_LIMIT:
        return RulesCheck(name, sha256, None, (RulesProblem("<top>", None, Text(N_(
            "The rule file is larger than {limit} kB."), {"limit": RULE_FILE_LIMIT // 1024})),))
    try:
        source = parse_source(data, name)
        rules = compile_rules(source, register_terms=False)
    except RuleFileError as error:
        return RulesCheck(name, sha256, None, tuple(
            RulesProblem(p.key, p.line, checker_text(p.message)) for p in error.problems))
    problems = list(_own_problems(rules))
    return RulesCheck(name, sha256, None if problems else rules, tuple(problems))


def _own_problems(rules: DataRuleset) -> Iterator[RulesProblem]:
    id_line = rules.source.locator.line(("id",))
    reserved = _reserved_ids().get(rules.id)
    if reserved is not None and rules.source.sha256 not in reserved:
        yield RulesProblem("id", id_line, Text(N_(
            "The id {id} is the id of a rule set that comes with Nightfall: give your rule "
            "file an id of its own."), {"id": rules.id}))
    if len(rules.id) > ID_LIMIT:
        yield RulesProblem("id", id_line, Text(N_(
            "The id has at most {limit} characters."), {"limit": ID_LIMIT}))
    elif not _ID.match(rules.id):
        yield RulesProblem("id", id_line, Text(N_(
            "The id is made of small letters, digits, '-' and '_' only.")))
