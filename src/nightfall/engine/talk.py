"""The game master speaks: a public post in the thread (``say``) and a private message to
one player (``tell``).

A forum GM writes story posts into the thread ("Night falls over Ponyville…", flavour for
a death, reminders) and now and then a private message to one player ("your item was
confiscated", a warning about conduct). Both are GM acts of the core, the same for every
rule set: recorded as a :class:`~nightfall.engine.events.GmActed` like the other acts, the
post as a :class:`~nightfall.engine.events.GmPosted` (folded into the thread, in order with
the players' posts) and the message as a private notice of the kind :data:`GM_MESSAGE`, so
it reaches exactly the projections, pages and live streams that a notice to that player
reaches and no other.

The GM may always speak: in every phase after the start, at night (the thread closes for
the players only, C2.8) and after the game ended. Texts are stored as written, trimmed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from nightfall.engine import events as ev
from nightfall.engine.commands import Command
from nightfall.engine.errors import Rejected
from nightfall.engine.phase import SETUP, SIGNUP
from nightfall.engine.text import N_, Text

if TYPE_CHECKING:
    from nightfall.engine.game import Context
    from nightfall.engine.ruleset import Ruleset

SAY, TELL = "say", "tell"
TALK_ACTIONS = frozenset({SAY, TELL})
#: the kind of the private notice a ``tell`` sends (its field ``text`` holds the message)
GM_MESSAGE = "gm_message"
#: the longest text the GM may post or send: the same as a player's post (the web's limit)
TEXT_LIMIT = 10_000


def speak(ctx: Context, command: Command) -> None:
    """Carry out ``say`` or ``tell``; raises :class:`Rejected` (nothing changed) for a text
    that is empty or too long, for a game not yet started, or for an unknown player."""
    state = ctx.state
    if state.phase.kind in (SIGNUP, SETUP):
        raise Rejected(N_("The game has not started yet."))
    text = _checked_text(command.text, command.action)
    if command.action == SAY:
        ctx.emit(ev.GmActed(SAY))
        ctx.emit(ev.GmPosted(state.phase_label, text))
        return
    target = (command.target or "").strip()
    if not target:
        raise Rejected(N_("Choose a player."))
    if target not in state.players:  # a departed player still reads his page: any signed-up
        raise Rejected(N_("There is no player called {name}."), name=target)
    ctx.emit(ev.GmActed(TELL, target))
    ctx.notify(target, GM_MESSAGE, text=text)


def _checked_text(raw: str | None, action: str) -> str:
    text = (raw or "").strip()
    if not text:
        raise Rejected(N_("A post needs some text.") if action == SAY
                       else N_("A message needs some text."))
    if len(text) > TEXT_LIMIT:
        raise Rejected(N_("The text is too long (at most {limit} characters)."),
                       limit=TEXT_LIMIT)
    return text


def is_gm_message(notice: Mapping[str, Any]) -> bool:
    return notice.get("kind") == GM_MESSAGE


def notice_text(ruleset: Ruleset, notice: Mapping[str, Any]) -> Text:
    """A private notice as words: the GM's message here (the core sends it, whatever the
    rule set), every other kind as its rule set words it."""
    if is_gm_message(notice):
        return Text(N_("Message from the game master: {text}"),
                    {"text": str(notice.get("text", ""))})
    return ruleset.notice_text(notice)
