"""The status post of a rule file (``status_post:``, C16.1): the public summary a GM
pastes into the thread — the rounds played so far, a sentence or two, one line per
player — said as data, so that a rule file's game has its own post and the Python
plugin's ``status_post.py`` is no longer needed (docs/rules-format.md, "The status post").

The section is compiled with the rest of the file (its errors by key and line, like any
other); rendering needs a ``gettext`` function and does no I/O. Expressions here may use
the functions of every expression and a few that only a post needs
(:data:`POST_FUNCTIONS`: a player's statuses, cause, description ...), since what a post
shows of a player is public only once the file says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from nightfall.engine import GameState
from nightfall.engine.phase import DAY, ENDED, NIGHT, SETUP, SIGNUP
from nightfall.engine.text import Term, TermNames, Text, render
from nightfall.rulefile.builtins import PLAYERS
from nightfall.rulefile.effects import TERM_KINDS, Problem, Usage, placeholders
from nightfall.rulefile.expr import Env, Expr, Function, Scope
from nightfall.rulefile.model import PostPart, PostText, StatusPost

if TYPE_CHECKING:
    from nightfall.rulefile.ruleset import DataRuleset

Gettext = Callable[[str], str]
Path = tuple[str | int, ...]
#: a compiled sentence: (condition, the text built from an environment)
Sentence = tuple[Expr, Callable[[Env], Text]]


def _player(env: Env, name: str | None) -> Any:
    return env["$state"].players.get(name)


def _statuses(env: Env, name: str | None) -> list[str]:
    found = _player(env, name)
    return [] if found is None else sorted(found.statuses)


def _cause(env: Env, name: str | None) -> str | None:
    found = _player(env, name)
    return None if found is None or found.alive else found.left_cause


def _left_in(env: Env, name: str | None) -> Term | None:
    found = _player(env, name)
    if found is None or found.alive or not found.left_phase:
        return None
    return Term("phase", found.left_phase)


def _description(env: Env, name: str | None) -> str:
    found = _player(env, name)
    return "" if found is None else str(found.description)


def _post_fn(params: tuple[str, ...], result: str, run: Callable[..., Any]) -> Function:
    return Function(params, result, run, frozenset({PLAYERS}), strict=result == "bool")


#: the functions only a status post may call (what it shows of a player is public only
#: where the file's post shows it): ``left_in(p)`` is the phase he left in ("day 2")
POST_FUNCTIONS: dict[str, Function] = {
    "statuses": _post_fn(("player",), "list[status]", _statuses),
    "cause": _post_fn(("player",), "cause", _cause),
    "left_in": _post_fn(("player",), "any", _left_in),
    "description": _post_fn(("player",), "str", _description),
    "public": _post_fn(("status",), "bool", lambda env, s: s in env["$rules"].public_statuses),
    "ended": _post_fn((), "bool", lambda env: env["$state"].phase.kind == ENDED),
}

#: the round kinds that have a line, and those that may be running
_ROUND_KINDS = (SIGNUP, SETUP, DAY, NIGHT)


@dataclass(frozen=True)
class _Rounds:
    titles: tuple[Sentence, ...]
    ordinals: tuple[str, ...]
    running: str
    finished: str
    layout: str
    until: Sentence | None
    date_format: str
    time_format: str


@dataclass(frozen=True)
class _Part:
    value: Expr | None
    text: Callable[[Env], Text] | None
    condition: Expr
    sep: str


@dataclass(frozen=True)
class _Players:
    var: str
    over: Expr
    condition: Expr
    order: str
    name_sep: str
    parts: tuple[_Part, ...]


#: a compiled block: its kind, what it shows — ("rounds", _Rounds), ("line", sentences),
#: ("players", _Players), ("blank", None) — and when it is shown (``None``: always)
Block = tuple[str, Any, Expr | None]


class CompiledPost:
    """A rule file's status post, compiled: :meth:`render` writes it for a state."""

    def __init__(self, rules: DataRuleset, title: str, blocks: Sequence[Block]) -> None:
        self.rules = rules
        #: the msgid of its heading on the pages
        self.title = title
        self.blocks = tuple(blocks)

    def render(self, state: GameState, gettext: Gettext) -> str:
        lines: list[str] = []
        for kind, block, shown_if in self.blocks:
            if shown_if is not None and not shown_if.run(self.rules.env(state)):
                continue
            if kind == "rounds":
                lines += self._rounds(block, state, gettext)
            elif kind == "line":
                env = self.rules.env(state)
                shown = _first(block, env)
                if shown is not None:
                    lines.append(render(shown, gettext))
            elif kind == "players":
                lines += self._players(block, state, gettext)
            else:
                lines.append("")
        return "\n".join(lines)

    def _rounds(self, spec: _Rounds, state: GameState, _: Gettext) -> list[str]:
        """One line per round so far, as ``state.history`` records them (a round with
        several stages is one line; the end of the game has none)."""
        lines: list[str] = []
        rounds: list[tuple[str, int]] = []
        for record in state.history:
            key = (record.kind, record.number)
            if record.kind in _ROUND_KINDS and key not in rounds:
                rounds.append(key)
        current = state.phase.round
        for kind, number in rounds:
            ordinal = (
                _(spec.ordinals[number - 1]) if 1 <= number <= len(spec.ordinals) else f"{number}."
            )
            env = self.rules.env(state, kind=kind, number=number, ordinal=ordinal)
            title = _first(spec.titles, env)
            running = (kind, number) == current
            lines.append(
                spec.layout.format(
                    title=render(title, _) if title is not None else "",
                    progress=_(spec.running if running else spec.finished),
                )
            )
            if running and spec.until is not None and state.deadline is not None:
                local = state.deadline.astimezone(ZoneInfo(str(state.options.get("timezone"))))
                until_env = {
                    **env,
                    "date": local.strftime(spec.date_format),
                    "time": local.strftime(spec.time_format),
                }
                shown = _first((spec.until,), until_env)
                if shown is not None:
                    lines.append(render(shown, _))
        return lines

    def _players(self, spec: _Players, state: GameState, _: Gettext) -> list[str]:
        names = [str(n) for n in spec.over.run(self.rules.env(state)) or ()]
        if spec.order == "name":
            names.sort(key=str.casefold)
        elif spec.order == "seat":
            names.sort(key=lambda n: state.players[n].seat if n in state.players else 0)
        lines = []
        for name in names:
            env = self.rules.env(state, **{spec.var: name})
            if not spec.condition.run(env):
                continue
            shown: list[str] = []
            for part in spec.parts:
                if not part.condition.run(env):
                    continue
                if part.text is not None:
                    pieces = [render(part.text(env), _)]
                else:
                    assert part.value is not None
                    pieces = _pieces(part.value.run(env), part.value.type, _)
                for piece in pieces:
                    if piece:
                        shown.append(f"{part.sep}{piece}" if shown else piece)
            lines.append(f"{name}{spec.name_sep}{''.join(shown)}" if shown else name)
        return lines


