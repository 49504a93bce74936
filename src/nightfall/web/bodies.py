"""What a request body may be before any route reads it: its size and its fields.

Every form of the site is small (a post has at most 10,000 characters); only the GM's
vote count takes files (``nightfall.forum.limits``: at most 12 MB in all). A body that
announces more (``Content-Length``) is refused with 413 before a byte of it is parsed,
so nobody can make the server spool or parse hundreds of megabytes for one request.
A text field longer than any form takes (``MAX_FIELD_CHARS``) is refused with 400 by a
page that does not repeat it: a refused form is otherwise written back for correction,
and a megabyte typed into a name came back as a megabyte page. Routes clip what they
write back to their fields' own limits (:func:`clip`).
"""

from __future__ import annotations

from typing import ClassVar

from fastapi import Request

from nightfall.engine.text import N_
from nightfall.forum import limits
from nightfall.store import UnknownGame

#: the largest ordinary form (a 10,000-character post percent-encoded is ~90 kB)
MAX_FORM_BYTES = 512 * 1024
#: the vote count's upload: its files' limit and room for the other fields
MAX_UPLOAD_BYTES = limits.MAX_TOTAL_BYTES + 1024 * 1024
UPLOAD_SUFFIX = "/votecount"
#: the longest text field of any form (a post or the GM's message has 10,000 characters)
MAX_FIELD_CHARS = 20_000


class BodyTooLarge(Exception):
    """Answer 413: the body is larger than the route reads; nothing was read or changed."""

    def __init__(self, upload: bool) -> None:
        super().__init__("body too large")
        self.upload = upload
        self.message = (N_("The files have more than {limit} MB together, more than one "
                           "count reads. Nothing was counted.") if upload else
                        N_("The form is too large to be read. Nothing was changed."))
        self.params = {"limit": limits.MAX_TOTAL_MB} if upload else {}


class FieldTooLong(Exception):
    """Answer 400 with a page that does not write the field back; nothing was changed."""

    message = N_("A field of the form is longer than {limit} characters, more than any "
                 "form takes. Nothing was changed.")
    params: ClassVar[dict[str, int]] = {"limit": MAX_FIELD_CHARS}


def clip(value: str, limit: int) -> str:
    """``value`` as a refused form writes it back: at most ``limit`` characters (and a
    mark that more was cut), never the whole of an oversized input."""
    return value if len(value) <= limit else value[:limit] + "…"


def limit_of(path: str) -> int:
    return MAX_UPLOAD_BYTES if path.endswith(UPLOAD_SUFFIX) else MAX_FORM_BYTES


async def bounded_body(request: Request) -> None:
    """App-wide dependency (before any other reads the form): refuse a body that says it
    is larger than the route's limit."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    length = request.headers.get("content-length", "")
    limit = limit_of(request.url.path)
    if length.isdigit() and int(length) > limit:
        raise BodyTooLarge(limit == MAX_UPLOAD_BYTES)


async def bounded_fields(request: Request) -> None:
    """App-wide dependency: refuse a form with a text field (or field name) longer than
    ``MAX_FIELD_CHARS``."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    form = await request.form()
    for key, value in form.multi_items():
        if len(key) > MAX_FIELD_CHARS or (isinstance(value, str)
                                          and len(value) > MAX_FIELD_CHARS):
            raise FieldTooLong()


def game_locale(request: Request) -> str | None:
    """The language of the game whose private page (``/gm/…``, ``/p/…``) was posted to,
    for the refusal (``None``: no such page)."""
    parts = request.url.path.split("/")
    if len(parts) < 3 or parts[1] not in ("gm", "p") or not 0 < len(parts[2]) <= 200:
        return None
    svc = request.app.state.service
    holder = svc.store.holder(parts[2])
    if holder is None:
        return None
    try:
        return str(svc.meta(holder.game_id).locale)
    except UnknownGame:
        return None
