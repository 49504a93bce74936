"""docs/rules-format.md names every effect, every function and every top-level key a rule
file may use (a GM writes a file by the docs alone)."""

from __future__ import annotations

from pathlib import Path

from nightfall.rulefile.builtins import BUILTINS
from nightfall.rulefile.effects import _KEYWORDS
from nightfall.rulefile.model import RuleFile

DOC = (Path(__file__).parents[2] / "docs" / "rules-format.md").read_text(encoding="utf-8")


def test_every_effect_is_documented() -> None:
    missing = [k for k in _KEYWORDS if f"`{k}" not in DOC]
    assert missing == []


def test_every_function_is_documented() -> None:
    missing = [name for name in BUILTINS if f"{name}(" not in DOC and f" {name} " not in DOC]
    assert missing == []


def test_every_top_level_key_is_documented() -> None:
    missing = [key for key in RuleFile.model_fields if f"`{key}`" not in DOC]
    assert missing == []
