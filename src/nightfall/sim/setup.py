"""What a simulation plays: a rule set, the roles dealt, and the rule-set options.

A setup comes from a shipped preset (``preset_setup("changelings", "canterlot-15")``) or
from a small YAML file (see ``docs/balance.md``, "Setup files")::

    name: Canterlot with a shield       # optional (default: the file name)
    ruleset: changelings
    preset: canterlot-15                # a shipped preset, or ...
    roles: {queen: 1, liar: 1, changeling: 1, researcher: 1, shield: 1, pony: 10}
    players: 12                         # ... or the rule set's default roles for a count
    add: [shield]                       # roles added to the preset's (one copy each)
    remove: [pony]                      # roles taken out of it (one copy each)
    options: {first_day_banishment: true}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from nightfall.engine.errors import SetupError as EngineSetupError
from nightfall.engine.text import N_
from nightfall.rulesets import RULESET_IDS, get_ruleset
from nightfall.sim.errors import SimError
from nightfall.sim.rulefiles import RuleFileRef

_KEYS = frozenset({"name", "ruleset", "preset", "roles", "players", "add", "remove", "options"})


class SetupError(SimError, ValueError):
    """A setup (file) that cannot be played; ``reason`` says why in any language."""


@dataclass(frozen=True)
class Setup:
    """A playable setup. Picklable: it is sent to the worker processes."""

    name: str
    ruleset: str
    roles: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    preset: str | None = None
    #: the rule file the setup's rule set is read from (``simulate --rules FILE``): it
    #: travels with the setup to every worker (:mod:`nightfall.sim.rulefiles`)
    rule_file: RuleFileRef | None = None

    @property
    def players(self) -> int:
        return len(self.roles)

    def role_counts(self) -> dict[str, int]:
        return dict(sorted(Counter(self.roles).items()))

    def describe(self) -> dict[str, Any]:
        """The setup as JSON-ready data (for reports); a rule file's variant names the
        file's hash (the id inside a file does not say which file it was)."""
        described = {
            "name": self.name, "ruleset": self.ruleset, "preset": self.preset,
            "players": self.players, "roles": self.role_counts(), "options": dict(self.options),
        }
        if self.rule_file is not None:
            described["rule_file"] = f"sha256:{self.rule_file.sha256}"
        return described


def preset_setup(ruleset_id: str, preset_id: str) -> Setup:
    """The setup of a shipped preset."""
    ruleset = _ruleset(ruleset_id)
    presets = ruleset.presets()
    if preset_id not in presets:
        known = ", ".join(sorted(presets))
        raise SetupError(N_("{ruleset} has no preset {preset} (known: {known})"),
                         ruleset=ruleset_id, preset=repr(preset_id), known=known)
    preset = presets[preset_id]
    return Setup(preset_id, ruleset_id, tuple(preset.roles), dict(preset.options), preset_id)


def preset_ids(ruleset_id: str) -> list[str]:
    return list(_ruleset(ruleset_id).presets())


