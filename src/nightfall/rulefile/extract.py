"""The texts of a rule file for the message catalogs: a Babel extraction method.

A rule file's sentences and names are English msgids (docs/rules-format.md, ``texts``,
every ``title`` and the presets' ``description``); the ``.po`` catalogs translate them
like the engine's own. Babel finds the engine's msgids in the Python sources
(``N_("...")``); this method finds a rule file's, so ``scripts/update_catalogs.sh`` keeps
them in the catalogs (without it a catalog update would drop them as obsolete) and
``tests/test_i18n.py`` asks for their translation. ``babel.cfg`` maps the shipped rule files to it::

    [nightfall.rulefile.extract:extract_rules: **/rulefile/sets/*.yaml]
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

import yaml

#: the keys whose entries each have a ``title`` msgid
_TITLED = ("options", "factions", "roles", "statuses", "causes", "abilities", "steps",
           "presets")
#: the keys whose entries are msgids themselves (name: msgid)
_PLAIN = ("draws", "slots", "texts")
#: the field of each ``_TITLED`` key's entries that is the msgid (``title`` unless named)
_FIELD = {"presets": "description"}

Extracted = tuple[int, str | None, str, list[str]]


def _pairs(node: yaml.Node) -> list[tuple[yaml.Node, yaml.Node]]:
    return list(node.value) if isinstance(node, yaml.MappingNode) else []


def _scalar(node: yaml.Node) -> str | None:
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:str":
        return str(node.value)
    return None


def rule_file_msgids(text: str) -> Iterator[tuple[int, str, str]]:
    """(line, msgid, where) for every translatable text of a rule file, in file order;
    ``where`` is the key path (``roles.seer.title``), a translator's hint."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    if root is None:
        return
    for key_node, value_node in _pairs(root):
        key = key_node.value
        if key == "title":
            found = _scalar(value_node)
            if found:
                yield value_node.start_mark.line + 1, found, "title"
        elif key in _TITLED:
            wanted = _FIELD.get(key, "title")
            for name_node, entry in _pairs(value_node):
                for field, title in _pairs(entry):
                    found = _scalar(title)
                    if field.value == wanted and found:
                        yield (title.start_mark.line + 1, found,
                               f"{key}.{name_node.value}.{wanted}")
        elif key in _PLAIN:
            for name_node, entry in _pairs(value_node):
                found = _scalar(entry)
                if found:
                    yield entry.start_mark.line + 1, found, f"{key}.{name_node.value}"


def extract_rules(fileobj: IO[bytes], keywords: Mapping[str, Any],
                  comment_tags: Collection[str], options: Mapping[str, Any]
                  ) -> Iterator[Extracted]:
    """Babel's extraction interface: (line, function, message, comments) per msgid
    (no comments: a msgid shared with the Python sources keeps its entry as it is)."""
    text = fileobj.read().decode(str(options.get("encoding", "utf-8")))
    for line, msgid, _where in rule_file_msgids(text):
        yield line, None, msgid, []
