"""Localisable text as data: the engine never renders a sentence itself.

A :class:`Text` is an English *msgid* (the gettext convention: the English sentence is
the key) plus named parameters. A parameter may be a :class:`Term`, a reference to a
named thing (a role, a cause of departure, a faction, a status) whose display name is
itself translated. Rendering happens in :mod:`nightfall.i18n`, outside the engine.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Any, ClassVar

from nightfall.engine.pickling import by_fields, restore


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction into the message catalogs without translating it."""
    return msgid


@dataclass(frozen=True, slots=True, init=False)
class Term:
    """A named game thing (``domain`` is e.g. ``role``; ``id`` the stable id)."""

    domain: str
    id: str

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, domain: str, id: str) -> None:
        object.__setattr__(self, "domain", domain)
        object.__setattr__(self, "id", id)

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)

    def __setstate__(self, state: Any) -> None:
        restore(self, state)


ParamValue = str | int | Term | tuple["ParamValue", ...] | None


@dataclass(frozen=True, slots=True, init=False)
class Text:
    """A message to be shown to people: msgid plus parameters."""

    msgid: str
    params: Mapping[str, Any] = field(default_factory=dict)

    # own __init__, compiled by mypyc (tests/test_record_inits.py); ``params`` defaults to a
    # new empty dict, as the field's default factory says
    def __init__(self, msgid: str, params: Mapping[str, Any] | None = None) -> None:
        object.__setattr__(self, "msgid", msgid)
        object.__setattr__(self, "params", {} if params is None else params)

    def __hash__(self) -> int:
        return hash(self.msgid)

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)

    def __setstate__(self, state: Any) -> None:
        restore(self, state)


#: the scope of term names the current reader's texts are rendered in (``None``: the global
#: table only). A context variable, not an argument of every renderer: a page, a mail or a
#: command's output is rendered by many helpers (templates, the status post, the trace), all
#: of which name terms, and each renders one game's texts; the adapter that knows the game
#: enters its scope once (:meth:`TermNames.scoped`), and a web request, a thread or an
#: asyncio task gets its own copy of the variable, so two games rendered at once never mix
#: their names.
_SCOPE: ContextVar[str | None] = ContextVar("nightfall_term_scope", default=None)


class TermNames:
    """Registry of display msgids for terms.

    The global table is filled by the built-in rule sets at import time and by the
    shipped rule files: pages of their games read it, as they always have. A rule file's
    names are kept in a table of their own scope as well (``rules:<sha256>``, the file's
    hash as the store keys it, issue 20), so that a GM's file may title a term (``seer``
    "Oracle") as it likes without changing another rule set's pages: :meth:`msgid` and
    :meth:`known` ask the current scope first, then the global table. Registering and
    looking up are display-name bookkeeping only; nothing here reads the game."""

    _names: ClassVar[dict[tuple[str, str], str]] = {}
    _scoped: ClassVar[dict[str, dict[tuple[str, str], str]]] = {}

    @classmethod
    def register(cls, domain: str, names: Mapping[str, str], scope: str | None = None) -> None:
        """Set the msgids of ``names`` in ``scope``'s table (``None``: the global one)."""
        table = cls._names if scope is None else cls._scoped.setdefault(scope, {})
        for term_id, msgid in names.items():
            table[(domain, term_id)] = msgid

    @classmethod
    def register_missing(cls, domain: str, names: Mapping[str, str]) -> None:
        """Set the global msgids of those of ``names`` that have none yet (a GM's rule
        file: its own terms read well in texts rendered outside its scope too, but it
        never changes what another rule set calls a term)."""
        for term_id, msgid in names.items():
            cls._names.setdefault((domain, term_id), msgid)

    @classmethod
    def msgid(cls, term: Term) -> str:
        found = cls.known(term)
        return term.id if found is None else found

    @classmethod
    def known(cls, term: Term) -> str | None:
        """The msgid of ``term`` in the current scope, else the global one, else ``None``."""
        key = (term.domain, term.id)
        scope = _SCOPE.get()
        if scope is not None:
            table = cls._scoped.get(scope)
            if table is not None:
                found = table.get(key)
                if found is not None:
                    return found
        return cls._names.get(key)

    @staticmethod
    def current() -> str | None:
        """The scope texts are rendered in now (``None``: the global table only)."""
        return _SCOPE.get()

    @staticmethod
    def enter(scope: str | None) -> None:
        """Render in ``scope`` for the rest of the current context (a web request: each
        has its own copy of the context, which ends with it)."""
        _SCOPE.set(scope)

    @staticmethod
    def scoped(scope: str | None) -> AbstractContextManager[None]:
        """Render in ``scope`` inside the ``with`` block (``None``: the global table only),
        and in the scope of before after it."""
        return _scoped(scope)


