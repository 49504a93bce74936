"""A rule file that travels with the simulator's work units (issue 20: ``nightfall
simulate --rules FILE``).

A setup of a rule file's variant carries the file itself (:class:`RuleFileRef`: its
bytes and SHA-256), so whoever plays a chunk of it — this process, a forked, spawned or
forkserver worker, a Dask worker on another machine — plays the very file the command
was given. Registering the file in the parent process only reached forked workers: a
spawned process or a Dask worker starts from the installed code and knew no such rule
set. Each process compiles a file once and keeps it by hash (compiling takes far longer
than a game); the game is played by the compiled rule set of the hash, never looked up
by the id written inside the file (two files may share an id, as two GMs' files may in
the store: ``store/rulefiles.py``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nightfall.engine import Ruleset
    from nightfall.rulefile.ruleset import DataRuleset
    from nightfall.sim.setup import Setup


@dataclass(frozen=True)
class RuleFileRef:
    """A rule file as a work unit carries it: small (a file is at most 2 MB, usually
    50 kB) and picklable."""

    sha256: str
    data: bytes = field(repr=False)
    #: what the user named it (errors, the report's command line)
    path: str = "<rules>"

    @classmethod
    def of(cls, rules: DataRuleset, path: str) -> RuleFileRef:
        """The reference of a compiled rule set (its source's bytes and hash)."""
        return cls(rules.source.sha256, rules.source.data, path)


_COMPILED: dict[str, DataRuleset] = {}
#: a Dask worker may run several threads: one compiles a file, the others wait for it
_LOCK = threading.Lock()


def remember(rules: DataRuleset) -> None:
    """Keep a rule set compiled here already (the command's own check of the file)
    under its hash, and make it known by its id in this process."""
    from nightfall.rulefile.ruleset import register

    with _LOCK:
        kept = _COMPILED.setdefault(rules.source.sha256, rules)
    # the one kept under the hash is the one known by the id: a second check of the same
    # file in this process (a second command run in-process) must not leave the id naming
    # another object than :func:`compiled` gives
    register(kept)


def compiled(ref: RuleFileRef) -> DataRuleset:
    """The rule set of ``ref``, compiled at most once per process (and registered by its
    id, so that a report or a bot of this process finds it by the setup's rule set id).
    The file was checked when the command began; a file whose bytes do not give its hash
    is an error, not a refusal."""
    from nightfall.rulefile.ruleset import register, registered

    found = _COMPILED.get(ref.sha256)
    if found is not None:
        if registered(found.id) is not found:  # another file of that id was checked since
            register(found)
        return found
    from nightfall.rulefile.load import parse_source
    from nightfall.rulefile.ruleset import compile_rules

    with _LOCK:
        found = _COMPILED.get(ref.sha256)
        if found is None:
            source = parse_source(ref.data, ref.path)
            if source.sha256 != ref.sha256:
                raise ValueError(f"the rule file {ref.path} has the hash {source.sha256}, "
                                 f"not {ref.sha256}")
            found = _COMPILED[ref.sha256] = compile_rules(source)
            register(found)
    return found


def ruleset_of(setup: Setup) -> Ruleset:
    """The rule set ``setup`` is played with: its rule file's, else the installed one of
    its id."""
    if setup.rule_file is not None:
        return compiled(setup.rule_file)
    from nightfall.rulesets import get_ruleset

    return get_ruleset(setup.ruleset)


def with_rule_file(setups: Iterable[Setup], rules: DataRuleset, ref: RuleFileRef
                   ) -> list[Setup]:
    """``setups``, every one of the rule file's variant carrying the file (a setup file
    or an ablation names the variant by its id only)."""
    return [replace(setup, rule_file=ref) if setup.ruleset == rules.id else setup
            for setup in setups]


__all__ = ["RuleFileRef", "compiled", "remember", "ruleset_of", "with_rule_file"]
