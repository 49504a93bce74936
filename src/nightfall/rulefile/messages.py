"""The checker's messages as message ids with parameters, so that a GM reads them in his
language on the web (``/new``) while ``nightfall rules check`` prints them in English.

The checker (``load.py``, ``ruleset.py``, ``effects.py``, ``expr.py``, ``rulemap.py``,
``status_post.py``) writes each problem as an English sentence. Every sentence it can
write has a template here — the msgid, with ``{name}`` for each part that comes from the
file (a key, a name, an expression) — and :func:`checker_text` reads a sentence back into
its template and parameters: a :class:`Text` that the ``.po`` catalogs translate. A
parameter named ``found``/``wanted``/``a``/``b`` is a type of the expression language
("an int", "a bool"): its English article is dropped ("int", "bool"), since the type names
are the language's own words (its msgid says "of type {found}"). A sentence without a
template (a new check whose template was forgotten: tests/rulefile/test_checker_messages.py
looks for those) is shown as it is.
"""

from __future__ import annotations

import re
from functools import cache

from nightfall.engine.text import N_, Text

#: the checker's sentences, most specific first (the first template that matches wins):
#: the msgid, or (the English sentence's shape, the msgid) where a type is a parameter
TEMPLATES: tuple[str | tuple[str, str], ...] = (
    # reading the file (load.py) and its structure (the models, by pydantic)
    N_("cannot read the file: {error}"),
    N_("the file is larger than 2 MB"),
    N_("not UTF-8: {error}"),
    N_("not valid YAML: {error}"),
    N_("a rule file is a mapping (format, id, roles, ...)"),
    N_("the key {key} is given twice (first at line {line})"),
    N_("Extra inputs are not permitted"),
    N_("Field required"),
    N_("Input should be a valid string"),
    N_("Input should be a valid integer"),
    N_("Input should be a valid boolean"),
    N_("Input should be a valid list"),
    N_("Input should be a valid dictionary"),
    N_("Input should be a valid number"),
    N_("Input should be less than or equal to {limit}"),
    N_("Input should be greater than or equal to {limit}"),
    N_("Input should be {choices}"),
    # names
    N_("unknown role {name} (known: {known})"),
    N_("unknown faction {name} (known: {known})"),
    N_("unknown status {name} (known: {known})"),
    N_("unknown cause {name} (known: {known})"),
    N_("unknown slot {name} (known: {known})"),
    N_("unknown action {name} (known: {known})"),
    N_("unknown option {name} (known: {known})"),
    N_("unknown draw {name} (known: {known})"),
    N_("unknown tag {name} (known: {known})"),
    N_("unknown effect {name} (known: {known})"),
    N_("unknown {kind} {name} (known: {known})"),
    N_("unknown draw {name} (declare it under draws)"),
    N_("unknown key {name} of {effect}"),
    N_("unknown role {name}"),
    N_("unknown faction {name}"),
    N_("unknown status {name}"),
    N_("unknown text {name}"),
    N_("unknown type {name}"),
    N_("unknown fact {name}"),
    N_("unknown stage {name}"),
    N_("unknown step {name}"),
    N_("unknown window {name}"),
    N_("unknown procedure {name}"),
    N_("unknown key {name}"),
    N_("unknown language {name}"),
    N_("unknown notice kind {name}"),
    N_("unknown name {name}"),
    N_("unknown function {name}"),
    N_("no role has the tag {name}"),
    N_("no hook {name} of version {version} is registered"),
    N_("the file does not declare the hook {name}"),
    # texts and translations
    N_("text {name} needs the parameters {names}"),
    N_("no {language} translation of {msgid}"),
    # the schedule, steps, abilities
    N_("no stage of the schedule admits {name}: the ability is unreachable"),
    N_("the step reads {facts} but does not declare it"),
    N_("the step writes {facts} but does not declare it"),
    N_("in stage {stage} step {step} reads {fact} before step {later} writes it"),
    N_("in stage {stage} step {step} reads {fact}, which no earlier step writes"),
    N_("procedure {name} calls itself (a cycle)"),
    N_("the trigger of {name} sets {status} again (a cycle)"),
    N_("procedure {name} needs {param}"),
    N_("procedure {name} takes no {param}"),
    N_("a time is HH:MM"),
    # forum_votes: how the votes are written on the forum (read by the vote counter)
    N_("not a regular expression: {error}"),
    N_("a vote pattern needs a group named 'name': (?P<name>...)"),
    N_("forum votes need red: true or at least one pattern"),
    N_("unknown time zone {name}"),
    N_("the last entry of next needs no 'if': play must go on somewhere"),
    N_("a step before the numbered ones needs 'if'"),
    N_("a definition is NAME or NAME(param: type, ...)"),
    N_("{name} is already a function"),
    N_("an effect list must be a list"),
    N_("an effect must be a mapping"),
    ("fact {name} holds {wanted}, not {found}", N_("fact {name} holds type {wanted}, not {found}")),
    N_("fact {name} is not kept per player"),
    N_("notify needs a kind"),
    N_("draw needs 'as: NAME'"),
    N_("let needs a mapping name: expression"),
    ("'for' needs a list, not a {found}", N_("'for' needs a list, not type {found}")),
    N_("a stage is named KIND/STAGE by its kind and stage ({kind}/{stage}), not {name}"),
    N_("choices must not depend on the game: {error}"),
    N_("cannot work out {name}: {error}"),
    # expressions (expr.py)
    N_("cannot read the expression {source}: {error}"),
    (
        "{source} is {found}, {wanted} is needed here",
        N_("{source} is of type {found}; type {wanted} is needed here"),
    ),
    ("cannot compare {a} with {b}", N_("cannot compare type {a} with type {b}")),
    (
        "argument {number} of {name}() must be {wanted}, not {found}",
        N_("argument {number} of {name}() must be of type {wanted}, not {found}"),
    ),
    N_("{name}() takes {wanted} argument(s), not {found}"),
    ("'{word}' needs a bool, not {found}", N_("'{word}' needs a bool, not type {found}")),
    ("'in' needs a list, not {found}", N_("'in' needs a list, not type {found}")),
    (
        "'for {name} in …' needs a list, not {found}",
        N_("'for {name} in …' needs a list, not type {found}"),
    ),
    N_("there is no field {name}"),
    N_("unexpected {what}"),
    ("{found} cannot be indexed", N_("type {found} cannot be indexed")),
    (
        "'{op}' compares numbers, not {a} and {b}",
        N_("'{op}' compares numbers, not type {a} and type {b}"),
    ),
    ("{a} is never in {b}", N_("type {a} is never in type {b}")),
    (
        "'{op}' needs numbers (or two lists for +), not {a} and {b}",
        N_("'{op}' needs numbers (or two lists for +), not type {a} and type {b}"),
    ),
    N_("fact {name} takes one player argument"),
    N_("fact {name} takes no argument"),
    ("{name}(…) needs a player, not {found}", N_("{name}(…) needs a player, not type {found}")),
    (
        "the condition of a comprehension must be a bool, not {found}",
        N_("the condition of a comprehension must be a bool, not type {found}"),
    ),
    (
        "a list is indexed by a number, not {found}",
        N_("a list is indexed by a number, not type {found}"),
    ),
    (
        "{found} has no field {name} (fields: {fields})",
        N_("type {found} has no field {name} (fields: {fields})"),
    ),
    ("{found} has no field {name}", N_("type {found} has no field {name}")),
    N_("fact {name} is kept per player: write {call}(player)"),
    # the rules section (rulemap.py)
    N_("{path} names nothing in this file: no {name} under {parent}"),
    N_("{path} names nothing in this file: no {name} at the top of the file"),
    N_("rule {number} is listed twice (first at line {line})"),
    N_("rule {number} is not listed in the rules section"),
    N_(
        "rule {number} needs either 'by' (the key paths of this file that implement it) or "
        "'not_mechanic' (why no key does): it has both"
    ),
    N_(
        "rule {number} needs either 'by' (the key paths of this file that implement it) or "
        "'not_mechanic' (why no key does): it has neither"
    ),
    # the status post (status_post.py)
    N_(
        "a block of the status post has exactly one of rounds, line, players, blank: true "
        "(it has {given})"
    ),
    N_("a part has either value or text"),
    N_("the layout may use only {allowed}, not {unknown}"),
)

