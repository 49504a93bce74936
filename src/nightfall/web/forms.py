"""The actions a player may take now, as forms, and the commands those forms send back.

The options of every form are exactly ``game.legal_commands(player)``: each legal command
becomes one option whose value encodes its targets and choice. What comes back is parsed
strictly and handed to the engine, which has the last word (a stale or forged option is
rejected there with the engine's own reason).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from fastapi import Request

from nightfall.engine import Command, Game, Rejected, Text
from nightfall.engine.state import Submission
from nightfall.engine.text import N_
from nightfall.web.explain import action_explanation
from nightfall.web.i18n import Translator

#: actions cast in the public thread when the rule set makes the votes public
THREAD_ACTIONS = ("elect", "vote", "unvote")
#: actions that take a free text besides their targets: True = required
TEXT_ACTIONS: dict[str, bool] = {"abduct": False, "replace": False, "letter": False,
                                 "spirit_ask": True}
TEXT_LIMIT = 4000
#: longer than any player's name (a pair form's field is a name)
NAME_LIMIT = 200


class BadInput(Exception):
    """A form field that cannot be understood; nothing was changed."""

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message)
        self.text = Text(message, params)


class UnusableCharacters(Exception):
    """A form field holds a character no text may hold (answer 400; nothing changed)."""

    message = N_("The form contains a character that cannot be stored (a null character). "
                 "Nothing was changed.")


async def usable_characters(request: Request) -> None:
    """App-wide dependency: refuse a form with a NUL character in any field name or value.

    No text field means one, and PostgreSQL cannot store it in a text column: it was a 500
    on PostgreSQL for sign-up descriptions, titles and more (found by the fuzz tests)."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    form = await request.form()
    for key, value in form.multi_items():
        if "\x00" in key or (isinstance(value, str) and "\x00" in value):
            raise UnusableCharacters()


@dataclass
class Option:
    key: str
    label: str
    selected: bool = False


@dataclass
class ActionForm:
    action: str
    label: str
    options: list[Option] = field(default_factory=list)
    #: None: no text field; True: required; False: optional
    text: bool | None = None
    current: str | None = None
    #: what the action does (an English msgid), shown under the form's title
    hint: str | None = None
    #: a form naming two different players (the love potion, C8.1): the players each of
    #: its two drop-downs offers, instead of one option per pair (105 for 15 players)
    pair: list[str] = field(default_factory=list)
    #: the pair of the current choice, preselected in the two drop-downs
    pair_selected: tuple[str, ...] = ()
    #: what the action does and costs now, in the rule set's words
    #: (``Ruleset.action_hints``: Island's "once per game", "needs a vote under fog", …)
    hints: tuple[Text, ...] = ()

    @property
    def prompt(self) -> str:
        """The msgid that labels the drop-down: what its options name."""
        shapes = {len(targets) if choice is None else -1
                  for targets, choice in (decode(o.key) for o in self.options)}
        if shapes == {1}:
            return N_("Player")
        if shapes == {2}:
            return N_("Two players")
        return N_("Choice")

    @property
    def is_button(self) -> bool:
        return len(self.options) == 1 and self.options[0].key == encode((), None)


#: the fields of the two drop-downs of a pair form (see :attr:`ActionForm.pair`)
PAIR_FIELDS = ("first", "second")


def encode(targets: tuple[str, ...], choice: str | None) -> str:
    return json.dumps([list(targets), choice], ensure_ascii=False, separators=(",", ":"))


def decode(key: str) -> tuple[tuple[str, ...], str | None]:
    try:
        value = json.loads(key)
    except (ValueError, TypeError):
        raise BadInput(N_("That choice is not valid. Nothing was changed.")) from None
    if (not isinstance(value, list) or len(value) != 2 or not isinstance(value[0], list)
            or not all(isinstance(t, str) for t in value[0])
            or not (value[1] is None or isinstance(value[1], str))):
        raise BadInput(N_("That choice is not valid. Nothing was changed."))
    return tuple(value[0]), value[1]


def choice_label(game: Game, choice: str, tr: Translator) -> str:
    if choice in game.ruleset.roles:
        return tr.term("role", choice)
    if choice in game.ruleset.item_ids:
        return tr.term("item", choice)
    return tr.choice(choice)


def option_label(game: Game, targets: tuple[str, ...], choice: str | None,
                 tr: Translator) -> str:
    parts = []
    if choice is not None:
        parts.append(choice_label(game, choice, tr))
    if targets:
        parts.append(" + ".join(targets))
    return " → ".join(parts) if parts else tr(N_("do it"))


def upper_first(label: str) -> str:
    """``label`` with its first letter in upper case, the rest as written: a form's title
    and button read as a heading ("Elect a leader"), where CSS ``capitalize`` would make
    every word upper case ("Elect A Leader") and ``str.capitalize`` would lower names."""
    return label[:1].upper() + label[1:]


