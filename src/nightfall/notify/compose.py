"""The words of every message, composed from one projection only.

A message to a player is made from ``Game.view(player)`` and ``Game.legal_commands(player)``
— what his own page shows — and a channel message from ``Game.view(None)``, the public
view. Nothing here sees the state: whatever a message says, the reader's page could say
too (``tests/notify/test_notify_leaks.py`` checks it line by line). Each message is a
:class:`Draft`: a subject and paragraphs of plain text with the links apart, so the mail
transport can make text and HTML of it and a chat channel a short text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from html import escape
from typing import Any

from nightfall.engine import Command, Ruleset
from nightfall.engine.talk import notice_text
from nightfall.engine.text import N_, Term, TermNames, Text, from_data, render_phase
from nightfall.i18n import gettext_for, localize, ruleset_name

#: actions that are no move of their own (a reminder does not wait for them)
NOT_MOVES = frozenset({"post", "unvote", "withdraw"})
#: messages never carry the private link (only its hash is stored); they say where it is
ACT_HINT = N_("You act through your private link. Lost it? The game's page sends it to "
              "your confirmed address again.")


@dataclass(frozen=True)
class Link:
    label: str
    url: str


@dataclass(frozen=True)
class Draft:
    """One message before its transport: ``lines`` are paragraphs, ``quoted`` lines the
    game's own texts (notices, announcements) shown as quotations."""

    kind: str
    subject: str
    lines: tuple[str, ...]
    quoted: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        parts = list(self.lines)
        if self.quoted:
            parts.append("\n".join(f"> {line}" for line in self.quoted))
        parts.extend(f"{link.label}: {link.url}" for link in self.links)
        return "\n\n".join(parts) + "\n"

    def html(self) -> str:
        """The same message as a small HTML document (the mail's second part)."""
        body = [f"<p>{escape(line)}</p>" for line in self.lines]
        if self.quoted:
            body.append("<blockquote>" + "".join(f"<p>{escape(q)}</p>" for q in self.quoted)
                        + "</blockquote>")
        body.extend(f'<p><a href="{escape(link.url)}">{escape(link.label)}</a></p>'
                    for link in self.links)
        return ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>'
                f"{escape(self.subject)}</title></head><body>{''.join(body)}</body></html>")


@dataclass(frozen=True)
class Reader:
    """Who reads a message: his language, his time zone and the game's name for him;
    ``scope``: the game's scope of term names (``Ruleset.term_scope``: a rule file's own
    titles, issue 20), which every text of the message is rendered in, whoever composes
    it (a command's hook, the deadline scheduler, a resend)."""

    locale: str
    tz: tzinfo | None
    game_title: str
    scope: str | None = None

    def say(self, msgid: str, **params: Any) -> str:
        """A sentence of the message: ``msgid`` in his language, its first letter a capital
        (English names a stage "day 1", which may open a sentence)."""
        said = self.text(Text(msgid, params))
        return said[:1].upper() + said[1:]

    def text(self, value: Text) -> str:
        with TermNames.scoped(self.scope):
            return localize(value, self.locale, self.tz)

    def phase(self, label: str) -> str:
        return render_phase(label, gettext_for(self.locale))

    def term(self, domain: str, term_id: str) -> str:
        with TermNames.scoped(self.scope):
            msgid = TermNames.msgid(Term(domain, term_id))
        return gettext_for(self.locale)(msgid)

    def moment(self, when: datetime) -> str:
        local = when.astimezone(self.tz) if self.tz is not None else when
        return local.strftime("%d.%m.%Y %H:%M %Z").strip()

    def subject(self, msgid: str, **params: Any) -> str:
        return f"[{self.game_title}] " + self.say(msgid, **params)


def game_title(title: str, ruleset: str, locale: str) -> str:
    return title or ruleset_name(ruleset, locale)


def _deadline(view: Mapping[str, Any]) -> datetime | None:
    value = view.get("deadline")
    if isinstance(value, datetime):
        return value
    if isinstance(value, str):
        return datetime.fromisoformat(value)
    return None


def _actions(reader: Reader, legal: Sequence[Command]) -> list[str]:
    seen: list[str] = []
    for command in legal:
        if command.action not in NOT_MOVES and command.action not in seen:
            seen.append(command.action)
    return [reader.term("action", action) for action in seen]


def confirm(reader: Reader, player: str, url: str) -> Draft:
    return Draft("confirm", reader.subject(N_("Please confirm your e-mail address")), (
        reader.say(N_("Hello {name},"), name=player),
        reader.say(N_("this address was given for {game}. Follow the link to confirm it; "
                      "until you do, nothing else is sent to it. If you did not sign up, "
                      "ignore this message."), game=reader.game_title),
    ), links=(Link(reader.say(N_("Confirm")), url),))


def private_link(reader: Reader, player: str, url: str) -> Draft:
    return Draft("link", reader.subject(N_("Your private link")), (
        reader.say(N_("Hello {name},"), name=player),
        reader.say(N_("this is your private link in {game}. It is your login: keep it to "
                      "yourself, whoever has it plays as you. A new link, when one is "
                      "issued, replaces it."), game=reader.game_title),
    ), links=(Link(reader.say(N_("Your page")), url),))


