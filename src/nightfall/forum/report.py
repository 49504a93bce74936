"""The vote count as a BBCode post ready to paste into the thread, and as JSON.

The post is written in the thread's language: a GM pastes it into a German
(Changelings) or Russian (Island of Fear) thread. Its words are English msgids marked
with ``N_`` and translated in the Babel catalogs of :mod:`nightfall.i18n`; names, post
ids, dates (dd.mm.yyyy HH:MM) and the time zone stay as they are. Counts stand in
parentheses after a name or heading, so no sentence needs a plural form. The JSON is the
command-line contract and is never translated.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, tzinfo

from nightfall.engine.text import N_
from nightfall.forum.count import Reason, VoteCount
from nightfall.i18n import RULESET_NAMES, default_locale, gettext_for, ruleset_name

REASONS: dict[Reason, str] = {
    Reason.QUOTED: N_("quoted, not the author's own vote"),
    Reason.EDITED: N_("post edited"),
    Reason.AFTER_DEADLINE: N_("after the deadline"),
    Reason.BEFORE_START: N_("before the voting started"),
    Reason.NOT_A_PLAYER: N_("not a player"),
    Reason.UNKNOWN_NAME: N_("unknown name"),
    Reason.AMBIGUOUS_NAME: N_("ambiguous name"),
    Reason.SELF_LOVER: N_("vote for the lover"),
    Reason.VOICELESS: N_("voiceless"),
    Reason.DEPARTED: N_("departed player"),
}


def _when(moment: datetime | None, tz: tzinfo) -> str:
    return moment.astimezone(tz).strftime("%d.%m.%Y %H:%M") if moment is not None else ""


def _title(count: VoteCount, tz: tzinfo, locale: str, tr: Callable[[str], str]) -> str:
    """The first line: the rule set's display name and the counted window, if any."""
    heading = tr(N_("Vote count"))
    # the built-in rule sets' names translated (Changelings' file too), a GM's file's title
    # as it says it
    name = (count.rules.title if count.rules.title and count.rules.name not in RULESET_NAMES
            else ruleset_name(count.rules.name, locale))
    title = f"[b]{heading}[/b] — {name}"
    start, stop = _when(count.since, tz), _when(count.deadline, tz)
    if start and stop:
        window = tr(N_("votes from {start} until {stop}")).format(start=start, stop=stop)
    elif start:
        window = tr(N_("votes from {start}")).format(start=start)
    elif stop:
        window = tr(N_("votes until {stop}")).format(stop=stop)
    else:
        return title
    return f"{title}, {window} ({tz})"


def render_bbcode(count: VoteCount, tz: tzinfo, locale: str | None = None) -> str:
    """The count as a BBCode post in ``locale`` (``de``, ``en``, ``ru``; default: the
    rule set's own language, as for a new game); times shown in ``tz``."""
    language = locale or default_locale(count.rules.name)
    tr = gettext_for(language)
    lines: list[str] = [_title(count, tz, language, tr), ""]
    by_target: dict[str, list[str]] = {}
    for voter, vote in count.votes.items():
        label = voter if vote.post is not None else f"{voter}*"
        by_target.setdefault(vote.target, []).append(label)
    if count.tally:
        for target, number in count.tally.items():
            lines.append(f"[b]{target}[/b] ({number}): {', '.join(by_target.get(target, []))}")
    else:
        lines.append(tr(N_("No valid votes.")))
    if any(vote.post is None for vote in count.votes.values()):
        lines.append("* " + tr(N_("no valid vote: counts as a vote for himself")))
    lines.append("")
    heading = tr(N_("Not voting"))
    lines.append(f"[b]{heading}[/b] ({len(count.not_voting)}): "
                 + (", ".join(count.not_voting) or "—"))
    if count.invalid:
        heading = tr(N_("Invalid votes"))
        lines += ["", f"[b]{heading}[/b] ({len(count.invalid)})"]
        for item in count.invalid:
            said = f' "{item.text}"' if item.text else ""
            where = tr(N_("(post {post}, {time})")).format(post=item.post,
                                                           time=_when(item.time, tz))
            lines.append(f"{item.author}{said} {where}: {tr(REASONS[item.reason])}")
    if count.unresolved:
        heading = tr(N_("Names to check"))
        lines += ["", f"[b]{heading}[/b]"]
        for entry in count.unresolved:
            if entry.candidates:
                names = (" " + tr(N_("or")) + " ").join(entry.candidates)
                hint = tr(N_("did you mean {names}?")).format(names=names)
            else:
                hint = tr(N_("no similar player name"))
            where = tr(N_("(post {post})")).format(post=entry.post)
            lines.append(f'{entry.author} {where}: "{entry.text}" — {hint}')
    return "\n".join(lines) + "\n"


def render_json(count: VoteCount) -> str:
    """The count as the contract's JSON object (one line)."""
    return json.dumps(count.to_json(), ensure_ascii=False)
