"""Counting a forum thread's votes on the GM's page (no HTML here; routes in
:mod:`nightfall.web.routes.gm`, template ``votecount.html``).

Groups that keep discussing in their own forum but run the game in Nightfall upload the
saved thread pages; the count is the one ``nightfall votecount --game`` makes (the game's
vote rules, players, departed and voiceless players, window and language, from
:mod:`nightfall.service.votecount`). Stricter than the command line, every uploaded file
must be a readable thread page: a GM who uploads a file means it to count, so a page that
cannot be read stops the count with its name instead of being left out with a warning.

The counted votes go back to the server with the "submit" form as a signed list (HMAC
under the server's secret): what is submitted is exactly what was counted and shown, for
this game and this stage; the page needs no server-side storage between the two requests.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, time, tzinfo
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

from starlette.datastructures import UploadFile

from nightfall.collector import gc_paused
from nightfall.engine.text import N_, Text
from nightfall.forum import (
    CastVote,
    InvalidVote,
    Page,
    PlayerListError,
    Unresolved,
    VoteCount,
    count_votes,
    limits,
    read_page,
    render_bbcode,
    zone,
)
from nightfall.forum.errors import DateError
from nightfall.forum.limits import MAX_FILE_BYTES, LimitExceeded
from nightfall.forum.report import REASONS
from nightfall.service.votecount import GameCount, SubmittedVote, parse_alias, parse_when
from nightfall.web import csrf
from nightfall.web.i18n import Translator

ALIASES_LIMIT = 5000
TIME_FORMAT = "%Y-%m-%d %H:%M"


class CountError(Exception):
    """The count cannot be made (or the votes not submitted); nothing was changed."""

    def __init__(self, status: int, msgid: str, reason: Text | None = None,
                 **params: Any) -> None:
        super().__init__(msgid)
        self.status = status
        self.msgid = msgid
        self.params = params
        self.reason = reason
        """A text of its own (the forum's words on the names) shown as ``{reason}``."""

    @classmethod
    def of_limit(cls, status: int, msgid: str, params: Any) -> CountError:
        """The error for a limit of :mod:`nightfall.forum.limits` (its msgid, params)."""
        error = cls(status, msgid)
        error.params = dict(params)
        return error

    def text(self, tr: Translator) -> Text:
        """The message, its ``reason`` rendered in the page's language."""
        params = dict(self.params)
        if self.reason is not None:
            params["reason"] = tr.text(self.reason)
        return Text(self.msgid, params)


@dataclass(frozen=True, slots=True)
class Upload:
    name: str
    data: bytes


@dataclass
class CountView:
    """A count as the section shows it."""

    files: list[tuple[str, str]]
    """(file name, detected format) of every uploaded page."""
    tally: list[tuple[str, int, list[str]]]
    """(player, votes, voters), most votes first; an Island self-vote's voter ends in *."""
    not_voting: tuple[str, ...]
    invalid: list[tuple[InvalidVote, str]]
    """Each invalid vote with its reason's msgid."""
    unresolved: tuple[Unresolved, ...]
    warnings: list[str]
    """The parsers' remarks about single posts (English, as on the command line)."""
    post: str
    """The count as a BBCode post, in the game's language."""
    self_votes: bool
    since: datetime | None
    deadline: datetime | None
    votes: list[CastVote]
    """The votes to submit (an Island non-voter's vote for himself is the engine's)."""
    sealed: str = ""
    seal: str = ""


@dataclass
class Section:
    """The "Count forum votes" section: the form's values, then a count or a submission."""

    zone: str
    """The game's time zone, of the times typed and shown."""
    since: str = ""
    deadline: str = ""
    aliases: str = ""
    default_since: str = ""
    default_deadline: str = ""
    count: CountView | None = None
    submitted: list[SubmittedVote] | None = None


def section(known: GameCount, form: Any = None) -> Section:
    """The section with the form as the GM sent it (empty fields: the game's defaults)."""
    tz = zone(known.timezone)

    def value(name: str, limit: int = 100) -> str:
        raw = form.get(name) if form is not None else None
        return raw.strip()[:limit] if isinstance(raw, str) else ""

    return Section(
        zone=known.timezone, since=value("since"), deadline=value("deadline"),
        aliases=value("aliases", ALIASES_LIMIT + 1),
        default_since=_shown(known.since, tz), default_deadline=_shown(known.deadline, tz))


def _shown(moment: datetime | None, tz: tzinfo) -> str:
    return moment.astimezone(tz).strftime(TIME_FORMAT) if moment is not None else ""


# -- reading the form ---------------------------------------------------------------------
async def read_uploads(form: Any) -> list[Upload]:
    """The uploaded files (``pages``), each read up to the size limit, within the limits of
    one count (:mod:`nightfall.forum.limits`: files, bytes, nesting)."""
    files = [f for f in form.getlist("pages") if isinstance(f, UploadFile) and f.filename]
    if not files:  # a form sent without a chosen file carries one part without a name
        raise CountError(400, N_("Choose at least one saved page of the forum thread."))
    try:
        limits.check_request([(_file_name(f.filename or ""), 0) for f in files])
        uploads = []
        total = 0
        for upload in files:
            name = _file_name(upload.filename or "")
            data = await upload.read(MAX_FILE_BYTES + 1)
            limits.check_file_size(name, len(data))
            total += len(data)
            limits.check_total(total)
            uploads.append(Upload(name, data))
    except LimitExceeded as error:
        raise CountError.of_limit(413, error.msgid, error.params) from None
    return uploads


def _file_name(raw: str) -> str:
    """The file's own name, without a folder some browsers send along."""
    return (PureWindowsPath(PurePosixPath(raw).name).name or raw)[:120]


def _moment(text: str, default: datetime | None, tz: tzinfo, default_time: time
            ) -> datetime | None:
    if not text:
        return default
    try:
        return parse_when(text, tz, default_time)
    except DateError:
        raise CountError(400, N_("Cannot read the time “{value}”: write it like "
                                 "2012-12-24 19:30. Nothing was counted."), value=text) from None


def _aliases(text: str) -> dict[str, list[str]]:
    if len(text) > ALIASES_LIMIT:
        raise CountError(400, N_("The aliases have at most {limit} characters."),
                         limit=ALIASES_LIMIT)
    aliases: dict[str, list[str]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            player, spellings = parse_alias(line)
        except ValueError:
            raise CountError(400, N_("Line {line} of the aliases is not “Name=Alias,Alias”: "
                                     "{entry}"), line=number, entry=line.strip()) from None
        aliases.setdefault(player, []).extend(spellings)
    return aliases


def read_pages(uploads: Sequence[Upload], tz: tzinfo) -> list[Page]:
    """Every file as a thread page, or an error naming the first that is none."""
    with gc_paused():  # (every page's posts live until the count: forum/detect.py read_page)
        return _read_pages(uploads, tz)


def _read_pages(uploads: Sequence[Upload], tz: tzinfo) -> list[Page]:
    pages = []
    budget = limits.Budget()  # one count's work, all files together
    for upload in uploads:
        page = read_page(upload.data, upload.name, tz, budget)
        if page.refused is not None:  # too deep or too much: refused before any parser
            msgid, params = page.refused
            raise CountError.of_limit(422, msgid, params)
        if page.format is None:
            if not upload.data.strip():
                raise CountError(400, N_("{file} is empty. Nothing was counted."),
                                 file=upload.name)
            raise CountError(415, N_(
                "{file} is not a saved forum thread page: upload the thread's pages as saved "
                "by the browser (phpBB, vBulletin, XenForo), a Discourse topic (JSON), a BBCode "
                "thread file or JSON lines. Nothing was counted."), file=upload.name)
        if not page.usable:  # the parser's own words on why (English, as on the CLI)
            detail = "; ".join(str(issue) for issue in page.issues[:3]) or page.format
            raise CountError(422, N_("{file} could not be read: no post in it could be used "
                                     "({detail}). Nothing was counted."),
                             file=upload.name, detail=detail)
        pages.append(page)
    return pages


# -- counting -----------------------------------------------------------------------------
def make_count(uploads: Sequence[Upload], known: GameCount, form: Section) -> CountView:
    """The count of the uploaded pages under the game's rules (CPU work: call it in the
    thread pool). Raises :class:`CountError`."""
    tz = zone(known.timezone)
    since = _moment(form.since, known.since, tz, time(0, 0))
    deadline = _moment(form.deadline, known.deadline, tz, known.rules.deadline_time)
    if since is not None and deadline is not None and since >= deadline:
        raise CountError(400, N_("The votes start ({start}) at or after the vote stop "
                                 "({stop}). Nothing was counted."),
                         start=_shown(since, tz), stop=_shown(deadline, tz))
    aliases = _aliases(form.aliases)
    pages = read_pages(uploads, tz)
    try:
        count = count_votes([post for page in pages for post in page.posts],
                            list(known.players), known.rules, aliases=aliases, since=since,
                            deadline=deadline, facts=known.facts)
    except PlayerListError as error:
        raise CountError(400, N_("The aliases do not fit the players: {reason}"),
                         error.reason) from None
    return _view(count, pages, tz, known.locale)


def _view(count: VoteCount, pages: Sequence[Page], tz: tzinfo, locale: str) -> CountView:
    voters: dict[str, list[str]] = {}
    for voter, vote in count.votes.items():
        voters.setdefault(vote.target, []).append(voter if vote.post is not None
                                                  else f"{voter}*")
    return CountView(
        files=[(page.file, page.format or "") for page in pages],
        tally=[(target, number, voters.get(target, [])) for target, number in
               count.tally.items()],
        not_voting=count.not_voting,
        invalid=[(item, REASONS[item.reason]) for item in count.invalid],
        unresolved=count.unresolved,
        warnings=[str(issue) for page in pages for issue in page.issues],
        post=render_bbcode(count, tz, locale),
        self_votes=any(vote.post is None for vote in count.votes.values()),
        since=count.since, deadline=count.deadline,
        votes=[vote for vote in count.votes.values() if vote.post is not None],
    )


# -- the signed list of votes to submit ---------------------------------------------------
def _sign(secret: str, value: str) -> str:
    return hmac.new(secret.encode(), b"votecount:" + value.encode(), hashlib.sha256).hexdigest()


def seal(view: CountView, secret: str, game_id: str, phase: str) -> None:
    """Put the votes to submit, signed for this game and stage, into ``view``."""
    view.sealed, view.seal = seal_votes(view.votes, secret, game_id, phase)


def seal_votes(votes: Sequence[CastVote], secret: str, game_id: str, phase: str
               ) -> tuple[str, str]:
    """The votes to submit as a list signed for this game and stage: (value, signature)
    (also for a count of the linked thread, :mod:`nightfall.web.forum_thread`)."""
    value = json.dumps({"game": game_id, "phase": phase, "votes": [
        [v.voter, v.target, v.post, v.time.isoformat() if v.time else None]
        for v in votes]}, ensure_ascii=True, separators=(",", ":"))
    return value, _sign(secret, value)


def unseal(value: object, signature: object, secret: str, game_id: str
           ) -> tuple[str, list[CastVote]]:
    """The stage and the votes of a submitted list; raises :class:`CountError` unless it
    is exactly what this server counted for this game."""
    if not (isinstance(value, str) and isinstance(signature, str)
            and csrf.same(signature, _sign(secret, value))):
        raise CountError(400, N_("The counted votes came back changed. Nothing was "
                                 "submitted: count the votes again."))
    data = json.loads(value)
    if data.get("game") != game_id:
        raise CountError(400, N_("The counted votes came back changed. Nothing was "
                                 "submitted: count the votes again."))
    votes = [CastVote(voter, target, post, datetime.fromisoformat(at) if at else None)
             for voter, target, post, at in data["votes"]]
    return str(data["phase"]), votes
