"""The GM page's "Forum thread" section (no HTML here; routes in
:mod:`nightfall.web.routes.gm_forum`, template ``forum_thread.html``).

The GM links the game to its thread (address, cookies and headers for a closed forum,
auto-submit, review time); the section then shows every count the server kept — the ones
made at a vote deadline and the ones the GM asked for — with the pages each read (address,
answer, SHA-256, time), the notes (pages changed or gone, posts deleted or edited after
the vote stop), the votes submitted and those waiting for him. The newest count of the
running stage can be submitted with the signed list of :mod:`nightfall.web.votecount`.
Cookie and header values are never shown again, only their names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nightfall.engine.text import N_
from nightfall.forum.count import Reason
from nightfall.forum.fetch import Credentials
from nightfall.forum.report import REASONS
from nightfall.service.forum_link import ForumCount, ForumLink, ForumLinks
from nightfall.web import votecount
from nightfall.web.votecount import CountError

URL_LIMIT = 2000
CREDENTIALS_LIMIT = 8000
SHOWN_COUNTS = 5


@dataclass
class ThreadSection:
    link: ForumLink | None
    counts: list[ForumCount]
    reasons: dict[str, str] = field(default_factory=dict)
    """The msgid of each invalid reason (the JSON keeps the contract's ids)."""
    sealed: str = ""
    seal: str = ""
    """The newest count's votes, signed for the running stage (``votecount.seal``)."""
    sealed_count: int | None = None


def section(forum: ForumLinks, game_id: str, phase: str, secret: str) -> ThreadSection:
    """The section for the dashboard (database reads: call it in the thread pool)."""
    counts = forum.counts(game_id, SHOWN_COUNTS)
    shown = ThreadSection(forum.get(game_id), counts,
                          {reason.value: msgid for reason, msgid in REASONS.items()})
    newest = next((c for c in counts if c.status == "counted"), None)
    if newest is not None and newest.phase == phase and newest.votes:
        shown.sealed, shown.seal = votecount.seal_votes(newest.votes, secret, game_id, phase)
        shown.sealed_count = newest.id
    return shown


def _lines(form: Any, name: str) -> list[str]:
    raw = form.get(name)
    text = raw if isinstance(raw, str) else ""
    if len(text) > CREDENTIALS_LIMIT:
        raise CountError(400, N_("The cookies and headers have at most {limit} characters. "
                                 "Nothing was changed."), limit=CREDENTIALS_LIMIT)
    return [line.strip() for line in text.splitlines() if line.strip()]


@dataclass(frozen=True, slots=True)
class LinkForm:
    url: str
    credentials: Credentials
    auto_submit: bool
    review_minutes: int


def read_link_form(form: Any) -> LinkForm:
    """The link form; raises :class:`CountError` (nothing is changed)."""
    raw = form.get("url")
    url = raw.strip() if isinstance(raw, str) else ""
    if not url or len(url) > URL_LIMIT:
        raise CountError(400, N_("Give the address of the thread (any of its pages), at most "
                                 "{limit} characters. Nothing was changed."), limit=URL_LIMIT)
    cookies, headers = _lines(form, "cookies"), _lines(form, "headers")
    try:
        credentials = Credentials.parse(cookies, headers)
    except ValueError as error:
        raise CountError(400, N_("“{entry}” is neither a cookie “NAME=VALUE” nor a header "
                                 "“Name: value”. Nothing was changed."),
                         entry=str(error)[:60]) from None
    minutes_raw = form.get("review_minutes")
    minutes_text = minutes_raw.strip() if isinstance(minutes_raw, str) else ""
    if not minutes_text:
        minutes = 30
    elif minutes_text.isdigit() and int(minutes_text) <= 24 * 60:
        minutes = int(minutes_text)
    else:
        raise CountError(400, N_("The time for the GM's review is 0 to 1440 minutes. Nothing "
                                 "was changed."))
    return LinkForm(url, credentials, form.get("auto_submit") == "on", minutes)


def reason_msgid(reason: str) -> str:
    """The words of an invalid vote's reason id (``edited`` …)."""
    try:
        return REASONS[Reason(reason)]
    except ValueError:
        return reason
