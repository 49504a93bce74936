"""Which build of the engine plays the games: the interpreted sources, or the compiled
(mypyc) build of ``scripts/build_compiled.sh`` when it is there and matches them.

The compiled build plays games about twice as fast and plays them by the same rules
(``./test`` runs the scenarios, the legality test and the engine tests against it), but
it is a copy of ``src/nightfall`` compiled in place (``build/compiled``): it must be put
first on the path before anything of ``nightfall`` is imported, so a command that wants
it starts itself again with ``PYTHONPATH`` set (:func:`reexec_compiled`), and only if
the copy's sources are exactly the sources next to it (a build older than the last
change would play by older rules).
"""

from __future__ import annotations

import filecmp
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import nightfall
import nightfall.engine.game

#: set in the environment of a process started again on the compiled build (no loop)
COMPILED_ENV = "NIGHTFALL_COMPILED"


@dataclass(frozen=True, slots=True)
class Build:
    """What :func:`find_compiled` found: the build's folder, whether it can be used,
    and the stale modules if it cannot."""

    path: Path
    present: bool
    stale: tuple[str, ...] = ()

    @property
    def usable(self) -> bool:
        return self.present and not self.stale


def running_compiled() -> bool:
    """Whether this process runs the compiled engine (its modules are shared libraries)."""
    return Path(nightfall.engine.game.__file__ or "").suffix in (".so", ".pyd")


def source_tree() -> Path | None:
    """The checkout this ``nightfall`` comes from (``src/nightfall`` in it), or ``None``
    for an installed package or a compiled copy."""
    package = Path(nightfall.__file__ or "").resolve().parent
    if package.parent.name != "src" or running_compiled():
        return None
    return package.parent.parent


def stale_sources(compiled: Path, sources: Path) -> list[str]:
    """The modules of ``sources`` (``src/nightfall``) whose copy in ``compiled`` differs
    or is missing, as paths relative to the package."""
    return sorted(
        str(path.relative_to(sources)) for path in sources.rglob("*.py")
        if not (compiled / "nightfall" / path.relative_to(sources)).is_file()
        or not filecmp.cmp(path, compiled / "nightfall" / path.relative_to(sources),
                           shallow=False)
    )


def _has_compiled(build: Path, module: str) -> bool:
    """Whether ``module`` (a path in the package, ``engine/game``) is a shared library
    in the build folder ``build``."""
    folder = (build / "nightfall" / module).parent
    name = Path(module).name
    return any(folder.glob(f"{name}.*.so")) or any(folder.glob(f"{name}.*.pyd"))


def find_compiled(root: Path | None = None) -> Build | None:
    """The compiled build next to the sources (``build/compiled``) and whether it matches
    them; ``None`` when this ``nightfall`` is not a checkout's sources."""
    root = root or source_tree()
    if root is None:
        return None
    path = root / "build" / "compiled"
    if not _has_compiled(path, "engine/game"):
        return Build(path, False)
    return Build(path, True, tuple(stale_sources(path, root / "src" / "nightfall")))


def compiled_problem(root: Path, module: str = "engine/game") -> str | None:
    """Why the mypyc build next to ``root``'s sources (``build/compiled``) cannot stand
    for them — missing, without ``module`` (a path in the package) compiled, or stale —
    or ``None`` when it can: a benchmark must not measure a build that is not the
    sources it names."""
    path = root / "build" / "compiled"
    if not _has_compiled(path, module):
        return f"no compiled {module} in {path}: run scripts/build_compiled.sh first"
    stale = stale_sources(path, root / "src" / "nightfall")
    if stale:
        return (f"the compiled build is stale ({', '.join(stale[:5])} changed): "
                "run scripts/build_compiled.sh again")
    return None


def reexec_compiled(build: Build, argv: list[str]) -> None:
    """Replace this process by ``python -m nightfall.cli ARGV`` on the compiled build
    (does not return). Worker processes inherit the environment, so they run it too."""
    env = dict(os.environ)
    env[COMPILED_ENV] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(build.path), *filter(None, [
        os.environ.get("PYTHONPATH")])])
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, "-m", "nightfall.cli", *argv], env)


__all__ = ["COMPILED_ENV", "Build", "compiled_problem", "find_compiled", "reexec_compiled",
           "running_compiled", "source_tree", "stale_sources"]