def stage(reader: Reader, view: Mapping[str, Any], legal: Sequence[Command],
          page_url: str) -> Draft:
    """A stage begins: its name, his deadline in his own zone, what he may do."""
    phase = reader.phase(str(view.get("phase", "")))
    deadline = _deadline(view)
    lines = [reader.say(N_("{phase} has begun in {game}."), phase=phase,
                        game=reader.game_title)]
    if deadline is not None:
        lines.append(reader.say(N_("Deadline: {deadline}."), deadline=reader.moment(deadline)))
    me = view.get("me") or {}
    actions = _actions(reader, legal) if me.get("alive", True) else []
    if actions:
        lines.append(reader.say(N_("What you can do now: {actions}."),
                                actions=", ".join(actions)))
    else:
        lines.append(reader.say(N_("Nothing is awaited from you in this stage.")))
    lines.append(reader.say(ACT_HINT))
    return Draft("stage", reader.subject(N_("{phase} has begun"), phase=phase), tuple(lines),
                 links=(Link(reader.say(N_("The game")), page_url),))


def reminder(reader: Reader, view: Mapping[str, Any], legal: Sequence[Command],
             page_url: str) -> Draft:
    phase = reader.phase(str(view.get("phase", "")))
    deadline = _deadline(view)
    lines = [reader.say(N_("{phase} in {game} ends at {deadline} and your input is still "
                           "awaited."), phase=phase, game=reader.game_title,
                        deadline=reader.moment(deadline) if deadline else "—")]
    actions = _actions(reader, legal)
    if actions:
        lines.append(reader.say(N_("What you can do now: {actions}."),
                                actions=", ".join(actions)))
    lines.append(reader.say(ACT_HINT))
    return Draft("reminder", reader.subject(N_("Reminder: {phase} ends soon"), phase=phase),
                 tuple(lines), links=(Link(reader.say(N_("The game")), page_url),))


def notices(reader: Reader, ruleset: Ruleset, new: Sequence[Mapping[str, Any]],
            page_url: str) -> Draft:
    """His new private notices (the last ones of his view)."""
    quoted = tuple(reader.text(notice_text(ruleset, n)) for n in new)
    from_gm = all(n.get("kind") == "gm_message" for n in new)
    subject = (N_("A message from the game master") if from_gm else N_("New private notice"))
    return Draft("notice", reader.subject(subject), (
        reader.say(N_("News for you in {game}:"), game=reader.game_title),), quoted,
        links=(Link(reader.say(N_("The game")), page_url),))


def announcements(reader: Reader, new: Sequence[Mapping[str, Any]], thread_url: str,
                  kind: str = "announcements") -> Draft:
    """New public announcements (from the public record every view holds)."""
    quoted = tuple(reader.text(from_data(a["text"])) for a in new)
    phase = reader.phase(str(new[0].get("phase", ""))) if new else ""
    return Draft(kind, reader.subject(N_("Announcements: {phase}"), phase=phase), (
        reader.say(N_("Announced in {game}:"), game=reader.game_title),), quoted,
        links=(Link(reader.say(N_("The thread")), thread_url),))


def channel_stage(reader: Reader, public: Mapping[str, Any],
                  new: Sequence[Mapping[str, Any]], thread_url: str) -> Draft:
    """For a game channel: the public announcements and the stage that began."""
    phase = reader.phase(str(public.get("phase", "")))
    deadline = _deadline(public)
    lines = [reader.say(N_("{phase} has begun in {game}."), phase=phase,
                        game=reader.game_title)]
    if deadline is not None:
        lines.append(reader.say(N_("Deadline: {deadline}."), deadline=reader.moment(deadline)))
    quoted = tuple(reader.text(from_data(a["text"])) for a in new)
    return Draft("channel", reader.subject(N_("{phase} has begun"), phase=phase),
                 tuple(lines), quoted, links=(Link(reader.say(N_("The thread")), thread_url),))


def end(reader: Reader, view: Mapping[str, Any], player: str | None,
        reveal_url: str) -> Draft:
    """The end: the winning side, his own result and role, the reveal link."""
    lines = [reader.say(N_("{game} is over."), game=reader.game_title)]
    winner = view.get("winner")
    if winner:
        lines.append(reader.say(N_("Winning side: {side}."),
                                side=reader.term("faction", str(winner))))
    if player is not None:
        won = player in (view.get("winners") or [])
        lines.append(reader.say(N_("You have won!") if won else N_("You did not win this time.")))
        role = (view.get("me") or {}).get("role")
        if role:
            lines.append(reader.say(N_("Your role: {role}."), role=reader.term("role", role)))
    return Draft("end" if player is not None else "channel",
                 reader.subject(N_("The game is over")), tuple(lines),
                 links=(Link(reader.say(N_("The full reveal")), reveal_url),))
