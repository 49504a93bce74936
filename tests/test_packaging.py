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


def _runtime_closure() -> set[str]:
    """The distributions a plain ``pip install .`` brings: the runtime dependencies and,
    recursively, theirs (without extras), as installed here."""
    from importlib.metadata import PackageNotFoundError, requires

    project = _pyproject()["project"]
    assert isinstance(project, dict)
    todo = [Requirement(r).name for r in project["dependencies"]]
    seen: set[str] = set()
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name in seen:
            continue
        seen.add(name)
        try:
            wanted = requires(name) or []
        except PackageNotFoundError:
            continue
        for line in wanted:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return seen


def test_every_module_the_package_imports_comes_with_a_plain_install() -> None:
    """``./run`` installs without the test tools (``pip install -e .``): a module that
    ``src/nightfall`` imports only because a *dev* dependency brought it would break the
    main job on a fresh machine (it did: httpx, which the forum reader imports, was
    listed only among the test tools)."""
    import ast
    import sys
    from importlib.metadata import packages_distributions

    providers = packages_distributions()
    closure = _runtime_closure()
    missing: dict[str, str] = {}
    for path in (ROOT / "src" / "nightfall").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 \
                and node.module else []
            for name in names:
                top = name.split(".")[0]
                if top == "nightfall" or top in sys.stdlib_module_names:
                    continue
                dists = {d.lower().replace("_", "-") for d in providers.get(top, [])}
                if dists and not dists & closure:
                    missing[top] = str(path.relative_to(ROOT))
    assert not missing, f"imported but not a runtime dependency: {missing}"