@contextmanager
def _scoped(scope: str | None) -> Iterator[None]:
    # a module-level generator: mypyc compiles no decorated methods of a class
    token = _SCOPE.set(scope)
    try:
        yield
    finally:
        _SCOPE.reset(token)


def _identity(msgid: str) -> str:
    return msgid


_PHASES = {
    "day": N_("day {number}"),
    "night": N_("night {number}"),
    "day/": N_("day {number}, stage {stage}"),
    "night/": N_("night {number}, stage {stage}"),
    "signup": N_("sign-up"),
    "setup": N_("setup"),
    "ended": N_("game over"),
}


def render_phase(label: str, gettext: Any = _identity) -> str:
    """Render a phase label such as ``night 2/1`` as words."""
    kind, _, rest = label.partition(" ")
    number, slash, stage = rest.partition("/")
    template = _PHASES.get(kind + slash) if number else _PHASES.get(kind)
    if template is None:
        return label
    return str(gettext(template)).format(number=number, stage=stage)


def render_value(value: Any, gettext: Any = _identity, tz: tzinfo | None = None) -> str:
    """Render one parameter value: terms are translated, sequences joined by commas,
    moments shown in ``tz`` (the reader's time zone) or else their own."""
    if isinstance(value, Term) and value.domain == "phase":
        return render_phase(value.id, gettext)
    if isinstance(value, datetime):
        local = value.astimezone(tz) if tz is not None else value
        return local.strftime("%d.%m.%Y %H:%M %Z").strip()
    if isinstance(value, Term):
        return str(gettext(TermNames.msgid(value)))
    if isinstance(value, (tuple, list)):
        return ", ".join(render_value(item, gettext, tz) for item in value)
    if value is None:
        return "—"
    return str(value)


def render(text: Text, gettext: Any = _identity, tz: tzinfo | None = None) -> str:
    """Render ``text`` through ``gettext`` (identity gives English), times in ``tz``."""
    params = {key: render_value(value, gettext, tz) for key, value in text.params.items()}
    template = str(gettext(text.msgid))
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


#: the plain values :func:`to_data` gives back as they are (most of a view's leaves)
_PLAIN = frozenset({str, int, bool, float, type(None)})


def to_data(value: Any) -> Any:
    """A JSON-ready form of texts, terms and plain values (for views and logs)."""
    if type(value) in _PLAIN:
        return value
    if isinstance(value, Text):
        return {"msgid": value.msgid, "params": {k: to_data(v) for k, v in value.params.items()}}
    if isinstance(value, Term):
        return {"term": value.domain, "id": value.id}
    if isinstance(value, (tuple, list)):
        return [to_data(item) for item in value]
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items()}
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def from_data(value: Any) -> Any:
    """The inverse of :func:`to_data` for texts and terms (a view's texts back as
    :class:`Text`, to render them in a reader's language)."""
    if isinstance(value, dict) and "msgid" in value:
        return Text(value["msgid"], {k: from_data(v) for k, v in value["params"].items()})
    if isinstance(value, dict) and "term" in value:
        return Term(value["term"], value["id"])
    if isinstance(value, list):
        return tuple(from_data(v) for v in value)
    return value
