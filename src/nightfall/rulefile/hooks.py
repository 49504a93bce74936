"""The escape hatch: Python hooks a rule file may name for what data cannot say.

A hook is registered under a name and a version, typed, and returns *effect requests*
(effect mappings of the rule-file vocabulary, ``effects.py``), never events: the
interpreter checks and runs what it asks like any effect of the file, so a hook cannot
reach past the vocabulary. A rule file names each hook it uses (``hooks:`` with the
version); the checker refuses a hook that is not registered in that version.
Changelings needs none; the number of hooks is a design figure to keep low.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from nightfall.engine.state import GameState

#: effect requests: mappings such as ``{"trace": "some_text", "params": {...}}``; their
#: expressions are compiled like the file's own
EffectRequests = Sequence[Mapping[str, Any]]


@dataclass(frozen=True)
class Hook:
    name: str
    version: int
    #: reads the state and the arguments the file passes (``with:``), returns requests
    run: Callable[[GameState, Mapping[str, Any]], EffectRequests]
    doc: str = ""


_REGISTRY: dict[tuple[str, int], Hook] = {}


def register(hook: Hook) -> Hook:
    """Register ``hook`` (a name and version are registered once)."""
    key = (hook.name, hook.version)
    if key in _REGISTRY and _REGISTRY[key] is not hook:
        raise ValueError(f"hook {hook.name!r} version {hook.version} is registered already")
    _REGISTRY[key] = hook
    return hook


def find(name: str, version: int) -> Hook | None:
    return _REGISTRY.get((name, version))


def registered() -> list[Hook]:
    return sorted(_REGISTRY.values(), key=lambda h: (h.name, h.version))