def _first(sentences: Sequence[Sentence], env: Env) -> Text | None:
    for condition, text in sentences:
        if condition.run(env):
            return text(env)
    return None


def _pieces(value: Any, kind: str, _: Gettext) -> list[str]:
    """A part's value as the strings it shows: a name of a kind by its translated title,
    a list item by item, nothing for ``none``."""
    if value is None or value == "":
        return []
    if isinstance(value, (list, tuple)):
        item = kind[5:-1] if kind.startswith("list[") else "any"
        return [piece for v in value for piece in _pieces(v, item, _)]
    if kind in TERM_KINDS:
        return [_(TermNames.msgid(Term(kind, str(value))))]
    if isinstance(value, Term):
        return [render(Text("{value}", {"value": value}), _)]
    return [str(value)]


def compile_status_post(rules: DataRuleset) -> CompiledPost | None:
    """The file's ``status_post`` compiled, or ``None`` without one; its problems go to
    ``rules.problems`` (each with its key path)."""
    spec: StatusPost | None = rules.file.status_post
    if spec is None:
        return None
    compiler = _Compiler(rules)
    path: Path = ("status_post",)
    title = compiler.msgid(spec.title, (*path, "title"))
    blocks: list[Block] = []
    for i, block in enumerate(spec.show):
        where: Path = (*path, "show", i)
        given = [k for k in ("rounds", "line", "players") if getattr(block, k) is not None]
        given += ["blank"] if block.blank else []
        if len(given) != 1:
            rules.problems.append(
                Problem(
                    where,
                    "a block of the status post has exactly one "
                    "of rounds, line, players, blank: true (it "
                    f"has {', '.join(given) or 'none'})",
                )
            )
            continue
        shown_if = (
            None if block.if_ is True else compiler.expr(block.if_, (*where, "if"), {}, "bool")
        )
        if block.rounds is not None:
            r = block.rounds
            at: Path = (*where, "rounds")
            variables = {"kind": "str", "number": "int", "ordinal": "str"}
            titles = compiler.sentences(r.titles, (*at, "titles"), variables)
            until = (
                compiler.sentences(
                    [r.until],
                    (*at, "until"),
                    {**variables, "date": "str", "time": "str"},
                    index=False,
                )
                if r.until is not None
                else ()
            )
            blocks.append(
                (
                    "rounds",
                    _Rounds(
                        tuple(titles),
                        tuple(
                            compiler.msgid(o, (*at, "ordinals", n))
                            for n, o in enumerate(r.ordinals)
                        ),
                        compiler.msgid(r.running, (*at, "running")),
                        compiler.msgid(r.finished, (*at, "finished")),
                        r.layout,
                        until[0] if until else None,
                        r.date_format,
                        r.time_format,
                    ),
                    shown_if,
                )
            )
            compiler.layout(r.layout, {"title", "progress"}, (*at, "layout"))
        elif block.line is not None:
            blocks.append(
                ("line", tuple(compiler.sentences(block.line, (*where, "line"), {})), shown_if)
            )
        elif block.players is not None:
            p = block.players
            at = (*where, "players")
            over = compiler.expr(p.in_, (*at, "in"), {}, "list[player]")
            variables = {p.for_: "player"}
            condition = compiler.expr(p.if_, (*at, "if"), variables, "bool")
            parts = [
                compiler.part(part, (*at, "parts", n), variables) for n, part in enumerate(p.parts)
            ]
            if over is not None and condition is not None and None not in parts:
                blocks.append(
                    (
                        "players",
                        _Players(
                            p.for_,
                            over,
                            condition,
                            p.order,
                            p.name_sep,
                            tuple(x for x in parts if x is not None),
                        ),
                        shown_if,
                    )
                )
        else:
            blocks.append(("blank", None, shown_if))
    return CompiledPost(rules, title, blocks)


