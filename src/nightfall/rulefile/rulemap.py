"""The ``rules:`` section of a rule file: every numbered rule of the variant and what in
the file plays it.

A variant's rules document (docs/rules/changelings.md, docs/rules/classic.md) numbers
each rule; the file lists each number once, either ``by:`` the key paths that implement
it or ``not_mechanic:`` why no key can (the posting conventions of a forum, advice to
the GM). The checker holds the list to the file: a path that names nothing, a number
listed twice, an entry that says neither, and a ``rule:`` cited by a role, ability,
step, fact or victory that the section does not list are problems with key and line,
like every other. The tests hold the list to the document and to the scenario files
(tests/rulefile/test_rules_doc.py), and ``scripts/rulings_table.py`` shows it in
docs/rulings.md. The section is optional: a file without it is checked for nothing here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

import yaml

from nightfall.rulefile.effects import Problem
from nightfall.rulefile.model import RuleFile

_INDEX = re.compile(r"\[(\d+)\]")


def check_rule_index(file: RuleFile, root: yaml.Node | None) -> list[Problem]:
    """Every problem of the ``rules:`` section (none when the file has no section)."""
    if not file.rules:
        return []
    problems = list(_duplicates(root))
    for number, entry in file.rules.items():
        path: tuple[str | int, ...] = ("rules", number)
        if bool(entry.by) == bool(entry.not_mechanic):
            problems.append(Problem(path, f"rule {number!r} needs either 'by' (the key paths "
                                          f"of this file that implement it) or "
                                          f"'not_mechanic' (why no key does): it has "
                                          f"{'both' if entry.by else 'neither'}"))
        for i, where in enumerate(entry.by):
            missing = unresolved(root, where)
            if missing is not None:
                problems.append(Problem((*path, "by", i), missing))
    listed = set(file.rules)
    for cited_path, number in _cited(file):
        if number and not _covered(number, listed):
            problems.append(Problem(cited_path, f"rule {number!r} is not listed in the rules "
                                                f"section"))
    return problems


def key_parts(where: str) -> list[str]:
    """``victory[0].if`` and ``victory.0.if`` alike: ``['victory', '0', 'if']``."""
    return _INDEX.sub(r".\1", where).split(".")


def unresolved(root: yaml.Node | None, where: str) -> str | None:
    """Why the key path ``where`` names nothing in the file, or ``None`` when it names a
    key (or an item of a list) of the file's own. A key that itself holds dots
    (``rules.C1.1``) is matched whole; a definition is named without its parameters
    (``define.team`` for ``team(p: player)``)."""
    parts = key_parts(where)
    if not where or any(not part for part in parts):
        return f"{where!r} is no key path (keys joined by dots: abilities.shield)"
    if parts[0] == "rules":
        return f"{where!r} is the rules section itself, not a key that plays a rule"
    node, done = root, 0
    while done < len(parts):
        step = _descend(node, parts[done:])
        if step is None:
            known = ".".join(parts[:done])
            under = f"under {known!r}" if known else "at the top of the file"
            return f"{where!r} names nothing in this file: no {parts[done]!r} {under}"
        node, taken = step
        done += taken
    return None


def _descend(node: yaml.Node | None, parts: Sequence[str]) -> tuple[yaml.Node, int] | None:
    """The child of ``node`` named by the first part(s) of ``parts`` and how many parts
    its name took, or ``None``."""
    if isinstance(node, yaml.MappingNode):
        for taken in range(len(parts), 0, -1):
            name = ".".join(parts[:taken])
            for key, value in node.value:
                text = str(key.value)
                if text == name or text.split("(", 1)[0].strip() == name:
                    return value, taken
        return None
    if isinstance(node, yaml.SequenceNode) and parts[0].isdigit():
        index = int(parts[0])
        return (node.value[index], 1) if index < len(node.value) else None
    return None


def _duplicates(root: yaml.Node | None) -> Iterator[Problem]:
    """A number listed twice (YAML would keep the last entry silently)."""
    section = _descend(root, ["rules"])
    if section is None or not isinstance(section[0], yaml.MappingNode):
        return
    first: dict[str, int] = {}
    for key, _ in section[0].value:
        line = key.start_mark.line + 1
        number = str(key.value)
        if number in first:
            yield Problem(("rules", number), f"rule {number!r} is listed twice (first at "
                                             f"line {first[number]})", line=line)
        else:
            first[number] = line


def _cited(file: RuleFile) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """The rule numbers the file's parts cite in their ``rule:`` keys."""
    for rid, role in file.roles.items():
        yield ("roles", rid, "rule"), role.rule
    for aid, ability in file.abilities.items():
        yield ("abilities", aid, "rule"), ability.rule
    for sid, step in file.steps.items():
        yield ("steps", sid, "rule"), step.rule
    for name, fact in file.facts.items():
        yield ("facts", name, "rule"), fact.rule
    for i, victory in enumerate(file.victory):
        yield ("victory", i, "rule"), victory.rule


def _covered(number: str, listed: set[str]) -> bool:
    """``number`` is listed, or is the chapter of listed rules (a role's ``C8``), or an
    item of a listed rule (the step ``C15.4`` of the night order ``C15``)."""
    return (number in listed or any(r.startswith(number + ".") for r in listed)
            or any(number.startswith(r + ".") for r in listed))
