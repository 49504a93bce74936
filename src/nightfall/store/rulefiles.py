"""Stored rule files (issue 20, docs/rules-format.md): what the store keeps of the rule file
a game was created with, and this process's compiled rule sets by hash.

A game created with a rule file — a GM's upload or a file shipped with Nightfall
(``rulefile/sets/``) — records the file's SHA-256 (``games.rule_file``) and the file's
bytes are stored once, in the game's own transaction (``rule_files``): a release that
ships other bytes under the same id leaves the games stored before it on the file they
were played with. A game stored before shipped files were recorded (``rule_file`` NULL)
plays by the file of its id this release ships; a Python plugin's game (Island) records
no file. A stored
game is always played by the file of its hash, never by the id written inside the file:
two GMs' files may both say ``id: werewolves``, and a game's rules must not change
because another file of that id was uploaded or shipped later. Compiling a file takes
far longer than loading a game, so each hash is compiled once per process
(:class:`CompiledRules`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeGuard

from nightfall.engine import Ruleset
from nightfall.rulefile.load import parse_source
from nightfall.rulefile.ruleset import DataRuleset, compile_rules


def is_rule_file(ruleset: Ruleset) -> TypeGuard[DataRuleset]:
    """Whether a game of ``ruleset`` is played by a rule file (whose bytes the store keeps
    with the game), not by a Python plugin."""
    return isinstance(ruleset, DataRuleset)


@dataclass(frozen=True)
class RuleFileRecord:
    """One row of ``rule_files``: a rule file's bytes and what a listing shows of it."""

    sha256: str
    format: str
    ruleset: str
    title: str
    data: bytes
    #: the file's display names, domain -> term -> title (see ``schema.rule_files``)
    terms: dict[str, dict[str, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, rules: DataRuleset) -> RuleFileRecord:
        """The record of a compiled rule set (its source's bytes are re-read from the
        source it was parsed from: ``Source.data``)."""
        return cls(rules.source.sha256, rules.file.format, rules.id, rules.file.title,
                   rules.source.data,
                   {domain: dict(names) for domain, _, names in rules.term_names()})


class CompiledRules:
    """This process's rule sets compiled from stored rule files, by hash (a file is
    compiled at most once per process; a lock keeps two threads of the web server from
    compiling one file twice)."""

    def __init__(self) -> None:
        self._compiled: dict[str, DataRuleset] = {}
        self._lock = threading.Lock()

    def get(self, sha256: str) -> DataRuleset | None:
        return self._compiled.get(sha256)

    def put(self, rules: DataRuleset) -> None:
        """Keep a rule set compiled elsewhere (the upload check), under its hash."""
        with self._lock:
            self._compiled.setdefault(rules.source.sha256, rules)

    def ruleset(self, sha256: str, read: Callable[[], bytes]) -> DataRuleset:
        """The rule set of the stored file ``sha256``; ``read()`` gives its bytes when this
        process has not compiled it yet. The file was accepted when its game was created,
        so a problem now (a changed release of Nightfall) is an error, not a refusal."""
        found = self._compiled.get(sha256)
        if found is not None:
            return found
        with self._lock:
            found = self._compiled.get(sha256)
            if found is None:
                found = _compile_stored(sha256, read())
                self._compiled[sha256] = found
        return found


def _compile_stored(sha256: str, data: bytes) -> DataRuleset:
    # stored: a file kept before duplicate keys were refused replays as it was played
    source = parse_source(data, f"rule file {sha256[:12]}", stored=True)
    if source.sha256 != sha256:
        raise ValueError(f"the stored rule file {sha256} has another hash: {source.sha256}")
    return compile_rules(source)


#: the process-wide cache (every ``EventStore`` of the process shares it: a hash names
#: the same bytes in every database)
COMPILED = CompiledRules()