def setup_from_data(data: Mapping[str, Any], default_name: str = "setup") -> Setup:
    """Build a setup from the mapping of a setup file (see the module docstring)."""
    if not isinstance(data, Mapping):
        raise SetupError(N_("a setup file holds a mapping (ruleset:, preset: or roles:, …)"))
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise SetupError(N_("unknown key(s) {keys}; known: {known}"), keys=", ".join(unknown),
                         known=", ".join(sorted(_KEYS)))
    ruleset_id = str(data.get("ruleset") or "")
    ruleset = _ruleset(ruleset_id)
    preset_id = data.get("preset")
    sources = [key for key in ("preset", "roles", "players") if data.get(key) is not None]
    if len(sources) != 1:
        raise SetupError(N_("give exactly one of preset:, roles: or players:"))
    options: dict[str, Any] = {}
    if preset_id is not None:
        base = preset_setup(ruleset_id, str(preset_id))
        roles = list(base.roles)
        options.update(base.options)
    elif data.get("roles") is not None:
        roles = _role_list(data["roles"])
    else:
        roles = _default_roles(ruleset, ruleset_id, data["players"])
    for role in _role_list(data.get("remove") or []):
        if role not in roles:
            raise SetupError(N_("remove: {role} is not in the setup"), role=role)
        roles.remove(role)
    roles += _role_list(data.get("add") or [])
    unknown_roles = sorted({r for r in roles if r not in ruleset.roles})
    if unknown_roles:
        raise SetupError(N_("unknown role(s) for {ruleset}: {roles}"), ruleset=ruleset_id,
                         roles=", ".join(unknown_roles))
    if not ruleset.min_players <= len(roles) <= ruleset.max_players:
        raise SetupError(N_("{count} players; {ruleset} needs {least}–{most}"),
                         count=len(roles), ruleset=ruleset_id, least=ruleset.min_players,
                         most=ruleset.max_players)
    extra = data.get("options") or {}
    if not isinstance(extra, Mapping):
        raise SetupError(N_("options: must be a mapping"))
    bad = sorted(set(extra) - set(ruleset.default_options))
    if bad:
        raise SetupError(N_("unknown option(s) for {ruleset}: {options}"), ruleset=ruleset_id,
                         options=", ".join(map(str, bad)))
    options.update(extra)
    try:  # what Game.new would refuse in every game (a time zone that does not exist)
        ruleset.check_options({**ruleset.default_options, **options})
    except EngineSetupError as error:
        raise SetupError(N_("options: {reason}"), reason=error.reason) from None
    name = str(data.get("name") or default_name)
    modified = bool(data.get("add") or data.get("remove") or extra)
    return Setup(name, ruleset_id, tuple(roles), options,
                 str(preset_id) if preset_id is not None and not modified else None)


def load_setup(path: Path | str) -> Setup:
    """Read a YAML setup file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise SetupError(N_("cannot read the setup file {path}: {reason}"), path=str(path),
                         reason=str(reason)) from error
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise SetupError(N_("{path} is not valid YAML: {reason}"), path=str(path),
                         reason=str(error)) from error
    try:
        return setup_from_data(data, path.stem)
    except SetupError as error:
        raise SetupError(N_("{path}: {error}"), path=str(path), error=error.reason) from error


def _ruleset(ruleset_id: str) -> Any:
    """The installed rule set of that id, a shipped rule file's, or the rule file this
    process was given (``simulate --rules FILE``, registered by its id)."""
    if ruleset_id not in RULESET_IDS:
        # imported only for a rule file: a plugin's simulation does not load the
        # interpreter (it doubled the objects a process holds, and with them the
        # garbage collector's passes inside the games: docs/balance.md, round 8)
        from nightfall.rulefile.ruleset import registered

        if registered(ruleset_id) is None:
            raise SetupError(N_("unknown rule set {ruleset} (known: {known})"),
                             ruleset=repr(ruleset_id), known=", ".join(RULESET_IDS))
    return get_ruleset(ruleset_id)


def _default_roles(ruleset: Any, ruleset_id: str, players: Any) -> list[str]:
    """``players: N``: the rule set's default roles for N players (its presets' range)."""
    try:
        count = int(players)
    except (TypeError, ValueError) as error:
        raise SetupError(N_("players: {value} is not a whole number"),
                         value=repr(players)) from error
    try:
        return list(ruleset.roles_for(count))
    except ValueError as error:
        raise SetupError(N_("players: {ruleset} has no default roles for {count} players; "
                            "list the roles (roles:) or choose a preset (preset:)"),
                         ruleset=ruleset_id, count=count) from error


def _role_list(value: Any) -> list[str]:
    """``[a, b, b]``, ``{a: 1, b: 2}`` or ``"a, b"`` as a list of role ids."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, Mapping):
        roles: list[str] = []
        for role, count in value.items():
            if not isinstance(count, int) or count < 0:
                raise SetupError(N_("roles: the count of {role} must be a whole number >= 0"),
                                 role=str(role))
            roles += [str(role)] * count
        return roles
    if isinstance(value, list):
        return [str(role) for role in value]
    raise SetupError(N_("roles must be a list, a mapping of role: count, or a comma list"))
