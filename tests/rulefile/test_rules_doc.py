"""The rules documents and the shipped rule files say the same rules (issue 20: the
restatement is checked against the file).

docs/rules/changelings.md and docs/rules/classic.md number every rule (**C7.3**, **K8.2**)
and mark the rulings (**[R]**); the ``rules:`` section of the rule file that plays the
variant lists every number once, with ``ruling: true`` where the document marks one,
and says which keys implement it (``by``) or why none does (``not_mechanic``). Every
rule the file implements is tested by a scenario of its variant
(tests/scenarios/<variant>/, the ``rule:`` key; docs/scenario-format.md)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from nightfall.rulefile.ruleset import SHIPPED, shipped

ROOT = Path(__file__).parents[2]
#: rules document (docs/rules/) -> the id of the shipped rule file that plays it
VARIANTS = {"changelings": "changelings", "classic": "werwolf-classic"}


def rulings_table() -> ModuleType:
    """scripts/rulings_table.py: the one reader of the rules documents' numbered items."""
    spec = importlib.util.spec_from_file_location("rulings_table",
                                                  ROOT / "scripts" / "rulings_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def document(variant: str) -> dict[str, bool]:
    """number -> whether the document marks it as a ruling."""
    items = rulings_table().rules_of(ROOT / "docs" / "rules" / f"{variant}.md")
    return {number: ruling for number, ruling, _ in items}


def scenario_rules(variant: str) -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "tests" / "scenarios" / variant).glob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        rules = data.get("rule")
        found |= {str(r) for r in ([rules] if isinstance(rules, str) else rules or [])}
    return found


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_rule_file_lists_exactly_the_rules_of_its_document(variant: str) -> None:
    doc = document(variant)
    listed = shipped(VARIANTS[variant]).file.rules
    assert len(doc) > 30
    assert sorted(set(doc) - set(listed)) == [], "in the document, not in the rule file"
    assert sorted(set(listed) - set(doc)) == [], "in the rule file, not in the document"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_rule_file_marks_exactly_the_rulings_of_its_document(variant: str) -> None:
    doc = document(variant)
    listed = shipped(VARIANTS[variant]).file.rules
    assert any(doc.values())
    marked_in_doc = {n for n, ruling in doc.items() if ruling}
    marked_in_file = {n for n, entry in listed.items() if entry.ruling}
    assert sorted(marked_in_doc ^ marked_in_file) == []


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_implemented_rule_has_a_scenario_of_its_variant(variant: str) -> None:
    """A scenario tests a rule when its ``rule:`` names it or an item of it (``C15.4`` for
    ``C15``), as in docs/rulings.md."""
    cited = scenario_rules(variant)
    implemented = [n for n, entry in shipped(VARIANTS[variant]).file.rules.items() if entry.by]
    assert len(implemented) > 30
    untested = [n for n in implemented
                if not any(c == n or c.startswith(n + ".") for c in cited)]
    assert untested == []


def test_every_shipped_rule_file_with_a_document_is_checked_here() -> None:
    """A new shipped variant gets its rules document and its row in ``VARIANTS``."""
    assert sorted(VARIANTS.values()) == sorted(SHIPPED)


def test_the_rulings_table_names_the_keys_of_each_rule() -> None:
    """docs/rulings.md (generated) shows each rule's keys from the rule file."""
    table = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    row = next(line for line in table.splitlines() if line.startswith("| C12.2 |"))
    keys = shipped("changelings").file.rules["C12.2"].by
    assert row.rstrip(" |").endswith(", ".join(f"`{k}`" for k in keys))
    row = next(line for line in table.splitlines() if line.startswith("| C16.2 |"))
    assert "not a mechanic: " in row


def test_the_code_lines_of_the_changelings_page_name_the_files_keys() -> None:
    """docs/rules/changelings.md: each rule's ``Code:`` line names exactly the keys the
    file's ``rules:`` section gives for that rule, in its order (the page points into
    the file, and the file says it)."""
    import re

    text = (ROOT / "docs" / "rules" / "changelings.md").read_text(encoding="utf-8")
    by_rule = {number: list(rule.by) for number, rule in shipped("changelings").file.rules.items()}
    found = 0
    for item in re.split(r"\n- (?=\*\*C\d)", text)[1:]:
        number = re.match(r"\*\*(C[0-9.]+)\*\*", item)
        code = re.search(r"\n  Code: (.*?)(?:\n- |\n\n|\n  [A-Z*]|$)", item, re.DOTALL)
        if number is None or code is None:
            continue
        named = code.group(1).split("; outside the file")[0]
        keys = [] if named.startswith("no key") else re.findall(r"`([^`]+)`", named)
        assert keys == by_rule.get(number.group(1), []), number.group(1)
        found += 1
    assert found >= 60
