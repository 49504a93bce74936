"""The package metadata in ``pyproject.toml`` uses the forms setuptools keeps building
(issue 18): the licence as an SPDX expression (PEP 639), not the deprecated
``license = {text = …}`` table that setuptools stops accepting in 2027, and a build
requirement on a setuptools that understands it (77 or later)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.licenses import canonicalize_license_expression
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).parents[1]


def _pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_licence_is_an_spdx_expression() -> None:
    project = _pyproject()["project"]
    assert isinstance(project, dict)
    licence = project["license"]
    assert isinstance(licence, str), f"license = {licence!r}: use an SPDX string (PEP 639)"
    assert canonicalize_license_expression(licence) == "MIT"
    assert not any(c.startswith("License ::") for c in project.get("classifiers", []))


def test_the_build_needs_a_setuptools_that_reads_spdx_licences() -> None:
    system = _pyproject()["build-system"]
    assert isinstance(system, dict)
    setuptools = [Requirement(r) for r in system["requires"]
                  if Requirement(r).name == "setuptools"]
    assert setuptools, "build-system.requires names no setuptools"
    # every setuptools the requirement admits must be 77 or later (PEP 639 support)
    assert not setuptools[0].specifier.contains(Version("76.9")), setuptools[0]
    assert setuptools[0].specifier.contains(Version("77.0"))
