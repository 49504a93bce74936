"""Where a key path is in a YAML file: the line an error message names.

Both YAML inputs a GM writes — scenario files (``nightfall.scenario``) and rule files
(``nightfall.rulefile``) — report errors by key and line; this is the one walk of the
composed node tree they share."""

from __future__ import annotations

from collections.abc import Sequence

import yaml


def line_of(root: yaml.Node | None, path: Sequence[str | int]) -> int | None:
    """The 1-based line of the deepest part of ``path`` found under ``root`` (a mapping
    key's line, or a sequence item's), or ``None`` without a tree."""
    node = root
    best = node.start_mark.line + 1 if node is not None else None
    for part in path:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if key_node.value == str(part):
                    node, best = value_node, key_node.start_mark.line + 1
                    break
            else:
                return best
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
            if part >= len(node.value):
                return best
            node = node.value[part]
            best = node.start_mark.line + 1
        else:
            return best
    return best