def action_forms(game: Game, player: str, tr: Translator, *, thread: bool | None = None,
                 public_votes: bool = False, legal: Sequence[Command] | None = None
                 ) -> list[ActionForm]:
    """Forms for the legal commands of ``player`` now (``legal``: those, if the caller
    has them already). ``thread=True``: only the votes cast in the thread; ``False``:
    everything else; ``None``: all."""
    submissions = {s.action: s for (p, _), s in game.state.submissions.items() if p == player}
    forms: dict[str, ActionForm] = {}
    shapes: dict[str, list[tuple[tuple[str, ...], str | None]]] = {}
    for command in game.legal_commands(player) if legal is None else legal:
        if command.action == "post":
            continue
        in_thread = public_votes and command.action in THREAD_ACTIONS
        if thread is not None and in_thread != thread:
            continue
        form = forms.get(command.action)
        if form is None:
            text = TEXT_ACTIONS.get(command.action)
            if text is None and command.text is not None:
                text = True
            form = forms[command.action] = ActionForm(
                command.action, upper_first(tr.term("action", command.action)), text=text,
                hint=action_explanation(game.ruleset, command.action),
                hints=game.ruleset.action_hints(game.state, player, command.action))
            current = submissions.get(command.action)
            if current is not None:
                form.current = option_label(game, current.targets, current.choice, tr)
        current = submissions.get(command.action)
        selected = current is not None and (current.targets, current.choice) == (
            command.all_targets, command.choice)
        form.options.append(Option(encode(command.all_targets, command.choice),
                                   option_label(game, command.all_targets, command.choice, tr),
                                   selected))
        shapes.setdefault(command.action, []).append((command.all_targets, command.choice))
    for form in forms.values():
        _as_pair(form, submissions.get(form.action), shapes.get(form.action, []))
    return list(forms.values())


def _as_pair(form: ActionForm, current: Submission | None,
             shapes: Sequence[tuple[tuple[str, ...], str | None]]) -> None:
    """A form whose every option names two players and no choice offers two drop-downs
    of players (each player once, in the listing's order) instead of every pair. Which
    pairs are allowed stays the engine's word: two drop-downs naming the same player are
    refused by it with its reason ("Name two different players.")."""
    if not shapes or any(len(targets) != 2 or choice is not None for targets, choice in shapes):
        return
    players: list[str] = []
    for targets, _ in shapes:
        players.extend(t for t in targets if t not in players)
    form.pair = players
    if current is not None and len(current.targets) == 2:
        form.pair_selected = current.targets  # as he chose them, in his order


def command_from_form(player: str, form: Mapping[str, Any]) -> Command:
    """The command a submitted action form asks for (strict parsing, no rules)."""
    action = form.get("action")
    if not isinstance(action, str) or not action or len(action) > 40:
        raise BadInput(N_("Choose an action. Nothing was changed."))
    raw = form.get("option")
    if any(name in form for name in PAIR_FIELDS) and raw is None:
        targets, choice = _pair_from_form(form), None
    elif not isinstance(raw, str) or not raw:
        raise BadInput(N_("Choose one of the options. Nothing was changed."))
    else:
        targets, choice = decode(raw)
    text = form.get("text")
    text = text.strip() if isinstance(text, str) and text.strip() else None
    if text is not None and len(text) > TEXT_LIMIT:
        raise BadInput(N_("The text is too long (at most {limit} characters)."),
                       limit=TEXT_LIMIT)
    if TEXT_ACTIONS.get(action) and text is None:
        raise BadInput(N_("This action needs a text. Nothing was changed."))
    return Command(action, by=player, target=targets[0] if len(targets) == 1 else None,
                   targets=targets if len(targets) > 1 else (), choice=choice, text=text)


def _pair_from_form(form: Mapping[str, Any]) -> tuple[str, ...]:
    """The two players of a pair form (:attr:`ActionForm.pair`), as chosen."""
    chosen = tuple(form.get(name) for name in PAIR_FIELDS)
    if not all(isinstance(name, str) and name for name in chosen):
        raise BadInput(N_("Choose two players. Nothing was changed."))
    if any(len(str(name)) > NAME_LIMIT for name in chosen):
        raise BadInput(N_("That choice is not valid. Nothing was changed."))
    return tuple(str(name) for name in chosen)


def probe(game: Game, command: Command, now: datetime) -> Text | None:
    """Would ``command`` be accepted now? ``None`` if yes, else the engine's reason.

    Runs on a throw-away copy of the game; the real game is not touched."""
    copy = game.copy()
    stamped = Command(command.action, command.by, command.target, command.targets,
                      command.choice, command.text, command.minutes, at=now)
    try:
        copy.execute(stamped)
    except Rejected as error:
        return error.reason
    return None
