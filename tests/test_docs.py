"""The docs that the tests can keep honest: the rule → scenario table and the README."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_rulings_table_is_current_and_every_rule_has_a_scenario() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "rulings_table.py"), "--check"],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_scenario_names_its_rule() -> None:
    import yaml

    for path in (ROOT / "tests" / "scenarios").rglob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert data.get("rule"), f"{path.name} has no rule: key"


def test_the_readme_gives_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "./run" in readme and "./test" in readme
    assert (ROOT / "run").exists() and (ROOT / "test").exists()
    assert "./test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_every_numbered_rule_is_cited_in_the_code() -> None:
    """A newcomer finds the code of any numbered rule with one search for its number:
    every rule of docs/rules/*.md (``**C3.5**``, ``**I7.2**``, ``**K8.2**``) is cited in
    src/ (the Python code, or the rule file of a rule set written as data)."""
    import re

    files = [*(ROOT / "src").rglob("*.py"), *(ROOT / "src").rglob("rulefile/sets/*.yaml")]
    source = "\n".join(p.read_text(encoding="utf-8") for p in files)
    for doc in ("changelings.md", "island.md", "classic.md"):
        text = (ROOT / "docs" / "rules" / doc).read_text(encoding="utf-8")
        rules = set(re.findall(r"\*\*([CIK]\d+(?:\.\d+)*)\*\*", text))
        assert len(rules) > 20, doc
        missing = sorted(rule for rule in rules
                         if not re.search(r"(?<![\w.])" + re.escape(rule) + r"(?!\d|\.\d)",
                                          source))
        assert not missing, f"{doc}: rules cited nowhere in src/: {missing}"