class _Compiler:
    """Compiles the parts of one status post with the file's scope and
    :data:`POST_FUNCTIONS`; problems go to the rule set's list."""

    def __init__(self, rules: DataRuleset) -> None:
        self.rules = rules
        base = rules.scope
        self.scope = Scope(
            dict(base.variables),
            {**base.functions, **POST_FUNCTIONS},
            base.facts,
            base.names,
            base.records,
            base.keys,
            base.role_factions,
        )

    def msgid(self, key: str, path: Path) -> str:
        found = self.rules.file.texts.get(key)
        if found is None:
            self.rules.problems.append(Problem(path, f"unknown text {key!r}"))
            return key
        return found

    def layout(self, layout: str, allowed: set[str], path: Path) -> None:
        unknown = placeholders(layout) - allowed
        if unknown:
            self.rules.problems.append(
                Problem(
                    path,
                    f"the layout may use only "
                    f"{', '.join(sorted(allowed))}, not "
                    f"{', '.join(sorted(unknown))}",
                )
            )

    def expr(
        self, source: Any, path: Path, variables: dict[str, str], want: str | None
    ) -> Expr | None:
        return self.rules.effects.expr(
            source, self.scope.with_vars(**variables), path, Usage(), want
        )

    def text(
        self, key: str, params: dict[str, Any], path: Path, variables: dict[str, str]
    ) -> Callable[[Env], Text] | None:
        """A text; a placeholder named like a variable of the block (``ordinal``,
        ``number``, ``date``, ``time``) is filled from it unless ``params`` names it."""
        msgid = self.rules.file.texts.get(key, "")
        implied = {
            name: name for name in placeholders(msgid) & set(variables) if name not in params
        }
        return self.rules.effects.text(
            key, {**implied, **params}, self.scope.with_vars(**variables), path, Usage()
        )

    def sentences(
        self, items: Sequence[PostText], path: Path, variables: dict[str, str], index: bool = True
    ) -> list[Sentence]:
        found = []
        for i, item in enumerate(items):
            where: Path = (*path, i) if index else path
            condition = self.expr(item.if_, (*where, "if"), variables, "bool")
            text = self.text(item.text, item.params, (*where, "text"), variables)
            if condition is not None and text is not None:
                found.append((condition, text))
        return found

    def part(self, part: PostPart, path: Path, variables: dict[str, str]) -> _Part | None:
        if (part.value is None) == (part.text is None):
            self.rules.problems.append(Problem(path, "a part has either value or text"))
            return None
        condition = self.expr(part.if_, (*path, "if"), variables, "bool")
        value = (
            self.expr(part.value, (*path, "value"), variables, None)
            if part.value is not None
            else None
        )
        text = (
            self.text(part.text, part.params, (*path, "text"), variables)
            if part.text is not None
            else None
        )
        if condition is None or (value is None and text is None):
            return None
        return _Part(value, text, condition, part.sep)


def status_post_of(rules: Any) -> CompiledPost | None:
    """The status post of a game's rule set: a rule file's own ``status_post`` (``None``
    when it has none, and for a Python plugin)."""
    from nightfall.rulefile.ruleset import DataRuleset

    if isinstance(rules, DataRuleset):
        return rules.status_post
    return None