#: parameters that are a type with its English article ("an int" -> "int")
_TYPES = frozenset({"found", "wanted", "a", "b"})
_ARTICLE = re.compile(r"^(?:an?) (?=\S)")


@cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    found = []
    for entry in TEMPLATES:
        shape, template = entry if isinstance(entry, tuple) else (entry, entry)
        pattern, names = "", []
        for literal, name in re.findall(r"([^{]*)(?:\{(\w+)\})?", shape):
            pattern += re.escape(literal)
            if name:
                # a repeated name must match the same text (unused here, but safe)
                pattern += f"(?P={name})" if name in names else f"(?P<{name}>.+?)"
                names.append(name)
        found.append((template, re.compile(pattern, re.S)))
    return tuple(found)


def checker_text(message: str) -> Text:
    """The checker's English ``message`` as a translatable :class:`Text` (its template and
    parameters); a sentence without a template as it is."""
    for template, pattern in _patterns():
        matched = pattern.fullmatch(message)
        if matched is not None:
            params = {
                k: _ARTICLE.sub("", v) if k in _TYPES else v for k, v in matched.groupdict().items()
            }
            return Text(template, params)
    return Text("{detail}", {"detail": message})


def has_template(message: str) -> bool:
    return checker_text(message).msgid != "{detail}"
